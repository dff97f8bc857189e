//! Visible events and the dependence relation between them.
//!
//! The same `Event` record is written by the runtime into shared memory, read by the
//! engine, stored in sleep sets and wakeup trees, and produced by the engine's test
//! simulator, so that there is exactly one definition of what commutes with what.

use std::fmt;

/// A thread's index, in creation order; the main thread is 0.
pub type Tid = u32;

/// Threads are numbered below this bound so that thread sets fit in a `u64`.
pub const MAX_THREADS: usize = 64;

/// The kinds of visible operations. The numbers are shared with `runtime/c/kinds.h`.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// Reads `len` bytes at `addr`.
    Read = 1,
    /// Writes `len` bytes at `addr`.
    Write = 2,
    /// Atomic read-modify-write (atomicrmw, successful cmpxchg).
    Rmw = 3,
    /// A cmpxchg not yet executed: its outcome (an `Rmw` or a `Read`) depends on memory.
    CmpXchg = 4,
    /// `llvm.memcpy`/`memmove`: reads `len` bytes at `src`, writes `len` bytes at `addr`.
    Copy = 5,
    /// A fence: orders nothing under sequential consistency, so it commutes with everything.
    Fence = 6,
    /// Acquires the mutex at `addr` (`pthread_mutex_lock` or a successful trylock).
    Lock = 10,
    /// A `pthread_mutex_trylock` not yet executed.
    TryLock = 11,
    /// A trylock that found the mutex held: it only observes the mutex.
    TryFail = 12,
    Unlock = 13,
    MutexInit = 14,
    MutexDestroy = 15,
    /// `pthread_cond_wait` on the condition at `addr`, first half: releases the mutex at
    /// `src` and starts waiting.
    CondWait = 16,
    /// `pthread_cond_signal`/`broadcast` (`value` 1) on the condition at `addr`: wakes
    /// every thread waiting on it (a signal may wake more than one thread: POSIX allows
    /// spurious wakeups).
    CondSignal = 17,
    /// `pthread_cond_wait`, second half: reacquires the mutex at `src` once woken (a
    /// pending `CondWake` has `value` 1 once a signal woke it).
    CondWake = 18,
    /// Creates thread `aux`.
    Create = 20,
    /// Waits for thread `aux` to finish.
    Join = 21,
    /// The thread finishes (returns from its start routine or calls `pthread_exit`).
    ThreadExit = 22,
    /// `exit(value)` or a return from `main`: ends every thread.
    ProcessExit = 30,
    /// A failed `assert`: ends the program with an error.
    AssertFail = 31,
    /// `abort()`.
    Abort = 32,
}

impl Kind {
    pub fn from_u8(k: u8) -> Option<Kind> {
        use Kind::*;
        Some(match k {
            1 => Read,
            2 => Write,
            3 => Rmw,
            4 => CmpXchg,
            5 => Copy,
            6 => Fence,
            10 => Lock,
            11 => TryLock,
            12 => TryFail,
            13 => Unlock,
            14 => MutexInit,
            15 => MutexDestroy,
            16 => CondWait,
            17 => CondSignal,
            18 => CondWake,
            20 => Create,
            21 => Join,
            22 => ThreadExit,
            30 => ProcessExit,
            31 => AssertFail,
            32 => Abort,
            _ => return None,
        })
    }

    pub fn is_memory(self) -> bool {
        matches!(
            self,
            Kind::Read | Kind::Write | Kind::Rmw | Kind::CmpXchg | Kind::Copy
        )
    }

    pub fn is_mutex(self) -> bool {
        matches!(
            self,
            Kind::Lock
                | Kind::TryLock
                | Kind::TryFail
                | Kind::Unlock
                | Kind::MutexInit
                | Kind::MutexDestroy
        )
    }

    /// The mutex an event operates on, if any.
    pub fn mutex_of(self, e: &Event) -> Option<u64> {
        match self {
            _ if self.is_mutex() => Some(e.addr),
            Kind::CondWait | Kind::CondWake => Some(e.src),
            _ => None,
        }
    }

    /// The condition variable an event operates on, if any.
    pub fn cond_of(self, e: &Event) -> Option<u64> {
        matches!(self, Kind::CondWait | Kind::CondSignal | Kind::CondWake).then_some(e.addr)
    }

    /// Events after which no thread runs again.
    pub fn ends_program(self) -> bool {
        matches!(self, Kind::ProcessExit | Kind::AssertFail | Kind::Abort)
    }

    /// Acquisitions of a mutex (a pending trylock may become one).
    pub fn acquires(self) -> bool {
        matches!(self, Kind::Lock | Kind::TryLock | Kind::CondWake)
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
            Lock => "lock",
            TryLock => "trylock",
            TryFail => "trylock-fail",
            Unlock => "unlock",
            MutexInit => "mutex-init",
            MutexDestroy => "mutex-destroy",
            CondWait => "cond-wait",
            CondSignal => "cond-signal",
            CondWake => "cond-wake",
            Create => "create",
            Join => "join",
            ThreadExit => "thread-exit",
            ProcessExit => "exit",
            AssertFail => "assert-fail",
            Abort => "abort",
        }
    }
}

/// Flag: the access is an atomic instruction (for reports only).
pub const FLAG_ATOMIC: u8 = 1;
/// Flag: `value` holds the value read or written.
pub const FLAG_VALUE: u8 = 2;
/// Flag: a `Lock` produced by a successful `pthread_mutex_trylock`, or a `Read`/`Rmw`
/// produced by a cmpxchg.
pub const FLAG_FROM_TRY: u8 = 4;
/// Flag on a sleep-set entry: it conflicts with every access to its bytes, reads included
/// (the dependence of classic DPOR, under which two reads do not commute).
pub const FLAG_NO_COMMUTE: u8 = 8;

/// One visible operation of one thread, as recorded in a trace (48 bytes, `repr(C)`
/// because the runtime writes it into shared memory).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Event {
    /// Start of the memory range written or read, or the mutex's address.
    pub addr: u64,
    /// Source of a `Copy`.
    pub src: u64,
    /// Value read or written (see `FLAG_VALUE`), or the exit code.
    pub value: u64,
    /// The threads that were enabled in the state before this event (set by the runtime
    /// when the event executes; not part of the event's identity).
    pub enabled: u64,
    /// Length in bytes of the memory range(s).
    pub len: u32,
    /// Instrumentation site (0 when unknown).
    pub site: u32,
    pub tid: u16,
    pub kind: u8,
    pub flags: u8,
    /// The other thread of a `Create` or `Join`.
    pub aux: u32,
}

impl Event {
    pub fn new(tid: Tid, kind: Kind) -> Event {
        Event {
            tid: tid as u16,
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

    pub fn tid(&self) -> Tid {
        self.tid as Tid
    }

    /// The event's kind; records with an unknown kind read as `Fence` (independent of
    /// everything), which the engine rejects before it relies on them.
    pub fn kind(&self) -> Kind {
        Kind::from_u8(self.kind).unwrap_or(Kind::Fence)
    }

    /// The part of an event that identifies it across re-executions: everything but the
    /// value observed, the enabled set and the flags.
    pub fn same_op(&self, other: &Event) -> bool {
        self.tid == other.tid
            && self.kind == other.kind
            && self.addr == other.addr
            && self.src == other.src
            && self.len == other.len
            && self.aux == other.aux
    }

    /// Bytes written, as a half-open range.
    pub fn writes(&self) -> Option<(u64, u64)> {
        match self.kind() {
            Kind::Write | Kind::Rmw | Kind::CmpXchg | Kind::Copy => {
                Some((self.addr, self.addr.wrapping_add(self.len as u64)))
            }
            _ => None,
        }
    }

    /// Bytes read, as a half-open range.
    pub fn reads(&self) -> Option<(u64, u64)> {
        match self.kind() {
            Kind::Read | Kind::Rmw | Kind::CmpXchg => {
                Some((self.addr, self.addr.wrapping_add(self.len as u64)))
            }
            Kind::Copy => Some((self.src, self.src.wrapping_add(self.len as u64))),
            _ => None,
        }
    }
}

fn overlap(a: Option<(u64, u64)>, b: Option<(u64, u64)>) -> bool {
    match (a, b) {
        (Some((a0, a1)), Some((b0, b1))) => a0 < b1 && b0 < a1,
        _ => false,
    }
}

/// Do `a` and `b` fail to commute? Events of one thread are always dependent (program
/// order). Memory accesses conflict when their bytes overlap and one writes; operations on
/// one mutex conflict unless both are failed trylocks; a thread's creation and its events,
/// a thread's exit and a join of it, and any two creations (they draw thread numbers from
/// one counter) conflict; the end of the program conflicts with everything.
pub fn dependent(a: &Event, b: &Event) -> bool {
    if a.tid == b.tid {
        return true;
    }
    let (ka, kb) = (a.kind(), b.kind());
    if ka.ends_program() || kb.ends_program() {
        return true;
    }
    let reads_commute = (a.flags | b.flags) & FLAG_NO_COMMUTE == 0;
    if ka.is_memory() && kb.is_memory() {
        return overlap(a.writes(), b.writes())
            || overlap(a.writes(), b.reads())
            || overlap(a.reads(), b.writes())
            || (!reads_commute && overlap(a.reads(), b.reads()));
    }
    if let (Some(ma), Some(mb)) = (ka.mutex_of(a), kb.mutex_of(b)) {
        if ma == mb && !(reads_commute && ka == Kind::TryFail && kb == Kind::TryFail) {
            return true;
        }
    }
    if let (Some(ca), Some(cb)) = (ka.cond_of(a), kb.cond_of(b)) {
        // A wait and a signal do not commute (the signal is lost if it comes first), and
        // a signal enables a wake; two wakes are ordered by their mutex, if at all.
        if ca == cb && !(ka == Kind::CondWake && kb == Kind::CondWake) {
            return true;
        }
    }
    let creates = |x: &Event, kx: Kind, y: &Event, ky: Kind| {
        kx == Kind::Create && (ky == Kind::Create || x.aux == y.tid as u32)
    };
    let exit_join = |x: &Event, kx: Kind, y: &Event, ky: Kind| {
        kx == Kind::ThreadExit && ky == Kind::Join && y.aux == x.tid as u32
    };
    creates(a, ka, b, kb)
        || creates(b, kb, a, ka)
        || exit_join(a, ka, b, kb)
        || exit_join(b, kb, a, ka)
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.kind();
        write!(f, "T{}:{}", self.tid, k.name())?;
        if k.is_memory() {
            write!(f, "({:#x}+{}", self.addr, self.len)?;
            if k == Kind::Copy {
                write!(f, "<-{:#x}", self.src)?;
            }
            write!(f, ")")?;
        } else if k.is_mutex() || k == Kind::CondSignal {
            write!(f, "({:#x})", self.addr)?;
        } else if matches!(k, Kind::CondWait | Kind::CondWake) {
            write!(f, "({:#x},{:#x})", self.addr, self.src)?;
        } else if matches!(k, Kind::Create | Kind::Join) {
            write!(f, "(T{})", self.aux)?;
        }
        Ok(())
    }
}

/// A set of threads.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct ThreadSet(pub u64);

impl ThreadSet {
    pub const EMPTY: ThreadSet = ThreadSet(0);

    pub fn contains(self, t: Tid) -> bool {
        (t as usize) < MAX_THREADS && self.0 & (1u64 << t) != 0
    }
    pub fn insert(&mut self, t: Tid) {
        self.0 |= 1u64 << t;
    }
    pub fn remove(&mut self, t: Tid) {
        self.0 &= !(1u64 << t);
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn first(self) -> Option<Tid> {
        (self.0 != 0).then(|| self.0.trailing_zeros())
    }
    pub fn minus(self, other: ThreadSet) -> ThreadSet {
        ThreadSet(self.0 & !other.0)
    }
    pub fn intersects(self, other: ThreadSet) -> bool {
        self.0 & other.0 != 0
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn iter(self) -> impl Iterator<Item = Tid> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let t = bits.trailing_zeros();
                bits &= bits - 1;
                t
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_record_is_48_bytes() {
        assert_eq!(std::mem::size_of::<Event>(), 48);
    }

    #[test]
    fn reads_commute_and_overlapping_writes_do_not() {
        let r1 = Event::mem(1, Kind::Read, 100, 4);
        let r2 = Event::mem(2, Kind::Read, 100, 4);
        let w = Event::mem(2, Kind::Write, 102, 1);
        let w_far = Event::mem(2, Kind::Write, 104, 4);
        assert!(!dependent(&r1, &r2));
        assert!(
            dependent(&r1, &w),
            "a byte store into an int conflicts with the int's read"
        );
        assert!(!dependent(&r1, &w_far), "adjacent bytes do not overlap");
    }

    #[test]
    fn copies_conflict_through_either_range() {
        let mut c = Event::mem(1, Kind::Copy, 200, 16);
        c.src = 100;
        assert!(dependent(&c, &Event::mem(2, Kind::Write, 108, 8)));
        assert!(!dependent(&c, &Event::mem(2, Kind::Read, 108, 8)));
        assert!(dependent(&c, &Event::mem(2, Kind::Read, 200, 1)));
    }

    #[test]
    fn mutex_and_thread_dependences() {
        let l = Event {
            addr: 8,
            ..Event::new(1, Kind::Lock)
        };
        let f1 = Event {
            addr: 8,
            ..Event::new(2, Kind::TryFail)
        };
        let f2 = Event {
            addr: 8,
            ..Event::new(3, Kind::TryFail)
        };
        assert!(dependent(&l, &f1));
        assert!(!dependent(&f1, &f2));
        assert!(!dependent(
            &l,
            &Event {
                addr: 16,
                ..Event::new(2, Kind::Lock)
            }
        ));
        let create = Event {
            aux: 2,
            ..Event::new(0, Kind::Create)
        };
        assert!(dependent(&create, &Event::mem(2, Kind::Read, 0, 4)));
        assert!(!dependent(&create, &Event::mem(1, Kind::Read, 0, 4)));
        let exit = Event::new(2, Kind::ThreadExit);
        assert!(dependent(
            &exit,
            &Event {
                aux: 2,
                ..Event::new(0, Kind::Join)
            }
        ));
        assert!(!dependent(
            &exit,
            &Event {
                aux: 3,
                ..Event::new(0, Kind::Join)
            }
        ));
        assert!(dependent(
            &Event::new(0, Kind::ProcessExit),
            &Event::new(1, Kind::Fence)
        ));
        assert!(!dependent(
            &Event::new(0, Kind::Fence),
            &Event::mem(1, Kind::Write, 0, 8)
        ));
    }

    #[test]
    fn condition_variable_dependences() {
        let wait = Event {
            addr: 100,
            src: 8,
            ..Event::new(1, Kind::CondWait)
        };
        let signal = Event {
            addr: 100,
            ..Event::new(2, Kind::CondSignal)
        };
        let other_signal = Event {
            addr: 200,
            ..Event::new(2, Kind::CondSignal)
        };
        let wake = Event {
            addr: 100,
            src: 8,
            ..Event::new(3, Kind::CondWake)
        };
        let wake2 = Event {
            addr: 100,
            src: 16,
            ..Event::new(4, Kind::CondWake)
        };
        let lock = Event {
            addr: 8,
            ..Event::new(2, Kind::Lock)
        };
        assert!(
            dependent(&wait, &signal),
            "a signal before the wait is lost"
        );
        assert!(!dependent(&wait, &other_signal));
        assert!(dependent(&signal, &wake), "a signal enables the wake");
        assert!(dependent(&wait, &lock), "the wait releases the mutex");
        assert!(dependent(&wake, &lock), "the wake reacquires the mutex");
        assert!(!dependent(&wake, &wake2));
        assert!(!dependent(&signal, &Event::mem(1, Kind::Write, 100, 8)));
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
        assert_eq!(seen, 21);
    }
}
