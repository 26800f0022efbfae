// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Scaling rules for one scale or autoscale operation.
//!
//! The operation remembers the token it started from and what its take left it. It enters
//! Scaling / ScalingStoppedCluster once, at its first scaling step, and only an operation that
//! moved the cluster completes or fails that state (fenced: only one that holds it).

use std::fmt;

use crate::completion::Outcome;
use crate::machine::StateMachine;
use crate::table::{Event, Operation, Profile, State, StateUpdate};
use crate::transition::update_for;
use crate::write::{ClusterRow, Hold, Owner, Take, Token, Write, WriteError};

/// What a scale request changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScaleKind {
    ScaleUp,
    ScaleDown,
    /// Only the service offering: the one change a Stopped cluster accepts.
    OfferingChange,
    Autoscale,
}

impl ScaleKind {
    pub const ALL: [ScaleKind; 4] = [
        ScaleKind::ScaleUp,
        ScaleKind::ScaleDown,
        ScaleKind::OfferingChange,
        ScaleKind::Autoscale,
    ];

    pub const fn event(self) -> Event {
        match self {
            ScaleKind::ScaleUp | ScaleKind::OfferingChange => Event::ScaleUpRequested,
            ScaleKind::ScaleDown => Event::ScaleDownRequested,
            ScaleKind::Autoscale => Event::AutoscaleRequested,
        }
    }

    pub const fn operation(self) -> Operation {
        match self {
            ScaleKind::Autoscale => Operation::Autoscale,
            _ => Operation::Scale,
        }
    }

    const fn changes_size(self) -> bool {
        !matches!(self, ScaleKind::OfferingChange)
    }
}

/// Why a scale may not start from a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScaleRefusal {
    pub kind: ScaleKind,
    pub state: State,
}

impl fmt::Display for ScaleRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.state == State::Stopped && self.kind.changes_size() {
            write!(
                f,
                "{} of a Stopped Kubernetes cluster is not allowed: only its service offering can change",
                self.kind.operation()
            )
        } else {
            write!(
                f,
                "{} is not allowed for a Kubernetes cluster in state {}",
                self.kind.operation(),
                self.state
            )
        }
    }
}

impl std::error::Error for ScaleRefusal {}

/// Why a scale of a never-started cluster fails at a step: a start has taken the cluster since the
/// request was accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakenSince {
    pub kind: ScaleKind,
    /// The state the cluster is in now.
    pub now: State,
}

impl fmt::Display for TakenSince {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = match self.kind {
            ScaleKind::ScaleUp => "scale up",
            ScaleKind::ScaleDown => "scale down",
            ScaleKind::OfferingChange => "change the service offering of",
            ScaleKind::Autoscale => "autoscale",
        };
        write!(
            f,
            "Cannot {verb} the Kubernetes cluster: another operation has taken it since the request \
             was accepted (it is now in state {}), please retry",
            self.now
        )
    }
}

impl std::error::Error for TakenSince {}

/// What one scaling step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaleStep {
    /// Compare-and-set the take's write into Scaling / ScalingStoppedCluster, then
    /// [`Scale::mark_entered`]. A miss means another operation got there first: fail without
    /// touching the state.
    Enter(Take),
    /// The cluster was never started: change the stored settings only. Fenced mode first takes
    /// the cluster with the take's write, keeping its state (the completion releases it in the
    /// same statement as the settings); None in compat mode, or when this operation holds it.
    SettingsOnly(Option<Take>),
    /// An earlier step of this operation moved the cluster: transition nothing.
    AlreadyEntered,
    /// The operation started from Created but a start has taken the cluster since: it is now in
    /// this state.
    FailTakenSince(State),
    /// Another operation holds the cluster (fenced mode): fail with "please retry".
    Busy(Owner),
    Refuse(ScaleRefusal),
}

/// One scale or autoscale operation: the token read when the request was accepted (every take
/// expects it) and what its take left it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scale {
    machine: StateMachine,
    kind: ScaleKind,
    started: Token,
    me: Owner,
    hold: Option<Hold>,
}

enum Acceptance {
    SettingsOnly,
    Enter(StateUpdate),
}

fn accept(profile: Profile, kind: ScaleKind, from: State) -> Result<Acceptance, ScaleRefusal> {
    let refusal = ScaleRefusal { kind, state: from };
    match from {
        State::Created => Ok(Acceptance::SettingsOnly),
        State::Stopped if kind.changes_size() => Err(refusal),
        _ => update_for(profile, from, kind.event())
            .map(Acceptance::Enter)
            .ok_or(refusal),
    }
}

impl StateMachine {
    /// Starts a scale of `kind` accepted on the row read as `started`, run by `me`.
    pub fn scale(&self, kind: ScaleKind, started: Token, me: Owner) -> Scale {
        self.resume_scale(kind, started, me, None)
    }

    /// The same scale after earlier steps: `hold` is what its last take left it (the host keeps it
    /// between steps and hands it back).
    pub fn resume_scale(
        &self,
        kind: ScaleKind,
        started: Token,
        me: Owner,
        hold: Option<Hold>,
    ) -> Scale {
        Scale {
            machine: *self,
            kind,
            started,
            me,
            hold,
        }
    }
}

impl Scale {
    pub fn kind(&self) -> ScaleKind {
        self.kind
    }

    pub fn started(&self) -> Token {
        self.started
    }

    pub fn hold(&self) -> Option<Hold> {
        self.hold
    }

    /// The state this operation moved the cluster to, if it did.
    pub fn entered(&self) -> Option<State> {
        self.hold.and_then(|h| h.moved_to)
    }

    /// Whether the operation may start at all from the state it started from.
    pub fn check(&self) -> Result<(), ScaleRefusal> {
        accept(self.machine.profile, self.kind, self.started.state).map(|_| ())
    }

    /// The decision for the next scaling step; `current` is the row re-read just before it.
    pub fn next_step(&self, current: &ClusterRow) -> Result<ScaleStep, WriteError> {
        if let Some(hold) = self.hold {
            return Ok(match hold.moved_to {
                Some(_) => ScaleStep::AlreadyEntered,
                // Held since a Created take: the settings change goes on, nothing to write.
                None => ScaleStep::SettingsOnly(None),
            });
        }
        let (state, event) = match accept(self.machine.profile, self.kind, self.started.state) {
            Err(refusal) => return Ok(ScaleStep::Refuse(refusal)),
            Ok(Acceptance::SettingsOnly) if current.token.state != State::Created => {
                return Ok(ScaleStep::FailTakenSince(current.token.state))
            }
            Ok(Acceptance::SettingsOnly) if !self.machine.mode.reads_fence() => {
                return Ok(ScaleStep::SettingsOnly(None))
            }
            Ok(Acceptance::SettingsOnly) => (self.started.state, None),
            Ok(Acceptance::Enter(u)) => (u.target, Some(u.event)),
        };
        if let Some(owner) = self.machine.holder(current) {
            return Ok(ScaleStep::Busy(owner));
        }
        let write = self
            .machine
            .write(self.started, state, event, Some(self.me))?;
        let take = Take::new(write, event.is_some());
        Ok(match event {
            Some(_) => ScaleStep::Enter(take),
            None => ScaleStep::SettingsOnly(Some(take)),
        })
    }

    /// Records that the take's write hit.
    pub fn mark_entered(&mut self, take: &Take) {
        self.hold = Some(take.hold);
    }

    /// How the operation ends: None when it has nothing to end (leave the cluster alone).
    pub fn completion(&self, succeeded: bool) -> Result<Option<Write>, WriteError> {
        let outcome = if succeeded {
            Outcome::Succeeded
        } else {
            Outcome::Failed
        };
        self.machine.completion(self.hold, outcome)
    }
}
