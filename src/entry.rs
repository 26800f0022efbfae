// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Entry rules: may an operation start from the cluster's current state, and what does its
//! entry write?

use std::fmt;

use crate::machine::StateMachine;
use crate::table::{Operation, Profile, State, StateUpdate, NOTHING_TO_DO, PROCEED};
use crate::transition::update_for;
use crate::write::{ClusterRow, Hold, Owner, Take, Token, WriteError};

/// Why an operation may not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub operation: Operation,
    pub state: State,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not allowed for a Kubernetes cluster in state {}",
            self.operation, self.state
        )
    }
}

impl std::error::Error for Refusal {}

/// The entry rule of the table, the same in both modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryRule {
    /// Compare-and-set the cluster into the operation's state before changing anything.
    Transition(StateUpdate),
    /// Go ahead without a state change (an exemption of the upstream rules).
    Proceed,
    /// The operation is already done: success, no work.
    NothingToDo,
    Refuse(Refusal),
}

/// The decision for `operation` starting from `current`. A table row wins over the
/// exemptions, which win over "nothing to do".
#[inline]
pub fn decide_entry(profile: Profile, operation: Operation, current: State) -> EntryRule {
    if let Some(update) = update_for(profile, current, operation.first_event()) {
        EntryRule::Transition(update)
    } else if PROCEED[operation as usize][current as usize] {
        EntryRule::Proceed
    } else if NOTHING_TO_DO[operation as usize][current as usize] {
        EntryRule::NothingToDo
    } else {
        EntryRule::Refuse(Refusal {
            operation,
            state: current,
        })
    }
}

/// What an operation's entry does on the row it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryDecision {
    /// Compare-and-set the take's write into the operation's state; on a hit keep its hold, on a
    /// miss fail with "please retry".
    Transition(Take),
    /// Go ahead without a state change. Fenced mode first compare-and-sets the take's write,
    /// which holds the cluster and keeps its state; compat writes nothing (None).
    Proceed(Option<Take>),
    /// The operation is already done: success, no work.
    NothingToDo,
    Refuse(Refusal),
    /// Another operation holds the cluster (fenced mode): fail with "please retry".
    Busy(Owner),
}

impl EntryDecision {
    /// What the operation holds once it goes ahead (after its write hit, if it has one): the take's
    /// hold; for a compat proceed, which writes nothing, the row as read, so its completion ends
    /// from that state as upstream's workers do. None when it does not go ahead.
    pub fn hold(&self, read: &ClusterRow) -> Option<Hold> {
        match self {
            EntryDecision::Transition(take) | EntryDecision::Proceed(Some(take)) => Some(take.hold),
            EntryDecision::Proceed(None) => Some(Hold {
                token: Token {
                    state: read.token.state,
                    version: 0,
                },
                moved_to: None,
            }),
            _ => None,
        }
    }
}

impl StateMachine {
    /// The entry of `operation`, run by `me`, on a cluster read as `row`.
    pub fn entry(
        &self,
        operation: Operation,
        row: &ClusterRow,
        me: Owner,
    ) -> Result<EntryDecision, WriteError> {
        let token = row.token;
        let (state, event) = match decide_entry(self.profile, operation, token.state) {
            EntryRule::NothingToDo => return Ok(EntryDecision::NothingToDo),
            EntryRule::Refuse(r) => return Ok(EntryDecision::Refuse(r)),
            EntryRule::Proceed if !self.mode.reads_fence() => {
                return Ok(EntryDecision::Proceed(None))
            }
            EntryRule::Transition(u) => (u.target, Some(u.event)),
            EntryRule::Proceed => (token.state, None),
        };
        // One operation at a time: this also refuses the table's Starting -> Stopping takeover
        // while the start's owner lives; the scanner frees the cluster once that owner is gone.
        if let Some(owner) = self.holder(row) {
            return Ok(EntryDecision::Busy(owner));
        }
        let take = Take::new(self.write(token, state, event, Some(me))?, event.is_some());
        Ok(match event {
            Some(_) => EntryDecision::Transition(take),
            None => EntryDecision::Proceed(Some(take)),
        })
    }
}
