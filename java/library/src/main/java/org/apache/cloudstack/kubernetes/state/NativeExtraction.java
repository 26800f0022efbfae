// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Where the jar's native library is written before it is loaded, so that nobody but this OS user
 * (and root) can change the file between its check and its load: a folder
 * {@code <base>/cks-state-<user>/<version>-<sha256 prefix>/}, where every folder from the file system's
 * root down to the base belongs to root or this user and is writable by nobody else unless sticky
 * ({@code /tmp}), and the user's and version's folders belong to this user with mode 0700. A folder
 * that breaks the rule (another user's, squatted, or left group- or world-writable by a lax umask)
 * is never used: a new private folder of this process is, in the same base. An existing file is
 * reused only if it is a plain file of this user's with one link and the jar's content hash.
 */
final class NativeExtraction {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_DIR = PosixFilePermissions.asFileAttribute(OWNER_ONLY);
    private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    /** The sticky bit: in a world-writable folder, only an entry's owner may rename or remove it. */
    private static final int STICKY = 01000;

    private NativeExtraction() {
    }

    /** A folder or file the loader will not trust, and why. */
    static final class Unsafe extends IOException {
        private static final long serialVersionUID = 1L;

        Unsafe(String message) {
            super(message);
        }
    }

    /** The library file for {@code bytes} (hash {@code sha256}) under {@code base}, written if it is not there with that content. */
    static Path extract(Path base, byte[] bytes, String sha256, String version) throws IOException {
        Path root = checkedBase(base);
        Path user = ownedPrivateFolder(root.resolve("cks-state-" + userName()));
        Path dir = user == null ? null : ownedPrivateFolder(user.resolve(version + "-" + sha256.substring(0, 16)));
        boolean ownOnly = dir == null;
        if (ownOnly) {
            dir = newPrivateFolder(root);
        }
        Path target = dir.resolve(System.mapLibraryName(NativeLibrary.LIBRARY_NAME));
        if (ownOnly) {
            target.toFile().deleteOnExit(); // before its folder: deleted in reverse order
        }
        if (trustedFile(target) && sha256.equals(LibraryLocator.sha256(Files.readAllBytes(target)))) {
            return target;
        }
        Path part = Files.createTempFile(dir, "lib", ".part", PRIVATE_FILE);
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

    /**
     * A new copy of {@code bytes} of this process alone under {@code base} (a second class loader's
     * instance of the library): a fresh private folder, removed at exit.
     */
    static Path privateCopy(Path base, byte[] bytes) throws IOException {
        Path dir = newPrivateFolder(checkedBase(base));
        Path copy = dir.resolve(System.mapLibraryName(NativeLibrary.LIBRARY_NAME));
        Files.write(copy, bytes);
        copy.toFile().deleteOnExit();
        return copy;
    }

    /** Removes a loaded private copy and its folder: the process keeps its mapping, nothing is left on disk. */
    static void discard(Path copy) {
        try {
            Files.deleteIfExists(copy);
            Files.deleteIfExists(copy.getParent());
        } catch (IOException e) {
            // removed at exit instead
        }
    }

    /** Why {@code path} could not be loaded, with the likely cause when the JVM's message hints at one. */
    static String loadFailure(Path path, UnsatisfiedLinkError e) {
        return "cannot load " + path + ": " + reason(e);
    }

    /** The JVM's message, with the likely cause when it hints at one. */
    static String reason(UnsatisfiedLinkError e) {
        String message = String.valueOf(e.getMessage());
        if (noexec(e)) {
            return message + " (its file system is mounted noexec, or a policy such as SELinux or fapolicyd refuses to"
                    + " map it)";
        }
        if (message.contains("Permission denied")) {
            return "permission denied (" + message + ")";
        }
        return message;
    }

    /** Why a folder or file could not be written or trusted, in words (a file system exception's message is only its path). */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException denied) {
            return "permission denied: " + denied.getFile();
        }
        if (e instanceof java.nio.file.FileSystemException fs && !(e instanceof Unsafe)) {
            return (fs.getReason() != null ? fs.getReason() : e.getClass().getSimpleName()) + ": " + fs.getFile();
        }
        return String.valueOf(e.getMessage());
    }

    /** The JVM's refusal to map a library's code: a file system mounted noexec. */
    static boolean noexec(UnsatisfiedLinkError e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("failed to map segment") || message.contains("Operation not permitted");
    }

    /** The base, resolved, and every folder from the file system's root down to it safe; else Unsafe. */
    private static Path checkedBase(Path base) throws IOException {
        Path real;
        try {
            real = base.toAbsolutePath().toRealPath();
        } catch (java.nio.file.NoSuchFileException e) {
            throw new Unsafe(base + " does not exist");
        } catch (IOException e) {
            throw new Unsafe(base + " cannot be read: " + reason(e));
        }
        int me = myUid();
        for (Path p = real; p != null; p = p.getParent()) {
            int uid = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            if (uid != 0 && uid != me) {
                throw new Unsafe(p + " belongs to another user (uid " + uid + ")");
            }
            if ((mode & 022) != 0 && (mode & STICKY) == 0) {
                throw new Unsafe(p + " is writable by its group or others and not sticky (mode " + Integer.toOctalString(mode & 07777) + ")");
            }
        }
        return real;
    }

    /** {@code folder} created 0700, or as found if it is a real folder of this user's with mode 0700; else null. */
    private static Path ownedPrivateFolder(Path folder) throws IOException {
        try {
            Files.createDirectory(folder, PRIVATE_DIR);
        } catch (FileAlreadyExistsException e) {
            // checked below
        }
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        int uid = (Integer) Files.getAttribute(folder, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        int mode = (Integer) Files.getAttribute(folder, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        return uid == myUid() && (mode & 077) == 0 ? folder : null;
    }

    /** A plain file of this user's, with one link, that nobody else may write. */
    private static boolean trustedFile(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        int uid = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        int links = (Integer) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
        return uid == myUid() && (mode & 022) == 0 && links == 1;
    }

    /** A new folder of this process, 0700, removed at exit with what it holds. */
    private static Path newPrivateFolder(Path base) throws IOException {
        Path folder = Files.createTempDirectory(base, "cks-state-", PRIVATE_DIR);
        folder.toFile().deleteOnExit();
        return folder;
    }

    /**
     * The user id this process creates files as: the file-system uid of /proc/self/status (the owner
     * of /proc/self is root for a process that may not dump core, a JVM given file capabilities).
     */
    private static int myUid() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Uid:")) {
                String[] ids = line.substring(4).trim().split("\\s+");
                return Integer.parseInt(ids[ids.length - 1]);
            }
        }
        throw new Unsafe("/proc/self/status names no Uid");
    }

    /** The OS user's name, reduced to characters safe in a file name. */
    private static String userName() {
        String name = System.getProperty("user.name", "");
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.isEmpty() || safe.startsWith(".") ? "user" : safe;
    }
}
