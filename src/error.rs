// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Errors of the core: bad input from the host, never a bug hidden as a default. (A code the
//! wire cannot decode is the JNI glue's error: it never reaches the core.)

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CoreError {
    #[error("{argument}: a hold that moved the cluster to {moved} holds it in {held}")]
    HoldMismatch {
        argument: &'static str,
        moved: crate::table::State,
        held: crate::table::State,
    },
    #[error("{argument}: {message}")]
    BadInput {
        argument: &'static str,
        message: String,
    },
}
