package org.apache.cloudstack.kubernetes.state;

/** How an operation ended. Ordinal = native outcome code. */
public enum Outcome {
    SUCCEEDED,
    FAILED,
    /** A create that failed: Starting -> Error by CreateFailed. */
    CREATE_FAILED
}
