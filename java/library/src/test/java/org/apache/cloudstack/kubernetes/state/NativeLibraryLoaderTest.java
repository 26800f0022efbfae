// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loader's three ways and its failure handling, each in a forked JVM so this one stays clean. */
class NativeLibraryLoaderTest {
    @TempDir
    Path tmp;

    /** Runs LoaderProbe in a fresh JVM with these system properties; returns its output lines. */
    private static List<String> probe(String... properties) throws IOException, InterruptedException {
        return probeOutput(properties).stream().filter(l -> l.startsWith("LOADED") || l.startsWith("FAILED")
                || l.startsWith("BOUND") || l.startsWith("BIND") || l.startsWith("CONCURRENT")).toList();
    }

    /** Every line LoaderProbe printed in a fresh JVM with these system properties. */
    private static List<String> probeOutput(String... properties) throws IOException, InterruptedException {
        return probeOutputAs(List.of(), System.getProperty("java.class.path"), properties);
    }

    /** LoaderProbe's lines in a fresh JVM started by {@code prefix} (another user) on {@code classPath}. */
    private static List<String> probeOutputAs(List<String> prefix, String classPath, String... properties)
            throws IOException, InterruptedException {
        return probeOutputIn(null, Map.of(), prefix, classPath, properties);
    }

    /** LoaderProbe's lines in a fresh JVM started in {@code folder} (null: this one's) with {@code env} added. */
    private static List<String> probeOutputIn(Path folder, Map<String, String> env, List<String> prefix, String classPath,
            String... properties) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xcheck:jni");
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.addAll(List.of(properties));
        cmd.add(LoaderProbe.class.getName());
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (folder != null) {
            builder.directory(folder.toFile());
        }
        builder.environment().putAll(env);
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "probe timed out");
        assertEquals(0, p.exitValue(), out);
        assertTrue(!out.contains("WARNING"), "JNI warning in the forked JVM: " + out);
        return out.lines().toList();
    }

    /** The files of the library the probe's process mapped. */
    private static List<Path> mapped(List<String> out) {
        return out.stream().filter(l -> l.startsWith("MAPPED ")).map(l -> Paths.get(l.substring(7).replace(" (deleted)", "")))
                .toList();
    }

    /** The library file the build put on the test classpath. */
    private static Path builtLibrary() throws URISyntaxException {
        URL url = NativeLibraryLoaderTest.class.getResource(NativePlatform.current().resourcePath());
        assertTrue(url != null && url.getProtocol().equals("file"), "no library resource: " + url);
        return Paths.get(url.toURI());
    }

    @Test
    void explicitPathToAMissingFileFailsClearlyAndStaysFailed() throws Exception {
        Path missing = tmp.resolve("nowhere").resolve("libcks_state.so");
        List<String> out = probe("-D" + NativeLibrary.PATH_PROPERTY + "=" + missing);
        assertEquals(4, out.size(), out.toString());
        assertEquals("CONCURRENT 1", out.get(3), "8 threads at first use saw one outcome");
        assertTrue(out.get(0).startsWith("FAILED") && out.get(0).contains(missing.toString())
                && out.get(0).contains(NativeLibrary.PATH_PROPERTY), out.get(0));
        assertEquals(out.get(0), out.get(1), "the first failure is remembered and rethrown with the same cause");
        assertEquals("BIND FAILED " + CksStateNativeException.class.getName(), out.get(2));
    }

    @Test
    void explicitPathToSomethingThatIsNoLibraryFails() throws Exception {
        Path junk = Files.writeString(tmp.resolve("libcks_state.so"), "not an ELF file");
        List<String> out = probe("-D" + NativeLibrary.PATH_PROPERTY + "=" + junk);
        assertTrue(out.get(0).startsWith("FAILED") && out.get(0).contains("UnsatisfiedLinkError"), out.toString());
        assertEquals("BIND FAILED " + CksStateNativeException.class.getName(), out.get(2));
    }

    @Test
    void explicitPathLoads() throws Exception {
        Path lib = builtLibrary();
        assertEquals(List.of("LOADED " + lib, "LOADED " + lib, "BOUND Starting", "CONCURRENT 1"),
                probe("-D" + NativeLibrary.PATH_PROPERTY + "=" + lib));
    }

    /**
     * A libcks_state.so whose constructor writes {@code marker} when it is loaded: what an attacker
     * plants. Built with the C compiler Rust's own linking needs.
     */
    static Path plantedLibrary(Path folder, Path marker) throws IOException, InterruptedException {
        Path source = Files.writeString(folder.resolve("planted.c"), "#include <stdio.h>\n"
                + "__attribute__((constructor)) static void planted(void) {\n"
                + "    FILE *f = fopen(MARKER, \"w\"); if (f) { fputs(\"ran\\n\", f); fclose(f); }\n}\n");
        Path library = folder.resolve(System.mapLibraryName("cks_state"));
        assertEquals(0, run("cc", "-shared", "-fPIC", "-DMARKER=\"" + marker + "\"", "-o", library.toString(),
                source.toString()), "cc could not build the planted library");
        Files.delete(source);
        return library;
    }

    /**
     * A library planted on java.library.path, or in the working folder with an empty LD_LIBRARY_PATH
     * entry (which means the current folder), never runs: the jar's checked copy is loaded.
     */
    @Test
    void aLibraryPlantedOnJavaLibraryPathOrInTheWorkingFolderNeverRuns() throws Exception {
        Path planted = Files.createDirectory(tmp.resolve("planted"));
        Path marker = tmp.resolve("planted-ran");
        plantedLibrary(planted, marker);
        Path extractTo = Files.createDirectory(tmp.resolve("extract"));
        List<List<String>> runs = List.of(
                probeOutput("-Djava.io.tmpdir=" + extractTo, "-Djava.library.path=" + planted),
                probeOutputIn(planted, Map.of("LD_LIBRARY_PATH", ":"), List.of(), System.getProperty("java.class.path"),
                        "-Djava.io.tmpdir=" + extractTo));
        for (List<String> out : runs) {
            assertTrue(out.contains("BOUND Starting"), out.toString());
            List<Path> files = mapped(out);
            assertEquals(1, files.size(), out.toString());
            assertTrue(files.get(0).startsWith(extractTo), "the jar's copy, not the planted one: " + out);
            assertFalse(Files.exists(marker), "the planted library's constructor ran: " + out);
        }
        // The marker works: loaded on purpose, the planted library runs its constructor.
        probeOutput("-D" + NativeLibrary.PATH_PROPERTY + "=" + planted.resolve(System.mapLibraryName("cks_state")));
        assertTrue(Files.exists(marker), "the planted library's constructor did not run when named");
    }

    /** java.library.path only when asked, and only after the jar's build: a platform the jar lacks here. */
    @Test
    void javaLibraryPathIsSearchedOnlyWhenAskedFor() throws Exception {
        Path lib = builtLibrary();
        String lacking = "-D" + NativeLibrary.PLATFORM_PROPERTY + "=linux-x86_64-musl";
        List<String> notAsked = probe(lacking, "-Djava.library.path=" + lib.getParent(), "-Djava.io.tmpdir=" + tmp);
        assertTrue(notAsked.get(0).startsWith("FAILED") && notAsked.get(0).contains("linux-x86_64-musl"), notAsked.toString());
        List<String> asked = probe(lacking, "-Djava.library.path=" + lib.getParent(), "-Djava.io.tmpdir=" + tmp,
                "-D" + LibraryLocator.SEARCH_PROPERTY + "=java.library.path");
        assertEquals(List.of("LOADED java.library.path", "LOADED java.library.path", "BOUND Starting", "CONCURRENT 1"),
                asked);
    }

    @Test
    void jarResourceIsExtractedToAVersionedTempFileAndReused() throws Exception {
        List<String> first = probe("-Djava.io.tmpdir=" + tmp, "-Djava.library.path=" + tmp);
        assertEquals("BOUND Starting", first.get(2));
        assertEquals("CONCURRENT 1", first.get(3));
        Path extracted = Paths.get(first.get(0).substring("LOADED ".length()));
        assertTrue(extracted.startsWith(tmp.resolve("cks-state-" + System.getProperty("user.name"))), extracted.toString());
        assertEquals(System.mapLibraryName("cks_state"), extracted.getFileName().toString());
        assertTrue(Files.isRegularFile(extracted));
        List<String> second = probe("-Djava.io.tmpdir=" + tmp, "-Djava.library.path=" + tmp);
        assertEquals(first, second);
        try (var files = Files.list(extracted.getParent())) {
            assertEquals(List.of(extracted), files.toList(), "no temp file is left behind");
        }
    }

    @Test
    void aRelativeTempFolderLoads() throws Exception {
        // The probe's JVM runs in this JVM's working folder.
        Path relative = Paths.get("").toAbsolutePath().relativize(tmp);
        assertTrue(!relative.isAbsolute(), relative.toString());
        List<String> out = probe("-Djava.io.tmpdir=" + relative, "-Djava.library.path=" + tmp);
        assertEquals("BOUND Starting", out.get(2), out.toString());
        Path extracted = Paths.get(out.get(0).substring("LOADED ".length()));
        assertTrue(extracted.isAbsolute() && extracted.startsWith(tmp), extracted.toString());
    }

    /** A tmpfs mounted noexec at {@code mountPoint}; false when this machine cannot (not root, no mount). */
    private static boolean mountNoexec(Path mountPoint) throws IOException, InterruptedException {
        return "root".equals(System.getProperty("user.name")) && Files.isExecutable(Paths.get("/bin/mount"))
                && run("/bin/mount", "-t", "tmpfs", "-o", "noexec,size=16m", "tmpfs", mountPoint.toString()) == 0;
    }

    /** A noexec temp folder (hardened hosts): every class loader loads from the user's ~/.cache instead. */
    @Test
    void aNoexecTempFolderFallsBackToTheUsersCacheForEveryClassLoader() throws Exception {
        Path mountPoint = Files.createDirectory(tmp.resolve("noexec"));
        assumeTrue(mountNoexec(mountPoint), "needs root to mount a noexec tmpfs");
        try {
            Path home = Files.createDirectory(tmp.resolve("home"));
            List<String> out = fork(TwoLoadersProbe.class, "-Djava.io.tmpdir=" + mountPoint, "-Duser.home=" + home,
                    "-Dprobe.loader.path=" + String.join(java.io.File.pathSeparator, libraryClassPath()));
            List<String> loaders = out.stream().filter(l -> l.startsWith("LOADER ")).toList();
            assertEquals(3, loaders.size(), out.toString());
            for (int i = 0; i < 3; i++) {
                assertTrue(loaders.get(i).startsWith("LOADER " + i + " BOUND Starting | " + home.resolve(".cache")),
                        loaders.get(i));
            }
            assertTrue(out.contains("LOADERS concurrent calls=24000 wrong=0"), out.toString());
            // A library named by path: the other loaders' private copies take the same way out.
            Path lib = builtLibrary();
            List<String> named = fork(TwoLoadersProbe.class, "-Djava.io.tmpdir=" + mountPoint, "-Duser.home=" + home,
                    "-D" + NativeLibrary.PATH_PROPERTY + "=" + lib,
                    "-Dprobe.loader.path=" + String.join(java.io.File.pathSeparator, libraryClassPath()))
                    .stream().filter(l -> l.startsWith("LOADER")).toList();
            assertEquals("LOADER 0 BOUND Starting | " + lib, named.get(0));
            for (int i = 1; i < 3; i++) {
                assertTrue(named.get(i).startsWith("LOADER " + i + " BOUND Starting | " + home.resolve(".cache"))
                        && named.get(i).contains("private copy of " + lib), named.toString());
            }
        } finally {
            assertEquals(0, run("/bin/umount", mountPoint.toString()), "umount " + mountPoint);
        }
    }

    /** No executable folder at all (temp, home and /var/tmp noexec, in a private mount namespace): one line naming each. */
    @Test
    void whenEveryFolderIsNoexecTheFailureNamesEachFolderTried() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(Paths.get("/usr/bin/unshare")),
                "needs root and unshare for a private mount namespace");
        Path noexec = Files.createDirectory(tmp.resolve("noexec-all"));
        // /var/tmp and the test's folder are mounted over inside the namespace only: this machine never sees them.
        String mounts = "mount -t tmpfs -o noexec,size=16m tmpfs /var/tmp && mount -t tmpfs -o noexec,size=16m tmpfs "
                + noexec + " && mkdir " + noexec + "/home && exec \"$@\"";
        List<String> out = loaderLines(probeOutputAs(List.of("/usr/bin/unshare", "-m", "--propagation", "private",
                "/bin/sh", "-c", mounts, "sh"), System.getProperty("java.class.path"),
                "-Djava.io.tmpdir=" + noexec, "-Duser.home=" + noexec.resolve("home")));
        String failed = out.get(0);
        assertTrue(failed.startsWith("FAILED"), out.toString());
        for (String folder : List.of(noexec.toString(), noexec.resolve("home/.cache").toString(), "/var/tmp")) {
            assertTrue(failed.contains(folder + ": "), "names " + folder + ": " + failed);
        }
        assertTrue(failed.contains("mounted noexec") && failed.contains("-D" + LibraryLocator.EXTRACT_DIR_PROPERTY)
                && failed.contains("-D" + NativeLibrary.PATH_PROPERTY), failed);
        assertEquals("BIND FAILED " + CksStateNativeException.class.getName(), out.get(2));
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(1, TimeUnit.MINUTES), String.join(" ", command) + " timed out");
        return p.exitValue();
    }

    /** The class path copied where user nobody can read it (not root's Maven repository or a private checkout). */
    private Path copyClassPathForNobody() throws IOException {
        Path cp = Files.createDirectories(tmp.resolve("cp"));
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path source = Paths.get(entry);
            if (Files.exists(source)) {
                Path copy = cp.resolve(entries.size() + "-" + source.getFileName());
                copyTree(source, copy);
                entries.add(copy.toString());
            }
        }
        makeReadableByAll(tmp);
        return Paths.get(String.join(java.io.File.pathSeparator, entries));
    }

    private static final List<String> AS_NOBODY = List.of("/usr/sbin/runuser", "-u", "nobody", "--");

    private static boolean canActAsNobody() {
        return "root".equals(System.getProperty("user.name")) && Files.isExecutable(Paths.get("/usr/sbin/runuser"));
    }

    /** A shared temp folder like /tmp: world-writable and sticky. */
    private Path sharedTemp() throws IOException, InterruptedException {
        Path shared = Files.createDirectories(tmp.resolve("shared-tmp"));
        assertEquals(0, run("/bin/chmod", "1777", shared.toString()));
        return shared;
    }

    /**
     * Two OS users share one temp folder: root's earlier extraction never blocks the other user's
     * (each has its own folder), a folder squatted under the other user's name is not trusted (a
     * private folder is used), and a temp folder the user may not write falls back to the user's
     * ~/.cache.
     */
    @Test
    void anotherUsersExtractionOrSquattedFolderNeverBlocksTheLoad() throws Exception {
        assumeTrue(canActAsNobody(), "needs root and runuser to act as user nobody");
        String classPath = copyClassPathForNobody().toString();
        Path shared = sharedTemp();

        List<String> root = probe("-Djava.io.tmpdir=" + shared, "-Djava.library.path=" + shared);
        assertTrue(root.get(0).startsWith("LOADED " + shared.resolve("cks-state-root")), root.toString());
        List<String> nobody = loaderLines(probeOutputAs(AS_NOBODY, classPath, "-Djava.io.tmpdir=" + shared));
        assertTrue(nobody.get(0).startsWith("LOADED " + shared.resolve("cks-state-nobody")), nobody.toString());
        assertEquals("BOUND Starting", nobody.get(2));

        // Squatted: a folder under nobody's name that root owns.
        Path squatted = shared.resolve("cks-state-nobody");
        deleteTree(squatted);
        Files.createDirectory(squatted);
        List<String> trusted = loaderLines(probeOutputAs(AS_NOBODY, classPath, "-Djava.io.tmpdir=" + shared));
        assertTrue(trusted.get(0).startsWith("LOADED " + shared.resolve("cks-state-")), trusted.toString());
        assertTrue(!trusted.get(0).startsWith("LOADED " + squatted), "a folder nobody does not own: " + trusted);
        assertEquals("BOUND Starting", trusted.get(2));

        // A temp folder nobody may not write: nobody's own ~/.cache.
        Path closed = Files.createDirectory(tmp.resolve("closed-tmp"));
        Path home = Files.createDirectory(tmp.resolve("nobody-home"));
        assertEquals(0, run("/bin/chown", "nobody", home.toString()));
        List<String> fellBack = loaderLines(probeOutputAs(AS_NOBODY, classPath, "-Djava.io.tmpdir=" + closed,
                "-Duser.home=" + home));
        assertTrue(fellBack.get(0).startsWith("LOADED " + home.resolve(".cache/cks-state-nobody")), fellBack.toString());
        assertEquals("BOUND Starting", fellBack.get(2));
    }

    /**
     * The attack of a shared temp folder: another user prepares the loading user's folder (its own,
     * or the user's own left world-writable by a lax umask) and swaps the library file in a loop while
     * the server starts. 25 starts each: the swapped file is never mapped, every start binds.
     */
    @Test
    void aFileSwapInASharedTempFolderNeverWins() throws Exception {
        assumeTrue(canActAsNobody(), "needs root and runuser to act as user nobody");
        String classPath = copyClassPathForNobody().toString();
        Path shared = sharedTemp();
        byte[] library = Files.readAllBytes(builtLibrary());
        Path userFolder = shared.resolve("cks-state-root");
        Path versionFolder = userFolder.resolve(LibraryLocator.version() + "-" + LibraryLocator.sha256(library).substring(0, 16));
        Path bogus = Files.writeString(tmp.resolve("bogus.so"), "swapped in by another user");
        makeReadableByAll(tmp);
        assertEquals(0, run("/bin/chmod", "1777", shared.toString()));
        for (boolean ownedByAttacker : List.of(true, false)) {
            deleteTreeIfExists(userFolder);
            if (ownedByAttacker) {
                assertEquals(0, run(concat(AS_NOBODY, "/bin/mkdir", "-m", "0777", "-p", versionFolder.toString())));
            } else {
                Files.createDirectory(userFolder);
                assertEquals(0, run("/bin/chmod", "0777", userFolder.toString()));
                assertEquals(0, run(concat(AS_NOBODY, "/bin/mkdir", "-m", "0777", versionFolder.toString())));
            }
            Path target = versionFolder.resolve(System.mapLibraryName("cks_state"));
            // Bounded: the swapper stops by itself after two minutes if this test dies.
            Process swapper = new ProcessBuilder(concat(AS_NOBODY, "/usr/bin/timeout", "120", "/bin/sh", "-c",
                    "while :; do cp " + bogus + " " + target + ".x && mv -f " + target + ".x " + target + "; done"))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                for (int start = 0; start < 25; start++) {
                    List<String> out = probeOutputAs(List.of(), System.getProperty("java.class.path"),
                            "-Djava.io.tmpdir=" + shared);
                    assertTrue(out.contains("BOUND Starting"), "start " + start + ": " + out);
                    List<Path> files = mapped(out);
                    assertEquals(1, files.size(), out.toString());
                    assertTrue(!files.get(0).startsWith(userFolder), "start " + start + " mapped the attacker's folder: " + out);
                }
            } finally {
                stopWithDescendants(swapper);
            }
        }
    }

    /** runuser does not pass a kill on to its children: the loop would race the next round's clean-up. */
    private static void stopWithDescendants(Process process) throws Exception {
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(1, TimeUnit.MINUTES);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("process " + handle.pid() + " did not stop within a minute", e);
            }
        }
    }

    private static String[] concat(List<String> prefix, String... command) {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(List.of(command));
        return all.toArray(new String[0]);
    }

    private static void deleteTreeIfExists(Path root) throws IOException {
        if (Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            deleteTree(root);
        }
    }

    private static List<String> loaderLines(List<String> out) {
        return out.stream().filter(l -> l.startsWith("LOADED") || l.startsWith("FAILED")
                || l.startsWith("BOUND") || l.startsWith("BIND") || l.startsWith("CONCURRENT")).toList();
    }

    private static void makeReadableByAll(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path p : paths.toList()) {
                Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString(
                        Files.isDirectory(p) ? (p.endsWith("shared-tmp") ? "rwxrwxrwx" : "rwxr-xr-x") : "rw-r--r--"));
            }
        }
    }

    private static void copyTree(Path source, Path target) throws IOException {
        try (var paths = Files.walk(source)) {
            for (Path p : paths.toList()) {
                Files.copy(p, target.resolve(source.relativize(p).toString()));
            }
        }
    }

    /** A copy forked by the killed loop just before its end may still land: a few rounds, bounded. */
    private static void deleteTree(Path root) throws IOException {
        for (int round = 1; Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS); round++) {
            try (var paths = Files.walk(root)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
                return;
            } catch (java.nio.file.DirectoryNotEmptyException | java.nio.file.NoSuchFileException
                    | java.io.UncheckedIOException e) {
                if (round == 5) {
                    throw new IOException("could not delete " + root + " in 5 rounds", e);
                }
            }
        }
    }

    @Test
    void aTamperedExtractedFileIsReplaced() throws Exception {
        Path extracted = Paths.get(probe("-Djava.io.tmpdir=" + tmp, "-Djava.library.path=" + tmp)
                .get(0).substring("LOADED ".length()));
        Files.writeString(extracted, "tampered");
        assertEquals("BOUND Starting", probe("-Djava.io.tmpdir=" + tmp, "-Djava.library.path=" + tmp).get(2));
        assertEquals(Files.size(builtLibrary()), Files.size(extracted));
    }

    /** The jar that ships (both platforms): not in make check's host-only build. */
    @Test
    @Tag("shipping-jar")
    void theJarCarriesBothLinuxPlatformsAndLoadsThisOnesBuild() throws Exception {
        assertEquals(List.of("linux-x86_64", "linux-aarch64"), NativePlatform.carried());
        List<String> out = probeOutput("-Djava.io.tmpdir=" + tmp, "-Djava.library.path=" + tmp);
        assertTrue(out.contains("PLATFORM " + NativePlatform.current().name()), out.toString());
        assertTrue(probeOutput("-D" + NativeLibrary.PATH_PROPERTY + "=" + builtLibrary()).contains("PLATFORM null"),
                "a library named by path comes from no jar folder");
    }

    /** The jar that ships (both platforms): not in make check's host-only build. */
    @Test
    @Tag("shipping-jar")
    void aPlatformTheJarLacksFailsWithOneClearMessage() throws Exception {
        for (String platform : List.of("linux-x86_64-musl", "linux-aarch64-musl", "freebsd-riscv64")) {
            List<String> out = probe("-D" + NativeLibrary.PLATFORM_PROPERTY + "=" + platform,
                    "-Djava.io.tmpdir=" + tmp, "-Djava.library.path=" + tmp);
            String failed = out.get(0);
            assertTrue(failed.startsWith("FAILED cks-state native library is not available: "
                    + "cks-state has no native library for this platform: " + platform + " ("), failed);
            assertTrue(failed.contains("This jar carries linux-x86_64, linux-aarch64 (glibc 2.17 or later)"), failed);
            assertTrue(failed.contains("-D" + NativeLibrary.PATH_PROPERTY + "=/path/to/libcks_state.so"), failed);
            assertTrue(failed.contains("set by -D" + NativeLibrary.PLATFORM_PROPERTY), failed);
            assertEquals(platform.endsWith("-musl"), failed.contains("C library musl"), failed);
            assertEquals("BIND FAILED " + CksStateNativeException.class.getName(), out.get(2));
        }
    }

    @Test
    void muslIsToldFromGlibcByWhatTheProcessMaps() {
        // Lines as an Alpine JVM (musl) and a Debian JVM (glibc) map them.
        assertEquals("musl", NativePlatform.libcOf(java.util.stream.Stream.of(
                "7f3c2a000000-7f3c2a014000 r--p 00000000 08:01 1234 /usr/lib/jvm/java-17-openjdk/lib/server/libjvm.so",
                "7f3c2b000000-7f3c2b04c000 r-xp 00014000 08:01 5678 /lib/ld-musl-x86_64.so.1")));
        assertEquals("musl", NativePlatform.libcOf(java.util.stream.Stream.of(
                "ffff8a000000-ffff8a0a0000 r-xp 00000000 fe:01 42 /lib/ld-musl-aarch64.so.1")));
        assertEquals("glibc", NativePlatform.libcOf(java.util.stream.Stream.of(
                "7f3c2a000000-7f3c2a028000 r--p 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6",
                "7f3c2b000000-7f3c2b02a000 r-xp 00001000 08:01 2 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2")));
        assertEquals("glibc", NativePlatform.current().libc(), "this test JVM runs on Debian's glibc");
    }

    @Test
    void platformDirectoryLayout() {
        assertEquals("linux", NativePlatform.os("Linux"));
        assertEquals("macos", NativePlatform.os("Mac OS X"));
        assertEquals("windows", NativePlatform.os("Windows 11"));
        assertEquals("x86_64", NativePlatform.arch("amd64"));
        assertEquals("x86_64", NativePlatform.arch("x86_64"));
        assertEquals("aarch64", NativePlatform.arch("arm64"));
        assertEquals("aarch64", NativePlatform.arch("aarch64"));
        NativePlatform here = NativePlatform.current();
        assertTrue(here.resourcePath().startsWith("/native/" + here.name() + "/"));
        if (System.getProperty("os.name").startsWith("Linux") && System.getProperty("os.arch").equals("amd64")) {
            assertEquals("/native/linux-x86_64/libcks_state.so", here.resourcePath());
        }
    }

    @Test
    void abiMismatchNamesBothVersions() {
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> NativeLibrary.checkAbi(NativeBridge.ABI_VERSION + 7, "/x/libcks_state.so"));
        assertTrue(e.getMessage().contains("ABI version " + (NativeBridge.ABI_VERSION + 7))
                && e.getMessage().contains("ABI version " + NativeBridge.ABI_VERSION), e.getMessage());
        NativeLibrary.checkAbi(NativeBridge.ABI_VERSION, "same");
    }

    @Test
    void operationNamesMustMatchTheEnum() {
        String[] good = java.util.Arrays.stream(Operation.values()).map(Operation::specName).toArray(String[]::new);
        NativeLibrary.checkOperations(good, "ok");
        String[] swapped = good.clone();
        swapped[0] = good[1];
        swapped[1] = good[0];
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> NativeLibrary.checkOperations(swapped, "swapped"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> NativeLibrary.checkOperations(java.util.Arrays.copyOf(good, 8), "short"));
    }

    /** Runs a probe's main in a fresh JVM under -Xcheck:jni; no crash file, no JNI warning. */
    private List<String> fork(Class<?> probe, String... properties) throws IOException, InterruptedException {
        Path crashes = Files.createDirectories(tmp.resolve("crashes"));
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xcheck:jni");
        cmd.add("-XX:ErrorFile=" + crashes.resolve("hs_err_pid%p.log"));
        cmd.add("-Djava.io.tmpdir=" + tmp);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.addAll(List.of(properties));
        cmd.add(probe.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "probe timed out");
        assertEquals(0, p.exitValue(), "the forked JVM died: " + out);
        try (var files = Files.list(crashes)) {
            assertEquals(List.of(), files.toList(), "hs_err file: the JVM crashed");
        }
        assertTrue(!out.contains("WARNING"), "JNI warning in the forked JVM: " + out);
        System.out.println(probe.getSimpleName() + ": " + out);
        return out.lines().toList();
    }

    @Test
    void sixteenThreadsHammerTheFirstCallWhileTheLibraryLoads() throws Exception {
        List<String> out = fork(LoadRaceProbe.class);
        String race = out.stream().filter(l -> l.startsWith("RACE")).findFirst().orElseThrow(() -> new AssertionError(out));
        java.util.Map<String, Long> counts = new java.util.HashMap<>();
        for (String field : race.split(" ")) {
            if (field.contains("=")) {
                counts.put(field.substring(0, field.indexOf('=')), Long.parseLong(field.substring(field.indexOf('=') + 1)));
            }
        }
        assertEquals(16L, counts.get("threads"));
        assertEquals(0L, counts.get("wrong"), race);
        assertEquals(0L, counts.get("other"), race);
        assertTrue(counts.get("rawUnbound") > 0, "raw calls before the load must have been tried: " + race);
        assertTrue(counts.get("rawOk") > 0 && counts.get("publicOk") > 0, race);
    }

    /** The library's classes and log4j: what a probe's own class loaders load it from. */
    private static List<String> libraryClassPath() throws URISyntaxException {
        URL classes = NativeLibrary.class.getProtectionDomain().getCodeSource().getLocation();
        List<String> path = new ArrayList<>();
        path.add(Paths.get(classes.toURI()).toString());
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (entry.contains("log4j")) {
                path.add(entry);
            }
        }
        return path;
    }

    @Test
    void threeClassLoadersEachGetTheirOwnWorkingLibrary() throws Exception {
        List<String> path = libraryClassPath();
        List<String> out = fork(TwoLoadersProbe.class,
                "-Dprobe.loader.path=" + String.join(java.io.File.pathSeparator, path));
        List<String> loaders = out.stream().filter(l -> l.startsWith("LOADER ")).toList();
        assertEquals(3, loaders.size(), out.toString());
        for (int i = 0; i < 3; i++) {
            assertTrue(loaders.get(i).startsWith("LOADER " + i + " BOUND Starting | "), loaders.get(i));
        }
        assertTrue(loaders.get(0).contains(tmp.toString()) && !loaders.get(0).contains("private copy"), loaders.get(0));
        assertTrue(loaders.get(1).contains("private copy") && loaders.get(2).contains("private copy"), loaders.toString());
        assertTrue(out.contains("LOADERS concurrent calls=24000 wrong=0"), out.toString());
    }

    @Test
    void anExplicitPathHeldByAnotherLoaderIsCopiedToo() throws Exception {
        List<String> path = libraryClassPath();
        Path lib = builtLibrary();
        List<String> loaders = fork(TwoLoadersProbe.class, "-D" + NativeLibrary.PATH_PROPERTY + "=" + lib,
                "-Dprobe.loader.path=" + String.join(java.io.File.pathSeparator, path))
                .stream().filter(l -> l.startsWith("LOADER")).toList();
        assertEquals("LOADER 0 BOUND Starting | " + lib, loaders.get(0));
        assertTrue(loaders.get(1).contains("private copy of " + lib), loaders.toString());
        assertEquals("LOADERS concurrent calls=24000 wrong=0", loaders.get(3));
        try (var files = Files.list(tmp)) {
            List<Path> left = files.filter(f -> f.getFileName().toString().startsWith("cks-state-")).toList();
            assertEquals(List.of(), left, "the private copies are removed once loaded");
        }
    }

    @Test
    void loadingTwiceInThisJvmIsHarmless() {
        NativeLibrary.load();
        NativeLibrary.load();
        assertEquals(NativeLibrary.expectedAbiVersion(), NativeLibrary.abiVersion());
        assertTrue(NativeLibrary.source() != null);
    }
}
