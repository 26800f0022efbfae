// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cloudstack.kubernetes.state.value.Arguments;

/**
 * The table of a CloudStack release: the profile of its line (4.20.1.0 has 4.20.0's, 4.20.3.0 4.20.2's),
 * or, for a release older or newer than every line the library knows, the nearest table and that it
 * is only the nearest. The core decides ({@code profileForRelease}); this class only reads the version.
 *
 * @param release the version as CloudStack writes it ({@code version.version}, a package's version)
 * @param profile the table of that release, or the nearest
 * @param fit     how the release stands to the library's tables
 */
public record ReleaseTable(String release, Profile profile, Fit fit) {
    /** CloudStackVersion's forms: 3 or 4 numbers, then an optional branding, build or -SNAPSHOT. */
    private static final Pattern VERSION = Pattern.compile("(\\d{1,5})\\.(\\d{1,5})\\.(\\d{1,5})(?:\\.(\\d{1,5}))?(?:-[-\\w]*)?");

    /** How a release stands to the library's tables. */
    public enum Fit {
        /** A release of a line the library has a table for: that table is its own. */
        KNOWN(NativeCodes.RELEASE_FIT_KNOWN),
        /** Older than every table: the oldest, the nearest. */
        OLDER(NativeCodes.RELEASE_FIT_OLDER),
        /** Of a line newer than every table: the newest, the nearest. */
        NEWER(NativeCodes.RELEASE_FIT_NEWER);

        private final int code;

        Fit(int code) {
            this.code = code;
        }

        static Fit ofCode(int code) {
            for (Fit f : values()) {
                if (f.code == code) {
                    return f;
                }
            }
            throw new IllegalStateException("the native library answered an unknown release fit " + code);
        }
    }

    public ReleaseTable {
        Arguments.required(release, "release");
        Arguments.required(profile, "profile");
        Arguments.required(fit, "fit");
    }

    /** The table of CloudStack {@code release} ("4.20.2.0", "4.22.0.0-SNAPSHOT"); IAE naming a version it cannot read. */
    public static ReleaseTable of(String release) {
        Arguments.required(release, "release");
        Matcher m = VERSION.matcher(release.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("release: '" + release + "' is not a CloudStack version (4.20.2.0)");
        }
        int[] parts = new int[4];
        for (int i = 0; i < 4; i++) {
            String part = m.group(i + 1);
            parts[i] = part == null ? 0 : Integer.parseInt(part);
        }
        NativeLibrary.load();
        long packed = NativeBridge.profileForRelease(parts[0], parts[1], parts[2], parts[3]);
        return new ReleaseTable(release.trim(), Profile.ofCode(NativeCodes.releaseProfile(packed)),
                Fit.ofCode(NativeCodes.releaseFit(packed)));
    }

    /** Whether the table is the release's own. */
    public boolean known() {
        return fit == Fit.KNOWN;
    }

    /** Why this table ("CloudStack 4.20.2.0's"; for a release without one, that it is only the nearest). */
    public String describe() {
        return switch (fit) {
            case KNOWN -> "CloudStack " + release + "'s";
            case OLDER -> "the oldest table: CloudStack " + release + " is older than every table of this library";
            case NEWER -> "the newest table: CloudStack " + release + " is newer than every table of this library";
        };
    }
}
