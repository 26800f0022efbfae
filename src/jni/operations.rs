//! The decisions that write, in either mode: one thin function per native method of
//! `NativeBridge.java`, dispatching to the compat core or to `crate::fencing` by the mode
//! argument. Every result is a packed write (layout in `NativeBridge.java`); versions never cross
//! back: a VERSIONED write stores the expected version + 1 (the core's invariant).

use jni::objects::JClass;
use jni::sys::{jboolean, jint, jlong, JNI_FALSE};
use jni::JNIEnv;

use super::codec::{self, Mode, NO_CODE};
use super::codes::{completion, entry, flag, scale};
use super::errors::{run, BridgeError, BridgeResult};
use crate::completion::Completion;
use crate::entry::EntryDecision;
use crate::fencing::{
    fenced_completion, fenced_entry, plan_fenced_reconcile, Fence, FencedEntry, FencedScale,
    FencedScaleStep, FencedWrite, FencingError, Hold, Owner, Token, MAX_VERSION,
};
use crate::scaling::{ScaleOperation, ScalingStep};
use crate::table::{Event, State};
use crate::{complete, decide_entry, plan_reconcile};

/// Stands in for the caller: the core copies the owner into the write and the Java side, which
/// knows it, fills it in, so only the flag crosses back.
pub(crate) const CALLER: Owner = Owner {
    msid: 0,
    runid: 0,
    job_id: None,
};

impl From<FencingError> for BridgeError {
    fn from(e: FencingError) -> Self {
        BridgeError::Input(format!("version: {e}"))
    }
}

pub(crate) fn version(argument: &'static str, value: jlong) -> BridgeResult<u64> {
    // Every non-negative jlong is at most MAX_VERSION (i64::MAX).
    u64::try_from(value).map_err(|_| {
        BridgeError::Input(format!(
            "{argument}: {value} is not a version (0..={MAX_VERSION})"
        ))
    })
}

/// A row as read: (state, version) and whether an operation holds it. Compat rows carry no
/// version; only the fenced mode reads it.
struct Row {
    state: (&'static str, jint),
    version: (&'static str, jlong),
    held: jboolean,
}

impl Row {
    fn state(&self) -> BridgeResult<State> {
        Ok(codec::state(self.state.0, self.state.1)?)
    }

    /// Compat compares no version: it is not read.
    fn token(&self, mode: Mode) -> BridgeResult<Token> {
        let version = match mode {
            Mode::Compat => 0,
            Mode::Fenced => version(self.version.0, self.version.1)?,
        };
        Ok(Token {
            state: self.state()?,
            version,
        })
    }

    /// The owner's identity never changes a decision, only whether there is one.
    fn fence(&self) -> BridgeResult<Fence> {
        Ok(Fence {
            token: self.token(Mode::Fenced)?,
            owner: (self.held != JNI_FALSE).then_some(CALLER),
        })
    }
}

/// A compare-and-set without version or owner: event and target.
fn compat_bits(event: Event, target: State) -> u32 {
    u32::from(event.code()) | u32::from(target.code()) << 8
}

/// A fenced write's event, target state and flags in 24 bits.
pub(crate) fn fenced_bits(write: &FencedWrite) -> u32 {
    let owner = u32::from(write.owner.is_some()) * flag::OWNER as u32;
    write.event.map_or(NO_CODE, |e| u32::from(e.code()))
        | u32::from(write.target.state.code()) << 8
        | (owner | flag::VERSIONED as u32) << 16
}

const NO_WRITE: u32 = NO_CODE | NO_CODE << 8;

/// Bits 0-7 kind, 8-15 event, 16-23 target state (none: no write), 24-31 flags.
fn pack(kind: i32, bits: u32) -> jint {
    (kind as u32 | bits << 8) as jint
}

/// A take that moves the cluster's state, or one that keeps it.
fn take_kind(write: &FencedWrite, moves: i32, keeps: i32) -> i32 {
    [moves, keeps][usize::from(write.target.state == write.expected.state)]
}

/// A hold handed back by the host, each part with its argument's name; -1 as its state: none.
fn hold(
    mode: Mode,
    state: (&'static str, jint),
    version: (&'static str, jlong),
    moved: (&'static str, jint),
) -> BridgeResult<Option<Hold>> {
    if state.1 == codec::NONE {
        return Ok(None);
    }
    let held = JNI_FALSE;
    Ok(Some(Hold {
        token: Row {
            state,
            version,
            held,
        }
        .token(mode)?,
        moved_to: codec::optional_state(moved.0, moved.1)?,
    }))
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_entry(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    operation: jint,
    state: jint,
    version: jlong,
    held: jboolean,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let profile = codec::profile("profile", profile)?;
        let operation = codec::operation("operation", operation)?;
        let row = Row {
            state: ("state", state),
            version: ("version", version),
            held,
        };
        if codec::mode("mode", mode)? == Mode::Compat {
            return Ok(match decide_entry(profile, operation, row.state()?) {
                EntryDecision::Transition(u) => {
                    pack(entry::TRANSITION, compat_bits(u.event, u.target))
                }
                EntryDecision::Proceed => pack(entry::PROCEED, NO_WRITE),
                EntryDecision::NothingToDo => pack(entry::NOTHING_TO_DO, NO_WRITE),
                EntryDecision::Refuse(_) => pack(entry::REFUSE, NO_WRITE),
            });
        }
        Ok(
            match fenced_entry(profile, operation, &row.fence()?, CALLER)? {
                FencedEntry::Take { write, .. } => pack(
                    take_kind(&write, entry::TRANSITION, entry::PROCEED),
                    fenced_bits(&write),
                ),
                FencedEntry::NothingToDo => pack(entry::NOTHING_TO_DO, NO_WRITE),
                FencedEntry::Refuse(_) => pack(entry::REFUSE, NO_WRITE),
                FencedEntry::Busy(_) => pack(entry::BUSY, NO_WRITE),
            },
        )
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_completion(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    hold_state: jint,
    hold_version: jlong,
    moved_to: jint,
    outcome: jint,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let mode = codec::mode("mode", mode)?;
        let profile = codec::profile("profile", profile)?;
        let outcome = codec::outcome("outcome", outcome)?;
        let Some(hold) = hold(
            mode,
            ("holdState", hold_state),
            ("holdVersion", hold_version),
            ("movedTo", moved_to),
        )?
        else {
            // It never held the cluster: nothing of it to end.
            return Ok(pack(completion::LEAVE, NO_WRITE));
        };
        if mode == Mode::Compat {
            return Ok(match complete(profile, hold.moved_to, outcome) {
                Completion::CompareAndSet(u) => {
                    pack(completion::COMPARE_AND_SET, compat_bits(u.event, u.target))
                }
                Completion::LeaveIt => pack(completion::LEAVE, NO_WRITE),
            });
        }
        let write = fenced_completion(profile, &hold, outcome)?;
        Ok(pack(completion::COMPARE_AND_SET, fenced_bits(&write)))
    })
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_scaleStep(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    scale_kind: jint,
    started_state: jint,
    started_version: jlong,
    hold_state: jint,
    hold_version: jlong,
    hold_moved_to: jint,
    current_state: jint,
    current_version: jlong,
    current_held: jboolean,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let mode = codec::mode("mode", mode)?;
        let profile = codec::profile("profile", profile)?;
        let kind = codec::scale_kind("scaleKind", scale_kind)?;
        let started = Row {
            state: ("startedState", started_state),
            version: ("startedVersion", started_version),
            held: JNI_FALSE,
        };
        let current = Row {
            state: ("currentState", current_state),
            version: ("currentVersion", current_version),
            held: current_held,
        };
        let hold = hold(
            mode,
            ("holdState", hold_state),
            ("holdVersion", hold_version),
            ("holdMovedTo", hold_moved_to),
        )?;
        if mode == Mode::Compat {
            let entered = hold.and_then(|h| h.moved_to);
            let operation = ScaleOperation::resumed(profile, kind, started.state()?, entered);
            return Ok(match operation.next_step(current.state()?) {
                ScalingStep::ChangeSettingsOnly => pack(scale::SETTINGS_ONLY, NO_WRITE),
                ScalingStep::Enter(u) => pack(scale::ENTER, compat_bits(u.event, u.target)),
                ScalingStep::AlreadyEntered => pack(scale::ALREADY_ENTERED, NO_WRITE),
                ScalingStep::Refuse(_) => pack(scale::REFUSE, NO_WRITE),
                ScalingStep::FailTakenSince(now) => pack(scale::FAIL_TAKEN_SINCE, taken_by(now)),
            });
        }
        let scale = FencedScale::resumed(profile, kind, started.token(mode)?, CALLER, hold);
        Ok(match scale.next_step(&current.fence()?)? {
            FencedScaleStep::Take(write) => pack(
                take_kind(&write, scale::ENTER, scale::SETTINGS_ONLY),
                fenced_bits(&write),
            ),
            // Held since a Created take: the settings change goes on, nothing to write.
            FencedScaleStep::AlreadyHeld if hold.is_some_and(|h| h.moved_to.is_none()) => {
                pack(scale::SETTINGS_ONLY, NO_WRITE)
            }
            FencedScaleStep::AlreadyHeld => pack(scale::ALREADY_ENTERED, NO_WRITE),
            FencedScaleStep::FailTakenSince(now) => pack(scale::FAIL_TAKEN_SINCE, taken_by(now)),
            FencedScaleStep::Busy(_) => pack(scale::BUSY, NO_WRITE),
            FencedScaleStep::Refuse(_) => pack(scale::REFUSE, NO_WRITE),
        })
    })
}

/// FAIL_TAKEN_SINCE carries the state the cluster is in now in the target field.
fn taken_by(now: State) -> u32 {
    NO_CODE | u32::from(now.code()) << 8
}

/// Bits 0-7 step count, then per step 24 bits from bit 8 + 24 i: event, target, flags.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_reconcile(
    mut env: JNIEnv,
    _class: JClass,
    mode: jint,
    profile: jint,
    listed_state: jint,
    listed_version: jlong,
    listed_held: jboolean,
    vm_summary: jint,
) -> jlong {
    run(&mut env, 0, |_| {
        let mode = codec::mode("mode", mode)?;
        let profile = codec::profile("profile", profile)?;
        let vms = codec::vm_summary("vmSummary", vm_summary)?;
        let listed = Row {
            state: ("listedState", listed_state),
            version: ("listedVersion", listed_version),
            held: listed_held,
        };
        let steps: Vec<u32> = match mode {
            Mode::Compat => plan_reconcile(profile, listed.state()?, vms)
                .steps()
                .map(|u| compat_bits(u.event, u.target))
                .collect(),
            Mode::Fenced => plan_fenced_reconcile(profile, &listed.fence()?, vms, CALLER)?
                .steps()
                .map(|w| fenced_bits(&w))
                .collect(),
        };
        let mut packed = steps.len() as u64;
        for (i, bits) in steps.iter().enumerate() {
            packed |= u64::from(*bits) << (8 + 24 * i);
        }
        Ok(packed as jlong)
    })
}
