// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Swarm testing: each seed draws its own mix of actions and requests, so a rare interleaving
//! gets seeds that favour it.

use cks_state::{Operation, ScaleKind};

use super::rng::Rng;
use super::worker::Request;

const REQUESTS: [Request; 12] = [
    Request::Plain(Operation::Start),
    Request::Plain(Operation::Start),
    Request::Plain(Operation::Stop),
    Request::Plain(Operation::Destroy),
    Request::Plain(Operation::Upgrade),
    Request::Plain(Operation::Upgrade),
    Request::Plain(Operation::AddNodes),
    Request::Plain(Operation::RemoveNodes),
    Request::Scale(ScaleKind::ScaleUp),
    Request::Scale(ScaleKind::ScaleDown),
    Request::Scale(ScaleKind::OfferingChange),
    Request::Scale(ScaleKind::Autoscale),
];

/// One seed's weights of the optional actions, and the requests it submits.
pub struct Weights {
    pub submit: u32,
    pub scan: u32,
    pub crash: u32,
    pub pause: u32,
    pub job_gc: u32,
    pub clock_jump: u32,
    pub resume: u32,
    pub requests: Vec<Request>,
}

impl Weights {
    pub fn draw(rng: &mut Rng) -> Weights {
        let mut requests: Vec<Request> = REQUESTS
            .iter()
            .copied()
            .filter(|_| rng.percent(50))
            .collect();
        if requests.is_empty() {
            requests = REQUESTS.to_vec();
        }
        Weights {
            submit: 8 + rng.below(12) as u32,
            scan: 4 + rng.below(20) as u32,
            crash: rng.below(5) as u32,
            pause: rng.below(4) as u32,
            job_gc: rng.below(7) as u32,
            clock_jump: rng.below(4) as u32,
            resume: 1 + rng.below(4) as u32,
            requests,
        }
    }
}
