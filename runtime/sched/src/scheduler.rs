//! The decisions made at every visible event of an execution: which thread runs (follow
//! the schedule the engine asked for, then run freely, keeping the running thread when it
//! may continue and never choosing a thread in the sleep set), and which alternative an
//! operation with several takes (the schedule's, then the first).
//!
//! A probe (`Probe`) is an execution the engine runs before exploring, to find bugs that
//! exploration would reach late: its free choices follow a fixed pattern (main first for
//! a while, then the other threads in turn or one after the other) or a random walk,
//! with the end of the program last, and its alternatives a seeded hash. It proves nothing; what it finds
//! is a real execution, replayed like any other.
//!
//! The runtime inside the checked program and the engine's test simulator both drive
//! executions through this one type, so the engine is tested against the same policy the
//! real programs run under.

use crate::event::{Event, Step, ThreadSet, Tid, MAX_THREADS};
use crate::ops::dependent;

/// What to do at a scheduling point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pick {
    Run(Tid),
    /// No thread is enabled and no thread is alive: the program is done.
    Done,
    /// No thread is enabled but some are alive.
    Deadlock,
    /// Every enabled thread sleeps: this execution would only repeat explored ones.
    SleepBlocked,
    /// The step bound was reached.
    StepBound,
    /// The schedule names a thread that is not enabled here.
    Diverged(Tid),
}

/// How a probe makes its free choices.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Probe {
    /// Main is preferred for this many steps of the execution (`u16::MAX`: throughout).
    pub lead: u16,
    /// The other threads take turns at every event, rather than each running on until
    /// it cannot.
    pub alternate: bool,
    /// The other threads in decreasing order of number (the youngest first).
    pub descending: bool,
    /// Picks the alternatives of operations that have several.
    pub seed: u32,
    /// The thread that runs is drawn from the seed at every event (a random walk; the
    /// end of the program still waits), instead of following the pattern.
    pub random: bool,
}

impl Probe {
    /// As the execution request carries it (`shm::Header::probe`): 0 is no probe.
    pub fn encode(self) -> u64 {
        1 | (self.alternate as u64) << 1
            | (self.descending as u64) << 2
            | (self.random as u64) << 3
            | (self.lead as u64) << 16
            | (self.seed as u64) << 32
    }

    pub fn decode(v: u64) -> Option<Probe> {
        (v & 1 != 0).then_some(Probe {
            lead: (v >> 16) as u16,
            alternate: v & 2 != 0,
            descending: v & 4 != 0,
            random: v & 8 != 0,
            seed: (v >> 32) as u32,
        })
    }

    /// The probes to run, those of `indices` in one series: every other one a random
    /// walk, the others every pattern, over leads from none to all; each probe with its
    /// own seed.
    pub fn series(indices: std::ops::Range<u32>) -> impl Iterator<Item = Probe> {
        const LEADS: [u16; 16] = [u16::MAX, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24, 32, 48];
        indices.map(|i| {
            let k = i / 2;
            Probe {
                lead: LEADS[(k / 4) as usize % LEADS.len()],
                alternate: k & 1 != 0,
                descending: k & 2 != 0,
                // Each probe draws its own alternatives: with one seed for a round of
                // patterns, a first nondeterministic value drawn before any thread
                // runs would be the same in all of them.
                seed: i,
                random: i & 1 != 0,
            }
        })
    }

    /// A number below `n` drawn from the seed for this step (`salt` tells apart the
    /// draws of one step).
    fn draw(self, step: usize, salt: u64, n: u32) -> u32 {
        // splitmix64: any fixed mixing of seed and step will do.
        let mut z = ((self.seed as u64) << 32 ^ step as u64 ^ salt << 28)
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as u32
    }

    fn choice(self, step: usize, n: u32) -> u32 {
        self.draw(step, 0, n)
    }

    /// Among `candidates` (not empty), with `ending` those whose event ends the program.
    fn pick(
        self,
        step: usize,
        cur: Option<Tid>,
        yielding: bool,
        candidates: ThreadSet,
        ending: ThreadSet,
    ) -> Tid {
        let rest = candidates.minus(ending);
        let pool = if rest.is_empty() { candidates } else { rest };
        if self.random {
            let k = self.draw(step, 1, pool.len() as u32);
            return pool.iter().nth(k as usize).expect("k < len");
        }
        let main_spins = yielding && cur == Some(0);
        if pool.contains(0) && (pool.len() == 1 || step < self.lead as usize && !main_spins) {
            return 0;
        }
        // No allocation: this runs in the forked execution.
        let mut others = pool;
        others.remove(0);
        let first = if self.descending {
            others.iter().last()
        } else {
            others.first()
        }
        .expect("a thread besides main");
        // The next one after `c` in the order, going round.
        let next_after = |c: Tid| {
            if self.descending {
                others.iter().filter(|&t| t < c).last()
            } else {
                others.iter().find(|&t| t > c)
            }
            .unwrap_or(first)
        };
        match cur {
            Some(c) if others.contains(c) && !(self.alternate || yielding) => c,
            Some(c) if others.contains(c) => next_after(c),
            // After a thread not among them (main, or one that cannot go on), turns
            // keep going round.
            Some(c) if c != 0 && self.alternate => next_after(c),
            _ => first,
        }
    }
}

pub struct Scheduler<'a> {
    schedule: &'a [Step],
    /// Sleeping threads' next events; a sleeper wakes when a dependent event executes.
    sleep: &'a [Event],
    /// Entry `i` set: `sleep[i]` has woken up. (No allocation: this runs in every forked
    /// execution, where each page written costs a copy.)
    woken: ThreadSet,
    /// The sleep set applies from this step on (the point where the execution diverges
    /// from the previous one).
    sleep_from: usize,
    step: usize,
    max_steps: usize,
    /// The running thread spins without changing anything: the next free choice goes to
    /// another thread if one can run (fairness, so that a spinner does not keep the
    /// processor from the thread it waits for).
    yielding: bool,
    /// The thread of the last event, and how many events in a row it has run.
    last: Option<Tid>,
    run: usize,
    probe: Option<Probe>,
    /// `schedule` is a prefix, the rest to come (`shm::Header::partial`).
    partial: bool,
}

/// Events a thread runs in a row, at most, while another thread could run and the
/// choice is free: then it lets another run (fairness, so that a thread that polls and
/// writes each round does not keep the processor until `--max-steps` cuts the
/// execution, before the thread it waits for could act). Long enough that no ordinary
/// run of a thread is split.
pub const SLICE: usize = 1000;

impl<'a> Scheduler<'a> {
    /// `sleep` holds at most `MAX_THREADS` events (one per thread).
    pub fn new(
        schedule: &'a [Step],
        sleep: &'a [Event],
        sleep_from: usize,
        max_steps: usize,
    ) -> Self {
        Scheduler {
            schedule,
            sleep: &sleep[..sleep.len().min(MAX_THREADS)],
            woken: ThreadSet::EMPTY,
            sleep_from,
            step: 0,
            max_steps,
            yielding: false,
            last: None,
            run: 0,
            probe: None,
            partial: false,
        }
    }

    /// `schedule` is only a prefix of the execution's: once it is followed, the whole
    /// request must be handed in (`complete`) before the next choice.
    pub fn partial(mut self, partial: bool) -> Self {
        self.partial = partial;
        self
    }

    /// Whether the next choice needs the rest of a partial request.
    pub fn wants_rest(&self) -> bool {
        self.partial && self.step >= self.schedule.len()
    }

    /// The whole request, of which the schedule followed so far was a prefix. No sleeper
    /// can have woken yet: a sleep set applies from the point where the execution leaves
    /// the last one, never within the prefix that both certainly share.
    pub fn complete(&mut self, schedule: &'a [Step], sleep: &'a [Event], sleep_from: usize) {
        debug_assert!(sleep_from >= self.step && self.woken.is_empty());
        self.schedule = schedule;
        self.sleep = &sleep[..sleep.len().min(MAX_THREADS)];
        self.sleep_from = sleep_from;
        self.partial = false;
    }

    /// Free choices follow `probe` instead of keeping the running thread.
    pub fn probing(mut self, probe: Option<Probe>) -> Self {
        self.probe = probe;
        self
    }

    /// Does a probe make the free choices (`pick_ending` then wants the threads whose
    /// next event ends the program)?
    pub fn is_probe(&self) -> bool {
        self.probe.is_some()
    }

    /// For a probe's choice of a nondeterministic value, whether to repeat one of the
    /// `earlier` values this execution chose, and which: bugs often need values to be
    /// equal (every thread drawing the bound main drew), which independent draws from
    /// wide domains rarely are. A third of the probes always repeat, a third never do,
    /// and the others toss a coin at each value.
    pub fn repeat(&self, earlier: usize) -> Option<usize> {
        let (None, Some(p)) = (self.schedule.get(self.step), self.probe) else {
            return None;
        };
        // Which third: drawn for the probe as a whole.
        let repeats = match p.draw(0, 3, 3) {
            0 => true,
            1 => false,
            _ => p.draw(self.step, 1, 2) == 0,
        };
        (earlier > 0 && repeats).then(|| p.draw(self.step, 2, earlier as u32) as usize)
    }

    /// Number of events executed so far.
    pub fn step(&self) -> usize {
        self.step
    }

    fn asleep(&self) -> ThreadSet {
        let mut s = ThreadSet::EMPTY;
        if self.step >= self.sleep_from {
            for (i, e) in self.sleep.iter().enumerate() {
                if !self.woken.contains(i as Tid) {
                    s.insert(e.tid());
                }
            }
        }
        s
    }

    /// Chooses the thread that performs the next event. `cur` is the thread that ran last.
    pub fn pick(&self, cur: Option<Tid>, enabled: ThreadSet, live: ThreadSet) -> Pick {
        self.pick_ending(cur, enabled, live, ThreadSet::EMPTY)
    }

    /// `pick`, where `ending` holds the enabled threads whose next event ends the
    /// program (a probe runs them last).
    pub fn pick_ending(
        &self,
        cur: Option<Tid>,
        enabled: ThreadSet,
        live: ThreadSet,
        ending: ThreadSet,
    ) -> Pick {
        if enabled.is_empty() {
            return if live.is_empty() {
                Pick::Done
            } else {
                Pick::Deadlock
            };
        }
        if self.step >= self.max_steps {
            return Pick::StepBound;
        }
        if let Some(s) = self.schedule.get(self.step) {
            return if enabled.contains(s.tid) {
                Pick::Run(s.tid)
            } else {
                Pick::Diverged(s.tid)
            };
        }
        let candidates = enabled.minus(self.asleep());
        if let (Some(p), false) = (self.probe, candidates.is_empty()) {
            return Pick::Run(p.pick(self.step, cur, self.yielding, candidates, ending));
        }
        let long = self.run >= SLICE && self.last == cur;
        match cur {
            Some(c) if (self.yielding || long) && candidates.iter().any(|t| t != c) => {
                let next = candidates.iter().find(|&t| t > c);
                Pick::Run(next.unwrap_or_else(|| candidates.first().expect("a candidate")))
            }
            Some(c) if candidates.contains(c) => Pick::Run(c),
            _ => candidates.first().map_or(Pick::SleepBlocked, Pick::Run),
        }
    }

    /// Which of `n` alternatives the event being executed takes. A choice the schedule
    /// names but that does not exist here (a wakeup sequence's last event may meet a
    /// state with fewer alternatives) falls back to the first.
    pub fn choice(&self, n: u32) -> u32 {
        match (self.schedule.get(self.step), self.probe) {
            (Some(s), _) if s.choice < n => s.choice,
            (None, Some(p)) if n > 1 => p.choice(self.step, n),
            _ => 0,
        }
    }

    /// The running thread gives the processor up at the next free choice.
    pub fn yield_turn(&mut self) {
        self.yielding = true;
    }

    /// Records that `ev` executed: sleepers it conflicts with wake up.
    pub fn executed(&mut self, ev: &Event) {
        self.yielding = false;
        if self.last == Some(ev.tid) {
            self.run += 1;
        } else {
            (self.last, self.run) = (Some(ev.tid), 1);
        }
        if self.step >= self.sleep_from {
            for (i, s) in self.sleep.iter().enumerate() {
                if !self.woken.contains(i as Tid) && dependent(s, ev) {
                    self.woken.insert(i as Tid);
                }
            }
        }
        self.step += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Kind;

    fn set(ts: &[Tid]) -> ThreadSet {
        ts.iter().copied().collect()
    }

    fn steps(ts: &[Tid]) -> Vec<Step> {
        ts.iter().map(|&tid| Step { tid, choice: 0 }).collect()
    }

    #[test]
    fn follows_schedule_then_keeps_running_thread() {
        let sched = steps(&[1, 2]);
        let mut s = Scheduler::new(&sched, &[], 0, 100);
        assert_eq!(
            s.pick(Some(0), set(&[0, 1, 2]), set(&[0, 1, 2])),
            Pick::Run(1)
        );
        s.executed(&Event::new(1, Kind::Fence));
        assert_eq!(
            s.pick(Some(1), set(&[0, 1]), set(&[0, 1, 2])),
            Pick::Diverged(2)
        );
        s.executed(&Event::new(2, Kind::Fence));
        assert_eq!(s.pick(Some(2), set(&[0, 2]), set(&[0, 2])), Pick::Run(2));
        assert_eq!(s.pick(Some(2), set(&[0, 1]), set(&[0, 1, 2])), Pick::Run(0));
    }

    #[test]
    fn choices_follow_the_schedule_then_take_the_first() {
        let sched = [Step { tid: 0, choice: 2 }, Step { tid: 0, choice: 5 }];
        let mut s = Scheduler::new(&sched, &[], 0, 100);
        assert_eq!(s.choice(3), 2);
        s.executed(&Event::new(0, Kind::Fence));
        assert_eq!(s.choice(3), 0, "a choice that does not exist here");
        s.executed(&Event::new(0, Kind::Fence));
        assert_eq!(s.choice(3), 0);
    }

    #[test]
    fn sleepers_are_avoided_until_woken() {
        let sleeper = Event::mem(1, Kind::Read, 64, 4);
        let sleep = [sleeper];
        let mut s = Scheduler::new(&[], &sleep, 0, 100);
        assert_eq!(s.pick(Some(1), set(&[0, 1]), set(&[0, 1])), Pick::Run(0));
        s.executed(&Event::mem(0, Kind::Write, 128, 4));
        assert_eq!(s.pick(Some(0), set(&[1]), set(&[0, 1])), Pick::SleepBlocked);
        s.executed(&Event::mem(0, Kind::Write, 64, 4));
        assert_eq!(s.pick(Some(0), set(&[1]), set(&[0, 1])), Pick::Run(1));
    }

    #[test]
    fn a_yielding_thread_gives_the_processor_up() {
        let mut s = Scheduler::new(&[], &[], 0, 100);
        s.yield_turn();
        assert_eq!(
            s.pick(Some(1), set(&[0, 1, 2]), set(&[0, 1, 2])),
            Pick::Run(2)
        );
        assert_eq!(s.pick(Some(2), set(&[0, 2]), set(&[0, 2])), Pick::Run(0));
        assert_eq!(s.pick(Some(1), set(&[1]), set(&[1])), Pick::Run(1), "alone");
        s.executed(&Event::new(1, Kind::Fence));
        assert_eq!(s.pick(Some(1), set(&[0, 1]), set(&[0, 1])), Pick::Run(1));
    }

    #[test]
    fn a_thread_that_ran_a_slice_in_a_row_lets_another_run() {
        let mut s = Scheduler::new(&[], &[], 0, 10 * SLICE);
        for _ in 0..SLICE - 1 {
            assert_eq!(s.pick(Some(1), set(&[1, 2]), set(&[1, 2])), Pick::Run(1));
            s.executed(&Event::new(1, Kind::Fence));
        }
        assert_eq!(s.pick(Some(1), set(&[1, 2]), set(&[1, 2])), Pick::Run(1));
        s.executed(&Event::new(1, Kind::Fence));
        assert_eq!(s.pick(Some(1), set(&[1, 2]), set(&[1, 2])), Pick::Run(2));
        assert_eq!(s.pick(Some(1), set(&[1]), set(&[1])), Pick::Run(1), "alone");
        s.executed(&Event::new(2, Kind::Fence));
        assert_eq!(s.pick(Some(2), set(&[1, 2]), set(&[1, 2])), Pick::Run(2));
    }

    #[test]
    fn probes_round_trip_through_the_request() {
        for p in Probe::series(0..300) {
            assert_eq!(Probe::decode(p.encode()), Some(p));
        }
        assert_eq!(Probe::decode(0), None);
    }

    #[test]
    fn a_probe_lets_main_lead_then_runs_the_others_in_turn_and_the_end_last() {
        let probe = Probe {
            lead: 2,
            alternate: true,
            descending: false,
            seed: 0,
            random: false,
        };
        let mut s = Scheduler::new(&[], &[], 0, 100).probing(Some(probe));
        let all = set(&[0, 1, 2]);
        let none = ThreadSet::EMPTY;
        assert_eq!(s.pick_ending(Some(0), all, all, none), Pick::Run(0));
        s.executed(&Event::new(0, Kind::Fence));
        assert_eq!(s.pick_ending(Some(0), all, all, none), Pick::Run(0));
        s.executed(&Event::new(0, Kind::Fence));
        assert_eq!(s.pick_ending(Some(0), all, all, none), Pick::Run(1));
        assert_eq!(s.pick_ending(Some(1), all, all, none), Pick::Run(2));
        assert_eq!(s.pick_ending(Some(2), all, all, none), Pick::Run(1));
        assert_eq!(s.pick_ending(Some(2), all, all, set(&[1])), Pick::Run(2));
        assert_eq!(s.pick_ending(Some(2), set(&[0]), all, none), Pick::Run(0));
        let one_by_one = Probe {
            lead: 0,
            alternate: false,
            descending: true,
            ..probe
        };
        let s = Scheduler::new(&[], &[], 0, 100).probing(Some(one_by_one));
        assert_eq!(s.pick_ending(Some(0), all, all, set(&[0])), Pick::Run(2));
        assert_eq!(s.pick_ending(Some(1), all, all, none), Pick::Run(1));
    }

    #[test]
    fn a_random_probe_walks_among_the_threads_and_ends_last() {
        let probe = Probe {
            lead: 0,
            alternate: false,
            descending: false,
            seed: 3,
            random: true,
        };
        let mut s = Scheduler::new(&[], &[], 0, 1000).probing(Some(probe));
        let all = set(&[0, 1, 2]);
        let mut ran = [0; 3];
        for _ in 0..300 {
            match s.pick_ending(Some(0), all, all, set(&[0])) {
                Pick::Run(t) => ran[t as usize] += 1,
                p => panic!("{p:?}"),
            }
            s.executed(&Event::new(0, Kind::Fence));
        }
        assert_eq!(ran[0], 0, "the end of the program waits");
        assert!(ran[1] > 100 && ran[2] > 100, "{ran:?}");
    }

    #[test]
    fn a_probe_takes_alternatives_by_its_seed_and_a_schedule_first() {
        let probe = Probe {
            lead: 0,
            alternate: false,
            descending: false,
            seed: 7,
            random: false,
        };
        let mut s = Scheduler::new(&[], &[], 0, 100).probing(Some(probe));
        let mut seen = [false; 4];
        for _ in 0..64 {
            seen[s.choice(4) as usize] = true;
            s.executed(&Event::new(0, Kind::Fence));
        }
        assert_eq!(seen, [true; 4], "every alternative, over enough steps");
        let sched = [Step { tid: 0, choice: 3 }];
        let s = Scheduler::new(&sched, &[], 0, 100).probing(Some(probe));
        assert_eq!(s.choice(4), 3);
    }

    #[test]
    fn ends() {
        let s = Scheduler::new(&[], &[], 0, 0);
        assert_eq!(s.pick(None, set(&[]), set(&[])), Pick::Done);
        assert_eq!(s.pick(None, set(&[]), set(&[1])), Pick::Deadlock);
        assert_eq!(s.pick(None, set(&[1]), set(&[1])), Pick::StepBound);
    }
}
