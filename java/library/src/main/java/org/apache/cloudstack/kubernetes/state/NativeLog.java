// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Forwards the native library's Rust {@code log} records to Log4j 2, logger {@value #LOGGER_NAME}.
 * The native side calls {@link #log(int, String, String)} by name and signature
 * {@code (ILjava/lang/String;Ljava/lang/String;)V}: keep both.
 */
public final class NativeLog {
    /** The Log4j 2 logger that receives the native records and whose level is mirrored. */
    public static final String LOGGER_NAME = "org.apache.cloudstack.kubernetes.state.native";

    private static final Logger LOG = LogManager.getLogger(LOGGER_NAME);

    private NativeLog() {
    }

    /**
     * Called from native code with a {@code log_level} code (error .. trace). Never throws (an
     * exception here would be pending in the native caller).
     */
    static void log(int level, String target, String message) {
        try {
            LOG.log(toLog4j(level), "[{}] {}", target, message);
        } catch (Throwable t) { // never let anything escape into the native caller
            // nothing sensible to do: logging itself failed
        }
    }

    /**
     * Mirrors the logger's current level into the native library, so records it would drop never
     * cross JNI. Done at load; call again after changing the logger's level at run time.
     */
    public static void syncLevel() {
        NativeLibrary.load();
        applyLevel();
    }

    /** The mirroring itself; the loader calls it once the library is in. */
    static void applyLevel() {
        NativeBridge.setLogLevel(nativeLevel(LOG.getLevel()));
    }

    /** Log4j level -> native level (the {@code log_level} codes). */
    static int nativeLevel(Level level) {
        if (level == null || level.intLevel() <= Level.OFF.intLevel()) {
            return NativeCodes.LOG_LEVEL_OFF;
        }
        if (level.intLevel() <= Level.ERROR.intLevel()) {
            return NativeCodes.LOG_LEVEL_ERROR; // FATAL and ERROR
        }
        if (level.intLevel() <= Level.WARN.intLevel()) {
            return NativeCodes.LOG_LEVEL_WARN;
        }
        if (level.intLevel() <= Level.INFO.intLevel()) {
            return NativeCodes.LOG_LEVEL_INFO;
        }
        if (level.intLevel() <= Level.DEBUG.intLevel()) {
            return NativeCodes.LOG_LEVEL_DEBUG;
        }
        return NativeCodes.LOG_LEVEL_TRACE;
    }

    /** Native level -> Log4j level; unknown levels log at INFO rather than being lost. */
    static Level toLog4j(int level) {
        return switch (level) {
            case NativeCodes.LOG_LEVEL_ERROR -> Level.ERROR;
            case NativeCodes.LOG_LEVEL_WARN -> Level.WARN;
            case NativeCodes.LOG_LEVEL_INFO -> Level.INFO;
            case NativeCodes.LOG_LEVEL_DEBUG -> Level.DEBUG;
            case NativeCodes.LOG_LEVEL_TRACE -> Level.TRACE;
            default -> Level.INFO;
        };
    }
}
