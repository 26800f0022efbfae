//! Codes in, packed primitives out: the encodings documented in `NativeBridge.java`.

use super::codes::{completion, entry, packed, scale};
use super::errors::{bad_element, BridgeResult};
use crate::completion::{Completion, Outcome};
use crate::entry::EntryDecision;
use crate::error::CoreError;
use crate::reconcile::{ReconcilePlan, VmSummary};
use crate::scaling::{ScaleKind, ScalingStep};
use crate::table::{Event, Operation, Profile, State, StateUpdate};

pub(crate) const NONE: i32 = super::codes::argument::NONE;
pub(crate) const NO_CODE: u32 = packed::NONE as u32;

fn unknown(argument: &'static str, kind: &'static str, code: i32) -> CoreError {
    CoreError::UnknownCode {
        argument,
        kind,
        code: i64::from(code),
    }
}

pub(crate) fn profile(argument: &'static str, code: i32) -> Result<Profile, CoreError> {
    Profile::from_code(code).ok_or_else(|| unknown(argument, "profile", code))
}

pub(crate) fn state(argument: &'static str, code: i32) -> Result<State, CoreError> {
    State::from_code(code).ok_or_else(|| unknown(argument, "state", code))
}

/// The state at `index` of the array argument `argument`.
pub(crate) fn state_at(argument: &'static str, index: usize, code: i32) -> BridgeResult<State> {
    State::from_code(code)
        .ok_or_else(|| bad_element(argument, index, format!("unknown state code {code}")))
}

/// Every state of an array argument, or the first unknown code with its index.
pub(crate) fn states(argument: &'static str, codes: &[i32]) -> BridgeResult<Vec<State>> {
    // A plain loop: collecting an iterator of Results moved each state through a large
    // Result<State, BridgeError> in memory.
    let mut decoded = Vec::with_capacity(codes.len());
    for (i, &code) in codes.iter().enumerate() {
        decoded.push(state_at(argument, i, code)?);
    }
    Ok(decoded)
}

/// A state or -1 for none.
pub(crate) fn optional_state(
    argument: &'static str,
    code: i32,
) -> Result<Option<State>, CoreError> {
    if code == NONE {
        Ok(None)
    } else {
        state(argument, code).map(Some)
    }
}

pub(crate) fn event(argument: &'static str, code: i32) -> Result<Event, CoreError> {
    Event::from_code(code).ok_or_else(|| unknown(argument, "event", code))
}

pub(crate) fn operation(argument: &'static str, code: i32) -> Result<Operation, CoreError> {
    Operation::from_code(code).ok_or_else(|| unknown(argument, "operation", code))
}

pub(crate) fn scale_kind(argument: &'static str, code: i32) -> Result<ScaleKind, CoreError> {
    ScaleKind::from_code(code).ok_or_else(|| unknown(argument, "scale kind", code))
}

pub(crate) fn outcome(argument: &'static str, code: i32) -> Result<Outcome, CoreError> {
    Outcome::from_code(code).ok_or_else(|| unknown(argument, "outcome", code))
}

pub(crate) fn vm_summary(argument: &'static str, code: i32) -> Result<VmSummary, CoreError> {
    VmSummary::from_code(code).ok_or_else(|| unknown(argument, "VM summary", code))
}

fn pack_update(kind: i32, update: Option<StateUpdate>) -> i32 {
    let kind = kind as u32;
    let (expected, event, target) = update.map_or((NO_CODE, NO_CODE, NO_CODE), |u| {
        (
            u32::from(u.expected.code()),
            u32::from(u.event.code()),
            u32::from(u.target.code()),
        )
    });
    (kind | expected << 8 | event << 16 | target << 24) as i32
}

pub(crate) fn pack_entry(decision: EntryDecision) -> i32 {
    let (kind, event, target) = match decision {
        EntryDecision::Transition(u) => (
            entry::TRANSITION,
            u32::from(u.event.code()),
            u32::from(u.target.code()),
        ),
        EntryDecision::Proceed => (entry::PROCEED, NO_CODE, NO_CODE),
        EntryDecision::NothingToDo => (entry::NOTHING_TO_DO, NO_CODE, NO_CODE),
        EntryDecision::Refuse(_) => (entry::REFUSE, NO_CODE, NO_CODE),
    };
    (kind as u32 | event << 8 | target << 16) as i32
}

pub(crate) fn pack_scale_begin(result: Result<Option<StateUpdate>, ()>) -> i32 {
    match result {
        Ok(Some(update)) => pack_update(scale::ENTER, Some(update)),
        Ok(None) => pack_update(scale::SETTINGS_ONLY, None),
        Err(()) => pack_update(scale::REFUSE, None),
    }
}

pub(crate) fn pack_scaling_step(step: ScalingStep) -> i32 {
    match step {
        ScalingStep::ChangeSettingsOnly => pack_update(scale::SETTINGS_ONLY, None),
        ScalingStep::Enter(update) => pack_update(scale::ENTER, Some(update)),
        ScalingStep::AlreadyEntered => pack_update(scale::ALREADY_ENTERED, None),
        ScalingStep::Refuse(_) => pack_update(scale::REFUSE, None),
        ScalingStep::FailTakenSince(current) => {
            (scale::FAIL_TAKEN_SINCE as u32
                | NO_CODE << 8
                | NO_CODE << 16
                | u32::from(current.code()) << 24) as i32
        }
    }
}

pub(crate) fn pack_completion(completion: Completion) -> i32 {
    match completion {
        Completion::CompareAndSet(update) => pack_update(completion::COMPARE_AND_SET, Some(update)),
        Completion::LeaveIt => pack_update(completion::LEAVE, None),
    }
}

/// Bits 0-7 step count, then 24 bits per step: expected, event, target.
pub(crate) fn pack_reconcile(plan: &ReconcilePlan) -> i64 {
    let mut packed: u64 = 0;
    let mut count: u64 = 0;
    for (i, step) in plan.steps().enumerate() {
        let bits = u64::from(step.expected.code())
            | u64::from(step.event.code()) << 8
            | u64::from(step.target.code()) << 16;
        packed |= bits << (8 + 24 * i);
        count += 1;
    }
    (packed | count) as i64
}

/// The update of a recovery as a long: same layout as a packed state update.
pub(crate) fn pack_recovery_update(update: StateUpdate) -> i64 {
    i64::from(pack_update(completion::COMPARE_AND_SET, Some(update))) & 0xFFFF_FFFF
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decide_entry, plan_reconcile};

    #[test]
    fn entry_packs_kind_event_and_target_in_that_order() {
        let packed = pack_entry(decide_entry(
            Profile::Upstream,
            Operation::Upgrade,
            State::Running,
        ));
        assert_eq!(packed & 0xFF, entry::TRANSITION);
        assert_eq!(
            (packed >> 8) & 0xFF,
            i32::from(Event::UpgradeRequested.code())
        );
        assert_eq!((packed >> 16) & 0xFF, i32::from(State::Upgrading.code()));
        assert_eq!(
            pack_entry(decide_entry(
                Profile::Upstream,
                Operation::Upgrade,
                State::Stopped
            )) & 0xFF,
            entry::REFUSE
        );
    }

    #[test]
    fn updates_keep_the_high_byte_when_the_sign_bit_is_set() {
        let packed = pack_completion(Completion::LeaveIt);
        assert_eq!(packed & 0xFF, completion::LEAVE);
        assert_eq!((packed >> 24) & 0xFF, 0xFF);
        let fail = pack_scaling_step(ScalingStep::FailTakenSince(State::Starting));
        assert_eq!(
            ((fail & 0xFF), (fail >> 24) & 0xFF),
            (scale::FAIL_TAKEN_SINCE, 1)
        );
    }

    #[test]
    fn reconcile_packs_count_then_steps() {
        let packed = pack_reconcile(&plan_reconcile(
            Profile::Upstream,
            State::Alert,
            VmSummary::AllStopped,
        ));
        assert_eq!(packed & 0xFF, 2);
        let step = |i: i64| ((packed >> (8 + 24 * i)) & 0xFF_FFFF) as u32;
        assert_eq!(step(0), 10 | (1 << 8) | (3 << 16));
        assert_eq!(step(1), 3 | (10 << 8) | (4 << 16));
    }
}
