//! `NativeBridge.planRecovery`: one scanner pass's orphan recovery, in either mode, from the
//! candidates, jobs and hosts as primitive arrays.

use jni::objects::{JClass, JIntArray, JLongArray};
use jni::sys::{jint, jlong, jlongArray};
use jni::JNIEnv;

use super::arrays::{array_length, new_longs, read_ints, read_longs, same_length, LongChunks};
use super::codec::{self, Mode, NO_CODE};
use super::codes::{gone, host, recovery};
use super::errors::{bad_element, run, BridgeResult};
use crate::fencing::{
    plan_fenced_recovery_pass, Fence, FencedCandidate, FencedRecoveryPlan, GoneReason,
    InProgressJob, MsHost, MsStatus, Owner, Token,
};
use crate::recovery::{ClusterRow, JobRef, RecoveryPlan, RecoveryPlanner};
use crate::table::{Event, Profile, State};

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

/// An id, version or age: never negative.
fn id(argument: &'static str, index: usize, value: jlong) -> BridgeResult<u64> {
    u64::try_from(value).map_err(|_| bad_element(argument, index, format!("{value} is negative")))
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
        same_length("clusterVersions", self.versions.len(), "clusterIds", n)?;
        same_length("ownerMsids", self.msids.len(), "clusterIds", n)?;
        same_length("ownerRunids", self.runids.len(), "clusterIds", n)?;
        same_length("ownerJobIds", self.job_ids.len(), "clusterIds", n)?;
        let mut out = Vec::with_capacity(n);
        for i in 0..self.ids.len() {
            let state = codec::state_at("clusterStates", i, self.states[i])?;
            let version = id("clusterVersions", i, self.versions[i])?;
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
            s => return Err(bad_element("hostStatuses", i, format!("unknown code {s}"))),
        };
        out.push(MsHost {
            msid: id("hostMsids", i, msids[i])?,
            runid: id("hostRunids", i, runids[i])?,
            status,
            heartbeat_age_secs: id("hostAges", i, ages[i])?,
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

/// One recovery of the result: (cluster id, expected | event << 8 | target << 16 | reason << 24,
/// expected version or -1 when the write compares none).
fn recovery_entry(
    cluster_id: u64,
    (expected, event, target): (State, Option<Event>, State),
    version: Option<u64>,
    reason: GoneReason,
) -> [jlong; 3] {
    let packed = u32::from(expected.code())
        | event.map_or(NO_CODE, |e| u32::from(e.code())) << 8
        | u32::from(target.code()) << 16
        | reason_code(reason) << 24;
    [
        cluster_id as jlong,
        jlong::from(packed),
        version.map_or(-1, |v| v as jlong),
    ]
}

/// Feeds the job cluster ids to the compat planner chunk by chunk. Every id is checked, also
/// after the plan stopped wanting jobs (no candidate, or an unknown job), so a bad id is reported
/// wherever it is.
fn feed_jobs<C: Iterator<Item = ClusterRow> + Clone>(
    planner: &mut RecoveryPlanner<C>,
    mut job_ids: LongChunks,
) -> BridgeResult<()> {
    while let Some((start, chunk)) = job_ids.next_chunk()? {
        // Checked while marking, in the same pass: a second pass over each chunk cost about a
        // third of the marking (perf). A planner that stopped early did not see the whole chunk.
        let mut any_bad = false;
        let mut seen_whole_chunk = false;
        if planner.wants_jobs() {
            planner.add_jobs(chunk.iter().map(|&id| {
                any_bad |= id < -1;
                if id == -1 {
                    JobRef::Unknown
                } else {
                    JobRef::Cluster(id as u64)
                }
            }));
            seen_whole_chunk = planner.wants_jobs();
        }
        if any_bad || !seen_whole_chunk {
            if let Some(k) = chunk.iter().position(|&id| id < -1) {
                return Err(bad_element(
                    "jobClusterIds",
                    start + k,
                    format!("{} is neither a cluster id nor -1 (unknown)", chunk[k]),
                ));
            }
        }
    }
    Ok(())
}

/// The compat pass: ids, states and job cluster ids only; the jobs (up to millions) are streamed
/// through a small buffer, the rows are never built.
fn plan_compat(
    profile: Profile,
    ids: &[jlong],
    states: &[jint],
    job_cluster_ids: LongChunks,
) -> BridgeResult<(i32, Vec<jlong>)> {
    if let Some(i) = ids.iter().position(|&id| id < 0) {
        return Err(bad_element(
            "clusterIds",
            i,
            format!("negative cluster id {}", ids[i]),
        ));
    }
    let states: Vec<State> = codec::states("clusterStates", states)?;
    let rows = ids.iter().zip(&states).map(|(&id, &state)| ClusterRow {
        id: id as u64,
        state,
    });
    let mut planner = RecoveryPlanner::new(profile, rows);
    feed_jobs(&mut planner, job_cluster_ids)?;
    Ok(match planner.finish() {
        RecoveryPlan::Skip => (recovery::SKIP, Vec::new()),
        RecoveryPlan::Wait => (recovery::WAIT, Vec::new()),
        RecoveryPlan::Recover(recoveries) => {
            let mut out = Vec::with_capacity(3 * recoveries.len());
            for r in recoveries {
                let u = r.update;
                let write = (u.expected, Some(u.event), u.target);
                let reason = GoneReason::NoOwnerNoJob;
                out.extend(recovery_entry(r.cluster_id, write, None, reason));
            }
            (recovery::RECOVER, out)
        }
    })
}

/// Result: [kind (skip, wait, recover), n, then n × (cluster id, packed (expected, event, target,
/// reason), expected version or -1)]. Compat mode reads ids, states and job cluster ids only (the
/// other arrays must not be null).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_planRecovery<
    'local,
>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    mode: jint,
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
        let mode = codec::mode("mode", mode)?;
        let profile = codec::profile("profile", profile)?;
        let ids = read_longs(env, "clusterIds", &cluster_ids)?;
        let states = read_ints(env, "clusterStates", &cluster_states)?;
        let n = ids.len();
        same_length("clusterStates", states.len(), "clusterIds", n)?;
        // Every array must be there; compat reads (and checks) only ids, states and job clusters.
        let longs = [
            ("clusterVersions", &cluster_versions),
            ("ownerMsids", &owner_msids),
            ("ownerRunids", &owner_runids),
            ("ownerJobIds", &owner_job_ids),
            ("jobIds", &job_ids),
            ("endedJobIds", &ended_job_ids),
            ("hostMsids", &host_msids),
            ("hostRunids", &host_runids),
            ("hostAges", &host_ages),
        ];
        for (name, array) in longs {
            array_length(env, name, array)?;
        }
        array_length(env, "hostStatuses", &host_statuses)?;
        let job_count = array_length(env, "jobClusterIds", &job_cluster_ids)?;
        let (kind, recoveries) = if mode == Mode::Compat {
            let chunks = LongChunks::new(env, "jobClusterIds", &job_cluster_ids)?;
            plan_compat(profile, &ids, &states, chunks)?
        } else {
            plan_fenced(
                env,
                profile,
                CandidateArrays {
                    ids,
                    states,
                    versions: read_longs(env, "clusterVersions", &cluster_versions)?,
                    msids: read_longs(env, "ownerMsids", &owner_msids)?,
                    runids: read_longs(env, "ownerRunids", &owner_runids)?,
                    job_ids: read_longs(env, "ownerJobIds", &owner_job_ids)?,
                },
                FencedInputs {
                    job_ids: &job_ids,
                    job_clusters: &job_cluster_ids,
                    ended: &ended_job_ids,
                    hosts: (&host_msids, &host_runids),
                    host_statuses: &host_statuses,
                    host_ages: &host_ages,
                },
            )?
        };
        let mut out = Vec::with_capacity(2 + recoveries.len());
        out.extend([jlong::from(kind), (recoveries.len() / 3) as jlong]);
        out.extend(recoveries);
        log::debug!(
            "{mode:?} recovery plan for {n} candidates and {job_count} jobs: {} to recover (kind {kind})",
            (out.len() - 2) / 3
        );
        Ok(new_longs(env, &out)?.into_raw())
    })
}

/// The fenced pass's inputs besides the candidates: jobs, ended jobs and hosts, as Java passed them.
struct FencedInputs<'a, 'local> {
    job_ids: &'a JLongArray<'local>,
    job_clusters: &'a JLongArray<'local>,
    ended: &'a JLongArray<'local>,
    hosts: (&'a JLongArray<'local>, &'a JLongArray<'local>),
    host_statuses: &'a JIntArray<'local>,
    host_ages: &'a JLongArray<'local>,
}

fn plan_fenced(
    env: &JNIEnv,
    profile: Profile,
    candidates: CandidateArrays,
    input: FencedInputs,
) -> BridgeResult<(i32, Vec<jlong>)> {
    let candidates = candidates.decode()?;
    let job_ids = read_longs(env, "jobIds", input.job_ids)?;
    let job_clusters = read_longs(env, "jobClusterIds", input.job_clusters)?;
    same_length("jobClusterIds", job_clusters.len(), "jobIds", job_ids.len())?;
    let jobs = jobs(&job_ids, &job_clusters)?;
    let hosts = hosts(
        &read_longs(env, "hostMsids", input.hosts.0)?,
        &read_longs(env, "hostRunids", input.hosts.1)?,
        &read_ints(env, "hostStatuses", input.host_statuses)?,
        &read_longs(env, "hostAges", input.host_ages)?,
    )?;
    let ended = read_longs(env, "endedJobIds", input.ended)?
        .iter()
        .enumerate()
        .map(|(i, &job)| id("endedJobIds", i, job))
        .collect::<BridgeResult<Vec<u64>>>()?;
    Ok(
        match plan_fenced_recovery_pass(profile, &candidates, &jobs, &ended, &hosts)? {
            FencedRecoveryPlan::Skip => (recovery::SKIP, Vec::new()),
            FencedRecoveryPlan::Wait => (recovery::WAIT, Vec::new()),
            FencedRecoveryPlan::Recover(recoveries) => (
                recovery::RECOVER,
                recoveries
                    .iter()
                    .flat_map(|r| {
                        let w = r.write;
                        let write = (w.expected.state, w.event, w.target.state);
                        recovery_entry(r.cluster_id, write, Some(w.expected.version), r.reason)
                    })
                    .collect(),
            ),
        },
    )
}
