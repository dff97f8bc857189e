//! One execution, inside a worker: the user's threads as fibers, the scheduler that
//! decides at every visible operation, and the trace written to shared memory.
//!
//! A thread always runs up to its next visible operation, announces it (`pending`) and
//! waits there until the scheduler picks it; the picked thread then executes that
//! operation and runs on. So at every scheduling point each live thread's next operation
//! is known, which is what sleep sets and the end-of-execution race analysis need. What an
//! operation means is `cdpor_sched::ops`'; this module supplies the real state it works
//! on (`World`) and what only a real process has: fibers, memory, crashes, the trace.
//!
//! A crash is an operation too: a thread that faults in its own code gets a fresh frame
//! on its stack whose pending operation is the crash, and other threads may run before
//! it. The runtime's own reads and writes of user memory go through `probe`, so a bad
//! address makes the access itself the crash.
//!
//! Here: the execution's state (`Exec`, and the thread table) and the scheduling core
//! (announce, choose, execute, record). Around it, one module per concern: threads,
//! loops and awaits, synchronization objects, memory and the C library's calls, the
//! SV-COMP API, crashes, and the end of an execution.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr;

use cdpor_sched::event::{
    CRASH_MEMORY, CRASH_MISUSE, FLAG_FAILED, FLAG_RESTRICTED, FLAG_SCAN, FLAG_SILENT,
    FLAG_SPURIOUS, FLAG_STORE, FLAG_VALUE, OUTCOME_FLAGS,
};
use cdpor_sched::layout::{self, stack_bottom, STACK_GUARD, STACK_SLOT};
use cdpor_sched::ops::awaits::{
    self, Watch, LOOP_BACK, LOOP_ENDLESS, LOOP_ERRNO, LOOP_MAY_WAIT, LOOP_MEMORYLESS, LOOP_NO_EXIT,
    LOOP_PEELED, LOOP_RETRY,
};
use cdpor_sched::ops::memory::Summary;
use cdpor_sched::ops::nondet;
use cdpor_sched::ops::{self, World};
use cdpor_sched::scheduler::Probe;
use cdpor_sched::shm::{
    self, Alloc, Header, Layout, MemError, MemFault, Outcome, ThreadEnd, ThreadName, ThreadStatus,
    NO_PARENT,
};
use cdpor_sched::{Event, Kind, Pick, Scheduler, Step, ThreadSet, Tid, MAX_THREADS};

use crate::{ffi, heap, probe, worker, Global};

mod crash;
mod end;
mod library;
mod loops;
mod sync;
mod threads;
mod verifier;

use crash::*;
use library::*;
use loops::*;
use threads::*;
use verifier::*;

/// The state of one execution, besides the thread table (`THREADS`): all of it, so that
/// an in-place reset puts back exactly this (`reset`).
pub struct Exec {
    hdr: *mut Header,
    events: *mut Event,
    enabled_out: *mut ThreadSet,
    threads_out: *mut ThreadEnd,
    names: *mut ThreadName,
    allocs: *mut Alloc,
    sched: Scheduler<'static>,
    threads: &'static mut [Thread; MAX_THREADS],
    /// Threads at `Status::Ready`.
    ready: ThreadSet,
    cur: Tid,
    /// Enabled threads at the current scheduling point (recorded with the event).
    enabled: ThreadSet,
    /// Runtime code is running (not the program's): a fault now is cdpor's own.
    in_runtime: bool,
    show_output: bool,
    /// Memory errors and misuses of synchronization objects end the execution (not
    /// under `--svcomp`, whose tasks are checked for reachable errors only: there a use
    /// after free reads what memory holds, an unlock of a free mutex leaves it free).
    strict: bool,
    argc: c_int,
    argv: *mut *mut c_char,
    envp: *mut *mut c_char,
    /// Stack pointer of the fork server's stack, which the child leaves for good.
    boot_sp: *mut c_void,
    /// Threads created in this execution, main excluded.
    created: u32,
    /// The first nondeterministic values of the execution, which a probe may repeat.
    chosen: [u64; CHOSEN],
    n_chosen: usize,
    /// Values sampled from a wide interval and not used yet: their site, thread, and how
    /// many values they were explored over.
    sampled: [(u32, Tid, u32); SAMPLED],
    n_sampled: usize,
    /// Threads' own words about objects (`World::thread_word`): few, so a list.
    thread_words: Vec<(Tid, u64, u32)>,
}

/// Sampled values awaiting a use; past this many, a sampled value counts as used.
const SAMPLED: usize = 16;

/// Nondeterministic values kept for probes to repeat.
const CHOSEN: usize = 16;

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

fn errno() -> &'static mut c_int {
    unsafe { &mut *libc::__errno_location() }
}

/// Runs the execution described by the request in shared memory; its end (`finish`)
/// leaves for the worker's loop (`worker::leave`).
///
/// # Safety
/// `base` must map a region laid out by `Layout` that holds a valid request.
pub unsafe fn run(
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
    let (schedule, sleep, sleep_from) = request(hdr);
    let max_steps = ((*hdr).max_steps as usize).min(layout.cap_steps);
    let names = base.add(layout.names()) as *mut ThreadName;
    if (*hdr).n_names == 0 {
        names.write(ThreadName {
            parent: NO_PARENT,
            index: 0,
        });
        (*hdr).n_names = 1;
    }
    *EXEC.get() = Some(Exec {
        hdr,
        events: base.add(layout.events()) as *mut Event,
        enabled_out: base.add(layout.enabled()) as *mut ThreadSet,
        threads_out: base.add(layout.threads()) as *mut ThreadEnd,
        names,
        allocs: base.add(layout.allocs()) as *mut Alloc,
        sched: Scheduler::new(schedule, sleep, sleep_from, max_steps)
            .probing(Probe::decode((*hdr).probe))
            .partial((*hdr).partial != 0),
        threads: &mut THREADS.get().0,
        ready: ThreadSet::EMPTY,
        cur: 0,
        enabled: ThreadSet::EMPTY,
        in_runtime: true,
        show_output,
        strict: (*hdr).flags & shm::FLAG_SVCOMP == 0,
        argc,
        argv,
        envp,
        boot_sp: ptr::null_mut(),
        created: 0,
        chosen: [0; CHOSEN],
        n_chosen: 0,
        sampled: [(0, 0, 0); SAMPLED],
        n_sampled: 0,
        thread_words: Vec::new(),
    });
    let e = ex();
    if !e.new_thread(0, None, ptr::null_mut(), NO_PARENT, 0) {
        e.unsupported(0, b"cannot map the main thread's stack")
    }
    // The main thread's first operation is announced like a created thread's: run it
    // up to there, then schedule.
    e.cur = 0;
    (*hdr).running = 0;
    ffi::cdpor_fiber_switch(&mut e.boot_sp, e.threads[0].sp);
    // The main thread switches back here once it has announced its first operation.
    let e = ex();
    let first = e.choose();
    e.cur = first;
    (*hdr).running = first;
    let mut dummy = ptr::null_mut();
    ffi::cdpor_fiber_switch(&mut dummy, e.threads[first as usize].sp);
    // The execution never comes back here: it ends in `finish`.
    libc::_exit(3)
}

/// The request in the region whose header is `hdr`: the schedule, the sleep set, and
/// the step from which the sleep set applies.
///
/// # Safety
/// `hdr` must head a region laid out by `Layout`.
unsafe fn request(hdr: *mut Header) -> (&'static [Step], &'static [Event], usize) {
    let base = hdr as *mut u8;
    let layout = Layout {
        cap_steps: (*hdr).cap_steps as usize,
    };
    let sched_len = ((*hdr).sched_len as usize).min(layout.cap_steps);
    let schedule =
        std::slice::from_raw_parts(base.add(layout.schedule()) as *const Step, sched_len);
    let sleep_len = ((*hdr).sleep_len as usize).min(MAX_THREADS);
    let sleep = std::slice::from_raw_parts(base.add(layout.sleep()) as *const Event, sleep_len);
    (schedule, sleep, (*hdr).sleep_from as usize)
}

/// Forgets the execution that ended, and gives its thread numbers back their empty
/// records (in place); returns how many numbers it may have used.
pub fn reset() -> u32 {
    let e = unsafe { EXEC.get() };
    let used = e
        .as_ref()
        .map_or(0, |e| unsafe { (*e.hdr).n_names }.min(MAX_THREADS as u32));
    // Nothing of it owns memory beyond the runtime's arena, which the reset empties.
    unsafe { crate::image::put_back(e, 1) };
    for th in unsafe { &mut THREADS.get().0[..used as usize] } {
        *th = UNUSED;
    }
    used
}

/// Where the thread table is, and its size: the snapshot of the image leaves it out
/// (`reset` resets the rows an execution used).
pub fn table() -> (u64, u64) {
    let t = unsafe { THREADS.get() };
    (
        t as *mut Threads as u64,
        std::mem::size_of::<Threads>() as u64,
    )
}

/// Is thread number `t` taken by a thread in the current execution?
pub fn thread_exists(t: Tid) -> bool {
    unsafe { EXEC.get().as_ref() }.is_some_and(|e| {
        e.threads
            .get(t as usize)
            .is_some_and(|th| th.status != Status::Unused)
    })
}

impl World for Exec {
    fn sync_word(&self, m: u64) -> u32 {
        unsafe { (m as *const u32).read_volatile() }
    }
    fn set_sync_word(&mut self, m: u64, v: u32) {
        unsafe { (m as *mut u32).write_volatile(v) }
        worker::wrote(m, m + 4);
    }
    fn thread_word(&self, t: Tid, m: u64) -> u32 {
        if m == stack_bottom(t) {
            return self.threads[t as usize % MAX_THREADS].own_word;
        }
        let found = self.thread_words.iter().find(|w| (w.0, w.1) == (t, m));
        found.map_or(0, |w| w.2)
    }
    fn set_thread_word(&mut self, t: Tid, m: u64, v: u32) {
        // A thread's word about itself (`ops::thread`) lives with it: every join sets
        // one, and an allocation in each execution would cost more than the join.
        if m == stack_bottom(t) {
            self.threads[t as usize % MAX_THREADS].own_word = v;
            return;
        }
        match self.thread_words.iter_mut().find(|w| (w.0, w.1) == (t, m)) {
            Some(w) => w.2 = v,
            None => self.thread_words.push((t, m, v)),
        }
    }
    fn ready(&self) -> ThreadSet {
        self.ready
    }
    fn pending(&self, t: Tid) -> &Event {
        &self.threads[t as usize].pending
    }
    fn pending_mut(&mut self, t: Tid) -> &mut Event {
        &mut self.threads[t as usize].pending
    }
    fn finished(&self, t: Tid) -> bool {
        self.threads
            .get(t as usize)
            .is_some_and(|th| th.status == Status::Finished)
    }
    fn choose(&mut self, n: u32) -> u32 {
        self.sched.choice(n)
    }
    fn barrier_overflow(&mut self) {
        self.hdr().barrier_overflow = 1;
    }
}

// ---- entry points for the C side ----

/// A new fiber starts here: the main thread runs `main`, others their start routine.
extern "C" fn cdpor_fiber_main() {
    let e = ex();
    e.in_runtime = false;
    *errno() = 0;
    let t = e.cur;
    if t == 0 {
        let code = unsafe { ffi::__cdpor_user_main(e.argc, e.argv, e.envp) };
        unsafe { ffi::cdpor_exit(code, 0) };
    } else {
        let th = e.threads[t as usize];
        let ret = match th.start {
            Some(f) => unsafe { f(th.arg) },
            None => ptr::null_mut(),
        };
        cdpor_thread_exit(ret, 0);
    }
}

/// The bits of a value of `len` bytes.
fn mask(len: u32) -> u64 {
    if len >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * len)) - 1
    }
}

impl Exec {
    fn hdr(&mut self) -> &mut Header {
        unsafe { &mut *self.hdr }
    }

    fn enabled_and_live(&self) -> (ThreadSet, ThreadSet) {
        let enabled = ops::enabled_threads(self, |p| !self.over_thread_bound(p));
        (enabled, self.ready)
    }

    /// A create past `--max-threads`, or one that finds no number left for its child,
    /// waits for good, so that the threads already created still run; the execution
    /// then ends cut by the bound.
    fn over_thread_bound(&self, p: &Event) -> bool {
        p.kind() == Kind::Create
            && (self.created >= unsafe { (*self.hdr).max_threads } || !self.has_number(p.tid))
    }

    /// Is there a number for thread `t`'s next child (`child_number`)?
    fn has_number(&self, t: Tid) -> bool {
        let th = &self.threads[t as usize];
        let want = ThreadName {
            parent: t,
            index: th.fresh,
        };
        th.free != NO_TID
            || (unsafe { (*self.hdr).n_names } as usize) < MAX_THREADS
            || self.taken(want).is_some()
    }

    /// Picks the thread that performs the next event, or ends the execution.
    fn choose(&mut self) -> Tid {
        if self.sched.wants_rest() {
            // cdpor posted the prefix it was sure of before it analysed the last
            // execution; the rest is known once it has.
            crate::worker::await_rest();
            let (schedule, sleep, sleep_from) = unsafe { request(self.hdr) };
            self.sched.complete(schedule, sleep, sleep_from);
        }
        let (enabled, live) = self.enabled_and_live();
        let ending = if self.sched.is_probe() {
            (enabled.iter())
                .filter(|&t| self.threads[t as usize].pending.kind() == Kind::ProcessExit)
                .collect()
        } else {
            ThreadSet::EMPTY
        };
        match self
            .sched
            .pick_ending(Some(self.cur), enabled, live, ending)
        {
            Pick::Run(t) => {
                self.enabled = enabled;
                t
            }
            Pick::Done => {
                // The last thread's exit after main's pthread_exit ends the program as
                // exit(0) would, in no thread that is left to run the handlers.
                if unsafe { ffi::cdpor_exit_handlers() } != 0 {
                    self.unsupported(
                        0,
                        b"atexit handlers of a program whose main ended with pthread_exit",
                    );
                }
                self.finish(Outcome::Exit, self.cur, 0)
            }
            Pick::Deadlock => {
                // A bound that stopped a thread may be why the others cannot go on.
                let (outcome, t) = if let Some(cut) = self.cut_by_bound() {
                    cut
                } else if let Some(t) = self.could_time_out() {
                    (Outcome::TimedWaitCut, t)
                } else if let Some(t) = live.iter().find(|&t| self.stale(t)) {
                    (Outcome::StaleSpin, t)
                } else if let Some(end) = self.parked_assumption() {
                    end
                } else if let Some(t) = live
                    .iter()
                    .find(|&t| awaits::spins(&self.threads[t as usize].pending))
                {
                    (Outcome::Livelock, t)
                } else {
                    (Outcome::Deadlock, self.cur)
                };
                self.finish(outcome, t, 0)
            }
            Pick::SleepBlocked => self.finish(Outcome::SleepBlocked, self.cur, 0),
            Pick::StepBound => self.finish(Outcome::StepBound, self.cur, 0),
            Pick::Diverged(t) => self.finish(Outcome::Diverged, t, 0),
        }
    }

    /// Runs thread `next` until it switches back; each thread keeps its own `errno`.
    fn switch_to(&mut self, next: Tid) {
        let from = self.cur;
        self.threads[from as usize].errno = *errno();
        self.cur = next;
        unsafe { (*self.hdr).running = next };
        let save: *mut *mut c_void = &mut self.threads[from as usize].sp;
        let to = self.threads[next as usize].sp;
        unsafe { ffi::cdpor_fiber_switch(save, to) };
        let e = ex();
        *errno() = e.threads[e.cur as usize].errno;
    }

    /// Announces the current thread's next operation and returns once it has executed.
    fn submit(&mut self, ev: Event) {
        if stack_low(self.cur) {
            self.overflow(ev.site);
        }
        self.in_runtime = true;
        let t = self.cur;
        if self.threads[t as usize].section.is_some() {
            self.within_section(Event { tid: t, ..ev });
            self.in_runtime = false;
            return;
        }
        let mut ev = Event { tid: t, ..ev };
        ops::announce(self, &mut ev);
        let th = &mut self.threads[t as usize];
        th.pending = ev;
        let starting = th.status == Status::Starting;
        let parent = th.parent;
        th.status = Status::Ready;
        self.ready.insert(t);
        if starting {
            // First operation of a new thread: go back to its creator, which is in the
            // middle of executing the create.
            if t == 0 {
                self.threads[0].errno = *errno();
                let save: *mut *mut c_void = &mut self.threads[0].sp;
                unsafe { ffi::cdpor_fiber_switch(save, self.boot_sp) };
                *errno() = ex().threads[0].errno;
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
        let e = ex();
        e.execute();
        e.in_runtime = false;
    }

    /// Executes the current thread's pending operation and records it.
    fn execute(&mut self) {
        let t = self.cur;
        let step = self.sched.step() as u32;
        let mut ev = self.threads[t as usize].pending;
        let th = &mut self.threads[t as usize];
        th.last_site = ev.site;
        th.status = Status::Running;
        self.ready.remove(t);
        if ev.kind() == Kind::Atomic {
            // The section runs now, as this step; it is recorded when it ends.
            self.threads[t as usize].section = Some(Section::default());
            return;
        }
        let mut result = self.perform(&mut ev, step);
        self.threads[t as usize].held += ops::holds(&ev);
        let mut created = None;
        match ev.kind() {
            Kind::Create => {
                let th = self.threads[t as usize];
                let index = th.children;
                self.threads[t as usize].children += 1;
                match self.child_number(t) {
                    Some(child) if self.new_thread(child, th.start, th.arg, t, index) => {
                        self.created += 1;
                        self.threads[t as usize].unfinished += 1;
                        ev.aux = child;
                        created = Some(child);
                        result = self.threads[child as usize].handle;
                    }
                    _ => self.finish(Outcome::ThreadBound, t, 0),
                }
            }
            Kind::Join => {
                let joined = self.threads[ev.aux as usize];
                result = joined.retval as u64;
                let th = &mut self.threads[t as usize];
                th.unfinished = th.unfinished.saturating_sub(1) + joined.unfinished;
                th.joins += 1;
                if !joined.joined && joined.held == 0 {
                    // Its number goes to this thread's next child: no lock names it.
                    let free = th.free;
                    th.free = ev.aux;
                    let j = &mut self.threads[ev.aux as usize];
                    j.next_free = free;
                    j.joined = true;
                }
            }
            Kind::ThreadExit => {
                let th = &mut self.threads[t as usize];
                th.status = Status::Finished;
                th.retval = ev.value as *mut c_void;
                th.exit_step = self.sched.step() as u32;
            }
            _ => {}
        }
        self.record(ev);
        self.threads[t as usize].result = result;
        match ev.kind() {
            Kind::ProcessExit => self.finish(Outcome::Exit, t, ev.value as i64),
            Kind::AssertFail if self.threads[t as usize].reach => {
                self.finish(Outcome::ReachError, t, 0)
            }
            Kind::AssertFail => {
                // Only now: another thread may have announced a failing assertion too.
                let (expr, file, line) = self.threads[t as usize].assertion;
                let h = self.hdr();
                unsafe {
                    if !expr.is_null() {
                        shm::set_text(&mut h.text, CStr::from_ptr(expr).to_bytes());
                    }
                    if !file.is_null() {
                        shm::set_text(&mut h.file, CStr::from_ptr(file).to_bytes());
                    }
                }
                h.outcome_line = line;
                self.finish(Outcome::Assertion, t, 0)
            }
            Kind::Abort => self.finish(Outcome::Abort, t, 0),
            Kind::AssumeFail => self.finish(Outcome::AssumeFail, t, 0),
            Kind::Crash => self.finish_crash(&ev),
            _ => {}
        }
        if let Some(child) = created {
            // Run the new thread up to its first visible operation, then come back.
            self.switch_to(child);
        }
    }

    /// The read-modify-write `ev` stored what memory held: it changed nothing, so (under
    /// sequential consistency) no thread can tell it from a read, and it only reads, as a
    /// failed cmpxchg does; but a data race is one whatever the values (`--races`).
    fn changed_nothing(&mut self, ev: &mut Event) {
        ev.flags |= FLAG_SILENT;
        if self.hdr().flags & shm::FLAG_RACES == 0 {
            ev.flags |= FLAG_FAILED;
        }
    }

    /// What an operation does to memory and to the synchronization state; returns its
    /// result for the program.
    fn perform(&mut self, ev: &mut Event, step: u32) -> u64 {
        let t = self.cur;
        if self.strict {
            if let Some(m) = ops::misuse(self, ev) {
                self.record(failing(ev, CRASH_MISUSE));
                self.finish_at(Outcome::Misuse, t, ev.site, m as i64)
            }
        }
        if matches!(
            ev.kind(),
            Kind::Read | Kind::Write | Kind::Rmw | Kind::CmpXchg | Kind::Copy
        ) {
            for r in ops::footprint(ev).ranges() {
                heap::before_access(r.lo, r.hi);
            }
        }
        let result = ops::execute(self, ev, step) as u64;
        match ev.kind() {
            Kind::Nondet => {
                if let Some((d, untracked)) = self.threads[ev.tid() as usize].nondet.take() {
                    if let Some(k) = self.sched.repeat(self.n_chosen) {
                        let want = self.chosen[k];
                        if let Some(c) = (0..ev.choices.max(1)).find(|&c| d.pick(c).0 == want) {
                            ev.choice = c;
                        }
                    }
                    let (value, sampled) = d.pick(ev.choice);
                    if self.n_chosen < CHOSEN {
                        self.chosen[self.n_chosen] = value;
                        self.n_chosen += 1;
                    }
                    ev.value = value;
                    if sampled {
                        ev.flags |= FLAG_RESTRICTED;
                        self.sampled(ev.site, ev.choices, untracked);
                    }
                }
                return ev.value;
            }
            Kind::Read | Kind::Rmw | Kind::CmpXchg => {
                let Some(current) = probe::load(ev.addr, ev.len) else {
                    self.crash_at(ev, ev.addr)
                };
                let mask = mask(ev.len);
                if ev.kind() == Kind::CmpXchg {
                    if current != ev.value & mask {
                        ev.flags |= FLAG_FAILED;
                    } else if ev.aux == 1 {
                        // It stored what it compared with: it changed nothing, so a loop
                        // of such tries can wait. Still a write for dependence, as a
                        // plain store of the value memory held is.
                        ev.flags |= FLAG_SILENT;
                    }
                    ev.aux = 0;
                }
                if ev.kind() == Kind::Rmw {
                    // `aux`: LLVM's AtomicRMWBinOp + 1; `value`: the operand.
                    let operand = ev.value & mask;
                    let silent = match ev.aux.checked_sub(1) {
                        Some(0) => current == operand,
                        Some(1 | 2 | 5 | 6) => operand == 0,
                        Some(3) => operand == mask,
                        _ => false,
                    };
                    if silent {
                        self.changed_nothing(ev);
                    }
                    ev.aux = 0;
                }
                ev.value = current;
                ev.flags |= FLAG_VALUE;
            }
            Kind::Write => {
                if let Some(bad) = probe::unwritable(ev.addr, ev.len as u64) {
                    self.crash_at(ev, bad)
                }
                if ev.flags & FLAG_VALUE != 0
                    && ev.len <= 8
                    && probe::load(ev.addr, ev.len) == Some(ev.value & mask(ev.len))
                {
                    // Still a write for dependence, as for Nidhugg and GenMC: two threads'
                    // `x = x + 1` that both stored 1 are two traces.
                    ev.flags |= FLAG_SILENT;
                } else {
                    let th = &mut self.threads[self.cur as usize];
                    if th.spurious_mark.is_some() || th.timeout_mark.is_some() {
                        let value = (ev.flags & FLAG_VALUE != 0).then_some(ev.value & mask(ev.len));
                        th.restore
                            .wrote(ev.addr, ev.len, probe::load(ev.addr, ev.len), value);
                    }
                }
                if ev.flags & FLAG_STORE != 0 {
                    let n = (ev.len as usize).min(8);
                    let bytes = ev.value.to_le_bytes();
                    unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), ev.addr as *mut u8, n) };
                }
            }
            Kind::Copy => {
                if let Some(bad) = probe::unreadable(ev.arg, ev.arg_len as u64)
                    .or_else(|| probe::unwritable(ev.addr, ev.len as u64))
                {
                    self.crash_at(ev, bad)
                }
            }
            Kind::Lib => {
                // The ranges as memory holds them now that the call runs.
                if let Some((fp, ctx)) = self.threads[t as usize].lib.take() {
                    let mut r = Ranges::default();
                    if unsafe { cdpor_protected_footprint(fp, ctx, &mut r) } != 0 {
                        self.crash_at(ev, ev.addr)
                    }
                    *ev = Event {
                        tid: t,
                        ..lib_event(&r, ev.site)
                    };
                }
            }
            Kind::Free => {
                if let Err(f) = heap::free(ev.addr, t, ev.site) {
                    if self.strict {
                        self.memory_error(ev, f)
                    }
                }
                return result;
            }
            // A synchronization object in a freed block, or on the stack of a thread that
            // has exited, is gone like any other bytes.
            _ if ops::in_program_memory(ev) => {}
            _ => return result,
        }
        if self.strict {
            // Whether the bytes are still a block's (or a live thread's stack) is decided
            // now, as the access executes; a write that changed nothing is still one.
            let footprint = ops::footprint(&ops::attempt(ev));
            for r in footprint.ranges().filter(|r| !layout::is_name(r.lo)) {
                let fault = heap::check(r.lo, r.hi - r.lo)
                    .err()
                    .or_else(|| self.dead_thread_memory(r.lo, r.hi - r.lo));
                if let Some(f) = fault {
                    let access = u32::from(r.mode.reads()) | u32::from(r.mode.writes()) << 1;
                    self.memory_error(ev, MemFault { access, ..f })
                }
            }
        }
        // What an in-place reset must put back.
        for r in ops::footprint(ev).ranges() {
            if r.mode.writes() {
                worker::wrote(r.lo, r.hi);
            }
        }
        result
    }

    fn record(&mut self, mut ev: Event) {
        if ev.ends_program() {
            // The end of the program ends the atomic section it is in (an error, or a
            // crash of one of its accesses), and takes the step the section was given:
            // the section's nondeterministic value goes with it, whose other values are
            // still to be explored.
            if let Some(sec) = self.threads[ev.tid as usize % MAX_THREADS].section.take() {
                if let Some((n, c)) = sec.choice {
                    ev.choices = n;
                    ev.choice = c;
                }
            }
        }
        let i = self.sched.step();
        unsafe {
            self.events.add(i).write(ev);
            self.enabled_out.add(i).write(self.enabled);
            (*self.hdr).n_events = i as u32 + 1;
        }
        self.sched.executed(&ev);
        let th = &mut self.threads[ev.tid as usize % MAX_THREADS];
        th.events += 1;
        th.changes += u32::from(awaits::changes_state(&ev));
    }

    /// The event recorded at step `i`.
    fn event_at(&self, i: usize) -> Event {
        unsafe { self.events.add(i).read() }
    }
}
