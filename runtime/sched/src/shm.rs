//! The shared-memory region through which `cdpor` and the checked program's worker
//! exchange one execution: `cdpor` writes a request (schedule, sleep set, limits), the
//! worker writes the trace and how the execution ended (`handoff` says who waits for
//! whom).
//!
//! Layout: `Header`, `MAX_THREADS` sleep-set events, `MAX_THREADS` thread records,
//! `MAX_THREADS` thread names, `cap_steps` schedule steps, `cap_steps` trace events,
//! `cap_steps` enabled sets and `MAX_ALLOCS` allocation records. Every part is `repr(C)`
//! plain data; offsets come from `Layout`.

use crate::event::{Event, Step, ThreadSet, Tid, MAX_THREADS};

pub const MAGIC: u32 = 0x6364_706f;
pub const MAX_ALLOCS: usize = 1 << 14;
pub const TEXT_LEN: usize = 256;
/// Restricted nondeterministic values an execution reports by site (one is enough to
/// make it incomplete; the rest only name more of them).
pub const MAX_RESTRICTED: usize = 8;

/// Request flag: let the program's own output through (replay), instead of discarding it.
pub const FLAG_SHOW_OUTPUT: u32 = 1;
/// SV-COMP conventions: `abort()` ends an execution silently.
pub const FLAG_SVCOMP: u32 = 2;
/// Condition waits end only when signalled (`--no-spurious-wakeups`).
pub const FLAG_NO_SPURIOUS: u32 = 4;
/// Data races are errors (`--races`): an atomic read-modify-write that changed nothing
/// still counts as a write (C11's data races do not look at values).
pub const FLAG_RACES: u32 = 8;
/// A retry loop's failed first try runs on like any iteration, instead of ending the
/// execution as redundant (`ops::awaits::LOOP_RETRY`): the oracle that reduction is
/// checked against.
pub const FLAG_ALL_RETRIES: u32 = 16;
/// Every order of arrival at a barrier is explored (`ops::barrier::ORDERED`): the
/// exploration after one in which more threads used a barrier than it waits for.
pub const FLAG_ORDERED_BARRIERS: u32 = 32;
/// A false assumption ends the execution where it fails, instead of stopping its thread
/// for good where what it read could still change (`cdpor_assume`): the oracle that
/// reduction is checked against.
pub const FLAG_ASSUME_ENDS: u32 = 64;

/// Environment variables through which `cdpor` hands the fork server its region.
pub const ENV_SHM_FD: &str = "CDPOR_SHM_FD";
pub const ENV_CPU: &str = "CDPOR_CPU";
/// Set (to anything): after each in-place reset the worker compares the program's image
/// with the state it started from, and reports the first difference (a test of reset).
pub const ENV_VERIFY_RESET: &str = "CDPOR_VERIFY_RESET";

/// How a worker gets back to the state before an execution (`Header::reset`).
pub const RESET_FORK: u32 = 0;
pub const RESET_INPLACE: u32 = 1;

/// Why a worker that resets in place ended after an execution, and the server forked a
/// fresh one (`Header::replaced` counts each).
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Replaced {
    /// A thread crashed, or the runtime did: anything may be half done.
    Crash = 0,
    /// The C library's allocator was used (its bookkeeping is spread over its heap).
    LibraryAllocator = 1,
    /// An event wrote memory outside the program's image, heap, stacks and blocks.
    StrayWrite = 2,
    /// The runtime ran out of the room it keeps for an execution.
    Room = 3,
}

pub const REPLACED_KINDS: usize = 4;

/// Why a worker left in-place reset for good (`Header::fallback`): the program changed
/// what a reset cannot put back, outside its process or in state cdpor does not see.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fallback {
    None = 0,
    /// A call of a function that changes kernel or library state (`fallback_site`: its
    /// site; `fallback_text`: the function).
    Call = 1,
    /// The program was built so (`fallback_text` says why): a function whose effects
    /// cdpor does not see is called through a pointer.
    Program = 2,
    /// A difference found by `ENV_VERIFY_RESET` (`fallback_text` says where).
    Verify = 3,
}

impl Fallback {
    pub fn from_u32(v: u32) -> Fallback {
        match v {
            1 => Fallback::Call,
            2 => Fallback::Program,
            3 => Fallback::Verify,
            _ => Fallback::None,
        }
    }
}

/// How an execution ended.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Still running (or the child died without saying why).
    Running = 0,
    /// `exit(code)`, a return from `main`, or every thread finished.
    Exit = 1,
    /// Every live thread is blocked.
    Deadlock = 2,
    Assertion = 3,
    Abort = 4,
    /// A thread crashed (the last event is its `Crash`), or the runtime itself faulted
    /// (no `Crash` event): `code` is the signal, `fault_addr` the address.
    Crash = 5,
    /// Every enabled thread is in the sleep set.
    SleepBlocked = 6,
    /// The execution reached `max_steps` events.
    StepBound = 7,
    /// The schedule named a thread that could not run: the program is not deterministic.
    Diverged = 8,
    /// A create went past `max_threads` in this execution, or the program's threads have
    /// more than `MAX_THREADS` distinct names: the execution is cut there.
    ThreadBound = 9,
    /// Like `Crash`, but the fault hit a thread's stack guard.
    StackOverflow = 10,
    /// The program used something the runtime does not model; `text` says what.
    Unsupported = 11,
    /// An assumption was false (`__VERIFIER_assume`, or `abort()` under SV-COMP): an
    /// infeasible execution, not an error.
    AssumeFail = 12,
    /// `reach_error()` or `__VERIFIER_error()` was called: the site says which.
    ReachError = 13,
    /// No thread could run, and some thread waits in an await (a spin loop) that no
    /// thread can end.
    Livelock = 14,
    /// A loop ran `unroll` iterations in one thread: that thread waits for good, the
    /// others run on, and the execution is cut there.
    LoopBound = 15,
    /// A memory error (`Header::mem` says which).
    Memory = 16,
    /// A misuse of a synchronization object by the last event (`outcome_code`: the
    /// `ops::Misuse`).
    Misuse = 17,
    /// No thread could run, but a thread blocked in a timed wait whose timeout was
    /// ruled out could time out and see another thread's change: the execution is cut.
    TimedWaitCut = 18,
    /// No thread could run, and a thread spins on bytes that another thread changed
    /// after it read them: the execution in which its loop runs after the change covers
    /// this one (`ops::awaits`).
    StaleSpin = 19,
}

impl Outcome {
    pub fn from_u32(v: u32) -> Outcome {
        use Outcome::*;
        match v {
            1 => Exit,
            2 => Deadlock,
            3 => Assertion,
            4 => Abort,
            5 => Crash,
            6 => SleepBlocked,
            7 => StepBound,
            8 => Diverged,
            9 => ThreadBound,
            10 => StackOverflow,
            11 => Unsupported,
            12 => AssumeFail,
            13 => ReachError,
            14 => Livelock,
            15 => LoopBound,
            16 => Memory,
            17 => Misuse,
            18 => TimedWaitCut,
            19 => StaleSpin,
            _ => Running,
        }
    }
}

#[repr(C)]
pub struct Header {
    pub magic: u32,
    pub cap_steps: u32,
    // Request, written by cdpor before each execution.
    pub max_steps: u32,
    pub sched_len: u32,
    pub sleep_len: u32,
    pub sleep_from: u32,
    pub flags: u32,
    /// Threads an execution may create besides main before it is cut.
    pub max_threads: u32,
    /// Iterations a loop may run in one thread's activation of it before the execution
    /// is cut (iterations without a visible operation are not counted).
    pub unroll: u32,
    /// The values a nondeterministic integer too wide to explore whole takes.
    pub nondet_lo: i64,
    pub nondet_hi: i64,
    /// A probe's free choices (`scheduler::Probe::encode`), or 0.
    pub probe: u64,
    /// Thread numbers given so far (`ThreadName`): an execution that takes a new one
    /// adds it.
    pub n_names: u32,
    /// `RESET_FORK` or `RESET_INPLACE`; a worker that falls back sets `RESET_FORK`.
    pub reset: u32,
    // The hand-off (`handoff`): request numbers, each written by one side, and the flags
    // by which their waiters say they sleep.
    pub go: u32,
    pub taken: u32,
    pub done: u32,
    pub go_sleeping: u32,
    pub done_sleeping: u32,
    /// cdpor and the worker run on CPUs of their own: waiters spin before they sleep.
    pub spin: u32,
    /// The request's schedule is only the prefix that the next execution certainly
    /// follows, posted before cdpor analysed the last execution: the worker runs it,
    /// then waits until `more` is the request's number, and reads the whole schedule and
    /// the sleep set again (the prefix is not written again).
    pub partial: u32,
    pub more: u32,
    pub more_sleeping: u32,
    /// Written by the worker before `taken`: its process, which runs request `taken`.
    pub runner_pid: i32,
    // Written by the fork server.
    pub child_pid: i32,
    pub wait_status: i32,
    /// Workers forked so far.
    pub workers: u32,
    /// Workers that ended after an execution they could not reset from, by `Replaced`.
    pub replaced: [u32; REPLACED_KINDS],
    // Written by the worker.
    /// `Fallback`, once a worker left in-place reset for good.
    pub fallback: u32,
    pub fallback_site: u32,
    pub fallback_text: [u8; TEXT_LEN],
    /// Time-stamp counter ticks the last execution ran (from its request to its end, not
    /// counting its wait for the rest of a partial schedule), of that the part after the
    /// rest came (all of it for a whole schedule), and the reset before it (0 in a fresh
    /// worker): read without a system call or a page fault, even in a worker forked for
    /// one execution.
    pub run_ticks: u64,
    pub tail_ticks: u64,
    pub reset_ticks: u64,
    // Response, written by the child.
    pub n_events: u32,
    pub n_threads: u32,
    pub n_allocs: u32,
    pub outcome: u32,
    pub outcome_tid: u32,
    pub outcome_site: u32,
    pub outcome_line: u32,
    pub outcome_code: i64,
    pub fault_addr: u64,
    /// The instruction that faulted.
    pub fault_pc: u64,
    /// The thread running user code right now (read when an execution hangs).
    pub running: u32,
    /// Nondeterministic values this execution used that were explored over part of
    /// their interval only: `[site, values explored]`, the first `MAX_RESTRICTED` sites.
    pub n_restricted: u32,
    pub restricted: [[u32; 2]; MAX_RESTRICTED],
    /// More threads used a barrier than it waits for (`ops::World::barrier_overflow`).
    pub barrier_overflow: u32,
    /// NUL-terminated: the failed assertion's expression.
    pub text: [u8; TEXT_LEN],
    /// NUL-terminated: the failed assertion's file.
    pub file: [u8; TEXT_LEN],
    pub mem: MemFault,
}

/// What went wrong with the heap.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MemError {
    #[default]
    UseAfterFree = 1,
    /// An access to heap memory outside every block.
    OutOfBounds = 2,
    DoubleFree = 3,
    /// `free` of a heap pointer that is not a block's start.
    InvalidFree = 4,
    /// `free` of a global, a static or a constant.
    FreeStatic = 5,
    /// `free` of a thread's stack variable.
    FreeStack = 6,
    /// An access to the stack of thread `alloc_tid`, which has exited (at `free_site`).
    DeadStack = 7,
    /// An access to a thread-local variable of thread `alloc_tid`, which has exited.
    DeadTls = 8,
}

impl MemError {
    pub fn from_u32(v: u32) -> MemError {
        use MemError::*;
        match v {
            2 => OutOfBounds,
            3 => DoubleFree,
            4 => InvalidFree,
            5 => FreeStatic,
            6 => FreeStack,
            7 => DeadStack,
            8 => DeadTls,
            _ => UseAfterFree,
        }
    }
}

/// A memory error as the runtime saw it: the access (or the pointer freed) and the heap
/// block concerned (`block` 0: none near), with who allocated and freed it.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct MemFault {
    pub what: u32,
    /// 1: the block was freed (`free_site`, `free_tid` say where and by whom).
    pub freed: u32,
    pub addr: u64,
    /// Bytes accessed (0 for a free).
    pub len: u64,
    pub block: u64,
    pub size: u64,
    pub alloc_site: u32,
    pub alloc_tid: Tid,
    pub free_site: u32,
    pub free_tid: Tid,
    /// How the access used the bytes: 1 read, 2 write, 3 both (0 for a free).
    pub access: u32,
    /// The step at which the block was allocated.
    pub alloc_step: u32,
}

/// What a thread was doing when the execution ended.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ThreadStatus {
    NotCreated = 0,
    Enabled = 1,
    Blocked = 2,
    Finished = 3,
}

impl ThreadStatus {
    pub fn from_u32(v: u32) -> ThreadStatus {
        match v {
            1 => ThreadStatus::Enabled,
            2 => ThreadStatus::Blocked,
            3 => ThreadStatus::Finished,
            _ => ThreadStatus::NotCreated,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct ThreadEnd {
    pub status: u32,
    pub _pad: u32,
    /// The operation the thread was about to perform (valid when enabled or blocked).
    pub pending: Event,
}

/// Where a thread number comes from: number `t` of an exploration is the `index`-th
/// (0-based) new number that threads of number `parent` took for their children; main
/// is entry 0, whose parent is `NO_PARENT`. A creator gives a child the number of a
/// thread it joined when it has one, else a new one (the runtime's `child_number`), so
/// numbers depend on what the creator did, not on the order in which threads of
/// different creators start, and numbers of finished threads are used again. How
/// reports name threads is another matter (by creator and rank: `schedule::Names`).
#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct ThreadName {
    pub parent: Tid,
    pub index: u32,
}

pub const NO_PARENT: Tid = u32::MAX;

/// One heap allocation, so that reports can name heap blocks by allocation site.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
pub struct Alloc {
    pub addr: u64,
    pub size: u64,
    pub site: u32,
    pub tid: u32,
}

/// Byte offsets of the parts of the region for a given step capacity.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub cap_steps: usize,
}

const fn align(x: usize) -> usize {
    (x + 63) & !63
}

impl Layout {
    // The small parts (header, sleep set, thread records) come first and share pages:
    // every execution touches them, and each page it touches costs a fault.
    pub fn sleep(&self) -> usize {
        align(std::mem::size_of::<Header>())
    }
    pub fn threads(&self) -> usize {
        align(self.sleep() + std::mem::size_of::<Event>() * MAX_THREADS)
    }
    pub fn names(&self) -> usize {
        align(self.threads() + std::mem::size_of::<ThreadEnd>() * MAX_THREADS)
    }
    pub fn schedule(&self) -> usize {
        align(self.names() + std::mem::size_of::<ThreadName>() * MAX_THREADS)
    }
    pub fn events(&self) -> usize {
        align(self.schedule() + std::mem::size_of::<Step>() * self.cap_steps)
    }
    /// The threads enabled in the state before each event.
    pub fn enabled(&self) -> usize {
        align(self.events() + std::mem::size_of::<Event>() * self.cap_steps)
    }
    pub fn allocs(&self) -> usize {
        align(self.enabled() + std::mem::size_of::<ThreadSet>() * self.cap_steps)
    }
    pub fn size(&self) -> usize {
        let end = self.allocs() + std::mem::size_of::<Alloc>() * MAX_ALLOCS;
        (end + 4095) & !4095
    }
}

/// Reads a NUL-terminated text field.
pub fn text(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end]).into_owned()
}

/// Writes a NUL-terminated text field, truncating.
pub fn set_text(field: &mut [u8], s: &[u8]) {
    let n = s.len().min(field.len() - 1);
    field[..n].copy_from_slice(&s[..n]);
    field[n] = 0;
}
