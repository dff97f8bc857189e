//! The visible event record, and the small types around it (threads, thread sets,
//! schedule steps).
//!
//! The same `Event` record is written by the runtime into shared memory, read by the
//! engine, stored in sleep sets and wakeup trees, and produced by the engine's test
//! simulator. What each kind means (footprint, enabledness, effect) is defined once, in
//! `crate::ops`.

use std::fmt;

/// A thread's identity for one exploration. Threads are named by their creator and their
/// index among its children; the runtime and the engine agree on a number per name (see
/// `shm::ThreadName`), so the number does not depend on the order in which threads of
/// different parents were created. The main thread is 0.
pub type Tid = u32;

/// Words of a `ThreadSet`: thread numbers are below `MAX_THREADS`.
const WORDS: usize = 8;

/// Distinct threads one exploration can name.
pub const MAX_THREADS: usize = 64 * WORDS;

/// The kinds of visible operations. The numbers are shared with `runtime/c/kinds.h`.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// Reads `len` bytes at `addr`.
    Read = 1,
    /// Writes `len` bytes at `addr` (`FLAG_STORE`: the runtime stores `value` itself).
    Write = 2,
    /// Atomic read-modify-write of `len` bytes at `addr`.
    Rmw = 3,
    /// Atomic compare-and-exchange of `len` bytes at `addr` against `value`; its outcome
    /// (`FLAG_FAILED`: memory did not hold `value`) is known once it executes.
    CmpXchg = 4,
    /// `memcpy`/`memmove`: reads `arg_len` bytes at `arg`, writes `len` bytes at `addr`.
    Copy = 5,
    /// A fence: orders nothing under sequential consistency.
    Fence = 6,
    /// A C library function's accesses to user memory: up to two ranges, `[addr, +len)`
    /// and `[arg, +arg_len)`, with the modes in `modes` (see `ops::memory`).
    Lib = 7,
    /// `free` (or `realloc`) of the heap block at `addr`: writes its `len` bytes (at
    /// least one), so it conflicts with every access to the block.
    Free = 12,
    /// An atomic section (`__VERIFIER_atomic_*`): every access it made, as one step,
    /// summarized in two ranges like a `Lib` event's (`ops::memory::Summary`). What it
    /// accesses depends on the values it reads, so it is identified by its site.
    Atomic = 8,
    /// A nondeterministic value (`__VERIFIER_nondet_*`): the `choice`-th of `choices`,
    /// returned as `value`. `FLAG_RESTRICTED`: its interval was explored in part only.
    Nondet = 9,
    /// `pthread_mutex_lock` on the mutex at `addr`.
    Lock = 10,
    /// `pthread_mutex_trylock`; `FLAG_FAILED`: the mutex was busy.
    TryLock = 11,
    Unlock = 13,
    MutexInit = 14,
    MutexDestroy = 15,
    /// `pthread_cond_wait` on the condition at `addr`, first half: releases the mutex at
    /// `arg` and starts waiting.
    CondWait = 16,
    /// `pthread_cond_signal`: wakes one waiter, the `choice`-th of `choices` (in thread
    /// order), recorded in `aux`; `FLAG_FAILED`: there was no waiter.
    CondSignal = 17,
    /// `pthread_cond_wait`, second half: takes the mutex at `arg` back once woken. While
    /// pending, `value` is 1 + the step of the signal that woke it (0: not woken yet).
    CondWake = 18,
    /// `pthread_cond_broadcast`: wakes every waiter; `FLAG_FAILED`: there was none.
    CondBroadcast = 19,
    /// Creates thread `aux`.
    Create = 20,
    /// Waits for thread `aux` to finish.
    Join = 21,
    /// The thread finishes (returns from its start routine or calls `pthread_exit`).
    ThreadExit = 22,
    /// Detaches thread `aux` (`pthread_detach`, or a create with a detached attribute).
    Detach = 23,
    CondInit = 24,
    CondDestroy = 25,
    /// `exit(value)` or a return from `main`: ends every thread.
    ProcessExit = 30,
    /// A failed `assert`: ends the program with an error.
    AssertFail = 31,
    /// `abort()`.
    Abort = 32,
    /// The thread crashed: signal `value`, faulting address `addr`, instruction `arg`.
    Crash = 33,
    /// `__VERIFIER_assume` with a false condition (or `abort()` under `--svcomp`): the
    /// execution is infeasible and ends, without an error.
    AssumeFail = 34,
    /// A spin loop that made no progress (`ops::awaits`): the thread waits until another
    /// thread writes a byte of its loop's last iteration, read at `[addr, +len)` and
    /// `[arg, +arg_len)`. While pending, `value` is 1 + the step of the write that woke it
    /// (0: not woken yet).
    Await = 26,
    /// `sem_init` of the semaphore at `addr` with the count `value`.
    SemInit = 40,
    /// `sem_wait`: takes a unit, once there is one.
    SemWait = 41,
    /// `sem_trywait`; `FLAG_FAILED`: the count was 0.
    SemTryWait = 42,
    SemPost = 43,
    SemGetValue = 44,
    SemDestroy = 45,
    /// `pthread_once` on the control at `addr`, first half: starts running the
    /// initializer, or finds it run (`FLAG_FAILED`); waits while another thread runs it.
    OnceBegin = 46,
    /// `pthread_once`, second half: the initializer has returned.
    OnceEnd = 47,
    /// `pthread_rwlock_init` of the rwlock at `addr` (`ops::rwlock`).
    RwInit = 48,
    /// `pthread_rwlock_rdlock`: takes a read lock once no writer holds it.
    RdLock = 49,
    /// `pthread_rwlock_tryrdlock` (`value` 1: timed); `FLAG_FAILED`: a writer held it.
    TryRdLock = 50,
    /// `pthread_rwlock_wrlock`: takes the write lock once nobody holds it.
    WrLock = 51,
    /// `pthread_rwlock_trywrlock` (`value` 1: timed); `FLAG_FAILED`: it was held.
    TryWrLock = 52,
    /// `pthread_rwlock_unlock`; `rwlock::FLAG_READER`: it released a read lock.
    RwUnlock = 53,
    RwDestroy = 54,
    /// `pthread_barrier_init` of the barrier at `addr` for `value` threads
    /// (`ops::barrier`).
    BarrierInit = 55,
    /// `pthread_barrier_wait`, first half: arrives in the current round (recorded in
    /// `value`); `FLAG_FAILED`: it was not the last arrival, which ends the round.
    BarrierWait = 56,
    /// `pthread_barrier_wait`, second half: waits for round `value` to end.
    BarrierPass = 57,
    BarrierDestroy = 58,
}

impl Kind {
    pub const ALL: [Kind; 50] = [
        Kind::Read,
        Kind::Write,
        Kind::Rmw,
        Kind::CmpXchg,
        Kind::Copy,
        Kind::Fence,
        Kind::Lib,
        Kind::Free,
        Kind::Atomic,
        Kind::Nondet,
        Kind::Lock,
        Kind::TryLock,
        Kind::Unlock,
        Kind::MutexInit,
        Kind::MutexDestroy,
        Kind::CondWait,
        Kind::CondSignal,
        Kind::CondWake,
        Kind::CondBroadcast,
        Kind::Create,
        Kind::Join,
        Kind::ThreadExit,
        Kind::Detach,
        Kind::CondInit,
        Kind::CondDestroy,
        Kind::ProcessExit,
        Kind::AssertFail,
        Kind::Abort,
        Kind::Crash,
        Kind::AssumeFail,
        Kind::Await,
        Kind::SemInit,
        Kind::SemWait,
        Kind::SemTryWait,
        Kind::SemPost,
        Kind::SemGetValue,
        Kind::SemDestroy,
        Kind::OnceBegin,
        Kind::OnceEnd,
        Kind::RwInit,
        Kind::RdLock,
        Kind::TryRdLock,
        Kind::WrLock,
        Kind::TryWrLock,
        Kind::RwUnlock,
        Kind::RwDestroy,
        Kind::BarrierInit,
        Kind::BarrierWait,
        Kind::BarrierPass,
        Kind::BarrierDestroy,
    ];

    pub fn from_u8(k: u8) -> Option<Kind> {
        use Kind::*;
        Some(match k {
            1 => Read,
            2 => Write,
            3 => Rmw,
            4 => CmpXchg,
            5 => Copy,
            6 => Fence,
            7 => Lib,
            8 => Atomic,
            9 => Nondet,
            10 => Lock,
            11 => TryLock,
            12 => Free,
            13 => Unlock,
            14 => MutexInit,
            15 => MutexDestroy,
            16 => CondWait,
            17 => CondSignal,
            18 => CondWake,
            19 => CondBroadcast,
            20 => Create,
            21 => Join,
            22 => ThreadExit,
            23 => Detach,
            24 => CondInit,
            25 => CondDestroy,
            26 => Await,
            30 => ProcessExit,
            31 => AssertFail,
            32 => Abort,
            33 => Crash,
            34 => AssumeFail,
            40 => SemInit,
            41 => SemWait,
            42 => SemTryWait,
            43 => SemPost,
            44 => SemGetValue,
            45 => SemDestroy,
            46 => OnceBegin,
            47 => OnceEnd,
            48 => RwInit,
            49 => RdLock,
            50 => TryRdLock,
            51 => WrLock,
            52 => TryWrLock,
            53 => RwUnlock,
            54 => RwDestroy,
            55 => BarrierInit,
            56 => BarrierWait,
            57 => BarrierPass,
            58 => BarrierDestroy,
            _ => return None,
        })
    }

    /// Events after which no thread runs again.
    pub fn ends_program(self) -> bool {
        matches!(
            self,
            Kind::ProcessExit | Kind::AssertFail | Kind::Abort | Kind::Crash | Kind::AssumeFail
        )
    }

    pub fn name(self) -> &'static str {
        use Kind::*;
        match self {
            Read => "read",
            Write => "write",
            Rmw => "rmw",
            CmpXchg => "cmpxchg",
            Copy => "copy",
            Fence => "fence",
            Lib => "lib",
            Free => "free",
            Atomic => "atomic",
            Nondet => "nondet",
            Lock => "lock",
            TryLock => "trylock",
            Unlock => "unlock",
            MutexInit => "mutex-init",
            MutexDestroy => "mutex-destroy",
            CondWait => "cond-wait",
            CondSignal => "cond-signal",
            CondWake => "cond-wake",
            CondBroadcast => "cond-broadcast",
            CondInit => "cond-init",
            CondDestroy => "cond-destroy",
            Create => "create",
            Join => "join",
            ThreadExit => "thread-exit",
            Detach => "detach",
            ProcessExit => "exit",
            AssertFail => "assert-fail",
            Abort => "abort",
            Crash => "crash",
            SemInit => "sem-init",
            SemWait => "sem-wait",
            SemTryWait => "sem-trywait",
            SemPost => "sem-post",
            SemGetValue => "sem-getvalue",
            SemDestroy => "sem-destroy",
            OnceBegin => "once-begin",
            OnceEnd => "once-end",
            RwInit => "rwlock-init",
            RdLock => "rdlock",
            TryRdLock => "tryrdlock",
            WrLock => "wrlock",
            TryWrLock => "trywrlock",
            RwUnlock => "rwlock-unlock",
            RwDestroy => "rwlock-destroy",
            BarrierInit => "barrier-init",
            BarrierWait => "barrier-wait",
            BarrierPass => "barrier-pass",
            BarrierDestroy => "barrier-destroy",
            AssumeFail => "assume-fail",
            Await => "await",
        }
    }
}

/// `value` of a `Crash` that replaces an operation found, as it executed, to be a memory
/// error or a misuse of its object (the execution's outcome says which): the program
/// ends there, as at a crash. It keeps the operation's fields, and its kind in
/// `replaced`: its footprint is the operation's, so it races with what made the
/// operation fail (the free before a use, the unlock before a second unlock).
pub const CRASH_MEMORY: u64 = 1 << 32;
pub const CRASH_MISUSE: u64 = 2 << 32;

/// Flag: the access is an atomic instruction (for reports only).
pub const FLAG_ATOMIC: u8 = 1;
/// Flag: `value` holds the value read or written.
pub const FLAG_VALUE: u8 = 2;
/// Outcome flag: the operation did not take effect (a cmpxchg that found another value,
/// a read-modify-write that wrote what memory held, unless data races are checked,
/// a trylock that found the mutex busy, a signal or broadcast that found no waiter).
pub const FLAG_FAILED: u8 = 4;
/// Flag on a sleep-set entry: it conflicts with every access to its bytes, reads included
/// (the dependence of classic DPOR, under which two reads do not commute).
pub const FLAG_NO_COMMUTE: u8 = 8;
/// Flag on a `Write`: the runtime stores `value` into user memory itself (the `pthread_t`
/// of `pthread_create`, the result of `pthread_join`).
pub const FLAG_STORE: u8 = 16;
/// Flag on a `Lib` event: its ranges depend on the contents of memory (a string's
/// length), so they are computed when the event executes.
pub const FLAG_SCAN: u8 = 32;
/// Flag on a `CondWait`: the wait may end without a signal (POSIX's spurious wake-up),
/// an alternative (`choice` 1) the engine explores; on a `CondWake`: the wait it ends
/// took that alternative, so it is enabled whenever the mutex is free.
pub const FLAG_SPURIOUS: u8 = 16;
/// Flag on a `Nondet` event: its value was sampled from an interval explored in part.
pub const FLAG_RESTRICTED: u8 = 64;
/// Flag on an `Await`: it watches all of memory (its bytes did not fit its record).
pub const FLAG_WHOLE: u8 = 64;

/// Outcome flag on a write (a store, an exchange, an atomic section...): memory held the
/// bytes it wrote already, so it changed nothing (a loop that only does such writes can
/// be waiting: `ops::awaits`).
pub const FLAG_SILENT: u8 = 128;

/// Flags that describe an outcome rather than the operation attempted.
pub const OUTCOME_FLAGS: u8 = FLAG_FAILED | FLAG_VALUE | FLAG_SILENT;

/// One visible operation of one thread, as recorded in a trace (56 bytes, `repr(C)`
/// because the runtime writes it into shared memory).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Event {
    /// The object operated on: the first memory range, or the mutex, condition...
    pub addr: u64,
    /// A second object: the source of a copy, the mutex of a condition wait, the start
    /// routine of a `Create`.
    pub arg: u64,
    /// Value read or written, exit code, signal number...
    pub value: u64,
    /// Length in bytes of the range at `addr`.
    pub len: u32,
    /// Length in bytes of the range at `arg`.
    pub arg_len: u32,
    pub tid: Tid,
    /// The other thread of a `Create` or `Join`; the thread a signal woke.
    pub aux: u32,
    /// Instrumentation site (0 when unknown).
    pub site: u32,
    /// Which of the operation's `choices` alternatives this execution took.
    pub choice: u32,
    /// How many alternatives the operation had where it executed (0 or 1: none).
    pub choices: u32,
    pub kind: u8,
    pub flags: u8,
    /// `Lib` events: the modes of the two ranges (`ops::memory::modes`).
    pub modes: u8,
    /// A `Crash` that took the place of an operation that failed as it executed (a
    /// memory error, a misuse): that operation's kind, whose footprint it keeps.
    pub replaced: u8,
}

impl Event {
    pub fn new(tid: Tid, kind: Kind) -> Event {
        Event {
            tid,
            kind: kind as u8,
            ..Event::default()
        }
    }

    pub fn mem(tid: Tid, kind: Kind, addr: u64, len: u32) -> Event {
        Event {
            addr,
            len,
            ..Event::new(tid, kind)
        }
    }

    /// An operation on the object at `addr` (a mutex, a condition...).
    pub fn on(tid: Tid, kind: Kind, addr: u64) -> Event {
        Event {
            addr,
            ..Event::new(tid, kind)
        }
    }

    pub fn tid(&self) -> Tid {
        self.tid
    }

    /// The event's kind; records with an unknown kind read as `Fence` (independent of
    /// everything), which the engine rejects before it relies on them.
    pub fn kind(&self) -> Kind {
        Kind::from_u8(self.kind).unwrap_or(Kind::Fence)
    }

    pub fn failed(&self) -> bool {
        self.flags & FLAG_FAILED != 0
    }

    pub fn ends_program(&self) -> bool {
        self.kind().ends_program()
    }
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.kind();
        write!(f, "T{}:{}", self.tid, k.name())?;
        if self.failed() {
            write!(f, "!")?;
        }
        match k {
            Kind::Read | Kind::Write | Kind::Rmw | Kind::CmpXchg => {
                write!(f, "({:#x}+{})", self.addr, self.len)?
            }
            Kind::Copy | Kind::Lib | Kind::Atomic => write!(
                f,
                "({:#x}+{},{:#x}+{})",
                self.addr, self.len, self.arg, self.arg_len
            )?,
            Kind::CondWait | Kind::CondWake => write!(f, "({:#x},{:#x})", self.addr, self.arg)?,
            Kind::Create | Kind::Join | Kind::Detach => write!(f, "(T{})", self.aux)?,
            Kind::Nondet => write!(f, "({})", self.value as i64)?,
            Kind::Fence
            | Kind::ThreadExit
            | Kind::ProcessExit
            | Kind::AssertFail
            | Kind::Abort
            | Kind::AssumeFail => {}
            _ => write!(f, "({:#x})", self.addr)?,
        }
        if self.choices > 1 {
            write!(f, "/{}of{}", self.choice, self.choices)?;
        }
        Ok(())
    }
}

/// One step of a schedule: the thread that performs the event, and which alternative
/// the event takes when it has several (see `Event::choices`).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Step {
    pub tid: Tid,
    pub choice: u32,
}

impl Step {
    pub fn of(e: &Event) -> Step {
        Step {
            tid: e.tid,
            choice: e.choice,
        }
    }
}

/// A set of threads.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct ThreadSet([u64; WORDS]);

impl ThreadSet {
    pub const EMPTY: ThreadSet = ThreadSet([0; WORDS]);

    pub fn contains(self, t: Tid) -> bool {
        let t = t as usize;
        t < MAX_THREADS && self.0[t / 64] & (1u64 << (t % 64)) != 0
    }
    /// Threads at or beyond `MAX_THREADS` are never members (the runtime refuses them).
    pub fn insert(&mut self, t: Tid) {
        let t = t as usize;
        if t < MAX_THREADS {
            self.0[t / 64] |= 1u64 << (t % 64);
        }
    }
    pub fn remove(&mut self, t: Tid) {
        let t = t as usize;
        if t < MAX_THREADS {
            self.0[t / 64] &= !(1u64 << (t % 64));
        }
    }
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    pub fn first(self) -> Option<Tid> {
        self.iter().next()
    }
    fn zip(self, other: ThreadSet, f: impl Fn(u64, u64) -> u64) -> ThreadSet {
        let mut out = ThreadSet::EMPTY;
        for i in 0..WORDS {
            out.0[i] = f(self.0[i], other.0[i]);
        }
        out
    }
    pub fn minus(self, other: ThreadSet) -> ThreadSet {
        self.zip(other, |a, b| a & !b)
    }
    pub fn union(self, other: ThreadSet) -> ThreadSet {
        self.zip(other, |a, b| a | b)
    }
    pub fn intersects(self, other: ThreadSet) -> bool {
        !self.zip(other, |a, b| a & b).is_empty()
    }
    pub fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn iter(self) -> Members {
        Members { set: self, word: 0 }
    }
}

/// The members of a `ThreadSet`, in increasing order (a word at a time: most sets are
/// a few threads among the first 64).
pub struct Members {
    set: ThreadSet,
    word: usize,
}

impl Iterator for Members {
    type Item = Tid;

    #[inline]
    fn next(&mut self) -> Option<Tid> {
        while self.word < WORDS {
            let bits = &mut self.set.0[self.word];
            if *bits != 0 {
                let t = bits.trailing_zeros();
                *bits &= *bits - 1;
                return Some((self.word * 64) as Tid + t);
            }
            self.word += 1;
        }
        None
    }
}

impl FromIterator<Tid> for ThreadSet {
    fn from_iter<I: IntoIterator<Item = Tid>>(iter: I) -> Self {
        let mut s = ThreadSet::EMPTY;
        for t in iter {
            s.insert(t);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_record_is_56_bytes() {
        assert_eq!(std::mem::size_of::<Event>(), 56);
    }

    #[test]
    fn every_kind_round_trips() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_u8(k as u8), Some(k));
        }
        assert_eq!(Kind::from_u8(0), None);
        assert_eq!(Kind::from_u8(27), None);
    }

    #[test]
    fn thread_sets() {
        let s: ThreadSet = [0, 3, 63].into_iter().collect();
        assert!(s.contains(3) && !s.contains(4));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 3, 63]);
        assert_eq!(s.len(), 3);
        assert_eq!(s.minus([3].into_iter().collect()).len(), 2);
        let mut t = s;
        t.insert(MAX_THREADS as Tid);
        assert_eq!(t, s, "numbers past the bound are never members");
    }

    #[test]
    fn kinds_match_the_c_header() {
        let header = include_str!("../../c/kinds.h");
        let mut seen = 0;
        for line in header.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let ["#define", name, value] = words[..] {
                let Some(name) = name.strip_prefix("CDPOR_K_") else {
                    continue;
                };
                let v: u8 = value.parse().unwrap();
                let k = Kind::from_u8(v).unwrap_or_else(|| panic!("{name} = {v} unknown"));
                let rust = format!("{k:?}").to_uppercase();
                assert_eq!(rust, name.replace('_', ""), "kind {v}");
                seen += 1;
            }
        }
        assert_eq!(seen, Kind::ALL.len());
    }
}
