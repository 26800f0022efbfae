// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! The hot decisions (next state, entry decision and entry, scaling step, completion, reconcile)
//! allocate nothing, in both modes: a counting global allocator watches every call over all inputs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use cks_state::{
    complete, decide_entry, next_state, ClusterRow, Event, Mode, Operation, Outcome, Owner,
    Profile, ScaleKind, ScaleStep, State, StateMachine, Token, VmSummary,
};

const ME: Owner = Owner {
    msid: 1,
    runid: 10,
    job_id: Some(100),
};

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

struct CountingAllocator;

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_an_allocation() {
    assert_eq!(
        allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))),
        1
    );
}

#[test]
fn next_state_and_entry_decisions_allocate_nothing() {
    let mut transitions = 0u32;
    let count = allocations_during(|| {
        for profile in Profile::ALL {
            for state in State::ALL {
                for event in Event::ALL {
                    transitions += u32::from(
                        std::hint::black_box(next_state(profile, state, event)).is_some(),
                    );
                }
                for operation in Operation::ALL {
                    std::hint::black_box(decide_entry(profile, operation, state));
                }
            }
        }
    });
    assert_eq!(count, 0);
    // CloudStack 4.22 41, with #14604 44, 4.20.0 27, 4.20.2 30, 4.21 36, 4.23 41.
    assert_eq!(transitions, 41 + 44 + 27 + 30 + 36 + 41);
}

#[test]
fn entries_allocate_nothing() {
    let mut entries = 0u32;
    let count = allocations_during(|| {
        for profile in Profile::ALL {
            for mode in Mode::ALL {
                let machine = StateMachine::new(profile, mode);
                for state in State::ALL {
                    for operation in Operation::ALL {
                        let row = ClusterRow::of(state);
                        let entry = std::hint::black_box(machine.entry(operation, &row, ME));
                        entries += u32::from(entry.is_ok());
                    }
                }
            }
        }
    });
    assert_eq!(count, 0);
    assert_eq!(entries, Profile::ALL.len() as u32 * 2 * 15 * 9);
}

#[test]
fn scaling_completion_and_reconcile_decisions_allocate_nothing() {
    let count = allocations_during(|| {
        for mode in Mode::ALL {
            let machine = StateMachine::new(Profile::CloudStack4_22, mode);
            for state in State::ALL {
                let row = ClusterRow::of(state);
                for kind in ScaleKind::ALL {
                    let started = Token { state, version: 0 };
                    let mut op = machine.scale(kind, started, ME);
                    if let Ok(ScaleStep::Enter(take) | ScaleStep::SettingsOnly(Some(take))) =
                        std::hint::black_box(op.next_step(&row))
                    {
                        op.mark_entered(&take)
                    }
                    std::hint::black_box(op.next_step(&row)).ok();
                    std::hint::black_box(op.completion(false)).ok();
                }
                for outcome in Outcome::ALL {
                    std::hint::black_box(complete(Profile::CloudStack4_22, Some(state), outcome));
                    let hold = cks_state::Hold {
                        token: row.token,
                        moved_to: Some(state),
                    };
                    std::hint::black_box(machine.completion(Some(hold), outcome)).ok();
                }
                for vms in VmSummary::ALL {
                    std::hint::black_box(machine.reconcile(&row, vms, ME)).ok();
                }
            }
        }
    });
    assert_eq!(count, 0);
}
