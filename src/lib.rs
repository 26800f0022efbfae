//! cks-state: the lifecycle state machine of Apache CloudStack Kubernetes (CKS) clusters.
//!
//! The core ([`table`], [`transition`], [`entry`], [`scaling`], [`completion`], [`recovery`],
//! [`reconcile`], and [`fencing`] for the fenced mode) only decides: no I/O, no JNI types. The
//! host (the management server's JVM) reads and writes the database and asks the core what to
//! do; [`jni`] converts and dispatches.

pub mod codes;
pub mod completion;
pub mod entry;
pub mod error;
pub mod fencing;
pub mod jni;
mod job_marks;
pub mod reconcile;
pub mod recovery;
pub mod scaling;
pub mod table;
pub mod transition;

pub use completion::{complete, Completion, Outcome};
pub use entry::{decide_entry, EntryDecision, Refusal};
pub use error::CoreError;
pub use fencing::{
    fenced_completion, fenced_entry, is_fenced_candidate, plan_fenced_reconcile,
    plan_fenced_recovery, plan_fenced_recovery_pass, Fence, FencedCandidate, FencedEntry,
    FencedReconcilePlan, FencedRecovery, FencedRecoveryPlan, FencedScale, FencedScaleStep,
    FencedWrite, FencingError, GoneReason, Hold, InProgressJob, MsHost, MsStatus, Owner, Token,
};
pub use reconcile::{plan_reconcile, ReconcilePlan, VmSummary};
pub use recovery::{plan_recovery, ClusterRow, JobRef, Recovery, RecoveryPlan, RecoveryPlanner};
pub use scaling::{ScaleKind, ScaleOperation, ScalingStep};
pub use table::{Event, Operation, Profile, State, StateUpdate, TRANSITION_ROWS};
pub use transition::next_state;

/// Bumped whenever the JNI contract (`NativeBridge.java`) changes.
pub const ABI_VERSION: i32 = codes::abi::VERSION;
