//! The hot decisions (next state, entry decision, scaling step, completion) allocate nothing:
//! a counting global allocator watches every call over all inputs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use cks_state::{
    complete, decide_entry, next_state, plan_reconcile, Event, Operation, Outcome, Profile,
    ScaleKind, ScaleOperation, State, VmSummary,
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
    assert_eq!(transitions, 36 + 39);
}

#[test]
fn scaling_completion_and_reconcile_decisions_allocate_nothing() {
    let count = allocations_during(|| {
        for state in State::ALL {
            for kind in ScaleKind::ALL {
                let mut op = ScaleOperation::new(Profile::Upstream, kind, state);
                std::hint::black_box(op.next_step(state));
                op.mark_entered();
                std::hint::black_box(op.completion(false));
            }
            for outcome in Outcome::ALL {
                std::hint::black_box(complete(Profile::Upstream, Some(state), outcome));
            }
            for vms in VmSummary::ALL {
                std::hint::black_box(plan_reconcile(Profile::Upstream, state, vms));
            }
        }
    });
    assert_eq!(count, 0);
}
