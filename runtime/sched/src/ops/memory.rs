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

pub(super) fn footprint(e: &Event) -> Footprint {
    let at = |mode| Range::new(e.addr, e.len as u64, mode);
    match e.kind() {
        Kind::Read => Footprint::one(at(Mode::Read)),
        Kind::Write => Footprint::one(at(Mode::Write)),
        Kind::Rmw => Footprint::one(at(Mode::ReadWrite)),
        Kind::CmpXchg if e.failed() => Footprint::one(at(Mode::Read)),
        Kind::CmpXchg => Footprint::one(at(Mode::ReadWrite)),
        Kind::Copy => Footprint::two(
            at(Mode::Write),
            Range::new(e.arg, e.arg_len as u64, Mode::Read),
        ),
        Kind::Lib => Footprint::two(
            mode(e.modes).and_then(at),
            mode(e.modes >> 2).and_then(|m| Range::new(e.arg, e.arg_len as u64, m)),
        ),
        _ => Footprint::NONE,
    }
}

#[cfg(test)]
mod tests {
    use crate::event::{Event, Kind, FLAG_FAILED, FLAG_NO_COMMUTE};
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
