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
//!
//! A semaphore has no static initializer, so the word at `STATE_OFFSET` (glibc's
//! `private`, which the runtime's own operations do not need) tells whether it is live:
//! `sem_init` sets it to `LIVE`, `sem_destroy` to `DESTROYED`, and a semaphore that
//! holds anything else (a zeroed global, fresh heap memory) was never initialized. Any
//! use of a destroyed or uninitialized semaphore is a misuse. A wait on a destroyed one
//! is enabled so that it can be: a thread blocked in `sem_wait` when the semaphore is
//! destroyed (undefined in POSIX) shows as its wait on a destroyed semaphore. Whether a
//! thread has entered `sem_wait` or not yet is no event, so the destruction itself
//! cannot ask who waits. A wait on a never initialized semaphore waits as on a count of
//! 0: a post would be the misuse (as the init would make it a use of a live one).

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, FLAG_FAILED};

/// `sizeof(sem_t)` on x86_64 glibc.
pub const SIZE: u64 = 32;
/// `SEM_VALUE_MAX` on Linux.
pub const VALUE_MAX: u32 = i32::MAX as u32;
/// The word that `sem_init` sets to `LIVE` and `sem_destroy` to `DESTROYED`.
pub const STATE_OFFSET: u64 = 8;
pub const LIVE: u32 = 0x5e4d_0001;
pub const DESTROYED: u32 = u32::MAX;

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

/// Did `c` (the previous event on the semaphore) make the wait `e` runnable, which it
/// could not have run before: a post that gave the only unit, an init that gave the
/// first units to a semaphore not destroyed (its `aux`: the count it found, `DESTROYED`
/// if it was), a destruction of a semaphore without units?
pub(super) fn enables(e: &Event, c: &Event) -> bool {
    if e.kind() != Kind::SemWait || c.addr != e.addr {
        return false;
    }
    match c.kind() {
        Kind::SemPost | Kind::SemDestroy => c.value == 0,
        Kind::SemInit => c.aux == 0 && c.value > 0,
        _ => false,
    }
}

fn destroyed<W: World>(w: &W, sem: u64) -> bool {
    w.sync_word(sem + STATE_OFFSET) == DESTROYED
}

/// A use of a destroyed or never initialized semaphore (undefined in POSIX), a second
/// destruction included (an init is no use).
pub(super) fn misuse<W: World>(w: &W, e: &Event) -> Option<super::Misuse> {
    use super::Misuse::*;
    match w.sync_word(e.addr + STATE_OFFSET) {
        _ if e.kind() == Kind::SemInit => None,
        LIVE => None,
        DESTROYED => Some(UseDestroyed),
        _ => Some(Uninitialized),
    }
}

pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    e.kind() != Kind::SemWait || w.sync_word(e.addr) > 0 || destroyed(w, e.addr)
}

/// Executes `e`; returns 0, an error number, or for `sem_getvalue` the count.
pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) -> i32 {
    let count = w.sync_word(e.addr);
    // A trywait announced with `value` 1 is `sem_timedwait`.
    let timed = e.kind() == Kind::SemTryWait && e.value != 0;
    if e.kind() == Kind::SemInit {
        e.aux = if destroyed(w, e.addr) {
            DESTROYED
        } else {
            count
        };
    } else {
        e.value = count as u64;
    }
    match e.kind() {
        Kind::SemInit => {
            w.set_sync_word(e.addr, e.value as u32);
            w.set_sync_word(e.addr + STATE_OFFSET, LIVE);
        }
        Kind::SemDestroy => w.set_sync_word(e.addr + STATE_OFFSET, DESTROYED),
        // A wait enabled on a destroyed semaphore without units (its use is a misuse,
        // unreported under `--svcomp`) takes nothing.
        Kind::SemWait => w.set_sync_word(e.addr, count.saturating_sub(1)),
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
    fn a_destroyed_semaphore_can_only_be_misused_until_initialized_again() {
        use crate::ops::{misuse, Misuse};
        let mut w = TestWorld::default();
        execute(&mut w, &mut ev(0, Kind::SemInit), 0);
        let wait = ev(1, Kind::SemWait);
        assert!(!enabled(&w, &wait), "no unit");
        let mut destroy = ev(0, Kind::SemDestroy);
        execute(&mut w, &mut destroy, 1);
        assert!(enabled(&w, &wait) && enables(&wait, &destroy, 1));
        assert_eq!(misuse(&w, &wait), Some(Misuse::UseDestroyed));
        assert_eq!(
            misuse(&w, &ev(2, Kind::SemPost)),
            Some(Misuse::UseDestroyed)
        );
        let mut init = Event {
            value: 1,
            ..ev(0, Kind::SemInit)
        };
        execute(&mut w, &mut init, 2);
        assert_eq!(misuse(&w, &wait), None);
        assert!(
            !enables(&wait, &init, 2),
            "the wait could run on the destroyed semaphore before the init"
        );
    }

    #[test]
    fn a_semaphore_never_initialized_is_misused_by_any_operation_but_init() {
        use crate::ops::{misuse, Misuse};
        let mut w = TestWorld::default();
        let wait = ev(1, Kind::SemWait);
        assert!(!enabled(&w, &wait), "it waits as on a count of 0");
        for k in [
            Kind::SemPost,
            Kind::SemTryWait,
            Kind::SemGetValue,
            Kind::SemDestroy,
        ] {
            assert_eq!(misuse(&w, &ev(2, k)), Some(Misuse::Uninitialized), "{k:?}");
        }
        let mut init = ev(0, Kind::SemInit);
        assert_eq!(misuse(&w, &init), None);
        execute(&mut w, &mut init, 0);
        assert_eq!(misuse(&w, &ev(2, Kind::SemPost)), None);
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
