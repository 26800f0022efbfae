// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The checks of the whole table, after its rows are parsed: what no single row can break.

use std::collections::BTreeSet;

use super::Spec;

/// Codes must be 0..n-1 so that generated tables index by code.
pub(super) fn check_dense(codes: impl Iterator<Item = u8>, what: &str) -> Result<(), String> {
    let set: BTreeSet<u8> = codes.collect();
    match (0..set.len() as u16).find(|c| !set.contains(&(*c as u8))) {
        Some(missing) => Err(format!(
            "{what} codes must be 0..{}: {missing} is missing",
            set.len() - 1
        )),
        None => Ok(()),
    }
}

/// The scanner fails an orphan by OperationFailed: every orphan state a profile's rows name needs
/// that exit in the profile (the recovery planner releases, and never skips, a candidate without
/// one; a state a release lacks is named by none of its rows).
pub(super) fn check_orphan_exits(spec: &Spec) -> Result<(), String> {
    let Some(failed) = spec.events.iter().find(|e| e.name == "OperationFailed") else {
        return Ok(());
    };
    for profile in &spec.profiles {
        let rows = || {
            spec.transitions
                .iter()
                .filter(|t| t.profiles & 1 << profile.code != 0)
        };
        for &orphan in &spec.orphans {
            let named = rows().any(|t| t.from == orphan || t.to == orphan);
            if named && !rows().any(|t| t.from == orphan && t.event == failed.code) {
                let name = spec
                    .states
                    .iter()
                    .find(|s| s.code == orphan)
                    .map_or("?", |s| &s.name);
                return Err(format!(
                    "orphan state {name} has no OperationFailed transition in profile {}: the scanner could not fail it",
                    profile.name
                ));
            }
        }
    }
    Ok(())
}
