// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Loads libcks_state once per JVM (class loader) and checks it matches this Java side.
 *
 * <p>Order: the file named by system property {@value #PATH_PROPERTY}; else the jar resource
 * {@code /native/<platform>/<library file>}, where the platform is {@code linux-x86_64} or
 * {@code linux-aarch64} (glibc 2.17 or later), {@code -musl} appended on a musl C library, written to a
 * folder only this OS user may change ({@code NativeExtraction}: {@code -Dcks.state.extract.dir}, the
 * temp folder, {@code ~/.cache}, {@code /var/tmp}, the first that loads); {@code java.library.path}
 * only with {@code -Dcks.state.library.search=java.library.path}. A platform the jar lacks fails with a
 * message naming it, the platforms the jar carries and {@value #PATH_PROPERTY}. Then the native ABI
 * version and the operation names are checked. A failure is remembered: every later use throws a
 * {@link CksStateNativeException} with the original cause, never a bare {@code NoClassDefFoundError}.
 */
public final class NativeLibrary {
    /** System property: explicit path of the library file; when set, nothing else is tried. */
    public static final String PATH_PROPERTY = "cks.state.library.path";
    /** System property: the platform to take as this machine's instead of detecting it ({@code linux-aarch64}). */
    public static final String PLATFORM_PROPERTY = NativePlatform.PROPERTY;
    static final String LIBRARY_NAME = "cks_state";

    private static final Object LOCK = new Object();
    private static volatile boolean loaded;
    private static volatile Throwable failure;
    private static volatile String source;
    private static String[] stateNames;
    private static String[] eventNames;

    private NativeLibrary() {
    }

    /** Loads and checks the library; harmless when already loaded. Thread-safe. */
    public static void load() {
        if (loaded) {
            return;
        }
        synchronized (LOCK) {
            if (!loaded && failure == null) {
                try {
                    source = loadOnce();
                    loaded = true;
                } catch (Throwable t) { // remembered: also UnsatisfiedLinkError and friends
                    failure = t;
                }
            }
        }
        if (!loaded) {
            Throwable cause = failure;
            throw new CksStateNativeException("cks-state native library is not available: " + cause.getMessage(), cause);
        }
    }

    /** The loaded library's ABI version (equals the Java side's once {@link #load()} succeeded). */
    public static int abiVersion() {
        load();
        return NativeBridge.abiVersion();
    }

    /** The ABI version this Java side expects. */
    public static int expectedAbiVersion() {
        return NativeBridge.ABI_VERSION;
    }

    /** The library jar's Maven version ("dev" when running from classes): what a server logs at start. */
    public static String version() {
        return LibraryLocator.version();
    }

    /** Where the library came from (a path, or "java.library.path"); null before a successful load. */
    public static String source() {
        return source;
    }

    /** The jar's platform folder whose library was loaded ({@code linux-x86_64}); null when it came from a path. */
    public static String platform() {
        return loaded ? LibraryLocator.loadedPlatform() : null;
    }

    /** State names by code (cold; loaded). */
    static String[] stateNames() {
        load();
        return stateNames;
    }

    /** Event names by code (cold; loaded). */
    static String[] eventNames() {
        load();
        return eventNames;
    }

    private static String loadOnce() {
        String where = LibraryLocator.loadFirstAvailable();
        checkAbi(NativeBridge.abiVersion(), where);
        checkOperations(NativeBridge.names(NativeCodes.NAMES_OPERATIONS), where);
        stateNames = NativeBridge.names(NativeCodes.NAMES_STATES);
        eventNames = NativeBridge.names(NativeCodes.NAMES_EVENTS);
        return where;
    }

    /** The library's ABI must be the one NativeBridge was written against. */
    static void checkAbi(int nativeAbi, String where) {
        if (nativeAbi != NativeBridge.ABI_VERSION) {
            throw new IllegalStateException("native library " + where + " has ABI version " + nativeAbi
                    + " but this Java side (cks-state " + LibraryLocator.version() + ") needs ABI version "
                    + NativeBridge.ABI_VERSION);
        }
    }

    /** The Operation enum's order is the native operation code: names must match one to one. */
    static void checkOperations(String[] names, String where) {
        Operation[] ops = Operation.values();
        List<String> expected = new ArrayList<>();
        for (Operation op : ops) {
            expected.add(op.specName());
        }
        boolean same = names != null && names.length == ops.length;
        for (int i = 0; same && i < ops.length; i++) {
            same = normalize(names[i]).equals(normalize(ops[i].specName()));
        }
        if (!same) {
            throw new IllegalStateException("native library " + where + " names the operations "
                    + (names == null ? "null" : Arrays.toString(names)) + " but the Java side expects " + expected);
        }
    }

    /** "AddNodes", "ADD_NODES" and "add-nodes" are the same operation. */
    private static String normalize(String name) {
        return name == null ? "" : name.replace("_", "").replace("-", "").toLowerCase(java.util.Locale.ROOT);
    }
}
