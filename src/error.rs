// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Errors of the core: bad input from the host, never a bug hidden as a default.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CoreError {
    #[error("{argument}: unknown {kind} code {code}")]
    UnknownCode {
        argument: &'static str,
        kind: &'static str,
        code: i64,
    },
    #[error("{argument}: length {actual} does not match {expected_from} length {expected}")]
    LengthMismatch {
        argument: &'static str,
        actual: usize,
        expected_from: &'static str,
        expected: usize,
    },
    #[error("{argument}: a hold that moved the cluster to {moved} holds it in {held}")]
    HoldMismatch {
        argument: &'static str,
        moved: crate::table::State,
        held: crate::table::State,
    },
    #[error("{argument}[{index}]: {message}")]
    BadElement {
        argument: &'static str,
        index: usize,
        message: String,
    },
    #[error("{argument}: {message}")]
    BadInput {
        argument: &'static str,
        message: String,
    },
}
