// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state;

import org.apache.cloudstack.kubernetes.state.value.StateWrite;
import org.apache.cloudstack.kubernetes.state.value.Token;

/** A write the host is about to apply, asked of the core's one shape rule. */
final class HostWriteCheck {
    private HostWriteCheck() {
    }

    /** What {@code write} breaks of the shape of mode {@code modeCode}, or null. */
    static <S extends Enum<S>, E extends Enum<E>> String error(int modeCode, int profileCode, EnumBinding<S> states,
            EnumBinding<E> events, StateWrite<S, E> write) {
        // The host marks a compat token by carrying no version; the core's compat tokens carry 0.
        if (write.versioned() && modeCode == NativeCodes.MODE_COMPAT) {
            return "a compat write compares and stores no version";
        }
        Token<S> from = write.expected();
        Token<S> to = write.target();
        int event = write.event() == null ? NativeBridge.NONE : events.code(write.event(), "write.event");
        return NativeBridge.writeShapeError(modeCode, profileCode, states.code(from.state(), "write.expected"),
                version(from), event, states.code(to.state(), "write.target"), version(to), write.owner() != null);
    }

    /** A compat token carries no version: the core's compat tokens have 0. */
    private static long version(Token<?> token) {
        return token.versioned() ? token.version() : 0;
    }
}
