// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.cloudstack.kubernetes.state.value.ClusterSnapshot;
import org.apache.cloudstack.kubernetes.state.value.Hold;
import org.apache.cloudstack.kubernetes.state.value.StateUpdate;
import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;

/**
 * The pure-Java baselines of the benchmarks, built from the same rows the native library
 * exposes ({@link ClusterStateMachine#transitions()}, {@link ClusterStateMachine#decideEntry}) so
 * that both sides answer the same questions; {@link DecisionBenchmark} checks they agree.
 */
final class PureJava {
    private PureJava() {
    }

    /**
     * A transition table laid out the way CloudStack's {@code StateMachine2} keeps it: a HashMap
     * from state to a per-state entry whose HashMap maps an event to the transition. A missing row
     * gives null here (StateMachine2 throws NoTransitionException, which would only slow it down).
     */
    static final class StateMachine2Style<S, E> {
        private static final class Transition<S, E> {
            final S to;

            Transition(S to) {
                this.to = to;
            }
        }

        private static final class StateEntry<S, E> {
            final Map<E, Transition<S, E>> nextStates = new HashMap<>();
        }

        private final Map<S, StateEntry<S, E>> states = new HashMap<>();

        StateMachine2Style(List<StateUpdate<S, E>> rows, S[] allStates) {
            for (S s : allStates) {
                states.put(s, new StateEntry<>());
            }
            for (StateUpdate<S, E> row : rows) {
                states.get(row.expected()).nextStates.put(row.event(), new Transition<>(row.target()));
            }
        }

        S next(S from, E event) {
            Transition<S, E> t = states.get(from).nextStates.get(event);
            return t == null ? null : t.to;
        }
    }

    /** The same table in EnumMaps: the fastest plain-Java layout short of a hand-made array. */
    static final class EnumMapTable<S extends Enum<S>, E extends Enum<E>> {
        private final EnumMap<S, EnumMap<E, S>> table;

        EnumMapTable(List<StateUpdate<S, E>> rows, Class<S> states, Class<E> events) {
            table = new EnumMap<>(states);
            for (S s : states.getEnumConstants()) {
                table.put(s, new EnumMap<>(events));
            }
            for (StateUpdate<S, E> row : rows) {
                table.get(row.expected()).put(row.event(), row.target());
            }
        }

        S next(S from, E event) {
            return table.get(from).get(event);
        }
    }

    /**
     * The entry decision in plain Java: the operation's first event through the EnumMap table,
     * then the exemptions, then refuse. Its result objects are cached by (operation, state) and
     * checked against what was decided, exactly as {@link ClusterStateMachine#decideEntry} caches
     * the decoded native answer, so the comparison is of the deciding alone.
     */
    static final class EntryRules<S extends Enum<S>, E extends Enum<E>> {
        private final EnumMapTable<S, E> table;
        private final List<E> firstEvent = new ArrayList<>();
        private final List<EnumSet<S>> proceed = new ArrayList<>();
        private final List<EnumSet<S>> nothingToDo = new ArrayList<>();
        private final int[] codeByOrdinal;
        private final Decided<S, E>[] cache;

        EntryRules(ClusterStateMachine<S, E> machine, EnumMapTable<S, E> table) {
            this.table = table;
            S[] states = machine.stateClass().getEnumConstants();
            codeByOrdinal = new int[states.length];
            for (S s : states) {
                codeByOrdinal[s.ordinal()] = machine.stateCode(s, "s");
            }
            @SuppressWarnings("unchecked")
            Decided<S, E>[] decided = (Decided<S, E>[]) new Decided<?, ?>[Operation.values().length * states.length];
            cache = decided;
            // The rules are read once from the library: first events from its transitions,
            // exemptions from its PROCEED / NOTHING_TO_DO answers.
            for (Operation op : Operation.values()) {
                E first = null;
                EnumSet<S> p = EnumSet.noneOf(machine.stateClass());
                EnumSet<S> n = EnumSet.noneOf(machine.stateClass());
                for (S s : states) {
                    EntryDecision<S, E> d = machine.decideEntry(op, s);
                    switch (d.kind()) {
                        case TRANSITION:
                            first = d.update().event();
                            break;
                        case PROCEED:
                            p.add(s);
                            break;
                        case NOTHING_TO_DO:
                            n.add(s);
                            break;
                        default:
                            break;
                    }
                }
                if (first == null) {
                    throw new IllegalStateException("no transition for " + op);
                }
                firstEvent.add(first);
                proceed.add(p);
                nothingToDo.add(n);
            }
        }

        EntryDecision<S, E> decide(Operation operation, S current) {
            int op = operation.ordinal();
            E first = firstEvent.get(op);
            S to = table.next(current, first);
            int kind;
            if (to != null) {
                kind = 0;
            } else if (proceed.get(op).contains(current)) {
                kind = 1;
            } else if (nothingToDo.get(op).contains(current)) {
                kind = 2;
            } else {
                kind = 3;
            }
            int slot = op * codeByOrdinal.length + current.ordinal();
            Decided<S, E> decided = cache[slot];
            if (decided != null && decided.kind == kind && decided.target == to) {
                return decided.decision;
            }
            EntryDecision<S, E> decision;
            switch (kind) {
                case 0:
                    StateWrite<S, E> write = StateWrite.of(new StateUpdate<>(current, first, to));
                    decision = EntryDecision.transition(write, new Hold<>(write.target(), to));
                    break;
                case 1:
                    decision = EntryDecision.proceed(null, new Hold<>(Token.of(current), null));
                    break;
                case 2:
                    decision = EntryDecision.nothingToDo();
                    break;
                default:
                    decision = EntryDecision.refuse(operation, codeByOrdinal[current.ordinal()], null);
                    break;
            }
            cache[slot] = new Decided<>(kind, to, decision);
            return decision;
        }

        private static final class Decided<S, E> {
            final int kind;
            final S target;
            final EntryDecision<S, E> decision;

            Decided(int kind, S target, EntryDecision<S, E> decision) {
                this.kind = kind;
                this.target = target;
                this.decision = decision;
            }
        }
    }

    /**
     * Orphan-recovery planning in plain Java, the same algorithm as the core: a HashSet of the
     * candidates' ids, emptied of those that have a job, then the candidates left in it are failed.
     */
    static final class RecoveryPlanner<S extends Enum<S>, E extends Enum<E>> {
        private final Set<S> orphanStates;
        private final EnumMapTable<S, E> table;
        private final E operationFailed;

        RecoveryPlanner(ClusterStateMachine<S, E> machine, EnumMapTable<S, E> table, E operationFailed) {
            this.orphanStates = EnumSet.copyOf(machine.orphanStates());
            this.table = table;
            this.operationFailed = operationFailed;
        }

        RecoveryPlan<S, E> plan(List<ClusterSnapshot<S>> candidates, long[] jobClusterIds) {
            Set<Long> orphans = new HashSet<>();
            for (ClusterSnapshot<S> c : candidates) {
                if (orphanStates.contains(c.state())) {
                    orphans.add(c.id());
                }
            }
            if (orphans.isEmpty()) {
                return new RecoveryPlan<>(RecoveryPlan.Kind.SKIP, List.of());
            }
            for (long id : jobClusterIds) {
                if (id == -1) {
                    return new RecoveryPlan<>(RecoveryPlan.Kind.WAIT, List.of());
                }
                orphans.remove(id);
            }
            List<ClusterRecovery<S, E>> out = new ArrayList<>();
            for (ClusterSnapshot<S> c : candidates) {
                if (orphanStates.contains(c.state()) && orphans.contains(c.id())) {
                    S to = table.next(c.state(), operationFailed);
                    if (to != null) {
                        out.add(new ClusterRecovery<>(c.id(), StateWrite.of(new StateUpdate<>(c.state(), operationFailed, to)),
                                GoneReason.NO_OWNER_NO_JOB));
                    }
                }
            }
            return new RecoveryPlan<>(RecoveryPlan.Kind.RECOVER, out);
        }
    }
}
