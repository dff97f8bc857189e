//! The end of an execution: how it ended, each thread's state and next operation as the
//! engine needs them, written to the region; then back to the worker (`worker::leave`).

use super::*;

impl Exec {
    /// A thread that a bound stopped (`--unroll`, `--max-threads`), if any: an execution
    /// that ends without an error while one waits there is cut, whatever ended it, since
    /// that thread could have gone on before the others' last events.
    pub(super) fn cut_by_bound(&self) -> Option<(Outcome, Tid)> {
        let any =
            |f: &dyn Fn(&Thread) -> bool| self.ready.iter().find(|&t| f(&self.threads[t as usize]));
        if let Some(t) = any(&|th| awaits::stopped(&th.pending)) {
            Some((Outcome::LoopBound, t))
        } else {
            any(&|th| self.over_thread_bound(&th.pending)).map(|t| (Outcome::ThreadBound, t))
        }
    }

    /// A thread stopped at a redundant try of a retry loop (`stale`), if any: an end of
    /// the process that came while one waits there is that of a redundant execution, as
    /// when no other thread can go on. The execution in which the thread's load comes
    /// after the change its try read covers the rest of it; the end comes after that
    /// thread's future there (docs/reductions.md).
    fn parked_stale(&self) -> Option<(Outcome, Tid)> {
        (self.ready.iter())
            .find(|&t| self.stale(t))
            .map(|t| (Outcome::StaleSpin, t))
    }

    /// A thread stopped at a false assumption (`cdpor_assume`), if any: the execution
    /// is infeasible, whatever ended it without an error, unless it is redundant.
    pub(super) fn parked_assumption(&self) -> Option<(Outcome, Tid)> {
        (self.ready.iter())
            .find(|&t| self.threads[t as usize].assumed)
            .map(|t| (Outcome::AssumeFail, t))
    }

    /// Writes how the execution ended and leaves the process.
    pub(super) fn finish(&mut self, outcome: Outcome, tid: Tid, code: i64) -> ! {
        let (outcome, tid) = match outcome {
            Outcome::Exit => (self.cut_by_bound())
                .or_else(|| self.parked_stale())
                .or_else(|| self.parked_assumption())
                .unwrap_or((outcome, tid)),
            Outcome::AssumeFail => self.cut_by_bound().unwrap_or((outcome, tid)),
            _ => (outcome, tid),
        };
        let site = match outcome {
            Outcome::Assertion
            | Outcome::Abort
            | Outcome::Exit
            | Outcome::ReachError
            | Outcome::AssumeFail
            | Outcome::Livelock
            | Outcome::LoopBound => self.threads[tid as usize % MAX_THREADS].pending.site,
            Outcome::Crash | Outcome::StackOverflow => {
                self.threads[tid as usize % MAX_THREADS].last_site
            }
            _ => 0,
        };
        self.finish_at(outcome, tid, site, code)
    }

    pub(super) fn finish_at(&mut self, outcome: Outcome, tid: Tid, site: u32, code: i64) -> ! {
        self.write_end(outcome, tid, site, code);
        if self.show_output {
            unsafe { ffi::cdpor_flush_stdio() };
        }
        worker::leave()
    }

    /// Ends the execution: the program does something the runtime cannot model.
    pub(super) fn unsupported(&mut self, site: u32, what: &[u8]) -> ! {
        let t = self.cur;
        shm::set_text(&mut self.hdr().text, what);
        self.write_end(Outcome::Unsupported, t, site, 0);
        worker::leave()
    }

    pub(super) fn write_end(&mut self, outcome: Outcome, tid: Tid, site: u32, code: i64) {
        self.write_threads();
        let h = self.hdr();
        h.outcome_tid = tid;
        h.outcome_site = site;
        h.outcome_code = code;
        h.outcome = outcome as u32;
    }

    /// Each thread's status and next operation, as cdpor reads them at the end.
    fn write_threads(&mut self) {
        let n = self.hdr().n_names.min(MAX_THREADS as u32);
        let enabled = ops::enabled_threads(self, |_| true);
        for t in 0..n {
            // A library call still pending: its ranges as memory holds them at the end.
            if let (Status::Ready, Some((fp, ctx))) = (
                self.threads[t as usize].status,
                self.threads[t as usize].lib,
            ) {
                let mut r = Ranges::default();
                if unsafe { cdpor_protected_footprint(fp, ctx, &mut r) } == 0 {
                    let site = self.threads[t as usize].pending.site;
                    self.threads[t as usize].pending = Event {
                        tid: t,
                        ..lib_event(&r, site)
                    };
                }
            }
            let th = &self.threads[t as usize];
            let status = match th.status {
                // Mid-transition threads have no next operation yet.
                Status::Unused | Status::Starting | Status::Running => ThreadStatus::NotCreated,
                Status::Finished => ThreadStatus::Finished,
                Status::Ready if enabled.contains(t) => ThreadStatus::Enabled,
                Status::Ready => ThreadStatus::Blocked,
            };
            let mut pending = th.pending;
            pending.tid = t;
            unsafe {
                self.threads_out.add(t as usize).write(ThreadEnd {
                    status: status as u32,
                    _pad: 0,
                    pending,
                });
            }
        }
        self.hdr().n_threads = n;
    }
}

/// cdpor stops an execution whose thread ran past `--exec-timeout` with `SIGUSR2` (the
/// handler runs on the alternate stack): what the other threads would do next tells it
/// where exploration goes on (the execution is cut there), if the thread was in the
/// program's code and not in the runtime's, whose state may be half changed. Then the
/// worker dies as if cdpor had killed it.
#[no_mangle]
pub extern "C" fn cdpor_hung() -> ! {
    let e = ex();
    let t = e.cur as usize;
    let user = t < MAX_THREADS
        && !e.in_runtime
        && matches!(e.threads[t].status, Status::Running | Status::Starting);
    if user {
        e.write_threads();
    }
    unsafe {
        libc::kill(libc::getpid(), libc::SIGKILL);
        libc::_exit(9)
    }
}

#[no_mangle]
pub extern "C" fn cdpor_process_exit(code: c_int, site: u32) -> ! {
    ex().submit(Event {
        site,
        value: code as i64 as u64,
        ..Event::new(0, Kind::ProcessExit)
    });
    unsafe { libc::_exit(3) }
}

/// A use of a modelled function with an argument cdpor does not model (`what` says
/// which): the run stops with exit 2.
#[no_mangle]
pub extern "C" fn cdpor_refuse(what: *const c_char, site: u32) -> ! {
    let what = unsafe { CStr::from_ptr(what) }.to_bytes();
    ex().unsupported(site, what)
}

#[no_mangle]
pub extern "C" fn cdpor_assert_fail(
    expr: *const c_char,
    file: *const c_char,
    line: u32,
    site: u32,
) -> ! {
    let e = ex();
    e.threads[e.cur as usize].assertion = (expr, file, line);
    e.submit(Event {
        site,
        ..Event::new(0, Kind::AssertFail)
    });
    unsafe { libc::_exit(3) }
}

#[no_mangle]
pub extern "C" fn cdpor_abort(site: u32) -> ! {
    let e = ex();
    // SV-COMP programs abort() on paths they exclude (`assume_abort_if_not`).
    let kind = if e.hdr().flags & shm::FLAG_SVCOMP != 0 {
        Kind::AssumeFail
    } else {
        Kind::Abort
    };
    e.submit(Event {
        site,
        ..Event::new(0, kind)
    });
    unsafe { libc::_exit(3) }
}
