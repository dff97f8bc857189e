//! Executions run ahead of the engine: the requests handed to workers before the engine
//! asks for them (`Engine::forecasts`), and their results until it does.
//!
//! The engine stays the one place where exploration is decided: it takes in executions
//! one at a time, in the order it would run them itself, and each is the result of
//! exactly the request it makes. A result is used only for a request equal to the one it
//! was run for, so running ahead changes when an execution runs, never which: every
//! number of workers explores the same executions in the same order and gives the same
//! answer. Results are kept by request; one whose request can no longer be made is
//! dropped (`planned`).

use crate::engine::{Engine, Request};

/// A request handed out, and its result once it is in.
struct Slot<R> {
    id: u64,
    req: Request,
    result: Option<R>,
}

pub struct Ahead<R> {
    slots: Vec<Slot<R>>,
    /// Requests handed out and not yet used or dropped, at most.
    cap: usize,
    next_id: u64,
    /// Requests run ahead and dropped unused.
    pub wasted: u64,
}

impl<R> Ahead<R> {
    pub fn new(cap: usize) -> Ahead<R> {
        Ahead {
            slots: Vec::new(),
            cap,
            next_id: 0,
            wasted: 0,
        }
    }

    fn position(&self, req: &Request) -> Option<usize> {
        self.slots.iter().position(|s| s.req == *req)
    }

    /// Whether `req` was handed out (its result is in or to come).
    pub fn has(&self, req: &Request) -> bool {
        self.position(req).is_some()
    }

    /// The result of `req`, if it is in; the request is then used.
    pub fn take(&mut self, req: &Request) -> Option<R> {
        let i = self.position(req)?;
        self.slots[i].result.as_ref()?;
        self.slots.remove(i).result
    }

    /// Records `req` as handed out; its result comes back under the id returned.
    pub fn hand_out(&mut self, req: Request) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.slots.push(Slot {
            id,
            req,
            result: None,
        });
        id
    }

    /// Whether one more request may be handed out ahead.
    pub fn room(&self) -> bool {
        self.slots.len() < self.cap
    }

    /// The result of request `id`; dropped if its request was.
    pub fn result(&mut self, id: u64, r: R) {
        if let Some(s) = self.slots.iter_mut().find(|s| s.id == id) {
            s.result = Some(r);
        }
    }

    /// The engine planned `next`, leaving its current path at `next.sleep_from`: every
    /// node below is cut, and the branch planned there is planned there once; so a
    /// request that leaves the path there or below, other than `next`, is never made.
    pub fn planned(&mut self, next: &Request) {
        let before = self.slots.len();
        let d = next.sleep_from;
        self.slots
            .retain(|s| s.req.sleep_from < d || s.req == *next);
        self.wasted += (before - self.slots.len()) as u64;
    }

    /// The nearest request the engine will make after its next one that is not handed
    /// out yet, if there is room for one.
    pub fn to_run_ahead(&self, engine: &Engine) -> Option<Request> {
        if !self.room() {
            return None;
        }
        engine.forecasts().find(|f| !self.has(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::sim::{self, Program};
    use crate::engine::{Algorithm, Stats};
    use proptest::prelude::*;

    /// A seeded stream of choices (splitmix64).
    struct Choices(u64);

    impl Choices {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// Explores `prog` as `workers` workers would, in a seeded random order of hand-outs,
    /// finished executions and the engine taking results; returns the engine's stats, every
    /// execution it took in (in order), and the requests dropped unused.
    fn explore_ahead(
        prog: &Program,
        alg: Algorithm,
        workers: usize,
        seed: u64,
    ) -> (Stats, Vec<Vec<cdpor_sched::Event>>, u64) {
        let mut rng = Choices(seed);
        let mut engine = Engine::new(alg);
        let mut ahead: Ahead<sim::Run> = Ahead::new(3 * workers);
        // Each worker's request in progress.
        let mut busy: Vec<Option<(u64, Request)>> = vec![None; workers];
        let mut taken = Vec::new();
        while let Some(req) = engine.next_request().cloned() {
            ahead.planned(&req);
            if let Some(run) = ahead.take(&req) {
                engine.record(&run.trace()).expect("deterministic");
                taken.push(run.events.clone());
                continue;
            }
            let idle = busy.iter().position(Option::is_none);
            match (ahead.has(&req), idle) {
                (false, Some(w)) => {
                    let id = ahead.hand_out(req.clone());
                    busy[w] = Some((id, req));
                }
                _ if rng.below(2) == 0 || idle.is_none() => {
                    // A worker finishes (any one: they run at their own pace).
                    let busy_ones: Vec<usize> =
                        (0..workers).filter(|&w| busy[w].is_some()).collect();
                    let w = busy_ones[rng.below(busy_ones.len())];
                    let (id, r) = busy[w].take().expect("busy");
                    ahead.result(id, sim::run(prog, &r, 10_000));
                }
                _ => {
                    if let (Some(f), Some(w)) = (ahead.to_run_ahead(&engine), idle) {
                        let id = ahead.hand_out(f.clone());
                        busy[w] = Some((id, f));
                    }
                }
            }
        }
        (engine.stats(), taken, ahead.wasted)
    }

    fn sequential(prog: &Program, alg: Algorithm) -> (Stats, Vec<Vec<cdpor_sched::Event>>) {
        let mut engine = Engine::new(alg);
        let mut taken = Vec::new();
        while let Some(req) = engine.next_request().cloned() {
            let run = sim::run(prog, &req, 10_000);
            engine.record(&run.trace()).expect("deterministic");
            taken.push(run.events.clone());
        }
        (engine.stats(), taken)
    }

    proptest! {
        #![proptest_config(crate::engine::tests::random::config(200, 0xa4ea_d026))]

        /// Running ahead takes in the very executions of one worker, in the same order;
        /// for optimal and none every execution run ahead is used.
        #[test]
        fn running_ahead_explores_what_one_worker_does(
            prog in prop_oneof![
                crate::engine::tests::random::program(),
                crate::engine::tests::random::await_program(),
                crate::engine::tests::random::barrier_program(),
            ],
            workers in 2..5usize,
            seed in any::<u64>(),
        ) {
            prop_assume!(sim::explore(&prog, Algorithm::None, 3_000).is_some());
            for alg in [Algorithm::Optimal, Algorithm::Source, Algorithm::Classic, Algorithm::None] {
                let (stats, taken) = sequential(&prog, alg);
                let (par, par_taken, wasted) = explore_ahead(&prog, alg, workers, seed);
                prop_assert_eq!(stats, par);
                prop_assert!(taken == par_taken, "{:?}: another order of executions", alg);
                if matches!(alg, Algorithm::Optimal | Algorithm::None) {
                    prop_assert_eq!(wasted, 0, "{:?}: a forecast not made", alg);
                }
            }
        }
    }
}
