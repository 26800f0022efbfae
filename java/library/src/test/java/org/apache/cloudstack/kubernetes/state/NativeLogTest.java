// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.cloudstack.kubernetes.state.internal.ClusterSnapshot;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;

/** Native log records reach Log4j 2 with their level and target; the level mirror maps right. */
@NativeTestHooks.Needed
class NativeLogTest {
    /** Collects events in memory. */
    private static final class Capture extends AbstractAppender {
        final List<LogEvent> events = new CopyOnWriteArrayList<>();

        Capture() {
            super("capture", null, null, true, Property.EMPTY_ARRAY);
        }

        @Override
        public void append(LogEvent event) {
            events.add(event.toImmutable());
        }
    }

    @Test
    void recordsReachTheNativeLoggerWithLevelAndTarget() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        Capture capture = new Capture();
        capture.start();
        // log4j2-test.xml declares this logger, so add to its config rather than replace it.
        LoggerConfig lc = config.getLoggerConfig(NativeLog.LOGGER_NAME);
        assertEquals(NativeLog.LOGGER_NAME, lc.getName());
        Level before = lc.getLevel();
        lc.addAppender(capture, null, null);
        lc.setLevel(Level.TRACE);
        ctx.updateLoggers();
        try {
            NativeLog.log(1, "cks_state::recovery", "one");
            NativeLog.log(2, "cks_state_jni", "two");
            NativeLog.log(3, "t", "three");
            NativeLog.log(4, "t", "four");
            NativeLog.log(5, "t", "five");
            NativeLog.log(9, "t", "unknown level");
            NativeLog.log(3, null, null); // never throws
            assertEquals(List.of(Level.ERROR, Level.WARN, Level.INFO, Level.DEBUG, Level.TRACE, Level.INFO, Level.INFO),
                    capture.events.stream().map(LogEvent::getLevel).toList());
            String first = capture.events.get(0).getMessage().getFormattedMessage();
            assertTrue(first.contains("cks_state::recovery") && first.contains("one"), first);
            assertEquals(NativeLog.LOGGER_NAME, capture.events.get(0).getLoggerName());
            NativeLog.syncLevel(); // the mirror accepts the TRACE level
        } finally {
            lc.removeAppender(capture.getName());
            lc.setLevel(before);
            ctx.updateLoggers();
            capture.stop();
            NativeLog.syncLevel();
        }
    }

    @Test
    void rustRecordsCrossOnlyAboveTheMirroredLevel() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        LoggerConfig lc = ctx.getConfiguration().getLoggerConfig(NativeLog.LOGGER_NAME);
        Capture capture = new Capture();
        capture.start();
        Level before = lc.getLevel();
        lc.addAppender(capture, null, null);
        ClusterStateMachine<HostEnums.ReverseState, HostEnums.ReverseEvent> machine =
                ClusterStateMachine.bind(HostEnums.ReverseState.class, HostEnums.ReverseEvent.class);
        List<ClusterSnapshot<HostEnums.ReverseState>> candidates =
                List.of(new ClusterSnapshot<>(7, HostEnums.ReverseState.Scaling));
        try {
            lc.setLevel(Level.INFO);
            ctx.updateLoggers();
            NativeLog.syncLevel();
            machine.planRecovery(candidates, new long[0]);
            assertTrue(capture.events.isEmpty(), "a DEBUG record crossed with the level at INFO");

            lc.setLevel(Level.DEBUG);
            ctx.updateLoggers();
            NativeLog.syncLevel();
            machine.planRecovery(candidates, new long[0]);
            assertEquals(1, capture.events.size());
            String message = capture.events.get(0).getMessage().getFormattedMessage();
            assertTrue(message.contains("cks_state_jni::recovery")
                    && message.contains("Compat recovery plan for 1 candidates and 0 jobs: 1 to recover"), message);
            assertEquals(Level.DEBUG, capture.events.get(0).getLevel());

            try {
                NativeTestHooks.forcePanic("logged {}");
            } catch (CksStateNativeException expected) {
                // the panic is also reported once through the log
            }
            assertTrue(capture.events.stream().anyMatch(e -> e.getLevel() == Level.ERROR
                    && e.getMessage().getFormattedMessage().contains("logged {}")), capture.events.toString());
        } finally {
            lc.removeAppender(capture.getName());
            lc.setLevel(before);
            ctx.updateLoggers();
            capture.stop();
            NativeLog.syncLevel();
        }
    }

    @Test
    void levelMirrorMapping() {
        assertEquals(0, NativeLog.nativeLevel(Level.OFF));
        assertEquals(0, NativeLog.nativeLevel(null));
        assertEquals(1, NativeLog.nativeLevel(Level.FATAL));
        assertEquals(1, NativeLog.nativeLevel(Level.ERROR));
        assertEquals(2, NativeLog.nativeLevel(Level.WARN));
        assertEquals(3, NativeLog.nativeLevel(Level.INFO));
        assertEquals(4, NativeLog.nativeLevel(Level.DEBUG));
        assertEquals(5, NativeLog.nativeLevel(Level.TRACE));
        assertEquals(5, NativeLog.nativeLevel(Level.ALL));
    }
}
