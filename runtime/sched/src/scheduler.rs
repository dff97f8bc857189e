//! The decisions made at every visible event of an execution: which thread runs (follow
//! the schedule the engine asked for, then run freely, keeping the running thread when it
//! may continue and never choosing a thread in the sleep set), and which alternative an
//! operation with several takes (the schedule's, then the first).
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
}

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
        }
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
        match cur {
            Some(c) if self.yielding && candidates.iter().any(|t| t != c) => {
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
        match self.schedule.get(self.step) {
            Some(s) if s.choice < n => s.choice,
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
    fn ends() {
        let s = Scheduler::new(&[], &[], 0, 0);
        assert_eq!(s.pick(None, set(&[]), set(&[])), Pick::Done);
        assert_eq!(s.pick(None, set(&[]), set(&[1])), Pick::Deadlock);
        assert_eq!(s.pick(None, set(&[1]), set(&[1])), Pick::StepBound);
    }
}
