//! Executions that run past `--exec-timeout` without a visible operation (a loop that
//! never ends in some interleavings). Such an execution cannot be finished, but the
//! others can: stopping the run at the first one hid errors that other executions reach
//! (an assertion that fails where the loop is not entered). So a hung execution is cut
//! where it stopped, like one cut by a bound, and exploration goes on: an error found
//! elsewhere is the answer; with none, the run still ends on the hang (exit 2).
//!
//! The first hang is confirmed with the whole timeout (`Executor::run` runs it twice).
//! Once the program has shown that it can loop, waiting that long again for each
//! execution that does would make a run whose executions all hang take ages; later
//! executions get a shorter time, `LONGER` times the longest one that finished (at
//! least `SHORTEST`), and all of them together no more than `--exec-timeout` again.
//! A slow execution taken for a hang then is only a cut more, in a run that ends on a
//! hang anyway unless an error is found.

use std::time::Duration;

use crate::executor::{End, Execution};
use crate::explore::Fatal;

/// How many times longer than the longest finished execution a later one may run.
const LONGER: u32 = 20;
/// The least time a later execution gets.
const SHORTEST: Duration = Duration::from_millis(500);

pub struct Hangs {
    timeout: Duration,
    /// The first hang, as the run ends on it if no error is found.
    first: Option<Fatal>,
    /// Hung executions, the first included.
    pub count: u64,
    /// Time given to the hung executions after the first.
    spent: Duration,
    /// The longest run of an execution that finished.
    longest: Duration,
}

impl Hangs {
    pub fn new(timeout: Duration) -> Hangs {
        Hangs {
            timeout,
            first: None,
            count: 0,
            spent: Duration::ZERO,
            longest: Duration::ZERO,
        }
    }

    /// The time an execution may take, if less than `--exec-timeout`.
    pub fn limit(&self) -> Option<Duration> {
        self.first.as_ref()?;
        Some((self.longest * LONGER).max(SHORTEST).min(self.timeout))
    }

    /// An execution that finished, in `run`.
    pub fn finished(&mut self, run: Duration) {
        self.longest = self.longest.max(run);
    }

    /// Execution number `index` (`x`) ran past `limit` (`None`: `--exec-timeout`).
    /// Whether exploration may go on: not once the later hangs took as long as
    /// `--exec-timeout` in all.
    pub fn hung(&mut self, index: u64, x: &Execution, limit: Option<Duration>) -> bool {
        self.count += 1;
        match self.first {
            None => self.first = Some(fatal(index, x, self.timeout)),
            Some(_) => self.spent += limit.unwrap_or(self.timeout),
        }
        self.spent < self.timeout
    }

    /// What ends the run when no error was found: the first hang, and how many more of
    /// the `explored` executions hung too.
    pub fn fatal(self, explored: u64) -> Option<Fatal> {
        let gave = self.spent >= self.timeout;
        let mut f = self.first?;
        if let Fatal::Hang {
            others,
            explored: e,
            gave_up,
            ..
        } = &mut f
        {
            (*others, *e, *gave_up) = (self.count - 1, explored, gave);
        }
        Some(f)
    }
}

/// The time an execution may take below `--exec-timeout`: what is `left` of
/// `--time-limit`, or the `limit` after a hang, whichever is shorter.
pub fn allowed(left: Option<Duration>, limit: Option<Duration>) -> Option<Duration> {
    [left, limit].into_iter().flatten().min()
}

/// Execution `index` (`x`) did not finish within `timeout`: a thread ran without a
/// visible operation, or slept in a system call.
pub fn fatal(index: u64, x: &Execution, timeout: Duration) -> Fatal {
    let End::TimedOut { running, syscall } = x.end else {
        unreachable!("only an execution that timed out hangs")
    };
    let last = x
        .events
        .iter()
        .rev()
        .find(|e| e.tid() == running)
        .map(|e| e.site);
    Fatal::Hang {
        execution: index,
        thread: x.names().thread(running),
        last,
        timeout,
        syscall,
        others: 0,
        explored: index,
        gave_up: false,
    }
}
