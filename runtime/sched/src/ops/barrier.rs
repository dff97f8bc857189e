//! POSIX barriers. A barrier is its 32 bytes (`SIZE`), of which the model uses six
//! words: how many threads have arrived in the current round (at `addr`), how many it
//! waits for (`+4`), the round's number (`+8`), the last round whose serial return was
//! claimed, plus one (`+12`), and for the check below the generation of its
//! initialization (`+16`) and how many threads have used it since (`+20`).
//!
//! `pthread_barrier_wait` is two events, as a condition wait is: `BarrierWait` arrives
//! (it counts the thread in and records the round in `value`) and `BarrierPass` waits
//! for the round to end. Which thread gets `PTHREAD_BARRIER_SERIAL_THREAD` is no part
//! of the order of arrival: the first pass of a round claims it, a test-and-set on a
//! flag of that round; in a program none of whose calls uses the result (`UNUSED`, seen
//! by the instrumentation) passes claim nothing. (A call that ignores the result in a
//! program that uses it elsewhere claims as the others do: it can be the serial thread.) Then whether an arrival ended its round is
//! observable nowhere, and arrivals of one round commute: either order leaves the same
//! count and both threads in that round. Arrivals of a round only read their round's
//! block of bytes among the barrier's *names* (bytes no program can touch, `layout::
//! NAMES_BASE`), a pass writes its own thread's byte in it, so a pass comes after every
//! arrival of its round, and passes commute with each other; a claiming pass also writes
//! the round's claim byte (a failed claim only reads it). A round of N threads is N
//! executions, one per serial thread, or one when no call uses the result.
//!
//! That holds while a round's members cannot change with the order, which is when no
//! more threads than the barrier waits for can arrive in one round: the count plus the
//! threads about to arrive never exceeds it. Every thread that announces an arrival is
//! registered with the barrier (`announce`); when more threads than it waits for have
//! used it since its initialization, the execution says so (`World::
//! barrier_overflow`) and cdpor explores the program again with `ORDERED` arrivals: the
//! last arrival ends the round and is the serial thread, the others `FLAG_FAILED`, and
//! arrivals race with each other (each reads and writes the count), so every order of
//! arrival is explored. The argument for the check is in docs/reductions.md.
//!
//! A barrier has no static initializer and `pthread_barrier_init` refuses a count of 0,
//! so a barrier that waits for no thread was never initialized; `pthread_barrier_destroy`
//! sets the count it waits for to `DESTROYED`. Waiting on either, destroying either, and
//! destroying a barrier that threads wait at are misuses.

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, FLAG_FAILED, MAX_THREADS};
use crate::layout::NAMES_BASE;

/// `sizeof(pthread_barrier_t)` on x86_64 glibc.
pub const SIZE: u64 = 32;
/// What `pthread_barrier_wait` returns to the thread that ended the round.
pub const SERIAL_THREAD: i32 = -1;
/// The count of threads that a destroyed barrier waits for.
pub const DESTROYED: u32 = u32::MAX;

/// `aux` of a barrier event: its arrivals are ordered (the exploration after an overflow).
pub const ORDERED: u32 = 1;
/// `aux` of a pass: no call in the program uses the result, so it claims nothing.
pub const UNUSED: u32 = 2;

// The words the model uses, as offsets from the barrier's address.
const ARRIVED: u64 = 0;
const NEEDED: u64 = 4;
const ROUND: u64 = 8;
const CLAIMED: u64 = 12;
const GENERATION: u64 = 16;
const PARTICIPANTS: u64 = 20;
/// The key of a thread's own word that says in which generation it used barrier `b`.
fn registered(b: u64) -> u64 {
    b + 1
}

/// Rounds that share a block of names: two suffice, since every arrival of a round
/// happens before every arrival of the round after the next (through a pass).
const BLOCKS: u64 = 2;
/// A block: a byte per thread, then the claim byte.
const BLOCK: u64 = MAX_THREADS as u64 + 1;

/// The names of barrier `b`: the blocks of its rounds, one after another.
fn names(b: u64) -> u64 {
    NAMES_BASE + b * BLOCKS * BLOCK
}
fn block(b: u64, r: u64) -> u64 {
    names(b) + r % BLOCKS * BLOCK
}

/// Ordered arrivals: the bytes past the three words: the end of round `r` is byte
/// `END + r % (SIZE - END)`. An arrival whose outcome is not known yet (`ops::attempt`,
/// in a wakeup sequence) could be the last of its round, so it ends that round only, not
/// the one before, which its own thread passed already; rounds that many apart share a
/// byte, which only adds dependence.
const END: u64 = 12;
fn end(b: u64, r: u64, mode: Mode) -> Option<Range> {
    Range::new(b + END + r % (SIZE - END), 1, mode)
}

fn ordered(e: &Event) -> bool {
    e.aux & ORDERED != 0
}

pub(super) fn footprint(e: &Event) -> Footprint {
    let b = e.addr;
    match e.kind() {
        // The count and the number of threads it waits for.
        Kind::BarrierWait if ordered(e) && e.failed() => {
            Footprint::one(Range::new(b, 8, Mode::ReadWrite))
        }
        // ... and the round it ends.
        Kind::BarrierWait if ordered(e) => Footprint::two(
            Range::new(b, END, Mode::ReadWrite),
            end(b, e.value, Mode::Write),
        ),
        Kind::BarrierPass if ordered(e) => Footprint::one(end(b, e.value, Mode::Read)),
        Kind::BarrierWait => Footprint::two(
            Range::new(b, SIZE, Mode::Read),
            Range::new(block(b, e.value), MAX_THREADS as u64, Mode::Read),
        ),
        Kind::BarrierPass => {
            let own = Range::new(block(b, e.value) + e.tid as u64, 1, Mode::Write);
            let claim = if e.aux & UNUSED != 0 {
                None
            } else if e.failed() {
                Range::new(block(b, e.value) + BLOCK - 1, 1, Mode::Read)
            } else {
                Range::new(block(b, e.value) + BLOCK - 1, 1, Mode::Write)
            };
            Footprint::two(own, claim)
        }
        // Initialization and destruction: the object and its names.
        _ => Footprint::two(
            Range::new(b, SIZE, Mode::Write),
            Range::new(names(b), BLOCKS * BLOCK, Mode::Write),
        ),
    }
}

/// Did `c` end the round that the pass `e` waits for? Ordered, its last arrival did; else
/// every arrival of that round is needed.
pub(super) fn enables(e: &Event, c: &Event) -> bool {
    e.kind() == Kind::BarrierPass
        && c.kind() == Kind::BarrierWait
        && c.addr == e.addr
        && c.value == e.value
        && !(ordered(c) && c.failed())
}

/// A pass waits until the round it arrived in (its `value`) has ended.
pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    e.kind() != Kind::BarrierPass || w.sync_word(e.addr + ROUND) as u64 != e.value
}

/// Using a barrier never initialized or destroyed, or destroying one that threads wait
/// at (they arrived in the current round, which has not ended).
pub(super) fn misuse<W: World>(w: &W, e: &Event) -> Option<super::Misuse> {
    use super::Misuse::*;
    if !matches!(e.kind(), Kind::BarrierWait | Kind::BarrierDestroy) {
        return None;
    }
    match w.sync_word(e.addr + NEEDED) {
        0 => Some(Uninitialized),
        DESTROYED => Some(UseDestroyed),
        _ if e.kind() == Kind::BarrierDestroy && w.sync_word(e.addr + ARRIVED) > 0 => {
            Some(DestroyWaitedOn)
        }
        _ => None,
    }
}

/// Thread `e.tid` is about to arrive at a barrier whose arrivals commute: it is in the
/// current round (which cannot end without it while no more threads use the barrier than
/// it waits for), and it uses the barrier; a thread more than it waits for is an overflow.
pub(super) fn announce<W: World>(w: &mut W, e: &mut Event) {
    let b = e.addr;
    if e.kind() != Kind::BarrierWait || ordered(e) {
        return;
    }
    let n = w.sync_word(b + NEEDED);
    if n == 0 || n == DESTROYED {
        return; // a misuse, reported as it executes
    }
    e.value = w.sync_word(b + ROUND) as u64;
    let gen = w.sync_word(b + GENERATION);
    if w.thread_word(e.tid, registered(b)) != gen {
        w.set_thread_word(e.tid, registered(b), gen);
        let users = w.sync_word(b + PARTICIPANTS) + 1;
        w.set_sync_word(b + PARTICIPANTS, users);
        if users > n {
            w.barrier_overflow();
        }
    }
}

/// Executes `e` at step `step`; a pass, or an ordered arrival, returns `SERIAL_THREAD`
/// when it is the serial thread.
pub(super) fn execute<W: World>(w: &mut W, e: &mut Event, step: u32) -> i32 {
    let b = e.addr;
    match e.kind() {
        Kind::BarrierInit => {
            w.set_sync_word(b + ARRIVED, 0);
            w.set_sync_word(b + NEEDED, e.value as u32);
            w.set_sync_word(b + ROUND, 0);
            w.set_sync_word(b + CLAIMED, 0);
            // Unique in the execution, never 0 (a thread word not set).
            w.set_sync_word(b + GENERATION, step + 1);
            w.set_sync_word(b + PARTICIPANTS, 0);
        }
        Kind::BarrierWait => {
            let r = w.sync_word(b + ROUND);
            e.value = r as u64;
            let n = w.sync_word(b + ARRIVED) + 1;
            if n >= w.sync_word(b + NEEDED) {
                w.set_sync_word(b + ARRIVED, 0);
                w.set_sync_word(b + ROUND, r.wrapping_add(1));
                if ordered(e) {
                    return SERIAL_THREAD;
                }
            } else {
                w.set_sync_word(b + ARRIVED, n);
                if ordered(e) {
                    e.flags |= FLAG_FAILED;
                }
            }
        }
        Kind::BarrierPass if ordered(e) || e.aux & UNUSED != 0 => {}
        Kind::BarrierPass => {
            let mine = (e.value as u32).wrapping_add(1);
            if w.sync_word(b + CLAIMED) == mine {
                e.flags |= FLAG_FAILED;
            } else {
                w.set_sync_word(b + CLAIMED, mine);
                return SERIAL_THREAD;
            }
        }
        Kind::BarrierDestroy => w.set_sync_word(b + NEEDED, DESTROYED),
        _ => {}
    }
    0
}

/// The words of barrier `b`, initialized to wait for `count` threads before any event
/// (the simulator's barriers): as `BarrierInit` at step 0 leaves them, the zeros aside.
pub fn initialized(b: u64, count: u32) -> [(u64, u32); 2] {
    [(b + NEEDED, count), (b + GENERATION, 1)]
}

/// How many threads have arrived in the current round, and how many it waits for.
pub fn progress<W: World>(w: &W, b: u64) -> (u32, u32) {
    (w.sync_word(b + ARRIVED), w.sync_word(b + NEEDED))
}

/// Did `e` return `SERIAL_THREAD`: an ordered arrival that ended its round, or a pass
/// that claimed its round's serial return?
pub fn is_serial(e: &Event) -> bool {
    match e.kind() {
        Kind::BarrierWait => ordered(e) && !e.failed(),
        Kind::BarrierPass => !ordered(e) && e.aux & UNUSED == 0 && !e.failed(),
        _ => false,
    }
}

/// Does an ordered arrival need a pass after it (it did not end its round)? A commuting
/// one always does.
pub fn passes(arrival: &Event) -> bool {
    !ordered(arrival) || arrival.failed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{dependent, enabled, execute};

    /// An ordered arrival.
    fn arrive(w: &mut TestWorld, t: u32) -> (Event, i32) {
        let mut e = Event {
            aux: ORDERED,
            ..Event::on(t, Kind::BarrierWait, 64)
        };
        let r = execute(w, &mut e, 0);
        (e, r)
    }

    fn init(w: &mut TestWorld, count: u64, step: u32) {
        let mut init = Event {
            value: count,
            ..Event::on(0, Kind::BarrierInit, 64)
        };
        execute(w, &mut init, step);
    }

    /// A commuting arrival, announced first.
    fn arrive_commuting(w: &mut TestWorld, t: u32) -> Event {
        let mut e = Event::on(t, Kind::BarrierWait, 64);
        crate::ops::announce(w, &mut e);
        assert_eq!(execute(w, &mut e, 0), 0);
        e
    }

    fn pass(a: &Event, aux: u32) -> Event {
        Event {
            value: a.value,
            aux,
            ..Event::on(a.tid, Kind::BarrierPass, 64)
        }
    }

    #[test]
    fn commuting_arrivals_all_pass_and_the_first_pass_is_the_serial_thread() {
        let mut w = TestWorld::default();
        init(&mut w, 3, 0);
        let a: Vec<Event> = (1..=3).map(|t| arrive_commuting(&mut w, t)).collect();
        assert!(a.iter().all(|e| !e.failed() && e.value == 0 && passes(e)));
        assert_eq!(progress(&w, 64), (0, 3), "the round is over");
        let mut p: Vec<Event> = a.iter().map(|a| pass(a, 0)).collect();
        assert!(p.iter().all(|p| enabled(&w, p)));
        let results: Vec<i32> = (p.iter_mut()).map(|p| execute(&mut w, p, 0)).collect();
        assert_eq!(results, [SERIAL_THREAD, 0, 0]);
        assert!(is_serial(&p[0]) && !is_serial(&p[1]) && p[1].failed());
        // The next round's first pass is its serial thread again.
        let next = arrive_commuting(&mut w, 2);
        assert_eq!(next.value, 1);
        assert!(!enabled(&w, &pass(&next, 0)), "one of three");
        // Where no call uses the result, nobody claims it.
        let mut quiet = pass(&a[0], UNUSED);
        assert_eq!(execute(&mut w, &mut quiet, 0), 0);
        assert!(!is_serial(&quiet));
        assert!(!w.overflow);
    }

    #[test]
    fn commuting_arrivals_of_a_round_commute_and_its_passes_follow_them_all() {
        let arrival = |t, round| Event {
            value: round,
            ..Event::on(t, Kind::BarrierWait, 64)
        };
        let (a1, a2) = (arrival(1, 0), arrival(2, 0));
        assert!(!dependent(&a1, &a2));
        let (p1, p2) = (pass(&a1, 0), pass(&a2, 0));
        assert!(
            dependent(&p1, &a2) && dependent(&p2, &a1),
            "a pass waits for all"
        );
        assert!(enables(&p1, &a2) && enables(&p1, &a1));
        assert!(dependent(&p1, &p2), "both may claim the serial return");
        let failed = |p: &Event| Event {
            flags: FLAG_FAILED,
            ..*p
        };
        assert!(
            !dependent(&failed(&p1), &failed(&p2)),
            "failed claims only read"
        );
        assert!(!dependent(&pass(&a1, UNUSED), &pass(&a2, UNUSED)));
        assert!(
            !dependent(&pass(&a1, 0), &arrival(2, 1)),
            "the next round's arrival"
        );
        let init = Event::on(0, Kind::BarrierInit, 64);
        assert!([a1, p1, pass(&a1, UNUSED)]
            .iter()
            .all(|e| dependent(&init, e)));
        // Names are no memory of the program.
        assert!(footprint(&a1)
            .ranges()
            .any(|r| crate::layout::is_name(r.lo)));
    }

    #[test]
    fn more_threads_than_a_barrier_waits_for_is_an_overflow_once_they_use_it() {
        let mut w = TestWorld::default();
        init(&mut w, 2, 4);
        arrive_commuting(&mut w, 1);
        arrive_commuting(&mut w, 2);
        // Thread 1 again, in the next round: still two threads.
        arrive_commuting(&mut w, 1);
        assert!(!w.overflow);
        let mut third = Event::on(3, Kind::BarrierWait, 64);
        crate::ops::announce(&mut w, &mut third);
        assert!(w.overflow, "announced, not yet arrived");
        // Initialized again, it counts afresh.
        let mut w2 = TestWorld::default();
        init(&mut w2, 2, 0);
        arrive_commuting(&mut w2, 1);
        init(&mut w2, 2, 7);
        arrive_commuting(&mut w2, 2);
        arrive_commuting(&mut w2, 3);
        assert!(!w2.overflow);
        // Ordered arrivals are not counted.
        let mut ordered = Event {
            aux: ORDERED,
            ..Event::on(4, Kind::BarrierWait, 64)
        };
        crate::ops::announce(&mut w2, &mut ordered);
        assert!(!w2.overflow);
    }

    #[test]
    fn the_last_of_n_ordered_arrivals_ends_the_round_and_is_the_serial_thread() {
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
            aux: ORDERED,
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
    fn ordered_arrivals_race_and_a_pass_commutes_with_the_next_rounds_arrivals() {
        let arrival = |t, failed: bool| Event {
            flags: if failed { FLAG_FAILED } else { 0 },
            aux: ORDERED,
            ..Event::on(t, Kind::BarrierWait, 64)
        };
        assert!(dependent(&arrival(1, true), &arrival(2, true)));
        let pass = Event {
            aux: ORDERED,
            ..Event::on(1, Kind::BarrierPass, 64)
        };
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
