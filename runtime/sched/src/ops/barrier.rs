//! POSIX barriers. A barrier is its 32 bytes (`SIZE`), of which the model uses three
//! words: how many threads have arrived in the current round (at `addr`), how many it
//! waits for (`addr + 4`), and the round's number (`addr + 8`).
//!
//! `pthread_barrier_wait` is two events, as a condition wait is: `BarrierWait` arrives
//! (it counts the thread in and records the round in `value`), and for all but the last
//! thread of the round `BarrierPass` then waits for the round to end. The last arrival
//! ends the round and returns `PTHREAD_BARRIER_SERIAL_THREAD`; the others arrived
//! without ending it (`FLAG_FAILED`), return 0, and only read the count. Arrivals race
//! with each other (each reads and writes the count), so every order of the threads'
//! arrivals is explored, and with it which thread is the serial one. A pass reads only
//! the end of its round, which only the round's last arrival writes: it is ordered after
//! every arrival of its round (the last one, which it waits for, after all the others),
//! and commutes with the arrivals of later rounds. An arrival whose outcome is not known
//! yet (`ops::attempt`, in a wakeup sequence) could be the last of its round, so it ends
//! that round only, not the one before, which its own thread passed already: each round's
//! end is its own byte among those the model does not use (`END`), rounds that many apart
//! sharing one, which only adds dependence.
//!
//! A barrier has no static initializer and `pthread_barrier_init` refuses a count of 0,
//! so a barrier that waits for no thread was never initialized; `pthread_barrier_destroy`
//! sets the count it waits for to `DESTROYED`. Waiting on either, destroying either, and
//! destroying a barrier that threads wait at are misuses.

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, FLAG_FAILED};

/// `sizeof(pthread_barrier_t)` on x86_64 glibc.
pub const SIZE: u64 = 32;
/// What `pthread_barrier_wait` returns to the thread that ended the round.
pub const SERIAL_THREAD: i32 = -1;
/// The count of threads that a destroyed barrier waits for.
pub const DESTROYED: u32 = u32::MAX;

fn arrived(b: u64) -> u64 {
    b
}
fn needed(b: u64) -> u64 {
    b + 4
}
fn round(b: u64) -> u64 {
    b + 8
}
/// The bytes past the three words: the end of round `r` is byte `END + r % (SIZE - END)`.
const END: u64 = 12;
fn end(b: u64, r: u64, mode: Mode) -> Option<Range> {
    Range::new(b + END + r % (SIZE - END), 1, mode)
}

pub(super) fn footprint(e: &Event) -> Footprint {
    let b = e.addr;
    match e.kind() {
        // The count and the number of threads it waits for.
        Kind::BarrierWait if e.failed() => Footprint::one(Range::new(b, 8, Mode::ReadWrite)),
        // ... and the round it ends.
        Kind::BarrierWait => Footprint::two(
            Range::new(b, END, Mode::ReadWrite),
            end(b, e.value, Mode::Write),
        ),
        Kind::BarrierPass => Footprint::one(end(b, e.value, Mode::Read)),
        _ => Footprint::one(Range::new(b, SIZE, Mode::Write)),
    }
}

/// Did `c` end the round that the pass `e` waits for?
pub(super) fn enables(e: &Event, c: &Event) -> bool {
    e.kind() == Kind::BarrierPass
        && c.kind() == Kind::BarrierWait
        && c.addr == e.addr
        && !c.failed()
        && c.value == e.value
}

/// A pass waits until the round it arrived in (its `value`) has ended.
pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    e.kind() != Kind::BarrierPass || w.sync_word(round(e.addr)) as u64 != e.value
}

/// Using a barrier never initialized or destroyed, or destroying one that threads wait
/// at (they arrived in the current round, which has not ended).
pub(super) fn misuse<W: World>(w: &W, e: &Event) -> Option<super::Misuse> {
    use super::Misuse::*;
    if !matches!(e.kind(), Kind::BarrierWait | Kind::BarrierDestroy) {
        return None;
    }
    match w.sync_word(needed(e.addr)) {
        0 => Some(Uninitialized),
        DESTROYED => Some(UseDestroyed),
        _ if e.kind() == Kind::BarrierDestroy && w.sync_word(arrived(e.addr)) > 0 => {
            Some(DestroyWaitedOn)
        }
        _ => None,
    }
}

/// Executes `e`; an arrival returns `SERIAL_THREAD` when it ended the round.
pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) -> i32 {
    let b = e.addr;
    match e.kind() {
        Kind::BarrierInit => {
            w.set_sync_word(arrived(b), 0);
            w.set_sync_word(needed(b), e.value as u32);
            w.set_sync_word(round(b), 0);
        }
        Kind::BarrierWait => {
            let r = w.sync_word(round(b));
            e.value = r as u64;
            let n = w.sync_word(arrived(b)) + 1;
            if n >= w.sync_word(needed(b)) {
                w.set_sync_word(arrived(b), 0);
                w.set_sync_word(round(b), r.wrapping_add(1));
                return SERIAL_THREAD;
            }
            w.set_sync_word(arrived(b), n);
            e.flags |= FLAG_FAILED;
        }
        Kind::BarrierDestroy => w.set_sync_word(needed(b), DESTROYED),
        _ => {}
    }
    0
}

/// How many threads have arrived in the current round, and how many it waits for.
pub fn progress<W: World>(w: &W, b: u64) -> (u32, u32) {
    (w.sync_word(arrived(b)), w.sync_word(needed(b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{dependent, enabled, execute};

    fn arrive(w: &mut TestWorld, t: u32) -> (Event, i32) {
        let mut e = Event::on(t, Kind::BarrierWait, 64);
        let r = execute(w, &mut e, 0);
        (e, r)
    }

    #[test]
    fn the_last_of_n_arrivals_ends_the_round_and_is_the_serial_thread() {
        let mut w = TestWorld::default();
        let mut init = Event {
            value: 3,
            ..Event::on(0, Kind::BarrierInit, 64)
        };
        execute(&mut w, &mut init, 0);
        let (a1, r1) = arrive(&mut w, 1);
        let (a2, r2) = arrive(&mut w, 2);
        assert_eq!((r1, r2), (0, 0));
        assert!(a1.failed() && a2.failed());
        let pass = Event {
            value: a1.value,
            ..Event::on(1, Kind::BarrierPass, 64)
        };
        assert!(!enabled(&w, &pass), "the round has not ended");
        let (a3, r3) = arrive(&mut w, 3);
        assert_eq!(r3, SERIAL_THREAD);
        assert!(!a3.failed());
        assert!(enabled(&w, &pass));
        assert!(enables(&pass, &a3) && !enables(&pass, &a2));
        assert_eq!(progress(&w, 64), (0, 3), "the next round starts empty");
        // The next round's arrival counts again, without waking the old pass.
        let (next, _) = arrive(&mut w, 2);
        assert!(next.failed() && next.value == a1.value + 1);
        assert!(enabled(&w, &pass));
    }

    #[test]
    fn barriers_uninitialized_destroyed_or_destroyed_under_waiters_are_misused() {
        use crate::ops::{misuse, Misuse};
        let mut w = TestWorld::default();
        let wait = Event::on(1, Kind::BarrierWait, 64);
        let destroy = Event::on(0, Kind::BarrierDestroy, 64);
        assert_eq!(misuse(&w, &wait), Some(Misuse::Uninitialized));
        let mut init = Event {
            value: 2,
            ..Event::on(0, Kind::BarrierInit, 64)
        };
        execute(&mut w, &mut init, 0);
        assert_eq!(misuse(&w, &wait), None);
        assert_eq!(misuse(&w, &destroy), None, "no thread waits yet");
        arrive(&mut w, 1);
        assert_eq!(misuse(&w, &destroy), Some(Misuse::DestroyWaitedOn));
        arrive(&mut w, 2);
        assert_eq!(misuse(&w, &destroy), None, "the round is over");
        execute(&mut w, &mut destroy.clone(), 1);
        assert_eq!(misuse(&w, &wait), Some(Misuse::UseDestroyed));
    }

    #[test]
    fn arrivals_race_and_a_pass_commutes_with_the_next_rounds_arrivals() {
        let arrival = |t, failed: bool| Event {
            flags: if failed { FLAG_FAILED } else { 0 },
            ..Event::on(t, Kind::BarrierWait, 64)
        };
        assert!(dependent(&arrival(1, true), &arrival(2, true)));
        let pass = Event::on(1, Kind::BarrierPass, 64);
        assert!(dependent(&pass, &arrival(2, false)), "the round's end");
        assert!(!dependent(&pass, &arrival(2, true)));
        let next = Event {
            value: 1,
            ..arrival(2, false)
        };
        assert!(
            !dependent(&pass, &next),
            "the next round's end, even as an attempt that may end it"
        );
        assert!(dependent(&next, &arrival(3, true)));
    }
}
