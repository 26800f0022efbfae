// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! `NativeBridge.planRecovery`: one scanner pass's orphan recovery, one array per concern: the
//! candidate rows, the IN_PROGRESS jobs (ids and clusters), and the owner evidence (ended jobs,
//! hosts). The core says when it needs the evidence; until the host has read it, it passes null
//! and gets the owners' jobs to look at.

use jni::objects::{JClass, JLongArray};
use jni::sys::{jlong, jlongArray};
use jni::JNIEnv;

use super::arrays::{array_length, new_longs, read_longs, same_length, with_capacity, LongChunks};
use super::codec;
use super::codes::{
    candidate, candidate_width, gone, host, host_row, recovery, recovery_entry, recovery_header,
};
use super::errors::{bad_element, run, BridgeError, BridgeResult};
use super::operations::machine;
use super::results;
use cks_state::machine::StateMachine;
use cks_state::recovery::{
    Candidate, GoneReason, JobRef, MsHost, MsStatus, RecoveryPlan, RecoveryPlanner,
};
use cks_state::table::State;
use cks_state::write::{ClusterRow, Owner, Token};

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

/// The rows of a packed array argument: a whole number of `stride` longs.
fn rows<'v>(
    argument: &'static str,
    values: &'v [jlong],
    stride: i32,
) -> BridgeResult<std::slice::ChunksExact<'v, jlong>> {
    let stride = stride as usize;
    if values.len() % stride != 0 {
        return Err(BridgeError::Input(format!(
            "{argument}: length {} is not a multiple of {stride} (one row)",
            values.len()
        )));
    }
    Ok(values.chunks_exact(stride))
}

/// The fenced candidate rows, with their fence fields (version, owner).
fn fenced_candidates(values: &[jlong]) -> BridgeResult<Vec<Candidate>> {
    const ARG: &str = "candidates";
    let field = |r: &[jlong], f: i32| r[f as usize];
    let mut out = with_capacity(ARG, values.len() / candidate_width::FENCED as usize)?;
    for (i, r) in rows(ARG, values, candidate_width::FENCED)?.enumerate() {
        let state = codec::state_at(ARG, i, field(r, candidate::STATE))?;
        let owner = match optional_id(ARG, i, field(r, candidate::OWNER_MSID))? {
            None => None,
            Some(msid) => Some(Owner {
                msid,
                runid: id(ARG, i, field(r, candidate::OWNER_RUNID))?,
                job_id: optional_id(ARG, i, field(r, candidate::OWNER_JOB))?,
            }),
        };
        out.push(Candidate {
            id: id(ARG, i, field(r, candidate::ID))?,
            row: ClusterRow {
                token: Token {
                    state,
                    version: id(ARG, i, field(r, candidate::VERSION))?,
                },
                owner,
            },
        });
    }
    Ok(out)
}

/// The compat candidate rows (id, state) checked, and their states: the planner then reads the
/// rows where they are. Copying 100k rows into `Candidate`s cost about a tenth of the planning.
fn compat_states(values: &[jlong]) -> BridgeResult<Vec<State>> {
    const ARG: &str = "candidates";
    let mut states = with_capacity(ARG, values.len() / candidate_width::COMPAT as usize)?;
    for (i, r) in rows(ARG, values, candidate_width::COMPAT)?.enumerate() {
        id(ARG, i, r[candidate::ID as usize])?;
        states.push(codec::state_at(ARG, i, r[candidate::STATE as usize])?);
    }
    Ok(states)
}

fn hosts(values: &[jlong]) -> BridgeResult<Vec<MsHost>> {
    const ARG: &str = "hosts";
    let mut out = with_capacity(ARG, values.len() / host_row::LENGTH as usize)?;
    for (i, r) in rows(ARG, values, host_row::LENGTH)?.enumerate() {
        let status = match r[host_row::STATUS as usize] {
            s if s == jlong::from(host::UP) => MsStatus::Up,
            s if s == jlong::from(host::DOWN) => MsStatus::Down,
            s if s == jlong::from(host::OTHER) => MsStatus::Other,
            s => return Err(bad_element(ARG, i, format!("unknown host status code {s}"))),
        };
        out.push(MsHost {
            msid: id(ARG, i, r[host_row::MSID as usize])?,
            runid: id(ARG, i, r[host_row::RUNID as usize])?,
            status,
            heartbeat_age_secs: id(ARG, i, r[host_row::AGE as usize])?,
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

/// Feeds the job cluster ids to the planner chunk by chunk. Every id is checked, also after the
/// plan stopped wanting jobs (no candidate, or an unknown job), so a bad id is reported wherever
/// it is.
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

fn checked_ids(argument: &'static str, values: &[jlong]) -> BridgeResult<Vec<u64>> {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| id(argument, i, v))
        .collect()
}

/// The pass's inputs besides the candidates, as Java passed them; the evidence may be null.
struct Inputs<'a, 'local> {
    job_ids: &'a JLongArray<'local>,
    job_clusters: &'a JLongArray<'local>,
    ended: &'a JLongArray<'local>,
    hosts: &'a JLongArray<'local>,
}

/// What the pass answers: a plan, or the owners' jobs whose status it needs first.
enum Answer {
    Plan(RecoveryPlan),
    Evidence(Vec<u64>),
}

/// Plans the pass: the jobs' clusters (up to millions) stream through a small buffer; the jobs'
/// ids and the evidence are read only when the core asks for them (a held candidate).
fn plan<C: Iterator<Item = Candidate> + Clone>(
    env: &JNIEnv,
    machine: StateMachine,
    candidates: C,
    input: &Inputs,
    job_count: usize,
) -> BridgeResult<Answer> {
    let mut planner = RecoveryPlanner::new(machine, candidates);
    feed_jobs(
        &mut planner,
        LongChunks::new(env, "jobClusterIds", input.job_clusters)?,
    )?;
    if planner.wants_owner_evidence() {
        let ids = read_longs(env, "jobIds", input.job_ids)?;
        same_length("jobIds", ids.len(), "jobClusterIds", job_count)?;
        planner.add_job_ids(checked_ids("jobIds", &ids)?);
        if input.ended.is_null() || input.hosts.is_null() {
            return Ok(Answer::Evidence(planner.owner_jobs_to_check()));
        }
        planner.add_ended_jobs(checked_ids(
            "endedJobIds",
            &read_longs(env, "endedJobIds", input.ended)?,
        )?);
        planner.add_hosts(&hosts(&read_longs(env, "hosts", input.hosts)?)?);
    }
    Ok(Answer::Plan(planner.finish()?))
}

/// [kind, count, then per recovery (cluster id, expected token, write with its reason as kind)];
/// EVIDENCE: [kind, count, then the job ids].
fn pack(answer: &Answer) -> Vec<jlong> {
    let header = recovery_header::LENGTH as usize;
    let (kind, recoveries) = match answer {
        Answer::Evidence(jobs) => {
            let mut out = vec![jlong::from(recovery::EVIDENCE), jobs.len() as jlong];
            out.extend(jobs.iter().map(|&j| j as jlong));
            return out;
        }
        Answer::Plan(RecoveryPlan::Skip) => (recovery::SKIP, &[][..]),
        Answer::Plan(RecoveryPlan::Wait) => (recovery::WAIT, &[][..]),
        Answer::Plan(RecoveryPlan::Recover(r)) => (recovery::RECOVER, &r[..]),
    };
    let stride = recovery_entry::LENGTH as usize;
    let mut out = vec![0; header + stride * recoveries.len()];
    out[recovery_header::KIND as usize] = jlong::from(kind);
    out[recovery_header::COUNT as usize] = recoveries.len() as jlong;
    for (i, r) in recoveries.iter().enumerate() {
        let slot = header + stride * i;
        out[slot + recovery_entry::CLUSTER as usize] = r.cluster_id as jlong;
        out[slot + recovery_entry::EXPECTED as usize] = results::token(&r.write.expected);
        out[slot + recovery_entry::WRITE as usize] =
            results::write(reason_code(r.reason), &r.write);
    }
    out
}

/// The pass over `candidates` (`candidate` rows), the IN_PROGRESS jobs' ids and clusters (-1:
/// unknown), and the owner evidence: the ended owners' jobs and the `host_row` rows, both null
/// until the answer asked for them (kind EVIDENCE).
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan_recovery<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    mode: jni::sys::jint,
    profile: jni::sys::jint,
    heartbeat_threshold_millis: jlong,
    candidate_rows: JLongArray<'local>,
    job_ids: JLongArray<'local>,
    job_cluster_ids: JLongArray<'local>,
    ended_job_ids: JLongArray<'local>,
    host_rows: JLongArray<'local>,
) -> jlongArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let threshold = u64::try_from(heartbeat_threshold_millis).map_err(|_| {
            BridgeError::Input(format!(
                "heartbeatThresholdMillis: {heartbeat_threshold_millis} is negative"
            ))
        })?;
        let machine = machine(mode, profile)?.with_heartbeat_threshold(threshold);
        array_length(env, "jobIds", &job_ids)?;
        let values = read_longs(env, "candidates", &candidate_rows)?;
        let input = Inputs {
            job_ids: &job_ids,
            job_clusters: &job_cluster_ids,
            ended: &ended_job_ids,
            hosts: &host_rows,
        };
        let job_count = array_length(env, "jobClusterIds", &job_cluster_ids)?;
        let answer = if machine.mode.reads_fence() {
            let candidates = fenced_candidates(&values)?;
            plan(env, machine, candidates.iter().copied(), &input, job_count)?
        } else {
            let states = compat_states(&values)?;
            let width = candidate_width::COMPAT as usize;
            let rows = values
                .chunks_exact(width)
                .zip(&states)
                .map(|(r, &state)| Candidate {
                    id: r[candidate::ID as usize] as u64,
                    row: ClusterRow::of(state),
                });
            plan(env, machine, rows, &input, job_count)?
        };
        let out = pack(&answer);
        Ok(new_longs(env, &out)?.into_raw())
    })
}
