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

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr;

use cdpor_sched::event::{
    CRASH_MEMORY, CRASH_MISUSE, FLAG_FAILED, FLAG_RESTRICTED, FLAG_SCAN, FLAG_SILENT,
    FLAG_SPURIOUS, FLAG_STORE, FLAG_VALUE, OUTCOME_FLAGS,
};
use cdpor_sched::ops::awaits::{self, Watch, LOOP_BACK, LOOP_ERRNO, LOOP_MAY_WAIT};
use cdpor_sched::ops::memory::Summary;
use cdpor_sched::ops::nondet;
use cdpor_sched::ops::{self, thread, World};
use cdpor_sched::scheduler::Probe;
use cdpor_sched::shm::{
    self, Alloc, Header, Layout, MemError, MemFault, Outcome, ThreadEnd, ThreadName, ThreadStatus,
    NO_PARENT,
};
use cdpor_sched::{Event, Kind, Pick, Scheduler, Step, ThreadSet, Tid, MAX_THREADS};

use crate::{ffi, heap, probe, worker, Global};
use cdpor_sched::layout::{self, stack_bottom, STACK_GUARD, STACK_SLOT};

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

type StartRoutine = unsafe extern "C" fn(*mut c_void) -> *mut c_void;

/// The ranges of user memory a C library call touches (`runtime/c/rt.h`).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Ranges {
    addr: u64,
    len: u64,
    arg: u64,
    arg_len: u64,
    mode: u32,
    arg_mode: u32,
}

/// Computes a library call's ranges from the current contents of memory.
pub type Footprint = unsafe extern "C" fn(ctx: *const c_void, out: *mut Ranges);

extern "C" {
    /// Runs `fp` and returns 0, or -1 if it faulted (`runtime/c/main.c`).
    fn cdpor_protected_footprint(fp: Footprint, ctx: *const c_void, out: *mut Ranges) -> c_int;
}

/// The crash that takes the place of `ev`, which failed as it executed (`why`: a
/// `CRASH_*` value).
fn failing(ev: &Event, why: u64) -> Event {
    Event {
        kind: Kind::Crash as u8,
        value: why,
        replaced: ev.kind,
        flags: ev.flags & !OUTCOME_FLAGS,
        ..*ev
    }
}

/// A `Lib` event over `r`.
fn lib_event(r: &Ranges, site: u32) -> Event {
    let len = |n: u64| n.min(u32::MAX as u64) as u32;
    Event {
        addr: r.addr,
        len: len(r.len),
        arg: r.arg,
        arg_len: len(r.arg_len),
        modes: ops::memory::modes(r.mode as u8 & 3, r.arg_mode as u8 & 3),
        flags: FLAG_SCAN,
        site,
        ..Event::new(0, Kind::Lib)
    }
}

/// An atomic section in progress: it runs as one step, whose event is recorded when the
/// section ends, with every access it made (`Summary`) and the one nondeterministic
/// value it may choose.
#[derive(Clone, Copy, Default)]
struct Section {
    summary: Summary,
    choice: Option<(u32, u32)>,
    /// How many of its accesses changed memory (`awaits::changes_state`).
    changes: u32,
}

/// Loop-carried values a loop record keeps; the instrumentation does not let a loop with
/// more wait (`cdpor_loop`).
const LOOP_VALS: usize = 6;
/// Loops a thread keeps track of at once (innermost activations first out).
const LOOP_RECORDS: usize = 6;

/// Writes a `Restore` keeps track of.
const RESTORE_LOG: usize = 8;

/// The thread's writes since its last wait that ended without a signal (the marks of
/// `Thread`), each with what its bytes held before: a retry loop that recomputes its
/// deadline each time (`clock_gettime(&ts); ts.tv_sec += 1;`) writes the same values
/// again, which changes nothing, so timing out again would only repeat that. Values are
/// those of the thread's own writes and of what they overwrote, which the writes that
/// conflict with them decide: the same in every execution of a trace.
#[derive(Clone, Copy)]
struct Restore {
    /// The thread's `changes` at that wait, and the writes since (each a change).
    base: u32,
    writes: u32,
    /// More writes than the log holds, or one it cannot compare.
    full: bool,
    n: usize,
    /// Address, length, bytes before the first write, bytes of the last.
    log: [(u64, u32, u64, u64); RESTORE_LOG],
}

const NO_RESTORE: Restore = Restore {
    base: 0,
    writes: 0,
    full: false,
    n: 0,
    log: [(0, 0, 0, 0); RESTORE_LOG],
};

impl Restore {
    fn from(changes: u32) -> Restore {
        Restore {
            base: changes,
            ..NO_RESTORE
        }
    }

    /// The thread wrote `value` over `before` (the bytes at `addr`, if known).
    fn wrote(&mut self, addr: u64, len: u32, before: Option<u64>, value: Option<u64>) {
        self.writes += 1;
        let (Some(before), Some(value), false) = (before, value, self.full || len > 8) else {
            self.full = true;
            return;
        };
        let end = addr + len as u64;
        let log = &mut self.log[..self.n];
        if let Some(w) = log
            .iter_mut()
            .find(|w| w.0 < end && addr < w.0 + w.1 as u64)
        {
            if (w.0, w.1) == (addr, len) {
                w.3 = value;
            } else {
                self.full = true;
            }
        } else if self.n == RESTORE_LOG {
            self.full = true;
        } else {
            self.log[self.n] = (addr, len, before, value);
            self.n += 1;
        }
    }

    /// Did the thread, now at `changes`, change nothing since the wait at `mark` but
    /// write bytes back as they were?
    fn undone(&self, mark: u32, changes: u32) -> bool {
        self.base == mark
            && !self.full
            && changes.wrapping_sub(mark) == self.writes
            && self.log[..self.n].iter().all(|w| w.2 == w.3)
    }
}

/// A thread's last visit of the head of one activation of a loop.
#[derive(Clone, Copy)]
struct LoopRecord {
    loop_id: u32,
    /// The frame of the function running it: activations of one loop in recursive calls
    /// are different loops.
    frame: u64,
    /// The step, and the thread's events and state-changing events, at that visit.
    step: u32,
    events: u32,
    changes: u32,
    /// The thread's reads of the clock at that visit.
    clocks: u32,
    /// Iterations that count toward `--unroll`.
    iterations: u32,
    /// The threads the thread had created and joined at that visit.
    threads: u32,
    vals: [u64; LOOP_VALS],
    n: u32,
    /// The thread's `errno`, which its loop may read (its own library calls set it).
    errno: c_int,
}

const NO_RECORD: LoopRecord = LoopRecord {
    loop_id: u32::MAX,
    frame: 0,
    step: 0,
    events: 0,
    changes: 0,
    clocks: 0,
    iterations: 0,
    threads: 0,
    vals: [0; LOOP_VALS],
    n: 0,
    errno: 0,
};

impl LoopRecord {
    /// A visit of loop `loop_id` in `frame` with these values (and `errno`, when the
    /// loop may read it).
    fn new(loop_id: u32, frame: u64, vals: &[u64], flags: u32) -> LoopRecord {
        let mut r = LoopRecord {
            loop_id,
            frame,
            n: vals.len() as u32,
            errno: if flags & LOOP_ERRNO != 0 { *errno() } else { 0 },
            ..NO_RECORD
        };
        r.vals[..vals.len()].copy_from_slice(vals);
        r
    }

    /// This visit, by thread `th` at `step`, after `iterations` counted ones.
    fn visited(self, th: &Thread, step: u32, iterations: u32) -> LoopRecord {
        LoopRecord {
            step,
            events: th.events,
            changes: th.changes,
            clocks: th.clocks,
            iterations,
            threads: th.children + th.joins,
            ..self
        }
    }

    /// Did the loop come back to its head as it was at this visit?
    fn same_values(&self, other: &LoopRecord) -> bool {
        self.n == other.n
            && self.vals[..self.n as usize] == other.vals[..other.n as usize]
            && self.errno == other.errno
    }
}

impl Thread {
    /// The record of `loop_id`'s activation in `frame`, if it has one, else the slot
    /// a new one takes: records of frames below this one belong to calls that have
    /// returned; else the oldest visit goes.
    fn loop_record(&self, loop_id: u32, frame: u64) -> (usize, bool) {
        let found = self
            .loops
            .iter()
            .position(|r| r.loop_id == loop_id && r.frame == frame);
        let slot = found.unwrap_or_else(|| {
            (0..LOOP_RECORDS)
                .find(|&i| self.loops[i].frame < frame)
                .unwrap_or_else(|| {
                    (0..LOOP_RECORDS)
                        .min_by_key(|&i| self.loops[i].step)
                        .expect("records")
                })
        });
        (slot, found.is_some())
    }
}

/// What a loop that made no progress depends on (`Exec::stalled`).
struct Stall {
    watch: Watch,
    /// The step of the first write by another thread that changed bytes the iteration
    /// had accessed, if any.
    woken_at: Option<u32>,
}

#[derive(Clone, Copy)]
struct Thread {
    status: Status,
    pending: Event,
    sp: *mut c_void,
    parent: Tid,
    /// Threads it created so far (the rank of its next child).
    children: u32,
    /// Threads it joined so far.
    joins: u32,
    start: Option<StartRoutine>,
    arg: *mut c_void,
    retval: *mut c_void,
    /// Result of the last executed operation, for the shim that asked for it.
    result: u64,
    /// Site of the thread's last executed operation, to locate crashes.
    last_site: u32,
    /// The thread's `errno` while another thread runs (all fibers share the OS thread's).
    errno: c_int,
    /// Where the loop iteration after which it spins began (`awaits::stale`).
    spin_from: usize,
    /// How it crashed, once it has: signal, faulting address, instruction, and the site
    /// of the last library call it made (where a fault inside the library comes from).
    crash: (c_int, u64, u64, u32),
    /// For a pending library call: how to compute its ranges again.
    lib: Option<(Footprint, *const c_void)>,
    /// The failed assertion it is about to report: expression, file, line.
    assertion: (*const c_char, *const c_char, u32),
    /// Its `pthread_t` (`handle`).
    handle: u64,
    /// Nesting depth of atomic sections (`__VERIFIER_atomic_*`).
    atomic: u32,
    /// The atomic section it is running, once the scheduler picked it.
    section: Option<Section>,
    /// Its `AssertFail` is a call of `reach_error()` (or `__VERIFIER_error()`).
    reach: bool,
    /// Its events so far (and reads of the clock, `cdpor_clock_read`), and those that
    /// changed memory or the synchronization state.
    events: u32,
    changes: u32,
    clocks: u32,
    loops: [LoopRecord; LOOP_RECORDS],
    /// Its `changes` right after its last condition wait ended spuriously, and after
    /// its last timed wait timed out (cleared when a loop of its moves a value on).
    spurious_mark: Option<u32>,
    timeout_mark: Option<u32>,
    restore: Restore,
    /// Its condition waits that ended without a signal (`ops::cond::UNSIGNALLED`).
    unsignalled: u32,
    /// The step after that timeout: what the thread read from there on decides whether
    /// its next timed wait can end otherwise.
    timed_out_at: usize,
    /// The step of its `CondWait` while it waits in a timed wait whose timeout was
    /// ruled out.
    wait_without_timeout: Option<usize>,
    /// Its `World::thread_word` about itself.
    own_word: u32,
    /// Threads it created, or learned of by joining their creator, and does not know
    /// to have finished (it knows only what it joined).
    unfinished: u32,
    /// How many new numbers threads of this number took for their children
    /// (`Exec::child_number`); kept when the number is given to a later thread.
    fresh: u32,
    /// The last number of the threads it joined, which its next child takes (then
    /// `next_free` of that thread, and so on); kept like `fresh`.
    free: Tid,
    next_free: Tid,
    /// It was joined (its number is in its joiner's `free` list, unless it holds a lock).
    joined: bool,
    /// Locks it holds (`ops::holds`).
    held: i32,
    /// How many threads had its number before it (`layout::LIVES`), and where and at
    /// which step the last of them exited.
    life: u32,
    previous_exit: (u32, u32),
    /// The step of its exit, once it has exited.
    exit_step: u32,
    /// The domain of its pending nondeterministic value, and whether the value's uses go
    /// unreported (a sampled value then counts as used at once). Per thread: several
    /// threads' values can be pending at once, each with its own site's domain.
    nondet: Option<(nondet::Domain<'static>, bool)>,
}

/// No thread (an empty `free` list).
const NO_TID: Tid = Tid::MAX;

const UNUSED: Thread = Thread {
    spin_from: 0,
    status: Status::Unused,
    pending: Event {
        addr: 0,
        arg: 0,
        value: 0,
        len: 0,
        arg_len: 0,
        tid: 0,
        aux: 0,
        site: 0,
        choice: 0,
        choices: 0,
        kind: 0,
        flags: 0,
        modes: 0,
        replaced: 0,
    },
    sp: ptr::null_mut(),
    parent: NO_PARENT,
    children: 0,
    joins: 0,
    start: None,
    arg: ptr::null_mut(),
    retval: ptr::null_mut(),
    result: 0,
    last_site: 0,
    errno: 0,
    crash: (0, 0, 0, 0),
    lib: None,
    assertion: (ptr::null(), ptr::null(), 0),
    handle: 0,
    atomic: 0,
    section: None,
    reach: false,
    events: 0,
    changes: 0,
    clocks: 0,
    loops: [NO_RECORD; LOOP_RECORDS],
    spurious_mark: None,
    timeout_mark: None,
    restore: NO_RESTORE,
    unsignalled: 0,
    timed_out_at: 0,
    wait_without_timeout: None,
    own_word: 0,
    unfinished: 0,
    fresh: 0,
    free: NO_TID,
    next_free: NO_TID,
    joined: false,
    held: 0,
    life: 0,
    previous_exit: (0, 0),
    exit_step: 0,
    nondet: None,
};

/// The `pthread_t` of the `rank`-th child (from 0) of the thread whose `pthread_t` is
/// `parent` (0 for main itself). A function of the thread's name, not of its number
/// (which depends on the order in which an exploration met the names), so that a program
/// that looks at thread ids behaves alike in every execution of a schedule and in its
/// replay. Readable where it can be: main is 1, its k-th child k + 1, and the k-th child
/// of a thread whose id is h is h * 1000 + k; other names are hashed above 2^63.
fn handle(parent: u64, rank: u32) -> u64 {
    let k = rank as u64 + 1;
    match parent {
        0 => 1,
        1 if k < 1000 => k + 1,
        p if k < 1000 && p < (1 << 53) / 1000 => p * 1000 + k,
        p => {
            // splitmix64 of the parent's id and the rank.
            let mut z = p ^ (k << 40) ^ 0x9e37_79b9_7f4a_7c15;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) | 1 << 63
        }
    }
}

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
    let sched_len = ((*hdr).sched_len as usize).min(layout.cap_steps);
    let schedule =
        std::slice::from_raw_parts(base.add(layout.schedule()) as *const Step, sched_len);
    let sleep_len = ((*hdr).sleep_len as usize).min(MAX_THREADS);
    let sleep = std::slice::from_raw_parts(base.add(layout.sleep()) as *const Event, sleep_len);
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
        sched: Scheduler::new(schedule, sleep, (*hdr).sleep_from as usize, max_steps)
            .probing(Probe::decode((*hdr).probe)),
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

/// Forgets the execution that ended, and gives its thread numbers back their empty
/// records (in place); returns how many numbers it may have used.
pub fn reset() -> u32 {
    let e = unsafe { EXEC.get() };
    let used = e
        .as_ref()
        .map_or(0, |e| unsafe { (*e.hdr).n_names }.min(MAX_THREADS as u32));
    // Nothing of it owns memory beyond the runtime's arena, which the reset empties.
    unsafe {
        crate::image::put_back(e, 1);
        crate::image::put_back(THREADS.get().0.as_mut_ptr(), used as usize);
    }
    used
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
}

impl Exec {
    fn hdr(&mut self) -> &mut Header {
        unsafe { &mut *self.hdr }
    }

    /// The number of thread `t`'s next child: the number of the thread it joined last
    /// whose number no child took yet, else the `fresh`-th new number of its own. Either
    /// depends on what threads of `t`'s number did, not on what other threads did
    /// meanwhile, so a thread's number and addresses are the same whatever the
    /// interleaving. A joined thread did all it did before the join, so its events and
    /// those of the next thread of its number are one sequence to the engine, as a
    /// thread's are.
    fn child_number(&mut self, t: Tid) -> Option<Tid> {
        let c = self.threads[t as usize].free;
        if c != NO_TID {
            self.threads[t as usize].free = self.threads[c as usize].next_free;
            return Some(c);
        }
        let th = &mut self.threads[t as usize];
        let k = th.fresh;
        th.fresh += 1;
        self.number(t, k)
    }

    /// The number of the `index`-th new number taken for a child of a thread of number
    /// `parent`: the one it was given when an execution of this exploration first took
    /// it, or the next unused one.
    fn number(&mut self, parent: Tid, index: u32) -> Option<Tid> {
        let want = ThreadName { parent, index };
        if let Some(t) = self.taken(want) {
            return Some(t);
        }
        let n = self.hdr().n_names as usize;
        if n >= MAX_THREADS {
            return None;
        }
        unsafe { self.names.add(n).write(want) };
        self.hdr().n_names = n as u32 + 1;
        Some(n as Tid)
    }

    /// The number this exploration gave `want`, if any.
    fn taken(&self, want: ThreadName) -> Option<Tid> {
        let n = unsafe { (*self.hdr).n_names } as usize;
        let names = unsafe { std::slice::from_raw_parts(self.names, n) };
        names.iter().position(|x| *x == want).map(|t| t as Tid)
    }

    /// A value of `site` was explored over `n` values of its interval only: the execution
    /// is incomplete once the program uses it (at once when its uses go unreported).
    fn sampled(&mut self, site: u32, n: u32, used: bool) {
        if used || self.n_sampled == SAMPLED {
            return self.restrict(site, n);
        }
        let t = self.cur;
        if !self.sampled[..self.n_sampled].contains(&(site, t, n)) {
            self.sampled[self.n_sampled] = (site, t, n);
            self.n_sampled += 1;
        }
    }

    /// The program used a value of `site`, of the current thread's own or (`any`, the
    /// value passed through memory) of any thread's: one that was sampled restricts the
    /// execution.
    fn used(&mut self, site: u32, any: bool) {
        let t = self.cur;
        let mut i = 0;
        while i < self.n_sampled {
            let (s, owner, n) = self.sampled[i];
            if s == site && (any || owner == t) {
                self.n_sampled -= 1;
                self.sampled[i] = self.sampled[self.n_sampled];
                self.restrict(s, n);
            } else {
                i += 1;
            }
        }
    }

    fn restrict(&mut self, site: u32, n: u32) {
        let h = self.hdr();
        let k = h.n_restricted as usize;
        if k < shm::MAX_RESTRICTED && !h.restricted[..k].iter().any(|r| r[0] == site) {
            h.restricted[k] = [site, n];
            h.n_restricted += 1;
        }
    }

    /// Sets up a fiber for thread `t`; false when its stack cannot be mapped.
    fn new_thread(
        &mut self,
        t: Tid,
        start: Option<StartRoutine>,
        arg: *mut c_void,
        parent: Tid,
        rank: u32,
    ) -> bool {
        let parent_handle = self.threads.get(parent as usize).map_or(0, |p| p.handle);
        let old = self.threads[t as usize];
        if old.status != Status::Unused {
            // The number was a joined thread's: this thread starts with none of its
            // thread-local state.
            unsafe { ffi::cdpor_thread_reset(t) };
        }
        let (life, previous_exit) = match old.status {
            Status::Unused => (0, (0, 0)),
            _ => (old.life + 1, (old.last_site, old.exit_step)),
        };
        if !crate::layout::map_stack(t, life) {
            return false;
        }
        let top = layout::life_stack_top(t, life);
        self.threads[t as usize] = Thread {
            status: Status::Starting,
            sp: unsafe { ffi::cdpor_fiber_init(top as *mut c_void, cdpor_fiber_main) },
            life,
            previous_exit,
            parent,
            start,
            arg,
            handle: handle(parent_handle, rank),
            fresh: old.fresh,
            free: old.free,
            ..UNUSED
        };
        true
    }

    fn enabled_and_live(&self) -> (ThreadSet, ThreadSet) {
        let live = self.ready;
        let enabled = live
            .iter()
            .filter(|&t| {
                let th = &self.threads[t as usize];
                ops::enabled(self, &th.pending) && !self.over_thread_bound(&th.pending)
            })
            .collect();
        (enabled, live)
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

    /// A thread that a bound stopped (`--unroll`, `--max-threads`), if any: an execution
    /// that ends without an error while one waits there is cut, whatever ended it, since
    /// that thread could have gone on before the others' last events.
    fn cut_by_bound(&self) -> Option<(Outcome, Tid)> {
        let any =
            |f: &dyn Fn(&Thread) -> bool| self.ready.iter().find(|&t| f(&self.threads[t as usize]));
        if let Some(t) = any(&|th| awaits::stopped(&th.pending)) {
            Some((Outcome::LoopBound, t))
        } else {
            any(&|th| self.over_thread_bound(&th.pending)).map(|t| (Outcome::ThreadBound, t))
        }
    }

    /// Picks the thread that performs the next event, or ends the execution.
    fn choose(&mut self) -> Tid {
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
        let th = &mut self.threads[t as usize];
        th.pending = Event { tid: t, ..ev };
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

    /// An operation of the current thread inside its atomic section: memory accesses
    /// and a nondeterministic value run at once and join the section's event; the end
    /// of the program ends the section with it; the rest would need other threads to
    /// run within the section.
    fn within_section(&mut self, mut ev: Event) {
        let t = self.cur as usize;
        match ev.kind() {
            k if k.ends_program() => {
                // What the section read decided that it ends here: the end carries the
                // section's accesses (where its record has room for them), so that it
                // races with the writes that could have made the section complete
                // (`record` gives it the section's nondeterministic value).
                if let Some(sec) = self.threads[t].section {
                    if matches!(k, Kind::AssertFail | Kind::Abort | Kind::AssumeFail) {
                        sec.summary.store(&mut ev);
                        ev.flags |= FLAG_SCAN;
                    }
                }
                self.threads[t].pending = ev;
                self.execute();
            }
            Kind::ThreadExit => {
                // The thread ends inside its section: the section ends first.
                self.threads[t].atomic = 0;
                self.end_section();
                self.in_runtime = true;
                self.submit(ev);
            }
            Kind::Read
            | Kind::Write
            | Kind::Rmw
            | Kind::CmpXchg
            | Kind::Copy
            | Kind::Fence
            | Kind::Lib
            | Kind::Free
            | Kind::Nondet => {
                if ev.kind() == Kind::Nondet
                    && self.threads[t].section.is_some_and(|s| s.choice.is_some())
                {
                    self.unsupported(
                        ev.site,
                        b"two nondeterministic values in one atomic section",
                    );
                }
                let step = self.sched.step() as u32;
                let result = self.perform(&mut ev, step);
                self.threads[t].result = result;
                let Some(sec) = self.threads[t].section.as_mut() else {
                    return;
                };
                if ev.kind() == Kind::Nondet {
                    sec.choice = Some((ev.choices, ev.choice));
                }
                sec.changes += u32::from(awaits::changes_state(&ev));
                for r in ops::footprint(&ev).ranges() {
                    sec.summary.add_range(r);
                }
            }
            k => {
                let what = format!(
                    "{} inside an atomic section (only memory accesses can be atomic)",
                    k.name()
                );
                self.unsupported(ev.site, what.as_bytes())
            }
        }
    }

    /// Ends the current thread's atomic section: its event takes the step the scheduler
    /// gave the section.
    fn end_section(&mut self) {
        let t = self.cur as usize;
        let Some(sec) = self.threads[t].section.take() else {
            return;
        };
        let mut ev = Event {
            site: self.threads[t].last_site,
            flags: FLAG_SCAN,
            ..Event::new(t as Tid, Kind::Atomic)
        };
        sec.summary.store(&mut ev);
        if let Some((n, c)) = sec.choice {
            ev.choices = n;
            ev.choice = c;
        }
        if sec.changes == 0 {
            ev.flags |= FLAG_SILENT;
        }
        self.record(ev);
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
                if ev.kind() == Kind::CmpXchg && current != ev.value & mask {
                    ev.flags |= FLAG_FAILED;
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
            for r in ops::footprint(&ops::attempt(ev)).ranges() {
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

    /// An access to the stack or a thread-local variable of a thread that has exited:
    /// its locals and its thread-local objects are gone (POSIX leaves the access
    /// undefined), whichever thread it is. That thread's number may serve another
    /// thread by now, whose stack and block start elsewhere (`layout::LIVES`).
    fn dead_thread_memory(&self, addr: u64, len: u64) -> Option<MemFault> {
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
    fn memory_error(&mut self, ev: &Event, f: MemFault) -> ! {
        self.record(failing(ev, CRASH_MEMORY));
        self.hdr().mem = f;
        self.finish_at(Outcome::Memory, ev.tid, ev.site, 0)
    }

    /// The access `ev` faults at `addr`: the crash takes its place in the trace.
    fn crash_at(&mut self, ev: &Event, addr: u64) -> ! {
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

    fn finish_crash(&mut self, crash: &Event) -> ! {
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

    /// Thread `t` is back at the head of a loop whose last iteration, from step `from`
    /// to now, changed nothing and ended with the values it began with: whether it waits
    /// depends on that alone (on what its own events read), never on what other threads
    /// did meanwhile, or re-executing a schedule in which they did it later would not
    /// reproduce the thread's next event. The bytes the iteration depended on, and the
    /// first change another thread made to bytes the iteration had already accessed.
    fn stalled(&self, t: Tid, from: usize) -> Stall {
        self.stalled_until(t, from, usize::MAX)
    }

    /// `stalled`, counting the thread's own events only up to step `own_end`.
    fn stalled_until(&self, t: Tid, from: usize, own_end: usize) -> Stall {
        let now = self.sched.step();
        let mut stall = Stall {
            watch: Watch::default(),
            woken_at: None,
        };
        for i in from..now {
            let e = self.event_at(i);
            if e.tid == t {
                if i >= own_end {
                    continue;
                }
                for r in ops::footprint(&e).ranges() {
                    stall.watch.add(r);
                }
            } else if !stall.watch.is_empty()
                && awaits::changes_state(&e)
                && ops::footprint(&e).conflicts(&stall.watch.footprint(), true)
            {
                stall.woken_at.get_or_insert(i as u32);
            }
        }
        stall
    }

    /// Does thread `t` spin on bytes that another thread changed after it read them?
    fn stale(&self, t: Tid) -> bool {
        let th = &self.threads[t as usize];
        awaits::spins(&th.pending)
            && awaits::stale(
                t,
                (th.spin_from..self.sched.step()).map(|i| self.event_at(i)),
            )
    }

    /// The current thread's loop, whose last iteration began at step `from`, cannot
    /// make progress: the thread stops there for good (`awaits`).
    fn spin(&mut self, from: usize, site: u32) -> ! {
        let t = self.cur;
        self.threads[t as usize].spin_from = from;
        let watch = self.stalled(t, from).watch;
        self.submit(awaits::event(&watch, site));
        unreachable!("a spinning thread runs again")
    }

    /// A thread blocked in a timed wait whose timeout was ruled out (`cond_wait`), and
    /// that another thread since wrote what it read after its last timeout: timing out
    /// again, it would see that change, so no thread being able to run does not make
    /// the program stuck.
    fn could_time_out(&self) -> Option<Tid> {
        self.ready.iter().find(|&t| {
            let th = &self.threads[t as usize];
            th.pending.kind() == Kind::CondWake
                && th.wait_without_timeout.is_some_and(|wait| {
                    self.stalled_until(t, th.timed_out_at, wait)
                        .woken_at
                        .is_some()
                })
        })
    }

    /// The current thread ran a loop `--unroll` times: it stops there for good.
    fn cut_by_unroll(&mut self, site: u32) -> ! {
        self.submit(awaits::stop(site));
        unsafe { libc::_exit(3) }
    }

    /// Writes how the execution ended and leaves the process.
    fn finish(&mut self, outcome: Outcome, tid: Tid, code: i64) -> ! {
        let (outcome, tid) = match outcome {
            Outcome::Exit | Outcome::AssumeFail => self.cut_by_bound().unwrap_or((outcome, tid)),
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

    fn finish_at(&mut self, outcome: Outcome, tid: Tid, site: u32, code: i64) -> ! {
        self.write_end(outcome, tid, site, code);
        if self.show_output {
            unsafe { ffi::cdpor_flush_stdio() };
        }
        worker::leave()
    }

    /// Ends the execution: the program does something the runtime cannot model.
    fn unsupported(&mut self, site: u32, what: &[u8]) -> ! {
        let t = self.cur;
        shm::set_text(&mut self.hdr().text, what);
        self.write_end(Outcome::Unsupported, t, site, 0);
        worker::leave()
    }

    fn write_end(&mut self, outcome: Outcome, tid: Tid, site: u32, code: i64) {
        let n = self.hdr().n_names.min(MAX_THREADS as u32);
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
                Status::Ready if ops::enabled(self, &th.pending) => ThreadStatus::Enabled,
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
        let h = self.hdr();
        h.n_threads = n;
        h.outcome_tid = tid;
        h.outcome_site = site;
        h.outcome_code = code;
        h.outcome = outcome as u32;
    }

    /// Probes a synchronization object before an operation on it: a bad pointer makes
    /// the operation a crash of its thread, as the real call would have been.
    fn check_object(&mut self, addr: u64, len: u64, site: u32) {
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

/// A thread that crashed resumes here, on a fresh frame of its own stack: its next
/// operation is the crash.
extern "C" fn cdpor_crashed_main() {
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
const STACK_RESERVE: u64 = 64 << 10;

/// Is the current stack, that of thread `t`, within `STACK_RESERVE` of its guard?
#[inline(always)]
fn stack_low(t: Tid) -> bool {
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

impl Exec {
    /// The current thread ran out of stack on its way to an operation at `site`: it
    /// crashes there, as if it had touched its guard, in a step of its own.
    fn overflow(&mut self, site: u32) -> ! {
        let t = self.cur;
        // No library call made it: the operation's site says where.
        let guard = stack_bottom(t) + STACK_GUARD - 1;
        self.threads[t as usize].last_site = site;
        self.crash_in_own_step(t, (libc::SIGSEGV, guard, 0, u32::MAX))
    }

    /// Thread `t` crashed (`Thread::crash`): it leaves the frames it was in for good and
    /// announces the crash from a fresh start of its stack, so that the crash is an
    /// operation of its own, which other threads may run before.
    fn crash_in_own_step(&mut self, t: Tid, crash: (c_int, u64, u64, u32)) -> ! {
        self.threads[t as usize].crash = crash;
        let top = layout::life_stack_top(t, self.threads[t as usize].life);
        let sp = unsafe { ffi::cdpor_fiber_init(top as *mut c_void, cdpor_crashed_main) };
        let mut dummy = ptr::null_mut();
        unsafe { ffi::cdpor_fiber_switch(&mut dummy, sp) };
        unsafe { libc::_exit(3) }
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

#[no_mangle]
pub extern "C" fn cdpor_access(kind: u32, addr: u64, len: u64, value: u64, site: u32, flags: u32) {
    if len == 0 {
        return;
    }
    let e = ex();
    let kind = Kind::from_u8(kind as u8).unwrap_or(Kind::Fence);
    let len = len.min(u32::MAX as u64) as u32;
    let mut ev = Event::mem(0, kind, addr, len);
    ev.site = site;
    ev.flags = flags as u8;
    ev.aux = flags >> 8;
    if kind == Kind::Copy {
        ev.arg = value;
        ev.arg_len = len;
    } else {
        ev.value = value;
    }
    e.submit(ev);
}

/// A C library call's accesses to user memory, as one event whose ranges `fp` computes
/// from the contents of memory: now (a fault here is the calling thread's crash), when
/// the call executes, and at the end of the execution if it is still pending.
///
/// # Safety
/// `fp` must be callable with `ctx` until the call returns.
#[no_mangle]
pub unsafe extern "C" fn cdpor_lib(fp: Footprint, ctx: *const c_void, site: u32) {
    let mut r = Ranges::default();
    // A footprint may call the library (strtol, to know where a number ends), which may
    // set errno: the call itself sets it when it runs.
    let saved = *errno();
    fp(ctx, &mut r);
    *errno() = saved;
    let e = ex();
    e.threads[e.cur as usize].lib = Some((fp, ctx));
    e.submit(lib_event(&r, site));
}

/// The current thread read the clock. No event (time stands still), but progress for its
/// loops, which count it toward `--unroll` as an event: a loop that waits for time to
/// pass is no await (`src/instrument/loops.rs`), and must not go round unbounded.
#[no_mangle]
pub extern "C" fn cdpor_clock_read() {
    let e = ex();
    let th = &mut e.threads[e.cur as usize];
    th.events += 1;
    th.clocks += 1;
}

/// The head of a loop, reached by the current thread: on entry (`flags` bit 0 clear) a
/// new record of the loop's activation; through the back edge, the end of an iteration.
/// An iteration with an effect counts toward `--unroll` (for a loop the instrumentation
/// could not see all the effects of, `flags` bit 1 clear, any iteration with an event
/// does). An iteration that changed nothing and left the loop-carried values `vals[n]` as
/// they were would repeat itself: the thread spins, stopped for good (`awaits`).
///
/// # Safety
/// `vals` must point to `n` values (or, when `n` is 0, anywhere in the caller's frame).
#[no_mangle]
pub unsafe extern "C" fn cdpor_loop(loop_id: u32, flags: u32, vals: *const u64, n: u32, site: u32) {
    let e = ex();
    let t = e.cur as usize;
    let frame = vals as u64;
    let n = (n as usize).min(LOOP_VALS);
    let now = LoopRecord::new(loop_id, frame, std::slice::from_raw_parts(vals, n), flags);
    let back = flags & LOOP_BACK != 0;
    let may_wait = flags & LOOP_MAY_WAIT != 0;
    let (i, found) = e.threads[t].loop_record(loop_id, frame);
    if e.threads[t].atomic > 0 {
        // Inside an atomic section the loop is part of one step, and no other thread
        // runs: an iteration that changed nothing and left the loop's values as they
        // were would go round for ever. The section cannot complete in this state: like
        // a false assumption there, it waits for a write that could change what it read.
        let (Some(sec), true) = (e.threads[t].section, may_wait) else {
            return;
        };
        let rec = e.threads[t].loops[i];
        let clocks = e.threads[t].clocks;
        let same = rec.changes == sec.changes && rec.clocks == clocks && rec.same_values(&now);
        if found && back && same {
            cdpor_assume(0, site);
        }
        e.threads[t].loops[i] = LoopRecord {
            changes: sec.changes,
            clocks,
            ..now
        };
        return;
    }
    let step = e.sched.step() as u32;
    let unroll = e.hdr().unroll;
    let th = &mut e.threads[t];
    if !(found && back) {
        // A new activation.
        th.loops[i] = now.visited(th, step, 0);
        return;
    }
    let rec = th.loops[i];
    let progressed = if may_wait {
        th.changes != rec.changes
    } else {
        th.events != rec.events
    };
    // Loops that run while the thread is alone end or hang by themselves. Alone as far
    // as it knows: main once it has joined every thread there is. Whether another
    // thread has finished without its knowing must not change what it does, or
    // re-executing a schedule in which that thread finished later would not give back
    // the same events. A loop that waits for the clock is the exception: time stands
    // still here, so it would hang where the program would not.
    let alone = t == 0 && e.threads[t].unfinished == 0 && e.threads[t].clocks == rec.clocks;
    let same = rec.same_values(&now);
    // Time stands still here, but not in the program's intent: an iteration that read
    // the clock waits for time to pass, which no other thread does, so it is no await
    // (that would leave out what the program does once the time has passed, and call
    // a wait for time a livelock) but counts toward --unroll (`looked`).
    let timed = e.threads[t].clocks != rec.clocks;
    let stalls = may_wait && !progressed && same && !timed;
    if !same || !may_wait {
        // A value of the loop moved on (a retry counter), or may have (an effect the
        // runtime does not see): the thread's next condition wait may end without a
        // signal again, however its last one ended.
        let th = &mut e.threads[t];
        th.spurious_mark = None;
        th.timeout_mark = None;
    }
    // An iteration that only looked but moved a counter on counts too: nothing else
    // bounds how often it looks before the thread it waits for acts.
    let looked = !progressed && e.threads[t].events != rec.events;
    // Creations are bounded by --max-threads (and the steps of an execution), and so
    // are joins, so that a loop that creates or joins threads runs for as many as the
    // program has.
    let threads = e.threads[t].children + e.threads[t].joins != rec.threads;
    let iterations =
        rec.iterations + u32::from((progressed || looked) && !stalls && !alone && !threads);
    if iterations > unroll {
        e.in_runtime = true;
        e.cut_by_unroll(site)
    }
    if stalls {
        e.in_runtime = true;
        e.spin(rec.step as usize, site)
    } else if looked {
        // It looked and changed nothing, but its own values moved on (a counter): no
        // await, but it lets another thread run next, or it could spin forever first.
        e.sched.yield_turn();
    }
    let e = ex();
    let step = e.sched.step() as u32;
    let th = &mut e.threads[t];
    th.loops[i] = now.visited(th, step, iterations);
}

/// The bits of a value of `len` bytes.
fn mask(len: u32) -> u64 {
    if len >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * len)) - 1
    }
}

/// A store the runtime makes into user memory on the program's behalf.
#[no_mangle]
pub extern "C" fn cdpor_store(addr: u64, len: u32, value: u64, site: u32) {
    ex().submit(Event {
        site,
        value,
        flags: FLAG_STORE | FLAG_VALUE,
        ..Event::mem(0, Kind::Write, addr, len)
    });
}

#[no_mangle]
pub extern "C" fn cdpor_create(start: Option<StartRoutine>, arg: *mut c_void, site: u32) -> u64 {
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
    e.threads[e.cur as usize].result
}

impl Exec {
    /// The thread a `pthread_t` names, if any; if none, a join or detach of it is a
    /// misuse, and the step of the thread that makes it (`ops::thread`).
    fn thread_named(&mut self, handle: u64, kind: Kind, site: u32) -> Option<usize> {
        let found = self
            .threads
            .iter()
            .position(|th| th.status != Status::Unused && th.handle == handle);
        if found.is_none() && self.strict {
            self.submit(Event {
                site,
                aux: thread::NO_THREAD,
                ..Event::new(0, kind)
            });
        }
        found
    }
}

#[no_mangle]
pub extern "C" fn cdpor_join(handle: u64, retval: *mut *mut c_void, site: u32) -> c_int {
    let e = ex();
    let Some(target) = e.thread_named(handle, Kind::Join, site) else {
        return libc::ESRCH;
    };
    if target == e.cur as usize {
        return libc::EDEADLK;
    }
    e.submit(Event {
        site,
        aux: target as Tid,
        ..Event::new(0, Kind::Join)
    });
    if !retval.is_null() {
        let e = ex();
        let value = e.threads[e.cur as usize].result;
        cdpor_store(retval as u64, 8, value, site);
    }
    0
}

#[no_mangle]
pub extern "C" fn cdpor_detach(handle: u64, site: u32) -> c_int {
    let e = ex();
    let Some(target) = e.thread_named(handle, Kind::Detach, site) else {
        return libc::ESRCH;
    };
    e.submit(Event {
        site,
        aux: target as Tid,
        ..Event::new(0, Kind::Detach)
    });
    0
}

#[no_mangle]
pub extern "C" fn cdpor_thread_exit(retval: *mut c_void, site: u32) -> ! {
    // The destructors of its thread-specific data run in the thread, as the program's.
    unsafe { ffi::cdpor_key_destructors(site) };
    let e = ex();
    // Its stack and its thread-local variables are gone with it (`ops::thread`).
    e.submit(Event {
        site,
        value: retval as u64,
        ..Event::new(0, Kind::ThreadExit)
    });
    // Finished: hand over to another thread for good.
    loop {
        let e = ex();
        e.in_runtime = true;
        let next = e.choose();
        e.switch_to(next);
    }
}

/// An operation on a mutex or a condition variable (not a wait).
#[no_mangle]
pub extern "C" fn cdpor_sync(kind: u32, object: *mut c_void, site: u32) -> c_int {
    cdpor_sync_value(kind, object, 0, site)
}

/// An operation on a synchronization object that takes a value (the count `sem_init`
/// starts a semaphore with); returns the operation's result (`sem_getvalue`: the count).
#[no_mangle]
pub extern "C" fn cdpor_sync_value(kind: u32, object: *mut c_void, value: u64, site: u32) -> c_int {
    sync_op(Event {
        site,
        value,
        ..Event::on(
            0,
            Kind::from_u8(kind as u8).unwrap_or(Kind::Fence),
            object as u64,
        )
    })
}

/// An operation on a POSIX spin lock: the mutex operation `kind` on a 4-byte object.
#[no_mangle]
pub extern "C" fn cdpor_spin(kind: u32, object: *mut c_void, site: u32) -> c_int {
    sync_op(Event {
        site,
        flags: ops::mutex::FLAG_SPIN,
        ..Event::on(
            0,
            Kind::from_u8(kind as u8).unwrap_or(Kind::Fence),
            object as u64,
        )
    })
}

/// Performs the operation `ev` on the object at `ev.addr`, whose bytes are the
/// operation's footprint (a thread crashes on an object it cannot write); returns its
/// result.
fn sync_op(ev: Event) -> c_int {
    if ev.addr == 0 {
        return libc::EINVAL;
    }
    let e = ex();
    for r in ops::footprint(&ev).ranges() {
        e.check_object(r.lo, r.hi - r.lo, ev.site);
    }
    e.submit(ev);
    let e = ex();
    e.threads[e.cur as usize].result as c_int
}

/// `pthread_cond_wait`: release the mutex and wait (one event), then take the mutex back
/// once a signal woke this thread (another event).
#[no_mangle]
pub extern "C" fn cdpor_cond_wait(cond: *mut c_void, mutex: *mut c_void, site: u32) -> c_int {
    cond_wait(cond, mutex, false, site)
}

/// `pthread_barrier_wait`: arrives, and unless that ended the round, waits for it to end
/// (`ops::barrier`).
#[no_mangle]
pub extern "C" fn cdpor_barrier_wait(barrier: *mut c_void, site: u32) -> c_int {
    if barrier.is_null() {
        return libc::EINVAL;
    }
    let e = ex();
    e.check_object(barrier as u64, ops::barrier::SIZE, site);
    e.submit(Event {
        site,
        ..Event::on(0, Kind::BarrierWait, barrier as u64)
    });
    let e = ex();
    let arrived = e.event_at(e.sched.step() - 1);
    if !arrived.failed() {
        return ops::barrier::SERIAL_THREAD;
    }
    e.submit(Event {
        site,
        value: arrived.value,
        ..Event::on(0, Kind::BarrierPass, barrier as u64)
    });
    0
}

/// `pthread_cond_timedwait`: a wait that may also time out (`ops::cond`).
#[no_mangle]
pub extern "C" fn cdpor_cond_timedwait(cond: *mut c_void, mutex: *mut c_void, site: u32) -> c_int {
    cond_wait(cond, mutex, true, site)
}

fn cond_wait(cond: *mut c_void, mutex: *mut c_void, timed: bool, site: u32) -> c_int {
    if cond.is_null() || mutex.is_null() {
        return libc::EINVAL;
    }
    let e = ex();
    e.check_object(cond as u64, ops::cond::SIZE, site);
    e.check_object(mutex as u64, ops::mutex::SIZE, site);
    // Waiting without holding the mutex is a misuse (`ops::cond::misuse`), found when
    // the wait executes; where misuses are no errors, the wait fails as glibc's
    // error-checking one would.
    if !e.strict && e.sync_word(mutex as u64) != e.cur + 1 {
        return libc::EPERM;
    }
    // A wait may end without a signal, unless spurious wake-ups are off, and a timed
    // one may time out; but not in the way the thread's last wait ended if it ended
    // without a signal and the thread since did nothing but look (no change, and no
    // loop of its moved a value on): waking so again would only repeat that (it could
    // as well have woken later the first time). A timeout ruled out so, which would
    // come, is looked at again if no thread can run (`could_time_out`).
    let t = e.cur as usize;
    let no_spurious = e.hdr().flags & shm::FLAG_NO_SPURIOUS != 0;
    let th = &e.threads[t];
    let still = |mark: Option<u32>| {
        mark.is_some_and(|m| m == th.changes || th.restore.undone(m, th.changes))
    };
    let spurious_ruled_out = still(th.spurious_mark);
    let spurious = !no_spurious && !spurious_ruled_out;
    let mut flags = if spurious { FLAG_SPURIOUS } else { 0 };
    let ruled_out = timed && still(th.timeout_mark);
    if timed && !ruled_out {
        flags |= ops::cond::FLAG_TIMED;
    }
    if flags != 0 && th.unsignalled >= ops::cond::UNSIGNALLED {
        e.in_runtime = true;
        e.cut_by_unroll(site)
    }
    let wait_step = e.sched.step();
    e.threads[t].wait_without_timeout = ruled_out.then_some(wait_step);
    let ev = Event {
        site,
        arg: mutex as u64,
        flags,
        ..Event::on(0, Kind::CondWait, cond as u64)
    };
    e.submit(ev);
    let e = ex();
    let waited = e.event_at(e.sched.step() - 1);
    let timed = waited.flags & ops::cond::FLAG_TIMED != 0 && waited.choice == 0;
    let mut flags = if waited.choice == 1 { FLAG_SPURIOUS } else { 0 };
    if timed {
        flags |= ops::cond::FLAG_TIMED;
    }
    e.submit(Event {
        kind: Kind::CondWake as u8,
        flags,
        ..ev
    });
    let e = ex();
    let woke = e.event_at(e.sched.step() - 1);
    let th = &mut e.threads[t];
    th.wait_without_timeout = None;
    if !woke.failed() {
        th.spurious_mark = None;
        th.timeout_mark = None;
        return 0;
    }
    // This wait changed nothing either: the other way of waking stays ruled out if it
    // was for this wait (not if it was offered, after a change since it was taken).
    let now = Some(th.changes);
    th.restore = Restore::from(th.changes);
    th.unsignalled += 1;
    if spurious_ruled_out {
        th.spurious_mark = now;
    } else {
        th.spurious_mark = None;
    }
    if ruled_out {
        th.timeout_mark = now;
    } else {
        th.timeout_mark = None;
    }
    if timed {
        th.timeout_mark = now;
        th.timed_out_at = e.sched.step();
        libc::ETIMEDOUT
    } else {
        th.spurious_mark = now;
        0
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

/// `__VERIFIER_assume(cond)`: a false condition ends the execution, which is infeasible.
/// In an atomic section it is SV-COMP's blocking wait (`acquire() { assume(m == 0);
/// m = 1; }` is a lock): the attempt races with the writes that could make it hold, so
/// the orders in which it runs after them are explored, and ending the execution here
/// loses nothing while another thread can still run. When none can, the thread waits for
/// good: it is stuck, which is a deadlock (no error under `--svcomp`).
#[no_mangle]
pub extern "C" fn cdpor_assume(cond: c_int, site: u32) {
    if cond != 0 {
        return;
    }
    let e = ex();
    let t = e.cur as usize;
    if let Some(sec) = e.threads[t].section {
        e.in_runtime = true;
        if e.enabled_and_live().0.is_empty() {
            let mut attempt = Event::new(0, Kind::Atomic);
            sec.summary.store(&mut attempt);
            let mut watch = Watch::default();
            for r in ops::footprint(&attempt).ranges() {
                watch.add(r);
            }
            e.threads[t].atomic = 0;
            e.end_section();
            e.threads[t].pending = Event {
                tid: t as Tid,
                flags: awaits::FLAG_ASSUMPTION,
                ..awaits::event(&watch, site)
            };
            e.threads[t].status = Status::Ready;
            e.ready.insert(t as Tid);
            // No thread can run: the execution ends (a deadlock, or a bound's cut).
            e.choose();
            unsafe { libc::_exit(3) }
        }
    }
    e.submit(Event {
        site,
        ..Event::new(0, Kind::AssumeFail)
    });
    unsafe { libc::_exit(3) }
}

/// A call of `reach_error()` or `__VERIFIER_error()`: the error SV-COMP programs mark
/// (whatever the function's body would do).
#[no_mangle]
pub extern "C" fn cdpor_reach_error(site: u32) -> ! {
    let e = ex();
    e.threads[e.cur as usize].reach = true;
    e.submit(Event {
        site,
        ..Event::new(0, Kind::AssertFail)
    });
    unsafe { libc::_exit(3) }
}

/// `__VERIFIER_nondet_*`: a value of an integer type of `bits` bits that the checker
/// chooses over the intervals that begin at `cuts` (`nondet::cuts`), with the site's
/// `nondet::USED` and `nondet::UNTRACKED` flags.
/// 0 bits: a pointer (`nondet::Domain::pointer`).
///
/// # Safety
/// `cuts` points to `n_cuts` values.
#[no_mangle]
pub unsafe extern "C" fn cdpor_nondet(
    bits: u32,
    signed: u32,
    site: u32,
    flags: u32,
    cuts: *const i64,
    n_cuts: u32,
) -> u64 {
    let e = ex();
    let cuts = if cuts.is_null() {
        &[]
    } else {
        std::slice::from_raw_parts(cuts, n_cuts as usize)
    };
    let d = if bits == 0 {
        nondet::Domain::pointer()
    } else {
        nondet::Domain {
            bits,
            signed: signed != 0,
            cuts,
            range: (e.hdr().nondet_lo, e.hdr().nondet_hi),
            used: flags & nondet::USED != 0,
        }
    };
    let untracked = flags & nondet::UNTRACKED != 0 || bits == 0;
    let ev = nondet::event(d.size(), site);
    e.threads[e.cur as usize].nondet = Some((d, untracked));
    e.submit(ev);
    let e = ex();
    e.threads[e.cur as usize].result
}

/// Enters an atomic section (`__VERIFIER_atomic_begin()`, or the entry of a
/// `__VERIFIER_atomic_*` function); sections nest.
#[no_mangle]
pub extern "C" fn cdpor_atomic_begin(site: u32) {
    let e = ex();
    let t = e.cur as usize;
    e.threads[t].atomic += 1;
    if e.threads[t].atomic == 1 {
        e.submit(Event {
            site,
            flags: FLAG_SCAN,
            ..Event::new(0, Kind::Atomic)
        });
    }
}

#[no_mangle]
pub extern "C" fn cdpor_atomic_end(_site: u32) {
    let e = ex();
    let t = e.cur as usize;
    match e.threads[t].atomic {
        0 => {}
        1 => {
            e.threads[t].atomic = 0;
            e.in_runtime = true;
            e.end_section();
            e.in_runtime = false;
        }
        _ => e.threads[t].atomic -= 1,
    }
}

#[no_mangle]
pub extern "C" fn cdpor_self() -> u64 {
    let e = ex();
    e.threads[e.cur as usize].handle
}

#[no_mangle]
pub extern "C" fn cdpor_current_tid() -> u32 {
    ex().cur
}

/// `malloc` and its kin: a new heap block of the current thread's, or NULL (ENOMEM).
#[no_mangle]
pub extern "C" fn cdpor_heap_alloc(size: u64, align: u64, site: u32) -> *mut c_void {
    let e = ex();
    match heap::alloc(e.cur, e.sched.step() as u32, size, align, site) {
        Some(block) => {
            log_alloc(e, block, size, site);
            block as *mut c_void
        }
        // SV-COMP assumes that allocation never fails: a thread whose request the heap
        // cannot meet stops for good there, and the execution is cut.
        None if !e.strict => {
            e.in_runtime = true;
            e.cut_by_unroll(site)
        }
        None => {
            *errno() = libc::ENOMEM;
            ptr::null_mut()
        }
    }
}

/// The value of the thread that the current thread's last join waited for.
#[no_mangle]
pub extern "C" fn cdpor_joined_value() -> u64 {
    let e = ex();
    e.threads[e.cur as usize].result
}

/// The current thread's block of thread-local variables, its first `size` bytes made
/// accessible.
#[no_mangle]
pub extern "C" fn cdpor_tls_block(size: u64) -> *mut c_void {
    let e = ex();
    let block = layout::life_tls_block(e.cur, e.threads[e.cur as usize].life);
    if size > layout::TLS_LIFE {
        e.unsupported(0, b"thread-local variables of more than 256 KiB in all");
    }
    let len = size.next_multiple_of(4096);
    match crate::layout::map_tls(e.cur, e.threads[e.cur as usize].life, len) {
        Some(b) if b == block => block as *mut c_void,
        _ => e.unsupported(0, b"cannot map a thread's thread-local variables"),
    }
}

/// The size of the heap block at `p`, live or freed (for `realloc`).
#[no_mangle]
pub extern "C" fn cdpor_heap_size(p: *const c_void) -> u64 {
    heap::size(p as u64)
}

/// `free(p)` (`p` not NULL), an event that writes the whole block, so that it conflicts
/// with every access to it; whether `p` is a block to free is decided when it executes.
/// Returns 1 when `p` is memory the C library allocated for itself, which the caller
/// gives back to the library's own `free` (no event: no other thread can have it but
/// through the program, which never sees the library's allocator).
#[no_mangle]
pub extern "C" fn cdpor_heap_free(p: *mut c_void, site: u32) -> c_int {
    let p = p as u64;
    let len = match heap::target(p) {
        heap::Target::Foreign => return 1,
        heap::Target::Live(size) | heap::Target::Freed(size) => size.max(1),
        heap::Target::Invalid(_) => 1,
    };
    ex().submit(Event {
        site,
        ..Event::mem(0, Kind::Free, p, len.min(u32::MAX as u64) as u32)
    });
    0
}

fn log_alloc(e: &mut Exec, addr: u64, size: u64, site: u32) {
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

/// The program uses a value of `__VERIFIER_nondet_*` at `site` other than by comparing it
/// with constants: one the current thread chose, or (`any`, read from memory) any
/// thread's.
#[no_mangle]
pub extern "C" fn cdpor_nondet_used(site: u32, any: u32) {
    ex().used(site, any != 0)
}
