//! Runs executions of an instrumented program: starts its fork server with a shared-memory
//! region and two pipes, and for each request writes the schedule, says "go", and reads
//! back the trace once the server says the child is done.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cdpor_sched::scheduler::Probe;
use cdpor_sched::shm::{
    self, Alloc, Header, Layout, Outcome, ThreadEnd, ThreadName, ThreadStatus, NO_PARENT,
};
use cdpor_sched::{Event, Step, ThreadSet, Tid, MAX_THREADS};
use memmap2::MmapMut;

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
    /// Its threads' names, worked out when a report needs them.
    names: std::cell::OnceCell<Names>,
}

impl Execution {
    pub fn names(&self) -> &Names {
        self.names.get_or_init(|| Names::of(&self.events))
    }
}

#[derive(Clone, Debug)]
pub struct ExecOptions {
    pub max_steps: usize,
    pub timeout: Duration,
    pub show_output: bool,
    pub cpu: Option<usize>,
    pub run: crate::explore::RunOptions,
}

pub struct Executor {
    server: Child,
    map: MmapMut,
    layout: Layout,
    cmd: File,
    ack: File,
    timeout: Duration,
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn set_cloexec(fd: &OwnedFd) {
    unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
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
            hdr.max_threads = opts.run.max_threads;
            hdr.unroll = opts.run.unroll;
            (hdr.nondet_lo, hdr.nondet_hi) = opts.run.nondet;
        }
        let main = ThreadName {
            parent: NO_PARENT,
            index: 0,
        };
        unsafe { (map.as_mut_ptr().add(layout.names()) as *mut ThreadName).write(main) };
        unsafe { (*(map.as_mut_ptr() as *mut Header)).n_names = 1 };
        let (cmd_r, cmd_w) = pipe()?;
        let (ack_r, ack_w) = pipe()?;
        set_cloexec(&cmd_w);
        set_cloexec(&ack_r);
        let mut command = Command::new(binary);
        command
            .env(shm::ENV_SHM_FD, shm_fd.to_string())
            .env(shm::ENV_CMD_FD, cmd_r.as_raw_fd().to_string())
            .env(shm::ENV_ACK_FD, ack_w.as_raw_fd().to_string())
            .stdin(Stdio::null());
        if let Some(cpu) = opts.cpu {
            command.env(shm::ENV_CPU, cpu.to_string());
        }
        // The program's own output only matters on replay.
        if !opts.show_output {
            command.stdout(Stdio::null());
        }
        unsafe {
            command.pre_exec(|| {
                // Put the server in its own process group, so that a terminal's ^C reaches
                // cdpor, which then tears the server down.
                libc::setpgid(0, 0);
                Ok(())
            });
        }
        let server = command.spawn()?;
        drop(shm_file);
        drop(cmd_r);
        drop(ack_w);
        Ok(Executor {
            server,
            map,
            layout,
            cmd: File::from(cmd_w),
            ack: File::from(ack_r),
            timeout: opts.timeout,
        })
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
            End::TimedOut { syscall: None, .. } => self.run_as(req, max_steps, probe),
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

    fn run_as(&mut self, req: &Request, max_steps: usize, probe: u64) -> Result<Execution, String> {
        let cap = self.layout.cap_steps;
        if req.schedule.len() > cap {
            return Err("schedule longer than the step capacity".into());
        }
        {
            let base = self.map.as_mut_ptr();
            unsafe {
                let sched = base.add(self.layout.schedule()) as *mut Step;
                std::ptr::copy_nonoverlapping(req.schedule.as_ptr(), sched, req.schedule.len());
                let sleep = base.add(self.layout.sleep()) as *mut Event;
                let n = req.sleep.len().min(MAX_THREADS);
                std::ptr::copy_nonoverlapping(req.sleep.as_ptr(), sleep, n);
            }
        }
        let sleep_len = req.sleep.len().min(MAX_THREADS) as u32;
        let h = self.hdr();
        h.sched_len = req.schedule.len() as u32;
        h.sleep_len = sleep_len;
        h.sleep_from = req.sleep_from as u32;
        h.max_steps = max_steps.min(cap) as u32;
        h.probe = probe;
        h.child_pid = 0;
        h.running = 0;
        self.cmd.write_all(b"g").map_err(|_| self.server_gone())?;
        let stopped = self.wait_ack()?;
        Ok(self.collect(stopped))
    }

    /// Waits for the server's "done". When the time limit strikes first, or the child
    /// sleeps in one system call for a second, the child is killed (and the wait
    /// completes): `Some` of the call it slept in, if any.
    fn wait_ack(&mut self) -> Result<Option<Option<i64>>, String> {
        let mut pfd = libc::pollfd {
            fd: self.ack.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let deadline = Instant::now() + self.timeout;
        let mut sleeping = None;
        let stopped = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let ms = left.min(Duration::from_secs(1)).as_millis() as i32;
            let r = unsafe { libc::poll(&mut pfd, 1, ms) };
            if r > 0 {
                break None;
            }
            let failed =
                r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted;
            let pid = self.hdr().child_pid;
            let now = (pid > 0).then(|| syscall::sleeping_in(pid)).flatten();
            let blocked =
                now.is_some_and(|nr| sleeping == Some(nr) && !syscall::ends_by_itself(nr));
            if blocked || left.is_zero() || failed {
                if pid > 0 {
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
                break Some(now);
            }
            sleeping = now;
        };
        let mut b = [0u8; 1];
        match self.ack.read(&mut b) {
            Ok(1) => Ok(stopped),
            _ => Err(self.server_gone()),
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
            names: Default::default(),
        }
    }
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
