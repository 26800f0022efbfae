// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! cks-state: the lifecycle state machine of Apache CloudStack Kubernetes (CKS) clusters.
//!
//! The core only decides: no I/O, no JNI types. [`StateMachine`] holds a profile (which table)
//! and a [`Mode`] (how the stack writes), and each decision that writes is one of its methods:
//! [`StateMachine::entry`], [`StateMachine::scale`], [`StateMachine::completion`],
//! [`StateMachine::reconcile`], [`StateMachine::plan_recovery`]. The host (the management
//! server's JVM) reads and writes the database and asks the core what to do; the JNI crate
//! (`jni/`, the cdylib the jar carries) converts and dispatches. This crate has no `jni`
//! dependency: its purity is the compiler's rule.

pub mod completion;
pub mod entry;
pub mod error;
mod job_marks;
pub mod machine;
pub mod mode;
pub mod reconcile;
pub mod recovery;
pub mod scaling;
pub mod table;
pub mod transition;
pub mod upstream_write;
pub mod vms;
pub mod write;

pub use completion::{complete, Completion, Outcome};
pub use entry::{decide_entry, EntryDecision, EntryRule, Refusal};
pub use error::CoreError;
pub use machine::StateMachine;
pub use mode::Mode;
pub use reconcile::ReconcilePlan;
pub use recovery::{
    Candidate, GoneReason, InProgressJob, JobRef, MsHost, MsStatus, Recovery, RecoveryPlan,
    RecoveryPlanner,
};
pub use scaling::{Scale, ScaleKind, ScaleRefusal, ScaleStep, TakenSince};
pub use table::{
    Event, Operation, Profile, ReleaseFit, State, StateUpdate, RELEASES, TRANSITION_ROWS,
};
pub use transition::next_state;
pub use upstream_write::{upstream_write, UpstreamWrite};
pub use vms::{Health, VmCounts, VmSummary};
pub use write::shape::ShapeError;
pub use write::{
    ClusterRow, Hold, Owner, Take, Token, Write, WriteError, DEFAULT_HEARTBEAT_THRESHOLD_MILLIS,
    MAX_VERSION,
};
