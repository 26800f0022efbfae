// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;

/** The core's tables in the host's enums, and the host's own table compared with them. */
final class HostTables {
    private HostTables() {
    }

    /** The machine of the profile whose table is the host's; ISE naming the first difference from the closest. */
    static <S extends Enum<S>, E extends Enum<E>> ClusterStateMachine<S, E> bindByTable(
            Class<S> states, Class<E> events, BiFunction<S, E, S> hostTable, StateMode mode) {
        ClusterStateMachine<S, E> closest = null;
        String closestDifference = null;
        int fewest = Integer.MAX_VALUE;
        for (Profile profile : Profile.values()) {
            ClusterStateMachine<S, E> machine = ClusterStateMachine.bind(states, events, profile, mode);
            List<String> differences = differences(machine, hostTable);
            if (differences.isEmpty()) {
                return machine;
            }
            if (differences.size() < fewest) {
                fewest = differences.size();
                closest = machine;
                closestDifference = differences.get(0);
            }
        }
        throw new IllegalStateException("the host's state machine (" + states.getName() + ") is no cks-state table: "
                + fewest + " difference(s) from the closest, profile " + closest.profile().label() + "; the first: "
                + closestDifference);
    }

    /** Every pair of the host's constants whose target differs, in the host's declaration order. */
    static <S extends Enum<S>, E extends Enum<E>> List<String> differences(ClusterStateMachine<S, E> machine,
            BiFunction<S, E, S> hostTable) {
        List<String> differences = new ArrayList<>();
        for (S from : machine.stateClass().getEnumConstants()) {
            for (E event : machine.eventClass().getEnumConstants()) {
                S host = hostTable.apply(from, event);
                S library = machine.nextState(from, event);
                if (host != library) {
                    differences.add(from + " + " + event + ": the host goes to " + (host == null ? "none" : host)
                            + ", cks-state to " + (library == null ? "none" : library));
                }
            }
        }
        return differences;
    }

    /** The states the scanner recovers that the host has. */
    static <S extends Enum<S>> Set<S> orphanStates(EnumBinding<S> states) {
        EnumSet<S> set = EnumSet.noneOf(states.type());
        for (int code : NativeBridge.orphanStates()) {
            S s = states.constant(code);
            if (s != null) {
                set.add(s);
            }
        }
        return Collections.unmodifiableSet(set);
    }

    /** The profile's rows the host can express, in table order. */
    static <S extends Enum<S>, E extends Enum<E>> List<StateUpdate<S, E>> transitions(int profileCode,
            PackedResults<S, E> results) {
        int[] triples = NativeBridge.transitions(profileCode);
        List<StateUpdate<S, E>> rows = new ArrayList<>(triples.length / 3);
        for (int i = 0; i + 2 < triples.length; i += 3) {
            StateUpdate<S, E> row = results.update(triples[i], triples[i + 1], triples[i + 2]);
            if (row != null) {
                rows.add(row);
            }
        }
        return Collections.unmodifiableList(rows);
    }
}
