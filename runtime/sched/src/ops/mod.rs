//! What each operation means, defined once for the runtime, the engine's simulator and
//! the engine's happens-before analysis:
//!
//! * its **footprint**: the bytes it reads and writes, where synchronization objects
//!   count as the bytes they occupy (a mutex is its 40 bytes, so a `memset` over it
//!   conflicts with its lock operations) and threads as a word each in a reserved range.
//!   Dependence (`dependent`) and happens-before (the engine's last-access tables) both
//!   follow from it;
//! * the lock it **acquires**, if any, exclusively or shared (a read lock): an
//!   acquisition races with the previous exclusive one (and an exclusive one with the
//!   shared ones since) rather than with the release in between, which it could not have
//!   preceded;
//! * when it is **enabled** and what it does to the synchronization state (`World`).
//!
//! One module per primitive holds these for its operations; this one dispatches on the
//! kind. Adding a primitive means adding its module and its arms here.

pub mod awaits;
pub mod barrier;
pub mod cond;
pub mod memory;
pub mod mutex;
pub mod nondet;
pub mod once;
pub mod rwlock;
pub mod semaphore;
pub mod thread;

use crate::event::{Event, Kind, ThreadSet, Tid, FLAG_NO_COMMUTE, FLAG_SCAN, OUTCOME_FLAGS};

/// How an operation uses a range of bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Read,
    Write,
    /// Reads and writes (the write subsumes the read for dependence).
    ReadWrite,
}

impl Mode {
    pub fn writes(self) -> bool {
        self != Mode::Read
    }
    pub fn reads(self) -> bool {
        self != Mode::Write
    }
}

/// A half-open range of bytes `[lo, hi)` and how it is used.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Range {
    pub lo: u64,
    pub hi: u64,
    pub mode: Mode,
}

impl Range {
    pub fn new(lo: u64, len: u64, mode: Mode) -> Option<Range> {
        (len > 0).then(|| Range {
            lo,
            hi: lo.saturating_add(len),
            mode,
        })
    }

    fn overlaps(&self, o: &Range) -> bool {
        self.lo < o.hi && o.lo < self.hi
    }
}

/// The bytes an operation touches: at most two ranges.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Footprint(pub [Option<Range>; 2]);

impl Footprint {
    pub const NONE: Footprint = Footprint([None, None]);

    pub fn one(r: Option<Range>) -> Footprint {
        Footprint([r, None])
    }

    pub fn two(a: Option<Range>, b: Option<Range>) -> Footprint {
        Footprint([a, b])
    }

    pub fn ranges(&self) -> impl Iterator<Item = &Range> {
        self.0.iter().flatten()
    }

    /// Do the two footprints conflict: overlapping bytes, at least one writing (or, when
    /// `reads_commute` is false, any overlap)?
    pub fn conflicts(&self, other: &Footprint, reads_commute: bool) -> bool {
        self.ranges().any(|a| {
            other
                .ranges()
                .any(|b| a.overlaps(b) && (a.mode.writes() || b.mode.writes() || !reads_commute))
        })
    }
}

/// The footprint of an event, as it executed (or, for an attempt, conservatively).
pub fn footprint(e: &Event) -> Footprint {
    use Kind::*;
    match e.kind() {
        Read | Write | Rmw | CmpXchg | Copy | Fence | Lib | Free | Atomic => memory::footprint(e),
        // A value chosen by the checker touches nothing.
        Nondet => Footprint::NONE,
        Lock | TryLock | Unlock | MutexInit | MutexDestroy => mutex::footprint(e),
        CondWait | CondSignal | CondWake | CondBroadcast | CondInit | CondDestroy => {
            cond::footprint(e)
        }
        Create | Join | Detach | ThreadExit => thread::footprint(e),
        Await => awaits::footprint(e),
        SemInit | SemWait | SemTryWait | SemPost | SemGetValue | SemDestroy => {
            semaphore::footprint(e)
        }
        OnceBegin | OnceEnd => once::footprint(e),
        RwInit | RdLock | TryRdLock | WrLock | TryWrLock | RwUnlock | RwDestroy => {
            rwlock::footprint(e)
        }
        BarrierInit | BarrierWait | BarrierPass | BarrierDestroy => barrier::footprint(e),
        // They conflict with everything instead (`dependent`).
        // The end of an atomic section that ended the program: what the section accessed.
        AssertFail | Abort | AssumeFail if e.flags & FLAG_SCAN != 0 => memory::section_footprint(e),
        // An operation that failed as it executed: what it would have touched.
        Crash if e.replaced != 0 => footprint(&Event {
            kind: e.replaced,
            replaced: 0,
            ..*e
        }),
        ProcessExit | AssertFail | Abort | Crash | AssumeFail => Footprint::NONE,
    }
}

/// Is `e`'s footprint memory of the program, which it may have freed (or which may be a
/// finished thread's stack) by the time `e` runs? For accesses and for operations on
/// synchronization objects, which are bytes of the program too; not for thread
/// operations, whose footprints name the checker's own objects, nor for an await or an
/// atomic section, whose accesses were checked as they ran.
pub fn in_program_memory(e: &Event) -> bool {
    use Kind::*;
    !matches!(
        e.kind(),
        Nondet | Fence | Atomic | Create | Join | Detach | ThreadExit | Await
    ) && !e.kind().ends_program()
}

/// The mutex an event acquires, if it does.
pub fn acquires(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::Lock | Kind::TryLock | Kind::CondWake => mutex::acquires(e),
        Kind::SemWait | Kind::SemTryWait => semaphore::acquires(e),
        Kind::OnceBegin => once::acquires(e),
        Kind::WrLock | Kind::TryWrLock => rwlock::acquires(e),
        _ => None,
    }
}

/// The lock an event acquires shared, if it does: it races with the previous exclusive
/// acquisition only, and every exclusive acquisition after it races with it.
pub fn shares(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::RdLock | Kind::TryRdLock => rwlock::shares(e),
        _ => None,
    }
}

/// The object whose previous acquisition `e` races with, if any: what it acquires, or
/// for a `pthread_once` that found the initializer run, the call that ran it.
pub fn contends(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::OnceBegin => once::contends(e),
        _ => acquires(e),
    }
}

/// The lock whose shared hold an event releases, if it does.
pub fn unshares(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::RwUnlock => rwlock::unshares(e),
        _ => None,
    }
}

/// The mutex an event releases, if it does.
pub fn releases(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::Unlock => mutex::releases(e),
        Kind::RwUnlock => rwlock::releases(e),
        Kind::CondWait => Some(e.arg),
        _ => None,
    }
}

/// How an event changes the number of locks its thread holds (mutexes, spin locks,
/// rwlocks either way; a recursive mutex once however deep). Locks are held by thread
/// number, so a thread that exits holding one keeps its number from later threads.
pub fn holds(e: &Event) -> i32 {
    let owned = match e.kind() {
        Kind::Lock | Kind::TryLock | Kind::CondWake | Kind::WrLock | Kind::TryWrLock => acquires(e),
        _ => shares(e),
    };
    i32::from(owned.is_some()) - i32::from(releases(e).is_some())
}

/// The step of the event without which `e` could not be what it is, beyond its own
/// thread's past: the signal or broadcast that woke a `CondWake`. It orders `e` like
/// program order does.
pub fn woken_by(e: &Event) -> Option<usize> {
    match e.kind() {
        Kind::CondWake => (e.value as usize).checked_sub(1),
        _ => None,
    }
}

/// Does `c`, the event at step `c_step`, establish what the blocking operation `e` waits
/// for (the exit a join waits for, a release of the mutex a lock waits for, the signal
/// that woke a waiter)? Then `e` cannot move before `c`: they conflict, but do not race.
pub fn enables(e: &Event, c: &Event, c_step: usize) -> bool {
    // A misuse or memory error that replaced an operation waited as the operation did.
    if e.kind() == Kind::Crash && e.replaced != 0 {
        let attempted = Event {
            kind: e.replaced,
            replaced: 0,
            ..*e
        };
        return enables(&attempted, c, c_step);
    }
    match e.kind() {
        Kind::Join => thread::enables(e, c),
        Kind::Lock => releases(c) == Some(e.addr),
        Kind::RdLock | Kind::WrLock => rwlock::enables(e, c),
        Kind::CondWake => releases(c) == Some(e.arg) || cond::enables(e, c_step),
        Kind::SemWait => semaphore::enables(e, c),
        Kind::OnceBegin => once::enables(e, c),
        Kind::BarrierPass => barrier::enables(e, c),
        _ => false,
    }
}

/// Do `a` and `b` fail to commute? Events of one thread never commute (program order);
/// the end of the program conflicts with everything; a thread's creation with its
/// events; otherwise their footprints decide.
pub fn dependent(a: &Event, b: &Event) -> bool {
    Dependence::of(a).with(&Dependence::of(b))
}

/// What `dependent` looks at of an event, worked out once for an event compared with
/// many (a wakeup sequence against every sleeping thread).
#[derive(Clone, Copy, Debug)]
pub struct Dependence {
    tid: Tid,
    ends: bool,
    /// The thread it creates.
    creates: Option<Tid>,
    no_commute: bool,
    footprint: Footprint,
}

impl Dependence {
    pub fn of(e: &Event) -> Dependence {
        // Most events compared are plain loads and stores: their footprint directly.
        let plain = |mode| Dependence {
            tid: e.tid,
            ends: false,
            creates: None,
            no_commute: e.flags & FLAG_NO_COMMUTE != 0,
            footprint: Footprint::one(Range::new(e.addr, e.len as u64, mode)),
        };
        match e.kind {
            k if k == Kind::Read as u8 => return plain(Mode::Read),
            k if k == Kind::Write as u8 => return plain(Mode::Write),
            _ => {}
        }
        let ends = e.ends_program();
        Dependence {
            tid: e.tid,
            ends,
            creates: thread::created(e),
            no_commute: e.flags & FLAG_NO_COMMUTE != 0,
            // An end conflicts with everything: its footprint is never looked at.
            footprint: if ends { Footprint::NONE } else { footprint(e) },
        }
    }

    /// `dependent` of the two events.
    pub fn with(&self, other: &Dependence) -> bool {
        if self.tid == other.tid || self.ends || other.ends {
            return true;
        }
        if self.creates == Some(other.tid) || other.creates == Some(self.tid) {
            return true;
        }
        let reads_commute = !(self.no_commute || other.no_commute);
        (self.footprint).conflicts(&other.footprint, reads_commute)
    }
}

/// The operation an event attempts, before knowing its outcome: a cmpxchg that failed or
/// succeeded, a trylock that found the mutex busy or took it, a signal that found a
/// waiter or none. Reversing a race can change the outcome of the reversed event, so
/// wakeup sequences carry it in this form, which is also the conservative one for
/// dependence.
pub fn attempt(e: &Event) -> Event {
    let mut a = Event {
        flags: e.flags & !OUTCOME_FLAGS,
        choice: 0,
        ..*e
    };
    rwlock::attempt(&mut a);
    a
}

/// Are two events the same operation of the same thread, whatever its outcome? This is
/// what re-executing a schedule must reproduce.
pub fn same_op(a: &Event, b: &Event) -> bool {
    if a.tid != b.tid {
        return false;
    }
    // A crash replaces the access that faulted; an atomic section can end the program
    // (a false assumption, an error, a crash) instead of completing, and where it ends
    // depends on the nondeterministic value it took (an end of the program with
    // alternatives is a section's).
    if a.kind() == Kind::Crash || b.kind() == Kind::Crash {
        return true;
    }
    let section_end = |x: &Event, y: &Event| x.kind() == Kind::Atomic && y.ends_program();
    let chosen_end = |x: &Event| x.ends_program() && x.choices > 1;
    if section_end(a, b) || section_end(b, a) || (chosen_end(a) && chosen_end(b)) {
        return true;
    }
    if a.kind != b.kind {
        return false;
    }
    // Ranges computed from memory contents are an outcome, like a value read (where
    // strtok(NULL) starts depends on earlier calls): the call is its place.
    if (a.flags | b.flags) & FLAG_SCAN != 0 {
        return a.site == b.site;
    }
    if a.addr != b.addr || a.arg != b.arg || a.len != b.len || a.arg_len != b.arg_len {
        return false;
    }
    match a.kind() {
        // A create not yet executed (the pending event of a cut execution) has no child.
        Kind::Create => a.aux == b.aux || a.aux == u32::MAX || b.aux == u32::MAX,
        Kind::Join => a.aux == b.aux,
        _ => true,
    }
}

/// What an operation needs to see and change of the state it runs in. The runtime
/// implements it over the real program (mutex words in user memory, fibers), the
/// engine's simulator over an abstract one.
pub trait World {
    /// The word at the start of the synchronization object at `m`: a mutex's lock word
    /// (0 when free, the owner's number + 1 when held), a semaphore's count.
    fn sync_word(&self, m: u64) -> u32;
    fn set_sync_word(&mut self, m: u64, v: u32);
    /// A word of thread `t`'s own about the object at `m` (0 until set): how many read
    /// locks it holds on a rwlock, which the rwlock itself only counts; whether the thread
    /// `t` was joined (`thread`).
    fn thread_word(&self, t: Tid, m: u64) -> u32;
    fn set_thread_word(&mut self, t: Tid, m: u64, v: u32);
    /// Threads that announced their next operation and wait to perform it.
    fn ready(&self) -> ThreadSet;
    fn pending(&self, t: Tid) -> &Event;
    fn pending_mut(&mut self, t: Tid) -> &mut Event;
    fn finished(&self, t: Tid) -> bool;
    /// Which of `n` alternatives the current step takes (the schedule's, or the first).
    fn choose(&mut self, n: u32) -> u32;
    /// More threads use a barrier than it waits for: its arrivals must be explored in
    /// every order (`barrier`), which this exploration does not do.
    fn barrier_overflow(&mut self);
}

/// Thread `e.tid` announces `e` as its next operation: what the operation needs to know
/// or record before it is scheduled (a barrier arrival's round).
pub fn announce<W: World>(w: &mut W, e: &mut Event) {
    if e.kind() == Kind::BarrierWait {
        barrier::announce(w, e);
    }
}

/// Can `e`, the next operation of its thread, execute in this state?
pub fn enabled<W: World>(w: &W, e: &Event) -> bool {
    match e.kind() {
        Kind::Lock | Kind::TryLock | Kind::Unlock | Kind::MutexInit | Kind::MutexDestroy => {
            mutex::enabled(w, e)
        }
        Kind::CondWake => cond::enabled(w, e),
        // A spin stops its thread for good (`awaits`), and an assumption is left
        // pending only where no thread can run.
        Kind::Await => false,
        Kind::Join => thread::enabled(w, e),
        Kind::SemWait => semaphore::enabled(w, e),
        Kind::OnceBegin => once::enabled(w, e),
        Kind::RdLock | Kind::WrLock => rwlock::enabled(w, e),
        Kind::BarrierPass => barrier::enabled(w, e),
        _ => true,
    }
}

/// The threads whose next operation can execute now: the `ready` ones whose operation
/// is `enabled` and that `can_run` allows (a bound may hold one back).
///
/// The end of the process (`exit`, a return from `main`) waits while another thread can
/// run. It cuts every other thread where it stands, but where the cut falls is no
/// behaviour of its own: the cut only takes a thread's future away, and each execution
/// in which the end comes earlier is a prefix of one in which it comes once no other
/// thread can run, which has every event of it, its errors included. What runs at the
/// end (`atexit` handlers) runs before the end, as the exiting thread's own operations,
/// which race with the other threads' as any do. So each trace has the end last, and the
/// executions that differ only in where the cut fell are not explored (a program whose
/// `main` returns at once, with two threads of 12 writes each, had 56,975; now one per
/// trace of the threads themselves). An end that never finds the others blocked or done
/// waits like any thread held back, and `--unroll` or `--max-steps` bound the others.
pub fn enabled_threads<W: World>(w: &W, can_run: impl Fn(&Event) -> bool) -> ThreadSet {
    let (mut others, mut ends) = (ThreadSet::EMPTY, ThreadSet::EMPTY);
    for t in w.ready().iter() {
        let e = w.pending(t);
        if !enabled(w, e) || !can_run(e) {
            continue;
        }
        if e.kind() == Kind::ProcessExit {
            ends.insert(t);
        } else {
            others.insert(t);
        }
    }
    if others.is_empty() {
        ends
    } else {
        others
    }
}

/// A use of a synchronization object that POSIX leaves undefined (or, for an
/// error-checking mutex, defines only to catch the mistake): an error of the program.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Misuse {
    /// An unlock of a mutex, spin lock or rwlock that the thread does not hold.
    UnlockNotHeld = 1,
    /// A relock of an error-checking mutex by its owner.
    Relock = 2,
    /// The destruction of a held mutex or rwlock.
    DestroyHeld = 3,
    /// The destruction of a condition that threads wait on.
    DestroyWaitedOn = 4,
    /// A condition wait with a mutex the thread does not hold.
    WaitWithoutMutex = 5,
    /// A condition wait with another mutex than the waits in progress on it.
    TwoMutexes = 6,
    /// An operation on a destroyed mutex, semaphore or barrier, not initialized again.
    UseDestroyed = 7,
    /// An operation on a semaphore or barrier that was never initialized (neither has a
    /// static initializer).
    Uninitialized = 8,
    /// A join of a thread id that names no thread.
    NoSuchThread = 9,
    /// A join or detach of a detached thread.
    Detached = 10,
}

impl Misuse {
    pub fn from_u32(v: u32) -> Option<Misuse> {
        use Misuse::*;
        [
            UnlockNotHeld,
            Relock,
            DestroyHeld,
            DestroyWaitedOn,
            WaitWithoutMutex,
            TwoMutexes,
            UseDestroyed,
            Uninitialized,
            NoSuchThread,
            Detached,
        ]
        .into_iter()
        .find(|m| *m as u32 == v)
    }
}

/// Is `e`, about to execute in this state, a misuse of its object?
pub fn misuse<W: World>(w: &W, e: &Event) -> Option<Misuse> {
    match e.kind() {
        Kind::Lock | Kind::TryLock | Kind::Unlock | Kind::MutexDestroy => mutex::misuse(w, e),
        Kind::CondWait | Kind::CondDestroy => cond::misuse(w, e),
        Kind::RwUnlock | Kind::RwDestroy => rwlock::misuse(w, e),
        Kind::SemWait | Kind::SemTryWait | Kind::SemPost | Kind::SemGetValue | Kind::SemDestroy => {
            semaphore::misuse(w, e)
        }
        Kind::BarrierWait | Kind::BarrierDestroy => barrier::misuse(w, e),
        Kind::Join | Kind::Detach => thread::misuse(w, e),
        _ => None,
    }
}

/// Executes `e` (enabled, at step `step`) on the synchronization state and records its
/// outcome in it. Returns the operation's result for the program (0, an error number, or
/// a value: a semaphore's count). Memory, thread creation and the end of the program are
/// the caller's.
pub fn execute<W: World>(w: &mut W, e: &mut Event, step: u32) -> i32 {
    use Kind::*;
    match e.kind() {
        Lock | TryLock | Unlock | MutexInit | MutexDestroy => mutex::execute(w, e),
        CondWait | CondSignal | CondWake | CondBroadcast | CondInit | CondDestroy => {
            cond::execute(w, e, step)
        }
        Nondet => {
            nondet::execute(w, e);
            0
        }
        SemInit | SemWait | SemTryWait | SemPost | SemGetValue | SemDestroy => {
            semaphore::execute(w, e)
        }
        OnceBegin | OnceEnd => once::execute(w, e),
        RwInit | RdLock | TryRdLock | WrLock | TryWrLock | RwUnlock | RwDestroy => {
            rwlock::execute(w, e)
        }
        BarrierInit | BarrierWait | BarrierPass | BarrierDestroy => barrier::execute(w, e, step),
        Join | Detach | ThreadExit => {
            thread::execute(w, e);
            0
        }
        _ => 0,
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! A small `World` for the unit tests of the primitives.
    use super::*;
    use std::collections::HashMap;

    #[derive(Default)]
    pub struct TestWorld {
        pub words: HashMap<u64, u32>,
        pub thread_words: HashMap<(Tid, u64), u32>,
        pub pending: HashMap<Tid, Event>,
        pub finished: ThreadSet,
        pub next_choice: u32,
        pub overflow: bool,
    }

    impl World for TestWorld {
        fn sync_word(&self, m: u64) -> u32 {
            self.words.get(&m).copied().unwrap_or(0)
        }
        fn set_sync_word(&mut self, m: u64, v: u32) {
            self.words.insert(m, v);
        }
        fn thread_word(&self, t: Tid, m: u64) -> u32 {
            self.thread_words.get(&(t, m)).copied().unwrap_or(0)
        }
        fn set_thread_word(&mut self, t: Tid, m: u64, v: u32) {
            self.thread_words.insert((t, m), v);
        }
        fn ready(&self) -> ThreadSet {
            self.pending.keys().copied().collect()
        }
        fn pending(&self, t: Tid) -> &Event {
            &self.pending[&t]
        }
        fn pending_mut(&mut self, t: Tid) -> &mut Event {
            self.pending.get_mut(&t).unwrap()
        }
        fn finished(&self, t: Tid) -> bool {
            self.finished.contains(t)
        }
        fn choose(&mut self, n: u32) -> u32 {
            self.next_choice.min(n.saturating_sub(1))
        }
        fn barrier_overflow(&mut self) {
            self.overflow = true;
        }
    }
}
