//! One execution, inside a forked child: the user's threads as fibers, the scheduler that
//! decides at every visible operation, and the trace written to shared memory.
//!
//! A thread always runs up to its next visible operation, announces it (`pending`) and
//! waits there until the scheduler picks it; the picked thread then executes that
//! operation and runs on. So at every scheduling point each live thread's next operation
//! is known, which is what sleep sets and the end-of-execution race analysis need.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr;

use cdpor_sched::event::{FLAG_FROM_TRY, FLAG_VALUE};
use cdpor_sched::shm::{self, Alloc, Header, Layout, Outcome, ThreadEnd, ThreadStatus};
use cdpor_sched::{Event, Kind, Pick, Scheduler, ThreadSet, Tid, MAX_THREADS};

use crate::layout::{stack_top, STACK_GUARD, STACK_SLOT};
use crate::{ffi, Global};

#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Unused,
    /// Created, running to its first visible operation.
    Starting,
    /// Waiting at `pending`.
    Ready,
    /// Executing its last operation and running on to the next one.
    Running,
    Finished,
}

#[derive(Clone, Copy)]
struct Thread {
    status: Status,
    pending: Event,
    sp: *mut c_void,
    parent: Tid,
    start: Option<unsafe extern "C" fn(*mut c_void) -> *mut c_void>,
    arg: *mut c_void,
    retval: *mut c_void,
    /// Result of the last executed operation, for the shim that asked for it.
    result: u64,
    /// Site of the thread's last executed operation, to locate crashes.
    last_site: u32,
}

const UNUSED: Thread = Thread {
    status: Status::Unused,
    pending: Event {
        addr: 0,
        src: 0,
        value: 0,
        enabled: 0,
        len: 0,
        site: 0,
        tid: 0,
        kind: 0,
        flags: 0,
        aux: 0,
    },
    sp: ptr::null_mut(),
    parent: 0,
    start: None,
    arg: ptr::null_mut(),
    retval: ptr::null_mut(),
    result: 0,
    last_site: 0,
};

pub struct Exec {
    hdr: *mut Header,
    events: *mut Event,
    threads_out: *mut ThreadEnd,
    allocs: *mut Alloc,
    sched: Scheduler<'static>,
    threads: &'static mut [Thread; MAX_THREADS],
    nthreads: u32,
    cur: Tid,
    /// Enabled threads at the current scheduling point (recorded with the event).
    enabled: ThreadSet,
    show_output: bool,
    argc: c_int,
    argv: *mut *mut c_char,
    envp: *mut *mut c_char,
    /// Stack pointer of the fork server's stack, which the child leaves for good.
    boot_sp: *mut c_void,
}

static EXEC: Global<Option<Exec>> = Global::new(None);

/// The thread table, apart from `Exec` and all zeros, so that it starts out in `.bss`
/// untouched by the fork server and an execution only writes the pages of the threads it
/// creates (every page an execution writes costs a fault).
#[repr(C, align(4096))]
struct Threads([Thread; MAX_THREADS]);

static THREADS: Global<Threads> = Global::new(Threads([UNUSED; MAX_THREADS]));

/// The execution of this child. Only called once `start` has set it up: every entry point
/// below runs inside an execution.
#[allow(clippy::mut_from_ref)]
fn ex() -> &'static mut Exec {
    match unsafe { EXEC.get() } {
        Some(e) => e,
        None => unsafe {
            // A hook called outside an execution (e.g. from a static constructor):
            // there is nothing sensible to do but stop.
            libc::_exit(3)
        },
    }
}

/// Starts the execution described by the request in shared memory; never returns.
///
/// # Safety
/// `base` must map a region laid out by `Layout` that holds a valid request.
pub unsafe fn start(
    base: *mut u8,
    show_output: bool,
    argc: c_int,
    argv: *mut *mut c_char,
    envp: *mut *mut c_char,
) -> ! {
    let hdr = base as *mut Header;
    let layout = Layout {
        cap_steps: (*hdr).cap_steps as usize,
    };
    let sched_len = ((*hdr).sched_len as usize).min(layout.cap_steps);
    let schedule = std::slice::from_raw_parts(base.add(layout.schedule()) as *const Tid, sched_len);
    let sleep_len = ((*hdr).sleep_len as usize).min(MAX_THREADS);
    let sleep = std::slice::from_raw_parts(base.add(layout.sleep()) as *const Event, sleep_len);
    let max_steps = ((*hdr).max_steps as usize).min(layout.cap_steps);
    *EXEC.get() = Some(Exec {
        hdr,
        events: base.add(layout.events()) as *mut Event,
        threads_out: base.add(layout.threads()) as *mut ThreadEnd,
        allocs: base.add(layout.allocs()) as *mut Alloc,
        sched: Scheduler::new(schedule, sleep, (*hdr).sleep_from as usize, max_steps),
        threads: &mut THREADS.get().0,
        nthreads: 0,
        cur: 0,
        enabled: ThreadSet::EMPTY,
        show_output,
        argc,
        argv,
        envp,
        boot_sp: ptr::null_mut(),
    });
    let e = ex();
    let main = e
        .new_thread(None, ptr::null_mut(), 0)
        .unwrap_or_else(|| libc::_exit(3));
    // The main thread's first operation is announced like a created thread's: run it
    // up to there, then schedule.
    e.threads[main as usize].status = Status::Starting;
    e.cur = main;
    (*hdr).running = main;
    ffi::cdpor_fiber_switch(&mut e.boot_sp, e.threads[main as usize].sp);
    // The main thread switches back here once it has announced its first operation.
    let e = ex();
    let first = e.choose();
    e.cur = first;
    (*hdr).running = first;
    let mut dummy = ptr::null_mut();
    ffi::cdpor_fiber_switch(&mut dummy, e.threads[first as usize].sp);
    libc::_exit(3)
}

impl Exec {
    fn hdr(&mut self) -> &mut Header {
        unsafe { &mut *self.hdr }
    }

    /// Sets up a fiber for a new thread; `None` when there are too many threads.
    fn new_thread(
        &mut self,
        start: Option<unsafe extern "C" fn(*mut c_void) -> *mut c_void>,
        arg: *mut c_void,
        parent: Tid,
    ) -> Option<Tid> {
        let t = self.nthreads;
        if t as usize >= MAX_THREADS {
            return None;
        }
        let top = stack_top(t);
        let bottom = top - STACK_SLOT + STACK_GUARD;
        unsafe {
            if libc::mprotect(
                bottom as *mut c_void,
                (top - bottom) as usize,
                libc::PROT_READ | libc::PROT_WRITE,
            ) != 0
            {
                return None;
            }
        }
        self.nthreads += 1;
        self.threads[t as usize] = Thread {
            status: Status::Starting,
            sp: unsafe { ffi::cdpor_fiber_init(top as *mut c_void) },
            parent,
            start,
            arg,
            ..UNUSED
        };
        Some(t)
    }

    fn enabled_and_live(&self) -> (ThreadSet, ThreadSet) {
        let mut enabled = ThreadSet::EMPTY;
        let mut live = ThreadSet::EMPTY;
        for t in 0..self.nthreads {
            let th = &self.threads[t as usize];
            if th.status != Status::Ready {
                continue;
            }
            live.insert(t);
            if self.can_run(&th.pending) {
                enabled.insert(t);
            }
        }
        (enabled, live)
    }

    /// Whether a pending operation can execute now: locks wait for the mutex to be free,
    /// joins for the thread to finish.
    fn can_run(&self, ev: &Event) -> bool {
        match ev.kind() {
            Kind::Lock => unsafe { mutex_word(ev.addr).read_volatile() == 0 },
            // Woken by a signal, and the mutex is free to take back.
            Kind::CondWake => ev.value == 1 && unsafe { mutex_word(ev.src).read_volatile() == 0 },
            Kind::Join => self
                .threads
                .get(ev.aux as usize)
                .is_some_and(|t| t.status == Status::Finished),
            _ => true,
        }
    }

    /// Picks the thread that performs the next event, or ends the execution.
    fn choose(&mut self) -> Tid {
        let (enabled, live) = self.enabled_and_live();
        match self.sched.pick(Some(self.cur), enabled, live) {
            Pick::Run(t) => {
                self.enabled = enabled;
                t
            }
            Pick::Done => self.finish(Outcome::Exit, self.cur, 0),
            Pick::Deadlock => self.finish(Outcome::Deadlock, self.cur, 0),
            Pick::SleepBlocked => self.finish(Outcome::SleepBlocked, self.cur, 0),
            Pick::StepBound => self.finish(Outcome::StepBound, self.cur, 0),
            Pick::Diverged(t) => self.finish(Outcome::Diverged, t, 0),
        }
    }

    fn switch_to(&mut self, next: Tid) {
        let from = self.cur;
        self.cur = next;
        unsafe { (*self.hdr).running = next };
        let save: *mut *mut c_void = &mut self.threads[from as usize].sp;
        let to = self.threads[next as usize].sp;
        unsafe { ffi::cdpor_fiber_switch(save, to) };
    }

    /// Announces the current thread's next operation and returns once it has executed.
    fn submit(&mut self, ev: Event) {
        let t = self.cur;
        let th = &mut self.threads[t as usize];
        th.pending = Event {
            tid: t as u16,
            ..ev
        };
        let starting = th.status == Status::Starting;
        th.status = Status::Ready;
        if starting {
            // First operation of a new thread: go back to its creator, which is in the
            // middle of executing the create.
            let parent = th.parent;
            if t == 0 {
                self.cur = 0;
                unsafe { (*self.hdr).running = 0 };
                let save: *mut *mut c_void = &mut self.threads[0].sp;
                unsafe { ffi::cdpor_fiber_switch(save, self.boot_sp) };
            } else {
                self.switch_to(parent);
            }
        } else {
            let next = self.choose();
            if next != t {
                self.switch_to(next);
            }
        }
        // Picked: this thread's pending operation runs now.
        ex().execute();
    }

    /// Executes the current thread's pending operation and records it.
    fn execute(&mut self) {
        let t = self.cur;
        let mut ev = self.threads[t as usize].pending;
        ev.enabled = self.enabled.0;
        // Set first: reading the value below may fault on a bad address.
        self.threads[t as usize].last_site = ev.site;
        self.threads[t as usize].status = Status::Running;
        let mut result = 0u64;
        let mut created = None;
        match ev.kind() {
            Kind::Read | Kind::Rmw => {
                ev.value = read_value(ev.addr, ev.len);
                ev.flags |= FLAG_VALUE;
            }
            Kind::CmpXchg => {
                let current = read_value(ev.addr, ev.len);
                let mask = if ev.len >= 8 {
                    u64::MAX
                } else {
                    (1u64 << (8 * ev.len)) - 1
                };
                ev.kind = if current == ev.value & mask {
                    Kind::Rmw
                } else {
                    Kind::Read
                } as u8;
                ev.value = current;
                ev.flags |= FLAG_VALUE | FLAG_FROM_TRY;
            }
            Kind::Lock => unsafe { mutex_word(ev.addr).write_volatile(t + 1) },
            Kind::TryLock => unsafe {
                if mutex_word(ev.addr).read_volatile() == 0 {
                    mutex_word(ev.addr).write_volatile(t + 1);
                    ev.kind = Kind::Lock as u8;
                    ev.flags |= FLAG_FROM_TRY;
                } else {
                    ev.kind = Kind::TryFail as u8;
                    result = libc::EBUSY as u64;
                }
            },
            Kind::Unlock => unsafe {
                if mutex_word(ev.addr).read_volatile() != t + 1 {
                    result = libc::EPERM as u64;
                }
                mutex_word(ev.addr).write_volatile(0);
            },
            Kind::MutexInit => unsafe {
                mutex_word(ev.addr).write_volatile(0);
                ((ev.addr + MUTEX_KIND_OFFSET) as *mut i32).write_volatile(0);
            },
            Kind::CondWait => unsafe { mutex_word(ev.src).write_volatile(0) },
            Kind::CondSignal => {
                for u in 0..self.nthreads as usize {
                    let p = &mut self.threads[u].pending;
                    if self.threads[u].status == Status::Ready
                        && p.kind() == Kind::CondWake
                        && p.addr == ev.addr
                    {
                        p.value = 1;
                    }
                }
            }
            Kind::CondWake => unsafe { mutex_word(ev.src).write_volatile(t + 1) },
            Kind::Create => {
                let th = self.threads[t as usize];
                match self.new_thread(th.start, th.arg, t) {
                    Some(child) => {
                        ev.aux = child;
                        created = Some(child);
                        result = child as u64;
                    }
                    None => self.finish(Outcome::TooManyThreads, t, 0),
                }
            }
            Kind::Join => {
                result = self.threads[ev.aux as usize].retval as u64;
            }
            Kind::ThreadExit => {
                self.threads[t as usize].status = Status::Finished;
                self.threads[t as usize].retval = ev.value as *mut c_void;
            }
            _ => {}
        }
        self.record(ev);
        self.threads[t as usize].result = result;
        match ev.kind() {
            Kind::ProcessExit => self.finish(Outcome::Exit, t, ev.value as i64),
            Kind::AssertFail => self.finish(Outcome::Assertion, t, 0),
            Kind::Abort => self.finish(Outcome::Abort, t, 0),
            _ => {}
        }
        if let Some(child) = created {
            // Run the new thread up to its first visible operation, then come back.
            self.switch_to(child);
        }
    }

    fn record(&mut self, ev: Event) {
        let i = self.sched.step();
        unsafe {
            self.events.add(i).write(ev);
            (*self.hdr).n_events = i as u32 + 1;
        }
        self.sched.executed(&ev);
    }

    /// Writes how the execution ended and leaves the process.
    fn finish(&mut self, outcome: Outcome, tid: Tid, code: i64) -> ! {
        let site = if matches!(outcome, Outcome::Assertion | Outcome::Abort | Outcome::Exit) {
            self.threads[tid as usize % MAX_THREADS].pending.site
        } else {
            0
        };
        self.write_end(outcome, tid, site, code);
        if self.show_output {
            unsafe { ffi::cdpor_flush_stdio() };
        }
        unsafe { libc::_exit(0) }
    }

    /// Ends the execution: the program does something the runtime cannot model.
    fn unsupported(&mut self, site: u32, what: &[u8]) -> ! {
        let t = self.cur;
        shm::set_text(&mut self.hdr().text, what);
        self.write_end(Outcome::Unsupported, t, site, 0);
        unsafe { libc::_exit(0) }
    }

    fn write_end(&mut self, outcome: Outcome, tid: Tid, site: u32, code: i64) {
        for t in 0..self.nthreads {
            let th = &self.threads[t as usize];
            let status = match th.status {
                // Mid-transition threads have no next operation yet.
                Status::Unused | Status::Starting | Status::Running => ThreadStatus::NotCreated,
                Status::Finished => ThreadStatus::Finished,
                Status::Ready if self.can_run(&th.pending) => ThreadStatus::Enabled,
                Status::Ready => ThreadStatus::Blocked,
            };
            let mut pending = th.pending;
            pending.tid = t as u16;
            unsafe {
                self.threads_out.add(t as usize).write(ThreadEnd {
                    status: status as u32,
                    _pad: 0,
                    pending,
                });
            }
        }
        let n = self.nthreads;
        let h = self.hdr();
        h.n_threads = n;
        h.outcome_tid = tid;
        h.outcome_site = site;
        h.outcome_code = code;
        h.outcome = outcome as u32;
    }
}

/// The word of a `pthread_mutex_t` that the runtime uses as its lock: 0 when free, the
/// owner's tid + 1 when held. A zeroed mutex (`PTHREAD_MUTEX_INITIALIZER`) is free.
fn mutex_word(addr: u64) -> *mut u32 {
    addr as *mut u32
}

fn read_value(addr: u64, len: u32) -> u64 {
    let n = (len as usize).min(8);
    let mut bytes = [0u8; 8];
    unsafe { ptr::copy_nonoverlapping(addr as *const u8, bytes.as_mut_ptr(), n) };
    u64::from_le_bytes(bytes)
}

// ---- entry points for the C side ----

#[no_mangle]
pub extern "C" fn cdpor_fiber_main() {
    let e = ex();
    let t = e.cur;
    if t == 0 {
        let code = unsafe { ffi::__cdpor_user_main(e.argc, e.argv, e.envp) };
        cdpor_process_exit(code, 0);
    } else {
        let th = e.threads[t as usize];
        let ret = match th.start {
            Some(f) => unsafe { f(th.arg) },
            None => ptr::null_mut(),
        };
        cdpor_thread_exit(ret, 0);
    }
}

#[no_mangle]
pub extern "C" fn cdpor_access(kind: u32, addr: u64, len: u64, value: u64, site: u32, flags: u32) {
    if len == 0 {
        return;
    }
    let kind = Kind::from_u8(kind as u8).unwrap_or(Kind::Fence);
    let mut ev = Event::mem(0, kind, addr, len.min(u32::MAX as u64) as u32);
    ev.site = site;
    ev.flags = flags as u8;
    if kind == Kind::Copy {
        ev.src = value;
    } else {
        ev.value = value;
    }
    ex().submit(ev);
}

#[no_mangle]
pub extern "C" fn cdpor_create(
    start: Option<unsafe extern "C" fn(*mut c_void) -> *mut c_void>,
    arg: *mut c_void,
    site: u32,
) -> u32 {
    let e = ex();
    let t = e.cur as usize;
    e.threads[t].start = start;
    e.threads[t].arg = arg;
    e.submit(Event {
        site,
        aux: u32::MAX,
        ..Event::new(0, Kind::Create)
    });
    let e = ex();
    e.threads[e.cur as usize].result as u32
}

#[no_mangle]
pub extern "C" fn cdpor_join(handle: u64, retval: *mut *mut c_void, site: u32) -> c_int {
    let e = ex();
    let target = handle.wrapping_sub(1);
    if target >= e.nthreads as u64 {
        return libc::ESRCH;
    }
    if target == e.cur as u64 {
        return libc::EDEADLK;
    }
    e.submit(Event {
        site,
        aux: target as u32,
        ..Event::new(0, Kind::Join)
    });
    let e = ex();
    if !retval.is_null() {
        unsafe { *retval = e.threads[e.cur as usize].result as *mut c_void };
    }
    0
}

#[no_mangle]
pub extern "C" fn cdpor_thread_exit(retval: *mut c_void, site: u32) -> ! {
    let e = ex();
    e.submit(Event {
        site,
        value: retval as u64,
        ..Event::new(0, Kind::ThreadExit)
    });
    // Finished: hand over to another thread for good.
    loop {
        let e = ex();
        let next = e.choose();
        e.switch_to(next);
    }
}

/// glibc's `pthread_mutex_t.__kind`, set by the static initializers of recursive and
/// error-checking mutexes.
const MUTEX_KIND_OFFSET: u64 = 16;

#[no_mangle]
pub extern "C" fn cdpor_mutex(kind: u32, mutex: *mut c_void, site: u32) -> c_int {
    let kind = Kind::from_u8(kind as u8).unwrap_or(Kind::Fence);
    if mutex.is_null() {
        return libc::EINVAL;
    }
    // Only default (and adaptive) mutexes are modelled; anything else would be explored
    // with the wrong semantics (a recursive relock taken for a self-deadlock).
    let mutex_kind =
        unsafe { ((mutex as u64 + MUTEX_KIND_OFFSET) as *const i32).read_volatile() } & 0x7f;
    if kind != Kind::MutexInit
        && (mutex_kind == libc::PTHREAD_MUTEX_RECURSIVE
            || mutex_kind == libc::PTHREAD_MUTEX_ERRORCHECK)
    {
        ex().unsupported(
            site,
            b"recursive and error-checking mutexes are not supported yet",
        );
    }
    ex().submit(Event {
        site,
        addr: mutex as u64,
        ..Event::new(0, kind)
    });
    let e = ex();
    e.threads[e.cur as usize].result as c_int
}

/// `pthread_cond_wait`: release the mutex and wait (one event), then take the mutex back
/// once a signal woke this thread (another event).
#[no_mangle]
pub extern "C" fn cdpor_cond_wait(cond: *mut c_void, mutex: *mut c_void, site: u32) -> c_int {
    if cond.is_null() || mutex.is_null() {
        return libc::EINVAL;
    }
    let e = ex();
    if unsafe { mutex_word(mutex as u64).read_volatile() } != e.cur + 1 {
        return libc::EPERM;
    }
    let ev = Event {
        site,
        addr: cond as u64,
        src: mutex as u64,
        ..Event::new(0, Kind::CondWait)
    };
    e.submit(ev);
    ex().submit(Event {
        kind: Kind::CondWake as u8,
        ..ev
    });
    0
}

#[no_mangle]
pub extern "C" fn cdpor_cond_signal(cond: *mut c_void, broadcast: c_int, site: u32) -> c_int {
    if cond.is_null() {
        return libc::EINVAL;
    }
    ex().submit(Event {
        site,
        addr: cond as u64,
        value: (broadcast != 0) as u64,
        ..Event::new(0, Kind::CondSignal)
    });
    0
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

#[no_mangle]
pub extern "C" fn cdpor_assert_fail(
    expr: *const c_char,
    file: *const c_char,
    line: u32,
    site: u32,
) -> ! {
    let e = ex();
    let h = e.hdr();
    unsafe {
        if !expr.is_null() {
            shm::set_text(&mut h.text, CStr::from_ptr(expr).to_bytes());
        }
        if !file.is_null() {
            shm::set_text(&mut h.file, CStr::from_ptr(file).to_bytes());
        }
    }
    h.outcome_line = line;
    e.submit(Event {
        site,
        ..Event::new(0, Kind::AssertFail)
    });
    unsafe { libc::_exit(3) }
}

#[no_mangle]
pub extern "C" fn cdpor_abort(site: u32) -> ! {
    ex().submit(Event {
        site,
        ..Event::new(0, Kind::Abort)
    });
    unsafe { libc::_exit(3) }
}

#[no_mangle]
pub extern "C" fn cdpor_self() -> u64 {
    ex().cur as u64 + 1
}

#[no_mangle]
pub extern "C" fn cdpor_current_tid() -> u32 {
    ex().cur
}

#[no_mangle]
pub extern "C" fn cdpor_log_alloc(addr: u64, size: u64, site: u32) {
    let e = ex();
    let tid = e.cur;
    let h = e.hdr();
    let i = h.n_allocs as usize;
    if i < shm::MAX_ALLOCS {
        unsafe {
            e.allocs.add(i).write(Alloc {
                addr,
                size,
                site,
                tid,
            })
        };
        e.hdr().n_allocs = i as u32 + 1;
    }
}

/// Called from the fatal-signal handler (on the alternate stack).
#[no_mangle]
pub extern "C" fn cdpor_crash(sig: c_int, addr: u64, pc: u64) -> ! {
    let e = ex();
    let t = e.cur;
    let overflow = crate::layout::guard_of(addr).is_some();
    let site = e.threads[t as usize].last_site;
    e.write_end(
        if overflow {
            Outcome::StackOverflow
        } else {
            Outcome::Crash
        },
        t,
        site,
        sig as i64,
    );
    // No allocation here: the fault may have struck inside malloc.
    let h = e.hdr();
    h.fault_addr = addr;
    h.fault_pc = pc;
    h.outcome_line = 0;
    unsafe { libc::_exit(0) }
}
