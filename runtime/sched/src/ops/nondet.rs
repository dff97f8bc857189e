//! Nondeterministic values (`__VERIFIER_nondet_*`): the checker chooses one, like it
//! chooses a waiter for a signal. A value touches no memory, so it is independent of
//! every other thread's events: its alternatives add executions, never races.
//!
//! The domain is the type's values cut into intervals at the constants the program
//! compares the value with (`cuts`): two values of one interval take the same branches
//! until the program uses the value otherwise (arithmetic, a store, an argument). So an
//! interval is explored by one value when the program never uses the value otherwise,
//! whole when it is at most `WHOLE` values, and else over the values of the
//! `--nondet-range` it holds; such a sampled value makes the execution incomplete when the
//! program does use it (the runtime hears of each use).

use super::World;
use crate::event::{Event, Kind, FLAG_VALUE};

/// The largest domain explored for one value.
pub const MAX_CHOICES: u64 = 1 << 16;

/// Intervals of at most this many values are explored whole (as `char`s are).
pub const WHOLE: u64 = 256;

/// Flags of a call site (`__cdpor_nondet`): the program may use the value other than by
/// comparing it with constants.
pub const USED: u32 = 1;
/// It may do so without reporting the use (`__cdpor_nondet_used`).
pub const UNTRACKED: u32 = 2;

/// A `Nondet` event with `n` choices.
pub fn event(n: u32, site: u32) -> Event {
    Event {
        choices: n,
        site,
        ..Event::new(0, Kind::Nondet)
    }
}

/// The values of a type of `bits` bits (`signed` or not) as numbers, least first.
fn bounds(bits: u32, signed: bool) -> (i128, i128) {
    let bits = bits.clamp(1, 64);
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// A bit pattern of the type's width read as one of its values.
fn number(pattern: u64, bits: u32, signed: bool) -> i128 {
    let bits = bits.clamp(1, 64);
    let low = if bits == 64 {
        pattern
    } else {
        pattern & ((1u64 << bits) - 1)
    };
    if signed && bits < 64 && low >> (bits - 1) & 1 == 1 {
        low as i128 - (1i128 << bits)
    } else if signed {
        low as i64 as i128
    } else {
        low as i128
    }
}

/// Where the intervals of a value of the type begin, ascending, as its values (the first
/// one, which starts at the type's least value, left out), given the constants the
/// program compares it with, as bit patterns truncated to the type.
///
/// A comparison of the value, or of it widened by sign or zero extension, with `c` has
/// one outcome on each of the runs of consecutive values where the widening is
/// increasing (split at 0 and at the sign flip), up to the value whose pattern is `c` and
/// from the one after; so cutting there too keeps every interval of one outcome.
pub fn cuts(bits: u32, signed: bool, constants: impl IntoIterator<Item = u64>) -> Vec<i64> {
    let (tmin, _) = bounds(bits, signed);
    let sign_flip = 1u64 << (bits.clamp(1, 64) - 1);
    let mut out: Vec<i128> = [0, sign_flip]
        .into_iter()
        .chain(constants.into_iter().flat_map(|c| [c, c.wrapping_add(1)]))
        .map(|p| number(p, bits, signed))
        .filter(|&v| v != tmin)
        .collect();
    out.sort_unstable();
    out.dedup();
    // As the 64-bit pattern: `number` reads it back.
    out.into_iter().map(|v| v as i64).collect()
}

/// How a value is explored: the intervals and what the program does with it.
#[derive(Clone, Copy, Debug)]
pub struct Domain<'a> {
    pub bits: u32,
    pub signed: bool,
    /// From `cuts`.
    pub cuts: &'a [i64],
    /// The values a wide interval is sampled over (`--nondet-range`).
    pub range: (i64, i64),
    /// The program may use the value other than by comparing it with constants.
    pub used: bool,
}

/// Values explored for one interval: `count` from `first`; `sampled`: the interval has
/// values left out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    first: i128,
    count: u64,
    sampled: bool,
}

/// The non-null value a nondeterministic pointer takes: an address where nothing is
/// mapped. Its other values are left out.
pub const POINTER: u64 = 0x1000;

impl Domain<'static> {
    /// A pointer: null, or `POINTER` (sampled).
    pub fn pointer() -> Self {
        Domain {
            bits: 64,
            signed: false,
            cuts: &[1],
            range: (POINTER as i64, POINTER as i64),
            used: true,
        }
    }
}

impl Domain<'_> {
    fn intervals(&self) -> impl Iterator<Item = (i128, i128)> + '_ {
        let (tmin, tmax) = bounds(self.bits, self.signed);
        let starts = std::iter::once(tmin).chain(
            self.cuts
                .iter()
                .map(|&c| number(c as u64, self.bits, self.signed)),
        );
        let ends = self
            .cuts
            .iter()
            .map(|&c| number(c as u64, self.bits, self.signed) - 1)
            .chain(std::iter::once(tmax));
        starts.zip(ends).filter(|(a, b)| a <= b)
    }

    /// The `--nondet-range` as values of the type: for an unsigned type its negative
    /// values wrap around to the largest (-1 is the largest value).
    fn range_parts(&self) -> [(i128, i128); 2] {
        let (lo, hi) = (self.range.0 as i128, self.range.1 as i128);
        if self.signed {
            return [(lo, hi), (1, 0)];
        }
        let top = bounds(self.bits, false).1 + 1;
        [(lo.max(0), hi), (lo + top, hi.min(-1) + top)]
    }

    fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        let mut budget = MAX_CHOICES;
        let parts = self.range_parts();
        self.intervals().flat_map(move |(a, b)| {
            let len = (b - a + 1) as u64;
            let run = |first: i128, last: i128, sampled| {
                (first <= last).then_some(Piece {
                    first,
                    count: (last - first + 1) as u64,
                    sampled,
                })
            };
            let nearest_zero = if a > 0 { a } else { b.min(0) };
            let mut out = if !self.used {
                [run(nearest_zero, nearest_zero, false), None]
            } else if len <= WHOLE && len <= budget {
                [run(a, b, false), None]
            } else {
                let sub = parts.map(|(lo, hi)| run(a.max(lo), b.min(hi), true));
                let n: u64 = sub.iter().flatten().map(|p| p.count).sum();
                if n == 0 || n > budget {
                    [run(nearest_zero, nearest_zero, true), None]
                } else {
                    sub.map(|p| {
                        p.map(|p| Piece {
                            sampled: n < len,
                            ..p
                        })
                    })
                }
            };
            for p in out.iter_mut().flatten() {
                budget = budget.saturating_sub(p.count);
            }
            out.into_iter().flatten()
        })
    }

    /// How many values are explored.
    pub fn size(&self) -> u32 {
        self.pieces().map(|p| p.count).sum::<u64>().max(1) as u32
    }

    /// The `choice`-th value explored (as the type's bit pattern, sign-extended), and
    /// whether its interval was sampled.
    pub fn pick(&self, mut choice: u32) -> (u64, bool) {
        for p in self.pieces() {
            if (choice as u64) < p.count {
                return ((p.first + choice as i128) as u64, p.sampled);
            }
            choice -= p.count as u32;
        }
        (0, true)
    }
}

pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) {
    e.choice = w.choose(e.choices.max(1));
    e.value = e.choice as u64;
    e.flags |= FLAG_VALUE;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::dependent;

    fn values(d: &Domain) -> Vec<(i64, bool)> {
        (0..d.size())
            .map(|c| {
                let (v, s) = d.pick(c);
                (v as i64, s)
            })
            .collect()
    }

    fn domain(bits: u32, signed: bool, cuts: &[i64], used: bool) -> Domain<'_> {
        Domain {
            bits,
            signed,
            cuts,
            range: (-1, 3),
            used,
        }
    }

    #[test]
    fn cuts_split_at_each_constant_zero_and_the_sign_flip() {
        // 0 <= n && n < 4 on an int: [MIN, 0), [0, 4), [4, MAX].
        assert_eq!(cuts(32, true, [0, 4]), vec![0, 1, 4, 5]);
        // The sign flip of a signed type is its least value: no interval starts there.
        assert_eq!(cuts(32, true, [4u64.wrapping_neg()]), vec![-4, -3, 0]);
        assert_eq!(cuts(8, false, [200]), vec![128, 200, 201]);
        // A constant of a wider comparison is taken modulo the type.
        assert_eq!(cuts(8, true, [0x1ff]), vec![-1, 0]);
        assert_eq!(cuts(64, false, [u64::MAX]), vec![i64::MIN, -1]);
    }

    #[test]
    fn an_unused_value_takes_one_value_per_interval() {
        let c = cuts(32, true, [0, 4]);
        let d = domain(32, true, &c, false);
        let v: Vec<i64> = values(&d).into_iter().map(|(v, _)| v).collect();
        // [MIN,0) [0,1) [1,4) [4,5) [5,MAX]: the one nearest 0 of each.
        assert_eq!(v, vec![-1, 0, 1, 4, 5]);
        assert!(values(&d).iter().all(|&(_, s)| !s));
    }

    #[test]
    fn a_used_value_takes_small_intervals_whole_and_samples_wide_ones() {
        let c = cuts(32, true, [0, 3]);
        let d = domain(32, true, &c, true);
        assert_eq!(
            values(&d),
            vec![
                (-1, true),
                (0, false),
                (1, false),
                (2, false),
                (3, false),
                (4, true)
            ]
        );
        // Without comparisons: the --nondet-range, as before intervals.
        let c = cuts(32, true, []);
        let d = domain(32, true, &c, true);
        let v: Vec<i64> = values(&d).into_iter().map(|(v, _)| v).collect();
        assert_eq!(v, vec![-1, 0, 1, 2, 3]);
        // A range that covers an interval explores it whole.
        let c = cuts(16, true, [10]);
        let d = Domain {
            range: (-5, 100),
            ..domain(16, true, &c, true)
        };
        let all = values(&d);
        assert_eq!(all.len(), 5 + 11 + 90);
        assert!(all
            .iter()
            .filter(|(v, _)| (0..=10).contains(v))
            .all(|&(_, s)| !s));
        assert!(all.iter().filter(|(v, _)| *v > 10).all(|&(_, s)| s));
    }

    #[test]
    fn small_types_are_explored_whole() {
        let c = cuts(8, false, []);
        let d = domain(8, false, &c, true);
        assert_eq!(d.size(), 256);
        assert!(values(&d).iter().all(|&(_, s)| !s));
        assert_eq!(d.pick(255).0, 255);
        let c = cuts(1, false, []);
        let d = domain(1, false, &c, true);
        assert_eq!(values(&d), vec![(0, false), (1, false)]);
        // Unsigned 64-bit: the largest value is -1 as a pattern.
        let c = cuts(64, false, []);
        let d = domain(64, false, &c, true);
        assert_eq!(d.pick(d.size() - 1), (u64::MAX, true));
    }

    #[test]
    fn a_pointer_is_null_or_not() {
        let d = Domain::pointer();
        assert_eq!(values(&d), vec![(0, false), (POINTER as i64, true)]);
    }

    #[test]
    fn values_are_independent_of_other_threads() {
        let v = Event {
            tid: 1,
            ..event(2, 1)
        };
        assert!(!dependent(&v, &Event::mem(2, Kind::Write, 64, 8)));
        assert!(dependent(&v, &Event::mem(1, Kind::Write, 64, 8)));
    }
}
