// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every release's own {@code KubernetesCluster.java} (../shared/cloudstack/releases/: states, events,
 * {@code s_fsm} as the release shipped them) compiled as it is, against stand-ins of the six types it
 * imports, and bound by the library as the plugin binds CloudStack's own enums (by constant name,
 * {@code bindByTable}): each must bind the profile of its release, row for row in the file's order.
 */
class ReleaseTablesTest {
    /** {@code KubernetesCluster-<release>[-...].java}: 4.20.1.0, or 4.22 for main's. */
    private static final Pattern FILE = Pattern.compile("KubernetesCluster-(\\d+\\.\\d+(?:\\.\\d+){0,2})(?:-.*)?\\.java");

    /** The types a release's file imports, each as small as the file needs; the state machine records its rows. */
    private static final Map<String, String> STAND_INS = Map.of(
            "com/cloud/utils/fsm/StateMachine2.java", """
                    package com.cloud.utils.fsm;
                    public class StateMachine2<S, E, V> {
                        public final java.util.List<Object[]> rows = new java.util.ArrayList<>();
                        public void addTransition(S from, E event, S to) {
                            rows.add(new Object[] {from, event, to});
                        }
                    }
                    """,
            "com/cloud/utils/fsm/StateObject.java", """
                    package com.cloud.utils.fsm;
                    public interface StateObject<S> {
                        S getState();
                    }
                    """,
            "org/apache/cloudstack/acl/ControlledEntity.java",
            "package org.apache.cloudstack.acl;\npublic interface ControlledEntity {\n}\n",
            "org/apache/cloudstack/api/Displayable.java", "package org.apache.cloudstack.api;\npublic interface Displayable {\n}\n",
            "org/apache/cloudstack/api/Identity.java", "package org.apache.cloudstack.api;\npublic interface Identity {\n}\n",
            "org/apache/cloudstack/api/InternalIdentity.java",
            "package org.apache.cloudstack.api;\npublic interface InternalIdentity {\n}\n");

    /** The shared folder (-Dcks.shared.dir, set by the Makefile from scripts/shared.sh). */
    static Path releasesDir() {
        String shared = System.getProperty("cks.shared.dir", "").trim();
        Path dir = Path.of(shared.isEmpty() || shared.startsWith("${") ? "../../../shared" : shared, "cloudstack", "releases");
        if (!Files.isDirectory(dir)) {
            fail("no release files at " + dir.toAbsolutePath() + ": pass -Dcks.shared.dir=<the folder holding"
                    + " cloudstack/releases> (make does, from scripts/shared.sh)");
        }
        return dir;
    }

    @Test
    void everyReleasesOwnTableBindsItsProfileRowForRow(@TempDir Path work) throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(releasesDir())) {
            files = s.filter(p -> FILE.matcher(p.getFileName().toString()).matches()).sorted().toList();
        }
        assertTrue(files.size() >= 4, "release files: " + files);
        Set<Profile> bound = EnumSet.noneOf(Profile.class);
        for (Path file : files) {
            Matcher m = FILE.matcher(file.getFileName().toString());
            assertTrue(m.matches());
            ReleaseTable expected = ReleaseTable.of(m.group(1) + ".0".repeat(4 - m.group(1).split("\\.").length));
            assertTrue(expected.known(), file + ": the library has no table of release " + expected.release());
            Release release = compile(file, work.resolve(file.getFileName().toString()));
            ClusterStateMachine<?, ?> machine = bind(release);
            assertEquals(expected.profile(), machine.profile(), file.getFileName() + " binds another table");
            assertEquals(release.rows(), names(machine.transitions()), file.getFileName() + ": the rows, in order");
            bound.add(machine.profile());
        }
        EnumSet<Profile> ofReleases = EnumSet.complementOf(EnumSet.of(Profile.ALERT_SCALING));
        assertEquals(ofReleases, bound, "every profile of a release is some release file's table");
    }

    /** A release's enums and its s_fsm rows, by constant name. */
    private record Release(Class<?> states, Class<?> events, List<List<String>> rows) {
    }

    private static Release compile(Path file, Path dir) throws IOException, ReflectiveOperationException {
        Path src = dir.resolve("src");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> sources = new ArrayList<>();
        for (Map.Entry<String, String> standIn : STAND_INS.entrySet()) {
            Path p = src.resolve(standIn.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, standIn.getValue(), StandardCharsets.UTF_8);
            sources.add(p.toString());
        }
        Path copy = src.resolve("com/cloud/kubernetes/cluster/KubernetesCluster.java");
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy);
        sources.add(copy.toString());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-proc:none", "-nowarn"));
        args.addAll(sources);
        int rc = javac.run(null, out, out, args.toArray(new String[0]));
        assertEquals(0, rc, file + " does not compile: " + out.toString(StandardCharsets.UTF_8));
        URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, ReleaseTablesTest.class.getClassLoader());
        Class<?> states = Class.forName("com.cloud.kubernetes.cluster.KubernetesCluster$State", true, loader);
        Class<?> events = Class.forName("com.cloud.kubernetes.cluster.KubernetesCluster$Event", true, loader);
        Method getStateMachine = states.getMethod("getStateMachine");
        Object fsm = getStateMachine.invoke(null);
        @SuppressWarnings("unchecked")
        List<Object[]> rows = (List<Object[]>) fsm.getClass().getField("rows").get(fsm);
        List<List<String>> names = new ArrayList<>();
        for (Object[] row : rows) {
            names.add(List.of(((Enum<?>) row[0]).name(), ((Enum<?>) row[1]).name(), ((Enum<?>) row[2]).name()));
        }
        return new Release(states, events, names);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ClusterStateMachine<?, ?> bind(Release release) {
        Map<String, Object> next = new HashMap<>();
        for (List<String> row : release.rows()) {
            next.put(row.get(0) + "+" + row.get(1), Enum.valueOf((Class) release.states(), row.get(2)));
        }
        BiFunction host = (s, e) -> next.get(((Enum<?>) s).name() + "+" + ((Enum<?>) e).name());
        return ClusterStateMachine.bindByTable((Class) release.states(), (Class) release.events(), host, StateMode.COMPAT);
    }

    private static List<List<String>> names(List<? extends StateUpdate<?, ?>> rows) {
        List<List<String>> out = new ArrayList<>();
        for (StateUpdate<?, ?> r : rows) {
            out.add(List.of(((Enum<?>) r.expected()).name(), ((Enum<?>) r.event()).name(), ((Enum<?>) r.target()).name()));
        }
        return out;
    }
}
