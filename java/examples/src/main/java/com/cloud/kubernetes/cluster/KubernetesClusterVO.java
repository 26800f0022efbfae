package com.cloud.kubernetes.cluster;

/** A stand-in of CloudStack's value object: a cluster as a worker loaded it. */
public record KubernetesClusterVO(long id, State state) implements KubernetesCluster {
    @Override
    public long getId() {
        return id;
    }

    @Override
    public State getState() {
        return state;
    }
}
