//! The entry and the completion of an operation in fenced mode.

use super::token::{Fence, FencedWrite, FencingError, Hold, Owner};
use crate::completion::{complete, Completion, Outcome};
use crate::entry::{decide_entry, EntryDecision, Refusal};
use crate::table::{Operation, Profile};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FencedEntry {
    /// Compare-and-set `write`; on a hit keep `hold`, on a miss fail with "please retry".
    /// Covers the compat TRANSITION and PROCEED (then `write` keeps the state).
    Take {
        write: FencedWrite,
        hold: Hold,
    },
    NothingToDo,
    Refuse(Refusal),
    /// Another operation holds the cluster: fail with "please retry".
    Busy(Owner),
}

/// The entry of `operation`, run by `me`, on a cluster read as `row`.
pub fn fenced_entry(
    profile: Profile,
    operation: Operation,
    row: &Fence,
    me: Owner,
) -> Result<FencedEntry, FencingError> {
    let decision = decide_entry(profile, operation, row.token.state);
    let (state, event) = match decision {
        EntryDecision::NothingToDo => return Ok(FencedEntry::NothingToDo),
        EntryDecision::Refuse(r) => return Ok(FencedEntry::Refuse(r)),
        EntryDecision::Transition(u) => (Some(u.target), Some(u.event)),
        EntryDecision::Proceed => (None, None),
    };
    // One operation at a time: this also refuses the table's Starting -> Stopping takeover
    // while the start's owner lives; the scanner frees the cluster once that owner is gone.
    if let Some(owner) = row.owner {
        return Ok(FencedEntry::Busy(owner));
    }
    let write = FencedWrite::new(row.token, state.unwrap_or(row.token.state), event, Some(me))?;
    Ok(FencedEntry::Take {
        write,
        hold: Hold {
            token: write.target,
            moved_to: state,
        },
    })
}

/// How an operation holding the cluster ends: the compat completion's state change (or none),
/// expecting the token its entry wrote, and releasing the owner. A miss means the cluster was
/// taken from it (the scanner failed it): leave it.
pub fn fenced_completion(
    profile: Profile,
    hold: &Hold,
    outcome: Outcome,
) -> Result<FencedWrite, FencingError> {
    match complete(profile, hold.moved_to, outcome) {
        Completion::CompareAndSet(u) if u.expected == hold.token.state => {
            FencedWrite::new(hold.token, u.target, Some(u.event), None)
        }
        _ => FencedWrite::new(hold.token, hold.token.state, None, None),
    }
}
