//! Threads: creation, join and exit. Each thread is a word that no program can use, the
//! first of its stack's guard (`object`): its exit writes the word and a join of it
//! writes it too, so a join is ordered after the exit it waits for, and two joins of
//! one thread (undefined in POSIX) conflict: the first takes the joined thread's number
//! for its own next child. A creation conflicts with every event of the created thread.
//! Creations by different threads commute: a thread's number is a function of its
//! creator's history, not of a shared counter (`crate::shm::ThreadName`).
//!
//! A join of a `pthread_t` that names no thread (never set by a create, or of a thread
//! whose number went to another thread) targets `NO_THREAD`: a misuse, which POSIX
//! leaves undefined. Whether the id named a thread was decided by the program's read of
//! it, an event of its own, so the join itself touches nothing. A second join of one
//! thread is the same misuse: each thread's word for itself (`World::thread_word`)
//! says whether it was joined since it exited.
//!
//! A detach writes a second word of the thread's (`DETACH_WORDS`), which its joins read:
//! it is ordered with them, any of which is then a misuse (as is a second detach),
//! whichever thread joins, but it commutes with the thread's exit.

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, Tid};
use crate::layout::{stack_bottom, tls_block, DETACH_WORDS, STACK_SLOT, TLS_SLOT};

/// The target of a join of an id that names no thread.
pub const NO_THREAD: Tid = Tid::MAX;

/// The word that stands for thread `t`.
fn object(t: Tid) -> u64 {
    stack_bottom(t)
}

/// The word that says whether thread `t` is detached.
fn detached(t: Tid) -> u64 {
    DETACH_WORDS + 8 * t as u64
}

pub(super) fn footprint(e: &Event) -> Footprint {
    match e.kind() {
        Kind::Join | Kind::Detach if e.aux == NO_THREAD => Footprint::NONE,
        Kind::Join => Footprint::two(
            Range::new(object(e.aux), 8, Mode::Write),
            Range::new(detached(e.aux), 8, Mode::Read),
        ),
        // Whether it was joined already is a misuse either way: no need to order it.
        Kind::Detach => Footprint::one(Range::new(detached(e.aux), 8, Mode::Write)),
        // The exit ends the thread's stack (its word included) and its thread-local
        // variables: it conflicts with other threads' accesses to them.
        Kind::ThreadExit => Footprint::two(
            Range::new(stack_bottom(e.tid), STACK_SLOT, Mode::Write),
            Range::new(tls_block(e.tid), TLS_SLOT, Mode::Write),
        ),
        _ => Footprint::NONE,
    }
}

/// The thread that `e` creates, if it is a creation: every event of that thread
/// depends on it.
pub(super) fn created(e: &Event) -> Option<Tid> {
    (e.kind() == Kind::Create).then_some(e.aux)
}

/// The exit a join waits for.
pub(super) fn enables(join: &Event, c: &Event) -> bool {
    c.kind() == Kind::ThreadExit && c.tid == join.aux
}

pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    e.aux == NO_THREAD || w.finished(e.aux)
}

pub(super) fn misuse<W: World>(w: &W, e: &Event) -> Option<super::Misuse> {
    if e.aux == NO_THREAD {
        return Some(super::Misuse::NoSuchThread);
    }
    if w.thread_word(e.aux, detached(e.aux)) == DETACHED {
        Some(super::Misuse::Detached)
    } else if w.thread_word(e.aux, object(e.aux)) == JOINED {
        Some(super::Misuse::NoSuchThread)
    } else {
        None
    }
}

/// A thread's word for itself once it was joined, or detached.
const JOINED: u32 = 1;
const DETACHED: u32 = 2;

pub(super) fn execute<W: World>(w: &mut W, e: &Event) {
    match e.kind() {
        Kind::Join if e.aux != NO_THREAD => w.set_thread_word(e.aux, object(e.aux), JOINED),
        Kind::Detach if e.aux != NO_THREAD => w.set_thread_word(e.aux, detached(e.aux), DETACHED),
        // A joined thread's number may serve again: its new life has not been joined.
        Kind::ThreadExit if w.thread_word(e.tid, object(e.tid)) == JOINED => {
            w.set_thread_word(e.tid, object(e.tid), 0)
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::dependent;

    #[test]
    fn thread_operations_name_no_memory_of_the_program_but_object_operations_do() {
        use crate::ops::in_program_memory;
        for k in [Kind::Create, Kind::Join, Kind::ThreadExit] {
            assert!(!in_program_memory(&Event::new(1, k)), "{k:?}");
        }
        for k in [Kind::Lock, Kind::SemPost, Kind::BarrierPass, Kind::Write] {
            assert!(in_program_memory(&Event::on(1, k, 64)), "{k:?}");
        }
        assert!(!in_program_memory(&Event::new(1, Kind::AssertFail)));
    }

    #[test]
    fn a_thread_is_joined_once_per_life() {
        use crate::ops::testing::TestWorld;
        use crate::ops::{execute, misuse, Misuse};
        let mut w = TestWorld::default();
        let join = |t| Event {
            aux: 1,
            ..Event::new(t, Kind::Join)
        };
        let exit = Event::new(1, Kind::ThreadExit);
        execute(&mut w, &mut exit.clone(), 0);
        assert_eq!(misuse(&w, &join(0)), None);
        execute(&mut w, &mut join(0), 1);
        assert_eq!(misuse(&w, &join(2)), Some(Misuse::NoSuchThread));
        // The number serves a new thread, which exits: it can be joined.
        execute(&mut w, &mut exit.clone(), 2);
        assert_eq!(misuse(&w, &join(2)), None);
        let nobody = Event {
            aux: NO_THREAD,
            ..Event::new(2, Kind::Join)
        };
        assert!(enabled(&w, &nobody) && footprint(&nobody) == Footprint::NONE);
        assert_eq!(misuse(&w, &nobody), Some(Misuse::NoSuchThread));
    }

    #[test]
    fn a_detached_thread_is_never_joined_nor_detached_again() {
        use crate::ops::testing::TestWorld;
        use crate::ops::{dependent, execute, misuse, Misuse};
        let mut w = TestWorld::default();
        let on = |kind, t| Event {
            aux: 1,
            ..Event::new(t, kind)
        };
        assert_eq!(misuse(&w, &on(Kind::Detach, 0)), None);
        execute(&mut w, &mut on(Kind::Detach, 0), 0);
        assert_eq!(misuse(&w, &on(Kind::Join, 2)), Some(Misuse::Detached));
        assert_eq!(misuse(&w, &on(Kind::Detach, 2)), Some(Misuse::Detached));
        // It stays detached once it has finished.
        execute(&mut w, &mut Event::new(1, Kind::ThreadExit), 1);
        assert_eq!(misuse(&w, &on(Kind::Join, 0)), Some(Misuse::Detached));
        assert!(dependent(&on(Kind::Detach, 0), &on(Kind::Join, 2)));
        assert!(dependent(&on(Kind::Detach, 0), &on(Kind::Detach, 2)));
        assert!(!dependent(
            &on(Kind::Detach, 0),
            &Event::new(1, Kind::ThreadExit)
        ));
        assert!(!dependent(
            &on(Kind::Detach, 0),
            &Event {
                aux: 3,
                ..Event::new(2, Kind::Join)
            }
        ));
    }

    #[test]
    fn dependences() {
        let create = |parent, child| Event {
            aux: child,
            ..Event::new(parent, Kind::Create)
        };
        assert!(dependent(&create(0, 2), &Event::mem(2, Kind::Read, 0, 4)));
        assert!(!dependent(&create(0, 2), &Event::mem(1, Kind::Read, 0, 4)));
        assert!(
            !dependent(&create(1, 3), &create(2, 4)),
            "creations by different threads commute"
        );
        let join = |t, target| Event {
            aux: target,
            ..Event::new(t, Kind::Join)
        };
        let exit = Event::new(2, Kind::ThreadExit);
        assert!(dependent(&exit, &join(0, 2)));
        assert!(!dependent(&exit, &join(0, 3)));
        assert!(!dependent(&join(0, 2), &join(1, 3)));
        assert!(
            dependent(&join(0, 2), &join(1, 2)),
            "the first joiner takes the number"
        );
        assert!(dependent(
            &Event::new(0, Kind::ProcessExit),
            &Event::new(1, Kind::Fence)
        ));
        assert!(dependent(
            &Event::new(0, Kind::Crash),
            &Event::mem(1, Kind::Read, 0, 4)
        ));
        assert!(!dependent(
            &Event::new(0, Kind::Fence),
            &Event::mem(1, Kind::Write, 0, 8)
        ));
    }
}
