// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/**
 * Run in a forked JVM by {@link NativeLibraryLoaderTest}: 16 threads call native methods before,
 * during and after the library loads. Raw {@link NativeBridge} calls before the load must throw
 * {@link UnsatisfiedLinkError} (the JVM has nothing bound yet) and answer right once it is bound;
 * the public API loads on first use and must always answer right. Nothing else, and no crash.
 */
public final class LoadRaceProbe {
    private LoadRaceProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        final int threads = 16;
        final long millis = Long.getLong("probe.millis", 1500);
        AtomicLong rawUnbound = new AtomicLong();
        AtomicLong rawOk = new AtomicLong();
        AtomicLong publicOk = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        AtomicLong other = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        Thread[] all = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final boolean loader = t % 4 == 0; // a quarter of the threads use the public API from the start
            all[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long end = System.nanoTime() + millis * 1_000_000L;
                long i = 0;
                long answered = 0;
                // Until the time is up and this thread has seen 200 answers (the load may take most of it).
                while (System.nanoTime() < end || answered < 200) {
                    try {
                        if (loader && i % 2 == 0) {
                            ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class);
                            if (m.nextState(State.Created, Event.StartRequested) != State.Starting
                                    || NativeLibrary.abiVersion() != NativeLibrary.expectedAbiVersion()) {
                                wrong.incrementAndGet();
                            }
                            publicOk.incrementAndGet();
                            answered++;
                        } else {
                            // Created (0) + StartRequested (0) -> Starting (1), by the table's codes.
                            if (NativeBridge.nextState(0, 0, 0) != 1 || NativeBridge.abiVersion() != NativeBridge.ABI_VERSION) {
                                wrong.incrementAndGet();
                            }
                            rawOk.incrementAndGet();
                            answered++;
                        }
                    } catch (UnsatisfiedLinkError e) {
                        if (loader && i % 2 == 0) {
                            other.incrementAndGet(); // the public API must never see an unbound method
                            System.out.println("OTHER public " + e);
                        }
                        rawUnbound.incrementAndGet();
                    } catch (Throwable e) {
                        other.incrementAndGet();
                        System.out.println("OTHER " + e);
                    }
                    i++;
                }
            });
            all[t].start();
        }
        go.countDown();
        for (Thread t : all) {
            t.join();
        }
        System.out.println("RACE threads=" + threads + " rawUnbound=" + rawUnbound + " rawOk=" + rawOk + " publicOk="
                + publicOk + " wrong=" + wrong + " other=" + other);
    }
}
