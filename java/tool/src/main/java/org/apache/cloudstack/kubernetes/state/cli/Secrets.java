// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.cli;

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
final class Secrets {
    static final String MASK = "****";

    private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();
    /** user:password@ in a URL's authority (the user part has no ':', '/' or '@'). */
    private static final Pattern USERINFO = Pattern.compile("(//[^/:@\\s]*:)([^@\\s]*)@");
    /** password=... (or pwd=) as a URL parameter: after ?, & or ; up to the next separator. */
    private static final Pattern PARAMETER = Pattern.compile("(?i)([?&;](?:password|pwd)=)([^&;\\s]*)");

    private Secrets() {
    }

    static void register(String secret) {
        if (secret != null && !secret.isEmpty()) {
            KNOWN.add(secret);
        }
    }

    /** Registers every password a JDBC URL carries, as written and URL-decoded. */
    static void registerUrl(String url) {
        if (url == null) {
            return;
        }
        for (Pattern p : List.of(USERINFO, PARAMETER)) {
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
        return PARAMETER.matcher(out).replaceAll("$1" + MASK);
    }

    /** A URL as it may be shown: its password masked, and without its parameters (after '?', or H2's ';'). */
    static String displayUrl(String url) {
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
}
