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
}

impl<R> Ahead<R> {
    pub fn new(cap: usize) -> Ahead<R> {
        Ahead {
            slots: Vec::new(),
            cap,
            next_id: 0,
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

    /// A worker exploring a forecast's subtree with an engine of its own
    /// (`Engine::fork_for`) runs `req`: the engine, should it ask for it, waits for
    /// it rather than have it run twice. When no room is left, the oldest result goes.
    pub fn announce(&mut self, req: Request) {
        if !self.has(&req) {
            self.make_room();
            self.hand_out(req);
        }
    }

    /// The result of a request announced (or not, if it was dropped since).
    pub fn offer(&mut self, req: Request, r: R) {
        match self.position(&req) {
            Some(i) if self.slots[i].result.is_none() => self.slots[i].result = Some(r),
            Some(_) => {}
            None => {
                self.make_room();
                let id = self.hand_out(req);
                self.result(id, r);
            }
        }
    }

    fn make_room(&mut self) {
        // When all are in flight, one more goes over the room.
        if !self.room() {
            if let Some(oldest) = self.slots.iter().position(|s| s.result.is_some()) {
                self.slots.remove(oldest);
            }
        }
    }

    /// The engine planned `next`, leaving its current path at `d = next.sleep_from`:
    /// every node below is cut, and the branch planned there is planned there once. So a
    /// request on the same path down to `d` that leaves it at `d` (other than `next`), or
    /// below `d` in another branch of node `d`, is never made.
    pub fn planned(&mut self, next: &Request) {
        let d = next.sleep_from;
        let dead = |r: &Request| {
            r.sleep_from >= d
                && r.schedule.get(..d) == next.schedule.get(..d)
                && (r.sleep_from == d || r.schedule.get(d) != next.schedule.get(d))
        };
        self.slots.retain(|s| s.req == *next || !dead(&s.req));
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

    /// What a worker is doing: a request handed out (`id`), or a request of the subtree
    /// it explores ahead with an engine of its own (`id` none).
    struct Work {
        id: Option<u64>,
        req: Request,
        fork: Option<(Engine, usize)>,
    }

    /// Explores `prog` as `workers` workers would, in a seeded random order of hand-outs,
    /// finished executions, subtrees explored ahead and the engine taking results in;
    /// returns the engine's stats, every execution it took in (in order), and how many
    /// results it took in that a worker ran ahead.
    fn explore_ahead(
        prog: &Program,
        alg: Algorithm,
        workers: usize,
        seed: u64,
    ) -> (Stats, Vec<Vec<cdpor_sched::Event>>, u64) {
        let mut rng = Choices(seed);
        let mut engine = Engine::new(alg);
        let mut ahead: Ahead<sim::Run> = Ahead::new(3 * workers);
        let mut busy: Vec<Option<Work>> = (0..workers).map(|_| None).collect();
        let mut taken = Vec::new();
        let mut hits = 0;
        // The request asked for last, and whether it had run or was running ahead then.
        let mut asked: Option<(Request, bool)> = None;
        while let Some(req) = engine.next_request().cloned() {
            if asked.as_ref().is_none_or(|(r, _)| *r != req) {
                ahead.planned(&req);
                asked = Some((req.clone(), ahead.has(&req)));
            }
            if let Some(run) = ahead.take(&req) {
                engine.record(&run.trace()).expect("deterministic");
                taken.push(run.events.clone());
                hits += u64::from(asked.as_ref().is_some_and(|a| a.1));
                continue;
            }
            // A worker that explores ahead on its own gives way to what the engine needs.
            let free = |w: &Option<Work>| w.as_ref().is_none_or(|w| w.id.is_none());
            let idle = busy.iter().position(Option::is_none);
            match (ahead.has(&req), busy.iter().position(free)) {
                (false, Some(w)) => {
                    // One exploring ahead finishes the execution it announced first.
                    if let Some(work) = busy[w].take() {
                        ahead.offer(work.req.clone(), sim::run(prog, &work.req, 10_000, false));
                    }
                    let id = ahead.hand_out(req.clone());
                    let fork = None;
                    busy[w] = Some(Work {
                        id: Some(id),
                        req,
                        fork,
                    });
                }
                _ if rng.below(2) == 0 || idle.is_none() => {
                    // A worker finishes (any one: they run at their own pace).
                    let busy_ones: Vec<usize> =
                        (0..workers).filter(|&w| busy[w].is_some()).collect();
                    let w = busy_ones[rng.below(busy_ones.len())];
                    let work = busy[w].take().expect("busy");
                    let run = sim::run(prog, &work.req, 10_000, false);
                    let next = work.fork.and_then(|(mut fork, root)| {
                        fork.record(&run.trace()).expect("deterministic");
                        let next = fork.next_request()?.clone();
                        (next.sleep_from >= root && rng.below(8) != 0).then_some(Work {
                            id: None,
                            req: next,
                            fork: Some((fork, root)),
                        })
                    });
                    match work.id {
                        Some(id) => ahead.result(id, run),
                        None => ahead.offer(work.req, run),
                    }
                    if let Some(next) = &next {
                        ahead.announce(next.req.clone());
                    }
                    busy[w] = next;
                }
                _ => {
                    if let (Some(f), Some(w)) = (ahead.to_run_ahead(&engine), idle) {
                        let id = ahead.hand_out(f.clone());
                        let fork = engine.fork_for(&f);
                        assert_eq!(fork.next_request(), Some(&f), "a fork plans its forecast");
                        let fork = Some((fork, f.sleep_from));
                        busy[w] = Some(Work {
                            id: Some(id),
                            req: f,
                            fork,
                        });
                    }
                }
            }
        }
        (engine.stats(), taken, hits)
    }

    fn sequential(prog: &Program, alg: Algorithm) -> (Stats, Vec<Vec<cdpor_sched::Event>>) {
        let mut engine = Engine::new(alg);
        let mut taken = Vec::new();
        while let Some(req) = engine.next_request().cloned() {
            let run = sim::run(prog, &req, 10_000, false);
            engine.record(&run.trace()).expect("deterministic");
            taken.push(run.events.clone());
        }
        (engine.stats(), taken)
    }

    /// Optimal: most executions have run ahead when the engine asks for them.
    #[test]
    fn forecasts_are_used_and_subtrees_explored_ahead_are_too() {
        let prog = Program::lastzero(6);
        for alg in [Algorithm::Optimal, Algorithm::Source] {
            let (stats, _) = sequential(&prog, alg);
            let n = stats.executions + stats.blocked;
            let (_, _, hits) = explore_ahead(&prog, alg, 4, 7);
            if alg == Algorithm::Optimal {
                assert!(hits * 2 > n, "{alg:?}: {hits} of {n} ran ahead");
            }
        }
    }

    proptest! {
        #![proptest_config(crate::engine::tests::random::config(200, 0xa4ea_d026))]

        /// Running ahead takes in the very executions of one worker, in the same order.
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
                let (par, par_taken, _) = explore_ahead(&prog, alg, workers, seed);
                prop_assert_eq!(stats, par);
                prop_assert!(taken == par_taken, "{:?}: another order of executions", alg);
            }
        }
    }
}
