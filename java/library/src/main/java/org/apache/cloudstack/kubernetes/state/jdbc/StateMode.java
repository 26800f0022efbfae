package org.apache.cloudstack.kubernetes.state.jdbc;

import java.util.Locale;

/**
 * How cluster state is written: COMPAT (upstream's compare-and-set on the state, the default,
 * needs no schema change) or FENCED (compare-and-set on state and {@code state_version}, with the
 * operation's owner; needs {@link FencedSchema#migrateUp}). See {@code docs/fenced-mode.md}.
 */
public enum StateMode {
    COMPAT,
    FENCED;

    /** The configuration key (a system property, or CloudStack's global setting of that name). */
    public static final String CONFIG_KEY = "cks.state.mode";

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
}
