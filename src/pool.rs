//! `--threads N`: N workers, each a thread of cdpor driving an executor of its own (its
//! own fork server and worker process), that run the engine's next execution and the
//! ones it will ask for after it (`ahead`), while the engine takes results in; a worker
//! that ran a forecast goes on into its subtree with a copy of the engine
//! (`Engine::fork_for`) until the engine needs it (docs/parallel.md).
//!
//! The program runs in the worker's process; its thread sleeps meanwhile, and analyses
//! the executions of a subtree it explores ahead. A worker whose program crashes or whose
//! process dies is replaced by its executor, as with one worker.

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::ahead::Ahead;
use crate::engine::{Engine, Pending, Request, Trace, TraceEnd};
use crate::executor::{ExecOptions, Execution, Executor, FellBack, Timing};
use cdpor_sched::shm::REPLACED_KINDS;
use cdpor_sched::{Event, ThreadSet};

/// One execution's result as a worker hands it back.
pub struct Outcome {
    pub execution: Result<Execution, String>,
    /// What was left of `--time-limit` when it started (`Executor::run`).
    pub left: Option<Duration>,
    /// The time it was given, if less than `--exec-timeout` (`hangs`).
    pub limit: Option<Duration>,
    pub timing: Timing,
}

struct Job {
    id: u64,
    req: Request,
    /// The end of `--time-limit`.
    deadline: Option<Instant>,
    /// The time an execution may take, if less than `--exec-timeout`.
    limit: Option<Duration>,
    /// For a request run ahead: an engine that goes on into its subtree.
    fork: Option<Box<Engine>>,
}

/// A worker's state after an execution, beside its result.
#[derive(Clone, Default)]
struct Report {
    forked: u32,
    replaced: [u32; REPLACED_KINDS],
    fell_back: Option<FellBack>,
}

enum Message {
    /// The result of job `id`.
    Done {
        id: u64,
        outcome: Outcome,
        report: Report,
    },
    /// A request of the subtree explored after a job, about to run.
    Running { req: Request },
    /// Its result.
    Offer {
        req: Request,
        outcome: Outcome,
        report: Report,
    },
    /// The subtree explored after job `id` is done (or left for good).
    Idle { id: u64 },
    /// cdpor's own code failed on the worker's thread, which has ended.
    Failed,
}

/// Executions a worker runs ahead in a subtree after its job, at most: the results
/// wait for the engine, and beyond a few the subtree's requests are likelier to change
/// (a race found before the engine gets there adds to it).
const SUBTREE: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Idle,
    /// On a job (`true`: with an engine to go on into its subtree): the engine may wait
    /// for its result.
    Job(u64, bool),
    /// Exploring ahead after job `id`: gives way to the next job.
    Subtree(u64),
}

pub struct Pool {
    jobs: Vec<Sender<Job>>,
    state: Vec<State>,
    done: Receiver<(usize, Message)>,
    reports: Vec<Report>,
    ahead: Ahead<Outcome>,
    deadline: Option<Instant>,
    /// The time an execution may take from now on, if less than `--exec-timeout`.
    pub limit: Option<Duration>,
    /// Executions run ahead of the engine's asking, and the engine's requests that had
    /// run or were running ahead when it asked.
    pub ran_ahead: u64,
    pub used_ahead: u64,
    /// A worker's thread failed: the engine must not wait for what it was running.
    failed: bool,
}

impl Pool {
    /// Starts `n` workers on `binary`. `deadline`: the end of `--time-limit`.
    /// `cpus`: where they may run (cdpor's own thread may be pinned to one of them).
    pub fn start(
        binary: &Path,
        opts: &ExecOptions,
        n: usize,
        deadline: Option<Instant>,
        cpus: Option<&[usize]>,
    ) -> Pool {
        let (done_tx, done) = mpsc::channel();
        let jobs = (0..n)
            .map(|worker| {
                let (tx, rx) = mpsc::channel::<Job>();
                let (binary, opts, done) = (binary.to_path_buf(), opts.clone(), done_tx.clone());
                let cpus = cpus.map(<[usize]>::to_vec);
                // The thread owns its executor for good: the fork server's death signal
                // is bound to the thread that started it.
                std::thread::spawn(move || {
                    if let Some(cpus) = cpus {
                        crate::explore::run_on(&cpus);
                    }
                    let executor = Executor::start(&binary, &opts).map_err(|e| e.to_string());
                    let send = |m: Message| done.send((worker, m)).is_ok();
                    let work = AssertUnwindSafe(|| work(executor, &opts, &rx, send));
                    if std::panic::catch_unwind(work).is_err() {
                        let _ = done.send((worker, Message::Failed));
                    }
                });
                tx
            })
            .collect();
        Pool {
            jobs,
            state: vec![State::Idle; n],
            done,
            reports: vec![Report::default(); n],
            ahead: Ahead::new(SUBTREE * n),
            deadline,
            limit: None,
            ran_ahead: 0,
            used_ahead: 0,
            failed: false,
        }
    }

    /// The result of the engine's next request, once a worker has run it; `None` if a
    /// ^C or SIGTERM came first. Meanwhile idle workers run what the engine will ask for
    /// later.
    pub fn execution(&mut self, engine: &Engine) -> Option<Outcome> {
        let req = engine.next_request()?;
        self.ahead.planned(req);
        let mut ahead = true;
        loop {
            if self.failed {
                let outcome = Outcome {
                    execution: Err("a worker thread of cdpor failed".into()),
                    left: None,
                    limit: None,
                    timing: Timing::default(),
                };
                return Some(outcome);
            }
            if let Some(outcome) = self.ahead.take(req) {
                self.used_ahead += u64::from(ahead);
                self.run_ahead(engine);
                return Some(outcome);
            }
            if !self.ahead.has(req) {
                // An idle worker, else one exploring a subtree ahead, which gives way.
                let idle = self.state.iter().position(|s| *s == State::Idle);
                let free = |s: &State| matches!(s, State::Subtree(_));
                if let Some(w) = idle.or_else(|| self.state.iter().position(free)) {
                    self.hand_out(w, req.clone(), None);
                    ahead = false;
                }
            }
            self.run_ahead(engine);
            loop {
                match self.done.recv_timeout(Duration::from_millis(50)) {
                    Ok((w, message)) => {
                        self.take_in(w, message);
                        break;
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if crate::interrupt::requested().is_some() {
                            return None;
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => unreachable!("workers outlive the pool"),
                }
            }
        }
    }

    fn take_in(&mut self, w: usize, message: Message) {
        match message {
            Message::Done {
                id,
                outcome,
                report,
            } => {
                self.reports[w] = report;
                match self.state[w] {
                    State::Job(i, true) if i == id => self.state[w] = State::Subtree(id),
                    State::Job(i, false) if i == id => self.state[w] = State::Idle,
                    _ => {}
                }
                self.ahead.result(id, outcome);
            }
            Message::Running { req } => self.ahead.announce(req),
            Message::Offer {
                req,
                outcome,
                report,
            } => {
                self.reports[w] = report;
                self.ran_ahead += 1;
                self.ahead.offer(req, outcome);
            }
            Message::Idle { id } => {
                if self.state[w] == State::Subtree(id) {
                    self.state[w] = State::Idle;
                }
            }
            Message::Failed => self.failed = true,
        }
    }

    /// Idle workers run the requests the engine will make after its next one, each
    /// with an engine of its own to go on into its subtree.
    fn run_ahead(&mut self, engine: &Engine) {
        while let Some(w) = self.state.iter().position(|s| *s == State::Idle) {
            let Some(req) = self.ahead.to_run_ahead(engine) else {
                return;
            };
            let fork = Box::new(engine.fork_for(&req));
            self.hand_out(w, req, Some(fork));
            self.ran_ahead += 1;
        }
    }

    fn hand_out(&mut self, w: usize, req: Request, fork: Option<Box<Engine>>) {
        let id = self.ahead.hand_out(req.clone());
        self.state[w] = State::Job(id, fork.is_some());
        let job = Job {
            id,
            req,
            deadline: self.deadline,
            limit: self.limit,
            fork,
        };
        self.jobs[w]
            .send(job)
            .expect("a worker's thread ends only with the pool");
    }

    /// Worker processes forked, in-place workers replaced (by why), and why in-place
    /// reset stopped, over all workers.
    pub fn workers(&self) -> (u32, [u32; REPLACED_KINDS], Option<FellBack>) {
        let mut replaced = [0; REPLACED_KINDS];
        for r in &self.reports {
            for (sum, n) in replaced.iter_mut().zip(r.replaced) {
                *sum += n;
            }
        }
        (
            self.reports.iter().map(|r| r.forked).sum(),
            replaced,
            self.reports.iter().find_map(|r| r.fell_back.clone()),
        )
    }
}

/// A worker's thread: runs each job, then explores ahead in its subtree (`SUBTREE`
/// executions at most) until the next job comes.
fn work(
    mut executor: Result<Executor, String>,
    opts: &ExecOptions,
    jobs: &Receiver<Job>,
    send: impl Fn(Message) -> bool,
) {
    let mut next = None;
    loop {
        let Some(job) = next.take().or_else(|| jobs.recv().ok()) else {
            return;
        };
        let (outcome, report) = run(&mut executor, opts, &job.req, (job.deadline, job.limit));
        let mut fork = job.fork.map(|f| (f, job.req.sleep_from));
        let mut last = fork.as_ref().and_then(|_| taken(&outcome));
        let id = job.id;
        if !send(Message::Done {
            id,
            outcome,
            report,
        }) {
            return;
        }
        let Some((engine, root)) = &mut fork else {
            continue;
        };
        for _ in 0..SUBTREE {
            let Some((trace, end)) = last.take() else {
                break;
            };
            let trace = Trace {
                events: &trace.0,
                enabled: &trace.1,
                pending: &trace.2,
                end,
            };
            if engine.record(&trace).is_err() {
                break;
            }
            let Some(req) = engine.next_request().filter(|r| r.sleep_from >= *root) else {
                break;
            };
            if let Ok(job) = jobs.try_recv() {
                next = Some(job);
                break;
            }
            if !send(Message::Running { req: req.clone() }) {
                return;
            }
            let (outcome, report) = run(&mut executor, opts, req, (job.deadline, job.limit));
            last = taken(&outcome);
            let req = req.clone();
            if !send(Message::Offer {
                req,
                outcome,
                report,
            }) {
                return;
            }
        }
        if next.is_none() && !send(Message::Idle { id: job.id }) {
            return;
        }
    }
}

/// What a subtree's engine takes in of an execution: its events, and how it ended
/// (`None`: the run stops there).
type Taken = ((Vec<Event>, Vec<ThreadSet>, Vec<Pending>), TraceEnd);

fn taken(outcome: &Outcome) -> Option<Taken> {
    let x = outcome.execution.as_ref().ok()?;
    let end = crate::explore::trace_end(&x.end)?;
    Some((
        (x.events.clone(), x.enabled.clone(), x.pending.clone()),
        end,
    ))
}

fn run(
    executor: &mut Result<Executor, String>,
    opts: &ExecOptions,
    req: &Request,
    (deadline, limit): (Option<Instant>, Option<Duration>),
) -> (Outcome, Report) {
    let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let x = match executor {
        Ok(x) => x,
        Err(e) => {
            let outcome = Outcome {
                execution: Err(e.clone()),
                left,
                limit,
                timing: Timing::default(),
            };
            return (outcome, Report::default());
        }
    };
    let allowed = crate::hangs::allowed(left, limit);
    let execution = x.run(req, opts.max_steps, allowed);
    let (timing, forked) = x.timing();
    let report = Report {
        forked,
        replaced: x.replaced(),
        fell_back: x.fell_back(),
    };
    let outcome = Outcome {
        execution,
        left,
        limit,
        timing,
    };
    (outcome, report)
}

/// When a run with more than one worker starts running ahead. The hand-offs between
/// threads and processes that asleep wait for each other cost some tens of microseconds
/// per execution, which one worker spinning beside cdpor does not pay: running ahead
/// gains only on executions that take longer (measured: slower at 40 us, even at 60 us,
/// faster from 110 us; docs/parallel.md). So one worker runs the first executions, and the pool
/// takes over once most of them take `threshold` or longer.
pub struct Switch {
    on: bool,
    threshold: Duration,
    runs: u32,
    /// Of those, the executions that took `threshold` or longer.
    long: u32,
    /// The first executions, which fault in the program's pages, are not counted.
    warm: bool,
}

/// Executions looked at together: most of them must be long (a loaded machine can
/// stall any one).
const WINDOW: u32 = 32;

impl Switch {
    pub fn new(threads: usize, from: Option<Duration>) -> Switch {
        Switch {
            on: threads > 1,
            threshold: from.unwrap_or(Duration::from_micros(100)),
            runs: 0,
            long: 0,
            warm: false,
        }
    }

    /// An execution of the single worker took `run`.
    pub fn observe(&mut self, run: Duration) {
        if self.runs == WINDOW {
            (self.runs, self.long) = (0, 0);
            self.warm = true;
        }
        self.runs += 1;
        self.long += u32::from(run >= self.threshold);
    }

    /// Whether to start the pool now.
    pub fn due(&self) -> bool {
        self.on
            && (self.threshold.is_zero()
                || (self.warm && self.runs == WINDOW && self.long > WINDOW / 2))
    }
}
