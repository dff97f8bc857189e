//! Runs executions of an instrumented program: starts its fork server with a shared-memory
//! region, and for each request writes the schedule, hands over (`handoff`), and reads
//! back the trace once the worker (or the server, for a worker that died) is done.

use std::collections::HashMap;
use std::fs::File;
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cdpor_sched::handoff::{Spin, Word};
use cdpor_sched::scheduler::Probe;
use cdpor_sched::shm::{
    self, Alloc, Fallback, Header, Layout, Outcome, ThreadEnd, ThreadName, ThreadStatus, NO_PARENT,
};
use cdpor_sched::{Event, Step, ThreadSet, Tid, MAX_THREADS};
use memmap2::MmapMut;

use crate::instrument::Record;
use crate::schedule::Names;
use crate::syscall;

use crate::engine::{Pending, Request};

/// How an execution ended, as the runtime saw it.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    Exit(i64),
    Deadlock,
    Assertion {
        tid: Tid,
        site: u32,
        expr: String,
        file: String,
        line: u32,
    },
    Abort {
        tid: Tid,
        site: u32,
    },
    Crash {
        tid: Tid,
        site: u32,
        signal: i32,
        addr: u64,
        pc: u64,
        overflow: bool,
        /// The site of the last library call the thread made (0: unknown).
        call: u32,
    },
    SleepBlocked,
    StepBound,
    /// The schedule asked for a thread that could not run.
    Diverged(Tid),
    /// Cut: a create went past `--max-threads` (or the names cdpor can number).
    ThreadBound,
    /// Cut: no thread could run, but a timed wait whose timeout was ruled out could
    /// time out and see a change.
    TimedWaitCut,
    /// Cut: a loop of thread `tid` ran `--unroll` iterations (at `site`).
    LoopBound {
        tid: Tid,
        site: u32,
    },
    /// Every thread left is blocked, and some wait in a loop that cannot make progress.
    Livelock,
    /// Every thread left is blocked, and `tid` spins on what another thread changed
    /// after it read it: a redundant execution, which another one covers (`ops::awaits`).
    StaleSpin {
        tid: Tid,
    },
    /// A memory error of thread `tid` at `site`: its last event, an access or a free.
    Memory {
        tid: Tid,
        site: u32,
        fault: cdpor_sched::shm::MemFault,
    },
    /// The last event, of thread `tid` at `site`, misused its object (`ops::Misuse`).
    Misuse {
        tid: Tid,
        site: u32,
        what: u32,
    },
    /// The execution ended, and has a data race (`--races`): the event at step `first`
    /// and `second`, executed at `second_step` or pending at the end.
    DataRace {
        first: usize,
        second: Event,
        second_step: Option<usize>,
    },
    /// An assumption was false: an infeasible execution.
    AssumeFail {
        tid: Tid,
        site: u32,
    },
    /// `reach_error()` (or `__VERIFIER_error()`, as the site says) was called.
    ReachError {
        tid: Tid,
        site: u32,
    },
    /// The program used something the runtime does not model, at `site`.
    Unsupported {
        what: String,
        site: u32,
    },
    /// The child died without a word (killed by a signal the runtime could not catch, or
    /// an exit from outside the runtime).
    Died(String),
    /// The child ran past the time limit, or slept in one system call (`syscall`) for
    /// a whole second, and was killed; `running` was running then.
    TimedOut {
        running: Tid,
        syscall: Option<i64>,
    },
}

/// One execution's results.
#[derive(Clone, Debug)]
pub struct Execution {
    pub events: Vec<Event>,
    /// The threads enabled before each event.
    pub enabled: Vec<ThreadSet>,
    pub pending: Vec<Pending>,
    /// Threads blocked at the end, with the operation they wait in (for deadlock reports).
    pub blocked: Vec<Event>,
    pub allocs: Vec<Alloc>,
    /// Nondeterministic values used after being explored over part of their interval:
    /// (site, values explored).
    pub restricted: Vec<(u32, u32)>,
    pub end: End,
    /// More threads used a barrier than it waits for, in an exploration whose arrivals
    /// commute (`ops::barrier`): it must be explored again with `ordered_barriers`.
    pub barrier_overflow: bool,
    /// Its threads' names, worked out when a report needs them.
    names: std::cell::OnceCell<Names>,
    /// The struct each heap block is read as, by the block's address, likewise.
    blocks: std::cell::OnceCell<HashMap<u64, Record>>,
}

impl Execution {
    pub fn names(&self) -> &Names {
        self.names.get_or_init(|| Names::of(&self.events))
    }

    /// The struct each heap block is read as, worked out by `work_out` the first time.
    pub fn blocks(&self, work_out: impl FnOnce() -> HashMap<u64, Record>) -> &HashMap<u64, Record> {
        self.blocks.get_or_init(work_out)
    }
}

/// A request posted before the `run` that waits for it, by its number.
#[derive(Clone, Copy)]
enum Posted {
    /// Only the prefix of its schedule that was certain (`Executor::begin`): `steps`
    /// steps.
    Prefix { request: u32, steps: usize },
    /// The whole of it (`Executor::complete`).
    Whole { request: u32 },
}

/// How a worker gets back to the state before an execution (`--reset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reset {
    /// A worker forked per execution.
    Fork,
    /// One worker runs execution after execution, resetting the program in place, until
    /// an execution changes what cannot be reset.
    #[default]
    InPlace,
}

#[derive(Clone, Debug)]
pub struct ExecOptions {
    pub max_steps: usize,
    pub timeout: Duration,
    pub show_output: bool,
    /// Where the worker runs: on cdpor's CPU (which it then shares, taking turns), or
    /// anywhere, each side spinning while it waits for the other (`handoff`).
    pub cpu: Placement,
    pub reset: Reset,
    /// After each in-place reset, the worker compares what the program can see with the
    /// state it started from (a test of the reset; `shm::ENV_VERIFY_RESET`, which cdpor's
    /// own environment can set too).
    pub verify_reset: bool,
    pub run: RunOptions,
}

/// `--unroll`'s default: enough for the loops of small test programs, few enough that a
/// loop that polls with side effects gives an exploration that ends.
pub const DEFAULT_UNROLL: u32 = 100;

/// How long a worker asked to stop at `--exec-timeout` has to write its threads' next
/// operations before it is killed.
const HUNG_GRACE: Duration = Duration::from_millis(200);

/// Options the runtime applies inside each execution.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// SV-COMP conventions: `abort()` ends an execution silently and a deadlock is no
    /// error.
    pub svcomp: bool,
    /// Threads an execution may create besides main.
    pub max_threads: u32,
    /// The values a nondeterministic integer too wide to explore whole takes.
    pub nondet: (i64, i64),
    /// A loop activation past this many iterations with an effect (while other threads
    /// live) stops its thread.
    pub unroll: u32,
    /// Condition waits may end without a signal.
    pub spurious_wakeups: bool,
    /// Data races are errors (`--races`).
    pub races: bool,
    /// A retry loop's failed first try ends the execution as redundant
    /// (`ops::awaits::LOOP_RETRY`); off, it goes round like any iteration.
    pub retry_reduction: bool,
    /// Every order of arrival at a barrier is explored (`ops::barrier::ORDERED`).
    pub ordered_barriers: bool,
    /// A false assumption stops its thread for good where what it read could still
    /// change (docs/reductions.md); off, it ends the execution at once.
    pub assume_waits: bool,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            svcomp: false,
            max_threads: u32::MAX,
            nondet: (-1, 3),
            unroll: DEFAULT_UNROLL,
            spurious_wakeups: true,
            races: false,
            retry_reduction: true,
            ordered_barriers: false,
            assume_waits: true,
        }
    }
}

/// Why in-place reset stopped for the rest of a run: the call (its function and site)
/// or the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FellBack {
    pub why: Fallback,
    pub site: u32,
    pub what: String,
}

/// Where an execution's time went, as the worker measured it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// From the request to the end of the execution (without its wait for the rest of
    /// a schedule posted in part), of that what ran after the whole schedule was there,
    /// and the reset before it.
    pub run: Duration,
    pub tail: Duration,
    pub reset: Duration,
}

/// Where an executor's worker runs (`ExecOptions::cpu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// On this CPU, with cdpor.
    Pinned(usize),
    /// Anywhere; each side spins before it sleeps.
    Spinning,
    /// The worker on this CPU, cdpor on another; each side spins before it sleeps (left
    /// to the kernel, both sides can land on one CPU, where spinning only delays the side
    /// waited for).
    Apart(usize),
    /// Anywhere; each side sleeps at once.
    Sleeping,
}

impl Placement {
    fn spins(self) -> bool {
        matches!(self, Placement::Spinning | Placement::Apart(_))
    }
}

pub struct Executor {
    server: Child,
    map: MmapMut,
    layout: Layout,
    timeout: Duration,
    spin: Spin,
    /// A request posted ahead of `run`.
    posted: Option<Posted>,
    /// When the executor started, in time and in time-stamp counter ticks: what a tick
    /// is worth (`timing`).
    started: (Instant, u64),
}

impl Executor {
    pub fn start(binary: &Path, opts: &ExecOptions) -> std::io::Result<Executor> {
        let layout = Layout {
            cap_steps: opts.max_steps.max(1),
        };
        let shm_fd = unsafe { libc::memfd_create(c"cdpor-shm".as_ptr(), 0) };
        if shm_fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let shm_file = unsafe { File::from_raw_fd(shm_fd) };
        shm_file.set_len(layout.size() as u64)?;
        let mut map = unsafe { MmapMut::map_mut(&shm_file)? };
        {
            let hdr = unsafe { &mut *(map.as_mut_ptr() as *mut Header) };
            hdr.magic = shm::MAGIC;
            hdr.cap_steps = layout.cap_steps as u32;
            hdr.flags = if opts.show_output {
                shm::FLAG_SHOW_OUTPUT
            } else {
                0
            };
            if opts.run.svcomp {
                hdr.flags |= shm::FLAG_SVCOMP;
            }
            if !opts.run.spurious_wakeups {
                hdr.flags |= shm::FLAG_NO_SPURIOUS;
            }
            if opts.run.races {
                hdr.flags |= shm::FLAG_RACES;
            }
            if !opts.run.retry_reduction {
                hdr.flags |= shm::FLAG_ALL_RETRIES;
            }
            if opts.run.ordered_barriers {
                hdr.flags |= shm::FLAG_ORDERED_BARRIERS;
            }
            if !opts.run.assume_waits {
                hdr.flags |= shm::FLAG_ASSUME_ENDS;
            }
            hdr.max_threads = opts.run.max_threads;
            hdr.unroll = opts.run.unroll;
            hdr.reset = match opts.reset {
                Reset::Fork => shm::RESET_FORK,
                Reset::InPlace => shm::RESET_INPLACE,
            };
            hdr.spin = u32::from(opts.cpu.spins());
            (hdr.nondet_lo, hdr.nondet_hi) = opts.run.nondet;
        }
        let main = ThreadName {
            parent: NO_PARENT,
            index: 0,
        };
        unsafe { (map.as_mut_ptr().add(layout.names()) as *mut ThreadName).write(main) };
        unsafe { (*(map.as_mut_ptr() as *mut Header)).n_names = 1 };
        let mut command = Command::new(binary);
        command
            .env(shm::ENV_SHM_FD, shm_fd.to_string())
            .stdin(Stdio::null());
        if opts.verify_reset {
            command.env(shm::ENV_VERIFY_RESET, "1");
        }
        if let Placement::Pinned(cpu) | Placement::Apart(cpu) = opts.cpu {
            command.env(shm::ENV_CPU, cpu.to_string());
        }
        // The program's own output only matters on replay.
        if !opts.show_output {
            command.stdout(Stdio::null());
        }
        let cdpor = std::process::id() as libc::pid_t;
        unsafe {
            command.pre_exec(move || {
                // Put the server in its own process group, so that a terminal's ^C reaches
                // cdpor, which then tears the server down.
                libc::setpgid(0, 0);
                // Die with cdpor rather than linger, also if it died before this.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                if libc::getppid() != cdpor {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
        let server = command.spawn()?;
        drop(shm_file);
        Ok(Executor {
            server,
            map,
            layout,
            timeout: opts.timeout,
            spin: Spin::new(opts.cpu.spins()),
            posted: None,
            started: (Instant::now(), ticks()),
        })
    }

    /// Why in-place reset stopped, if it did.
    pub fn fell_back(&self) -> Option<FellBack> {
        let h = unsafe { &*(self.map.as_ptr() as *const Header) };
        match Fallback::from_u32(h.fallback) {
            Fallback::None => None,
            why => Some(FellBack {
                why,
                site: h.fallback_site,
                what: shm::text(&h.fallback_text),
            }),
        }
    }

    /// How many in-place workers were replaced after an execution, by why
    /// (`shm::Replaced`).
    pub fn replaced(&self) -> [u32; shm::REPLACED_KINDS] {
        unsafe { (*(self.map.as_ptr() as *const Header)).replaced }
    }

    /// The last execution's time, and how many workers have been forked so far.
    pub fn timing(&self) -> (Timing, u32) {
        let h = unsafe { &*(self.map.as_ptr() as *const Header) };
        let ns = self.started.0.elapsed().as_nanos() as f64;
        let per_tick = ns / ticks().wrapping_sub(self.started.1).max(1) as f64;
        let time = |t: u64| Duration::from_nanos((t as f64 * per_tick) as u64);
        let t = Timing {
            run: time(h.run_ticks),
            tail: time(h.tail_ticks),
            reset: time(h.reset_ticks),
        };
        (t, h.workers)
    }

    fn hdr(&mut self) -> &mut Header {
        unsafe { &mut *(self.map.as_mut_ptr() as *mut Header) }
    }

    fn slice<T: Copy>(&self, offset: usize, n: usize) -> Vec<T> {
        let p = unsafe { self.map.as_ptr().add(offset) as *const T };
        (0..n)
            .map(|i| unsafe { p.add(i).read_unaligned() })
            .collect()
    }

    /// Where the thread numbers given so far come from.
    pub fn numbering(&self) -> Vec<ThreadName> {
        let n = unsafe { (*(self.map.as_ptr() as *const Header)).n_names } as usize;
        self.slice(self.layout.names(), n.min(MAX_THREADS))
    }

    /// Gives threads the numbers another executor gave them, before any execution.
    pub fn set_numbering(&mut self, numbering: &[ThreadName]) {
        let n = numbering.len().min(MAX_THREADS);
        unsafe {
            let p = self.map.as_mut_ptr().add(self.layout.names()) as *mut ThreadName;
            std::ptr::copy_nonoverlapping(numbering.as_ptr(), p, n);
        }
        self.hdr().n_names = n as u32;
    }

    /// Runs one execution. An `Err` means the fork server itself is gone. With `left`
    /// shorter than the time an execution may take (what is left of `--time-limit`),
    /// the execution is stopped then, once: it ends `TimedOut` because the run is over.
    pub fn run(
        &mut self,
        req: &Request,
        max_steps: usize,
        left: Option<Duration>,
    ) -> Result<Execution, String> {
        match left.filter(|&l| l < self.timeout) {
            Some(l) => self.run_once_within(req, max_steps, 0, l),
            None => self.run_patiently(req, max_steps, 0),
        }
    }

    fn run_once_within(
        &mut self,
        req: &Request,
        max_steps: usize,
        probe: u64,
        allowed: Duration,
    ) -> Result<Execution, String> {
        let timeout = self.timeout;
        self.timeout = timeout.min(allowed);
        let execution = self.run_as(req, max_steps, probe);
        self.timeout = timeout;
        execution
    }

    /// Runs the execution of `req` again if it ran past the time limit: a loaded machine
    /// can stall one execution, while a program that loops forever does so twice.
    fn run_patiently(
        &mut self,
        req: &Request,
        max_steps: usize,
        probe: u64,
    ) -> Result<Execution, String> {
        let x = self.run_as(req, max_steps, probe)?;
        match x.end {
            End::TimedOut { syscall: None, .. } if crate::interrupt::requested().is_none() => {
                self.run_as(req, max_steps, probe)
            }
            _ => Ok(x),
        }
    }

    /// Runs the program once with a probe's free choices, under `bounds` (`--unroll`,
    /// `--max-threads`) instead of the exploration's, for at most `allowed` (once: a
    /// probe that runs long only ends the probing).
    pub fn probe(
        &mut self,
        probe: Probe,
        max_steps: usize,
        bounds: (u32, u32),
        allowed: Duration,
    ) -> Result<Execution, String> {
        let req = Request {
            schedule: Vec::new(),
            sleep: Vec::new(),
            sleep_from: 0,
        };
        let h = self.hdr();
        let kept = (h.unroll, h.max_threads);
        (h.unroll, h.max_threads) = bounds;
        let execution = self.run_once_within(&req, max_steps, probe.encode(), allowed);
        let h = self.hdr();
        (h.unroll, h.max_threads) = kept;
        execution
    }

    /// Starts the next execution on the first steps of its schedule, before the rest is
    /// known: the worker resets, runs them, and waits for the rest, which the next `run`
    /// hands in. `prefix` must be the start of that run's schedule.
    pub fn begin(&mut self, prefix: &[Step], max_steps: usize) {
        let empty = Request::default();
        if self.posted.is_none() && prefix.len() <= self.layout.cap_steps {
            let request = self.post(prefix, &empty, max_steps, 0, true);
            self.posted = Some(Posted::Prefix {
                request,
                steps: prefix.len(),
            });
        }
    }

    /// Hands in the rest of a request started with `begin`, so that the execution runs
    /// on while cdpor does what the next `run` does not need first. `req` must be what
    /// that `run` is given.
    pub fn complete(&mut self, req: &Request) {
        if let Some(Posted::Prefix { request, steps }) = self.posted {
            if req.schedule.len() <= self.layout.cap_steps {
                self.post_rest(req, request, steps);
                self.posted = Some(Posted::Whole { request });
            }
        }
    }

    fn post_rest(&mut self, req: &Request, request: u32, known: usize) {
        let posted = self.slice::<Step>(self.layout.schedule(), known);
        assert!(
            req.schedule.get(..known) == Some(&posted[..]),
            "an execution was started on a prefix that its schedule does not have"
        );
        self.write_request(&req.schedule[known..], known, req);
        self.hdr().sched_len = req.schedule.len() as u32;
        self.words().2.post(request);
    }

    fn run_as(&mut self, req: &Request, max_steps: usize, probe: u64) -> Result<Execution, String> {
        if req.schedule.len() > self.layout.cap_steps {
            return Err("schedule longer than the step capacity".into());
        }
        let request = match self.posted.take() {
            Some(Posted::Prefix { request, steps }) => {
                self.post_rest(req, request, steps);
                request
            }
            Some(Posted::Whole { request }) => request,
            None => self.post(&req.schedule, req, max_steps, probe, false),
        };
        let stopped = self.wait_done(request)?;
        Ok(self.collect(stopped))
    }

    /// Writes a request with the steps `schedule` and the sleep set of `req`, and posts
    /// it; returns its number.
    fn post(
        &mut self,
        schedule: &[Step],
        req: &Request,
        max_steps: usize,
        probe: u64,
        partial: bool,
    ) -> u32 {
        let cap = self.layout.cap_steps;
        self.write_request(schedule, 0, req);
        let h = self.hdr();
        h.sched_len = schedule.len() as u32;
        h.max_steps = max_steps.min(cap) as u32;
        h.probe = probe;
        h.partial = u32::from(partial);
        h.running = 0;
        let request = h.go.wrapping_add(1);
        self.words().0.post(request);
        request
    }

    /// Writes `steps` into the schedule from step `at` on, and `req`'s sleep set.
    fn write_request(&mut self, steps: &[Step], at: usize, req: &Request) {
        let base = self.map.as_mut_ptr();
        let n = req.sleep.len().min(MAX_THREADS);
        unsafe {
            let sched = (base.add(self.layout.schedule()) as *mut Step).add(at);
            std::ptr::copy_nonoverlapping(steps.as_ptr(), sched, steps.len());
            let sleep = base.add(self.layout.sleep()) as *mut Event;
            std::ptr::copy_nonoverlapping(req.sleep.as_ptr(), sleep, n);
        }
        let h = self.hdr();
        h.sleep_len = n as u32;
        h.sleep_from = req.sleep_from as u32;
    }

    /// The hand-off words: `go`, `done` and `more` (`cdpor_sched::handoff`).
    fn words(&mut self) -> (Word<'_>, Word<'_>, Word<'_>) {
        let h = self.map.as_mut_ptr() as *mut Header;
        unsafe {
            (
                Word::new(&raw mut (*h).go, &raw mut (*h).go_sleeping),
                Word::new(&raw mut (*h).done, &raw mut (*h).done_sleeping),
                Word::new(&raw mut (*h).more, &raw mut (*h).more_sleeping),
            )
        }
    }

    /// The process running `request`: the worker that took it, else (not taken yet)
    /// the server's last child.
    fn runner(&mut self, request: u32) -> i32 {
        let h = self.hdr();
        let taken = unsafe { std::ptr::read_volatile(&h.taken) } == request;
        std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
        let runner = unsafe { std::ptr::read_volatile(&h.runner_pid) };
        if taken && runner > 0 {
            runner
        } else {
            h.child_pid
        }
    }

    /// Waits until `request` is done. When the time limit strikes first, or the worker
    /// sleeps in one system call for a second, the worker is killed (and the server
    /// answers for it): `Some` of the call it slept in, if any. At the time limit, it is
    /// asked first to write what its other threads would do next (`cdpor_hung`), and
    /// killed if it has not died within `HUNG_GRACE`, and again each second after.
    fn wait_done(&mut self, request: u32) -> Result<Option<Option<i64>>, String> {
        let deadline = Instant::now() + self.timeout;
        let mut sleeping = None;
        let mut stopped = None;
        let mut asked: Option<Instant> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = match (stopped, asked) {
                (Some(_), Some(at)) => (at + HUNG_GRACE).saturating_duration_since(Instant::now()),
                (Some(_), None) => Duration::from_secs(1),
                (None, _) => left.min(Duration::from_secs(1)),
            };
            let mut spin = std::mem::replace(&mut self.spin, Spin::new(false));
            let done = self
                .words()
                .1
                .wait(|d| d == request, &mut spin, Some(slice));
            self.spin = spin;
            if done {
                return Ok(stopped);
            }
            if let Ok(Some(_)) = self.server.try_wait() {
                return Err(self.server_gone());
            }
            let pid = self.runner(request);
            // ^C or SIGTERM: the run stops after this execution, which may take up to
            // --exec-timeout yet: stop it now.
            if stopped.is_none() && crate::interrupt::requested().is_some() {
                if pid > 0 {
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
                stopped = Some(None);
                continue;
            }
            if stopped.is_some() {
                if asked.is_none_or(|at| at.elapsed() >= HUNG_GRACE) {
                    asked = None;
                    if pid > 0 {
                        unsafe { libc::kill(pid, libc::SIGKILL) };
                    }
                }
                continue;
            }
            let now = (pid > 0).then(|| syscall::sleeping_in(pid)).flatten();
            let blocked =
                now.is_some_and(|nr| sleeping == Some(nr) && !syscall::ends_by_itself(nr));
            if blocked || left.is_zero() {
                if pid > 0 {
                    let ask = now.is_none();
                    let sig = if ask { libc::SIGUSR2 } else { libc::SIGKILL };
                    unsafe { libc::kill(pid, sig) };
                    asked = ask.then(Instant::now);
                }
                stopped = Some(now);
            }
            sleeping = now;
        }
    }

    fn server_gone(&mut self) -> String {
        match self.server.try_wait() {
            Ok(Some(status)) => {
                format!("the program's fork server stopped ({status}) before main could run")
            }
            _ => "the program's fork server stopped answering".into(),
        }
    }

    fn collect(&mut self, stopped: Option<Option<i64>>) -> Execution {
        let l = self.layout;
        let (n_events, n_threads, n_allocs) = {
            let h = self.hdr();
            (
                (h.n_events as usize).min(l.cap_steps),
                (h.n_threads as usize).min(MAX_THREADS),
                (h.n_allocs as usize).min(shm::MAX_ALLOCS),
            )
        };
        let events: Vec<Event> = self.slice(l.events(), n_events);
        let enabled: Vec<ThreadSet> = self.slice(l.enabled(), n_events);
        let threads: Vec<ThreadEnd> = self.slice(l.threads(), n_threads);
        let mut allocs: Vec<Alloc> = self.slice(l.allocs(), n_allocs);
        // In the order of their addresses, for naming them (threads allocate in turns).
        allocs.sort_unstable_by_key(|a| a.addr);
        let h = self.hdr();
        let outcome = Outcome::from_u32(h.outcome);
        let tid = h.outcome_tid;
        let site = h.outcome_site;
        let end = if let Some(syscall) = stopped {
            End::TimedOut {
                running: h.running,
                syscall,
            }
        } else {
            match outcome {
                Outcome::Exit => End::Exit(h.outcome_code),
                Outcome::Deadlock => End::Deadlock,
                Outcome::Assertion => End::Assertion {
                    tid,
                    site,
                    expr: shm::text(&h.text),
                    file: shm::text(&h.file),
                    line: h.outcome_line,
                },
                Outcome::Abort => End::Abort { tid, site },
                Outcome::Misuse => End::Misuse {
                    tid,
                    site,
                    what: h.outcome_code as u32,
                },
                Outcome::Memory => End::Memory {
                    tid,
                    site,
                    fault: h.mem,
                },
                Outcome::Crash | Outcome::StackOverflow => End::Crash {
                    tid,
                    site,
                    signal: h.outcome_code as i32,
                    addr: h.fault_addr,
                    pc: h.fault_pc,
                    overflow: outcome == Outcome::StackOverflow,
                    call: events
                        .last()
                        .filter(|e| e.kind() == cdpor_sched::Kind::Crash)
                        .map_or(0, |e| e.aux),
                },
                Outcome::SleepBlocked => End::SleepBlocked,
                Outcome::StepBound => End::StepBound,
                Outcome::Diverged => End::Diverged(tid),
                Outcome::ThreadBound => End::ThreadBound,
                Outcome::TimedWaitCut => End::TimedWaitCut,
                Outcome::LoopBound => End::LoopBound { tid, site },
                Outcome::Livelock => End::Livelock,
                Outcome::StaleSpin => End::StaleSpin { tid },
                Outcome::AssumeFail => End::AssumeFail { tid, site },
                Outcome::ReachError => End::ReachError { tid, site },
                Outcome::Unsupported => End::Unsupported {
                    what: shm::text(&h.text),
                    site,
                },
                Outcome::Running => End::Died(describe_status(h.wait_status)),
            }
        };
        let mut pending = Vec::new();
        let mut blocked = Vec::new();
        for th in &threads {
            match ThreadStatus::from_u32(th.status) {
                ThreadStatus::Enabled => pending.push(Pending {
                    event: th.pending,
                    enabled: true,
                }),
                ThreadStatus::Blocked => {
                    pending.push(Pending {
                        event: th.pending,
                        enabled: false,
                    });
                    blocked.push(th.pending);
                }
                _ => {}
            }
        }
        let h = self.hdr();
        let restricted = h.restricted[..(h.n_restricted as usize).min(shm::MAX_RESTRICTED)]
            .iter()
            .map(|r| (r[0], r[1]))
            .collect();
        Execution {
            events,
            enabled,
            pending,
            blocked,
            allocs,
            restricted,
            end,
            barrier_overflow: h.barrier_overflow != 0,
            names: Default::default(),
            blocks: Default::default(),
        }
    }
}

fn ticks() -> u64 {
    unsafe { core::arch::x86_64::_rdtsc() }
}

fn describe_status(status: i32) -> String {
    if libc::WIFSIGNALED(status) {
        format!("killed by {}", signal_name(libc::WTERMSIG(status)))
    } else if libc::WIFEXITED(status) {
        format!(
            "exited with status {} outside cdpor's control",
            libc::WEXITSTATUS(status)
        )
    } else {
        format!("ended with wait status {status:#x}")
    }
}

pub fn signal_name(sig: i32) -> String {
    match sig {
        libc::SIGSEGV => "SIGSEGV".into(),
        libc::SIGBUS => "SIGBUS".into(),
        libc::SIGFPE => "SIGFPE".into(),
        libc::SIGILL => "SIGILL".into(),
        libc::SIGABRT => "SIGABRT".into(),
        libc::SIGTRAP => "SIGTRAP".into(),
        libc::SIGSYS => "SIGSYS".into(),
        libc::SIGKILL => "SIGKILL".into(),
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGXCPU => "SIGXCPU".into(),
        n => format!("signal {n}"),
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}
