//! Test support: a cluster row with compare-and-set semantics, as the DAO gives them.

#![allow(dead_code)]

use cks_state::{State, StateUpdate};

pub struct ClusterCell {
    pub state: State,
}

impl ClusterCell {
    pub fn new(state: State) -> Self {
        ClusterCell { state }
    }

    /// `UPDATE ... SET state = target WHERE state = expected`: true when the row changed.
    pub fn compare_and_set(&mut self, update: StateUpdate) -> bool {
        if self.state == update.expected {
            self.state = update.target;
            true
        } else {
            false
        }
    }
}

pub fn state(name: &str) -> State {
    State::from_name(name).unwrap_or_else(|| panic!("no state {name}"))
}
