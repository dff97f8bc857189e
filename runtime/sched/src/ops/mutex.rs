//! pthread mutexes (default type). A mutex is its 40 bytes (`SIZE`): every operation
//! reads and writes them, except a trylock that found it busy, which only reads them, so
//! two failed trylocks commute. The lock word (glibc's `__lock`, the first 4 bytes) holds
//! 0 when free and the owner's number + 1 when held, so a zeroed mutex
//! (`PTHREAD_MUTEX_INITIALIZER`, a `memset`) is free, as in glibc.
//!
//! POSIX spin locks are the same operations on a 4-byte object (`FLAG_SPIN`): a thread
//! that waits for one is blocked like a thread waiting for a mutex (what it would do
//! meanwhile, spinning, changes nothing).
//!
//! The mutex's kind is glibc's `__kind` word (`KIND_OFFSET`), which `pthread_mutex_init`
//! and the static initializers set. A recursive mutex counts its owner's locks in
//! glibc's `__count` word (`COUNT_OFFSET`): a relock or an unlock that leaves it held is
//! `FLAG_NESTED`, neither an acquisition nor a release. An error-checking mutex refuses
//! a relock (`EDEADLK`) and both refuse an unlock by another thread (`EPERM`): the call
//! fails (`FLAG_FAILED`) and changes nothing. A timed lock (`value` 1) is a trylock that
//! returns `ETIMEDOUT`: with time not modelled, it may time out whenever the mutex is
//! busy. `pthread_mutex_destroy` sets the kind word to -1 (`DESTROYED`), as glibc does;
//! an operation on a mutex left so, until it is initialized again, is a misuse.

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, FLAG_FAILED, FLAG_SILENT};

/// `sizeof(pthread_mutex_t)` on x86_64 glibc.
pub const SIZE: u64 = 40;
/// `sizeof(pthread_spinlock_t)`.
pub const SPIN_SIZE: u64 = 4;
/// Flag on a mutex operation: the object is a `pthread_spinlock_t`.
pub const FLAG_SPIN: u8 = 64;
/// Outcome flag on a lock or unlock of a recursive mutex: its owner keeps holding it.
pub const FLAG_NESTED: u8 = FLAG_SILENT;
/// Where glibc keeps a mutex's kind and a recursive mutex's lock count.
pub const KIND_OFFSET: u64 = 16;
pub const COUNT_OFFSET: u64 = 4;
/// glibc's kinds (`PTHREAD_MUTEX_RECURSIVE`, `PTHREAD_MUTEX_ERRORCHECK`).
pub const RECURSIVE: u32 = 1;
pub const ERRORCHECK: u32 = 2;
/// The kind word of a destroyed mutex.
pub const DESTROYED: u32 = u32::MAX;

/// The kind of the mutex operated on (0 for a spin lock, or any kind that behaves as
/// the default one).
fn kind<W: World>(w: &W, e: &Event) -> u32 {
    if e.flags & FLAG_SPIN != 0 {
        return 0;
    }
    match w.sync_word(e.addr + KIND_OFFSET) & 0x7f {
        k @ (RECURSIVE | ERRORCHECK) => k,
        _ => 0,
    }
}

fn owner<W: World>(w: &W, m: u64) -> u32 {
    w.sync_word(m)
}

fn settled(e: &Event) -> bool {
    e.flags & (FLAG_FAILED | FLAG_NESTED) == 0
}

pub(super) fn footprint(e: &Event) -> Footprint {
    let mode = match e.kind() {
        Kind::TryLock if e.failed() => Mode::Read,
        Kind::MutexInit | Kind::MutexDestroy => Mode::Write,
        _ => Mode::ReadWrite,
    };
    let size = if e.flags & FLAG_SPIN != 0 {
        SPIN_SIZE
    } else {
        SIZE
    };
    Footprint::one(Range::new(e.addr, size, mode))
}

/// The mutex a lock or successful trylock acquires (not a relock of a recursive one).
pub(super) fn acquires(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::Lock | Kind::TryLock if settled(e) => Some(e.addr),
        Kind::CondWake => Some(e.arg),
        _ => None,
    }
}

/// The mutex an unlock frees.
pub(super) fn releases(e: &Event) -> Option<u64> {
    (e.kind() == Kind::Unlock && settled(e)).then_some(e.addr)
}

/// What a lock or unlock does to whether its thread holds the mutex: +1 for one that
/// takes it, -1 for one that frees it (`None` for the rest, a relock or unlock of a
/// recursive one that its owner keeps included). An iteration whose changes are these
/// alone, adding up to nothing on each mutex, left every mutex as it found it: a poll
/// under a lock (`lock; if (done) ...; unlock;`) that went round waits like a spin.
pub fn hold_change(e: &Event) -> Option<(u64, i32)> {
    match e.kind() {
        Kind::Lock | Kind::TryLock if settled(e) => Some((e.addr, 1)),
        Kind::Unlock if settled(e) => Some((e.addr, -1)),
        _ => None,
    }
}

pub fn is_free<W: World>(w: &W, m: u64) -> bool {
    w.sync_word(m) == 0
}

/// Takes the mutex for the event's thread.
pub fn take<W: World>(w: &mut W, m: u64, e: &Event) {
    w.set_sync_word(m, e.tid + 1);
}

/// An unlock by a thread that does not hold the mutex, a relock of an error-checking one
/// (which would return `EDEADLK`), the destruction of a held one.
pub(super) fn misuse<W: World>(w: &W, e: &Event) -> Option<super::Misuse> {
    use super::Misuse::*;
    let held_by_me = owner(w, e.addr) == e.tid + 1;
    let destroyed = e.flags & FLAG_SPIN == 0 && w.sync_word(e.addr + KIND_OFFSET) == DESTROYED;
    match e.kind() {
        Kind::Lock | Kind::TryLock | Kind::Unlock | Kind::MutexDestroy if destroyed => {
            Some(UseDestroyed)
        }
        Kind::Unlock if !held_by_me => Some(UnlockNotHeld),
        Kind::Lock if held_by_me && kind(w, e) == ERRORCHECK => Some(Relock),
        Kind::MutexDestroy if !is_free(w, e.addr) => Some(DestroyHeld),
        _ => None,
    }
}

/// A lock waits while another thread holds the mutex, or while its own thread holds a
/// default one (a self-deadlock).
pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    e.kind() != Kind::Lock || is_free(w, e.addr) || owner(w, e.addr) == e.tid + 1 && kind(w, e) != 0
}

pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) -> i32 {
    use libc_errno::*;
    let (m, me, k) = (e.addr, e.tid + 1, kind(w, e));
    let count = m + COUNT_OFFSET;
    let fail = |e: &mut Event, err| {
        e.flags |= FLAG_FAILED;
        err
    };
    match e.kind() {
        Kind::Lock | Kind::TryLock if is_free(w, m) => {
            take(w, m, e);
            if k == RECURSIVE {
                w.set_sync_word(count, 1);
            }
        }
        Kind::Lock | Kind::TryLock if owner(w, m) == me && k == RECURSIVE => {
            w.set_sync_word(count, w.sync_word(count) + 1);
            e.flags |= FLAG_NESTED;
        }
        Kind::Lock if owner(w, m) == me && k == ERRORCHECK => return fail(e, EDEADLK),
        Kind::TryLock if e.value != 0 => return fail(e, ETIMEDOUT),
        Kind::TryLock => return fail(e, EBUSY),
        Kind::Unlock if owner(w, m) != me && k != 0 => return fail(e, EPERM),
        Kind::Unlock if k == RECURSIVE && w.sync_word(count) > 1 => {
            w.set_sync_word(count, w.sync_word(count) - 1);
            e.flags |= FLAG_NESTED;
        }
        Kind::Unlock => {
            let owned = owner(w, m) == me;
            w.set_sync_word(m, 0);
            if k == RECURSIVE {
                w.set_sync_word(count, 0);
            }
            if !owned {
                return EPERM;
            }
        }
        Kind::MutexInit => {
            w.set_sync_word(m, 0);
            if e.flags & FLAG_SPIN == 0 {
                w.set_sync_word(count, 0);
                w.set_sync_word(m + KIND_OFFSET, 0);
            }
        }
        Kind::MutexDestroy if e.flags & FLAG_SPIN == 0 => {
            w.set_sync_word(m + KIND_OFFSET, DESTROYED)
        }
        _ => {}
    }
    0
}

/// The error numbers the operations return (Linux values), without a libc dependency.
pub mod libc_errno {
    pub const EPERM: i32 = 1;
    pub const EBUSY: i32 = 16;
    pub const EDEADLK: i32 = 35;
    pub const ETIMEDOUT: i32 = 110;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{acquires, dependent, enabled, execute, holds};

    #[test]
    fn locks_held_count_once_however_nested() {
        let lock = Event::on(1, Kind::Lock, 8);
        let nested = Event {
            flags: FLAG_NESTED,
            ..lock
        };
        let busy = Event {
            flags: FLAG_FAILED,
            ..Event::on(1, Kind::TryLock, 8)
        };
        let unlock = Event::on(1, Kind::Unlock, 8);
        assert_eq!(holds(&lock), 1);
        assert_eq!((holds(&nested), holds(&busy)), (0, 0));
        assert_eq!(holds(&unlock), -1);
        assert_eq!(
            holds(&Event::on(1, Kind::SemWait, 8)),
            0,
            "a semaphore has no owner"
        );
    }

    #[test]
    fn lock_trylock_unlock() {
        let mut w = TestWorld::default();
        let mut l1 = Event::on(1, Kind::Lock, 8);
        assert!(enabled(&w, &l1));
        assert_eq!(execute(&mut w, &mut l1, 0), 0);
        assert!(!enabled(&w, &Event::on(2, Kind::Lock, 8)));
        let mut t = Event::on(2, Kind::TryLock, 8);
        assert_eq!(execute(&mut w, &mut t, 1), libc_errno::EBUSY);
        assert!(t.failed() && acquires(&t).is_none());
        let mut u = Event::on(1, Kind::Unlock, 8);
        assert_eq!(execute(&mut w, &mut u, 2), 0);
        let mut t2 = Event::on(2, Kind::TryLock, 8);
        assert_eq!(execute(&mut w, &mut t2, 3), 0);
        assert_eq!(acquires(&t2), Some(8));
    }

    #[test]
    fn recursive_and_errorcheck_kinds() {
        let mut w = TestWorld::default();
        w.words.insert(8 + KIND_OFFSET, RECURSIVE);
        let mut l1 = Event::on(1, Kind::Lock, 8);
        execute(&mut w, &mut l1, 0);
        let mut l2 = Event::on(1, Kind::Lock, 8);
        assert!(enabled(&w, &l2), "the owner relocks");
        execute(&mut w, &mut l2, 1);
        assert!(l2.flags & FLAG_NESTED != 0 && acquires(&l2).is_none());
        assert!(!enabled(&w, &Event::on(2, Kind::Lock, 8)));
        let mut foreign = Event::on(2, Kind::Unlock, 8);
        assert_eq!(execute(&mut w, &mut foreign, 2), libc_errno::EPERM);
        assert!(foreign.failed() && crate::ops::releases(&foreign).is_none());
        let mut u1 = Event::on(1, Kind::Unlock, 8);
        execute(&mut w, &mut u1, 3);
        assert!(u1.flags & FLAG_NESTED != 0 && crate::ops::releases(&u1).is_none());
        assert!(!enabled(&w, &Event::on(2, Kind::Lock, 8)));
        let mut u2 = Event::on(1, Kind::Unlock, 8);
        execute(&mut w, &mut u2, 4);
        assert_eq!(crate::ops::releases(&u2), Some(8));
        assert!(enabled(&w, &Event::on(2, Kind::Lock, 8)));

        let mut w = TestWorld::default();
        w.words.insert(8 + KIND_OFFSET, ERRORCHECK);
        execute(&mut w, &mut Event::on(1, Kind::Lock, 8), 0);
        let mut again = Event::on(1, Kind::Lock, 8);
        assert!(
            enabled(&w, &again),
            "an error-checking relock returns at once"
        );
        assert_eq!(execute(&mut w, &mut again, 1), libc_errno::EDEADLK);
        assert!(again.failed() && acquires(&again).is_none());
        let mut timed = Event {
            value: 1,
            ..Event::on(2, Kind::TryLock, 8)
        };
        assert_eq!(execute(&mut w, &mut timed, 2), libc_errno::ETIMEDOUT);
        // A default mutex relocked by its owner waits for good.
        let mut w = TestWorld::default();
        execute(&mut w, &mut Event::on(1, Kind::Lock, 8), 0);
        assert!(!enabled(&w, &Event::on(1, Kind::Lock, 8)));
    }

    #[test]
    fn dependences() {
        let l = Event::on(1, Kind::Lock, 8);
        let busy = |t| Event {
            flags: FLAG_FAILED,
            ..Event::on(t, Kind::TryLock, 8)
        };
        assert!(dependent(&l, &busy(2)));
        assert!(!dependent(&busy(2), &busy(3)), "failed trylocks commute");
        assert!(!dependent(&l, &Event::on(2, Kind::Lock, 48)));
        assert!(
            dependent(&l, &Event::mem(2, Kind::Write, 0, 16)),
            "a memset over the mutex conflicts with its lock"
        );
        assert!(!dependent(&l, &Event::mem(2, Kind::Write, 48, 8)));
        let spin = Event {
            flags: FLAG_SPIN,
            ..Event::on(1, Kind::Lock, 8)
        };
        assert!(dependent(&spin, &Event::mem(2, Kind::Write, 8, 4)));
        assert!(
            !dependent(&spin, &Event::mem(2, Kind::Write, 12, 4)),
            "a spin lock is its 4 bytes"
        );
    }
}
