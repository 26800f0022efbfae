// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.cloudstack.kubernetes.state.ClusterCommandSet.Command;
import org.junit.jupiter.api.Test;

/** The commands whose jobs hold a cluster: each release line's, and what a plugin may hand. */
class ClusterCommandSetTest {
    private static final String PACKAGE = "org.apache.cloudstack.api.command.user.kubernetes.cluster.";

    @Test
    void eachReleaseLineHasItsCommands() {
        for (Profile p : Profile.values()) {
            ClusterCommandSet line = ClusterCommandSet.ofReleaseLine(p);
            boolean has420Only = p == Profile.CLOUDSTACK_4_20_0 || p == Profile.CLOUDSTACK_4_20_2;
            assertEquals(has420Only ? 6 : 8, line.commands().size(), p.label());
            assertTrue(line.contains(PACKAGE + "ScaleKubernetesClusterCmd"), p.label());
            assertEquals(!has420Only, line.contains(PACKAGE + "AddNodesToKubernetesClusterCmd"), p.label());
            assertEquals(List.of("KubernetesCluster"), List.copyOf(line.resourceTypes()), p.label());
            assertTrue(line.source().startsWith(has420Only ? "CloudStack 4.20's" : "CloudStack 4.21 and later's"), line.source());
        }
        assertFalse(ClusterCommandSet.ofReleaseLine(Profile.CLOUDSTACK_4_22).contains("org.apache.cloudstack.api.command.user.vm.StartVMCmd"));
    }

    @Test
    void aPluginsCommandsAreKeptAsGiven() {
        List<Command> given = new ArrayList<>(List.of(new Command("org.example.NewClusterCmd", "KubernetesCluster"),
                new Command("org.example.Outer$InnerCmd", null)));
        ClusterCommandSet set = ClusterCommandSet.of("the plugin's", given);
        given.clear();
        assertEquals(List.of("org.example.NewClusterCmd", "org.example.Outer$InnerCmd"), set.classNames());
        assertEquals(List.of("KubernetesCluster"), List.copyOf(set.resourceTypes()), "no null type");
        assertEquals("the plugin's: NewClusterCmd, Outer$InnerCmd", set.describe());
    }

    @Test
    void badInputIsRefusedNamingWhatWasWrong() {
        Command ok = new Command("org.example.NewClusterCmd", "KubernetesCluster");
        assertMessage("commands: empty", () -> ClusterCommandSet.of("p", List.of()));
        assertMessage("commands is null", () -> ClusterCommandSet.of("p", null));
        assertMessage("commands[1]: null", () -> ClusterCommandSet.of("p", Arrays.asList(ok, null)));
        assertMessage("source: null or blank", () -> ClusterCommandSet.of(" ", List.of(ok)));
        assertMessage("className: not a class name: 'a.b'); DROP TABLE async_job; --'",
                () -> new Command("a.b'); DROP TABLE async_job; --", "KubernetesCluster"));
        assertMessage("className: not a class name: null", () -> new Command(null, "KubernetesCluster"));
        assertMessage("className: not a class name: 'a..B'", () -> new Command("a..B", null));
        assertMessage("resourceType of a.B: blank", () -> new Command("a.B", ""));
        assertMessage("profile is null", () -> ClusterCommandSet.ofReleaseLine(null));
    }

    private static void assertMessage(String start, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
    }
}
