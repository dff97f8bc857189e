//! pthread mutexes (default type). A mutex is its 40 bytes (`SIZE`): every operation
//! reads and writes them, except a trylock that found it busy, which only reads them, so
//! two failed trylocks commute. The lock word (glibc's `__lock`, the first 4 bytes) holds
//! 0 when free and the owner's number + 1 when held, so a zeroed mutex
//! (`PTHREAD_MUTEX_INITIALIZER`, a `memset`) is free, as in glibc.
//!
//! POSIX spin locks are the same operations on a 4-byte object (`FLAG_SPIN`): a thread
//! that waits for one is blocked like a thread waiting for a mutex (what it would do
//! meanwhile, spinning, changes nothing).

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, FLAG_FAILED};

/// `sizeof(pthread_mutex_t)` on x86_64 glibc.
pub const SIZE: u64 = 40;
/// `sizeof(pthread_spinlock_t)`.
pub const SPIN_SIZE: u64 = 4;
/// Flag on a mutex operation: the object is a `pthread_spinlock_t`.
pub const FLAG_SPIN: u8 = 64;

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

/// The mutex a lock or successful trylock acquires.
pub(super) fn acquires(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::Lock => Some(e.addr),
        Kind::TryLock if !e.failed() => Some(e.addr),
        Kind::CondWake => Some(e.arg),
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

pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    e.kind() != Kind::Lock || is_free(w, e.addr)
}

pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) -> i32 {
    match e.kind() {
        Kind::Lock => take(w, e.addr, e),
        Kind::TryLock if is_free(w, e.addr) => take(w, e.addr, e),
        Kind::TryLock => {
            e.flags |= FLAG_FAILED;
            return libc_errno::EBUSY;
        }
        Kind::Unlock => {
            let owned = w.sync_word(e.addr) == e.tid + 1;
            w.set_sync_word(e.addr, 0);
            if !owned {
                return libc_errno::EPERM;
            }
        }
        Kind::MutexInit => w.set_sync_word(e.addr, 0),
        _ => {}
    }
    0
}

/// The error numbers the operations return (Linux values), without a libc dependency.
pub mod libc_errno {
    pub const EPERM: i32 = 1;
    pub const EBUSY: i32 = 16;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{acquires, dependent, enabled, execute};

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
