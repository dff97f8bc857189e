//! Condition variables. A condition is its 48 bytes (`SIZE`). `pthread_cond_wait` is two
//! events: `CondWait` releases the mutex and makes its thread a waiter (it writes both
//! objects); `CondWake` takes the mutex back once a signal or a broadcast woke the thread
//! (it reads the condition, whose writes are ordered up to the one that woke it, and
//! acquires the mutex). A signal wakes exactly one waiter, and which one is a choice of
//! the schedule (POSIX leaves it open): the `choice`-th waiter in thread order. A
//! broadcast wakes them all. Either is lost when no thread waits; it then only reads the
//! condition, so lost signals commute with each other but not with a wait.
//!
//! A wait may also end without a signal (POSIX allows spurious wake-ups): a wait marked
//! `FLAG_SPURIOUS` has two alternatives, sleeping until signalled or being able to wake
//! on its own whenever the mutex is free, and the engine explores both. A wake that came
//! without a signal is marked `FLAG_FAILED`. (Which waits get the alternative is the
//! runtime's: not one that follows a fruitless spurious wake-up, see `cdpor_cond_wait`.)
//!
//! A timed wait (`FLAG_TIMED`) may time out whenever the mutex is free, time not being
//! modelled: its wake is `FLAG_TIMED` too, and can run at once or after a signal woke
//! it; unsignalled, it times out (the wait returns `ETIMEDOUT`). It has no alternative
//! that sleeps until signalled: with no signal to come, that would be stuck where the
//! real wait times out, and with one, the timed wake covers it. Its other alternative,
//! if spurious wake-ups are on, is waking without a signal and without a timeout.

use super::{mutex, Footprint, Mode, Range, World};
use crate::event::{Event, Kind, Tid, FLAG_FAILED, FLAG_SPURIOUS};

/// `sizeof(pthread_cond_t)` on x86_64 glibc.
pub const SIZE: u64 = 48;
/// Waits of a thread, in one execution, that may end without a signal: each doubles the
/// executions of a loop whose state moves on every round (a deadline one second later
/// each time), so the next one stops the thread, cut as `--unroll` cuts a loop.
pub const UNSIGNALLED: u32 = 12;
/// Flag on a `CondWait`: a timed wait; on a `CondWake`: the wait timed out.
pub const FLAG_TIMED: u8 = 64;

pub(super) fn footprint(e: &Event) -> Footprint {
    let cond = |mode| Range::new(e.addr, SIZE, mode);
    let mutex = Range::new(e.arg, mutex::SIZE, Mode::ReadWrite);
    match e.kind() {
        Kind::CondWait => Footprint::two(cond(Mode::ReadWrite), mutex),
        Kind::CondWake => Footprint::two(cond(Mode::Read), mutex),
        Kind::CondSignal | Kind::CondBroadcast if e.failed() => Footprint::one(cond(Mode::Read)),
        Kind::CondSignal | Kind::CondBroadcast => Footprint::one(cond(Mode::ReadWrite)),
        _ => Footprint::one(cond(Mode::Write)),
    }
}

/// Has the waiting thread's pending `CondWake` been woken?
pub fn woken(wake: &Event) -> bool {
    wake.value != 0
}

/// The threads waiting on condition `c` and not woken yet, in thread order.
fn waiters<W: World>(w: &W, c: u64) -> impl Iterator<Item = Tid> + '_ {
    w.ready().iter().filter(move |&t| {
        let p = w.pending(t);
        p.kind() == Kind::CondWake && p.addr == c && !woken(p)
    })
}

/// A wait with a mutex the thread does not hold, or with another mutex than the threads
/// waiting on the condition; the destruction of a condition with waiters.
pub(super) fn misuse<W: World>(w: &W, e: &Event) -> Option<super::Misuse> {
    use super::Misuse::*;
    match e.kind() {
        Kind::CondWait if w.sync_word(e.arg) != e.tid + 1 => Some(WaitWithoutMutex),
        Kind::CondWait if waiters(w, e.addr).any(|t| w.pending(t).arg != e.arg) => Some(TwoMutexes),
        Kind::CondDestroy if waiters(w, e.addr).next().is_some() => Some(DestroyWaitedOn),
        _ => None,
    }
}

/// The signal or broadcast (at `step`) that woke a wake.
pub(super) fn enables(wake: &Event, step: usize) -> bool {
    wake.value == step as u64 + 1
}

pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    (woken(e) || e.flags & (FLAG_SPURIOUS | FLAG_TIMED) != 0) && mutex::is_free(w, e.arg)
}

pub(super) fn execute<W: World>(w: &mut W, e: &mut Event, step: u32) -> i32 {
    match e.kind() {
        Kind::CondWait => {
            w.set_sync_word(e.arg, 0);
            if e.flags & FLAG_SPURIOUS != 0 {
                e.choice = w.choose(2);
                e.choices = 2;
            }
        }
        Kind::CondWake => {
            if !woken(e) {
                e.flags |= FLAG_FAILED;
            }
            mutex::take(w, e.arg, e)
        }
        Kind::CondSignal => {
            let n = waiters(w, e.addr).count() as u32;
            if n == 0 {
                e.flags |= FLAG_FAILED;
                return 0;
            }
            let c = w.choose(n);
            let t = waiters(w, e.addr).nth(c as usize).expect("choice below n");
            w.pending_mut(t).value = step as u64 + 1;
            e.aux = t;
            e.choice = c;
            e.choices = n;
        }
        Kind::CondBroadcast => {
            let all: Vec<Tid> = waiters(w, e.addr).collect();
            if all.is_empty() {
                e.flags |= FLAG_FAILED;
            }
            for t in all {
                w.pending_mut(t).value = step as u64 + 1;
            }
        }
        _ => {}
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{dependent, enabled, execute};

    fn wake(t: Tid) -> Event {
        Event {
            arg: 8,
            ..Event::on(t, Kind::CondWake, 100)
        }
    }

    #[test]
    fn a_signal_wakes_the_chosen_waiter_only() {
        let mut w = TestWorld::default();
        w.pending.insert(1, wake(1));
        w.pending.insert(2, wake(2));
        w.next_choice = 1;
        let mut s = Event::on(3, Kind::CondSignal, 100);
        execute(&mut w, &mut s, 7);
        assert_eq!((s.aux, s.choice, s.choices), (2, 1, 2));
        assert!(!enabled(&w, &w.pending[&1]), "T1 sleeps on");
        assert!(enabled(&w, &w.pending[&2]));
        assert_eq!(w.pending[&2].value, 8);
        // The next signal has one waiter left.
        let mut s2 = Event::on(3, Kind::CondSignal, 100);
        execute(&mut w, &mut s2, 8);
        assert_eq!((s2.aux, s2.choices), (1, 1));
        let mut lost = Event::on(3, Kind::CondSignal, 100);
        execute(&mut w, &mut lost, 9);
        assert!(lost.failed());
    }

    #[test]
    fn a_broadcast_wakes_every_waiter_and_the_mutex_orders_them() {
        let mut w = TestWorld::default();
        w.pending.insert(1, wake(1));
        w.pending.insert(2, wake(2));
        w.set_sync_word(8, 4);
        let mut b = Event::on(3, Kind::CondBroadcast, 100);
        execute(&mut w, &mut b, 0);
        assert!(!b.failed());
        assert!(!enabled(&w, &w.pending[&1]), "the mutex is held");
        w.set_sync_word(8, 0);
        assert!(enabled(&w, &w.pending[&1]) && enabled(&w, &w.pending[&2]));
    }

    #[test]
    fn a_wait_that_may_wake_spuriously_wakes_once_the_mutex_is_free() {
        let mut w = TestWorld {
            next_choice: 1,
            ..TestWorld::default()
        };
        let mut wait = Event {
            arg: 8,
            flags: FLAG_SPURIOUS,
            ..Event::on(1, Kind::CondWait, 100)
        };
        w.set_sync_word(8, 2);
        execute(&mut w, &mut wait, 0);
        assert_eq!((wait.choice, wait.choices), (1, 2));
        let mut spurious = Event {
            flags: FLAG_SPURIOUS,
            ..wake(1)
        };
        w.set_sync_word(8, 3);
        assert!(!enabled(&w, &spurious), "the mutex is held");
        w.set_sync_word(8, 0);
        assert!(enabled(&w, &spurious) && !enabled(&w, &wake(1)));
        execute(&mut w, &mut spurious, 1);
        assert!(spurious.failed(), "it woke without a signal");
        assert_eq!(w.sync_word(8), 2);
    }

    #[test]
    fn a_timed_wait_has_no_alternative_that_sleeps_until_signalled() {
        let mut w = TestWorld::default();
        let mut wait = Event {
            arg: 8,
            flags: FLAG_TIMED,
            ..Event::on(1, Kind::CondWait, 100)
        };
        w.set_sync_word(8, 2);
        execute(&mut w, &mut wait, 0);
        assert_eq!(wait.choices, 0, "only spurious wake-ups add an alternative");
        let timed = Event {
            flags: FLAG_TIMED,
            ..wake(1)
        };
        assert!(enabled(&w, &timed), "it may time out at once");
        // Signalled first, it wakes as signalled; unsignalled, it times out.
        let mut signal = Event::on(2, Kind::CondSignal, 100);
        w.pending.insert(1, timed);
        execute(&mut w, &mut signal, 1);
        assert_eq!(
            signal.aux, 1,
            "a timed waiter can be the one a signal wakes"
        );
        let mut woken = w.pending[&1];
        execute(&mut w, &mut woken, 2);
        assert!(!woken.failed());
        let mut alone = timed;
        w.set_sync_word(8, 0);
        execute(&mut w, &mut alone, 3);
        assert!(alone.failed(), "it timed out");
    }

    #[test]
    fn dependences() {
        let wait = Event {
            arg: 8,
            ..Event::on(1, Kind::CondWait, 100)
        };
        let signal = Event::on(2, Kind::CondSignal, 100);
        let lost = |t| Event {
            flags: FLAG_FAILED,
            ..Event::on(t, Kind::CondSignal, 100)
        };
        assert!(
            dependent(&wait, &signal),
            "a signal before the wait is lost"
        );
        assert!(dependent(&wait, &lost(2)));
        assert!(!dependent(&lost(2), &lost(3)), "lost signals commute");
        assert!(!dependent(&wait, &Event::on(2, Kind::CondSignal, 200)));
        assert!(dependent(&signal, &wake(3)), "a signal enables the wake");
        assert!(dependent(&wait, &Event::on(2, Kind::Lock, 8)));
        assert!(dependent(&wake(3), &Event::on(2, Kind::Lock, 8)));
        assert!(!dependent(
            &wake(3),
            &Event {
                arg: 200,
                ..wake(4)
            }
        ));
        assert!(!dependent(&signal, &Event::mem(1, Kind::Write, 200, 8)));
        assert!(dependent(&signal, &Event::mem(1, Kind::Write, 120, 8)));
    }
}
