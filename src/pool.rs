//! `--threads N`: N workers, each a thread of cdpor driving an executor of its own (its
//! own fork server and worker process), that run the engine's next execution and the
//! ones it will ask for after it (`ahead`), while the engine takes results in.
//!
//! A worker's thread only hands requests over and waits: the program runs in the
//! worker's process, and the thread sleeps meanwhile. A worker whose program crashes or
//! whose process dies is replaced by its executor, as with one worker.

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::ahead::Ahead;
use crate::engine::{Engine, Request};
use crate::executor::{ExecOptions, Execution, Executor, FellBack, Timing};
use cdpor_sched::shm::REPLACED_KINDS;

/// One execution's result as a worker hands it back.
pub struct Outcome {
    pub execution: Result<Execution, String>,
    /// What was left of `--time-limit` when it started (`Executor::run`).
    pub left: Option<Duration>,
    pub timing: Timing,
}

struct Job {
    id: u64,
    req: Request,
    left: Option<Duration>,
}

/// A worker's state after an execution, beside its result.
#[derive(Clone, Default)]
struct Report {
    forked: u32,
    replaced: [u32; REPLACED_KINDS],
    fell_back: Option<FellBack>,
}

struct Done {
    worker: usize,
    id: u64,
    outcome: Outcome,
    report: Report,
}

pub struct Pool {
    jobs: Vec<Sender<Job>>,
    busy: Vec<bool>,
    done: Receiver<Done>,
    reports: Vec<Report>,
    ahead: Ahead<Outcome>,
    deadline: Option<Instant>,
    /// Executions run ahead, and of those used.
    pub ran_ahead: u64,
    pub used_ahead: u64,
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
                        allow(&cpus);
                    }
                    let mut executor = Executor::start(&binary, &opts);
                    for job in rx {
                        let (execution, report, timing) = match &mut executor {
                            Ok(x) => {
                                // cdpor's own failure must reach the engine's thread,
                                // which waits for this result.
                                let run =
                                    AssertUnwindSafe(|| x.run(&job.req, opts.max_steps, job.left));
                                let execution =
                                    std::panic::catch_unwind(run).unwrap_or_else(|_| {
                                        Err("a worker thread of cdpor failed".into())
                                    });
                                let (timing, forked) = x.timing();
                                let report = Report {
                                    forked,
                                    replaced: x.replaced(),
                                    fell_back: x.fell_back(),
                                };
                                (execution, report, timing)
                            }
                            Err(e) => (Err(e.to_string()), Report::default(), Timing::default()),
                        };
                        let outcome = Outcome {
                            execution,
                            left: job.left,
                            timing,
                        };
                        let id = job.id;
                        if (done.send(Done {
                            worker,
                            id,
                            outcome,
                            report,
                        }))
                        .is_err()
                        {
                            break;
                        }
                    }
                });
                tx
            })
            .collect();
        Pool {
            jobs,
            busy: vec![false; n],
            done,
            reports: vec![Report::default(); n],
            // Enough results kept to cover the time a worker takes to hand one in.
            ahead: Ahead::new(4 * n),
            deadline,
            ran_ahead: 0,
            used_ahead: 0,
        }
    }

    /// The result of the engine's next request, once a worker has run it; `None` if a
    /// ^C or SIGTERM came first. Meanwhile idle workers run what the engine will ask for
    /// next.
    pub fn execution(&mut self, engine: &Engine) -> Option<Outcome> {
        let req = engine.next_request()?;
        self.ahead.planned(req);
        let mut ahead = true;
        loop {
            if let Some(outcome) = self.ahead.take(req) {
                self.used_ahead += u64::from(ahead);
                self.run_ahead(engine);
                return Some(outcome);
            }
            if !self.ahead.has(req) {
                if let Some(w) = self.idle() {
                    self.hand_out(w, req.clone());
                    ahead = false;
                }
            }
            self.run_ahead(engine);
            loop {
                match self.done.recv_timeout(Duration::from_millis(50)) {
                    Ok(done) => {
                        self.busy[done.worker] = false;
                        self.reports[done.worker] = done.report;
                        self.ahead.result(done.id, done.outcome);
                        break;
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if crate::interrupt::requested().is_some() {
                            return None;
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => unreachable!("the pool holds a sender"),
                }
            }
        }
    }

    fn idle(&self) -> Option<usize> {
        self.busy.iter().position(|b| !b)
    }

    /// Idle workers run the requests the engine will make after its next one.
    fn run_ahead(&mut self, engine: &Engine) {
        while let Some(w) = self.idle() {
            let Some(req) = self.ahead.to_run_ahead(engine) else {
                return;
            };
            self.hand_out(w, req);
            self.ran_ahead += 1;
        }
    }

    fn hand_out(&mut self, w: usize, req: Request) {
        let left = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let id = self.ahead.hand_out(req.clone());
        self.busy[w] = true;
        self.jobs[w]
            .send(Job { id, req, left })
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

/// Lets this thread (and the worker processes it starts) run on any of `cpus`.
fn allow(cpus: &[usize]) {
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in cpus {
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
}

/// When a run with more than one worker starts running ahead. The hand-offs between
/// threads and processes that asleep wait for each other cost some tens of microseconds
/// per execution, which one worker spinning beside cdpor does not pay: running ahead
/// gains only on executions that take longer (measured: slower below 60 us, faster from
/// 150 us; docs/parallel.md). So one worker runs the first executions, and the pool
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
