// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run in a forked JVM by {@link NativeLibraryLoaderTest}: the library used from this JVM's
 * application class loader and from two more {@link URLClassLoader}s over the same classes (as an
 * application server does with two web apps), each binding and deciding, also at the same time.
 * System property {@code probe.loader.path}: the class path of the extra loaders.
 */
public final class TwoLoadersProbe {
    private TwoLoadersProbe() {
    }

    /** Binds the reference enums through this loader's library and asks Created + StartRequested. */
    private static Object decide(ClassLoader loader) throws ReflectiveOperationException {
        Class<?> machine = Class.forName("org.apache.cloudstack.kubernetes.state.ClusterStateMachine", true, loader);
        Class<?> states = Class.forName("org.apache.cloudstack.kubernetes.state.value.ReferenceCluster$State",
                true, loader);
        Class<?> events = Class.forName("org.apache.cloudstack.kubernetes.state.value.ReferenceCluster$Event",
                true, loader);
        Object m = machine.getMethod("bind", Class.class, Class.class).invoke(null, states, events);
        Method next = machine.getMethod("nextState", Enum.class, Enum.class);
        Object created = states.getMethod("valueOf", String.class).invoke(null, "Created");
        Object start = events.getMethod("valueOf", String.class).invoke(null, "StartRequested");
        return next.invoke(m, created, start);
    }

    private static String source(ClassLoader loader) throws ReflectiveOperationException {
        Class<?> lib = Class.forName("org.apache.cloudstack.kubernetes.state.NativeLibrary", true, loader);
        return String.valueOf(lib.getMethod("source").invoke(null));
    }

    public static void main(String[] args) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("probe.loader.path").split(File.pathSeparator)) {
            urls.add(Paths.get(entry).toUri().toURL());
        }
        List<ClassLoader> loaders = new ArrayList<>();
        loaders.add(TwoLoadersProbe.class.getClassLoader());
        for (int i = 0; i < 2; i++) {
            loaders.add(new URLClassLoader("loader-" + (i + 1), urls.toArray(new URL[0]),
                    ClassLoader.getPlatformClassLoader()));
        }
        for (int i = 0; i < loaders.size(); i++) {
            ClassLoader loader = loaders.get(i);
            try {
                Object answer = decide(loader);
                System.out.println("LOADER " + i + " BOUND " + answer + " | " + source(loader));
            } catch (ReflectiveOperationException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                System.out.println("LOADER " + i + " FAILED " + cause.getClass().getName() + ": " + cause.getMessage());
            }
        }
        // All loaders at once: 4 threads each, every answer the same.
        AtomicInteger wrong = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (ClassLoader loader : loaders) {
            for (int t = 0; t < 4; t++) {
                Thread thread = new Thread(() -> {
                    for (int k = 0; k < 2000; k++) {
                        try {
                            if (!"Starting".equals(String.valueOf(decide(loader)))) {
                                wrong.incrementAndGet();
                            }
                        } catch (ReflectiveOperationException e) {
                            wrong.incrementAndGet();
                        }
                        calls.incrementAndGet();
                    }
                });
                thread.start();
                threads.add(thread);
            }
        }
        for (Thread thread : threads) {
            thread.join();
        }
        System.out.println("LOADERS concurrent calls=" + calls.get() + " wrong=" + wrong.get());
    }
}
