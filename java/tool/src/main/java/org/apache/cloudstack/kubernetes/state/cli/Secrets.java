package org.apache.cloudstack.kubernetes.state.cli;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The secrets this run knows (database passwords), masked in every line the tool prints about an error. */
final class Secrets {
    private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();

    private Secrets() {
    }

    static void register(String secret) {
        if (secret != null && !secret.isEmpty()) {
            KNOWN.add(secret);
        }
    }

    static String mask(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String s : KNOWN) {
            out = out.replace(s, "****");
        }
        return out;
    }
}
