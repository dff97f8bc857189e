//! Happens-before over one execution, and its races.
//!
//! Each event gets a vector clock. Every operation's footprint (`ops::footprint`) is the
//! bytes it reads and writes: memory, and the bytes of the synchronization objects and
//! the thread words it operates on. So one shadow memory (`shadow`), holding per range of
//! bytes the last write and the reads since it, finds a new event's conflicts in
//! O(threads) whatever the operation, and reads commute (Flanagan & Godefroid, Fig. 5,
//! extended with read sets). What blocking adds on top:
//!
//! * an event that was blocked is ordered after the event that enabled it (the release
//!   its lock waited for, the exit its join waited for, the signal its wake waited for)
//!   and does not race with it: it could not have run before it. The runtime records
//!   which threads were enabled before each event, so the enabler is read off the trace
//!   whatever the primitive;
//! * a mutex acquisition (`ops::acquires`) races with the previous acquisition of the
//!   mutex, not with the release in between, which it could not have preceded; a trylock,
//!   never blocked, races with the release too (moved before it, it fails). A shared
//!   acquisition (a read lock, `ops::shares`) races with the previous exclusive one only,
//!   and an exclusive one with every shared one since the previous exclusive one;
//! * a creation orders the created thread's events after it.
//!
//! A race `e ⋖ e'`: `e` and `e'` conflict, are of different threads, `e` happens before
//! `e'` only through their own conflict (not through `e'`'s program-order past), and no
//! other such event lies HB-between them.

//!
//! The analysis is incremental (`Analysis`): the next execution re-runs a prefix of the
//! current one, whose clocks, shadow memory and lock tables are already known, so only
//! the events from where it departs are analysed. Each step journals what it overwrites
//! (per-thread state, lock tables; the shadow memory journals its own segments), and
//! the state before event `r` is recovered by undoing the journal back to `r`'s mark.
//! An undo log was chosen because a step changes a few words, whatever the length of
//! the trace or the number of threads: checkpoints would copy per-thread vectors and the
//! shadow at every event, and persistent maps would slow down every access for the sake
//! of rare rollbacks; the per-event vectors (clocks, sequence numbers) are simply
//! truncated, since a step only writes its own entries. A one-shot analysis (`analyze`)
//! journals nothing.

use std::collections::HashMap;

use super::shadow::{self, Shadow};
use super::Pending;
use cdpor_sched::ops::{self, cond};
use cdpor_sched::{Event, Kind, ThreadSet, Tid};

/// The later event of a race: an executed event, or the next event of a thread that was
/// still alive when the execution ended (`Trace::pending[k]`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Later {
    Event(usize),
    Pending(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Race {
    pub earlier: usize,
    pub later: Later,
}

/// Vector clocks of one execution's events.
#[derive(Default)]
pub struct Hb {
    events: Vec<Event>,
    /// Entries per clock. It only grows, as later executions show more threads: a
    /// thread that has not run has 0 in every clock, so extra entries change no answer.
    width: usize,
    clocks: Vec<u32>,
    seq: Vec<u32>,
    /// The event whose clock an event starts from (its thread's previous event, or the
    /// creation of its thread), before it joins the clocks of what it conflicts with.
    base: Vec<Option<usize>>,
    /// Each thread's last event, or its creation: the clock its next event starts from
    /// (at the end of the execution, what its pending event would see).
    thread_last: Vec<Option<usize>>,
}

impl Hb {
    fn clock(&self, i: usize) -> &[u32] {
        &self.clocks[i * self.width..(i + 1) * self.width]
    }

    /// Does event `i` happen before (or equal) event `j`?
    pub fn hb(&self, i: usize, j: usize) -> bool {
        self.clock(j)[self.events[i].tid() as usize] >= self.seq[i]
    }

    /// Does event `i` happen before the pending event of thread `t`?
    pub fn hb_pending(&self, i: usize, t: Tid) -> bool {
        let last = self.thread_last.get(t as usize).copied().flatten();
        last.is_some_and(|l| self.hb(i, l))
    }

    /// Does `i` happen before what the thread of the `later` event of a race had done
    /// before that event (F&G's `i →S p`)?
    pub fn hb_thread_of(&self, i: usize, later: Later, pending: &[Pending]) -> bool {
        match later {
            Later::Event(j) => self.base[j].is_some_and(|b| self.hb(i, b)),
            Later::Pending(k) => self.hb_pending(i, pending[k].event.tid()),
        }
    }

    fn len(&self) -> usize {
        self.events.len()
    }

    /// Appends event `e`, its clock all zeros until its step.
    fn push(&mut self, e: Event) {
        self.events.push(e);
        self.clocks.resize(self.clocks.len() + self.width, 0);
        self.seq.push(0);
        self.base.push(None);
    }

    fn truncate(&mut self, n: usize) {
        self.events.truncate(n);
        self.clocks.truncate(n * self.width);
        self.seq.truncate(n);
        self.base.truncate(n);
    }

    fn widen(&mut self, width: usize) {
        let old = self.width;
        if width <= old {
            return;
        }
        let mut clocks = vec![0; self.len() * width];
        for i in 0..self.len() {
            clocks[i * width..i * width + old].copy_from_slice(self.clock(i));
        }
        self.clocks = clocks;
        self.width = width;
        self.thread_last.resize(width, None);
    }
}

/// What `analyze` looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope {
    /// Report races whose later event is at this index or beyond.
    pub from: usize,
    /// The last event ended the program (see `analyze`).
    pub kill: bool,
    /// Report races of the pending events too (complete executions only).
    pub with_pending: bool,
    /// The execution was cut by a bound: each thread that could have gone on races, by
    /// its pending event, with the earlier events that event conflicts with, as if it ran
    /// next; nothing else would ever reverse those races.
    pub cut: bool,
    /// Reads of the same bytes commute (false: classic DPOR's coarser dependence).
    pub reads_commute: bool,
}

/// Computes happens-before for `events` (with `enabled[i]`, the threads enabled before
/// event `i`) and the races whose later event is at index `scope.from` or beyond, or is
/// one of the `pending` events (`scope.with_pending`).
///
/// Pending events take part as follows. When the last event ended the program
/// (`scope.kill`), each thread that could have run instead races with it. Blocked mutex
/// acquisitions race with the previous acquisition, as if they ran at the end.
pub fn analyze(
    events: &[Event],
    enabled: &[ThreadSet],
    pending: &[Pending],
    scope: Scope,
) -> (Hb, Vec<Race>) {
    let mut analysis = Analysis::with_journal(false);
    let mut races = Vec::new();
    analysis.analyze(events, enabled, pending, scope, &mut races);
    (analysis.hb, races)
}

/// `analyze`, kept from one execution to the next: an execution is analysed from the
/// first event where it departs from the previous one (or from `scope.from`, if that is
/// earlier), the state before that event being rolled back to.
pub struct Analysis {
    hb: Hb,
    /// The threads enabled before each event, as the trace gave them.
    enabled: Vec<ThreadSet>,
    reads_commute: bool,
    thread_seq: Vec<u32>,
    /// Threads created and not finished.
    live: ThreadSet,
    /// Per thread, the last event before which it was alive but not enabled.
    disabled_before: Vec<Option<usize>>,
    mem: Shadow,
    /// The acquisitions of each lock since its last exclusive one, included.
    last_acquire: HashMap<u64, Holders>,
    /// Whether the steps journal what they change: an analysis that does not always
    /// starts afresh.
    journal: bool,
    /// What the steps overwrote of the state above, oldest first.
    undo: Vec<Undo>,
    /// Per event, where `undo` and the shadow memory's journal stood before it.
    marks: Vec<(usize, shadow::Mark)>,
    cur: Current,
}

/// A value a step overwrote.
enum Undo {
    Seq(Tid, u32),
    Last(Tid, Option<usize>),
    Disabled(Tid, Option<usize>),
    /// Whether the thread was live.
    Live(Tid, bool),
    Lock(u64, Option<Box<Holders>>),
}

#[derive(Clone, Default)]
struct Holders {
    exclusive: Option<usize>,
    /// Shared acquisitions by a thread that held none: the points before which an
    /// exclusive one could have run (a thread's nested read lock is no such point).
    shared: Vec<usize>,
    /// A thread per shared hold.
    holding: Vec<Tid>,
}

/// What is being worked out for the event under analysis.
#[derive(Default)]
struct Current {
    tid: Tid,
    /// The clock the event starts from (program order and earlier joins).
    base: Vec<u32>,
    /// Events it is ordered after: their clocks join into its own.
    preds: Vec<usize>,
    /// Race candidates, before the filter for immediate races.
    cands: Vec<usize>,
    /// Mutex acquisitions it races with (not filtered).
    acquire: Vec<usize>,
}

/// How many leading elements `a` and `b` share (`same`); `usize::MAX` when they are
/// equal.
fn agreeing<T>(a: &[T], b: &[T], same: impl Fn(&T, &T) -> bool) -> usize {
    match a.iter().zip(b).position(|(x, y)| !same(x, y)) {
        Some(k) => k,
        None if a.len() == b.len() => usize::MAX,
        None => a.len().min(b.len()),
    }
}

impl Default for Analysis {
    fn default() -> Analysis {
        Analysis::new()
    }
}

impl Analysis {
    /// An analysis that keeps what it knows from one execution to the next.
    pub fn new() -> Analysis {
        Analysis::with_journal(true)
    }

    fn with_journal(journal: bool) -> Analysis {
        let mut mem = Shadow::default();
        mem.journal(journal);
        Analysis {
            hb: Hb::default(),
            enabled: Vec::new(),
            reads_commute: false,
            thread_seq: Vec::new(),
            live: ThreadSet::EMPTY,
            disabled_before: Vec::new(),
            mem,
            last_acquire: HashMap::new(),
            journal,
            undo: Vec::new(),
            marks: Vec::new(),
            cur: Current::default(),
        }
    }

    /// The happens-before relation of the last execution analysed.
    pub fn hb(&self) -> &Hb {
        &self.hb
    }

    /// `analyze` for the next execution, into `races`.
    pub fn analyze(
        &mut self,
        events: &[Event],
        enabled: &[ThreadSet],
        pending: &[Pending],
        scope: Scope,
        races: &mut Vec<Race>,
    ) {
        races.clear();
        // Where the state must be recomputed from: the first event whose own record, or
        // the threads enabled before it, differ from the last execution's.
        let keep = (scope.from)
            .min(agreeing(&self.hb.events, events, super::identical))
            .min(agreeing(&self.enabled, enabled, ThreadSet::eq))
            .min(self.hb.len());
        if keep == 0 || scope.reads_commute != self.reads_commute || !self.journal {
            self.reset(events.first(), scope.reads_commute);
        } else {
            self.rollback(keep);
        }
        let keep = self.hb.len();
        self.enabled.truncate(keep.min(enabled.len()));
        self.enabled
            .extend_from_slice(&enabled[self.enabled.len().min(enabled.len())..]);
        self.widen(events[keep..].iter(), pending);
        for (i, &e) in events.iter().enumerate().skip(keep) {
            if self.journal {
                self.marks.push((self.undo.len(), self.mem.mark()));
            }
            self.hb.push(e);
            self.step(i);
            if i >= scope.from {
                self.push_races(Later::Event(i), races);
            }
        }
        self.pending_races(pending, scope, races);
    }

    /// Starts afresh: nothing analysed, the first thread alive.
    fn reset(&mut self, first: Option<&Event>, reads_commute: bool) {
        self.hb.truncate(0);
        self.hb.thread_last.fill(None);
        self.enabled.clear();
        self.reads_commute = reads_commute;
        self.thread_seq.fill(0);
        self.live = ThreadSet::EMPTY;
        self.live.insert(first.map_or(0, |e| e.tid()));
        self.disabled_before.fill(None);
        self.mem.clear();
        self.last_acquire.clear();
        self.undo.clear();
        self.marks.clear();
    }

    /// Returns to the state before event `r`, if it keeps what it knows of a prefix:
    /// the next execution departs there, or earlier.
    pub fn rollback_to(&mut self, r: usize) {
        if self.journal && r < self.hb.len() {
            self.rollback(r);
        }
    }

    /// Returns to the state before event `r` (at most the number of events analysed).
    fn rollback(&mut self, r: usize) {
        let Some(&(undo, mem)) = self.marks.get(r) else {
            return;
        };
        for u in self.undo.drain(undo..).rev() {
            match u {
                Undo::Seq(t, v) => self.thread_seq[t as usize] = v,
                Undo::Last(t, v) => self.hb.thread_last[t as usize] = v,
                Undo::Disabled(t, v) => self.disabled_before[t as usize] = v,
                Undo::Live(t, true) => self.live.insert(t),
                Undo::Live(t, false) => self.live.remove(t),
                Undo::Lock(m, Some(h)) => {
                    self.last_acquire.insert(m, *h);
                }
                Undo::Lock(m, None) => {
                    self.last_acquire.remove(&m);
                }
            }
        }
        self.mem.rollback(mem);
        self.marks.truncate(r);
        self.hb.truncate(r);
    }

    /// Makes room in every clock for the threads of `events` and `pending`.
    fn widen<'a>(&mut self, events: impl Iterator<Item = &'a Event>, pending: &[Pending]) {
        let threads = events
            .flat_map(|e| {
                let created = (e.kind() == Kind::Create && e.aux != u32::MAX).then_some(e.aux);
                [Some(e.tid()), created]
            })
            .flatten()
            .chain(pending.iter().map(|p| p.event.tid()))
            .map(|t| t as usize + 1)
            .max()
            .unwrap_or(1);
        if threads > self.hb.width {
            self.hb.widen(threads);
            self.thread_seq.resize(threads, 0);
            self.disabled_before.resize(threads, None);
        }
    }

    fn log(&mut self, undo: Undo) {
        if self.journal {
            self.undo.push(undo);
        }
    }

    fn set_seq(&mut self, t: Tid, v: u32) {
        let old = std::mem::replace(&mut self.thread_seq[t as usize], v);
        self.log(Undo::Seq(t, old));
    }

    fn set_last(&mut self, t: Tid, v: Option<usize>) {
        let old = std::mem::replace(&mut self.hb.thread_last[t as usize], v);
        self.log(Undo::Last(t, old));
    }

    fn set_live(&mut self, t: Tid, live: bool) {
        self.log(Undo::Live(t, self.live.contains(t)));
        if live {
            self.live.insert(t);
        } else {
            self.live.remove(t);
        }
    }

    /// The holders of lock `m`, to change: journalled first.
    /// The event that enabled thread `t`'s next one, if `t` was blocked since its last.
    fn enabler(&self, t: Tid) -> Option<usize> {
        let t = t as usize;
        self.disabled_before[t].filter(|&k| Some(k) >= self.hb.thread_last[t])
    }

    fn holders(&mut self, m: u64) -> &mut Holders {
        if self.journal {
            let old = self.last_acquire.get(&m).cloned().map(Box::new);
            self.undo.push(Undo::Lock(m, old));
        }
        self.last_acquire.entry(m).or_default()
    }

    /// Is `i` a race candidate of the current event: another thread's, and not already
    /// happening before it?
    fn is_candidate(&self, i: usize) -> bool {
        let t = self.hb.events[i].tid();
        t != self.cur.tid && self.cur.base[t as usize] < self.hb.seq[i]
    }

    fn candidate(&mut self, i: usize) {
        if self.is_candidate(i) && !self.cur.cands.contains(&i) {
            self.cur.cands.push(i);
        }
    }

    /// Finds the conflicts of an access to `[lo, hi)` by event `i`, then records it.
    fn access(&mut self, i: usize, lo: u64, hi: u64, write: bool) {
        let mut mem = std::mem::take(&mut self.mem);
        mem.update(lo, hi, |cell| {
            if write {
                for &r in cell.reads() {
                    self.cur.preds.push(r as usize);
                    self.candidate(r as usize);
                }
            }
            if let Some(w) = cell.last_write() {
                self.cur.preds.push(w as usize);
                // A write already followed by a read of these bytes is ordered before
                // that read: the read is the race, not the write.
                if !write || cell.reads().is_empty() {
                    self.candidate(w as usize);
                }
            }
            if write {
                cell.write(i as u32);
            } else {
                // This thread's earlier read of these bytes is ordered before this one.
                let (t, events) = (self.cur.tid, &self.hb.events);
                cell.read(i as u32, |r| events[r as usize].tid() != t);
            }
        });
        self.mem = mem;
    }

    /// The conflicts of event `i`'s footprint with the last accesses; records it.
    fn accesses(&mut self, i: usize, e: &Event) {
        for r in ops::footprint(e).ranges() {
            let write = r.mode.writes() || !self.reads_commute;
            self.access(i, r.lo, r.hi, write);
        }
    }

    /// An acquisition races with the previous exclusive acquisition (by another thread)
    /// and, if it is `exclusive`, with the shared ones since, unless its own thread holds
    /// one of those: it cannot run before the others as long as its own hold lasts.
    fn acquisition(&mut self, m: u64, exclusive: bool) {
        let Some(h) = self.last_acquire.get(&m) else {
            return;
        };
        let (hb, cur) = (&self.hb, &mut self.cur);
        let shared = if exclusive && !h.holding.contains(&cur.tid) {
            &h.shared[..]
        } else {
            &[]
        };
        for &a in h.exclusive.iter().chain(shared) {
            let t = hb.events[a].tid();
            if t != cur.tid && cur.base[t as usize] < hb.seq[a] {
                cur.acquire.push(a);
            }
        }
    }

    /// Starts the analysis of event `e` of thread `t` (or of `t`'s pending event), from
    /// its thread's past and the signal that woke it, if it is a wake.
    fn begin(&mut self, t: Tid, e: &Event) {
        let (hb, cur) = (&self.hb, &mut self.cur);
        cur.tid = t;
        cur.base.clear();
        match hb.thread_last[t as usize] {
            Some(l) => cur.base.extend_from_slice(hb.clock(l)),
            None => cur.base.resize(hb.width, 0),
        }
        if let Some(s) = ops::woken_by(e).filter(|&s| s < hb.len()) {
            for (c, &sc) in cur.base.iter_mut().zip(hb.clock(s)) {
                *c = (*c).max(sc);
            }
        }
        cur.preds.clear();
        cur.cands.clear();
        cur.acquire.clear();
    }

    /// The races of the current event, whose later event is `later`: the immediate
    /// candidates (one that happens before another is reached through it), then the
    /// acquisitions it races with, which happen before the release in between, which is
    /// the point.
    fn push_races(&self, later: Later, out: &mut Vec<Race>) {
        let c = &self.cur.cands;
        let immediate =
            (c.iter().copied()).filter(|&x| !c.iter().any(|&y| y != x && self.hb.hb(x, y)));
        let acquire = (self.cur.acquire.iter().copied()).filter(|a| !c.contains(a));
        out.extend(
            immediate
                .chain(acquire)
                .map(|earlier| Race { earlier, later }),
        );
    }

    fn step(&mut self, i: usize) {
        let e = self.hb.events[i];
        let t = e.tid();
        let ti = t as usize;
        // Threads alive but not enabled before this event.
        let enabled = self.enabled.get(i).copied().unwrap_or(self.live);
        for u in self.live.minus(enabled).iter() {
            if let Some(d) = self.disabled_before.get_mut(u as usize) {
                if self.journal {
                    self.undo.push(Undo::Disabled(u, *d));
                }
                *d = Some(i);
            }
        }
        self.begin(t, &e);
        // The event that enabled it, if it was blocked since its previous one.
        let enabler = self.enabler(t);
        self.accesses(i, &e);
        // A blocking operation does not race with what it waited for.
        let events = &self.hb.events;
        self.cur.cands.retain(|&c| !ops::enables(&e, &events[c], c));
        if let Some(m) = ops::contends(&e) {
            self.acquisition(m, true);
        }
        if let Some(m) = ops::shares(&e) {
            self.acquisition(m, false);
            let h = self.holders(m);
            if !h.holding.contains(&t) {
                h.shared.push(i);
            }
            h.holding.push(t);
        }
        if let Some(m) = ops::unshares(&e) {
            let h = self.holders(m);
            if let Some(k) = h.holding.iter().position(|&x| x == t) {
                h.holding.swap_remove(k);
            }
        }
        if let Some(m) = ops::acquires(&e) {
            let h = self.holders(m);
            h.exclusive = Some(i);
            h.shared.clear();
        }
        if let Some(k) = enabler {
            self.cur.preds.push(k);
            self.cur.cands.retain(|&c| c != k);
            self.cur.acquire.retain(|&c| c != k);
        }
        let w = self.hb.width;
        let mut clock = std::mem::take(&mut self.cur.base);
        for &p in &self.cur.preds {
            for (c, &pc) in clock.iter_mut().zip(self.hb.clock(p)) {
                *c = (*c).max(pc);
            }
        }
        let s = self.thread_seq[ti] + 1;
        self.set_seq(t, s);
        clock[ti] = s;
        self.hb.seq[i] = s;
        self.hb.clocks[i * w..(i + 1) * w].copy_from_slice(&clock);
        self.cur.base = clock;
        self.hb.base[i] = self.hb.thread_last[ti];
        self.set_last(t, Some(i));
        match e.kind() {
            Kind::Create if (e.aux as usize) < w => {
                self.set_last(e.aux, Some(i));
                self.set_live(e.aux, true);
            }
            Kind::ThreadExit => self.set_live(t, false),
            _ => {}
        }
    }

    /// The races of the pending events (see `analyze`), after the last event's step.
    fn pending_races(&mut self, pending: &[Pending], scope: Scope, races: &mut Vec<Race>) {
        let n = self.hb.len();
        if scope.with_pending {
            let killer = if scope.kill && n > 0 {
                Some(n - 1)
            } else {
                None
            };
            let enabled_before_kill = killer.map_or(ThreadSet::EMPTY, |k| {
                self.enabled.get(k).copied().unwrap_or_default()
            });
            for (k, p) in pending.iter().enumerate() {
                let t = p.event.tid();
                if let Some(x) = killer {
                    if self.hb.events[x].tid() != t && p.enabled && enabled_before_kill.contains(t)
                    {
                        races.push(Race {
                            earlier: x,
                            later: Later::Pending(k),
                        });
                    }
                }
                let waits_for_mutex = p.event.kind() != Kind::CondWake || cond::woken(&p.event);
                let acquisition = ops::acquires(&p.event)
                    .map(|m| (m, true))
                    .or(ops::shares(&p.event).map(|m| (m, false)));
                if let (false, true, Some((m, exclusive))) =
                    (p.enabled, waits_for_mutex, acquisition)
                {
                    self.begin(t, &p.event);
                    self.acquisition(m, exclusive);
                    self.push_races(Later::Pending(k), races);
                }
            }
        }
        if scope.cut {
            for (k, p) in pending.iter().enumerate().filter(|(_, p)| p.enabled) {
                // Each as if it ran next, so none of them leaves its accesses behind.
                let journal = self.mem.journal(true);
                let mark = self.mem.mark();
                let t = p.event.tid();
                self.begin(t, &p.event);
                self.accesses(n, &p.event);
                let events = &self.hb.events;
                self.cur
                    .cands
                    .retain(|&c| !ops::enables(&p.event, &events[c], c));
                // A lock races with the last acquisition of its mutex, as in `step`, not
                // only with the release that let it run (found by a lock left pending
                // where a thread ran past --exec-timeout).
                if let Some(m) = ops::contends(&p.event) {
                    self.acquisition(m, true);
                }
                if let Some(d) = self.enabler(t) {
                    self.cur.acquire.retain(|&c| c != d);
                }
                self.push_races(Later::Pending(k), races);
                self.mem.rollback(mark);
                self.mem.journal(journal);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(t: Tid, a: u64) -> Event {
        Event::mem(t, Kind::Write, a, 4)
    }
    fn r(t: Tid, a: u64) -> Event {
        Event::mem(t, Kind::Read, a, 4)
    }

    fn scope(from: usize, reads_commute: bool) -> Scope {
        Scope {
            from,
            kill: false,
            with_pending: true,
            cut: true,
            reads_commute,
        }
    }

    /// Analyses `events` with `analysis` and from scratch, and compares the two.
    fn check(analysis: &mut Analysis, events: &[Event], enabled: &[ThreadSet], scope: Scope) {
        let pending = [Pending {
            event: w(2, 0),
            enabled: true,
        }];
        let mut races = Vec::new();
        analysis.analyze(events, enabled, &pending, scope, &mut races);
        let (hb, expected) = analyze(events, enabled, &pending, scope);
        assert_eq!(races, expected, "{events:?} {scope:?}");
        let got = analysis.hb();
        for i in 0..events.len() {
            assert_eq!(got.hb_pending(i, 2), hb.hb_pending(i, 2));
            for j in 0..events.len() {
                assert_eq!(got.hb(i, j), hb.hb(i, j), "hb({i}, {j}) of {events:?}");
                let later = Later::Event(j);
                assert_eq!(
                    got.hb_thread_of(i, later, &pending),
                    hb.hb_thread_of(i, later, &pending)
                );
            }
        }
    }

    /// What a re-executed prefix may differ in (a value that decides a footprint, the
    /// threads enabled), a shorter execution and the other dependence all make the
    /// analysis go back to where the difference is, not just to `scope.from`.
    #[test]
    fn a_prefix_that_differs_is_analysed_again() {
        let mut analysis = Analysis::default();
        let all: ThreadSet = [0, 1, 2].into_iter().collect();
        let mut events = vec![
            w(0, 0),
            r(1, 0),
            r(0, 24),
            w(1, 8),
            r(0, 8),
            w(0, 0),
            r(1, 0),
        ];
        let mut enabled = vec![all; events.len()];
        check(&mut analysis, &events, &enabled, scope(0, true));
        events[1] = r(1, 16);
        check(&mut analysis, &events, &enabled, scope(4, true));
        // T0 blocked before event 1: that event is what let its next one (2) run.
        enabled[1].remove(0);
        check(&mut analysis, &events, &enabled, scope(5, true));
        enabled.pop();
        check(&mut analysis, &events, &enabled, scope(6, true));
        check(&mut analysis, &events, &enabled, scope(3, false));
        check(&mut analysis, &events[..4], &enabled, scope(2, false));
        events[0] = w(1, 0);
        check(&mut analysis, &events, &enabled, scope(5, false));
        check(&mut analysis, &events, &enabled, scope(5, true));
    }
}
