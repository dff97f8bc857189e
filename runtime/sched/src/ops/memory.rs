//! Memory accesses: loads, stores, atomics, copies, and the accesses a C library function
//! makes on the program's behalf. Always enabled; what they do to memory is the
//! program's (or, for `FLAG_STORE` writes, the runtime's) business.

use super::{Footprint, Mode, Range};
use crate::event::{Event, Kind};

/// `Lib` event modes: two bits per range (`addr` range, then `arg` range).
pub const MODE_NONE: u8 = 0;
pub const MODE_READ: u8 = 1;
pub const MODE_WRITE: u8 = 2;
pub const MODE_READ_WRITE: u8 = 3;

/// The `modes` byte of a `Lib` event whose range at `addr` is used as `a` and the one at
/// `arg` as `b`.
pub const fn modes(a: u8, b: u8) -> u8 {
    a | b << 2
}

fn mode(bits: u8) -> Option<Mode> {
    match bits & 3 {
        MODE_READ => Some(Mode::Read),
        MODE_WRITE => Some(Mode::Write),
        MODE_READ_WRITE => Some(Mode::ReadWrite),
        _ => None,
    }
}

/// Is `e` an access of the program's to memory (one a data race can be made of)?
pub fn access(e: &Event) -> bool {
    matches!(
        e.kind(),
        Kind::Read | Kind::Write | Kind::Rmw | Kind::CmpXchg | Kind::Copy | Kind::Lib
    )
}

/// Is the access `e` atomic: an atomic instruction (a read-modify-write always is)?
pub fn atomic(e: &Event) -> bool {
    matches!(e.kind(), Kind::Rmw | Kind::CmpXchg)
        || e.flags & crate::event::FLAG_ATOMIC != 0 && matches!(e.kind(), Kind::Read | Kind::Write)
}

pub(super) fn footprint(e: &Event) -> Footprint {
    let at = |mode| Range::new(e.addr, e.len as u64, mode);
    match e.kind() {
        Kind::Read => Footprint::one(at(Mode::Read)),
        Kind::Write | Kind::Free => Footprint::one(at(Mode::Write)),
        // Under sequential consistency, an exchange that wrote what memory held (a
        // test-and-set that found the lock taken) is a read: no thread can tell it from
        // one, so spinners' failed attempts commute.
        Kind::Rmw | Kind::CmpXchg if e.failed() => Footprint::one(at(Mode::Read)),
        Kind::Rmw => Footprint::one(at(Mode::ReadWrite)),
        Kind::CmpXchg => Footprint::one(at(Mode::ReadWrite)),
        Kind::Copy => Footprint::two(
            at(Mode::Write),
            Range::new(e.arg, e.arg_len as u64, Mode::Read),
        ),
        Kind::Atomic => section_footprint(e),
        Kind::Lib => Footprint::two(
            mode(e.modes).and_then(at),
            mode(e.modes >> 2).and_then(|m| Range::new(e.arg, e.arg_len as u64, m)),
        ),
        _ => Footprint::NONE,
    }
}

/// The ranges of an event that holds an atomic section's `Summary`.
pub(super) fn section_footprint(e: &Event) -> Footprint {
    let (a, b) = Summary::lengths(e);
    Footprint::two(
        mode(e.modes).and_then(|m| Range::new(e.addr, a, m)),
        mode(e.modes >> 2).and_then(|m| Range::new(e.arg, b, m)),
    )
}

/// The accesses of an atomic section, in the two ranges an event holds: exactly while
/// they fit in two ranges, else one range that covers every byte the section read and
/// one that covers every byte it wrote (more bytes than it touched, which only adds
/// dependence). Covers can span regions (globals and heap), so an `Atomic` event keeps
/// its lengths in 64 bits: the first in `value`, the second in `aux:arg_len`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    parts: [(u64, u64, u8); 2],
    n: usize,
    overflow: bool,
    read: Option<(u64, u64)>,
    write: Option<(u64, u64)>,
}

impl Summary {
    /// Adds `[lo, lo+len)` used with `mode` (`MODE_*` bits).
    pub fn add(&mut self, lo: u64, len: u64, mode: u8) {
        if len == 0 || mode == MODE_NONE {
            return;
        }
        let hi = lo.saturating_add(len);
        let widen = |c: &mut Option<(u64, u64)>| {
            *c = Some(c.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        };
        if mode & MODE_READ != 0 {
            widen(&mut self.read);
        }
        if mode & MODE_WRITE != 0 {
            widen(&mut self.write);
        }
        if self.overflow {
            return;
        }
        let (mut lo, mut hi, mut mode) = (lo, hi, mode);
        // Merge with every part it overlaps or touches; what remains is disjoint.
        let mut kept = Vec::with_capacity(2);
        for &(a, b, m) in &self.parts[..self.n] {
            if a <= hi && lo <= b {
                lo = lo.min(a);
                hi = hi.max(b);
                mode |= m;
            } else {
                kept.push((a, b, m));
            }
        }
        kept.push((lo, hi, mode));
        if kept.len() > 2 {
            self.overflow = true;
        } else {
            self.n = kept.len();
            self.parts[..self.n].copy_from_slice(&kept);
        }
    }

    /// Adds a range of an access's footprint.
    pub fn add_range(&mut self, r: &Range) {
        let bits = match r.mode {
            Mode::Read => MODE_READ,
            Mode::Write => MODE_WRITE,
            Mode::ReadWrite => MODE_READ_WRITE,
        };
        self.add(r.lo, r.hi - r.lo, bits);
    }

    /// Writes the summary into the `Atomic` event `e`.
    pub fn store(&self, e: &mut Event) {
        let parts: [(u64, u64, u8); 2] = if self.overflow {
            let r = self
                .read
                .map_or((0, 0, MODE_NONE), |(a, b)| (a, b, MODE_READ));
            let w = self
                .write
                .map_or((0, 0, MODE_NONE), |(a, b)| (a, b, MODE_READ_WRITE));
            [r, w]
        } else {
            let mut p = [(0, 0, MODE_NONE); 2];
            p[..self.n].copy_from_slice(&self.parts[..self.n]);
            p
        };
        let (a, b) = (parts[0].1 - parts[0].0, parts[1].1 - parts[1].0);
        e.addr = parts[0].0;
        e.value = a;
        e.len = a.min(u32::MAX as u64) as u32;
        e.arg = parts[1].0;
        e.arg_len = b as u32;
        e.aux = (b >> 32) as u32;
        e.modes = modes(parts[0].2, parts[1].2);
    }

    /// The lengths of an `Atomic` event's two ranges.
    pub fn lengths(e: &Event) -> (u64, u64) {
        (e.value, (e.aux as u64) << 32 | e.arg_len as u64)
    }
}

#[cfg(test)]
mod tests {
    use crate::event::{Event, Kind, FLAG_FAILED, FLAG_NO_COMMUTE, FLAG_SILENT};
    use crate::ops::dependent;

    #[test]
    fn reads_commute_and_overlapping_writes_do_not() {
        let r1 = Event::mem(1, Kind::Read, 100, 4);
        let r2 = Event::mem(2, Kind::Read, 100, 4);
        let w = Event::mem(2, Kind::Write, 102, 1);
        let w_far = Event::mem(2, Kind::Write, 104, 4);
        assert!(!dependent(&r1, &r2));
        assert!(
            dependent(&r1, &w),
            "a byte store into an int conflicts with the int's read"
        );
        assert!(!dependent(&r1, &w_far), "adjacent bytes do not overlap");
        let classic = Event {
            flags: FLAG_NO_COMMUTE,
            ..r1
        };
        assert!(
            dependent(&classic, &r2),
            "classic DPOR: reads do not commute"
        );
    }

    #[test]
    fn copies_conflict_through_either_range() {
        let c = Event {
            arg: 100,
            arg_len: 16,
            ..Event::mem(1, Kind::Copy, 200, 16)
        };
        assert!(dependent(&c, &Event::mem(2, Kind::Write, 108, 8)));
        assert!(!dependent(&c, &Event::mem(2, Kind::Read, 108, 8)));
        assert!(dependent(&c, &Event::mem(2, Kind::Read, 200, 1)));
    }

    #[test]
    fn a_failed_cmpxchg_only_reads() {
        let cas = Event::mem(1, Kind::CmpXchg, 64, 8);
        let failed = Event {
            flags: FLAG_FAILED,
            ..cas
        };
        let read = Event::mem(2, Kind::Read, 64, 8);
        assert!(dependent(&cas, &read));
        assert!(!dependent(&failed, &read));
        assert!(dependent(&crate::ops::attempt(&failed), &read));
    }

    #[test]
    fn an_exchange_that_changed_nothing_only_reads_unless_races_are_checked() {
        let xchg = Event::mem(1, Kind::Rmw, 64, 4);
        let silent = Event {
            flags: FLAG_SILENT,
            ..xchg
        };
        let failed = Event {
            flags: FLAG_SILENT | FLAG_FAILED,
            ..xchg
        };
        let other = Event { tid: 2, ..failed };
        let read = Event::mem(2, Kind::Read, 64, 4);
        assert!(dependent(&xchg, &read) && dependent(&silent, &read));
        assert!(!dependent(&failed, &read) && !dependent(&failed, &other));
        assert!(dependent(&failed, &Event::mem(2, Kind::Write, 64, 1)));
        assert!(dependent(&crate::ops::attempt(&failed), &read));
    }

    #[test]
    fn atomic_sections_keep_two_ranges_exactly_and_cover_more() {
        use super::{Summary, MODE_READ, MODE_WRITE};
        let atomic = |s: &Summary| {
            let mut e = Event::new(1, Kind::Atomic);
            s.store(&mut e);
            e
        };
        let mut s = Summary::default();
        s.add(100, 4, MODE_READ);
        s.add(104, 4, MODE_READ);
        s.add(0x2000_0000_0000, 8, MODE_WRITE);
        let e = atomic(&s);
        assert!(!dependent(&e, &Event::mem(2, Kind::Read, 100, 8)));
        assert!(dependent(&e, &Event::mem(2, Kind::Write, 107, 1)));
        assert!(dependent(
            &e,
            &Event::mem(2, Kind::Read, 0x2000_0000_0004, 1)
        ));
        assert!(!dependent(&e, &Event::mem(2, Kind::Write, 108, 4)));
        // A third range: covers of the reads and of the writes, across regions.
        s.add(200, 4, MODE_READ);
        let e = atomic(&s);
        assert!(dependent(&e, &Event::mem(2, Kind::Write, 150, 1)));
        assert!(dependent(
            &e,
            &Event::mem(2, Kind::Read, 0x2000_0000_0000, 1)
        ));
        assert!(!dependent(&e, &Event::mem(2, Kind::Read, 150, 1)));
        assert!(!dependent(&e, &Event::mem(2, Kind::Write, 50, 4)));
    }

    #[test]
    fn library_accesses_use_their_modes() {
        // strcmp(a, b): reads two strings.
        let cmp = Event {
            arg: 300,
            arg_len: 4,
            modes: super::modes(super::MODE_READ, super::MODE_READ),
            ..Event::mem(1, Kind::Lib, 200, 6)
        };
        assert!(!dependent(&cmp, &Event::mem(2, Kind::Read, 300, 1)));
        assert!(dependent(&cmp, &Event::mem(2, Kind::Write, 303, 1)));
        assert!(!dependent(&cmp, &Event::mem(2, Kind::Write, 304, 1)));
        assert!(dependent(&cmp, &Event::mem(2, Kind::Write, 205, 1)));
    }
}
