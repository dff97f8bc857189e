//! Shadow memory for race detection: for every byte that an execution touched, its last
//! write and the reads since. Bytes with the same history form one segment, so a
//! `memset` over megabytes costs one entry, not one per byte, and a byte store into an
//! `int` splits the segment it falls in.
//!
//! While the journal is on, every change is journalled (the segment a start held before
//! it), so that the shadow can be rolled back to any earlier point: an execution that
//! re-runs the prefix of the previous one only analyses what it does after it. An
//! analysis that will not be rolled back leaves it off, and pays nothing for it. An undo
//! log was chosen over snapshots because a step changes one or two segments whatever the
//! size of the map, and over a persistent map because the standard `BTreeMap` stays as
//! fast as it was for the accesses themselves.
//!
//! A history is three words (`Cell` is `Copy`): the reads of a range, when there are
//! several, are a slice of an append-only arena, never changed once written. So saving a
//! segment in the journal, splitting one or moving one inside the map copies words and
//! allocates nothing, and a rollback truncates the arena with the journal. A read appends
//! the reads it keeps, at most one per thread: no more than a vector clock per event.

use std::collections::BTreeMap;

/// No event.
const NONE: u32 = u32::MAX;

/// The history of a range of bytes (see `History`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Cell {
    last_write: u32,
    /// How many reads since that write.
    len: u32,
    /// The read itself if there is one; where the reads start in the arena if there are
    /// several; 0 if none (so that histories without reads are equal exactly when their
    /// cells are).
    at: u32,
}

impl Cell {
    const EMPTY: Cell = Cell {
        last_write: NONE,
        len: 0,
        at: 0,
    };

    fn is_empty(&self) -> bool {
        self.last_write == NONE && self.len == 0
    }

    fn reads<'a>(&'a self, arena: &'a [u32]) -> &'a [u32] {
        match self.len {
            0 => &[],
            1 => std::slice::from_ref(&self.at),
            n => &arena[self.at as usize..][..n as usize],
        }
    }

    /// The same history (two slices of the arena can hold the same reads).
    fn same(&self, other: &Cell, arena: &[u32]) -> bool {
        self == other
            || (self.last_write == other.last_write
                && self.len == other.len
                && self.reads(arena) == other.reads(arena))
    }
}

/// The history of a range of bytes, as `update` hands it over: the last write to them,
/// and the reads since (in the order they were made).
pub struct History<'a> {
    cell: &'a mut Cell,
    arena: &'a mut Vec<u32>,
}

impl History<'_> {
    pub fn last_write(&self) -> Option<u32> {
        (self.cell.last_write != NONE).then_some(self.cell.last_write)
    }

    pub fn reads(&self) -> &[u32] {
        self.cell.reads(self.arena)
    }

    /// Event `i` writes the bytes: it is their last write, and no read follows it.
    pub fn write(&mut self, i: u32) {
        *self.cell = Cell {
            last_write: i,
            ..Cell::EMPTY
        };
    }

    /// Event `i` reads the bytes, after the reads that `keep` keeps.
    pub fn read(&mut self, i: u32, mut keep: impl FnMut(u32) -> bool) {
        let old = *self.cell;
        let arena = &mut *self.arena;
        let start = arena.len();
        match old.len {
            0 => {}
            1 if keep(old.at) => arena.push(old.at),
            1 => {}
            n => {
                let from = old.at as usize;
                for k in from..from + n as usize {
                    if keep(arena[k]) {
                        arena.push(arena[k]);
                    }
                }
            }
        }
        let len = (arena.len() - start) as u32 + 1;
        let at = if len == 1 {
            i
        } else {
            arena.push(i);
            u32::try_from(start).expect("shadow arena below 4G reads")
        };
        self.cell.len = len;
        self.cell.at = at;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Segment {
    end: u64,
    cell: Cell,
}

/// Disjoint segments keyed by their first byte; untouched bytes have no segment, or an
/// empty one (`Undo::Fresh`).
#[derive(Clone, Default)]
pub struct Shadow {
    segs: BTreeMap<u64, Segment>,
    /// The reads of cells that hold several.
    arena: Vec<u32>,
    journal: bool,
    /// Before each change made with the journal on, what its key held.
    undo: Vec<(u64, Undo)>,
}

/// What a key held before a change.
#[derive(Clone, Copy, Debug)]
enum Undo {
    Held(Segment),
    Nothing,
    /// Nothing, and no segment covered the bytes of the one put there (`fill`). Rolled
    /// back, that segment stays as an empty one instead of leaving the map: the next
    /// execution mostly makes it again (the same thread's exit, the same join), which
    /// then changes it in place rather than inserting into the map again. It overlaps
    /// nothing that a rollback restores: bytes covered by a segment stay covered until
    /// a rollback (every update leaves a history), so bytes uncovered when the segment
    /// was made were uncovered at every mark before.
    Fresh,
}

/// A point in a shadow's history to roll back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    undo: usize,
    arena: usize,
}

impl Shadow {
    /// The present state, for `rollback`.
    pub fn mark(&self) -> Mark {
        Mark {
            undo: self.undo.len(),
            arena: self.arena.len(),
        }
    }

    /// Journals the changes from now on (`on`) or not; returns whether it did so far.
    pub fn journal(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.journal, on)
    }

    /// Undoes every change made since `mark`, which must all have been journalled.
    pub fn rollback(&mut self, mark: Mark) {
        for (start, old) in self.undo.drain(mark.undo..).rev() {
            match old {
                Undo::Held(seg) => {
                    self.segs.insert(start, seg);
                }
                Undo::Nothing => {
                    self.segs.remove(&start);
                }
                Undo::Fresh => {
                    if let Some(seg) = self.segs.get_mut(&start) {
                        seg.cell = Cell::EMPTY;
                    }
                }
            }
        }
        // What the arena gained since is read by no segment of that moment.
        self.arena.truncate(mark.arena);
    }

    /// Forgets everything, history included.
    pub fn clear(&mut self) {
        self.segs.clear();
        self.arena.clear();
        self.undo.clear();
    }

    // Every change to a start is journalled with what it held before, except where
    // `update` puts back a segment at a start it has itself just journalled.

    fn save(&mut self, start: u64, old: Option<Segment>) {
        if self.journal {
            self.undo
                .push((start, old.map_or(Undo::Nothing, Undo::Held)));
        }
    }

    fn remove(&mut self, start: u64) -> Option<Segment> {
        let old = self.segs.remove(&start);
        self.save(start, old);
        old
    }

    /// Inserts at a start that holds no segment.
    fn insert_new(&mut self, start: u64, seg: Segment) {
        self.save(start, None);
        let old = self.segs.insert(start, seg);
        debug_assert!(old.is_none());
    }

    /// Calls `f` with `cell` and stores what it leaves there back in `cell`.
    fn apply(arena: &mut Vec<u32>, cell: &mut Cell, f: &mut impl FnMut(&mut History)) {
        f(&mut History { cell, arena });
    }

    /// Calls `f` on the history of each maximal uniform range within `[lo, hi)`, untouched
    /// ranges included (as empty histories), left to right, and stores what it leaves
    /// there.
    pub fn update(&mut self, lo: u64, hi: u64, mut f: impl FnMut(&mut History)) {
        if lo >= hi {
            return;
        }
        // The last segment to start below `hi`: the only one that can hold all of
        // `[lo, hi)`, and if it ends by `lo`, none overlaps it.
        let Some((&s, seg)) = self.segs.range_mut(..hi).next_back() else {
            return self.fill(None, lo, hi, &mut f);
        };
        if s == lo && seg.end == hi {
            // Mostly the bytes accessed last time, one segment: changed in place. Left
            // unmerged with an equal neighbour, it splits nothing that a merge would have
            // spared (callers see the same histories either way).
            if self.journal {
                self.undo.push((lo, Undo::Held(*seg)));
            }
            Self::apply(&mut self.arena, &mut seg.cell, &mut f);
            if seg.cell.is_empty() {
                self.segs.remove(&lo);
            }
        } else if seg.end <= lo {
            let left = (seg.end == lo).then_some((s, seg.cell));
            self.fill(left, lo, hi, &mut f);
        } else if s <= lo && hi <= seg.end {
            let old = *seg;
            self.within(s, old, lo, hi, &mut f);
        } else {
            self.across(lo, hi, &mut f);
        }
    }

    /// `update` of `[lo, hi)`, untouched, whose left neighbour is `left` if it ends at
    /// `lo`.
    ///
    /// Here and in `within`, a new piece joins an equal neighbour only if the search
    /// for `[lo, hi)` found it: no other search is made for one. Equal neighbours come
    /// only from one event's accesses (another event's leaves another last write or
    /// another read), and one event's pieces are joined left to right, as it makes
    /// them; a history left in two segments is seen the same by callers.
    fn fill(
        &mut self,
        left: Option<(u64, Cell)>,
        lo: u64,
        hi: u64,
        f: &mut impl FnMut(&mut History),
    ) {
        let mut cell = Cell::EMPTY;
        Self::apply(&mut self.arena, &mut cell, f);
        if cell.is_empty() {
            return;
        }
        let end = hi;
        match left {
            Some((ls, l)) if l.same(&cell, &self.arena) => {
                let seg = self.segs.get_mut(&ls).expect("the left neighbour");
                if self.journal {
                    self.undo.push((ls, Undo::Held(*seg)));
                }
                seg.end = end;
            }
            _ => {
                if self.journal {
                    self.undo.push((lo, Undo::Fresh));
                }
                let old = self.segs.insert(lo, Segment { end, cell });
                debug_assert!(old.is_none());
            }
        }
    }

    /// `update` of `[lo, hi)`, within segment `old` at `s` (not all of it).
    fn within(&mut self, s: u64, old: Segment, lo: u64, hi: u64, f: &mut impl FnMut(&mut History)) {
        let mut cell = old.cell;
        Self::apply(&mut self.arena, &mut cell, f);
        if cell.same(&old.cell, &self.arena) {
            return;
        }
        self.save(s, Some(old));
        if s < lo {
            self.segs.get_mut(&s).expect("seen").end = lo;
            if hi < old.end {
                self.insert_new(hi, old);
            }
            if !cell.is_empty() {
                self.insert_new(lo, Segment { end: hi, cell });
            }
            return;
        }
        // It starts at `lo` and goes on past `hi`: the rest keeps its history.
        self.insert_new(hi, old);
        if cell.is_empty() {
            self.segs.remove(&lo);
        } else {
            *self.segs.get_mut(&lo).expect("seen") = Segment { end: hi, cell };
        }
    }

    /// `update` of `[lo, hi)` where it overlaps several segments, or one in part.
    fn across(&mut self, lo: u64, hi: u64, f: &mut impl FnMut(&mut History)) {
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
                Some(s) => (s, Cell::EMPTY, false),
                None => (hi, Cell::EMPTY, false),
            };
            Self::apply(&mut self.arena, &mut cell, f);
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
            let old = *seg;
            seg.end = at;
            self.save(s, Some(old));
            self.insert_new(at, old);
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
            if left.end == s && left.cell.same(&cell, &self.arena) {
                start = ls;
                self.remove(ls);
            }
        }
        if merge_right {
            if let Some(right) = self.segs.get(&e) {
                if right.cell.same(&cell, &self.arena) {
                    e = self.remove(e).expect("just seen").end;
                }
            }
        }
        let seg = Segment { end: e, cell };
        if start != s || journalled {
            self.segs.insert(start, seg);
        } else {
            self.insert_new(start, seg);
        }
    }

    #[cfg(test)]
    fn segments(&self) -> Vec<(u64, u64, Seen)> {
        self.segs
            .iter()
            .filter(|(_, g)| !g.cell.is_empty())
            .map(|(&s, g)| {
                let seen = Seen {
                    last_write: (g.cell.last_write != NONE).then_some(g.cell.last_write),
                    reads: g.cell.reads(&self.arena).to_vec(),
                };
                (s, g.end, seen)
            })
            .collect()
    }
}

/// A history as the tests compare it.
#[cfg(test)]
#[derive(Clone, Default, PartialEq, Eq, Debug)]
struct Seen {
    last_write: Option<u32>,
    reads: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(sh: &mut Shadow, lo: u64, hi: u64, ev: u32) -> Vec<Option<u32>> {
        let mut seen = Vec::new();
        sh.update(lo, hi, |c| {
            seen.push(c.last_write());
            c.write(ev);
        });
        seen
    }

    fn read(sh: &mut Shadow, lo: u64, hi: u64, ev: u32) -> Vec<Option<u32>> {
        let mut seen = Vec::new();
        sh.update(lo, hi, |c| {
            seen.push(c.last_write());
            c.read(ev, |_| true);
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
            xorshift(&mut x);
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

    /// Reads that drop the earlier read of their own thread, as the analysis makes them,
    /// over cells of one, several and no reads: every earlier state comes back, the
    /// reads in their order.
    #[test]
    fn rollback_restores_reads_kept_by_thread() {
        let mut sh = Shadow::default();
        sh.journal(true);
        let mut states = vec![(sh.mark(), sh.segments())];
        let mut x = 0x9e37_79b9_u64;
        for ev in 0..300u32 {
            xorshift(&mut x);
            let lo = 8 * (x % 6);
            let hi = lo + 8 * (1 + (x >> 8) % 3);
            if x.is_multiple_of(7) {
                write(&mut sh, lo, hi, ev);
            } else {
                sh.update(lo, hi, |c| c.read(ev, |r| r % 5 != ev % 5));
            }
            states.push((sh.mark(), sh.segments()));
        }
        assert!(states
            .iter()
            .any(|(_, s)| s.iter().any(|g| g.2.reads.len() >= 3)));
        while let Some((mark, segs)) = states.pop() {
            sh.rollback(mark);
            assert_eq!(sh.segments(), segs);
        }
    }

    /// The next of a seeded stream of test values.
    fn xorshift(x: &mut u64) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
    }

    /// Every segment holds the history that the model keeps for each of its bytes.
    fn assert_segments_as_model(sh: &Shadow, bytes: &[Seen]) {
        for (s, e, h) in sh.segments() {
            assert!(bytes[s as usize..e as usize].iter().all(|b| *b == h));
        }
    }

    /// Event `ev` writes or reads `[lo, hi)`, in the shadow and in a model that keeps a
    /// history per byte (a read keeps the reads of the other two thirds of events): the
    /// update sees, left to right, the histories of the bytes it covers (a run of equal
    /// ones as one or more), and leaves each byte the history the model gives it.
    fn update_as_model(
        sh: &mut Shadow,
        bytes: &mut [Seen],
        (lo, hi): (u64, u64),
        ev: u32,
        write: bool,
    ) {
        let mut seen: Vec<Seen> = Vec::new();
        sh.update(lo, hi, |c| {
            let h = Seen {
                last_write: c.last_write(),
                reads: c.reads().to_vec(),
            };
            if seen.last() != Some(&h) {
                seen.push(h);
            }
            if write {
                c.write(ev);
            } else {
                c.read(ev, |r| r % 3 != ev % 3);
            }
        });
        let mut expected: Vec<Seen> = bytes[lo as usize..hi as usize].to_vec();
        expected.dedup();
        assert_eq!(seen, expected, "event {ev} on [{lo}, {hi})");
        for b in &mut bytes[lo as usize..hi as usize] {
            if write {
                *b = Seen {
                    last_write: Some(ev),
                    reads: vec![],
                };
            } else {
                b.reads.retain(|r| r % 3 != ev % 3);
                b.reads.push(ev);
            }
        }
    }

    #[test]
    fn histories_are_those_of_each_byte() {
        let mut sh = Shadow::default();
        let mut bytes = vec![Seen::default(); 96];
        let mut x = 0x51_7cc1_b727_u64;
        for ev in 0..2000u32 {
            xorshift(&mut x);
            let lo = x % 80;
            let hi = lo + 1 + (x >> 8) % if x & 1 << 20 != 0 { 16 } else { 4 };
            update_as_model(&mut sh, &mut bytes, (lo, hi), ev, x.is_multiple_of(5));
        }
        assert_segments_as_model(&sh, &bytes);
    }

    /// Updates and rollbacks to any earlier mark, mixed as the analysis mixes them (the
    /// segments a rollback leaves empty are updated again, split and merged): each
    /// update sees the histories of a model that keeps one per byte.
    #[test]
    fn rolled_back_segments_left_empty_are_untouched_bytes() {
        let mut sh = Shadow::default();
        sh.journal(true);
        let mut bytes = vec![Seen::default(); 64];
        let mut marks: Vec<(Mark, Vec<Seen>)> = Vec::new();
        let mut x = 0x2f6b_13c7_u64;
        for ev in 0..4000u32 {
            xorshift(&mut x);
            if x.is_multiple_of(9) && !marks.is_empty() {
                let k = (x >> 12) as usize % marks.len();
                marks.truncate(k + 1);
                let (mark, model) = marks.pop().expect("k < len");
                sh.rollback(mark);
                bytes = model;
                continue;
            }
            if x.is_multiple_of(3) {
                marks.push((sh.mark(), bytes.clone()));
            }
            // Mostly the same few aligned words, as threads' exits and joins are.
            let (lo, hi) = if x & 1 << 30 != 0 {
                let w = 8 * ((x >> 8) % 6);
                (w, w + 8)
            } else {
                let lo = (x >> 8) % 56;
                (lo, lo + 1 + (x >> 16) % 8)
            };
            update_as_model(&mut sh, &mut bytes, (lo, hi), ev, x.is_multiple_of(4));
        }
        assert_segments_as_model(&sh, &bytes);
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
                Seen {
                    last_write: Some(7),
                    reads: vec![]
                }
            )]
        );
    }
}
