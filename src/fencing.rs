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

use std::collections::{HashMap, HashSet};

use thiserror::Error;

use crate::completion::{complete, Completion, Outcome};
use crate::entry::{decide_entry, EntryDecision, Refusal};
use crate::reconcile::{plan_reconcile, VmSummary};
use crate::recovery::JobRef;
use crate::scaling::{ScaleKind, ScaleOperation, ScaleRefusal, ScalingStep};
use crate::table::{Event, Operation, Profile, State};
use crate::transition::update_for;

/// The largest version a signed `bigint` column holds.
pub const MAX_VERSION: u64 = i64::MAX as u64;

/// A management server is gone once its heartbeat is older than this, in database time.
pub const OWNER_GONE_AFTER_SECS: u64 = 150;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum FencingError {
    /// The next write would need a version past [`MAX_VERSION`]; refusing beats wrapping to a
    /// token an old reader may still hold.
    #[error("state_version {version} is exhausted")]
    VersionExhausted { version: u64 },
}

/// The token a compare-and-set expects: the state and the version it was read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token {
    pub state: State,
    pub version: u64,
}

impl Token {
    /// The token of the write that moves this one to `state`.
    pub fn next(self, state: State) -> Result<Token, FencingError> {
        match self.version.checked_add(1) {
            Some(version) if version <= MAX_VERSION => Ok(Token { state, version }),
            _ => Err(FencingError::VersionExhausted {
                version: self.version,
            }),
        }
    }
}

/// Who holds a cluster's current operation: the management server by its process epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Owner {
    pub msid: u64,
    /// New at every start of the management server: a restart proves the old owner gone.
    pub runid: u64,
    /// The async job of the operation; none for the status scanner's own writes.
    pub job_id: Option<u64>,
}

/// The fence columns of a cluster row as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fence {
    pub token: Token,
    /// None: no operation holds the cluster (or an older server wrote the row).
    pub owner: Option<Owner>,
}

impl Fence {
    pub fn is_held(&self) -> bool {
        self.owner.is_some()
    }
}

/// One compare-and-set on (state, version). `target.version` is always `expected.version + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FencedWrite {
    pub expected: Token,
    pub target: Token,
    /// The table row's event; None when the state stays (taking or releasing the cluster).
    pub event: Option<Event>,
    /// The owner stored by the write; None releases the cluster.
    pub owner: Option<Owner>,
}

impl FencedWrite {
    fn new(
        expected: Token,
        state: State,
        event: Option<Event>,
        owner: Option<Owner>,
    ) -> Result<FencedWrite, FencingError> {
        Ok(FencedWrite {
            expected,
            target: expected.next(state)?,
            event,
            owner,
        })
    }
}

/// What an operation keeps after its entry write hit, to complete or fail by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hold {
    /// The token the entry wrote: the completion expects exactly it.
    pub token: Token,
    /// The state the entry moved the cluster to; None when it only took the cluster.
    pub moved_to: Option<State>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FencedEntry {
    /// Compare-and-set `write`; on a hit keep `hold`, on a miss fail with "please retry".
    /// Covers the compat TRANSITION and PROCEED (then `write` keeps the state).
    Take {
        write: FencedWrite,
        hold: Hold,
    },
    NothingToDo,
    Refuse(Refusal),
    /// Another operation holds the cluster: fail with "please retry".
    Busy(Owner),
}

/// The entry of `operation`, run by `me`, on a cluster read as `row`.
pub fn fenced_entry(
    profile: Profile,
    operation: Operation,
    row: &Fence,
    me: Owner,
) -> Result<FencedEntry, FencingError> {
    let decision = decide_entry(profile, operation, row.token.state);
    let (state, event) = match decision {
        EntryDecision::NothingToDo => return Ok(FencedEntry::NothingToDo),
        EntryDecision::Refuse(r) => return Ok(FencedEntry::Refuse(r)),
        EntryDecision::Transition(u) => (Some(u.target), Some(u.event)),
        EntryDecision::Proceed => (None, None),
    };
    // One operation at a time: this also refuses the table's Starting -> Stopping takeover
    // while the start's owner lives; the scanner frees the cluster once that owner is gone.
    if let Some(owner) = row.owner {
        return Ok(FencedEntry::Busy(owner));
    }
    let write = FencedWrite::new(row.token, state.unwrap_or(row.token.state), event, Some(me))?;
    Ok(FencedEntry::Take {
        write,
        hold: Hold {
            token: write.target,
            moved_to: state,
        },
    })
}

/// How an operation holding the cluster ends: the compat completion's state change (or none),
/// expecting the token its entry wrote, and releasing the owner. A miss means the cluster was
/// taken from it (the scanner failed it): leave it.
pub fn fenced_completion(
    profile: Profile,
    hold: &Hold,
    outcome: Outcome,
) -> Result<FencedWrite, FencingError> {
    match complete(profile, hold.moved_to, outcome) {
        Completion::CompareAndSet(u) if u.expected == hold.token.state => {
            FencedWrite::new(hold.token, u.target, Some(u.event), None)
        }
        _ => FencedWrite::new(hold.token, hold.token.state, None, None),
    }
}

/// What one step of a fenced scale does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FencedScaleStep {
    /// Compare-and-set, then [`FencedScale::mark_held`]; a miss means another operation got
    /// there first. From Created the write only takes the cluster: change the settings, then
    /// complete (the completion releases it and must be the same statement as the settings).
    Take(FencedWrite),
    /// An earlier step of this operation holds the cluster.
    AlreadyHeld,
    /// The operation started from Created but a start has taken the cluster since.
    FailTakenSince(State),
    Busy(Owner),
    Refuse(ScaleRefusal),
}

/// One scale or autoscale operation in fenced mode: [`ScaleOperation`] plus its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FencedScale {
    profile: Profile,
    op: ScaleOperation,
    started: Token,
    me: Owner,
    hold: Option<Hold>,
}

impl FencedScale {
    /// `started`: the token read when the request was accepted; every take expects it.
    pub fn new(profile: Profile, kind: ScaleKind, started: Token, me: Owner) -> FencedScale {
        FencedScale {
            profile,
            op: ScaleOperation::new(profile, kind, started.state),
            started,
            me,
            hold: None,
        }
    }

    /// The same operation after earlier steps: `hold` is what its Take hit left it (the host
    /// keeps it between steps and hands it back).
    pub fn resumed(
        profile: Profile,
        kind: ScaleKind,
        started: Token,
        me: Owner,
        hold: Option<Hold>,
    ) -> FencedScale {
        let mut scale = FencedScale::new(profile, kind, started, me);
        if hold.is_some_and(|h| h.moved_to.is_some()) {
            scale.op.mark_entered();
        }
        scale.hold = hold;
        scale
    }

    pub fn hold(&self) -> Option<Hold> {
        self.hold
    }

    /// The decision for the next scaling step; `current` is the row re-read just before it.
    pub fn next_step(&self, current: &Fence) -> Result<FencedScaleStep, FencingError> {
        if self.hold.is_some() {
            return Ok(FencedScaleStep::AlreadyHeld);
        }
        let (state, event) = match self.op.next_step(current.token.state) {
            ScalingStep::Refuse(r) => return Ok(FencedScaleStep::Refuse(r)),
            ScalingStep::FailTakenSince(s) => return Ok(FencedScaleStep::FailTakenSince(s)),
            ScalingStep::AlreadyEntered => return Ok(FencedScaleStep::AlreadyHeld),
            ScalingStep::ChangeSettingsOnly => (self.started.state, None),
            ScalingStep::Enter(u) => (u.target, Some(u.event)),
        };
        if let Some(owner) = current.owner {
            return Ok(FencedScaleStep::Busy(owner));
        }
        FencedWrite::new(self.started, state, event, Some(self.me)).map(FencedScaleStep::Take)
    }

    /// Record that the Take compare-and-set `write` hit.
    pub fn mark_held(&mut self, write: &FencedWrite) {
        let moved = write.target.state != write.expected.state;
        if moved {
            self.op.mark_entered();
        }
        self.hold = Some(Hold {
            token: write.target,
            moved_to: moved.then_some(write.target.state),
        });
    }

    /// How the operation ends: None when it never held the cluster (leave it).
    pub fn completion(&self, succeeded: bool) -> Result<Option<FencedWrite>, FencingError> {
        let outcome = if succeeded {
            Outcome::Succeeded
        } else {
            Outcome::Failed
        };
        self.hold
            .map(|hold| fenced_completion(self.profile, &hold, outcome))
            .transpose()
    }
}

/// Alert reconciliation and fault detection on a listed row, by token. Apply the steps in
/// order and stop at the first that misses. A held row is left alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FencedReconcilePlan {
    steps: [Option<FencedWrite>; 2],
}

impl FencedReconcilePlan {
    pub fn steps(&self) -> impl Iterator<Item = FencedWrite> + '_ {
        self.steps.iter().flatten().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.steps[0].is_none()
    }
}

/// `scanner`: the scanning server; it holds the cluster between the two steps of a chain so a
/// crash in between is recovered like any operation.
pub fn plan_fenced_reconcile(
    profile: Profile,
    listed: &Fence,
    vms: VmSummary,
    scanner: Owner,
) -> Result<FencedReconcilePlan, FencingError> {
    if listed.is_held() {
        return Ok(FencedReconcilePlan::default());
    }
    let mut plan = FencedReconcilePlan::default();
    let mut expected = listed.token;
    let compat = plan_reconcile(profile, listed.token.state, vms);
    let mut updates = compat.steps().peekable();
    let mut slots = plan.steps.iter_mut();
    while let (Some(u), Some(slot)) = (updates.next(), slots.next()) {
        // Only a step that another step follows leaves the cluster held.
        let owner = updates.peek().map(|_| scanner);
        let write = FencedWrite::new(expected, u.target, Some(u.event), owner)?;
        *slot = Some(write);
        expected = write.target;
    }
    Ok(plan)
}

/// A management server as `mshost` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MsHost {
    pub msid: u64,
    pub runid: u64,
    pub status: MsStatus,
    /// `TIMESTAMPDIFF(SECOND, last_update, NOW())`, computed by the database.
    pub heartbeat_age_secs: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MsStatus {
    Up,
    /// A peer saw it leave and failed its jobs: that runid is gone for good (should it still
    /// run, every write of its operations misses on the version).
    Down,
    /// Any other `mshost.state` (maintenance, shutting down): proves nothing by itself.
    Other,
}

/// An IN_PROGRESS async job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InProgressJob {
    pub job_id: u64,
    pub cluster: JobRef,
}

/// A candidate cluster as the scanner read it: in an operation's state, or held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FencedCandidate {
    pub id: u64,
    pub fence: Fence,
}

/// Whether the scanner must look at a row: an operation's state, or held by an operation.
pub fn is_fenced_candidate(fence: &Fence) -> bool {
    fence.token.state.is_orphan_candidate() || fence.is_held()
}

/// Why an operation's owner is provably gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoneReason {
    OwnerDown,
    /// The msid now runs with another runid: the process restarted.
    OwnerRestarted,
    /// No heartbeat for more than [`OWNER_GONE_AFTER_SECS`].
    HeartbeatStale,
    /// No owner recorded (an older server wrote the row): judged as in compat mode, no job for
    /// it and no job with an unknown cluster.
    NoOwnerNoJob,
    /// The owner's server is up, but the owner's own job row is finished: the operation ended
    /// without releasing the cluster (its last write failed). Only the worker finishes its job,
    /// after its completion write; a job row the garbage collector deleted proves nothing.
    OwnerJobEnded,
}

/// One orphan to fail (or, for a held row at rest, to release).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FencedRecovery {
    pub cluster_id: u64,
    pub write: FencedWrite,
    pub reason: GoneReason,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Liveness {
    Alive,
    Down,
    Stale,
}

/// The liveness of each (msid, runid) that `mshost` shows, and the msids it knows at all.
struct OwnerIndex {
    by_run: HashMap<(u64, u64), Liveness>,
    known: HashSet<u64>,
}

impl OwnerIndex {
    fn new(hosts: &[MsHost]) -> OwnerIndex {
        let mut by_run = HashMap::with_capacity(hosts.len());
        let mut known = HashSet::with_capacity(hosts.len());
        for h in hosts {
            known.insert(h.msid);
            let seen = match h.status {
                MsStatus::Down => Liveness::Down,
                _ if h.heartbeat_age_secs > OWNER_GONE_AFTER_SECS => Liveness::Stale,
                _ => Liveness::Alive,
            };
            // Duplicate rows: any evidence of life wins.
            let entry = by_run.entry((h.msid, h.runid)).or_insert(seen);
            if seen == Liveness::Alive {
                *entry = Liveness::Alive;
            }
        }
        OwnerIndex { by_run, known }
    }

    /// Why `owner` is provably gone, or None. An msid `mshost` does not show proves nothing.
    fn gone(&self, owner: &Owner) -> Option<GoneReason> {
        if !self.known.contains(&owner.msid) {
            return None;
        }
        match self.by_run.get(&(owner.msid, owner.runid)) {
            Some(Liveness::Alive) => None,
            Some(Liveness::Down) => Some(GoneReason::OwnerDown),
            Some(Liveness::Stale) => Some(GoneReason::HeartbeatStale),
            None => Some(GoneReason::OwnerRestarted),
        }
    }
}

/// What a fenced recovery pass does, as the compat [`crate::RecoveryPlan`] says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FencedRecoveryPlan {
    /// No row is a candidate: the pass needs no job or host query.
    Skip,
    /// Nothing to recover, and an ownerless candidate waits on an IN_PROGRESS job whose cluster
    /// is unknown (it may be that candidate's).
    Wait,
    /// Fail (or release) these; may be empty.
    Recover(Vec<FencedRecovery>),
}

/// The verdict of a whole pass: [`plan_fenced_recovery`] plus Skip and Wait.
pub fn plan_fenced_recovery_pass(
    profile: Profile,
    candidates: &[FencedCandidate],
    jobs: &[InProgressJob],
    ended_jobs: &[u64],
    hosts: &[MsHost],
) -> Result<FencedRecoveryPlan, FencingError> {
    if !candidates.iter().any(|c| is_fenced_candidate(&c.fence)) {
        return Ok(FencedRecoveryPlan::Skip);
    }
    let recoveries = plan_fenced_recovery(profile, candidates, jobs, ended_jobs, hosts)?;
    let unknown_job = jobs.iter().any(|j| j.cluster == JobRef::Unknown);
    let ownerless = candidates
        .iter()
        .any(|c| is_fenced_candidate(&c.fence) && !c.fence.is_held());
    Ok(if recoveries.is_empty() && unknown_job && ownerless {
        FencedRecoveryPlan::Wait
    } else {
        FencedRecoveryPlan::Recover(recoveries)
    })
}

/// Plans one fenced recovery pass in O(candidates + jobs + hosts). A candidate is failed only
/// if no IN_PROGRESS job names it (by cluster, or by the owner's job id) and its owner is
/// provably gone, or its owner's job has ended (`ended_jobs`: ids of job rows that exist and are
/// not IN_PROGRESS). Non-candidate rows are ignored. Read the clusters before the jobs and hosts:
/// then every owner's runid is already in `mshost`, and a job started since is seen.
pub fn plan_fenced_recovery(
    profile: Profile,
    candidates: &[FencedCandidate],
    jobs: &[InProgressJob],
    ended_jobs: &[u64],
    hosts: &[MsHost],
) -> Result<Vec<FencedRecovery>, FencingError> {
    let ended: HashSet<u64> = ended_jobs.iter().copied().collect();
    let mut busy_clusters = HashSet::with_capacity(jobs.len());
    let mut live_jobs = HashSet::with_capacity(jobs.len());
    let mut unknown_job = false;
    for job in jobs {
        live_jobs.insert(job.job_id);
        match job.cluster {
            JobRef::Cluster(id) => {
                busy_clusters.insert(id);
            }
            JobRef::Unknown => unknown_job = true,
        }
    }
    let owners = OwnerIndex::new(hosts);
    let mut recoveries = Vec::new();
    for c in candidates.iter().filter(|c| is_fenced_candidate(&c.fence)) {
        if busy_clusters.contains(&c.id) {
            continue;
        }
        let reason = match c.fence.owner {
            Some(owner) if owner.job_id.is_some_and(|j| live_jobs.contains(&j)) => None,
            Some(owner) if owner.job_id.is_some_and(|j| ended.contains(&j)) => {
                Some(GoneReason::OwnerJobEnded)
            }
            Some(owner) => owners.gone(&owner),
            None if unknown_job => None,
            None => Some(GoneReason::NoOwnerNoJob),
        };
        let Some(reason) = reason else { continue };
        let token = c.fence.token;
        let write = match update_for(profile, token.state, Event::OperationFailed) {
            Some(u) => FencedWrite::new(token, u.target, Some(u.event), None)?,
            // Held at rest (a proceed, a Created scale): only release it.
            None => FencedWrite::new(token, token.state, None, None)?,
        };
        recoveries.push(FencedRecovery {
            cluster_id: c.id,
            write,
            reason,
        });
    }
    Ok(recoveries)
}
