// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Everything the users and the crashes do, fixed by the seed before the run starts. */
record OperationScript(List<String> initialStates, List<ScriptedOperation> operations, List<ScriptedCrash> crashes) {

    private static final String[] INITIAL_STATES = {"Created", "Running", "Running", "Running", "Stopped"};

    static OperationScript generate(SimulationConfig config) {
        SplittableRandom random = new SplittableRandom(config.seed());
        List<String> initial = new ArrayList<>();
        for (int c = 0; c < config.clusters(); c++) {
            initial.add(INITIAL_STATES[random.nextInt(INITIAL_STATES.length)]);
        }
        List<ScriptedOperation> operations = new ArrayList<>();
        long at = 0;
        for (int i = 0; i < config.operations(); i++) {
            at += config.arrivalMillis() == 0 ? 0 : random.nextInt(2 * config.arrivalMillis() + 1);
            int work = 1 + random.nextInt(2 * config.meanOperationMillis());
            operations.add(new ScriptedOperation(i, random.nextInt(config.clusters()),
                    random.nextInt(config.servers()), pick(random), at, work,
                    random.nextDouble() < config.failureRate(), random.nextDouble() < config.legacyJobRate()));
        }
        List<ScriptedCrash> crashes = new ArrayList<>();
        long span = Math.max(at, 1);
        for (int i = 0; i < config.crashes(); i++) {
            crashes.add(new ScriptedCrash(random.nextInt(config.servers()), random.nextLong(span),
                    2L * config.meanOperationMillis() + random.nextInt(8 * config.meanOperationMillis())));
        }
        crashes.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
        return new OperationScript(List.copyOf(initial), List.copyOf(operations), List.copyOf(crashes));
    }

    private static SimOperation pick(SplittableRandom random) {
        int roll = random.nextInt(SimOperation.totalWeight());
        for (SimOperation op : SimOperation.values()) {
            roll -= op.weight;
            if (roll < 0) {
                return op;
            }
        }
        throw new IllegalStateException("weights do not add up");
    }

    /** A digest of the script: equal scripts, equal fingerprints. */
    long fingerprint() {
        long h = 1125899906842597L;
        for (String s : initialStates) {
            h = 31 * h + s.hashCode();
        }
        // Enum hash codes differ between JVM runs: hash ordinals and plain values only.
        for (ScriptedOperation o : operations) {
            long[] fields = {o.index(), o.cluster(), o.server(), o.kind().ordinal(), o.atMillis(), o.workMillis(),
                o.fails() ? 1 : 0, o.legacyJob() ? 1 : 0};
            for (long f : fields) {
                h = 31 * h + f;
            }
        }
        for (ScriptedCrash c : crashes) {
            h = 31 * (31 * (31 * h + c.server()) + c.atMillis()) + c.downMillis();
        }
        return h;
    }
}
