//! `NativeBridge.planRecovery`: one scanner pass's orphan recovery from the candidates, jobs and
//! hosts as primitive arrays. The rows' fence columns are read when the mode has them; the jobs'
//! ids, the ended jobs and the hosts when the core asks for owner evidence.

use jni::objects::{JClass, JIntArray, JLongArray};
use jni::sys::{jint, jlong, jlongArray};
use jni::JNIEnv;

use super::arrays::{array_length, new_longs, read_ints, read_longs, same_length, LongChunks};
use super::codec;
use super::codes::{gone, host, recovery, recovery_entry, recovery_header};
use super::errors::{bad_element, run, BridgeError, BridgeResult};
use super::operations::machine;
use super::results;
use crate::machine::StateMachine;
use crate::recovery::{
    Candidate, GoneReason, JobRef, MsHost, MsStatus, RecoveryPlan, RecoveryPlanner,
};
use crate::write::{ClusterRow, Owner, Token};

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
    fn decode(&self) -> BridgeResult<Vec<Candidate>> {
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
            out.push(Candidate {
                id: id("clusterIds", i, self.ids[i])?,
                row: ClusterRow {
                    token: Token { state, version },
                    owner,
                },
            });
        }
        Ok(out)
    }
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

fn reason_code(reason: GoneReason) -> i32 {
    match reason {
        GoneReason::OwnerDown => gone::OWNER_DOWN,
        GoneReason::OwnerRestarted => gone::OWNER_RESTARTED,
        GoneReason::HeartbeatStale => gone::HEARTBEAT_STALE,
        GoneReason::NoOwnerNoJob => gone::NO_OWNER_NO_JOB,
        GoneReason::OwnerJobEnded => gone::OWNER_JOB_ENDED,
    }
}

/// Feeds the job cluster ids to the compat planner chunk by chunk. Every id is checked, also
/// after the plan stopped wanting jobs (no candidate, or an unknown job), so a bad id is reported
/// wherever it is.
fn feed_jobs<C: Iterator<Item = Candidate> + Clone>(
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

/// The evidence about owners: the IN_PROGRESS jobs' ids, the ended jobs and the hosts.
struct OwnerEvidence {
    job_ids: Vec<u64>,
    ended: Vec<u64>,
    hosts: Vec<MsHost>,
}

fn read_evidence(env: &JNIEnv, input: &Inputs) -> BridgeResult<OwnerEvidence> {
    let ids = read_longs(env, "jobIds", input.job_ids)?;
    let clusters = array_length(env, "jobClusterIds", input.job_clusters)?;
    same_length("jobClusterIds", clusters, "jobIds", ids.len())?;
    Ok(OwnerEvidence {
        job_ids: checked_ids("jobIds", &ids)?,
        ended: checked_ids("endedJobIds", &read_longs(env, "endedJobIds", input.ended)?)?,
        hosts: hosts(
            &read_longs(env, "hostMsids", input.hosts.0)?,
            &read_longs(env, "hostRunids", input.hosts.1)?,
            &read_ints(env, "hostStatuses", input.host_statuses)?,
            &read_longs(env, "hostAges", input.host_ages)?,
        )?,
    })
}

/// Plans the pass over `clusters`: the jobs' clusters (up to millions) stream through a small
/// buffer. Only rows with fence columns can be held, so only then is the owner evidence read.
fn plan<C: Iterator<Item = Candidate> + Clone>(
    env: &JNIEnv,
    machine: StateMachine,
    clusters: C,
    input: &Inputs,
) -> BridgeResult<RecoveryPlan> {
    let evidence = if machine.mode.reads_fence() {
        Some(read_evidence(env, input)?)
    } else {
        None
    };
    let mut planner = RecoveryPlanner::new(machine, clusters);
    feed_jobs(
        &mut planner,
        LongChunks::new(env, "jobClusterIds", input.job_clusters)?,
    )?;
    if let Some(e) = evidence {
        planner.add_job_ids(e.job_ids);
        planner.add_ended_jobs(e.ended);
        planner.add_hosts(&e.hosts);
    }
    Ok(planner.finish()?)
}

fn checked_ids(argument: &'static str, values: &[jlong]) -> BridgeResult<Vec<u64>> {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| id(argument, i, v))
        .collect()
}

/// [kind, count, then per recovery (cluster id, expected token, write with its reason as kind)].
fn pack_plan(plan: &RecoveryPlan) -> Vec<jlong> {
    let (kind, recoveries) = match plan {
        RecoveryPlan::Skip => (recovery::SKIP, &[][..]),
        RecoveryPlan::Wait => (recovery::WAIT, &[][..]),
        RecoveryPlan::Recover(r) => (recovery::RECOVER, &r[..]),
    };
    let stride = recovery_entry::LENGTH as usize;
    let mut out = vec![0; recovery_header::LENGTH as usize + stride * recoveries.len()];
    out[recovery_header::KIND as usize] = jlong::from(kind);
    out[recovery_header::COUNT as usize] = recoveries.len() as jlong;
    for (i, r) in recoveries.iter().enumerate() {
        let slot = recovery_header::LENGTH as usize + stride * i;
        out[slot + recovery_entry::CLUSTER as usize] = r.cluster_id as jlong;
        out[slot + recovery_entry::EXPECTED as usize] = results::token(&r.write.expected);
        out[slot + recovery_entry::WRITE as usize] =
            results::write(reason_code(r.reason), &r.write);
    }
    out
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
    heartbeat_threshold_millis: jlong,
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
        let threshold = u64::try_from(heartbeat_threshold_millis).map_err(|_| {
            BridgeError::Input(format!(
                "heartbeatThresholdMillis: {heartbeat_threshold_millis} is negative"
            ))
        })?;
        let machine = machine(mode, profile)?.with_heartbeat_threshold(threshold);
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
        let input = Inputs {
            job_ids: &job_ids,
            job_clusters: &job_cluster_ids,
            ended: &ended_job_ids,
            hosts: (&host_msids, &host_runids),
            host_statuses: &host_statuses,
            host_ages: &host_ages,
        };
        let plan = if machine.mode.reads_fence() {
            let candidates = CandidateArrays {
                ids,
                states,
                versions: read_longs(env, "clusterVersions", &cluster_versions)?,
                msids: read_longs(env, "ownerMsids", &owner_msids)?,
                runids: read_longs(env, "ownerRunids", &owner_runids)?,
                job_ids: read_longs(env, "ownerJobIds", &owner_job_ids)?,
            }
            .decode()?;
            plan(env, machine, candidates.iter().copied(), &input)?
        } else {
            if let Some(i) = ids.iter().position(|&id| id < 0) {
                return Err(bad_element(
                    "clusterIds",
                    i,
                    format!("negative cluster id {}", ids[i]),
                ));
            }
            let states = codec::states("clusterStates", &states)?;
            let rows = ids.iter().zip(&states).map(|(&id, &state)| Candidate {
                id: id as u64,
                row: ClusterRow::of(state),
            });
            plan(env, machine, rows, &input)?
        };
        let out = pack_plan(&plan);
        log::debug!(
            "{:?} recovery plan for {n} candidates and {job_count} jobs: {} to recover (kind {})",
            machine.mode,
            out[recovery_header::COUNT as usize],
            out[recovery_header::KIND as usize]
        );
        Ok(new_longs(env, &out)?.into_raw())
    })
}

/// The pass's inputs besides the candidates: jobs, ended jobs and hosts, as Java passed them.
struct Inputs<'a, 'local> {
    job_ids: &'a JLongArray<'local>,
    job_clusters: &'a JLongArray<'local>,
    ended: &'a JLongArray<'local>,
    hosts: (&'a JLongArray<'local>, &'a JLongArray<'local>),
    host_statuses: &'a JIntArray<'local>,
    host_ages: &'a JLongArray<'local>,
}
