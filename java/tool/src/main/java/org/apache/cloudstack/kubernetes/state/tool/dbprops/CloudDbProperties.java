// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.dbprops;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The management server's database settings from its {@code db.properties}, read with the same
 * keys, precedence and URL assembly (CloudStack 4.19 and later), its {@code ENC(...)} values
 * decrypted with the management key as the server gets it ({@code db.cloud.encryption.type}).
 * Never puts a value of the file in a message.
 */
public final class CloudDbProperties {
    /** The environment variable of {@code db.cloud.encryption.type=env}. */
    public static final String KEY_ENV = "CLOUD_SECRET_KEY";

    private CloudDbProperties() {
    }

    /**
     * @param file    the db.properties
     * @param keyFile the management key's file instead of the one the encryption type names (null: none)
     * @param env     the environment (System.getenv())
     */
    public static DbSettings read(Path file, Path keyFile, Map<String, String> env) throws DbSettingsException {
        Properties p = load(file);
        String type = p.getProperty("db.cloud.encryption.type");
        CloudStackDecryptor decryptor = null;
        if (keyFile != null) {
            decryptor = new CloudStackDecryptor(keyFrom(keyFile, "--key-file"));
        } else if (type != null && !type.isEmpty() && !type.equals("none")) {
            decryptor = new CloudStackDecryptor(key(type, file, env));
        }
        String user = value(p, "db.cloud.username", decryptor);
        String password = value(p, "db.cloud.password", decryptor);
        List<String> urls = settingsUrls(p, decryptor);
        return new DbSettings(urls.get(0), user, password, urls.size() == 1 ? urls : urls.subList(1, urls.size()));
    }

    /**
     * The properties of {@code file} written ENC(...) although it names no encryption type (or none):
     * the server uses such a value as written, which is seldom meant. Never their values.
     */
    public static List<String> encryptedWithoutEncryption(Path file) throws DbSettingsException {
        Properties p = load(file);
        String type = p.getProperty("db.cloud.encryption.type");
        if (type != null && !type.isBlank() && !type.strip().equals("none")) {
            return List.of();
        }
        return p.stringPropertyNames().stream().filter(n -> n.startsWith("db.cloud."))
                .filter(n -> p.getProperty(n).strip().startsWith("ENC(")).sorted().toList();
    }

    private static Properties load(Path file) throws DbSettingsException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            throw new DbSettingsException("--db-properties " + file + ": no such file");
        } catch (IOException | IllegalArgumentException e) {
            throw new DbSettingsException("--db-properties " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
        }
        return p;
    }

    /** The management key for an encryption type, as the server finds it. */
    private static String key(String type, Path file, Map<String, String> env) throws DbSettingsException {
        switch (type) {
            case "file": {
                Path beside = file.toAbsolutePath().getParent().resolve("key");
                return keyFrom(beside, "db.cloud.encryption.type=file");
            }
            case "env": {
                String key = env.get(KEY_ENV);
                if (key == null || key.isEmpty()) {
                    throw new DbSettingsException("db.cloud.encryption.type=env: the environment variable " + KEY_ENV
                            + " is not set (or give --key-file)");
                }
                return key;
            }
            case "web":
                throw new DbSettingsException("db.cloud.encryption.type=web: the management server receives its key"
                        + " over port 8097 at start, which a tool cannot do; give the key with --key-file");
            default:
                throw new DbSettingsException("db.cloud.encryption.type=" + type + " is not supported"
                        + " (none, file, env or web)");
        }
    }

    /** The first line of a key file, its line end stripped. */
    private static String keyFrom(Path keyFile, String why) throws DbSettingsException {
        try {
            String first = Files.readString(keyFile, StandardCharsets.UTF_8).lines().findFirst().orElse("");
            if (first.isEmpty()) {
                throw new DbSettingsException(why + ": the key file " + keyFile + " is empty");
            }
            return first;
        } catch (NoSuchFileException e) {
            throw new DbSettingsException(why + ": no key file " + keyFile + (why.equals("--key-file") ? ""
                    : " (give the management key's file with --key-file)"));
        } catch (IOException e) {
            throw new DbSettingsException(why + ": cannot read the key file " + keyFile + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** A property as the server reads it: an ENC(...) value decrypted when encryption is on. */
    private static String value(Properties p, String name, CloudStackDecryptor decryptor) throws DbSettingsException {
        String v = p.getProperty(name);
        if (v == null || decryptor == null || !v.startsWith("ENC(") || !v.endsWith(")")) {
            return v;
        }
        String plain = decryptor.decrypt(v.substring(4, v.length() - 1));
        if (plain == null) {
            throw new DbSettingsException("cannot decrypt " + name + ": wrong management key, or not a value"
                    + " CloudStack encrypted (tried V2 AES-256-GCM and V1 jasypt PBEWithMD5AndDES)");
        }
        return plain;
    }

    /** The HA parameters the server appends, each from {@code db.cloud.<name>} (older name second). */
    private static final String[][] HA_PARAMETERS = {{"failOverReadOnly", null}, {"reconnectAtTxEnd", null},
        {"autoReconnectForPools", null}, {"secondsBeforeRetrySource", "secondsBeforeRetryMaster"},
        {"queriesBeforeRetrySource", "queriesBeforeRetryMaster"}, {"initialTimeout", null}};

    /** db.cloud.uri when set (4.19+), else driver://host:port/name?autoReconnect=...&url.params&useSSL=true. */
    static String url(Properties p, CloudStackDecryptor decryptor) throws DbSettingsException {
        return settingsUrls(p, decryptor).get(0);
    }

    /**
     * The server's URL, then what the tool tries: the same, or with {@code db.ha.enabled=true} one
     * URL per host (source first, then each of {@code db.cloud.replicas}, older name
     * {@code db.cloud.slaves}), as TransactionLegacy builds it: host list, then the port once, and
     * the HA parameters after autoReconnect, url.params and useSSL. Not {@code loadBalanceStrategy}:
     * its default is a class of the management server. Each host without a port of its own gets
     * {@code db.cloud.port} (the server's single URL gives it to the last host only, the others take
     * the driver's default, 3306).
     */
    static List<String> settingsUrls(Properties p, CloudStackDecryptor decryptor) throws DbSettingsException {
        String uri = value(p, "db.cloud.uri", decryptor);
        if (uri != null && !uri.isEmpty()) {
            return List.of(uri);
        }
        String driver = value(p, "db.cloud.driver", decryptor);
        String host = value(p, "db.cloud.host", decryptor);
        String port = value(p, "db.cloud.port", decryptor);
        String name = value(p, "db.cloud.name", decryptor);
        for (String[] required : new String[][] {{"db.cloud.driver", driver}, {"db.cloud.host", host},
            {"db.cloud.port", port}, {"db.cloud.name", name}}) {
            if (required[1] == null || required[1].isBlank()) {
                throw new DbSettingsException("db.properties has neither db.cloud.uri nor " + required[0]);
            }
        }
        List<String> hosts = new ArrayList<>();
        hosts.add(host.strip());
        boolean ha = Boolean.parseBoolean(value(p, "db.ha.enabled", decryptor));
        if (ha) {
            String replicas = value(p, "db.cloud.replicas", decryptor);
            if (replicas == null) {
                replicas = value(p, "db.cloud.slaves", decryptor);
            }
            if (replicas == null || replicas.isBlank()) {
                throw new DbSettingsException("db.ha.enabled=true but db.properties names no replica"
                        + " (db.cloud.replicas)");
            }
            for (String r : replicas.split(",")) {
                if (!r.isBlank()) {
                    hosts.add(r.strip());
                }
            }
        }
        StringBuilder query = new StringBuilder("?autoReconnect=")
                .append(Boolean.parseBoolean(value(p, "db.cloud.autoReconnect", decryptor)));
        String params = value(p, "db.cloud.url.params", decryptor);
        if (params != null) {
            query.append('&').append(params);
        }
        if (Boolean.parseBoolean(value(p, "db.cloud.useSSL", decryptor))) {
            query.append("&useSSL=true");
        }
        if (ha) {
            for (String[] key : HA_PARAMETERS) {
                String v = value(p, "db.cloud." + key[0], decryptor);
                if (v == null && key[1] != null) {
                    v = value(p, "db.cloud." + key[1], decryptor);
                }
                if (v != null) { // the server would write "null", which the driver refuses
                    query.append('&').append(key[0]).append('=').append(v.strip());
                }
            }
        }
        String prefix = driver.strip() + "://";
        String path = "/" + name.strip() + query;
        List<String> urls = new ArrayList<>();
        urls.add(prefix + String.join(",", hosts) + ":" + port.strip() + path);
        if (ha) {
            for (String h : hosts) {
                urls.add(prefix + (hasPort(h) ? h : h + ":" + port.strip()) + path);
            }
        }
        return urls;
    }

    private static boolean hasPort(String host) {
        int colon = host.lastIndexOf(':');
        return colon > 0 && host.indexOf(']') < colon && host.substring(colon + 1).matches("[0-9]+");
    }
}
