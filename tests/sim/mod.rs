// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! A deterministic simulation of CKS clusters under concurrent operations, server faults and
//! the status scanner, against an in-memory model of the database's compare-and-set.
//!
//! - [`db`]: cluster rows (compat CAS on state; fenced CAS on state and version), the async job
//!   table (IN_PROGRESS before the worker runs, FAILED on restart or when a peer marks the
//!   server Down, hard-deleted by a job GC with a lowered expiry) and `mshost`.
//! - [`worker`]: one operation, one database interaction per step, decided by the real core;
//!   [`scanner`]: one scanner pass (recovery, then reconciliation), also one write per step.
//! - [`run`]: the seeded scheduler; each tick advances database time and steps one actor or
//!   injects a fault ([`faults`]: crash, restart, pause past the heartbeat lease, peer check).
//!   [`swarm`] draws each seed's mix. [`rng`] is SplitMix64: one seed replays one schedule.
//! - [`oracle`]: ground truth of which live operation is inside which cluster; it flags the
//!   windows. [`trace`] hashes every event (and keeps the text on request); [`replay`] records
//!   the host steps for the Java replay (`DifferentialReplayTest`).
//! - [`model`]: the same world searched exhaustively: every schedule of a bounded configuration.

pub mod db;
pub mod faults;
pub mod model;
pub mod oracle;
pub mod replay;
pub mod rng;
pub mod run;
pub mod scanner;
pub mod servers;
pub mod shared;
pub mod swarm;
pub mod trace;
pub mod worker;
pub mod world;
