// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

/** A management server stops at {@code atMillis} and comes back {@code downMillis} later. */
record ScriptedCrash(int server, long atMillis, long downMillis) {
}
