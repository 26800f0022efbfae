package org.apache.cloudstack.kubernetes.state;

import java.util.List;

/** The {@code mshost} rows as the primitive columns {@link NativeBridge#planRecovery} takes. */
final class HostColumns {
    final long[] msids;
    final long[] runids;
    final int[] statuses;
    final long[] ages;

    private HostColumns(int n) {
        msids = new long[n];
        runids = new long[n];
        statuses = new int[n];
        ages = new long[n];
    }

    static HostColumns of(List<MsHost> hosts) {
        HostColumns out = new HostColumns(hosts.size());
        for (int i = 0; i < hosts.size(); i++) {
            MsHost host = hosts.get(i);
            if (host == null) {
                throw new IllegalArgumentException("hosts[" + i + "] is null");
            }
            out.msids[i] = host.msid();
            out.runids[i] = host.runid();
            out.statuses[i] = host.status().code();
            out.ages[i] = Math.max(0, host.heartbeatAgeSeconds()); // a heartbeat "in the future" is fresh
        }
        return out;
    }
}
