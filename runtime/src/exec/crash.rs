//! Crashes and memory errors: a thread that faults, runs out of stack or misuses memory
//! makes a crash of its own (an operation other threads may precede), and the accesses
//! to memory that is gone (a finished thread's stack and thread-local block).

use super::*;

/// The crash that takes the place of `ev`, which failed as it executed (`why`: a
/// `CRASH_*` value).
pub(super) fn failing(ev: &Event, why: u64) -> Event {
    Event {
        kind: Kind::Crash as u8,
        value: why,
        replaced: ev.kind,
        flags: ev.flags & !OUTCOME_FLAGS,
        ..*ev
    }
}

/// A thread that crashed resumes here, on a fresh frame of its own stack: its next
/// operation is the crash.
pub(super) extern "C" fn cdpor_crashed_main() {
    let e = ex();
    let t = e.cur;
    let (sig, addr, pc, call) = e.threads[t as usize].crash;
    let site = e.threads[t as usize].last_site;
    e.submit(Event {
        site,
        addr,
        arg: pc,
        value: sig as u64,
        aux: call,
        ..Event::new(t, Kind::Crash)
    });
    unsafe { libc::_exit(3) }
}

/// The runtime's room on a thread's stack: an operation announced with less left is the
/// thread's stack overflow, before the runtime's own frames could reach the guard (a
/// fault there would be the runtime's, which cannot go on).
pub(super) const STACK_RESERVE: u64 = 64 << 10;

/// Is the current stack, that of thread `t`, within `STACK_RESERVE` of its guard?
#[inline(always)]
pub(super) fn stack_low(t: Tid) -> bool {
    let here = 0u8;
    let sp = &here as *const u8 as u64;
    let bottom = stack_bottom(t);
    sp >= bottom && sp < bottom + STACK_GUARD + STACK_RESERVE
}

/// A frame of `bytes` is about to be allocated on the current thread's stack
/// (`src/instrument/frames.rs`): one that would reach within `STACK_RESERVE` of the
/// guard, or past it into another thread's stack, is the thread's stack overflow.
#[no_mangle]
pub extern "C" fn cdpor_frame(bytes: u64, site: u32) {
    let e = ex();
    let here = 0u8;
    let sp = &here as *const u8 as u64;
    let bottom = stack_bottom(e.cur);
    let room = sp.wrapping_sub(bottom);
    // Not on a thread's stack (a handler run by the runtime): nothing to check.
    if room < STACK_SLOT && room < bytes.saturating_add(STACK_GUARD + STACK_RESERVE) {
        e.overflow(site);
    }
}

/// Called from the fatal-signal handler (on the alternate stack) when the fault is not a
/// probe's.
#[no_mangle]
pub extern "C" fn cdpor_crash(sig: c_int, addr: u64, pc: u64) -> ! {
    let e = ex();
    let t = e.cur;
    let th = &e.threads[t as usize];
    let user = !e.in_runtime && matches!(th.status, Status::Running | Status::Starting);
    if !user {
        // The runtime itself faulted: end the execution here.
        let site = th.last_site;
        e.write_end(Outcome::Crash, t, site, sig as i64);
        let h = e.hdr();
        h.fault_addr = addr;
        h.fault_pc = pc;
        unsafe { libc::_exit(0) }
    }
    // The signal handler's frame is left for good too.
    e.crash_in_own_step(t, (sig, addr, pc, unsafe { ffi::__cdpor_site }))
}

impl Exec {
    /// An access to the stack or a thread-local variable of a thread that has exited:
    /// its locals and its thread-local objects are gone (POSIX leaves the access
    /// undefined), whichever thread it is. That thread's number may serve another
    /// thread by now, whose stack and block start elsewhere (`layout::LIVES`).
    pub(super) fn dead_thread_memory(&self, addr: u64, len: u64) -> Option<MemFault> {
        let (owner, what, current) = match layout::stack_owner(addr) {
            Some((t, _)) => {
                let life = self.threads.get(t as usize).map_or(0, |th| th.life);
                (
                    t,
                    MemError::DeadStack,
                    addr < layout::life_stack_top(t, life),
                )
            }
            None => {
                let t = layout::tls_owner(addr)?.0;
                let life = self.threads.get(t as usize).map_or(0, |th| th.life);
                let block = layout::life_tls_block(t, life);
                (
                    t,
                    MemError::DeadTls,
                    addr.wrapping_sub(block) < layout::TLS_LIFE,
                )
            }
        };
        let th = self.threads.get(owner as usize)?;
        let (site, step) = match th.status {
            Status::Finished if current && owner != self.cur => (th.last_site, th.exit_step),
            Status::Unused => return None,
            _ if !current && th.life > 0 => th.previous_exit,
            _ => return None,
        };
        Some(MemFault {
            what: what as u32,
            addr,
            len,
            alloc_tid: owner,
            alloc_step: step,
            free_site: site,
            ..MemFault::default()
        })
    }

    /// The access (or free) `ev` is a memory error: a crash takes its place, the last
    /// event (which conflicts with everything, so every order that reaches the error
    /// another way is explored too).
    pub(super) fn memory_error(&mut self, ev: &Event, f: MemFault) -> ! {
        self.record(failing(ev, CRASH_MEMORY));
        self.hdr().mem = f;
        self.finish_at(Outcome::Memory, ev.tid, ev.site, 0)
    }

    /// The access `ev` faults at `addr`: the crash takes its place in the trace.
    pub(super) fn crash_at(&mut self, ev: &Event, addr: u64) -> ! {
        let crash = Event {
            tid: ev.tid,
            site: ev.site,
            addr,
            value: libc::SIGSEGV as u64,
            ..Event::new(ev.tid, Kind::Crash)
        };
        self.record(crash);
        self.finish_crash(&crash)
    }

    pub(super) fn finish_crash(&mut self, crash: &Event) -> ! {
        let overflow = crate::layout::guard_of(crash.addr).is_some();
        let h = self.hdr();
        h.fault_addr = crash.addr;
        h.fault_pc = crash.arg;
        h.outcome_line = 0;
        let outcome = if overflow {
            Outcome::StackOverflow
        } else {
            Outcome::Crash
        };
        self.finish(outcome, crash.tid, crash.value as i64)
    }

    /// Probes a synchronization object before an operation on it: a bad pointer makes
    /// the operation a crash of its thread, as the real call would have been.
    pub(super) fn check_object(&mut self, addr: u64, len: u64, site: u32) {
        if let Some(bad) = probe::unwritable(addr, len) {
            let t = self.cur;
            self.submit(Event {
                site,
                addr: bad,
                value: libc::SIGSEGV as u64,
                ..Event::new(t, Kind::Crash)
            });
        }
    }

    /// The current thread ran out of stack on its way to an operation at `site`: it
    /// crashes there, as if it had touched its guard, in a step of its own.
    pub(super) fn overflow(&mut self, site: u32) -> ! {
        let t = self.cur;
        // No library call made it: the operation's site says where.
        let guard = stack_bottom(t) + STACK_GUARD - 1;
        self.threads[t as usize].last_site = site;
        self.crash_in_own_step(t, (libc::SIGSEGV, guard, 0, u32::MAX))
    }

    /// Thread `t` crashed (`Thread::crash`): it leaves the frames it was in for good and
    /// announces the crash from a fresh start of its stack, so that the crash is an
    /// operation of its own, which other threads may run before.
    pub(super) fn crash_in_own_step(&mut self, t: Tid, crash: (c_int, u64, u64, u32)) -> ! {
        self.threads[t as usize].crash = crash;
        let top = layout::life_stack_top(t, self.threads[t as usize].life);
        let sp = unsafe { ffi::cdpor_fiber_init(top as *mut c_void, cdpor_crashed_main) };
        let mut dummy = ptr::null_mut();
        unsafe { ffi::cdpor_fiber_switch(&mut dummy, sp) };
        unsafe { libc::_exit(3) }
    }
}
