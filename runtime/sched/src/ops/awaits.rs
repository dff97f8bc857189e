//! Awaits: a spin loop whose last iteration changed nothing (it only read, or wrote
//! bytes that already held what it wrote, or failed a cmpxchg or a trylock) and whose
//! loop-carried values came back the same would repeat that iteration exactly as long as
//! the bytes it touched keep their values. Its thread then waits (an `Await` event)
//! until another thread changes one of those bytes, and runs the loop again; a program
//! in which no thread can ever do that livelocks.
//!
//! The bytes are kept as at most two ranges, the smallest that cover them (a covering
//! range only wakes the thread more often, which is safe). They include what the
//! iteration wrote without effect: once another thread changes those bytes, the next
//! iteration's write does have one. A waiting `Await` reads them all, so it conflicts
//! exactly with the writes that could wake it, and a blocked await races with those
//! writes the way a blocked lock races with the unlock. Once woken it only lets the loop
//! run again, whatever memory holds by then: it touches nothing, and its waker orders it
//! (so where it runs among the writes that follow makes no other trace).

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, FLAG_FAILED, FLAG_SCAN, FLAG_SILENT, FLAG_WHOLE};

/// Flag on an `Await`: an atomic function waits for its assumption
/// (`__VERIFIER_assume`) to hold; it is a blocking wait like a lock's, not a spin.
pub const FLAG_ASSUMPTION: u8 = crate::event::FLAG_ATOMIC;

/// The flags of a loop head's hook (`__cdpor_loop`, from the instrumentation): reached
/// through a back edge; the loop's effects are all events and its values (it may wait);
/// an iteration may read `errno`.
pub const LOOP_BACK: u32 = 1;
pub const LOOP_MAY_WAIT: u32 = 2;
pub const LOOP_ERRNO: u32 = 4;

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

    /// The covering ranges, as `[lo, hi)` pairs.
    pub fn parts(&self) -> &[(u64, u64)] {
        &self.parts[..self.n]
    }
}

/// An `Await` on the bytes of `watch`, at the loop `site`. Which bytes depends on the
/// values the loop read, so the loop is its identity (`FLAG_SCAN`).
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
    if woken(e) {
        return Footprint::NONE;
    }
    if e.flags & FLAG_WHOLE != 0 {
        return Footprint::one(Range::new(0, u64::MAX, Mode::Read));
    }
    Footprint::two(
        Range::new(e.addr, e.len as u64, Mode::Read),
        Range::new(e.arg, e.arg_len as u64, Mode::Read),
    )
}

/// Has a write woken the pending `Await`?
pub fn woken(e: &Event) -> bool {
    e.value != 0
}

pub(super) fn enabled(e: &Event) -> bool {
    woken(e)
}

/// The write (at `step`) that woke an await.
pub(super) fn enables(e: &Event, step: usize) -> bool {
    e.value == step as u64 + 1
}

/// Did `e` change memory or the synchronization state? Events that did not are what a
/// waiting iteration is made of; any other event is progress (a lock, a nondeterministic
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

/// Wakes the threads whose pending `Await` watches bytes that `e` (executed at `step`)
/// changed; returns how many it woke.
pub fn wake<W: World>(w: &mut W, e: &Event, step: u32) -> u32 {
    if !changes_state(e) {
        return 0;
    }
    let fp = super::footprint(e);
    if !fp.ranges().any(|r| r.mode.writes()) {
        return 0;
    }
    let mut woke = 0;
    for t in w.ready().iter() {
        let p = w.pending(t);
        if t != e.tid && p.kind() == Kind::Await && !woken(p) && footprint(p).conflicts(&fp, true) {
            w.pending_mut(t).value = step as u64 + 1;
            woke += 1;
        }
    }
    woke
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{dependent, enabled, enables};

    fn range(lo: u64, len: u64) -> Range {
        Range::new(lo, len, Mode::Read).unwrap()
    }

    #[test]
    fn watches_cover_every_byte_in_two_ranges() {
        let mut w = Watch::default();
        for (lo, len) in [(100, 4), (104, 4), (4000, 8), (120, 1)] {
            w.add(&range(lo, len));
        }
        let e = event(&w, 7);
        let fp = footprint(&e);
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
            event(&w, 7)
        };
        assert!(dependent(
            &far,
            &Event::mem(2, Kind::Write, 0x5000_0000_0000, 1)
        ));
    }

    #[test]
    fn a_write_to_the_bytes_wakes_the_await_and_enables_it() {
        let mut w = TestWorld::default();
        let mut watch = Watch::default();
        watch.add(&range(64, 4));
        let a = Event {
            tid: 1,
            ..event(&watch, 3)
        };
        w.pending.insert(1, a);
        assert!(!enabled(&w, &a));
        let read = Event::mem(2, Kind::Read, 64, 4);
        wake(&mut w, &read, 5);
        assert!(!woken(&w.pending[&1]), "a read wakes nobody");
        let other = Event::mem(2, Kind::Write, 68, 4);
        wake(&mut w, &other, 6);
        assert!(!woken(&w.pending[&1]));
        let write = Event::mem(2, Kind::Write, 66, 1);
        let silent = Event {
            flags: FLAG_SILENT,
            ..write
        };
        wake(&mut w, &silent, 6);
        assert!(
            !woken(&w.pending[&1]),
            "a write that changed nothing wakes nobody"
        );
        assert!(dependent(&a, &write) && !dependent(&a, &read));
        wake(&mut w, &write, 7);
        let woken_await = w.pending[&1];
        assert!(enabled(&w, &woken_await) && enables(&woken_await, &write, 7));
        assert!(
            !dependent(&woken_await, &write),
            "woken, it only lets the loop run again"
        );
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
