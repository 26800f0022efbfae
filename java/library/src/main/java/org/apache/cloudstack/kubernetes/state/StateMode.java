// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.Locale;

/**
 * How cluster state is written, chosen once for the whole stack: COMPAT (upstream's compare-and-set
 * on the state, the default, needs no schema change) or FENCED (compare-and-set on state and
 * {@code state_version}, with the operation's owner; needs {@code CloudStackSchema.migrateUp}). The
 * mode is data: the same classes run both, and the native core decides what each mode writes.
 * See {@code docs/fenced-mode.md}.
 */
public enum StateMode {
    COMPAT(NativeCodes.MODE_COMPAT),
    FENCED(NativeCodes.MODE_FENCED);

    /** The configuration key: CloudStack's global setting of that name (the plugin's ConfigKey), or a system property. */
    public static final String CONFIG_KEY = "cloud.kubernetes.cluster.state.mode";

    private final int code;

    StateMode(int code) {
        this.code = code;
    }

    /** The mode of a configuration value: null or blank means COMPAT; else "compat" / "fenced". */
    public static StateMode fromConfig(String value) {
        if (value == null || value.isBlank()) {
            return COMPAT;
        }
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (StateMode m : values()) {
            if (m.label().equals(v)) {
                return m;
            }
        }
        throw new IllegalArgumentException(CONFIG_KEY + " '" + value + "' is neither 'compat' nor 'fenced'");
    }

    /** "compat" / "fenced". */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    int code() {
        return code;
    }
}
