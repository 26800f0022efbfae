// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.util.List;
import java.util.Locale;
import org.apache.cloudstack.kubernetes.state.tool.overdue.OverdueOperations;
import org.apache.cloudstack.kubernetes.state.tool.text.Json;
import org.apache.cloudstack.kubernetes.state.tool.text.Terminal;

/** The overdue live operations as scan and explain print them. */
final class OverdueReport {
    private OverdueReport() {
    }

    /** A section of its own (nothing when there is none). */
    static String text(List<OverdueOperations.Overdue> overdue) {
        if (overdue.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("overdue: live operations past CloudStack's time limit (never written):\n");
        for (OverdueOperations.Overdue o : overdue) {
            out.append(String.format(Locale.ROOT, "  %d %s %s: %s, job %d on msid %s has run %s (%d s), limit %d s (%s)%n",
                    o.id(), Terminal.field(o.uuid()), Terminal.field(o.name()), Terminal.field(o.state()), o.jobId(),
                    o.msid() == null ? "unknown" : o.msid(),
                    duration(o.runningSeconds()), o.runningSeconds(), o.timeoutSeconds(), o.limit()));
        }
        out.append("  Their jobs are alive, so the status scanner leaves these clusters alone. Find why the job hangs in\n"
                + "  the log of the management server that runs it; restarting that server fails its jobs (result\n"
                + "  530), after which the scanner (or cks-state scan --apply) recovers the cluster to Alert.\n");
        return out.toString();
    }

    static String json(List<OverdueOperations.Overdue> overdue) {
        StringBuilder out = new StringBuilder("[");
        String sep = "";
        for (OverdueOperations.Overdue o : overdue) {
            out.append(sep).append("{\"id\": ").append(o.id()).append(", \"uuid\": ").append(Json.quote(o.uuid()))
                    .append(", \"name\": ").append(Json.quote(o.name())).append(", \"state\": ").append(Json.quote(o.state()))
                    .append(", \"job_id\": ").append(o.jobId()).append(", \"msid\": ").append(o.msid())
                    .append(", \"running_seconds\": ").append(o.runningSeconds())
                    .append(", \"timeout_seconds\": ").append(o.timeoutSeconds())
                    .append(", \"timeout_from\": ").append(Json.quote(o.limit())).append('}');
            sep = ", ";
        }
        return out.append(']').toString();
    }

    /** 25 h 3 min, 12 min 5 s. */
    static String duration(long seconds) {
        long h = seconds / 3600;
        long m = seconds % 3600 / 60;
        long s = seconds % 60;
        return h > 0 ? h + " h " + m + " min" : m > 0 ? m + " min " + s + " s" : s + " s";
    }
}
