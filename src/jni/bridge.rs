//! One thin function per native method of `NativeBridge.java`.

use jni::objects::{JClass, JIntArray, JLongArray, JObject};
use jni::sys::{jint, jintArray, jlong, jlongArray, jobjectArray, jstring};
use jni::JNIEnv;
use once_cell::sync::Lazy;

use super::arrays::{new_ints, new_longs, read_ints, read_longs, same_length, LongChunks};
use super::codec;
use super::errors::{bad_element, run, BridgeError, BridgeResult};
use super::logging;
use crate::recovery::{ClusterRow, JobRef, RecoveryPlan, RecoveryPlanner};
use crate::scaling::ScaleOperation;
use crate::table::{Event, Operation, State, TRANSITION_ROWS};
use crate::{complete, decide_entry, next_state, plan_reconcile, Profile};

use super::codes::{names, recovery};

const NAMES_STATES: jint = names::STATES;
const NAMES_EVENTS: jint = names::EVENTS;
const NAMES_OPERATIONS: jint = names::OPERATIONS;

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_abiVersion(
    mut env: JNIEnv,
    _class: JClass,
) -> jint {
    run(&mut env, 0, |_| Ok(crate::ABI_VERSION))
}

fn names_of(kind: jint) -> BridgeResult<Vec<&'static str>> {
    match kind {
        NAMES_STATES => Ok(State::ALL.iter().map(|s| s.name()).collect()),
        NAMES_EVENTS => Ok(Event::ALL.iter().map(|e| e.name()).collect()),
        NAMES_OPERATIONS => Ok(Operation::ALL.iter().map(|o| o.name()).collect()),
        other => Err(BridgeError::Input(format!(
            "kind: unknown names kind {other}"
        ))),
    }
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_names(
    mut env: JNIEnv,
    _class: JClass,
    kind: jint,
) -> jobjectArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let names = names_of(kind)?;
        let array =
            env.new_object_array(names.len() as jint, "java/lang/String", JObject::null())?;
        for (i, name) in names.iter().enumerate() {
            let value = env.new_string(name)?;
            env.set_object_array_element(&array, i as jint, &value)?;
            // Keep the local reference table small: -Xcheck:jni warns past its capacity.
            env.delete_local_ref(value)?;
        }
        Ok(array.into_raw())
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_transitions(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
) -> jintArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let profile = codec::profile("profile", profile)?;
        let triples: Vec<jint> = TRANSITION_ROWS
            .iter()
            .filter(|row| profile.includes_row(row.3))
            .flat_map(|(from, event, to, _)| [from.code(), event.code(), to.code()].map(jint::from))
            .collect();
        Ok(new_ints(env, &triples)?.into_raw())
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_orphanStates(
    mut env: JNIEnv,
    _class: JClass,
) -> jintArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let codes: Vec<jint> = State::ALL
            .iter()
            .filter(|s| s.is_orphan_candidate())
            .map(|s| jint::from(s.code()))
            .collect();
        Ok(new_ints(env, &codes)?.into_raw())
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_nextState(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    state: jint,
    event: jint,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let next = next_state(
            codec::profile("profile", profile)?,
            codec::state("state", state)?,
            codec::event("event", event)?,
        );
        Ok(next.map_or(codec::NONE, |s| jint::from(s.code())))
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_decideEntry(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    operation: jint,
    state: jint,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let profile = codec::profile("profile", profile)?;
        let operation = codec::operation("operation", operation)?;
        let state = codec::state("state", state)?;
        Ok(PACKED_ENTRY[usize::from(profile.code())][operation as usize][state as usize])
    })
}

type PackedEntries = [[[jint; State::COUNT]; Operation::COUNT]; Profile::ALL.len()];

/// Every packed entry decision, computed once by the core: the hot call is then one load. Random
/// operations and states made the core's chain of table checks (row, proceed, nothing to do)
/// branch unpredictably, which cost more than the lookups themselves.
static PACKED_ENTRY: Lazy<PackedEntries> = Lazy::new(|| {
    let mut packed = [[[0; State::COUNT]; Operation::COUNT]; Profile::ALL.len()];
    for profile in Profile::ALL {
        for operation in Operation::ALL {
            for state in State::ALL {
                packed[usize::from(profile.code())][operation as usize][state as usize] =
                    codec::pack_entry(decide_entry(profile, operation, state));
            }
        }
    }
    packed
});

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_refusalReason(
    mut env: JNIEnv,
    _class: JClass,
    operation: jint,
    state: jint,
) -> jstring {
    run(&mut env, std::ptr::null_mut(), |env| {
        let refusal = crate::Refusal {
            operation: codec::operation("operation", operation)?,
            state: codec::state("state", state)?,
        };
        Ok(env.new_string(refusal.to_string())?.into_raw())
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_scaleRefusalReason(
    mut env: JNIEnv,
    _class: JClass,
    scale_kind: jint,
    state: jint,
) -> jstring {
    run(&mut env, std::ptr::null_mut(), |env| {
        let refusal = crate::scaling::ScaleRefusal {
            kind: codec::scale_kind("scaleKind", scale_kind)?,
            state: codec::state("state", state)?,
        };
        Ok(env.new_string(refusal.to_string())?.into_raw())
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_scaleBegin(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    scale_kind: jint,
    started_from: jint,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let operation = ScaleOperation::new(
            codec::profile("profile", profile)?,
            codec::scale_kind("scaleKind", scale_kind)?,
            codec::state("startedFrom", started_from)?,
        );
        let accepted = match operation.next_step(operation.started_from()) {
            crate::ScalingStep::Enter(update) => Ok(Some(update)),
            crate::ScalingStep::ChangeSettingsOnly => Ok(None),
            _ => Err(()),
        };
        Ok(codec::pack_scale_begin(accepted))
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_scaleStep(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    scale_kind: jint,
    started_from: jint,
    entered: jint,
    current: jint,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let operation = ScaleOperation::resumed(
            codec::profile("profile", profile)?,
            codec::scale_kind("scaleKind", scale_kind)?,
            codec::state("startedFrom", started_from)?,
            codec::optional_state("entered", entered)?,
        );
        Ok(codec::pack_scaling_step(
            operation.next_step(codec::state("current", current)?),
        ))
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_complete(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    moved_to: jint,
    outcome: jint,
) -> jint {
    run(&mut env, codec::NONE, |_| {
        let completion = complete(
            codec::profile("profile", profile)?,
            codec::optional_state("movedTo", moved_to)?,
            codec::outcome("outcome", outcome)?,
        );
        Ok(codec::pack_completion(completion))
    })
}

/// The candidates' columns checked (same lengths, ids not negative, known states), with the
/// states decoded. The rows themselves are never built: see [`cluster_rows`].
fn checked_states(ids: &[jlong], states: &[jint]) -> BridgeResult<Vec<State>> {
    same_length("clusterStates", states.len(), "clusterIds", ids.len())?;
    if let Some(i) = ids.iter().position(|&id| id < 0) {
        return Err(bad_element(
            "clusterIds",
            i,
            format!("negative cluster id {}", ids[i]),
        ));
    }
    codec::states("clusterStates", states)
}

/// The rows over checked columns, made as the planner reads them.
fn cluster_rows<'a>(
    ids: &'a [jlong],
    states: &'a [State],
) -> impl Iterator<Item = ClusterRow> + Clone + 'a {
    ids.iter().zip(states).map(|(&id, &state)| ClusterRow {
        id: id as u64,
        state,
    })
}

/// Feeds the job ids to the planner chunk by chunk. Every id is checked, also after the plan
/// stopped wanting jobs (no candidate, or an unknown job), so a bad id is reported wherever it is.
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

fn encode_plan(plan: &RecoveryPlan) -> Vec<jlong> {
    match plan {
        RecoveryPlan::Skip => vec![recovery::SKIP.into(), 0],
        RecoveryPlan::Wait => vec![recovery::WAIT.into(), 0],
        RecoveryPlan::Recover(recoveries) => {
            let mut out = Vec::with_capacity(2 + 2 * recoveries.len());
            out.extend([recovery::RECOVER.into(), recoveries.len() as jlong]);
            for r in recoveries {
                out.extend([r.cluster_id as jlong, codec::pack_recovery_update(r.update)]);
            }
            out
        }
    }
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_planRecovery(
    mut env: JNIEnv,
    _class: JClass,
    cluster_ids: JLongArray,
    cluster_states: JIntArray,
    job_cluster_ids: JLongArray,
) -> jlongArray {
    run(&mut env, std::ptr::null_mut(), |env| {
        let ids = read_longs(env, "clusterIds", &cluster_ids)?;
        let states = read_ints(env, "clusterStates", &cluster_states)?;
        // The jobs (up to millions) are streamed through a small buffer, not copied whole.
        let job_ids = LongChunks::new(env, "jobClusterIds", &job_cluster_ids)?;
        let job_count = job_ids.len();
        let states = checked_states(&ids, &states)?;
        let rows = cluster_rows(&ids, &states);
        let mut planner = RecoveryPlanner::new(Profile::Upstream, rows);
        feed_jobs(&mut planner, job_ids)?;
        let plan = planner.finish();
        log::debug!(
            "recovery plan for {} clusters and {} jobs: {}",
            ids.len(),
            job_count,
            match &plan {
                RecoveryPlan::Skip => "skip".to_string(),
                RecoveryPlan::Wait => "wait".to_string(),
                RecoveryPlan::Recover(r) => format!("{} to recover", r.len()),
            }
        );
        Ok(new_longs(env, &encode_plan(&plan))?.into_raw())
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_planReconcile(
    mut env: JNIEnv,
    _class: JClass,
    profile: jint,
    listed_state: jint,
    vm_summary: jint,
) -> jlong {
    run(&mut env, 0, |_| {
        let plan = plan_reconcile(
            codec::profile("profile", profile)?,
            codec::state("listedState", listed_state)?,
            codec::vm_summary("vmSummary", vm_summary)?,
        );
        Ok(codec::pack_reconcile(&plan))
    })
}

#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeBridge_setLogLevel(
    mut env: JNIEnv,
    class: JClass,
    level: jint,
) {
    run(&mut env, (), |env| logging::install(env, &class, level))
}
