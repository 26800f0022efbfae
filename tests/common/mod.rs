// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Test support: a cluster row with compare-and-set semantics, as the DAO gives them, and the
//! proptest case count the property tests share.

#![allow(dead_code)]

use cks_state::{State, StateUpdate, Write};
use proptest::test_runner::Config as ProptestConfig;

/// 2,000 cases a property; `make soak` sets more with PROPTEST_CASES.
pub fn proptest_config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2_000);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

pub struct ClusterCell {
    pub state: State,
}

impl ClusterCell {
    pub fn new(state: State) -> Self {
        ClusterCell { state }
    }

    /// `UPDATE ... SET state = target WHERE state = expected`: true when the row changed.
    pub fn compare_and_set(&mut self, update: StateUpdate) -> bool {
        if self.state == update.expected {
            self.state = update.target;
            true
        } else {
            false
        }
    }

    /// A compat-mode write, as the DAO issues it: a compare-and-set on the state alone, no
    /// version and no owner.
    pub fn write(&mut self, write: &Write) -> bool {
        assert!(
            !write.versioned(),
            "a compat write compares no version: {write:?}"
        );
        assert_eq!(write.owner, None, "a compat write stores no owner");
        let update = write.update().expect("a compat write moves the state");
        self.compare_and_set(update)
    }
}

pub fn state(name: &str) -> State {
    State::from_name(name).unwrap_or_else(|| panic!("no state {name}"))
}

/// A server's identity, as the owner columns hold it; `job` is None for the scanner.
pub fn owner(msid: u64, runid: u64, job: Option<u64>) -> cks_state::Owner {
    cks_state::Owner {
        msid,
        runid,
        job_id: job,
    }
}
