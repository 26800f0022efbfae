//! Entry rules: may an operation start from the cluster's current state?

use std::fmt;

use crate::table::{Operation, Profile, State, StateUpdate, NOTHING_TO_DO, PROCEED};
use crate::transition::update_for;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryDecision {
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
pub fn decide_entry(profile: Profile, operation: Operation, current: State) -> EntryDecision {
    if let Some(update) = update_for(profile, current, operation.first_event()) {
        EntryDecision::Transition(update)
    } else if PROCEED[operation as usize][current as usize] {
        EntryDecision::Proceed
    } else if NOTHING_TO_DO[operation as usize][current as usize] {
        EntryDecision::NothingToDo
    } else {
        EntryDecision::Refuse(Refusal {
            operation,
            state: current,
        })
    }
}
