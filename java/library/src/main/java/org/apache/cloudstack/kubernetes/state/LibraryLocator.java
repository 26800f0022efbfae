// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Properties;

/**
 * Finds and loads the native library file: explicit path, java.library.path, jar resource.
 *
 * <p>Several class loaders: the JVM binds a native library file to the first class loader that
 * loads it, and refuses it to every other ({@code UnsatisfiedLinkError: ... already loaded in
 * another classloader}). A second class loader (an application server's second web app, plugin
 * or test class loader) therefore loads a private copy of the file: its own instance of the
 * library, with its own statics and its own binding to that loader's {@code NativeLog}.
 */
final class LibraryLocator {
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
        UnsatisfiedLinkError fromLibraryPath;
        try {
            System.loadLibrary(NativeLibrary.LIBRARY_NAME);
            return "java.library.path";
        } catch (UnsatisfiedLinkError e) {
            fromLibraryPath = e;
            Path onLibraryPath = loadedByAnotherClassLoader(e) ? findOnLibraryPath() : null;
            if (onLibraryPath != null) {
                return loadPrivateCopy(onLibraryPath, e);
            }
        }
        NativePlatform platform = NativePlatform.current();
        String resource = platform.resourcePath();
        try {
            Path extracted = extract(resource);
            if (extracted == null) {
                IllegalStateException e = new IllegalStateException(platform.missingMessage(NativePlatform.carried()));
                e.addSuppressed(fromLibraryPath);
                throw e;
            }
            String where = load(extracted);
            loadedPlatform = platform.name();
            return where;
        } catch (IOException e) {
            IllegalStateException ise = new IllegalStateException("cannot extract " + resource + ": " + e.getMessage(), e);
            ise.addSuppressed(fromLibraryPath);
            throw ise;
        }
    }

    private static String loadExplicit(String file) {
        Path path = Paths.get(file).toAbsolutePath();
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException("-D" + NativeLibrary.PATH_PROPERTY + " names " + path
                    + ", which is not an existing file");
        }
        return load(path);
    }

    /** System.load, or a private copy when another class loader already holds this file. */
    private static String load(Path path) {
        try {
            System.load(path.toString());
            return path.toString();
        } catch (UnsatisfiedLinkError e) {
            if (!loadedByAnotherClassLoader(e)) {
                UnsatisfiedLinkError named = new UnsatisfiedLinkError(NativeExtraction.loadFailure(path, e));
                named.initCause(e);
                throw named;
            }
            return loadPrivateCopy(path, e);
        }
    }

    /** The JVM's refusal of a file (or name) that another class loader has loaded. */
    static boolean loadedByAnotherClassLoader(UnsatisfiedLinkError e) {
        return e.getMessage() != null && e.getMessage().contains("another classloader");
    }

    /**
     * Copies the library to a new temp file and loads that: this class loader's own instance. The
     * copy is removed at once where the OS allows it (the mapping stays), else at exit.
     */
    private static String loadPrivateCopy(Path original, UnsatisfiedLinkError refusal) {
        Path copy = null;
        try {
            copy = Files.createTempFile("cks-state-loader-", "-" + original.getFileName());
            Files.copy(original, copy, StandardCopyOption.REPLACE_EXISTING);
            System.load(copy.toString());
            return copy + " (private copy of " + original + ": another class loader holds it)";
        } catch (IOException | UnsatisfiedLinkError e) {
            IllegalStateException ise = new IllegalStateException("native library " + original
                    + " is loaded by another class loader and a private copy could not be loaded: " + e.getMessage(), e);
            ise.addSuppressed(refusal);
            throw ise;
        } finally {
            if (copy != null) {
                try {
                    Files.deleteIfExists(copy);
                } catch (IOException e) {
                    copy.toFile().deleteOnExit();
                }
            }
        }
    }

    /** The library file in java.library.path, or null. */
    private static Path findOnLibraryPath() {
        String name = System.mapLibraryName(NativeLibrary.LIBRARY_NAME);
        for (String dir : System.getProperty("java.library.path", "").split(java.io.File.pathSeparator)) {
            if (!dir.isBlank()) {
                Path candidate = Paths.get(dir, name);
                if (Files.isRegularFile(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /**
     * Writes the resource where {@link NativeExtraction} says (this OS user's folder), to a temp name
     * then moved atomically, so concurrent JVMs never load a half-written file. An existing file is
     * reused only if its content hash matches. Returns null without a resource.
     */
    static Path extract(String resource) throws IOException {
        byte[] bytes;
        try (InputStream in = LibraryLocator.class.getResourceAsStream(resource)) {
            if (in == null) {
                return null;
            }
            bytes = in.readAllBytes();
        }
        return NativeExtraction.extract(bytes, sha256(bytes), version());
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
