package org.apache.cloudstack.kubernetes.state;

/** The message of a scale step that another operation overtook (cold path; the core has no text for it). */
final class ScaleMessages {
    private ScaleMessages() {
    }

    static String takenSince(ScaleKind kind, String nowIn) {
        return "Cannot " + verb(kind) + " the Kubernetes cluster: another operation has taken it since the request"
                + " was accepted (it is now in state " + nowIn + "), please retry";
    }

    private static String verb(ScaleKind kind) {
        switch (kind) {
            case SCALE_UP:
                return "scale up";
            case SCALE_DOWN:
                return "scale down";
            case OFFERING_CHANGE:
                return "change the service offering of";
            default:
                return "autoscale";
        }
    }
}
