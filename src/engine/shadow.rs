//! Shadow memory for race detection: for every byte that an execution touched, its last
//! write and the reads since. Bytes with the same history form one segment, so a
//! `memset` over megabytes costs one entry, not one per byte, and a byte store into an
//! `int` splits the segment it falls in.
//!
//! While the journal is on, every change is journalled (the segment a start held before
//! it), so that the shadow can be rolled back to any earlier point: an execution that
//! re-runs the prefix of the previous one only analyses what it does after it. An
//! analysis that will not be rolled back leaves it off, and pays nothing for it. An undo log was chosen over
//! snapshots because a step changes one or two segments whatever the size of the map,
//! and over a persistent map because the standard `BTreeMap` stays as fast as it was for
//! the accesses themselves.

use std::collections::BTreeMap;

/// The history of a range of bytes.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Cell {
    /// Index of the last event that wrote these bytes.
    pub last_write: Option<u32>,
    /// Reads since that write (at most one per thread, which the caller maintains).
    pub reads: Vec<u32>,
}

impl Cell {
    fn is_empty(&self) -> bool {
        self.last_write.is_none() && self.reads.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    end: u64,
    cell: Cell,
}

/// Disjoint segments keyed by their first byte; untouched bytes have no segment.
#[derive(Clone, Default)]
pub struct Shadow {
    segs: BTreeMap<u64, Segment>,
    journal: bool,
    /// Before each change made with the journal on, what its key held.
    undo: Vec<(u64, Option<Segment>)>,
}

/// A point in a shadow's history to roll back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark(usize);

impl Shadow {
    /// The present state, for `rollback`.
    pub fn mark(&self) -> Mark {
        Mark(self.undo.len())
    }

    /// Journals the changes from now on (`on`) or not; returns whether it did so far.
    pub fn journal(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.journal, on)
    }

    /// Undoes every change made since `mark`, which must all have been journalled.
    pub fn rollback(&mut self, mark: Mark) {
        for (start, old) in self.undo.drain(mark.0..).rev() {
            match old {
                Some(seg) => self.segs.insert(start, seg),
                None => self.segs.remove(&start),
            };
        }
    }

    /// Forgets everything, history included.
    pub fn clear(&mut self) {
        self.segs.clear();
        self.undo.clear();
    }

    // Every change to a start is journalled with what it held before, except where
    // `update` puts back a segment at a start it has itself just journalled.

    fn save(&mut self, start: u64, old: Option<&Segment>) {
        if self.journal {
            self.undo.push((start, old.cloned()));
        }
    }

    fn remove(&mut self, start: u64) -> Option<Segment> {
        let old = self.segs.remove(&start);
        self.save(start, old.as_ref());
        old
    }

    /// Inserts at a start that holds no segment.
    fn insert_new(&mut self, start: u64, seg: Segment) {
        self.save(start, None);
        let old = self.segs.insert(start, seg);
        debug_assert!(old.is_none());
    }

    /// Calls `f` on the history of each maximal uniform range within `[lo, hi)`, untouched
    /// ranges included (as empty cells), and stores what it leaves there.
    pub fn update(&mut self, lo: u64, hi: u64, mut f: impl FnMut(&mut Cell)) {
        if lo >= hi {
            return;
        }
        // Mostly the bytes accessed last time, one segment: changed in place. Left
        // unmerged with an equal neighbour, it splits nothing that a merge would have
        // spared (callers see the same histories either way).
        if let Some(seg) = self.segs.get_mut(&lo).filter(|seg| seg.end == hi) {
            if self.journal {
                self.undo.push((lo, Some(seg.clone())));
            }
            f(&mut seg.cell);
            if seg.cell.is_empty() {
                self.segs.remove(&lo);
            }
            return;
        }
        self.split_at(lo);
        self.split_at(hi);
        // Left to right, each piece is taken out, updated and put back, merged with the
        // piece before it; only the last may merge with what follows `hi`, which is not
        // being updated.
        let mut pos = lo;
        while pos < hi {
            let next = self.segs.range(pos..hi).next().map(|(&s, _)| s);
            let (end, mut cell, journalled) = match next {
                Some(s) if s == pos => {
                    let seg = self.remove(s).expect("just seen");
                    (seg.end, seg.cell, true)
                }
                Some(s) => (s, Cell::default(), false),
                None => (hi, Cell::default(), false),
            };
            f(&mut cell);
            if !cell.is_empty() {
                self.insert_merging(pos, end, cell, end == hi, journalled);
            }
            pos = end;
        }
    }

    /// Makes `at` the start of a segment if a segment spans it.
    fn split_at(&mut self, at: u64) {
        let Some((&s, seg)) = self.segs.range_mut(..at).next_back() else {
            return;
        };
        if seg.end > at {
            debug_assert!(s < at);
            if self.journal {
                self.undo.push((s, Some(seg.clone())));
            }
            let right = Segment {
                end: seg.end,
                cell: seg.cell.clone(),
            };
            seg.end = at;
            self.insert_new(at, right);
        }
    }

    /// Inserts `[s, e)`, joining it with an equal left neighbour (and right one, when
    /// `merge_right`) so that repeated accesses of the same kind do not fragment the map.
    /// `journalled`: `s` held a segment, which the caller removed.
    fn insert_merging(
        &mut self,
        s: u64,
        mut e: u64,
        cell: Cell,
        merge_right: bool,
        journalled: bool,
    ) {
        let mut start = s;
        if let Some((&ls, left)) = self.segs.range(..s).next_back() {
            if left.end == s && left.cell == cell {
                start = ls;
                self.remove(ls);
            }
        }
        if merge_right && self.segs.get(&e).is_some_and(|right| right.cell == cell) {
            e = self.remove(e).expect("just seen").end;
        }
        let seg = Segment { end: e, cell };
        if start != s || journalled {
            self.segs.insert(start, seg);
        } else {
            self.insert_new(start, seg);
        }
    }

    #[cfg(test)]
    fn segments(&self) -> Vec<(u64, u64, Cell)> {
        self.segs
            .iter()
            .map(|(&s, g)| (s, g.end, g.cell.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(sh: &mut Shadow, lo: u64, hi: u64, ev: u32) -> Vec<Option<u32>> {
        let mut seen = Vec::new();
        sh.update(lo, hi, |c| {
            seen.push(c.last_write);
            c.last_write = Some(ev);
            c.reads.clear();
        });
        seen
    }

    fn read(sh: &mut Shadow, lo: u64, hi: u64, ev: u32) -> Vec<Option<u32>> {
        let mut seen = Vec::new();
        sh.update(lo, hi, |c| {
            seen.push(c.last_write);
            c.reads.push(ev);
        });
        seen
    }

    #[test]
    fn a_large_write_is_one_segment_and_a_byte_store_splits_it() {
        let mut sh = Shadow::default();
        assert_eq!(write(&mut sh, 0, 1 << 32, 0), vec![None]);
        assert_eq!(sh.segments().len(), 1);
        assert_eq!(write(&mut sh, 100, 101, 1), vec![Some(0)]);
        assert_eq!(
            sh.segments()
                .iter()
                .map(|(s, e, c)| (*s, *e, c.last_write))
                .collect::<Vec<_>>(),
            vec![
                (0, 100, Some(0)),
                (100, 101, Some(1)),
                (101, 1 << 32, Some(0))
            ]
        );
        // A read across the three segments sees both writers and splits the outer two
        // where it starts and ends; a write over everything merges them all again.
        assert_eq!(read(&mut sh, 96, 104, 2), vec![Some(0), Some(1), Some(0)]);
        assert_eq!(
            write(&mut sh, 0, 1 << 32, 3),
            vec![Some(0), Some(0), Some(1), Some(0), Some(0)]
        );
        assert_eq!(sh.segments().len(), 1);
    }

    #[test]
    fn untouched_bytes_are_empty_cells_and_stay_unrecorded() {
        let mut sh = Shadow::default();
        write(&mut sh, 8, 12, 0);
        assert_eq!(read(&mut sh, 0, 16, 1), vec![None, Some(0), None]);
        let segs = sh.segments();
        assert_eq!(segs.len(), 3);
        assert!(segs.iter().all(|(_, _, c)| c.reads == vec![1]));
        let mut touched = 0;
        sh.update(20, 30, |_| touched += 1);
        assert_eq!(touched, 1);
        assert_eq!(sh.segments().len(), 3);
    }

    /// Rolling back to a mark gives back the segments of that moment, whatever was split,
    /// merged, read or written since.
    #[test]
    fn rollback_restores_every_earlier_state() {
        let mut sh = Shadow::default();
        sh.journal(true);
        let mut states = vec![(sh.mark(), sh.segments())];
        let mut x = 0x2545_f491_u64;
        for ev in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let lo = x % 64;
            let hi = lo + 1 + (x >> 8) % 16;
            if x & (1 << 40) != 0 {
                write(&mut sh, lo, hi, ev);
            } else {
                read(&mut sh, lo, hi, ev);
            }
            states.push((sh.mark(), sh.segments()));
        }
        while let Some((mark, segs)) = states.pop() {
            sh.rollback(mark);
            assert_eq!(sh.segments(), segs);
            // Undone twice is undone once; redone differently, undone again.
            write(&mut sh, 0, 8, 999);
            sh.rollback(mark);
            assert_eq!(sh.segments(), segs);
        }
    }

    #[test]
    fn adjacent_accesses_of_one_event_merge() {
        let mut sh = Shadow::default();
        for k in 0..1000 {
            write(&mut sh, k * 4, k * 4 + 4, 7);
        }
        assert_eq!(
            sh.segments(),
            vec![(
                0,
                4000,
                Cell {
                    last_write: Some(7),
                    reads: vec![]
                }
            )]
        );
    }
}
