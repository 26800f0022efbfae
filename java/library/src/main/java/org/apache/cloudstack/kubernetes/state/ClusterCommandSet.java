// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.cloudstack.kubernetes.state.value.Arguments;

/**
 * The asynchronous API commands that act on one Kubernetes cluster: a job whose {@code async_job.job_cmd}
 * is one of them holds its cluster while it is IN_PROGRESS, and the status scanner leaves that cluster
 * alone. The plugin hands its own (what it registers, {@link #of}); the tool, which has no plugin, uses
 * its release line's list ({@link #ofReleaseLine}). {@code source} says which, in logs and reports.
 */
public record ClusterCommandSet(String source, List<Command> commands) {
    /** {@code a.b.C}, {@code a.b.C$D}: a class's binary name, as {@code job_cmd} holds it. */
    private static final Pattern BINARY_NAME = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");

    /** The package of the cluster commands. */
    public static final String PACKAGE = "org.apache.cloudstack.api.command.user.kubernetes.cluster.";
    /** A {@code BaseAsyncCreateCmd}: its job names the new cluster by {@code instance_id}, and its {@code "id"} is numeric. */
    public static final String CREATE = PACKAGE + "CreateKubernetesClusterCmd";
    public static final String START = PACKAGE + "StartKubernetesClusterCmd";
    public static final String STOP = PACKAGE + "StopKubernetesClusterCmd";
    public static final String DELETE = PACKAGE + "DeleteKubernetesClusterCmd";
    public static final String SCALE = PACKAGE + "ScaleKubernetesClusterCmd";
    public static final String UPGRADE = PACKAGE + "UpgradeKubernetesClusterCmd";
    /** CloudStack 4.21 and later. */
    public static final String ADD_NODES = PACKAGE + "AddNodesToKubernetesClusterCmd";
    /** CloudStack 4.21 and later. */
    public static final String REMOVE_NODES = PACKAGE + "RemoveNodesFromKubernetesClusterCmd";

    /** CloudStack 4.20's (the classes that extend {@code BaseAsyncCmd} or {@code BaseAsyncCreateCmd}, as
     * {@code KubernetesClusterManagerImpl.getCommands()} registers them), create first. */
    public static final List<String> OF_4_20 = List.of(CREATE, START, STOP, DELETE, SCALE, UPGRADE);
    /** 4.21's and later, create first. */
    public static final List<String> OF_4_21 = List.of(CREATE, START, STOP, DELETE, SCALE, UPGRADE, ADD_NODES, REMOVE_NODES);

    /** The {@code instance_type} of these commands' jobs since CloudStack 4.19.1 ({@code ApiCommandResourceType.KubernetesCluster}). */
    public static final String RESOURCE_TYPE = "KubernetesCluster";

    /**
     * One command: its class's binary name ({@code job_cmd}) and the {@code instance_type} its jobs carry
     * ({@code getApiResourceType()}; null when it has none).
     */
    public record Command(String className, String resourceType) {
        public Command {
            if (className == null || !BINARY_NAME.matcher(className).matches()) {
                throw new IllegalArgumentException("className: not a class name: " + (className == null ? "null" : "'" + className + "'"));
            }
            if (resourceType != null && resourceType.isBlank()) {
                throw new IllegalArgumentException("resourceType of " + className + ": blank (null when the command has none)");
            }
        }
    }

    public ClusterCommandSet {
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("source: null or blank");
        }
        Arguments.required(commands, "commands");
        if (commands.isEmpty()) {
            throw new IllegalArgumentException("commands: empty (" + source + "): the scanner would take every live operation for an orphan");
        }
        for (int i = 0; i < commands.size(); i++) {
            if (commands.get(i) == null) {
                throw new IllegalArgumentException("commands[" + i + "]: null (" + source + ")");
            }
        }
        commands = List.copyOf(commands);
    }

    /** The commands {@code source} names (e.g. "the plugin's registered commands"). */
    public static ClusterCommandSet of(String source, List<Command> commands) {
        return new ClusterCommandSet(source, commands);
    }

    /**
     * The cluster commands of the CloudStack release line whose table {@code profile} is: 4.20 has six,
     * 4.21 added AddNodesToKubernetesClusterCmd and RemoveNodesFromKubernetesClusterCmd (4.23's
     * UpdateKubernetesClusterAffinityGroupCmd is synchronous: no job).
     */
    public static ClusterCommandSet ofReleaseLine(Profile profile) {
        Arguments.required(profile, "profile");
        return switch (profile) {
            case CLOUDSTACK_4_20_0, CLOUDSTACK_4_20_2 -> line("CloudStack 4.20's cluster commands", OF_4_20);
            case CLOUDSTACK_4_21, CLOUDSTACK_4_22, CLOUDSTACK_4_23, ALERT_SCALING ->
                    line("CloudStack 4.21 and later's cluster commands", OF_4_21);
        };
    }

    private static ClusterCommandSet line(String source, List<String> classNames) {
        return new ClusterCommandSet(source + " (" + classNames.size() + ")",
                classNames.stream().map(n -> new Command(n, RESOURCE_TYPE)).toList());
    }

    /** The classes' binary names, in order. */
    public List<String> classNames() {
        return commands.stream().map(Command::className).toList();
    }

    /** The resource types the commands' jobs carry (without null). */
    public Set<String> resourceTypes() {
        return commands.stream().map(Command::resourceType).filter(Objects::nonNull)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** Is a job of this {@code job_cmd} one of these commands'? */
    public boolean contains(String jobCmd) {
        return commands.stream().anyMatch(c -> c.className().equals(jobCmd));
    }

    /** {@code source}, then the commands' simple names: one line for a log or a report. */
    public String describe() {
        return source + ": " + commands.stream().map(c -> c.className().substring(c.className().lastIndexOf('.') + 1))
                .collect(Collectors.joining(", "));
    }
}
