//! Nondeterministic values (`__VERIFIER_nondet_*`): the checker chooses one, like it
//! chooses a waiter for a signal. The domain is a range of `choices` consecutive values
//! from `arg` (as a signed 64-bit number; the program truncates it to its type). A value
//! touches no memory, so it is independent of every other thread's events: its
//! alternatives add executions, never races.

use super::World;
use crate::event::{Event, Kind, FLAG_RESTRICTED, FLAG_VALUE};

/// The largest domain explored for one value.
pub const MAX_CHOICES: u64 = 1 << 16;

/// A `Nondet` event over `[lo, lo + n)`; `restricted`: the type has values outside it.
pub fn event(lo: i64, n: u32, restricted: bool, site: u32) -> Event {
    Event {
        arg: lo as u64,
        choices: n,
        site,
        flags: if restricted { FLAG_RESTRICTED } else { 0 },
        ..Event::new(0, Kind::Nondet)
    }
}

/// The domain of an integer of `bits` bits (`signed` or not) given the default range
/// `[lo, hi]` for types too wide to explore whole: the first value, how many, and
/// whether that leaves values of the type out.
pub fn domain(bits: u32, signed: bool, lo: i64, hi: i64) -> (i64, u32, bool) {
    if bits == 0 {
        return (0, 1, true);
    }
    // Wider integers take the range too (sign-extended by the program).
    let bits = bits.min(64);
    let (tmin, tmax): (i128, i128) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    if tmax - tmin < MAX_CHOICES as i128 && bits <= 8 {
        return (tmin as i64, (tmax - tmin + 1) as u32, false);
    }
    // Values of the range the type can hold, and for unsigned types the negative ones
    // wrapped around (-1 is the largest value).
    let (lo, hi) = (lo as i128, hi as i128);
    let covers = lo <= tmin && hi >= tmax;
    let (lo, hi) = if covers { (tmin, tmax) } else { (lo, hi) };
    let n = (hi - lo + 1).clamp(1, MAX_CHOICES as i128);
    (lo as i64, n as u32, !covers)
}

pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) {
    e.choice = w.choose(e.choices.max(1));
    e.value = e.arg.wrapping_add(e.choice as u64);
    e.flags |= FLAG_VALUE;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::dependent;

    #[test]
    fn small_types_are_explored_whole_and_wide_ones_over_the_range() {
        assert_eq!(domain(1, false, -1, 3), (0, 2, false));
        assert_eq!(domain(8, true, -1, 3), (-128, 256, false));
        assert_eq!(domain(8, false, -1, 3), (0, 256, false));
        assert_eq!(domain(32, true, -1, 3), (-1, 5, true));
        assert_eq!(domain(128, true, -1, 3), (-1, 5, true));
        assert_eq!(domain(16, false, 0, 65535), (0, 65536, false));
        assert_eq!(domain(16, true, -40000, 40000), (-32768, 65536, false));
    }

    #[test]
    fn values_are_independent_of_other_threads() {
        let v = Event {
            tid: 1,
            ..event(0, 2, false, 1)
        };
        assert!(!dependent(&v, &Event::mem(2, Kind::Write, 64, 8)));
        assert!(dependent(&v, &Event::mem(1, Kind::Write, 64, 8)));
    }
}
