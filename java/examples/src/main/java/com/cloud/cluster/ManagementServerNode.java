package com.cloud.cluster;

/**
 * A stand-in of CloudStack's {@code ManagementServerNode}: the management server's id (msid),
 * stable for the host (CloudStack derives it from the MAC address).
 */
public final class ManagementServerNode {
    private static volatile long id = 0x1234_5678L;

    private ManagementServerNode() {
    }

    public static long getManagementServerId() {
        return id;
    }

    /** Stand-in only: the examples' tests choose the id. */
    public static void useId(long msid) {
        id = msid;
    }
}
