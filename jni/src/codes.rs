// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The generated code table (`cks_state::codes`), as the glue names it.

pub(crate) use cks_state::codes::*;
