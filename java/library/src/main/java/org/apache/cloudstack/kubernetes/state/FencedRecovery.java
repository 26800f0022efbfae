package org.apache.cloudstack.kubernetes.state;

/** One orphan the fenced scanner fails (or, for a held row at rest, releases). */
public record FencedRecovery<S, E>(long clusterId, FencedWrite<S, E> write, GoneReason reason) {
}
