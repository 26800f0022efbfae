package org.apache.cloudstack.kubernetes.state.dbprops;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
        return new DbSettings(url(p, decryptor), user, password);
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

    /** db.cloud.uri when set (4.19+), else driver://host:port/name?autoReconnect=...&url.params&useSSL=true. */
    static String url(Properties p, CloudStackDecryptor decryptor) throws DbSettingsException {
        String uri = value(p, "db.cloud.uri", decryptor);
        if (uri != null && !uri.isEmpty()) {
            return uri;
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
        StringBuilder url = new StringBuilder(driver.strip()).append("://").append(host.strip()).append(':')
                .append(port.strip()).append('/').append(name.strip()).append("?autoReconnect=")
                .append(Boolean.parseBoolean(value(p, "db.cloud.autoReconnect", decryptor)));
        String params = value(p, "db.cloud.url.params", decryptor);
        if (params != null) {
            url.append('&').append(params);
        }
        if (Boolean.parseBoolean(value(p, "db.cloud.useSSL", decryptor))) {
            url.append("&useSSL=true");
        }
        return url.toString();
    }
}
