//! POSIX semaphores (`sem_t`, unnamed). A semaphore is its 32 bytes (`SIZE`); its count
//! is the word at its start (`World::sync_word`), where glibc keeps it too, so a copy or
//! a `memset` of the object is one of its state. `sem_wait` is enabled while the count
//! is positive and takes one; `sem_post` adds one; two takings race like two lock
//! acquisitions. A `sem_trywait` that found the count at 0 and `sem_getvalue` only read
//! the object. Each of them records in `value` the count it found.
//!
//! A post and a later wait race unless the post found the count at 0: then the wait
//! could not have run before it (as a lock cannot run before the unlock), but with a
//! unit to spare it could, and the other order is another execution.

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, FLAG_FAILED};

/// `sizeof(sem_t)` on x86_64 glibc.
pub const SIZE: u64 = 32;
/// `SEM_VALUE_MAX` on Linux.
pub const VALUE_MAX: u32 = i32::MAX as u32;

pub(super) fn footprint(e: &Event) -> Footprint {
    let mode = match e.kind() {
        Kind::SemTryWait if e.failed() => Mode::Read,
        Kind::SemGetValue => Mode::Read,
        Kind::SemInit | Kind::SemDestroy => Mode::Write,
        _ => Mode::ReadWrite,
    };
    Footprint::one(Range::new(e.addr, SIZE, mode))
}

/// The semaphore a wait or a successful trywait takes a unit of.
pub(super) fn acquires(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::SemWait => Some(e.addr),
        Kind::SemTryWait if !e.failed() => Some(e.addr),
        _ => None,
    }
}

/// Did the post `c` give the unit without which the wait `e` (the next event on the
/// semaphore) could not have run?
pub(super) fn enables(e: &Event, c: &Event) -> bool {
    e.kind() == Kind::SemWait && c.kind() == Kind::SemPost && c.addr == e.addr && c.value == 0
}

/// The destruction of a semaphore that a thread waits on (undefined in POSIX): a thread
/// blocked in `sem_wait` there.
pub(super) fn misuse<W: World>(w: &W, e: &Event) -> Option<super::Misuse> {
    let waited = || {
        w.ready().iter().any(|t| {
            let p = w.pending(t);
            t != e.tid && p.kind() == Kind::SemWait && p.addr == e.addr && !enabled(w, p)
        })
    };
    (e.kind() == Kind::SemDestroy && waited()).then_some(super::Misuse::DestroyWaitedOn)
}

pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    e.kind() != Kind::SemWait || w.sync_word(e.addr) > 0
}

/// Executes `e`; returns 0, an error number, or for `sem_getvalue` the count.
pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) -> i32 {
    let count = w.sync_word(e.addr);
    // A trywait announced with `value` 1 is `sem_timedwait`.
    let timed = e.kind() == Kind::SemTryWait && e.value != 0;
    if e.kind() != Kind::SemInit {
        e.value = count as u64;
    }
    match e.kind() {
        Kind::SemInit => w.set_sync_word(e.addr, e.value as u32),
        Kind::SemWait => w.set_sync_word(e.addr, count - 1),
        Kind::SemTryWait if count > 0 => w.set_sync_word(e.addr, count - 1),
        Kind::SemTryWait => {
            e.flags |= FLAG_FAILED;
            return if timed {
                libc_errno::ETIMEDOUT
            } else {
                libc_errno::EAGAIN
            };
        }
        Kind::SemPost if count >= VALUE_MAX => return libc_errno::EOVERFLOW,
        Kind::SemPost => w.set_sync_word(e.addr, count + 1),
        Kind::SemGetValue => return count as i32,
        _ => {}
    }
    0
}

pub mod libc_errno {
    pub const EAGAIN: i32 = 11;
    pub const EOVERFLOW: i32 = 75;
    pub const ETIMEDOUT: i32 = 110;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{acquires, dependent, enabled, enables, execute};

    fn ev(t: u32, k: Kind) -> Event {
        Event::on(t, k, 64)
    }

    #[test]
    fn counts_units() {
        let mut w = TestWorld::default();
        let mut init = Event {
            value: 1,
            ..ev(0, Kind::SemInit)
        };
        execute(&mut w, &mut init, 0);
        let mut w1 = ev(1, Kind::SemWait);
        assert!(enabled(&w, &w1));
        assert_eq!(execute(&mut w, &mut w1, 1), 0);
        assert!(!enabled(&w, &ev(2, Kind::SemWait)), "the count is 0");
        let mut t = ev(2, Kind::SemTryWait);
        assert_eq!(execute(&mut w, &mut t, 2), libc_errno::EAGAIN);
        assert!(t.failed() && acquires(&t).is_none());
        let mut p = ev(1, Kind::SemPost);
        execute(&mut w, &mut p, 3);
        let w2 = ev(2, Kind::SemWait);
        assert!(
            enabled(&w, &w2) && enables(&w2, &p, 3),
            "it gave the only unit"
        );
        let mut p2 = ev(3, Kind::SemPost);
        execute(&mut w, &mut p2, 4);
        assert!(
            !enables(&w2, &p2, 4),
            "the wait could have taken the first unit before it"
        );
        assert_eq!(execute(&mut w, &mut ev(3, Kind::SemGetValue), 5), 2);
        assert_eq!(acquires(&w2), Some(64));
    }

    #[test]
    fn dependences() {
        let busy = |t| Event {
            flags: FLAG_FAILED,
            ..ev(t, Kind::SemTryWait)
        };
        assert!(dependent(&ev(1, Kind::SemPost), &busy(2)));
        assert!(!dependent(&busy(2), &busy(3)));
        assert!(!dependent(&busy(2), &ev(3, Kind::SemGetValue)));
        assert!(dependent(&ev(1, Kind::SemWait), &ev(2, Kind::SemWait)));
        assert!(dependent(
            &ev(1, Kind::SemPost),
            &Event::mem(2, Kind::Write, 64 + 8, 4)
        ));
        assert!(!dependent(
            &ev(1, Kind::SemPost),
            &Event::on(2, Kind::SemPost, 96)
        ));
    }
}
