//! The exploration loop: asks the engine for a schedule, runs it, hands the trace back,
//! and keeps what the user needs to know (errors found, counts, why it stopped).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use std::collections::{BTreeMap, BTreeSet};

use cdpor_sched::ops::awaits;
use cdpor_sched::shm::Fallback;
use cdpor_sched::{Kind, Step};

use crate::engine::hb::Later;
use crate::engine::{Algorithm, Engine, Request, Stats, Trace, TraceEnd};
use crate::executor::{
    End, ExecOptions, Execution, Executor, FellBack, Placement, Reset, RunOptions,
};
use crate::hangs::Hangs;
use crate::pool::{Pool, Switch};
use crate::program::Program;
use crate::schedule::Parsed;
use cdpor_sched::shm::REPLACED_KINDS;

#[derive(Clone, Debug)]
pub struct Options {
    pub algorithm: Algorithm,
    pub keep_going: bool,
    pub max_steps: usize,
    pub max_executions: Option<u64>,
    pub time_limit: Option<Duration>,
    pub exec_timeout: Duration,
    pub progress: bool,
    /// Probe executions to run before exploring, to find a bug that exploration would
    /// reach late.
    pub probes: Probes,
    /// What the runtime is told (SV-COMP conventions, bounds on threads and values).
    pub run: RunOptions,
    /// How a worker gets back to the state before an execution.
    pub reset: Reset,
    /// Workers running executions at once (`--threads`), and how long one worker's
    /// executions must take before more run ahead (`pool::Switch`; default 100 us).
    pub threads: usize,
    pub run_ahead_from: Option<Duration>,
}

/// Probe executions (`scheduler::Probe`): how many, from which one of the series, the
/// bounds they run under (`--unroll`, `--max-threads`), and the time they may take
/// (default: a tenth of the time limit).
#[derive(Clone, Copy, Debug, Default)]
pub struct Probes {
    pub count: u32,
    pub from: u32,
    pub unroll: u32,
    pub max_threads: u32,
    pub time: Option<Duration>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum ErrorKind {
    Assertion,
    Deadlock,
    Crash,
    Abort,
    Livelock,
    Memory,
    Misuse,
    DataRace,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Assertion => "assertion",
            ErrorKind::Deadlock => "deadlock",
            ErrorKind::Crash => "crash",
            ErrorKind::Abort => "abort",
            ErrorKind::Livelock => "livelock",
            ErrorKind::Memory => "memory",
            ErrorKind::Misuse => "misuse",
            ErrorKind::DataRace => "data-race",
        }
    }
}

/// An error, with the first execution that showed it.
#[derive(Clone, Debug)]
pub struct Found {
    pub kind: ErrorKind,
    pub execution: Execution,
    pub schedule: Vec<Step>,
    /// Number of the execution (1-based) that found it.
    pub index: u64,
    /// That execution was a probe, run before exploring.
    pub probe: bool,
    /// Failing executions that showed the same error (same kind and place).
    pub count: u64,
}

impl Found {
    /// What makes two failing executions "the same error": the assertion and its place,
    /// the faulting instruction, or for a deadlock, where each blocked thread waits.
    fn key(&self) -> (ErrorKind, String) {
        let x = &self.execution;
        let place = match &x.end {
            End::Assertion { site, expr, .. } => format!("{site}:{expr}"),
            End::ReachError { site, .. } => site.to_string(),
            End::Abort { site, .. } => site.to_string(),
            End::Memory { site, fault, .. } => format!("{site}:{}", fault.what),
            End::Misuse { site, what, .. } => format!("{site}:{what}"),
            End::DataRace { first, second, .. } => {
                let mut sites = [x.events[*first].site, second.site];
                sites.sort();
                format!("{sites:?}")
            }
            End::Crash {
                site, signal, pc, ..
            } => format!("{site}:{signal}:{pc:#x}"),
            End::Died(s) => s.clone(),
            End::Deadlock | End::Livelock => {
                let mut waits: Vec<(u32, u8, u32)> =
                    x.blocked.iter().map(|b| (b.tid, b.kind, b.site)).collect();
                waits.sort();
                format!("{waits:?}")
            }
            _ => String::new(),
        };
        (self.kind, place)
    }
}

/// Why exploration stopped before covering everything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cut {
    MaxExecutions(u64),
    TimeLimit(Duration),
    /// SIGINT or SIGTERM (the signal's number).
    Interrupted(i32),
    /// Executions that ran past `--exec-timeout` took as long again in all (`hangs`).
    Hangs,
}

pub struct Summary {
    pub stats: Stats,
    /// Executions that ended on a false assumption (also counted in `stats`).
    pub assume_blocked: u64,
    /// Executions that ended with a thread spinning on what another thread changed
    /// after it read it, which other executions cover (also counted in `stats`).
    pub stale_spins: u64,
    /// Executions cut by `--max-threads` (also counted in `stats.bounded`).
    pub thread_bounded: u64,
    /// Executions cut by `--unroll` (also counted in `stats.bounded`).
    pub loop_bounded: u64,
    /// Executions cut where a timed wait could time out again (also in `stats.bounded`).
    pub timeouts_cut: u64,
    /// Executions cut where they ran past `--exec-timeout` (also in `stats.bounded`).
    pub hung: u64,
    /// The sites of the loops that `--unroll` cut.
    pub unrolled: BTreeSet<u32>,
    /// Executions that deadlocked where a deadlock is no error (`--svcomp`).
    pub stuck: u64,
    /// Nondeterministic values explored over part of their type, by site: how many
    /// values were tried.
    pub restricted: BTreeMap<u32, u32>,
    pub errors: Vec<Found>,
    pub failing: u64,
    pub cut: Option<Cut>,
    pub elapsed: Duration,
    /// Probe executions run before exploring (not in `stats`).
    pub probes: u64,
    /// Where executions ran and how their time went.
    pub workers: Workers,
    /// Every order of arrival at barriers was explored (a barrier was used by more
    /// threads than it waits for, or `--ordered-barriers`): replay needs it too.
    pub ordered_barriers: bool,
}

/// How the executions of a run were run.
#[derive(Clone, Debug, Default)]
pub struct Workers {
    pub reset: Reset,
    /// Why in-place reset stopped for the rest of the run, if it did.
    pub fell_back: Option<FellBack>,
    /// Worker processes forked.
    pub forked: u32,
    /// In-place workers replaced after an execution they could not reset from, by why
    /// (`shm::Replaced`).
    pub replaced: [u32; REPLACED_KINDS],
    /// Time the workers spent running executions (`tail`: the part after the whole
    /// schedule was there, which cdpor waits for; the rest ran while cdpor analysed the
    /// execution before) and resetting after them (while cdpor analyses); time cdpor
    /// waited for them, from each request to its results (the rest of that is the
    /// hand-off, and forks); and cdpor's own (analysing traces, planning, reporting).
    pub run: Duration,
    pub tail: Duration,
    pub resetting: Duration,
    pub waiting: Duration,
    pub engine: Duration,
    /// With `--threads`: executions run ahead of the engine's asking, and of the
    /// executions the engine took in, those that had run or were running ahead.
    pub ran_ahead: u64,
    pub used_ahead: u64,
}

impl Workers {
    /// Adds what the worker processes of an executor, or of a pool, did.
    fn add(&mut self, forked: u32, replaced: [u32; REPLACED_KINDS], fell_back: Option<FellBack>) {
        self.forked += forked;
        for (sum, n) in self.replaced.iter_mut().zip(replaced) {
            *sum += n;
        }
        self.fell_back = self.fell_back.take().or(fell_back);
    }

    fn add_executor(&mut self, x: &Executor) {
        self.add(x.timing().1, x.replaced(), x.fell_back());
    }
}

impl Summary {
    pub fn complete(&self) -> bool {
        self.cut.is_none() && self.stats.bounded == 0 && self.restricted.is_empty()
    }

    /// Executions cut by `--max-steps`.
    pub fn steps_bounded(&self) -> u64 {
        steps_bounded(
            &self.stats,
            &[
                self.loop_bounded,
                self.thread_bounded,
                self.timeouts_cut,
                self.hung,
            ],
        )
    }

    /// Complete executions that were feasible (not ended by an assumption) and not
    /// redundant (not ended by a stale spin).
    pub fn executions(&self) -> u64 {
        self.stats.executions - self.assume_blocked - self.stale_spins
    }
}

/// Of the bounded executions, those no other cut (`others`) accounts for: cut by
/// `--max-steps`.
fn steps_bounded(stats: &Stats, others: &[u64]) -> u64 {
    stats.bounded - others.iter().sum::<u64>()
}

/// A failure that stops exploration without a verdict on the program.
#[derive(Debug)]
pub enum Fatal {
    Nondeterministic(String),
    /// An execution ran past the time limit, or blocked in a system call: `thread` was
    /// running; `last` is the site of its last visible operation, if it had one.
    Hang {
        execution: u64,
        /// The thread's name (`T1.2`).
        thread: String,
        last: Option<u32>,
        timeout: Duration,
        /// The system call the thread was sleeping in.
        syscall: Option<i64>,
        /// Later executions that did not finish either, of the `explored` executions;
        /// `gave_up`: exploration stopped on them (`hangs`).
        others: u64,
        explored: u64,
        gave_up: bool,
    },
    /// The program did something cdpor does not model (at a site).
    Unsupported {
        what: String,
        site: u32,
    },
    Server(String),
    Start(String),
    /// More threads used a barrier than it waits for while its arrivals commuted: the
    /// exploration starts again with them ordered (never shown to a user).
    BarrierOverflow,
}

fn classify(end: &End, svcomp: bool) -> Option<ErrorKind> {
    match end {
        End::Assertion { .. } | End::ReachError { .. } => Some(ErrorKind::Assertion),
        End::Deadlock | End::Livelock if svcomp => None,
        End::Deadlock => Some(ErrorKind::Deadlock),
        End::Livelock => Some(ErrorKind::Livelock),
        End::Crash { .. } | End::Died(_) => Some(ErrorKind::Crash),
        End::Abort { .. } => Some(ErrorKind::Abort),
        End::Memory { .. } => Some(ErrorKind::Memory),
        End::Misuse { .. } => Some(ErrorKind::Misuse),
        End::DataRace { .. } => Some(ErrorKind::DataRace),
        _ => None,
    }
}

/// Whether an error of this kind is the property checked. Under `--svcomp` only
/// `reach_error` (and, with `--races`, a data race) is: a crash is undefined behaviour
/// that SV-COMP does not score on unreach-call, and it may come before a `reach_error`
/// that another interleaving reaches.
fn is_property(kind: ErrorKind, svcomp: bool) -> bool {
    !svcomp || matches!(kind, ErrorKind::Assertion | ErrorKind::DataRace)
}

/// Whether the errors found so far end the exploration.
fn answered(errors: &[Found], opts: &Options) -> bool {
    !opts.keep_going && errors.iter().any(|f| is_property(f.kind, opts.run.svcomp))
}

struct Progress {
    on: bool,
    last: Instant,
}

/// What the live line shows.
struct Counts {
    stats: Stats,
    awaits: u64,
    errors: u64,
    /// Executions cut by each bound so far.
    cut_by: [(&'static str, u64); 5],
}

impl Progress {
    fn tick(&mut self, start: Instant, c: &Counts) {
        if self.on && self.last.elapsed() >= Duration::from_millis(250) {
            self.last = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            let executions = c.stats.executions;
            let rate = (executions + c.stats.blocked + c.stats.bounded) as f64 / secs.max(1e-9);
            let cutting: Vec<String> = (c.cut_by.iter())
                .filter(|b| b.1 > 0)
                .map(|(bound, n)| format!("{n} cut by {bound}"))
                .collect();
            let cutting = if cutting.is_empty() {
                String::new()
            } else {
                format!(", {}", cutting.join(", "))
            };
            let _ = write!(
                std::io::stderr(),
                "\r\x1b[K[cdpor] {executions} executions, {rate:.0}/s, {} blocked, {} awaits, \
                 {} errors{cutting}, {secs:.1} s",
                c.stats.blocked,
                c.awaits,
                c.errors
            );
            let _ = std::io::stderr().flush();
        }
    }

    fn clear(&self) {
        if self.on {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}

/// Probes that `explore_in_rounds` runs before its first round (the others before the
/// next rounds).
pub const FIRST_ROUND_PROBES: u32 = 256;

/// The bounds of one round of `explore_in_rounds`, and its share of the time left.
#[derive(Clone, Copy, Debug)]
pub struct Round {
    pub unroll: u32,
    pub max_threads: u32,
    pub share: f64,
}

/// Explores with small bounds first, then with larger ones: a bug that needs few loop
/// iterations and threads is found before an exploration with large bounds spends its
/// time on long executions. A round that found an error, or that no bound cut, is the
/// answer; the next round starts when a bound (or the round's share of the time) cut
/// this one. The last round has the time left.
pub fn explore_in_rounds(
    program: &Program,
    opts: &Options,
    rounds: &[Round],
) -> Result<Summary, Fatal> {
    let start = Instant::now();
    let mut round = opts.clone();
    let mut rounds = rounds.iter().peekable();
    let mut probes = 0;
    let mut earlier = Vec::new();
    while let Some(r) = rounds.next() {
        let last = rounds.peek().is_none();
        round.run.unroll = r.unroll;
        round.run.max_threads = r.max_threads;
        // A program that a round with small bounds explores whole needs few probes; the
        // rest run before the next round, for a program that does not.
        let left = opts.probes.count.saturating_sub(probes as u32);
        round.probes.count = if last {
            left
        } else {
            left.min(FIRST_ROUND_PROBES)
        };
        round.probes.from = probes as u32;
        if let Some(total) = opts.time_limit {
            let left = total.saturating_sub(start.elapsed());
            round.time_limit = Some(if last { left } else { left.mul_f64(r.share) });
            // The probes before each round may take a tenth of the whole time, not of
            // the round's: a round's small bounds are no reason to probe less.
            round.probes.time = round.probes.time.or(Some(total / 10));
        }
        let mut s = explore(program, &round)?;
        // A barrier that overflowed in this round overflows in the next: no need to
        // find it again.
        round.run.ordered_barriers |= s.ordered_barriers;
        probes += s.probes;
        s.probes = probes;
        if s.errors.is_empty() {
            // Errors other than the property, found with smaller bounds.
            s.errors = std::mem::take(&mut earlier);
        }
        let timed_out = matches!(s.cut, Some(Cut::TimeLimit(_)));
        let larger_bounds_may_tell =
            !answered(&s.errors, opts) && (timed_out || s.cut.is_none() && s.stats.bounded > 0);
        if last || !larger_bounds_may_tell {
            if let (true, Some(total)) = (timed_out, opts.time_limit) {
                s.cut = Some(Cut::TimeLimit(total));
            }
            s.elapsed = start.elapsed();
            return Ok(s);
        }
        earlier = s.errors;
    }
    // No rounds: the options' own bounds.
    explore(program, opts)
}

/// Explores `program`; arrivals at barriers commute unless an execution finds a barrier
/// used by more threads than it waits for (`ops::barrier`): then the program is explored
/// again from the start, with every order of arrival (what was explored is discarded,
/// the time it took is not).
pub fn explore(program: &Program, opts: &Options) -> Result<Summary, Fatal> {
    let start = Instant::now();
    match explore_in_mode(program, opts) {
        Err(Fatal::BarrierOverflow) => {
            let ordered = Options {
                run: RunOptions {
                    ordered_barriers: true,
                    ..opts.run
                },
                time_limit: opts.time_limit.map(|l| l.saturating_sub(start.elapsed())),
                ..opts.clone()
            };
            let mut s = explore_in_mode(program, &ordered)?;
            s.elapsed = start.elapsed();
            Ok(s)
        }
        s => s,
    }
}

fn explore_in_mode(program: &Program, opts: &Options) -> Result<Summary, Fatal> {
    let start = Instant::now();
    // A pool's workers may use them all, wherever placement() pins this thread.
    let cpus = allowed_cpus();
    let exec_opts = ExecOptions {
        max_steps: opts.max_steps,
        timeout: opts.exec_timeout,
        show_output: false,
        cpu: placement(cpus.as_deref()),
        reset: opts.reset,
        verify_reset: false,
        run: opts.run,
    };
    let mut executor = Some(
        Executor::start(&program.binary, &exec_opts).map_err(|e| Fatal::Start(e.to_string()))?,
    );
    // --threads: workers running ahead, once executions are long enough to gain by it.
    let mut pool: Option<Pool> = None;
    let mut switch = Switch::new(opts.threads, opts.run_ahead_from);
    let mut workers = Workers {
        reset: opts.reset,
        ..Workers::default()
    };
    let mut engine = Engine::new(opts.algorithm);
    let mut errors: Vec<Found> = Vec::new();
    let mut failing = 0u64;
    let mut cut = None;
    let mut progress = Progress {
        on: opts.progress && std::io::stderr().is_terminal(),
        last: Instant::now(),
    };
    let mut runs = 0u64;
    let mut hangs = Hangs::new(opts.exec_timeout);
    // Probes look for a first error; with --keep-going exploration counts them all.
    let probes = match &mut executor {
        Some(executor) if !opts.keep_going => run_probes(executor, opts, start, &mut errors)?,
        _ => 0,
    };
    failing += errors.iter().map(|f| f.count).sum::<u64>();
    let (mut assume_blocked, mut thread_bounded, mut loop_bounded, mut stuck) = (0, 0, 0, 0);
    let (mut timeouts_cut, mut stale_spins) = (0, 0);
    let mut unrolled = BTreeSet::new();
    // Loops that waited for another thread (awaits), over all executions.
    let mut awaits = 0u64;
    let mut restricted = BTreeMap::new();
    // For developers: every execution's events, to see what the engine explored.
    let trace_executions = std::env::var_os("CDPOR_TRACE").is_some();
    while let Some(req) = engine.next_request() {
        if answered(&errors, opts) {
            break;
        }
        if let Some(sig) = crate::interrupt::requested() {
            cut = Some(Cut::Interrupted(sig));
            break;
        }
        if let Some(max) = opts.max_executions {
            if runs >= max {
                cut = Some(Cut::MaxExecutions(max));
                break;
            }
        }
        if let Some(limit) = opts.time_limit {
            if start.elapsed() >= limit {
                cut = Some(Cut::TimeLimit(limit));
                break;
            }
        }
        if pool.is_none() && switch.due() {
            if let Some(single) = executor.take() {
                workers.add_executor(&single);
            }
            // More sides than CPUs, where one that spins holds up the one it waits for.
            let sleeping = ExecOptions {
                cpu: Placement::Sleeping,
                ..exec_opts.clone()
            };
            let deadline = opts.time_limit.map(|l| start + l);
            let n = opts.threads;
            pool = Some(Pool::start(
                &program.binary,
                &sleeping,
                n,
                deadline,
                cpus.as_deref(),
            ));
        }
        let handed = Instant::now();
        let (execution, left, limit, timing) = match (&mut pool, &mut executor) {
            (Some(pool), _) => {
                pool.limit = hangs.limit();
                match pool.execution(&engine) {
                    Some(o) => (o.execution, o.left, o.limit, o.timing),
                    None => {
                        cut = crate::interrupt::requested().map(Cut::Interrupted);
                        break;
                    }
                }
            }
            (None, Some(executor)) => {
                let left = opts.time_limit.map(|l| l.saturating_sub(start.elapsed()));
                let limit = hangs.limit();
                let allowed = crate::hangs::allowed(left, limit);
                let execution = executor.run(req, opts.max_steps, allowed);
                let timing = executor.timing().0;
                switch.observe(timing.run);
                (execution, left, limit, timing)
            }
            (None, None) => unreachable!("one worker or a pool"),
        };
        let mut execution = execution.map_err(Fatal::Server)?;
        if execution.barrier_overflow && !opts.run.ordered_barriers {
            return Err(Fatal::BarrierOverflow);
        }
        let waited = handed.elapsed();
        workers.run += timing.run;
        workers.tail += timing.tail;
        workers.resetting += timing.reset;
        workers.waiting += waited;
        runs += 1;
        // A test of the reset (`shm::ENV_VERIFY_RESET`) that found a difference: cdpor's
        // own bug, which no answer may hide.
        let fell_back = executor.as_ref().and_then(Executor::fell_back);
        if let Some(f) = fell_back.filter(|f| f.why == Fallback::Verify) {
            return Err(Fatal::Server(format!(
                "after execution {runs}, the in-place {}",
                f.what
            )));
        }
        if progress.on {
            // Only the live line shows them: no pass over every execution otherwise.
            awaits += (execution.events.iter())
                .chain(execution.pending.iter().map(|p| &p.event))
                .filter(|e| e.kind() == Kind::Await && !awaits::stopped(e))
                .count() as u64;
        }
        if trace_executions {
            eprintln!(
                "execution {runs}: {:?} -> {:?}, next: {:?}",
                execution.events, execution.end, execution.pending
            );
        }
        let end = match &execution.end {
            // Stopped by ^C or SIGTERM (`Executor::wait_done`).
            End::TimedOut { .. } if crate::interrupt::requested().is_some() => {
                cut = crate::interrupt::requested().map(Cut::Interrupted);
                break;
            }
            // Stopped by --time-limit, not for running too long itself: the run is over.
            End::TimedOut { .. }
                if left.is_some_and(|l| l < limit.unwrap_or(opts.exec_timeout)) =>
            {
                cut = opts.time_limit.map(Cut::TimeLimit);
                break;
            }
            // Asleep in a system call that another thread of the program would end:
            // no other execution can do better.
            End::TimedOut {
                syscall: Some(_), ..
            } => {
                progress.clear();
                return Err(crate::hangs::fatal(runs, &execution, opts.exec_timeout));
            }
            End::TimedOut { .. } => {
                if !hangs.hung(runs, &execution, limit) {
                    cut = Some(Cut::Hangs);
                    break;
                }
                TraceEnd::Stopped
            }
            End::Unsupported { what, site } => {
                return Err(Fatal::Unsupported {
                    what: what.clone(),
                    site: *site,
                })
            }
            End::Diverged(t) => {
                return Err(Fatal::Nondeterministic(format!(
                    "the program is not deterministic: re-executing a schedule, \
                     thread {} could not run at step {}",
                    execution.names().thread(*t),
                    execution.events.len() + 1
                )))
            }
            end => {
                hangs.finished(timing.run);
                match end {
                    End::ThreadBound => thread_bounded += 1,
                    End::TimedWaitCut => timeouts_cut += 1,
                    End::LoopBound { site, .. } => {
                        loop_bounded += 1;
                        unrolled.insert(*site);
                    }
                    End::AssumeFail { .. } => assume_blocked += 1,
                    End::StaleSpin { .. } => stale_spins += 1,
                    End::Deadlock | End::Livelock if opts.run.svcomp => stuck += 1,
                    _ => {}
                }
                trace_end(end).expect("an end the exploration goes on from")
            }
        };
        let trace = Trace {
            events: &execution.events,
            enabled: &execution.enabled,
            pending: &execution.pending,
            end,
        };
        let mut races = data_races(&trace, &execution, &opts.run)
            .into_iter()
            .peekable();
        let certain = engine
            .take(&trace)
            .map_err(|e| Fatal::Nondeterministic(e.to_string()))?;
        // The worker starts the next execution on the steps it is sure to take while
        // the engine analyses this one, unless the run is likely to end here.
        let may_end = (!opts.keep_going
            && (classify(&execution.end, opts.run.svcomp).is_some() || races.peek().is_some()))
            || opts.max_executions.is_some_and(|max| runs >= max);
        if let (Some(n), false, Some(executor)) = (certain, may_end, &mut executor) {
            executor.begin(engine.next_prefix(n), opts.max_steps);
        }
        engine.plan(&trace);
        // What follows does not change the next request: it runs meanwhile.
        if let (Some(next), Some(executor)) = (engine.next_request(), &mut executor) {
            executor.complete(next);
        }
        engine.prepare(&trace);
        // An execution's races are its end when nothing else ended it (or, under
        // --svcomp, when races are the property checked); else they are more errors of
        // it, which --keep-going reports too.
        let failed = classify(&execution.end, opts.run.svcomp).is_some();
        if !failed || opts.run.svcomp {
            if let Some(end) = races.next() {
                execution.end = end;
            }
        }
        for &(site, n) in &execution.restricted {
            restricted.entry(site).or_insert(n);
        }
        if let Some(kind) = classify(&execution.end, opts.run.svcomp) {
            failing += 1;
            let mut found = Found {
                kind,
                schedule: execution.events.iter().map(Step::of).collect(),
                execution,
                index: runs,
                probe: false,
                count: 1,
            };
            record(&mut errors, &found);
            if answered(&errors, opts) {
                break;
            }
            // Which race of an execution comes first depends on the order of independent
            // events: every race counts, so that each algorithm reports what `none` does.
            for end in races {
                found.kind = classify(&end, opts.run.svcomp).unwrap_or(found.kind);
                found.execution.end = end;
                record(&mut errors, &found);
            }
        }
        let stats = engine.stats();
        let counts = Counts {
            stats,
            awaits,
            errors: failing,
            cut_by: [
                ("--unroll", loop_bounded),
                ("--max-threads", thread_bounded),
                ("timed waits", timeouts_cut),
                ("--exec-timeout", hangs.count),
                (
                    "--max-steps",
                    steps_bounded(
                        &stats,
                        &[loop_bounded, thread_bounded, timeouts_cut, hangs.count],
                    ),
                ),
            ],
        };
        progress.tick(start, &counts);
    }
    progress.clear();
    workers.engine = start.elapsed().saturating_sub(workers.waiting);
    if let Some(single) = &executor {
        workers.add_executor(single);
    }
    if let Some(pool) = &pool {
        let (forked, replaced, fell_back) = pool.workers();
        workers.add(forked, replaced, fell_back);
        (workers.ran_ahead, workers.used_ahead) = (pool.ran_ahead, pool.used_ahead);
    }
    // A program that can loop for ever and has no error found ends on the hang.
    let hung = hangs.count;
    if errors.is_empty() {
        if let Some(f) = hangs.fatal(runs) {
            return Err(f);
        }
    }
    // The property's errors first: the first is the answer.
    errors.sort_by_key(|f| !is_property(f.kind, opts.run.svcomp));
    Ok(Summary {
        stats: engine.stats(),
        assume_blocked,
        stale_spins,
        thread_bounded,
        loop_bounded,
        timeouts_cut,
        hung,
        unrolled,
        stuck,
        restricted,
        errors,
        failing,
        cut,
        elapsed: start.elapsed(),
        probes,
        workers,
        ordered_barriers: opts.run.ordered_barriers,
    })
}

/// What an execution's end means to the engine; `None` for the ends that stop the run
/// (a hang, an unsupported call, a schedule that could not be followed).
pub(crate) fn trace_end(end: &End) -> Option<TraceEnd> {
    Some(match end {
        // A thread that ran past --exec-timeout: cut there (`hangs`).
        End::TimedOut { syscall: None, .. } => TraceEnd::Stopped,
        End::TimedOut { .. } | End::Unsupported { .. } | End::Diverged(_) => return None,
        End::SleepBlocked => TraceEnd::SleepBlocked,
        End::StepBound | End::ThreadBound | End::TimedWaitCut | End::LoopBound { .. } => {
            TraceEnd::Stopped
        }
        End::Crash { .. } | End::Died(_) | End::Memory { .. } | End::Misuse { .. } => {
            TraceEnd::Maximal { killed: true }
        }
        // A false assumption that ended the execution did so by its own event
        // (`Kind::ends_program`); one whose thread stopped there let the others run on.
        _ => TraceEnd::Maximal { killed: false },
    })
}

/// Adds a failing execution to the errors found: one more of a known error, or a copy
/// of it for a new one (few errors are distinct).
fn record(errors: &mut Vec<Found>, found: &Found) {
    match errors.iter_mut().find(|f| f.key() == found.key()) {
        Some(f) => f.count += 1,
        None => errors.push(found.clone()),
    }
}

/// With `--races`, the first data race of an execution.
fn data_race(trace: &Trace, execution: &Execution, run: &RunOptions) -> Option<End> {
    data_races(trace, execution, run).into_iter().next()
}

/// With `--races`, the data races of an execution. A sleep-set-blocked execution's races
/// are those of the traces that continue it, which exploration runs.
fn data_races(trace: &Trace, execution: &Execution, run: &RunOptions) -> Vec<End> {
    let blocked = matches!(trace.end, TraceEnd::SleepBlocked);
    if !run.races || blocked {
        return Vec::new();
    }
    (crate::engine::data_races(trace).into_iter())
        .map(|(first, later)| {
            let (second, second_step) = match later {
                Later::Event(i) => (execution.events[i], Some(i)),
                Later::Pending(k) => (execution.pending[k].event, None),
            };
            End::DataRace {
                first,
                second,
                second_step,
            }
        })
        .collect()
}

/// Runs `opts.probes`, within their time (`Probes::time`), until one shows an error,
/// which it adds to `errors`; returns how many ran.
/// A probe whose execution hangs ends the probing: exploration will meet that hang
/// where it can say what it is.
fn run_probes(
    executor: &mut Executor,
    opts: &Options,
    start: Instant,
    errors: &mut Vec<Found>,
) -> Result<u64, Fatal> {
    let mut runs = 0;
    let bounds = (opts.probes.unroll, opts.probes.max_threads);
    let Probes { from, count, .. } = opts.probes;
    let tracing = std::env::var_os("CDPOR_TRACE").is_some();
    let budget = opts.probes.time.or(opts.time_limit.map(|l| l / 10));
    for probe in cdpor_sched::scheduler::Probe::series(from..from.saturating_add(count)) {
        let late = budget.is_some_and(|b| start.elapsed() >= b);
        if late || crate::interrupt::requested().is_some() {
            break;
        }
        let allowed = budget.map_or(opts.exec_timeout, |b| b.saturating_sub(start.elapsed()));
        let mut execution =
            (executor.probe(probe, opts.max_steps, bounds, allowed)).map_err(Fatal::Server)?;
        runs += 1;
        if tracing {
            eprintln!(
                "probe {probe:?}: {:?} -> {:?}",
                execution.events, execution.end
            );
        }
        match &execution.end {
            End::TimedOut { .. } => break,
            End::Unsupported { what, site } => {
                return Err(Fatal::Unsupported {
                    what: what.clone(),
                    site: *site,
                })
            }
            _ => {}
        }
        let trace = Trace {
            events: &execution.events,
            enabled: &execution.enabled,
            pending: &execution.pending,
            end: TraceEnd::Maximal { killed: false },
        };
        if classify(&execution.end, opts.run.svcomp).is_none() || opts.run.svcomp {
            if let Some(end) = data_race(&trace, &execution, &opts.run) {
                execution.end = end;
            }
        }
        if let Some(kind) = classify(&execution.end, opts.run.svcomp) {
            let found = Found {
                kind,
                schedule: execution.events.iter().map(Step::of).collect(),
                execution,
                index: runs,
                probe: true,
                count: 1,
            };
            record(errors, &found);
            if answered(errors, opts) {
                break;
            }
        }
    }
    Ok(runs)
}

/// Where the worker runs. With a CPU to spare, on its own, and cdpor pinned to the one
/// it runs on, each spinning while the other works: a hand-off then costs no system
/// call (left to the kernel, both could share a CPU, where spinning only delays the side
/// waited for). Else on cdpor's CPU: the two take turns, never run at once, and a
/// wakeup on the same CPU costs far less than one that crosses CPUs.
fn placement(cpus: Option<&[usize]>) -> Placement {
    let Some(cpus) = cpus else {
        return Placement::Sleeping;
    };
    // The CPUs it may use (a container's quota can be less than its CPUs).
    let parallel = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cpus.len() >= 2 && parallel >= 2 {
        let here = usize::try_from(unsafe { libc::sched_getcpu() }).ok();
        let other = here.and_then(|h| cpus.iter().copied().find(|&c| c != h));
        return match (here, other) {
            (Some(h), Some(o)) if pin_to(h) => Placement::Apart(o),
            _ => Placement::Spinning,
        };
    }
    let cpu = cpus[0];
    if pin_to(cpu) {
        Placement::Pinned(cpu)
    } else {
        Placement::Sleeping
    }
}

/// The CPUs cdpor may run on (at least one), as they were before `placement` first
/// pinned its thread: a later exploration (the next `--svcomp` round) has them all too.
fn allowed_cpus() -> Option<Vec<usize>> {
    static ALLOWED: std::sync::OnceLock<Option<Vec<usize>>> = std::sync::OnceLock::new();
    let read = || {
        let size = std::mem::size_of::<libc::cpu_set_t>();
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
            return None;
        }
        let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
            .collect();
        (!cpus.is_empty()).then_some(cpus)
    };
    ALLOWED.get_or_init(read).clone()
}

/// Pins this thread (and so the fork server it starts, and every execution) to `cpu`.
fn pin_to(cpu: usize) -> bool {
    run_on(&[cpu])
}

/// Lets this thread, and the processes it starts, run on `cpus` only.
pub(crate) fn run_on(cpus: &[usize]) -> bool {
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in cpus {
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    let size = std::mem::size_of::<libc::cpu_set_t>();
    unsafe { libc::sched_setaffinity(0, size, &set) == 0 }
}

/// Runs exactly one schedule with the program's output shown (`cdpor replay`).
///
/// Which thread number a name in the schedule stands for is known once a run has
/// reached the creation of that thread, so the schedule is followed as far as its
/// names are known, and run again each time it takes a turn that the last run did not
/// (a handful of runs for a schedule with as many such turns); the output shown is the
/// last run's.
pub fn replay(
    program: &Program,
    schedule: &Parsed,
    max_steps: usize,
    timeout: Duration,
    run: RunOptions,
) -> Result<Execution, Fatal> {
    let exec_opts = ExecOptions {
        max_steps: max_steps.max(schedule.steps.len()),
        timeout,
        show_output: true,
        cpu: Placement::Sleeping,
        reset: Reset::Fork,
        verify_reset: false,
        run,
    };
    let quiet = ExecOptions {
        show_output: false,
        ..exec_opts.clone()
    };
    let mut steps: Vec<Step> = Vec::new();
    let mut runs = 0;
    // Each run numbers threads as the earlier ones did.
    let mut numbering = Vec::new();
    let execution = loop {
        let last = steps.len() == schedule.steps.len();
        let mut executor = Executor::start(&program.binary, if last { &exec_opts } else { &quiet })
            .map_err(|e| Fatal::Start(e.to_string()))?;
        if !numbering.is_empty() {
            executor.set_numbering(&numbering);
        }
        let req = Request {
            schedule: steps.clone(),
            sleep: Vec::new(),
            sleep_from: usize::MAX,
        };
        let execution = executor
            .run(&req, exec_opts.max_steps, None)
            .map_err(Fatal::Server)?;
        runs += 1;
        numbering = executor.numbering();
        if last || matches!(execution.end, End::Diverged(_)) {
            break execution;
        }
        // Name the steps that follow, up to one this run did not take.
        let names = execution.names();
        let known = steps.len();
        while let Some(want) = schedule.steps.get(steps.len()) {
            let i = steps.len();
            let Some(tid) = names.number_at(&want.thread, i) else {
                break;
            };
            steps.push(Step {
                tid,
                choice: want.choice,
            });
            if execution.events.get(i).map(Step::of) != steps.last().copied() {
                break;
            }
        }
        if steps.len() == known {
            return Err(Fatal::Nondeterministic(format!(
                "the schedule does not fit this program: there is no thread T{} at step {}",
                schedule.steps[known].thread,
                known + 1
            )));
        }
    };
    let names = execution.names();
    match execution.end {
        End::TimedOut { .. } => Err(crate::hangs::fatal(runs, &execution, timeout)),
        End::Unsupported { ref what, site } => Err(Fatal::Unsupported {
            what: what.clone(),
            site,
        }),
        End::Diverged(t) => Err(Fatal::Nondeterministic(format!(
            "the schedule does not fit this program: thread {} cannot run at step {}",
            names.thread(t),
            execution.events.len() + 1
        ))),
        _ => {
            // An alternative the schedule names must exist where it is named.
            let wrong = schedule
                .steps
                .iter()
                .zip(&execution.events)
                .position(|(s, e)| s.choice != 0 && s.choice >= e.choices.max(1));
            if let Some(i) = wrong {
                let e = &execution.events[i];
                let n = e.choices.max(1);
                return Err(Fatal::Nondeterministic(format!(
                    "the schedule does not fit this program: step {} ({}'s {}) has {n} alternative{}, not {}",
                    i + 1,
                    names.thread(e.tid),
                    e.kind().name(),
                    if n == 1 { "" } else { "s" },
                    schedule.steps[i].choice + 1
                )));
            }
            // With --races, the race the run reported in this execution (the first).
            let mut execution = execution;
            let trace = Trace {
                events: &execution.events,
                enabled: &execution.enabled,
                pending: &execution.pending,
                end: TraceEnd::Maximal { killed: false },
            };
            if let Some(end) = data_race(&trace, &execution, &run) {
                execution.end = end;
            }
            Ok(execution)
        }
    }
}

pub fn kind_of(end: &End, svcomp: bool) -> Option<ErrorKind> {
    classify(end, svcomp)
}
