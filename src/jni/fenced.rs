//! One thin function per native method of `FencedNativeBridge.java`: the fenced-mode core
//! (`crate::fencing`). Versions cross as `long` (0..=MAX_VERSION), "none" as -1; the packed
//! layouts are documented in `FencedNativeBridge.java`.

use jni::objects::{JClass, JIntArray, JLongArray};
use jni::sys::{jboolean, jint, jlong, jlongArray, JNI_FALSE};
use jni::JNIEnv;

use super::arrays::{new_longs, read_ints, read_longs, same_length};
use super::codec::{self, NO_CODE};
use super::codes::{completion, entry, flag, gone, host, recovery, scale};
use super::errors::{bad_element, run, BridgeError, BridgeResult};
use crate::fencing::{
    fenced_completion, fenced_entry, plan_fenced_reconcile, plan_fenced_recovery_pass, Fence,
    FencedCandidate, FencedEntry, FencedRecoveryPlan, FencedScale, FencedScaleStep, FencedWrite,
    FencingError, GoneReason, Hold, InProgressJob, MsHost, MsStatus, Owner, Token, MAX_VERSION,
    OWNER_GONE_AFTER_SECS,
};
use crate::recovery::JobRef;
use crate::table::State;

/// Stands in for the caller: the core copies the owner into the write and the Java side, which
/// knows it, fills it in, so only the flag crosses back.
const CALLER: Owner = Owner {
    msid: 0,
    runid: 0,
    job_id: None,
};

impl From<FencingError> for BridgeError {
    fn from(e: FencingError) -> Self {
        BridgeError::Input(format!("version: {e}"))
    }
}

fn version(argument: &'static str, value: jlong) -> BridgeResult<u64> {
    // Every non-negative jlong is at most MAX_VERSION (i64::MAX).
    u64::try_from(value).map_err(|_| {
        BridgeError::Input(format!(
            "{argument}: {value} is not a version (0..={MAX_VERSION})"
        ))
    })
}

fn token(
    state_argument: &'static str,
    state: jint,
    version_argument: &'static str,
    v: jlong,
) -> BridgeResult<Token> {
    Ok(Token {
        state: codec::state(state_argument, state)?,
        version: version(version_argument, v)?,
    })
}

/// A row's fence; the owner's identity never changes a decision, only whether there is one.
fn fence(row: Token, held: jboolean) -> Fence {
    Fence {
        token: row,
        owner: (held != JNI_FALSE).then_some(CALLER),
    }
}

/// A write's event, target state and flags in 24 bits.
fn write_bits(write: &FencedWrite) -> u32 {
    let flags = if write.owner.is_some() {
        flag::OWNER as u32
    } else {
        0
    };
    write.event.map_or(NO_CODE, |e| u32::from(e.code()))
        | u32::from(write.target.state.code()) << 8
        | flags << 16
}

/// Bits 0-7 kind, 8-15 event, 16-23 target state, 24-31 flags.
fn pack_write(kind: i32, write: Option<&FencedWrite>) -> jint {
    let bits = write.map_or(NO_CODE | NO_CODE << 8, write_bits);
    (kind as u32 | bits << 8) as jint
}

fn pack_state(kind: i32, state: State) -> jint {
    (kind as u32 | NO_CODE << 8 | u32::from(state.code()) << 16) as jint
}

/// A take that moves the cluster's state, or one that keeps it.
fn take_kind(write: &FencedWrite, moves: i32, keeps: i32) -> i32 {
    if write.target.state == write.expected.state {
        keeps
    } else {
        moves
    }
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_FencedNativeBridge_constants(
    mut env: JNIEnv,
    _class: JClass,
) -> jlongArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let values = [MAX_VERSION as jlong, OWNER_GONE_AFTER_SECS as jlong];
        Ok(new_longs(env, &values)?.into_raw())
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_FencedNativeBridge_entry(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    operation: jint,
    state: jint,
    version: jlong,
    held: jboolean,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let row = fence(token("state", state, "version", version)?, held);
        let decision = fenced_entry(
            codec::profile("profile", profile)?,
            codec::operation("operation", operation)?,
            &row,
            CALLER,
        )?;
        Ok(match decision {
            FencedEntry::Take { write, .. } => pack_write(
                take_kind(&write, entry::TRANSITION, entry::PROCEED),
                Some(&write),
            ),
            FencedEntry::NothingToDo => pack_write(entry::NOTHING_TO_DO, None),
            FencedEntry::Refuse(_) => pack_write(entry::REFUSE, None),
            FencedEntry::Busy(_) => pack_write(entry::BUSY, None),
        })
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_FencedNativeBridge_completion(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    hold_state: jint,
    hold_version: jlong,
    moved_to: jint,
    outcome: jint,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let profile = codec::profile("profile", profile)?;
        let outcome = codec::outcome("outcome", outcome)?;
        let Some(hold) = hold(
            ("holdState", hold_state),
            ("holdVersion", hold_version),
            ("movedTo", moved_to),
        )?
        else {
            // It never held the cluster: nothing of it to end.
            return Ok(pack_write(completion::LEAVE, None));
        };
        let write = fenced_completion(profile, &hold, outcome)?;
        Ok(pack_write(completion::COMPARE_AND_SET, Some(&write)))
    })
}

/// A hold handed back by the host, each part with its argument's name; -1 as its state: none.
fn hold(
    (state_argument, state): (&'static str, jint),
    (version_argument, version): (&'static str, jlong),
    (moved_argument, moved_to): (&'static str, jint),
) -> BridgeResult<Option<Hold>> {
    if state == codec::NONE {
        return Ok(None);
    }
    Ok(Some(Hold {
        token: token(state_argument, state, version_argument, version)?,
        moved_to: codec::optional_state(moved_argument, moved_to)?,
    }))
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_FencedNativeBridge_scaleStep(
    mut env: JNIEnv,
    _class: JClass,
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
        let scale = FencedScale::resumed(
            codec::profile("profile", profile)?,
            codec::scale_kind("scaleKind", scale_kind)?,
            token(
                "startedState",
                started_state,
                "startedVersion",
                started_version,
            )?,
            CALLER,
            hold(
                ("holdState", hold_state),
                ("holdVersion", hold_version),
                ("holdMovedTo", hold_moved_to),
            )?,
        );
        let current = fence(
            token(
                "currentState",
                current_state,
                "currentVersion",
                current_version,
            )?,
            current_held,
        );
        Ok(match scale.next_step(&current)? {
            FencedScaleStep::Take(write) => pack_write(
                take_kind(&write, scale::ENTER, scale::SETTINGS_ONLY),
                Some(&write),
            ),
            FencedScaleStep::AlreadyHeld => pack_write(scale::ALREADY_ENTERED, None),
            FencedScaleStep::FailTakenSince(now) => pack_state(scale::FAIL_TAKEN_SINCE, now),
            FencedScaleStep::Busy(_) => pack_write(scale::BUSY, None),
            FencedScaleStep::Refuse(_) => pack_write(scale::REFUSE, None),
        })
    })
}

/// Bits 0-7 step count, then per step 24 bits from bit 8 + 24 i: event, target, flags.
#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_FencedNativeBridge_reconcile(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    listed_state: jint,
    listed_version: jlong,
    listed_held: jboolean,
    vm_summary: jint,
) -> jlong {
    run(&mut env, 0, |_| {
        let listed = fence(
            token("listedState", listed_state, "listedVersion", listed_version)?,
            listed_held,
        );
        let plan = plan_fenced_reconcile(
            codec::profile("profile", profile)?,
            &listed,
            codec::vm_summary("vmSummary", vm_summary)?,
            CALLER,
        )?;
        let mut packed: u64 = 0;
        let mut count: u64 = 0;
        for (i, step) in plan.steps().enumerate() {
            packed |= u64::from(write_bits(&step)) << (8 + 24 * i);
            count += 1;
        }
        Ok((packed | count) as jlong)
    })
}

/// A non-negative id, or None for -1.
fn optional_id(argument: &'static str, index: usize, value: jlong) -> BridgeResult<Option<u64>> {
    match value {
        -1 => Ok(None),
        v if v >= 0 => Ok(Some(v as u64)),
        v => Err(bad_element(
            argument,
            index,
            format!("{v} is neither an id nor -1 (none)"),
        )),
    }
}

fn id(argument: &'static str, index: usize, value: jlong) -> BridgeResult<u64> {
    u64::try_from(value).map_err(|_| bad_element(argument, index, format!("negative id {value}")))
}

/// The candidates as read: owner msid -1 = not held (then runid and job id are ignored).
struct CandidateArrays {
    ids: Vec<jlong>,
    states: Vec<jint>,
    versions: Vec<jlong>,
    msids: Vec<jlong>,
    runids: Vec<jlong>,
    job_ids: Vec<jlong>,
}

impl CandidateArrays {
    fn decode(&self) -> BridgeResult<Vec<FencedCandidate>> {
        let n = self.ids.len();
        same_length("clusterStates", self.states.len(), "clusterIds", n)?;
        same_length("clusterVersions", self.versions.len(), "clusterIds", n)?;
        same_length("ownerMsids", self.msids.len(), "clusterIds", n)?;
        same_length("ownerRunids", self.runids.len(), "clusterIds", n)?;
        same_length("ownerJobIds", self.job_ids.len(), "clusterIds", n)?;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let state = codec::state_at("clusterStates", i, self.states[i])?;
            let version = u64::try_from(self.versions[i]).map_err(|_| {
                bad_element(
                    "clusterVersions",
                    i,
                    format!("negative version {}", self.versions[i]),
                )
            })?;
            let owner = match optional_id("ownerMsids", i, self.msids[i])? {
                None => None,
                Some(msid) => Some(Owner {
                    msid,
                    runid: id("ownerRunids", i, self.runids[i])?,
                    job_id: optional_id("ownerJobIds", i, self.job_ids[i])?,
                }),
            };
            out.push(FencedCandidate {
                id: id("clusterIds", i, self.ids[i])?,
                fence: Fence {
                    token: Token { state, version },
                    owner,
                },
            });
        }
        Ok(out)
    }
}

fn jobs(job_ids: &[jlong], cluster_ids: &[jlong]) -> BridgeResult<Vec<InProgressJob>> {
    same_length("jobClusterIds", cluster_ids.len(), "jobIds", job_ids.len())?;
    let mut out = Vec::with_capacity(job_ids.len());
    for (i, (&job, &cluster)) in job_ids.iter().zip(cluster_ids).enumerate() {
        out.push(InProgressJob {
            job_id: id("jobIds", i, job)?,
            cluster: match optional_id("jobClusterIds", i, cluster)? {
                Some(c) => JobRef::Cluster(c),
                None => JobRef::Unknown,
            },
        });
    }
    Ok(out)
}

fn hosts(
    msids: &[jlong],
    runids: &[jlong],
    statuses: &[jint],
    ages: &[jlong],
) -> BridgeResult<Vec<MsHost>> {
    let n = msids.len();
    same_length("hostRunids", runids.len(), "hostMsids", n)?;
    same_length("hostStatuses", statuses.len(), "hostMsids", n)?;
    same_length("hostAges", ages.len(), "hostMsids", n)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let status = match statuses[i] {
            host::UP => MsStatus::Up,
            host::DOWN => MsStatus::Down,
            host::OTHER => MsStatus::Other,
            s => {
                return Err(bad_element(
                    "hostStatuses",
                    i,
                    format!("unknown status code {s}"),
                ))
            }
        };
        out.push(MsHost {
            msid: id("hostMsids", i, msids[i])?,
            runid: id("hostRunids", i, runids[i])?,
            status,
            heartbeat_age_secs: u64::try_from(ages[i])
                .map_err(|_| bad_element("hostAges", i, format!("negative age {}", ages[i])))?,
        });
    }
    Ok(out)
}

fn reason_code(reason: GoneReason) -> u32 {
    (match reason {
        GoneReason::OwnerDown => gone::OWNER_DOWN,
        GoneReason::OwnerRestarted => gone::OWNER_RESTARTED,
        GoneReason::HeartbeatStale => gone::HEARTBEAT_STALE,
        GoneReason::NoOwnerNoJob => gone::NO_OWNER_NO_JOB,
        GoneReason::OwnerJobEnded => gone::OWNER_JOB_ENDED,
    }) as u32
}

/// Result: [kind (skip, wait, recover), n, then n × (cluster id, packed (expected, event,
/// target, reason), expected version)].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_FencedNativeBridge_planRecovery<
    'local,
>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    profile: jint,
    cluster_ids: JLongArray<'local>,
    cluster_states: JIntArray<'local>,
    cluster_versions: JLongArray<'local>,
    owner_msids: JLongArray<'local>,
    owner_runids: JLongArray<'local>,
    owner_job_ids: JLongArray<'local>,
    job_ids: JLongArray<'local>,
    job_cluster_ids: JLongArray<'local>,
    ended_job_ids: JLongArray<'local>,
    host_msids: JLongArray<'local>,
    host_runids: JLongArray<'local>,
    host_statuses: JIntArray<'local>,
    host_ages: JLongArray<'local>,
) -> jlongArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let profile = codec::profile("profile", profile)?;
        let candidates = CandidateArrays {
            ids: read_longs(env, "clusterIds", &cluster_ids)?,
            states: read_ints(env, "clusterStates", &cluster_states)?,
            versions: read_longs(env, "clusterVersions", &cluster_versions)?,
            msids: read_longs(env, "ownerMsids", &owner_msids)?,
            runids: read_longs(env, "ownerRunids", &owner_runids)?,
            job_ids: read_longs(env, "ownerJobIds", &owner_job_ids)?,
        }
        .decode()?;
        let jobs = jobs(
            &read_longs(env, "jobIds", &job_ids)?,
            &read_longs(env, "jobClusterIds", &job_cluster_ids)?,
        )?;
        let hosts = hosts(
            &read_longs(env, "hostMsids", &host_msids)?,
            &read_longs(env, "hostRunids", &host_runids)?,
            &read_ints(env, "hostStatuses", &host_statuses)?,
            &read_longs(env, "hostAges", &host_ages)?,
        )?;
        let ended = read_longs(env, "endedJobIds", &ended_job_ids)?
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                u64::try_from(id)
                    .map_err(|_| bad_element("endedJobIds", i, format!("negative job id {id}")))
            })
            .collect::<BridgeResult<Vec<u64>>>()?;
        let plan = plan_fenced_recovery_pass(profile, &candidates, &jobs, &ended, &hosts)?;
        let (kind, recoveries) = match &plan {
            FencedRecoveryPlan::Skip => (recovery::SKIP, &[][..]),
            FencedRecoveryPlan::Wait => (recovery::WAIT, &[][..]),
            FencedRecoveryPlan::Recover(r) => (recovery::RECOVER, &r[..]),
        };
        let mut out = Vec::with_capacity(2 + 3 * recoveries.len());
        out.extend([jlong::from(kind), recoveries.len() as jlong]);
        for r in recoveries {
            let w = &r.write;
            let packed = u32::from(w.expected.state.code())
                | w.event.map_or(NO_CODE, |e| u32::from(e.code())) << 8
                | u32::from(w.target.state.code()) << 16
                | reason_code(r.reason) << 24;
            out.extend([
                r.cluster_id as jlong,
                jlong::from(packed),
                w.expected.version as jlong,
            ]);
        }
        log::debug!(
            "fenced recovery plan for {} candidates, {} jobs, {} hosts: {:?}",
            candidates.len(),
            jobs.len(),
            hosts.len(),
            plan
        );
        Ok(new_longs(env, &out)?.into_raw())
    })
}
