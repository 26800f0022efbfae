//! Scaling rules for one scale or autoscale operation.
//!
//! The operation remembers the state it started from and whether it has moved the cluster.
//! It enters Scaling / ScalingStoppedCluster once, at its first scaling step, and only an
//! operation that moved the cluster completes or fails that state.

use std::fmt;

use crate::codes;
use crate::completion::{complete, Completion, Outcome};
use crate::table::{Event, Operation, Profile, State, StateUpdate};
use crate::transition::update_for;

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

    pub const fn from_code(code: i32) -> Option<ScaleKind> {
        match code {
            codes::scale_kind::SCALE_UP => Some(ScaleKind::ScaleUp),
            codes::scale_kind::SCALE_DOWN => Some(ScaleKind::ScaleDown),
            codes::scale_kind::OFFERING_CHANGE => Some(ScaleKind::OfferingChange),
            codes::scale_kind::AUTOSCALE => Some(ScaleKind::Autoscale),
            _ => None,
        }
    }

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
pub enum ScalingStep {
    /// The cluster was never started: change the stored settings only.
    ChangeSettingsOnly,
    /// Compare-and-set into the scaling state, then call [`ScaleOperation::mark_entered`].
    /// A miss means another operation got there first: fail without touching the state.
    Enter(StateUpdate),
    /// An earlier step of this operation moved the cluster: transition nothing.
    AlreadyEntered,
    /// The operation started from Created but a start has taken the cluster since.
    FailTakenSince(State),
    Refuse(ScaleRefusal),
}

/// One scale or autoscale operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScaleOperation {
    profile: Profile,
    kind: ScaleKind,
    started_from: State,
    entered: Option<State>,
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

impl ScaleOperation {
    pub fn new(profile: Profile, kind: ScaleKind, started_from: State) -> ScaleOperation {
        ScaleOperation {
            profile,
            kind,
            started_from,
            entered: None,
        }
    }

    /// The operation as the host holds it: it already moved the cluster to `entered`.
    pub fn resumed(
        profile: Profile,
        kind: ScaleKind,
        started_from: State,
        entered: Option<State>,
    ) -> Self {
        ScaleOperation {
            profile,
            kind,
            started_from,
            entered,
        }
    }

    pub fn kind(&self) -> ScaleKind {
        self.kind
    }

    pub fn started_from(&self) -> State {
        self.started_from
    }

    /// The state this operation moved the cluster to, if it did.
    pub fn entered(&self) -> Option<State> {
        self.entered
    }

    /// Whether the operation may start at all from the state it started from.
    pub fn check(&self) -> Result<(), ScaleRefusal> {
        accept(self.profile, self.kind, self.started_from).map(|_| ())
    }

    /// The decision for the next scaling step; `current` is the state re-read just before it.
    pub fn next_step(&self, current: State) -> ScalingStep {
        match accept(self.profile, self.kind, self.started_from) {
            Err(refusal) => ScalingStep::Refuse(refusal),
            Ok(Acceptance::SettingsOnly) if current == State::Created => {
                ScalingStep::ChangeSettingsOnly
            }
            Ok(Acceptance::SettingsOnly) => ScalingStep::FailTakenSince(current),
            Ok(Acceptance::Enter(_)) if self.entered.is_some() => ScalingStep::AlreadyEntered,
            Ok(Acceptance::Enter(update)) => ScalingStep::Enter(update),
        }
    }

    /// Record that the Enter compare-and-set hit.
    pub fn mark_entered(&mut self) {
        if let Ok(Acceptance::Enter(update)) = accept(self.profile, self.kind, self.started_from) {
            self.entered = Some(update.target);
        }
    }

    /// How the operation ends the state: only if it moved the cluster.
    pub fn completion(&self, succeeded: bool) -> Completion {
        let outcome = if succeeded {
            Outcome::Succeeded
        } else {
            Outcome::Failed
        };
        complete(self.profile, self.entered, outcome)
    }
}
