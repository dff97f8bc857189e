//! Requests the engine will make later, known before the executions that come first have
//! run: what parallel workers run ahead (`crate::pool`).
//!
//! Exploration is depth-first: once the next execution is planned, leaving the current
//! path at node `d`, every node `i < d` of the path with a branch left is backtracked to
//! later, after everything below it, and planned then exactly as `plan_next` would plan it
//! now. Nothing below node `i` changes what is planned there:
//!
//! * its sleep set and its own event stay as they are until then (only nodes at or below a
//!   divergence point are replaced, and the divergence point stays below `i` until the
//!   engine backtracks to it);
//! * optimal: a race analysed later adds a branch to its wakeup tree only at the right of
//!   a level, never as a first child (a leaf already covers a sequence that reaches it),
//!   so the leftmost branch and its leftmost leaf stay the leftmost;
//! * none: the enabled threads and those done stay as they are.
//!
//! So for `optimal` and `none` each forecast is made later, exactly. For `source` and
//! `classic`, a race found below node `i` can still add a thread to its backtrack set that
//! goes before the forecast one: a forecast is only ever used where it equals the request
//! made, so such a forecast costs an execution run in vain, never a different answer.

use super::{alternative_at, asleep, leave_branch, next_thread, push_chain, Algorithm, Engine};
use super::{Request, Step};

impl Engine {
    /// The requests that will follow the next one, nearest first (deepest node first):
    /// one per node above the next divergence point with a branch left, for the branch
    /// planned there next.
    pub fn forecasts(&self) -> impl Iterator<Item = Request> + '_ {
        let div = self.plan.as_ref().map_or(0, |p| p.div);
        (0..div).rev().filter_map(|i| self.forecast_at(i))
    }

    /// An engine that explores ahead the subtree of the forecast `f` (one of
    /// `forecasts`): its path is this one's down to the node `f` leaves it at, planned as
    /// this engine will plan it. It has none of this one's analysis: it analyses its
    /// first execution from the first event, the next ones from where they depart. Its
    /// requests are this engine's as long as no race found here before it gets there
    /// adds a branch to that subtree; until it leaves the subtree (a request that leaves
    /// the path above `f.sleep_from`).
    pub fn fork_for(&self, f: &Request) -> Engine {
        let i = f.sleep_from;
        let mut fork = Engine {
            nodes: self.nodes[..=i].to_vec(),
            enabled: self.enabled[..=i].to_vec(),
            ..Engine::new(self.alg)
        };
        fork.request.schedule = self.request.schedule[..i].to_vec();
        fork.plan = fork.plan_next();
        debug_assert_eq!(fork.next_request(), Some(f));
        fork
    }

    /// What `plan_next` will plan at node `i` when it backtracks there.
    fn forecast_at(&self, i: usize) -> Option<Request> {
        if !self.has_branch_left(i) {
            return None;
        }
        let node = &self.nodes[i];
        let mut schedule = self.request.schedule[..i].to_vec();
        if let Some(step) = alternative_at(self.alg, node) {
            schedule.push(step);
            return Some(Request {
                schedule,
                sleep: node.sleep.clone(),
                sleep_from: i,
            });
        }
        let mut sleep = node.sleep.clone();
        leave_branch(self.alg, &mut sleep, node.event);
        match self.alg {
            Algorithm::Optimal => push_chain(&mut schedule, node.wut.branches.first()?),
            alg => schedule.push(Step {
                tid: next_thread(alg, node, asleep(&sleep), self.enabled[i])?,
                choice: 0,
            }),
        }
        Some(Request {
            schedule,
            sleep,
            sleep_from: i,
        })
    }
}
