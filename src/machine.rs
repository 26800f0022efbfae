// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The decisions of one stack: a profile's table and a mode's way of writing. Every decision
//! that writes is a method of [`StateMachine`] (entry, scaling, completion, reconcile, recovery,
//! each in its own module); the mode is data here, never a second API.

use crate::mode::Mode;
use crate::table::{Event, Profile, State};
use crate::transition::update_for;
use crate::write::{
    ClusterRow, Owner, Token, Write, WriteError, DEFAULT_HEARTBEAT_THRESHOLD_MILLIS,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StateMachine {
    pub profile: Profile,
    pub mode: Mode,
    /// The deployment's `cluster.heartbeat.threshold`: an owner whose server's heartbeat is older
    /// is gone (fenced recovery).
    pub heartbeat_threshold_millis: u64,
}

impl StateMachine {
    pub const fn new(profile: Profile, mode: Mode) -> StateMachine {
        StateMachine {
            profile,
            mode,
            heartbeat_threshold_millis: DEFAULT_HEARTBEAT_THRESHOLD_MILLIS,
        }
    }

    /// The same machine judging heartbeats by `millis` (CloudStack's `cluster.heartbeat.threshold`).
    pub const fn with_heartbeat_threshold(self, millis: u64) -> StateMachine {
        StateMachine {
            heartbeat_threshold_millis: millis,
            ..self
        }
    }

    /// The write from `expected` to `state`. Compat compares the state only and stores no owner;
    /// fenced compares the version, stores the next one and `owner`.
    pub(crate) fn write(
        &self,
        expected: Token,
        state: State,
        event: Option<Event>,
        owner: Option<Owner>,
    ) -> Result<Write, WriteError> {
        let (target, owner) = match self.mode {
            Mode::Compat => (
                Token {
                    state,
                    version: expected.version,
                },
                None,
            ),
            Mode::Fenced => (expected.next(state)?, owner),
        };
        Ok(Write {
            expected,
            target,
            event,
            owner,
        })
    }

    /// The operation holding `row`, as this mode sees it: compat records none.
    pub(crate) fn holder(&self, row: &ClusterRow) -> Option<Owner> {
        row.owner.filter(|_| self.mode.reads_fence())
    }

    /// Whether the scanner must look at `row`: an operation's state, or held by an operation.
    pub fn is_candidate(&self, row: &ClusterRow) -> bool {
        self.is_orphan_state(row.token.state) || self.holder(row).is_some()
    }

    /// An operation's state that this profile's table can fail: the states a release lacks
    /// (4.20: Importing, RemovingNodes, ScalingStoppedCluster) have no exit there, and no row of
    /// that release is ever in them.
    pub fn is_orphan_state(&self, state: State) -> bool {
        state.is_orphan_candidate()
            && update_for(self.profile, state, Event::OperationFailed).is_some()
    }
}
