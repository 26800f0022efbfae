// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Where the jar's native library is written before it is loaded: a folder of this OS user's own,
 * {@code ${java.io.tmpdir}/cks-state-<user>/<version>-<sha256 prefix>/}, so that another user's
 * earlier extraction (a root-run tool beside the management server's {@code cloud} user) never
 * blocks it. The user folder is used only when it is a real folder (not a link) that this user
 * owns and nobody else may write; anything else (a folder squatted by another user) falls back
 * to a new private folder for this process. A failure names its cause: permission denied, or a
 * file system that does not allow executable mappings (noexec).
 */
final class NativeExtraction {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private NativeExtraction() {
    }

    /** The library file for {@code bytes} (hash {@code sha256}), written if it is not there with that content. */
    static Path extract(byte[] bytes, String sha256, String version) throws IOException {
        // System.load wants an absolute path; java.io.tmpdir may be relative to the working folder.
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        Path userFolder = tmp.resolve("cks-state-" + userName());
        boolean shared = ownFolder(userFolder);
        Path base = shared ? userFolder : privateFolder(tmp);
        Path dir = base.resolve(version + "-" + sha256.substring(0, 16));
        Path target = dir.resolve(System.mapLibraryName(NativeLibrary.LIBRARY_NAME));
        if (!shared) {
            // deleted at exit in reverse order: the file, then its folders
            dir.toFile().deleteOnExit();
            target.toFile().deleteOnExit();
        }
        try {
            Files.createDirectories(dir);
        } catch (AccessDeniedException e) {
            throw denied(dir, e);
        }
        if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
                && sha256.equals(LibraryLocator.sha256(Files.readAllBytes(target)))) {
            return target;
        }
        Path part;
        try {
            part = Files.createTempFile(dir, "lib", ".part");
        } catch (AccessDeniedException e) {
            throw denied(dir, e);
        }
        try {
            Files.write(part, bytes);
            try {
                Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(part);
        }
        return target;
    }

    /** Why {@code path} could not be loaded, with the likely cause when the JVM's message hints at one. */
    static String loadFailure(Path path, UnsatisfiedLinkError e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("failed to map segment") || message.contains("Operation not permitted")) {
            return "cannot load " + path + ": " + message + " (is " + path.getParent()
                    + " on a file system mounted noexec? Set -Djava.io.tmpdir to an executable folder, or -D"
                    + NativeLibrary.PATH_PROPERTY + ")";
        }
        if (message.contains("Permission denied")) {
            return "cannot load " + path + ": permission denied (" + message + ")";
        }
        return "cannot load " + path + ": " + message;
    }

    /** Whether {@code folder} is (or now is) a real folder this user owns that nobody else may write. */
    private static boolean ownFolder(Path folder) throws IOException {
        try {
            Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            return true;
        } catch (FileAlreadyExistsException e) {
            // checked below
        } catch (UnsupportedOperationException e) {
            return false; // not a POSIX file system: use a private folder
        } catch (AccessDeniedException e) {
            return false;
        }
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(folder, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (FileSystemException e) {
            return false;
        }
        if (!attributes.isDirectory()) {
            return false;
        }
        Set<PosixFilePermission> permissions = attributes.permissions();
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
            return false;
        }
        // This user's identity: the owner of a file it creates.
        Path probe;
        try {
            probe = Files.createTempFile(folder.getParent(), "cks-state-owner", ".probe");
        } catch (AccessDeniedException e) {
            return false;
        }
        try {
            return attributes.owner().equals(Files.getOwner(probe));
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    /** A new folder of this process, removed at exit with what it holds. */
    private static Path privateFolder(Path tmp) throws IOException {
        Path folder;
        try {
            folder = Files.createTempDirectory(tmp, "cks-state-");
        } catch (AccessDeniedException e) {
            throw denied(tmp, e);
        }
        folder.toFile().deleteOnExit();
        return folder;
    }

    private static IOException denied(Path where, AccessDeniedException e) {
        return new IOException("permission denied: " + where + " (java.io.tmpdir "
                + System.getProperty("java.io.tmpdir") + ", user " + System.getProperty("user.name") + ")", e);
    }

    /** The OS user's name, reduced to characters safe in a file name. */
    private static String userName() {
        String name = System.getProperty("user.name", "");
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.isEmpty() || safe.startsWith(".") ? "user" : safe;
    }
}
