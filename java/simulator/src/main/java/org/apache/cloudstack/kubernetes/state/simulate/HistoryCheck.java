// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * Checks the recorded state changes (every UPDATE that changed a state, whoever made it: the test
 * kit's history trigger): each is a row of the table, each starts where the previous change of its
 * cluster ended, and the last ends in the state the cluster shows now. A change outside the table
 * (a blind write of a stale state included) breaks one of these.
 */
final class HistoryCheck {
    private HistoryCheck() {
    }

    /** The number of recorded changes (and final states) that break the rules. */
    static int illegalTransitions(ClusterStateMachine<State, Event> machine, List<SimCluster> clusters,
            List<String[]> history, Map<Long, String> finalStates) {
        Map<Long, String> last = new HashMap<>();
        for (SimCluster c : clusters) {
            last.put(c.id(), c.initialState());
        }
        int illegal = 0;
        for (String[] row : history) {
            long id = Long.parseLong(row[0]);
            State from = machine.state(row[1]);
            State to = machine.state(row[2]);
            boolean tableRow = machine.transitions().stream().anyMatch(u -> u.expected() == from && u.target() == to);
            if (!tableRow || !row[1].equals(last.get(id))) {
                illegal++;
            }
            last.put(id, row[2]);
        }
        for (Map.Entry<Long, String> e : finalStates.entrySet()) {
            if (!e.getValue().equals(last.get(e.getKey()))) {
                illegal++;
            }
        }
        return illegal;
    }
}
