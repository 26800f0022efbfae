// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The generated code table (`crate::codes`), as the glue names it.

pub(crate) use crate::codes::*;
