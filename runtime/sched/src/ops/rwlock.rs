//! pthread read-write locks (`pthread_rwlock_t`, glibc's default kind, which prefers
//! readers). A rwlock is its 56 bytes (`SIZE`); its state is two words at its start, as
//! in glibc's layout: the number of read locks held (`World::sync_word(addr)`) and the
//! writer's number + 1 (`addr + 4`, 0 when none), so a zeroed rwlock
//! (`PTHREAD_RWLOCK_INITIALIZER`) is free.
//!
//! Readers commute with readers: what a reader does (take a read lock, fail to for a
//! writer, release its read lock) only reads the object for dependence, and what a
//! writer does writes it. So a write lock conflicts with every read lock, and a read lock
//! with the write locks; as for mutexes, a write lock races with the acquisitions before
//! it (the previous write lock and every read lock since, `acquires`) and a read lock with
//! the previous write lock (`shares`), not with the release in between.
//!
//! A try or timed lock never blocks: with time not modelled, a timed lock that times out
//! while the lock is busy, or takes it once free, is a trylock that returns `ETIMEDOUT`
//! (`value` 1 marks one). A trylock that failed for want of a writer only reads the
//! object; one that failed for the readers must write it, since a reader's release, which
//! only reads it, could make it succeed.
//!
//! A read or write lock (plain or timed) by the thread that holds the write lock fails
//! with `EDEADLK`, as glibc's does, instead of waiting for itself; a trylock fails with
//! `EBUSY` there.
//!
//! Each thread counts the read locks it holds (`World::thread_word`), so that an unlock
//! by a thread that holds none is caught whoever else reads.
//!
//! The reader count changes without a write in the footprint, so what waits on the bytes
//! of a rwlock (`awaits`) would not see it change: its trylocks do not decide an await.

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, Tid, FLAG_FAILED};

/// `sizeof(pthread_rwlock_t)` on x86_64 glibc.
pub const SIZE: u64 = 56;
/// On a `RwUnlock`, its outcome: it released a read lock.
pub const FLAG_READER: u8 = 64;

fn readers<W: World>(w: &W, l: u64) -> u32 {
    w.sync_word(l)
}

fn writer<W: World>(w: &W, l: u64) -> u32 {
    w.sync_word(l + 4)
}

pub(super) fn footprint(e: &Event) -> Footprint {
    let mode = match e.kind() {
        Kind::RdLock | Kind::TryRdLock => Mode::Read,
        Kind::RwUnlock if e.flags & FLAG_READER != 0 => Mode::Read,
        Kind::RwInit | Kind::RwDestroy => Mode::Write,
        _ => Mode::ReadWrite,
    };
    Footprint::one(Range::new(e.addr, SIZE, mode))
}

/// The rwlock a successful write lock holds exclusively.
pub(super) fn acquires(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::WrLock | Kind::TryWrLock if !e.failed() => Some(e.addr),
        _ => None,
    }
}

/// The rwlock a successful read lock holds shared.
pub(super) fn shares(e: &Event) -> Option<u64> {
    match e.kind() {
        Kind::RdLock | Kind::TryRdLock if !e.failed() => Some(e.addr),
        _ => None,
    }
}

/// The rwlock an unlock that took effect released (either lock).
pub(super) fn releases(e: &Event) -> Option<u64> {
    (e.kind() == Kind::RwUnlock && !e.failed()).then_some(e.addr)
}

/// The rwlock whose read lock an unlock released.
pub(super) fn unshares(e: &Event) -> Option<u64> {
    (e.kind() == Kind::RwUnlock && e.flags & FLAG_READER != 0).then_some(e.addr)
}

/// Did the unlock `c` release what the blocked lock `e` waited for: a write lock, or for a
/// write lock, any lock? (A reader's release never enables a read lock.)
pub(super) fn enables(e: &Event, c: &Event) -> bool {
    c.kind() == Kind::RwUnlock
        && c.addr == e.addr
        && (e.kind() == Kind::WrLock || c.flags & FLAG_READER == 0)
}

/// Who holds a rwlock, from the events on it as they executed: the writer, and a thread
/// per read lock.
#[derive(Default, Debug)]
pub struct Holders {
    pub writer: Option<Tid>,
    pub readers: Vec<Tid>,
}

impl Holders {
    /// Follows `e`, if it operates on the rwlock at `l`.
    pub fn apply(&mut self, l: u64, e: &Event) {
        if e.addr != l {
            return;
        }
        if acquires(e).is_some() {
            self.writer = Some(e.tid);
        } else if shares(e).is_some() {
            self.readers.push(e.tid);
        } else if unshares(e).is_some() {
            if let Some(i) = self.readers.iter().position(|&r| r == e.tid) {
                self.readers.swap_remove(i);
            }
        } else if matches!(e.kind(), Kind::RwUnlock | Kind::RwInit) && !e.failed() {
            self.writer = None;
            if e.kind() == Kind::RwInit {
                self.readers.clear();
            }
        }
    }

    pub fn free(&self) -> bool {
        self.readers.is_empty() && self.writer.is_none()
    }
}

/// Where in `then`, which follows `before`, the write lock `w` could run: the longest
/// prefix of `then` that holds its thread's events and leaves the rwlock free. A write
/// lock races with every read lock since the last write lock, and the events that do not
/// depend on one of them can include later read locks not yet released; every order
/// with `w` before the first of them has it before those too.
pub fn free_point(w: &Event, before: &[Event], then: &[Event]) -> Option<usize> {
    let mut h = Holders::default();
    for e in before {
        h.apply(w.addr, e);
    }
    let need = then
        .iter()
        .rposition(|x| x.tid == w.tid)
        .map_or(0, |i| i + 1);
    let mut best = (need == 0 && h.free()).then_some(0);
    for (i, x) in then.iter().enumerate() {
        h.apply(w.addr, x);
        if i + 1 >= need && h.free() {
            best = Some(i + 1);
        }
    }
    best
}

/// Strips the outcome an attempt cannot know: which lock an unlock released.
pub(super) fn attempt(e: &mut Event) {
    if e.kind() == Kind::RwUnlock {
        e.flags &= !FLAG_READER;
    }
}

pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    let mine = writer(w, e.addr) == e.tid + 1;
    match e.kind() {
        Kind::RdLock => writer(w, e.addr) == 0 || mine,
        Kind::WrLock => writer(w, e.addr) == 0 && readers(w, e.addr) == 0 || mine,
        _ => true,
    }
}

/// How many read locks thread `t` holds on the rwlock at `l`: its own count, which
/// depends on its own events only (the rwlock counts its readers without naming them).
fn my_reads<W: World>(w: &W, t: Tid, l: u64) -> u32 {
    w.thread_word(t, l)
}

/// An unlock by a thread that holds neither the write lock nor a read lock, the
/// destruction of a held rwlock.
pub(super) fn misuse<W: World>(w: &W, e: &Event) -> Option<super::Misuse> {
    let (l, me) = (e.addr, e.tid + 1);
    let free = writer(w, l) == 0 && readers(w, l) == 0;
    match e.kind() {
        Kind::RwUnlock if writer(w, l) != me && my_reads(w, e.tid, l) == 0 => {
            Some(super::Misuse::UnlockNotHeld)
        }
        Kind::RwDestroy if !free => Some(super::Misuse::DestroyHeld),
        _ => None,
    }
}

pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) -> i32 {
    let l = e.addr;
    let me = e.tid + 1;
    let busy = if e.value != 0 { ETIMEDOUT } else { EBUSY };
    match e.kind() {
        Kind::RwInit => {
            w.set_sync_word(l, 0);
            w.set_sync_word(l + 4, 0);
        }
        // A trylock is no timed lock (`value` 0): it fails with `EBUSY` below.
        Kind::RdLock | Kind::WrLock | Kind::TryRdLock | Kind::TryWrLock
            if writer(w, l) == me
                && (e.value != 0 || matches!(e.kind(), Kind::RdLock | Kind::WrLock)) =>
        {
            e.flags |= FLAG_FAILED;
            return EDEADLK;
        }
        Kind::RdLock | Kind::TryRdLock if writer(w, l) == 0 => {
            w.set_sync_word(l, readers(w, l) + 1);
            w.set_thread_word(e.tid, l, my_reads(w, e.tid, l) + 1);
        }
        Kind::WrLock => w.set_sync_word(l + 4, me),
        Kind::TryWrLock if writer(w, l) == 0 && readers(w, l) == 0 => w.set_sync_word(l + 4, me),
        Kind::TryRdLock | Kind::TryWrLock => {
            e.flags |= FLAG_FAILED;
            return busy;
        }
        Kind::RwUnlock if writer(w, l) == me => w.set_sync_word(l + 4, 0),
        Kind::RwUnlock if writer(w, l) == 0 && my_reads(w, e.tid, l) > 0 => {
            w.set_sync_word(l, readers(w, l).saturating_sub(1));
            w.set_thread_word(e.tid, l, my_reads(w, e.tid, l) - 1);
            e.flags |= FLAG_READER;
        }
        Kind::RwUnlock => {
            // Not held by this thread.
            e.flags |= FLAG_FAILED;
            return EPERM;
        }
        _ => {}
    }
    0
}

const EPERM: i32 = 1;
const EDEADLK: i32 = 35;
const EBUSY: i32 = 16;
const ETIMEDOUT: i32 = 110;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{acquires, dependent, enabled, execute, shares};

    fn run(w: &mut TestWorld, t: u32, k: Kind) -> (Event, i32) {
        let mut e = Event::on(t, k, 64);
        assert!(enabled(w, &e), "{k:?} of T{t} enabled");
        let r = execute(w, &mut e, 0);
        (e, r)
    }

    #[test]
    fn readers_share_and_writers_exclude() {
        let mut w = TestWorld::default();
        let (r1, _) = run(&mut w, 1, Kind::RdLock);
        let (r2, _) = run(&mut w, 2, Kind::RdLock);
        assert_eq!((shares(&r1), shares(&r2)), (Some(64), Some(64)));
        assert!(!enabled(&w, &Event::on(3, Kind::WrLock, 64)));
        let (t, r) = run(&mut w, 3, Kind::TryWrLock);
        assert!(t.failed() && r == EBUSY && acquires(&t).is_none());
        let (u1, _) = run(&mut w, 1, Kind::RwUnlock);
        assert!(u1.flags & FLAG_READER != 0);
        run(&mut w, 2, Kind::RwUnlock);
        let (wl, _) = run(&mut w, 3, Kind::WrLock);
        assert_eq!(acquires(&wl), Some(64));
        assert!(!enabled(&w, &Event::on(1, Kind::RdLock, 64)));
        let timed = Event {
            value: 1,
            ..Event::on(1, Kind::TryRdLock, 64)
        };
        let mut timed2 = timed;
        assert_eq!(execute(&mut w, &mut timed2, 0), ETIMEDOUT);
        let (u, r) = run(&mut w, 3, Kind::RwUnlock);
        assert!(r == 0 && u.flags & FLAG_READER == 0);
        let (_, r) = run(&mut w, 3, Kind::RwUnlock);
        assert_eq!(r, EPERM, "unlocking a free rwlock");
    }

    #[test]
    fn an_unlock_without_a_hold_is_a_misuse_while_others_read() {
        use crate::ops::{misuse, Misuse};
        let mut w = TestWorld::default();
        run(&mut w, 1, Kind::RdLock);
        let stray = Event::on(2, Kind::RwUnlock, 64);
        assert_eq!(misuse(&w, &stray), Some(Misuse::UnlockNotHeld));
        let mut stray2 = stray;
        assert_eq!(execute(&mut w, &mut stray2, 0), EPERM);
        assert_eq!(readers(&w, 64), 1, "T1 still reads");
        let (u, r) = run(&mut w, 1, Kind::RwUnlock);
        assert!(r == 0 && u.flags & FLAG_READER != 0);
        assert_eq!(
            misuse(&w, &Event::on(1, Kind::RwUnlock, 64)),
            Some(Misuse::UnlockNotHeld)
        );
    }

    #[test]
    fn the_writer_locking_again_fails_with_edeadlk() {
        let mut w = TestWorld::default();
        run(&mut w, 1, Kind::WrLock);
        for k in [Kind::RdLock, Kind::WrLock] {
            let (e, r) = run(&mut w, 1, k);
            assert!(r == EDEADLK && e.failed() && acquires(&e).is_none() && shares(&e).is_none());
        }
        let timed = |k| Event {
            value: 1,
            ..Event::on(1, k, 64)
        };
        for k in [Kind::TryRdLock, Kind::TryWrLock] {
            assert_eq!(execute(&mut w, &mut timed(k), 0), EDEADLK);
            let (e, r) = run(&mut w, 1, k);
            assert!(r == EBUSY && e.failed(), "a trylock fails with EBUSY");
        }
        assert!(
            !enabled(&w, &Event::on(2, Kind::RdLock, 64)),
            "others still wait"
        );
        let (_, r) = run(&mut w, 1, Kind::RwUnlock);
        assert_eq!((r, writer(&w, 64)), (0, 0), "one unlock frees it");
    }

    #[test]
    fn readers_commute_with_readers() {
        let rd = |t| Event::on(t, Kind::RdLock, 64);
        let runlock = |t| Event {
            flags: FLAG_READER,
            ..Event::on(t, Kind::RwUnlock, 64)
        };
        assert!(!dependent(&rd(1), &rd(2)));
        assert!(!dependent(&rd(1), &runlock(2)));
        assert!(dependent(&rd(1), &Event::on(2, Kind::WrLock, 64)));
        assert!(dependent(&runlock(1), &Event::on(2, Kind::WrLock, 64)));
        let failed_wr = Event {
            flags: FLAG_FAILED,
            ..Event::on(2, Kind::TryWrLock, 64)
        };
        assert!(
            dependent(&runlock(1), &failed_wr),
            "a reader's release can make a try-write lock succeed"
        );
        assert!(
            dependent(&rd(1), &crate::ops::attempt(&runlock(2))),
            "an unlock not yet run may release a write lock"
        );
        assert!(dependent(&rd(1), &Event::mem(2, Kind::Write, 100, 8)));
        assert!(!dependent(&rd(1), &Event::mem(2, Kind::Write, 120, 8)));
    }
}
