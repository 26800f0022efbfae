package org.apache.cloudstack.kubernetes.state;

/** What a scale request changes. Ordinal = native scale kind code. */
public enum ScaleKind {
    SCALE_UP,
    SCALE_DOWN,
    /** Only the service offering changes: the one kind that may scale a Stopped cluster. */
    OFFERING_CHANGE,
    AUTOSCALE
}
