// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.cloudstack.kubernetes.state.tool.cli.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many short `simulate` runs in both modes, with crashes and widened windows, while threads burn
 * CPU to shake the schedule: every run must end (its watchdog turns a stall into exit 3 with a
 * thread dump, which fails this test) with its invariants held.
 */
class SimulateNeverHangsTest {
    private static final int SEEDS = Integer.getInteger("cks.hang.seeds", 5);

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shortRunsWithCrashesAndWidenedWindowsNeverHang() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> burners = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() % 7;
                }
                if (x == 42) {
                    System.out.println("burner");
                }
            }, "cpu-burner-" + i);
            t.setDaemon(true);
            t.start();
            burners.add(t);
        }
        int runs = 0;
        try {
            for (String mode : List.of("compat", "fenced")) {
                for (int seed = 1; seed <= SEEDS; seed++) {
                    ToolRun run = ToolRun.on(SimulatorMain.commandLine(), "simulate", "--quiet", "--mode", mode, "--widen-windows", "--seed",
                            String.valueOf(seed), "--operations", "80", "--clusters", "6", "--crashes", "4",
                            "--stall-seconds", "20");
                    assertTrue(run.code() != SimulateCommand.STALLED, "simulate --mode " + mode + " --seed " + seed
                            + " stalled:\n" + run.err());
                    assertEquals(0, run.code(), "simulate --mode " + mode + " --seed " + seed + ":\n" + run.out() + run.err());
                    runs++;
                }
            }
        } finally {
            stop.set(true);
            for (Thread t : burners) {
                t.join(5000);
            }
        }
        System.out.println("HANG-CHECK " + runs + " simulate runs ended, none stalled");
        assertEquals(2 * SEEDS, runs);
    }
}
