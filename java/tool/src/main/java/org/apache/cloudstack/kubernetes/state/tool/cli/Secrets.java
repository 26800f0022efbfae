// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The secrets this run knows (database passwords, however given), masked in every line the tool
 * prints. A URL's own password shapes are masked even when they were never registered.
 */
public final class Secrets {
    static final String MASK = "****";

    private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();
    /** user:password@ in a URL's authority (the user part has no ':', '/' or '@'). */
    private static final Pattern USERINFO = Pattern.compile("(//[^/:@\\s]*:)([^@\\s]*)@");
    /** password=... (or pwd=) as a URL parameter: after ?, & or ; up to the next separator. */
    private static final Pattern PARAMETER = Pattern.compile("(?i)([?&;](?:password|pwd)=)([^&;\\s]*)");
    /** password=... in Connector/J's address=(host=...)(password=...) and (host=...,password=...) forms of a host. */
    private static final Pattern ADDRESS_PARAMETER = Pattern.compile("(?i)([(,]\\s*(?:password|pwd)\\s*=)([^),]*)([),])");
    /** A URL with hosts: its scheme, its host section (up to '/', '?' or '#', as Connector/J reads it), the rest. */
    private static final Pattern HOSTS_URL = Pattern.compile("(?is)^(jdbc:[a-z0-9]+(?::[a-z]+)?:)//([^/?#]*)(.*)$");
    /** A host as it may be shown: a name or an address, and a port. */
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._%-]+)(:\\d+)?");
    /** The database after the host section: a plain name, nothing else of the URL. */
    private static final Pattern DATABASE = Pattern.compile("^/([A-Za-z0-9_$.-]*)(?:[?;#].*)?$", Pattern.DOTALL);

    private Secrets() {
    }

    public static void register(String secret) {
        if (secret != null && !secret.isEmpty()) {
            KNOWN.add(secret);
        }
    }

    /** Registers every password a JDBC URL carries, as written and URL-decoded. */
    public static void registerUrl(String url) {
        if (url == null) {
            return;
        }
        for (Pattern p : List.of(USERINFO, PARAMETER, ADDRESS_PARAMETER)) {
            Matcher m = p.matcher(url);
            while (m.find()) {
                register(m.group(2));
                register(decoded(m.group(2)));
            }
        }
    }

    private static String decoded(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    /** {@code text} with every known secret and every password shape of a URL masked (a driver's text). */
    static String mask(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        // Longest first, so that a secret containing another is masked whole.
        List<String> known = KNOWN.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
        for (String s : known) {
            out = out.replace(s, MASK);
        }
        return maskShapes(out);
    }

    /**
     * {@code text} with the password shapes of URLs masked: for the tool's own words, which never
     * hold a password otherwise (a weak password such as "cloud" must not blank out every "cloud").
     */
    static String maskShapes(String text) {
        if (text == null) {
            return null;
        }
        String out = USERINFO.matcher(text).replaceAll("$1" + MASK + "@");
        out = ADDRESS_PARAMETER.matcher(out).replaceAll("$1" + MASK + "$3");
        return PARAMETER.matcher(out).replaceAll("$1" + MASK);
    }

    /**
     * A URL as it may be shown: its scheme, each host as host:port, and its database; nothing else
     * (no user, password or parameter, in whatever form the driver takes them). A URL of another shape
     * (H2's) without its parameters, its password shapes masked.
     */
    static String displayUrl(String url) {
        Matcher m = HOSTS_URL.matcher(url == null ? "" : url);
        if (m.matches()) {
            String section = m.group(2);
            // User info ends at the section's last '@' outside parentheses (a password may hold '@', ',' or ';').
            int depth = 0;
            int at = -1;
            for (int i = 0; i < section.length(); i++) {
                char ch = section.charAt(i);
                depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
                at = ch == '@' && depth == 0 ? i : at;
            }
            List<String> hosts = new java.util.ArrayList<>();
            for (String host : section.substring(at + 1).split(",(?![^(]*\\))")) {
                hosts.add(hostAndPort(host.strip()));
            }
            Matcher db = DATABASE.matcher(m.group(3));
            String database = m.group(3).isEmpty() ? "" : db.matches() ? "/" + db.group(1) : "/?";
            return m.group(1) + "//" + String.join(",", hosts) + database;
        }
        String masked = maskShapes(url);
        int end = masked.length();
        for (char c : new char[] {'?', ';'}) {
            int at = masked.indexOf(c);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return masked.substring(0, end);
    }

    /**
     * A host of a URL as host:port: also from Connector/J's address=(host=..)(port=..) and
     * (host=..,port=..) forms, whose other keys (a password among them) are dropped; "?" for anything
     * that is not a host and port (what a password in an odd place leaves).
     */
    private static String hostAndPort(String host) {
        if (host.toLowerCase(java.util.Locale.ROOT).startsWith("address=") || host.startsWith("(")) {
            String name = "?";
            String port = null;
            for (String pair : host.replaceFirst("(?i)^address=", "").split("[(),]")) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? "" : pair.substring(0, eq).strip().toLowerCase(java.util.Locale.ROOT);
                if (key.equals("host")) {
                    name = pair.substring(eq + 1).strip();
                } else if (key.equals("port")) {
                    port = pair.substring(eq + 1).strip();
                }
            }
            String shown = port == null ? name : name + ":" + port;
            return HOST_PORT.matcher(shown).matches() ? shown : "?";
        }
        return HOST_PORT.matcher(host).matches() ? host : "?";
    }
}
