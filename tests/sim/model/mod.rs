// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Exhaustive search of every schedule of a bounded configuration, over the deterministic
//! simulation's world and the real core's decisions: breadth first from every start, one visit
//! per canonical state ([`canon`]), every enabled move ([`moves`]) from each. Breadth first makes
//! the first path found to each kind of violation a shortest one ([`search::Counterexample`]).

pub mod canon;
pub mod config;
pub mod moves;
pub mod search;
