// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;

/**
 * Finds and loads the native library file: the file named by {@value NativeLibrary#PATH_PROPERTY},
 * else the jar's own build for this platform, extracted where {@link NativeExtraction} allows; only
 * when {@value #SEARCH_PROPERTY}{@code =java.library.path} asks for it, and the jar has no build that
 * loads, {@code java.library.path} (a library found there runs its constructor before any check:
 * never by default).
 *
 * <p>Folders: the jar's build is written to the first of {@value #EXTRACT_DIR_PROPERTY},
 * {@code java.io.tmpdir}, {@code ~/.cache} and {@code /var/tmp} that is safe and whose file system
 * lets it load (a temp folder mounted noexec is common on hardened hosts); a failure names each
 * folder tried and why.
 *
 * <p>Several class loaders: the JVM binds a native library file to the first class loader that
 * loads it, and refuses it to every other ({@code UnsatisfiedLinkError: ... already loaded in
 * another classloader}). A second class loader (an application server's second web app, plugin
 * or test class loader) therefore loads a private copy of the file: its own instance of the
 * library, with its own statics (its binding to that loader's enum classes among them).
 */
final class LibraryLocator {
    /** System property: {@code java.library.path} to let the loader search it when the jar's build does not load. */
    static final String SEARCH_PROPERTY = "cks.state.library.search";
    /** System property: a folder to write the jar's build to before the others. */
    static final String EXTRACT_DIR_PROPERTY = "cks.state.extract.dir";
    /** Written by the build (filtered); kept by a shaded jar, which drops META-INF/maven. */
    private static final String VERSION_PROPERTIES = "/org/apache/cloudstack/kubernetes/state/cks-state.properties";

    /** The jar folder whose library was loaded; null when it came from a path (written under NativeLibrary's lock). */
    private static volatile String loadedPlatform;

    private LibraryLocator() {
    }

    static String loadedPlatform() {
        return loadedPlatform;
    }

    /** Loads the library and returns where it came from; throws with every attempt's reason. */
    static String loadFirstAvailable() {
        String explicit = System.getProperty(NativeLibrary.PATH_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            return loadExplicit(explicit.trim());
        }
        NativePlatform platform = NativePlatform.current();
        String resource = platform.resourcePath();
        List<String> tried = new ArrayList<>();
        byte[] bytes;
        try {
            bytes = resourceBytes(resource);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + " from the jar: " + e.getMessage(), e);
        }
        boolean misfit = false;
        if (bytes != null) {
            String sha256 = sha256(bytes);
            for (Path base : extractionBases()) {
                Path file = base;
                try {
                    file = NativeExtraction.extract(base, bytes, sha256, version());
                    String where = load(file, bytes);
                    loadedPlatform = platform.name();
                    return where;
                } catch (IOException e) {
                    tried.add(base + ": " + NativeExtraction.reason(e));
                } catch (UnsatisfiedLinkError e) {
                    // The JVM names the file twice before its reason: once is enough, after the folder.
                    tried.add(base + ": " + NativeExtraction.reason(e).replace(file + ": ", ""));
                    // Not the folder's fault (an older glibc, another machine): no other folder does better.
                    misfit = !NativeExtraction.noexec(e) && !String.valueOf(e.getMessage()).contains("Permission denied");
                    if (misfit) {
                        break;
                    }
                }
            }
        } else {
            tried.add(platform.missingMessage(NativePlatform.carried()));
        }
        if ("java.library.path".equals(System.getProperty(SEARCH_PROPERTY))) {
            try {
                System.loadLibrary(NativeLibrary.LIBRARY_NAME);
                return "java.library.path";
            } catch (UnsatisfiedLinkError e) {
                tried.add("java.library.path: " + e.getMessage());
            }
        }
        if (bytes == null) {
            throw new IllegalStateException(String.join("; ", tried));
        }
        throw new IllegalStateException(misfit
                ? "cannot load the jar's " + resource + " (" + String.join("; ", tried) + "): it does not fit this machine"
                + " (a C library older than glibc 2.17, or another architecture); name a library built for it with -D"
                + NativeLibrary.PATH_PROPERTY
                : "cannot load the jar's " + resource + " from any folder tried (" + String.join("; ", tried) + "): mount a"
                + " folder the JVM user owns without noexec, and name it with -D" + EXTRACT_DIR_PROPERTY + ", or name a"
                + " library file with -D" + NativeLibrary.PATH_PROPERTY);
    }

    /** The folders the jar's build may be written to, in order: the property's, the temp folder, ~/.cache, /var/tmp. */
    static List<Path> extractionBases() {
        List<Path> bases = new ArrayList<>();
        String explicit = System.getProperty(EXTRACT_DIR_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            bases.add(Paths.get(explicit.trim()));
        }
        bases.add(Paths.get(System.getProperty("java.io.tmpdir", "/tmp")));
        String home = System.getProperty("user.home");
        if (home != null && !home.isBlank() && !home.equals("?")) {
            Path cache = Paths.get(home, ".cache");
            try {
                if (!Files.isDirectory(cache)) {
                    // 0700 whatever the umask: a group-writable one would never be trusted.
                    Files.createDirectory(cache, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
                }
                bases.add(cache);
            } catch (IOException e) {
                // a home without a cache folder it may create: not a candidate
            }
        }
        bases.add(Paths.get("/var/tmp"));
        return bases.stream().map(p -> p.toAbsolutePath().normalize()).distinct().toList();
    }

    private static String loadExplicit(String file) {
        Path path = Paths.get(file).toAbsolutePath();
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException("-D" + NativeLibrary.PATH_PROPERTY + " names " + path
                    + ", which is not an existing file");
        }
        try {
            return load(path, null);
        } catch (UnsatisfiedLinkError e) {
            UnsatisfiedLinkError named = new UnsatisfiedLinkError(NativeExtraction.loadFailure(path, e));
            named.initCause(e);
            throw named;
        }
    }

    /** System.load, or a private copy when another class loader already holds this file. */
    private static String load(Path path, byte[] bytes) {
        try {
            System.load(path.toString());
            return path.toString();
        } catch (UnsatisfiedLinkError e) {
            if (!loadedByAnotherClassLoader(e)) {
                throw e;
            }
            return loadPrivateCopy(path, bytes, e);
        }
    }

    /** The JVM's refusal of a file (or name) that another class loader has loaded. */
    static boolean loadedByAnotherClassLoader(UnsatisfiedLinkError e) {
        return e.getMessage() != null && e.getMessage().contains("another classloader");
    }

    /**
     * Writes the library to a new private folder of this process and loads it there: this class
     * loader's own instance, in the first of the folders the jar's build may go to that loads it.
     */
    private static String loadPrivateCopy(Path original, byte[] bytes, UnsatisfiedLinkError refusal) {
        List<String> tried = new ArrayList<>();
        byte[] content;
        try {
            content = bytes != null ? bytes : Files.readAllBytes(original);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + original + " for a private copy: " + e.getMessage(), e);
        }
        for (Path base : extractionBases()) {
            try {
                Path copy = NativeExtraction.privateCopy(base, content);
                System.load(copy.toString());
                NativeExtraction.discard(copy);
                return copy + " (private copy of " + original + ": another class loader holds it)";
            } catch (IOException e) {
                tried.add(base + ": " + NativeExtraction.reason(e));
            } catch (UnsatisfiedLinkError e) {
                tried.add(base + ": " + NativeExtraction.reason(e));
            }
        }
        IllegalStateException ise = new IllegalStateException("native library " + original
                + " is loaded by another class loader and no private copy could be loaded (" + String.join("; ", tried) + ")");
        ise.addSuppressed(refusal);
        throw ise;
    }

    /** The resource's bytes, or null when the jar has none. */
    private static byte[] resourceBytes(String resource) throws IOException {
        try (InputStream in = LibraryLocator.class.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    /** The library's Maven version, or "dev" when its properties are missing (classes not built by Maven). */
    static String version() {
        try (InputStream in = LibraryLocator.class.getResourceAsStream(VERSION_PROPERTIES)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && v.matches("[A-Za-z0-9._-]+")) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through: the version only names the temp folder
        }
        return "dev";
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
