//! Fenced mode: the compat core's decisions, compared-and-set on a version token and an owner.
//!
//! Every write to a cluster's state columns bumps `state_version` by one, so a compare-and-set
//! on (state, state_version) misses after ANY write since the read, even one that came back to
//! the same state (the ABA of a state-only compare-and-set). The owner (msid, runid, job id) of
//! the operation that holds the cluster lets the scanner fail an operation only when its
//! management server is provably gone, and lets "proceed" operations hold a cluster whose state
//! does not change, so a second destroy or Alert start sees it is busy.
//!
//! Every write this module plans is one statement:
//! `UPDATE kubernetes_cluster SET state = target.state, state_version = target.version,
//! op_owner_msid, op_owner_runid, op_job_id = owner (NULL when none)
//! WHERE id = ? AND state = expected.state AND state_version = expected.version`.
//! The new version always differs from the old, so a hit changes the row whatever the
//! driver's affected-rows setting.

mod entry;
mod reconcile;
mod recovery;
mod scale;
mod token;

pub use entry::{fenced_completion, fenced_entry, FencedEntry};
pub use reconcile::{plan_fenced_reconcile, FencedReconcilePlan};
pub use recovery::{
    is_fenced_candidate, plan_fenced_recovery, plan_fenced_recovery_pass, FencedCandidate,
    FencedRecovery, FencedRecoveryPlan, GoneReason, InProgressJob, MsHost, MsStatus,
};
pub use scale::{FencedScale, FencedScaleStep};
pub use token::{
    Fence, FencedWrite, FencingError, Hold, Owner, Token, MAX_VERSION, OWNER_GONE_AFTER_SECS,
};
