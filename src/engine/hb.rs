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

use std::collections::HashMap;

use super::shadow::Shadow;
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

#[derive(Clone, Copy, Debug)]
pub struct Race {
    pub earlier: usize,
    pub later: Later,
}

/// Vector clocks of one execution's events.
pub struct Hb {
    width: usize,
    clocks: Vec<u32>,
    seq: Vec<u32>,
    tids: Vec<Tid>,
    /// The event whose clock an event starts from (its thread's previous event, or the
    /// creation of its thread), before it joins the clocks of what it conflicts with.
    base: Vec<Option<usize>>,
    /// Each thread's clock at the end of the execution (what its pending event would see).
    final_clocks: Vec<u32>,
}

impl Hb {
    fn clock(&self, i: usize) -> &[u32] {
        &self.clocks[i * self.width..(i + 1) * self.width]
    }

    /// Does event `i` happen before (or equal) event `j`?
    pub fn hb(&self, i: usize, j: usize) -> bool {
        self.clock(j)[self.tids[i] as usize] >= self.seq[i]
    }

    /// Does event `i` happen before the pending event of thread `t`?
    pub fn hb_pending(&self, i: usize, t: Tid) -> bool {
        let c = &self.final_clocks[t as usize * self.width..(t as usize + 1) * self.width];
        c[self.tids[i] as usize] >= self.seq[i]
    }

    /// Does `i` happen before what the thread of the `later` event of a race had done
    /// before that event (F&G's `i →S p`)?
    pub fn hb_thread_of(&self, i: usize, later: Later, pending: &[Pending]) -> bool {
        match later {
            Later::Event(j) => self.base[j].is_some_and(|b| self.hb(i, b)),
            Later::Pending(k) => self.hb_pending(i, pending[k].event.tid()),
        }
    }
}

struct State<'a> {
    events: &'a [Event],
    enabled: &'a [ThreadSet],
    width: usize,
    clocks: Vec<u32>,
    seq: Vec<u32>,
    thread_clock: Vec<u32>,
    thread_seq: Vec<u32>,
    /// The last event of each thread, or the creation of the thread.
    thread_last: Vec<Option<usize>>,
    base: Vec<Option<usize>>,
    mem: Shadow,
    /// The acquisitions of each lock since its last exclusive one, included.
    last_acquire: HashMap<u64, Holders>,
    /// Threads created and not finished.
    live: ThreadSet,
    /// Per thread, the last event before which it was alive but not enabled.
    disabled_before: Vec<Option<usize>>,
    reads_commute: bool,
    cur: Current,
}

#[derive(Default)]
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

impl State<'_> {
    fn clock(&self, i: usize) -> &[u32] {
        &self.clocks[i * self.width..(i + 1) * self.width]
    }

    fn hb(&self, i: usize, j: usize) -> bool {
        self.clock(j)[self.events[i].tid() as usize] >= self.seq[i]
    }

    /// Is `i` a race candidate of the current event: another thread's, and not already
    /// happening before it?
    fn is_candidate(&self, i: usize) -> bool {
        let t = self.events[i].tid();
        t != self.cur.tid && self.cur.base[t as usize] < self.seq[i]
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
            for &r in &cell.reads {
                if write {
                    self.cur.preds.push(r as usize);
                    self.candidate(r as usize);
                }
            }
            if let Some(w) = cell.last_write {
                self.cur.preds.push(w as usize);
                // A write already followed by a read of these bytes is ordered before
                // that read: the read is the race, not the write.
                if !write || cell.reads.is_empty() {
                    self.candidate(w as usize);
                }
            }
            if write {
                cell.last_write = Some(i as u32);
                cell.reads.clear();
            } else {
                // This thread's earlier read of these bytes is ordered before this one.
                let t = self.cur.tid;
                cell.reads.retain(|&r| self.events[r as usize].tid() != t);
                cell.reads.push(i as u32);
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
        let (events, seq, cur) = (self.events, &self.seq, &mut self.cur);
        let shared = if exclusive && !h.holding.contains(&cur.tid) {
            &h.shared[..]
        } else {
            &[]
        };
        for &a in h.exclusive.iter().chain(shared) {
            let t = events[a].tid();
            if t != cur.tid && cur.base[t as usize] < seq[a] {
                cur.acquire.push(a);
            }
        }
    }

    /// Starts the analysis of event `e` of thread `t` (or of `t`'s pending event), from
    /// its thread's past and the signal that woke it, if it is a wake.
    fn begin(&mut self, t: Tid, e: &Event) {
        let w = self.width;
        self.cur.tid = t;
        self.cur.base.clear();
        self.cur
            .base
            .extend_from_slice(&self.thread_clock[t as usize * w..(t as usize + 1) * w]);
        if let Some(s) = ops::woken_by(e).filter(|&s| s < self.seq.len()) {
            for (c, &sc) in self
                .cur
                .base
                .iter_mut()
                .zip(&self.clocks[s * w..(s + 1) * w])
            {
                *c = (*c).max(sc);
            }
        }
        self.cur.preds.clear();
        self.cur.cands.clear();
        self.cur.acquire.clear();
    }

    /// The races of the current event: the immediate candidates (one that happens before
    /// another is reached through it), then the acquisitions it races with, which happen
    /// before the release in between, which is the point.
    fn races(&self) -> Vec<usize> {
        let c = &self.cur.cands;
        let mut out: Vec<usize> = c
            .iter()
            .copied()
            .filter(|&x| !c.iter().any(|&y| y != x && self.hb(x, y)))
            .collect();
        out.extend(self.cur.acquire.iter().filter(|a| !c.contains(a)));
        out
    }

    fn step(&mut self, i: usize) {
        let e = self.events[i];
        let t = e.tid();
        let ti = t as usize;
        // Threads alive but not enabled before this event.
        let enabled = self.enabled.get(i).copied().unwrap_or(self.live);
        for u in self.live.minus(enabled).iter() {
            if let Some(d) = self.disabled_before.get_mut(u as usize) {
                *d = Some(i);
            }
        }
        self.begin(t, &e);
        // The event that enabled it, if it was blocked since its previous one.
        let enabler = self.disabled_before[ti].filter(|&k| Some(k) >= self.thread_last[ti]);
        self.accesses(i, &e);
        // A blocking operation does not race with what it waited for.
        let events = self.events;
        self.cur.cands.retain(|&c| !ops::enables(&e, &events[c], c));
        if let Some(m) = ops::contends(&e) {
            self.acquisition(m, true);
        }
        if let Some(m) = ops::shares(&e) {
            self.acquisition(m, false);
            let h = self.last_acquire.entry(m).or_default();
            if !h.holding.contains(&t) {
                h.shared.push(i);
            }
            h.holding.push(t);
        }
        if let Some(m) = ops::unshares(&e) {
            let h = self.last_acquire.entry(m).or_default();
            if let Some(k) = h.holding.iter().position(|&x| x == t) {
                h.holding.swap_remove(k);
            }
        }
        if let Some(m) = ops::acquires(&e) {
            let h = self.last_acquire.entry(m).or_default();
            h.exclusive = Some(i);
            h.shared.clear();
        }
        if let Some(k) = enabler {
            self.cur.preds.push(k);
            self.cur.cands.retain(|&c| c != k);
            self.cur.acquire.retain(|&c| c != k);
        }
        let w = self.width;
        let mut clock = std::mem::take(&mut self.cur.base);
        for &p in &self.cur.preds {
            for (c, &pc) in clock.iter_mut().zip(&self.clocks[p * w..(p + 1) * w]) {
                *c = (*c).max(pc);
            }
        }
        self.thread_seq[ti] += 1;
        let s = self.thread_seq[ti];
        clock[ti] = s;
        self.seq[i] = s;
        self.clocks[i * w..(i + 1) * w].copy_from_slice(&clock);
        self.thread_clock[ti * w..(ti + 1) * w].copy_from_slice(&clock);
        self.base[i] = self.thread_last[ti];
        self.thread_last[ti] = Some(i);
        match e.kind() {
            Kind::Create if (e.aux as usize) < w => {
                let c = e.aux as usize;
                self.thread_clock[c * w..(c + 1) * w].copy_from_slice(&clock);
                self.thread_last[c] = Some(i);
                self.live.insert(e.aux);
            }
            Kind::ThreadExit => self.live.remove(t),
            _ => {}
        }
    }
}

/// What `analyze` looks at.
#[derive(Clone, Copy, Debug)]
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
    let Scope {
        from,
        kill,
        with_pending,
        cut,
        reads_commute,
    } = scope;
    let threads = events
        .iter()
        .map(|e| e.tid() as usize + 1)
        .chain(
            events
                .iter()
                .filter(|e| e.kind() == Kind::Create && e.aux != u32::MAX)
                .map(|e| e.aux as usize + 1),
        )
        .chain(pending.iter().map(|p| p.event.tid() as usize + 1))
        .max()
        .unwrap_or(1);
    let n = events.len();
    let mut live = ThreadSet::EMPTY;
    live.insert(events.first().map_or(0, |e| e.tid()));
    let mut st = State {
        events,
        enabled,
        width: threads,
        clocks: vec![0; n * threads],
        seq: vec![0; n],
        thread_clock: vec![0; threads * threads],
        thread_seq: vec![0; threads],
        thread_last: vec![None; threads],
        base: vec![None; n],
        mem: Shadow::default(),
        last_acquire: HashMap::new(),
        live,
        disabled_before: vec![None; threads],
        reads_commute,
        cur: Current::default(),
    };
    let mut races = Vec::new();
    for i in 0..n {
        st.step(i);
        if i >= from {
            races.extend(st.races().into_iter().map(|c| Race {
                earlier: c,
                later: Later::Event(i),
            }));
        }
    }
    if with_pending {
        let killer = if kill && n > 0 { Some(n - 1) } else { None };
        let enabled_before_kill = killer.map_or(ThreadSet::EMPTY, |k| {
            enabled.get(k).copied().unwrap_or_default()
        });
        for (k, p) in pending.iter().enumerate() {
            let t = p.event.tid();
            if let Some(x) = killer {
                if events[x].tid() != t && p.enabled && enabled_before_kill.contains(t) {
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
            if let (false, true, Some((m, exclusive))) = (p.enabled, waits_for_mutex, acquisition) {
                st.begin(t, &p.event);
                st.acquisition(m, exclusive);
                races.extend(st.races().into_iter().map(|c| Race {
                    earlier: c,
                    later: Later::Pending(k),
                }));
            }
        }
    }
    if cut {
        for (k, p) in pending.iter().enumerate().filter(|(_, p)| p.enabled) {
            // Each as if it ran next, so none of them leaves its accesses behind.
            let mem = st.mem.clone();
            st.begin(p.event.tid(), &p.event);
            st.accesses(n, &p.event);
            st.cur
                .cands
                .retain(|&c| !ops::enables(&p.event, &events[c], c));
            races.extend(st.races().into_iter().map(|c| Race {
                earlier: c,
                later: Later::Pending(k),
            }));
            st.mem = mem;
        }
    }
    let hb = Hb {
        width: threads,
        clocks: st.clocks,
        seq: st.seq,
        tids: events.iter().map(|e| e.tid()).collect(),
        base: st.base,
        final_clocks: st.thread_clock,
    };
    (hb, races)
}
