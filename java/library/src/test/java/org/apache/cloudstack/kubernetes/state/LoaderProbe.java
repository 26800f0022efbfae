// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.Event;
import org.apache.cloudstack.kubernetes.state.value.ReferenceCluster.State;

/** Run in a forked JVM by {@link NativeLibraryLoaderTest}: loads twice, binds, prints what happened. */
public final class LoaderProbe {
    private LoaderProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        // First use from 8 threads at once: all must see one and the same outcome.
        java.util.Set<String> outcomes = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                    NativeLibrary.load();
                    outcomes.add("ok");
                } catch (CksStateNativeException e) {
                    outcomes.add("failed " + System.identityHashCode(e.getCause()));
                } catch (InterruptedException e) {
                    outcomes.add("interrupted");
                }
            });
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        for (int i = 0; i < 2; i++) {
            try {
                NativeLibrary.load();
                System.out.println("LOADED " + NativeLibrary.source());
            } catch (CksStateNativeException e) {
                System.out.println("FAILED " + e.getMessage().replace('\n', ' ') + " | cause="
                        + e.getCause().getClass().getName() + "@" + System.identityHashCode(e.getCause()));
            }
        }
        try {
            ClusterStateMachine<State, Event> m = ClusterStateMachine.bind(State.class, Event.class);
            System.out.println("BOUND " + m.nextState(State.Created, Event.StartRequested));
        } catch (CksStateNativeException e) {
            System.out.println("BIND FAILED " + e.getClass().getName());
        }
        System.out.println("CONCURRENT " + outcomes.size());
        System.out.println("PLATFORM " + NativeLibrary.platform());
        // Every file of this name the process mapped: what ran, whatever the loader reports.
        try (java.util.stream.Stream<String> maps = java.nio.file.Files.lines(java.nio.file.Path.of("/proc/self/maps"))) {
            maps.filter(l -> l.contains("cks_state")).map(l -> l.substring(l.indexOf('/')))
                    .distinct().forEach(f -> System.out.println("MAPPED " + f));
        } catch (java.io.IOException e) {
            System.out.println("MAPS UNREADABLE " + e);
        }
    }
}
