//! Awaits: a spin loop whose last iteration changed nothing (it only read, or wrote
//! bytes that already held what it wrote, or failed a cmpxchg or a trylock) and whose
//! loop-carried values came back the same would repeat that iteration exactly as long as
//! the bytes it touched keep their values. Such an iteration is a no-op: deleting it from
//! an execution leaves an execution of the program. So its thread stops there for good
//! (an `Await` event that never runs), as Nidhugg and GenMC stop a spin loop that read
//! what makes it go round. What it would do once another thread changes those bytes is
//! explored by the execution in which it runs the loop after that change: its reads
//! race with the change, and reversing the race runs them later.
//!
//! At the end of an execution, then, a spinning thread either read bytes that another
//! thread changed after it read them (`stale`): the execution is redundant, covered by
//! the one in which the loop runs after the change, and ends neither in a deadlock nor
//! in a livelock; or it read what memory still holds, and would go round for ever: a
//! livelock, if no thread can run.
//!
//! An atomic function that waits for its assumption (`__VERIFIER_assume`) is a blocking
//! wait like a lock's, left pending only when no thread can run (the execution ends
//! there): its `Await` watches the bytes the function read, kept as at most two ranges,
//! the smallest that cover them (a covering range conflicts with more writes, which is
//! safe). It reads them all, so it races with the writes that could have made the
//! assumption hold the way a blocked lock races with the unlock.

use super::{Footprint, Mode, Range};
use crate::event::{Event, Kind, FLAG_FAILED, FLAG_SCAN, FLAG_SILENT, FLAG_WHOLE};
use crate::Tid;

/// Flag on an `Await`: an atomic function waits for its assumption
/// (`__VERIFIER_assume`) to hold; it is a blocking wait like a lock's, not a spin.
pub const FLAG_ASSUMPTION: u8 = crate::event::FLAG_ATOMIC;

/// The flags of a loop head's hook (`__cdpor_loop`, from the instrumentation): reached
/// through a back edge; the loop's effects are all events and its values (it may wait);
/// an iteration may read `errno`.
pub const LOOP_BACK: u32 = 1;
pub const LOOP_MAY_WAIT: u32 = 2;
pub const LOOP_ERRNO: u32 = 4;
/// The flag of a retry loop (`old = x; while (!cas(&x, &old, f(old)));`): its head's
/// values come, on entry, from a load of the bytes its compare-and-swap works on, which
/// is the thread's last event before the loop and whose value nothing else uses. A first
/// try that fails, changing nothing but those values, and leaving them as what it read,
/// is redundant (`retry_redundant` in the runtime, `docs/reductions.md`).
pub const LOOP_RETRY: u32 = 8;
/// The flag of a memoryless loop (`a = x; while (a != 0) a = x;`, see
/// `src/instrument/memoryless.rs`): its values only decide whether it leaves, and each
/// iteration computes them afresh from what it reads. Its hook is where the head decided
/// to go round; an iteration that changed nothing waits, whatever its values.
pub const LOOP_MEMORYLESS: u32 = 16;
/// With `LOOP_MEMORYLESS`: the values on entry are those of one load, the thread's last
/// event before the loop, that the body's load repeats. A first iteration whose one
/// event reads those bytes, changed since, is redundant (`retry_redundant`).
pub const LOOP_PEELED: u32 = 32;
/// A loop that can never be left, make an event or fault (`src/instrument/loops.rs`:
/// `is_endless`): its thread computes for ever without effect on anything another
/// thread or the program's end can see. At its first back edge the thread waits for
/// good, as in a spin that nothing can end, and the other threads go on.
pub const LOOP_ENDLESS: u32 = 64;
/// No edge leaves the loop (`for (;;) atomic_fetch_add(&n, 1);`): running it alone longer
/// only makes more of the same iterations, so they all count toward `--unroll`, even
/// those no other thread has yet seen (`private_since` in the runtime). Otherwise each
/// point at which another thread looks would be explored, up to `--max-steps`.
pub const LOOP_NO_EXIT: u32 = 128;

/// Is `e` a loop's await (whose thread spins, as opposed to blocking or being stopped)?
pub fn spins(e: &Event) -> bool {
    e.kind() == Kind::Await && e.flags & (FLAG_ASSUMPTION | FLAG_FAILED) == 0
}

/// The pending event of a thread stopped by a bound (`--unroll`) at `site`: an await
/// on nothing, which nothing wakes.
pub fn stop(site: u32) -> Event {
    Event {
        site,
        flags: FLAG_FAILED,
        ..Event::new(0, Kind::Await)
    }
}

/// Is `e` the pending event of a thread stopped by a bound?
pub fn stopped(e: &Event) -> bool {
    e.kind() == Kind::Await && e.flags & FLAG_FAILED != 0
}

/// The bytes an iteration depended on, covered by at most two ranges.
#[derive(Clone, Copy, Debug, Default)]
pub struct Watch {
    parts: [(u64, u64); 2],
    n: usize,
}

impl Watch {
    pub fn add(&mut self, r: &Range) {
        let (mut lo, mut hi) = (r.lo, r.hi);
        // Absorb the parts it touches.
        let mut i = 0;
        while i < self.n {
            let (a, b) = self.parts[i];
            if a <= hi && lo <= b {
                lo = lo.min(a);
                hi = hi.max(b);
                self.parts[i] = self.parts[self.n - 1];
                self.n -= 1;
            } else {
                i += 1;
            }
        }
        if self.n < 2 {
            self.parts[self.n] = (lo, hi);
            self.n += 1;
            return;
        }
        // Three disjoint ranges: join the two whose cover is smallest.
        let cover = |x: (u64, u64), y: (u64, u64)| (x.0.min(y.0), x.1.max(y.1));
        let len = |x: (u64, u64)| x.1 - x.0;
        let [p, q] = self.parts;
        let new = (lo, hi);
        let options = [[cover(p, new), q], [p, cover(q, new)], [cover(p, q), new]];
        self.parts = *options
            .iter()
            .min_by_key(|o| len(o[0]).saturating_add(len(o[1])))
            .expect("three options");
        // A joined part may now touch the other.
        if self.parts[0].0 <= self.parts[1].1 && self.parts[1].0 <= self.parts[0].1 {
            self.parts = [cover(self.parts[0], self.parts[1]), (0, 0)];
            self.n = 1;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The bytes watched, as reads.
    pub fn footprint(&self) -> Footprint {
        watched(&event(self, 0))
    }

    /// The covering ranges, as `[lo, hi)` pairs.
    pub fn parts(&self) -> &[(u64, u64)] {
        &self.parts[..self.n]
    }
}

/// An `Await` on the bytes of `watch` (what the report shows it waits for, and what an
/// assumption's races with), at the loop `site`. Which bytes depends on the values the
/// loop read, so the loop is its identity (`FLAG_SCAN`).
pub fn event(watch: &Watch, site: u32) -> Event {
    let mut e = Event {
        site,
        flags: FLAG_SCAN,
        ..Event::new(0, Kind::Await)
    };
    let fits = |p: (u64, u64)| p.1 - p.0 <= u32::MAX as u64;
    if !watch.parts[..watch.n].iter().all(|&p| fits(p)) {
        // Too far apart for the record: it watches all memory.
        e.flags |= FLAG_WHOLE;
        return e;
    }
    if watch.n > 0 {
        e.addr = watch.parts[0].0;
        e.len = (watch.parts[0].1 - watch.parts[0].0) as u32;
    }
    if watch.n > 1 {
        e.arg = watch.parts[1].0;
        e.arg_len = (watch.parts[1].1 - watch.parts[1].0) as u32;
    }
    e
}

pub(super) fn footprint(e: &Event) -> Footprint {
    // Its loop's reads are what races with the change a spin waits for.
    if spins(e) {
        Footprint::NONE
    } else {
        watched(e)
    }
}

/// The bytes an `Await` watches, as `event` recorded them.
pub fn watched(e: &Event) -> Footprint {
    if e.flags & FLAG_WHOLE != 0 {
        return Footprint::one(Range::new(0, u64::MAX, Mode::Read));
    }
    Footprint::two(
        Range::new(e.addr, e.len as u64, Mode::Read),
        Range::new(e.arg, e.arg_len as u64, Mode::Read),
    )
}

/// Did `e` change memory or the synchronization state? Events that did not are what a
/// spinning iteration is made of; any other event is progress (a lock, a nondeterministic
/// value, a thread created...).
pub fn changes_state(e: &Event) -> bool {
    match e.kind() {
        Kind::Read | Kind::Fence | Kind::Await => false,
        Kind::SemGetValue => false,
        Kind::CmpXchg
        | Kind::TryLock
        | Kind::SemTryWait
        | Kind::TryRdLock
        | Kind::TryWrLock
        | Kind::RwUnlock
        | Kind::Lock
        | Kind::Unlock
        | Kind::OnceBegin
        | Kind::CondSignal
        | Kind::CondBroadcast
            if e.flags & FLAG_FAILED != 0 =>
        {
            false
        }
        Kind::Write | Kind::Rmw | Kind::CmpXchg | Kind::Atomic => e.flags & FLAG_SILENT == 0,
        Kind::Lib => super::footprint(e).ranges().any(|r| r.mode.writes()),
        _ => true,
    }
}

/// Did another thread change what thread `t` accessed in the loop iteration that made
/// it spin, after it accessed it? `since` is the execution from that iteration's start.
/// Exact bytes, not the covering watch: a change next to them would leave the loop to
/// spin again, and calling it stale would hide a livelock.
pub fn stale(t: Tid, since: impl Iterator<Item = Event>) -> bool {
    let mut accessed: Vec<Footprint> = Vec::new();
    for e in since {
        if e.tid == t {
            accessed.push(super::footprint(&e));
        } else if !accessed.is_empty() && changes_state(&e) {
            let fp = super::footprint(&e);
            if accessed.iter().any(|a| a.conflicts(&fp, true)) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{dependent, enabled};

    fn range(lo: u64, len: u64) -> Range {
        Range::new(lo, len, Mode::Read).unwrap()
    }

    #[test]
    fn watches_cover_every_byte_in_two_ranges() {
        let mut w = Watch::default();
        for (lo, len) in [(100, 4), (104, 4), (4000, 8), (120, 1)] {
            w.add(&range(lo, len));
        }
        let fp = w.footprint();
        for probe in [100, 107, 120, 4007] {
            assert!(
                fp.ranges().any(|r| r.lo <= probe && probe < r.hi),
                "{probe}"
            );
        }
        assert_eq!(fp.ranges().count(), 2);
        let far = {
            let mut w = Watch::default();
            w.add(&range(0x1000, 4));
            w.add(&range(0x2000_0000_0000, 4));
            w.add(&range(0x7fff_0000_0000, 4));
            let mut e = event(&w, 7);
            e.flags |= FLAG_ASSUMPTION;
            e
        };
        assert!(dependent(
            &far,
            &Event::mem(2, Kind::Write, 0x5000_0000_0000, 1)
        ));
    }

    #[test]
    fn an_await_never_runs_and_only_an_assumption_races() {
        let w = TestWorld::default();
        let mut watch = Watch::default();
        watch.add(&range(64, 4));
        let spin = Event {
            tid: 1,
            ..event(&watch, 3)
        };
        let assumption = Event {
            flags: FLAG_SCAN | FLAG_ASSUMPTION,
            ..spin
        };
        assert!(spins(&spin) && !spins(&assumption));
        let write = Event::mem(2, Kind::Write, 66, 1);
        let read = Event::mem(2, Kind::Read, 64, 4);
        assert!(!enabled(&w, &spin) && !enabled(&w, &assumption));
        assert!(!dependent(&spin, &write));
        assert!(dependent(&assumption, &write) && !dependent(&assumption, &read));
    }

    #[test]
    fn a_spin_is_stale_when_another_thread_changed_a_byte_it_had_read() {
        let read = Event::mem(1, Kind::Read, 64, 4);
        let change = Event::mem(2, Kind::Write, 66, 1);
        let beside = Event::mem(2, Kind::Write, 68, 4);
        let same = Event {
            flags: FLAG_SILENT,
            ..change
        };
        let own = Event::mem(1, Kind::Write, 64, 4);
        assert!(stale(1, [read, change].into_iter()));
        assert!(
            !stale(1, [change, read].into_iter()),
            "changed before it read"
        );
        assert!(!stale(1, [read, beside, same, own].into_iter()));
    }

    #[test]
    fn progress() {
        let silent = Event {
            flags: FLAG_SILENT,
            ..Event::mem(1, Kind::Rmw, 8, 4)
        };
        assert!(!changes_state(&silent));
        assert!(changes_state(&Event::mem(1, Kind::Rmw, 8, 4)));
        let busy = Event {
            flags: FLAG_FAILED,
            ..Event::on(1, Kind::TryLock, 8)
        };
        assert!(!changes_state(&busy));
        assert!(changes_state(&Event::new(1, Kind::Nondet)));
    }
}
