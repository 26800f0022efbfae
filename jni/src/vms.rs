// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! `NativeBridge.vmSummary`: the status scanner's VM rule on what the host counted.

use jni::objects::JClass;
use jni::sys::{jint, jlong};
use jni::JNIEnv;

use super::codec;
use super::codes::vm_answer;
use super::errors::{run, BridgeError, BridgeResult};
use cks_state::vms::VmCounts;

fn count(argument: &'static str, value: jlong) -> BridgeResult<u64> {
    u64::try_from(value).map_err(|_| BridgeError::Input(format!("{argument}: {value} is negative")))
}

/// The `vm_summary` code of the cluster's VMs, or `vm_answer::PROBE_HEALTH`: probe the cluster's
/// health, then ask again with the probe's `health` code.
#[allow(clippy::too_many_arguments)]
pub(crate) fn vm_summary(
    mut env: JNIEnv,
    _class: JClass,
    listed_state: jint,
    expected: jlong,
    mapped: jlong,
    present: jlong,
    running: jlong,
    stopped: jlong,
    health: jint,
) -> jint {
    run(&mut env, vm_answer::PROBE_HEALTH, |_| {
        let counts = VmCounts {
            expected: count("expected", expected)?,
            mapped: count("mapped", mapped)?,
            present: count("present", present)?,
            running: count("running", running)?,
            stopped: count("stopped", stopped)?,
        };
        let listed = codec::state("listedState", listed_state)?;
        let health = codec::health("health", health)?;
        Ok(match counts.summary(listed, health)? {
            Some(summary) => super::codes::vm_summary_code(summary),
            None => vm_answer::PROBE_HEALTH,
        })
    })
}
