// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The platform this JVM runs on, named as the jar's native folders are: {@code <os>-<arch>}, with
 * {@code -musl} on a musl C library ({@code linux-x86_64}, {@code linux-aarch64-musl}). The jar's
 * {@code /native/platforms} lists the folders it carries (written by scripts/native.sh).
 */
record NativePlatform(String name, String osName, String osArch, String libc, boolean overridden) {
    /** System property: the platform to take as this machine's instead of detecting it. */
    static final String PROPERTY = "cks.state.platform";
    static final String INDEX_RESOURCE = "/native/platforms";
    /** What every glibc build in the jar needs at least. */
    static final String GLIBC_FLOOR = "2.17";

    /** This JVM's platform, or the one {@value #PROPERTY} names. */
    static NativePlatform current() {
        String osName = System.getProperty("os.name", "");
        String osArch = System.getProperty("os.arch", "");
        String forced = System.getProperty(PROPERTY);
        if (forced != null && !forced.isBlank()) {
            String name = forced.trim();
            return new NativePlatform(name, osName, osArch, name.endsWith("-musl") ? "musl" : "as named", true);
        }
        String os = os(osName);
        String libc = os.equals("linux") ? linuxLibc() : "the system's";
        String name = os + "-" + arch(osArch) + (libc.equals("musl") ? "-musl" : "");
        return new NativePlatform(name, osName, osArch, libc, false);
    }

    /** {@code /native/<platform>/<mapped library name>}. */
    String resourcePath() {
        return "/native/" + name + "/" + System.mapLibraryName(NativeLibrary.LIBRARY_NAME);
    }

    /** The message for a jar that has no build for this platform: what was found, what there is, what to do. */
    String missingMessage(List<String> carried) {
        String library = System.mapLibraryName(NativeLibrary.LIBRARY_NAME);
        return "cks-state has no native library for this platform: " + name
                + " (os.name " + osName + ", os.arch " + osArch + ", C library " + libc
                + (overridden ? ", set by -D" + PROPERTY : "") + "). This jar carries "
                + (carried.isEmpty() ? "no native library" : String.join(", ", carried) + " (glibc " + GLIBC_FLOOR + " or later)")
                + ". Build " + library + " for this platform and name it with -D" + NativeLibrary.PATH_PROPERTY
                + "=/path/to/" + library;
    }

    /** The platforms the jar (class path) carries, from its index; empty without one. */
    static List<String> carried() {
        List<String> names = new ArrayList<>();
        try (InputStream in = NativePlatform.class.getResourceAsStream(INDEX_RESOURCE)) {
            if (in != null) {
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (!line.isBlank()) {
                        names.add(line.trim());
                    }
                }
            }
        } catch (IOException e) {
            // an unreadable index only shortens the message
        }
        return names;
    }

    static String os(String osName) {
        String n = osName.toLowerCase(Locale.ROOT);
        if (n.startsWith("linux")) {
            return "linux";
        }
        if (n.startsWith("mac") || n.startsWith("darwin")) {
            return "macos";
        }
        if (n.startsWith("windows")) {
            return "windows";
        }
        return n.replaceAll("[^a-z0-9]", "");
    }

    static String arch(String osArch) {
        String a = osArch.toLowerCase(Locale.ROOT);
        switch (a) {
            case "amd64":
            case "x86_64":
            case "x64":
                return "x86_64";
            case "aarch64":
            case "arm64":
                return "aarch64";
            default:
                return a.replaceAll("[^a-z0-9_]", "");
        }
    }

    /** musl or glibc, from what this process has mapped: musl's loader is also its C library. */
    private static String linuxLibc() {
        Path maps = Paths.get("/proc/self/maps");
        try (Stream<String> lines = Files.lines(maps, StandardCharsets.ISO_8859_1)) {
            return libcOf(lines);
        } catch (IOException | java.io.UncheckedIOException e) {
            return "glibc";
        }
    }

    /** The C library named by lines of {@code /proc/<pid>/maps}. */
    static String libcOf(Stream<String> mapsLines) {
        return mapsLines.anyMatch(l -> l.contains("/ld-musl-") || l.contains("/libc.musl-")) ? "musl" : "glibc";
    }
}
