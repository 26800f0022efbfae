// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Transition validation.

use crate::table::{Event, Profile, State, StateUpdate};

/// The state `event` moves a cluster in `from` to, or `None` when the profile has no row.
#[inline]
pub fn next_state(profile: Profile, from: State, event: Event) -> Option<State> {
    State::from_index(profile.table()[from as usize][event as usize])
}

/// The compare-and-set for `event` from `from`, when the profile has the row.
#[inline]
pub fn update_for(profile: Profile, from: State, event: Event) -> Option<StateUpdate> {
    next_state(profile, from, event).map(|target| StateUpdate {
        expected: from,
        event,
        target,
    })
}
