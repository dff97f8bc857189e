//! Happens-before over one execution, and its races.
//!
//! Each event gets a vector clock. Shared state keeps, per object, the last write and the
//! reads since it (per thread, the last one), so that a new event's races are found in
//! O(threads) and reads commute (Flanagan & Godefroid, Fig. 5, extended with read sets).
//! Memory objects are bytes, tracked as ranges of bytes with the same history (`shadow`), so
//! accesses of any size and alignment conflict exactly when their bytes overlap and one
//! writes, and a large `memset` costs as little as a small store.
//!
//! A race `e ⋖ e'`: `e` and `e'` are dependent, of different threads, `e` happens before
//! `e'` only through their own conflict (not through `e'`'s program-order past), and no
//! other such event lies HB-between them. Mutex acquisitions race with the previous
//! acquisition, not with the release in between (a release is never a backtrack point).

use std::collections::HashMap;

use super::shadow::Shadow;
use cdpor_sched::event::FLAG_FROM_TRY;
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
    pub fn hb_thread_of(&self, i: usize, later: Later, pending: &[super::Pending]) -> bool {
        match later {
            Later::Event(j) => self.base[j].is_some_and(|b| self.hb(i, b)),
            Later::Pending(k) => self.hb_pending(i, pending[k].event.tid()),
        }
    }
}

#[derive(Default)]
struct MutexObj {
    last_write: Option<usize>,
    /// Failed trylocks since the last write.
    reads: Vec<usize>,
    last_acquire: Option<usize>,
}

struct State<'a> {
    events: &'a [Event],
    width: usize,
    clocks: Vec<u32>,
    seq: Vec<u32>,
    thread_clock: Vec<u32>,
    thread_seq: Vec<u32>,
    /// The last event of each thread, or the creation of the thread.
    thread_last: Vec<Option<usize>>,
    base: Vec<Option<usize>>,
    mem: Shadow,
    mutexes: HashMap<u64, MutexObj>,
    last_create: Option<usize>,
    exit_of: Vec<Option<usize>>,
    /// Last wait or signal on each condition variable.
    cond_last: HashMap<u64, usize>,
    /// The condition each thread waits on, and the signal that woke it.
    waiting_on: Vec<Option<u64>>,
    woken_by: Vec<Option<usize>>,
    reads_commute: bool,
    cur: Current,
}

/// What is being worked out for the event under analysis.
#[derive(Default)]
struct Current {
    tid: Tid,
    /// The clock the event starts from (program order and earlier joins).
    base: Vec<u32>,
    /// Events it conflicts with: their clocks join into its own.
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

    /// Memory: finds the conflicts of an access to `[lo, hi)` by event `i`, then records it.
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

    /// A mutex operation that changes the mutex: ordered after everything on it before.
    /// It races with the failed trylocks since the last change, and with that change
    /// itself when `race_with_write` (and no trylock failed since).
    fn mutex_write(&mut self, i: usize, addr: u64, race_with_write: bool) {
        let m = self.mutexes.remove(&addr).unwrap_or_default();
        self.cur.preds.extend(m.last_write);
        self.cur.preds.extend(m.reads.iter().copied());
        for &r in &m.reads {
            self.candidate(r);
        }
        if race_with_write && m.reads.is_empty() {
            if let Some(w) = m.last_write {
                self.candidate(w);
            }
        }
        let last_acquire = m.last_acquire;
        self.mutexes.insert(
            addr,
            MutexObj {
                last_write: Some(i),
                reads: Vec::new(),
                last_acquire,
            },
        );
    }

    /// A mutex acquisition races with the previous acquisition (by another thread), not
    /// with the release in between: it could not have run before that release.
    fn acquire_candidate(&mut self, addr: u64) {
        if let Some(a) = self.mutexes.get(&addr).and_then(|m| m.last_acquire) {
            if self.is_candidate(a) {
                self.cur.acquire.push(a);
            }
        }
    }

    /// A wait or signal on condition `c`: ordered after, and racing with, the last one.
    fn cond_op(&mut self, i: usize, c: u64) {
        if let Some(w) = self.cond_last.insert(c, i) {
            self.cur.preds.push(w);
            self.candidate(w);
        }
    }

    /// A wake is enabled by the signal that woke thread `t`: that signal is part of its
    /// past, like a thread's exit is part of a join's (the wake cannot move before it).
    fn woken(&mut self, t: Tid) {
        if let Some(s) = self.woken_by[t as usize].take() {
            let w = self.width;
            for (c, &sc) in self
                .cur
                .base
                .iter_mut()
                .zip(&self.clocks[s * w..(s + 1) * w])
            {
                *c = (*c).max(sc);
            }
            self.cur.preds.push(s);
        }
    }

    /// Starts the analysis of an event of thread `t` (or of `t`'s pending event).
    fn begin(&mut self, t: Tid) {
        let w = self.width;
        self.cur.tid = t;
        self.cur.base.clear();
        self.cur
            .base
            .extend_from_slice(&self.thread_clock[t as usize * w..(t as usize + 1) * w]);
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
        self.begin(t);
        match e.kind() {
            Kind::Read | Kind::Write | Kind::Rmw | Kind::CmpXchg | Kind::Copy => {
                if let Some((lo, hi)) = e.reads() {
                    let write_too = e.writes() == Some((lo, hi)) || !self.reads_commute;
                    self.access(i, lo, hi, write_too);
                }
                if let Some((lo, hi)) = e.writes() {
                    if e.reads() != Some((lo, hi)) {
                        self.access(i, lo, hi, true);
                    }
                }
            }
            Kind::Lock | Kind::TryLock => {
                // A trylock is never blocked: moved before the release that let it in,
                // it fails, so it races with that release too.
                self.acquire_candidate(e.addr);
                let is_try = e.kind() == Kind::TryLock || e.flags & FLAG_FROM_TRY != 0;
                self.mutex_write(i, e.addr, is_try);
                self.mutexes
                    .get_mut(&e.addr)
                    .expect("just written")
                    .last_acquire = Some(i);
            }
            Kind::TryFail if !self.reads_commute => self.mutex_write(i, e.addr, true),
            Kind::TryFail => {
                let m = self.mutexes.entry(e.addr).or_default();
                let w = m.last_write;
                let events = self.events;
                m.reads.retain(|&r| events[r].tid() != t);
                m.reads.push(i);
                if let Some(w) = w {
                    self.cur.preds.push(w);
                    self.candidate(w);
                }
            }
            // The release races with failed trylocks before it: "reads" since the last
            // write, or, when they do not commute, the last write itself.
            Kind::Unlock => self.mutex_write(i, e.addr, !self.reads_commute),
            Kind::MutexInit | Kind::MutexDestroy => self.mutex_write(i, e.addr, true),
            // Releases the mutex like an unlock, and waits on the condition.
            Kind::CondWait => {
                self.mutex_write(i, e.src, !self.reads_commute);
                self.cond_op(i, e.addr);
                self.waiting_on[t as usize] = Some(e.addr);
            }
            Kind::CondSignal => {
                self.cond_op(i, e.addr);
                for u in 0..self.width {
                    if self.waiting_on[u] == Some(e.addr) {
                        self.waiting_on[u] = None;
                        self.woken_by[u] = Some(i);
                    }
                }
            }
            // Reacquires the mutex like a lock, once woken.
            Kind::CondWake => {
                self.woken(t);
                self.acquire_candidate(e.src);
                self.mutex_write(i, e.src, false);
                self.mutexes
                    .get_mut(&e.src)
                    .expect("just written")
                    .last_acquire = Some(i);
            }
            Kind::Create => {
                if let Some(c) = self.last_create {
                    self.cur.preds.push(c);
                    self.candidate(c);
                }
                self.last_create = Some(i);
            }
            Kind::Join => {
                if let Some(x) = self.exit_of.get(e.aux as usize).copied().flatten() {
                    self.cur.preds.push(x);
                }
            }
            Kind::ThreadExit => {
                if let Some(slot) = self.exit_of.get_mut(t as usize) {
                    *slot = Some(i);
                }
            }
            Kind::Fence | Kind::ProcessExit | Kind::AssertFail | Kind::Abort => {}
        }
        let w = self.width;
        let mut clock = std::mem::take(&mut self.cur.base);
        for &p in &self.cur.preds {
            for (c, &pc) in clock.iter_mut().zip(&self.clocks[p * w..(p + 1) * w]) {
                *c = (*c).max(pc);
            }
        }
        self.thread_seq[t as usize] += 1;
        let s = self.thread_seq[t as usize];
        clock[t as usize] = s;
        self.seq[i] = s;
        self.clocks[i * w..(i + 1) * w].copy_from_slice(&clock);
        self.thread_clock[t as usize * w..(t as usize + 1) * w].copy_from_slice(&clock);
        self.base[i] = self.thread_last[t as usize];
        self.thread_last[t as usize] = Some(i);
        if e.kind() == Kind::Create && (e.aux as usize) < w {
            let c = e.aux as usize;
            self.thread_clock[c * w..(c + 1) * w].copy_from_slice(&clock);
            self.thread_last[c] = Some(i);
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
    /// Reads of the same bytes commute (false: classic DPOR's coarser dependence).
    pub reads_commute: bool,
}

/// Computes happens-before for `events` and the races whose later event is at index
/// `scope.from` or beyond, or is one of the `pending` events (`scope.with_pending`).
///
/// Pending events take part as follows. When the last event ended the program
/// (`scope.kill`), each thread that could have run instead races with it. Blocked lock
/// acquisitions race with the previous acquisition, as if they ran at the end.
pub fn analyze(events: &[Event], pending: &[super::Pending], scope: Scope) -> (Hb, Vec<Race>) {
    let Scope {
        from,
        kill,
        with_pending,
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
    let mut st = State {
        events,
        width: threads,
        clocks: vec![0; n * threads],
        seq: vec![0; n],
        thread_clock: vec![0; threads * threads],
        thread_seq: vec![0; threads],
        thread_last: vec![None; threads],
        base: vec![None; n],
        mem: Shadow::default(),
        mutexes: HashMap::new(),
        last_create: None,
        exit_of: vec![None; threads],
        cond_last: HashMap::new(),
        waiting_on: vec![None; threads],
        woken_by: vec![None; threads],
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
        let enabled_before_kill = killer.map_or(ThreadSet::EMPTY, |k| ThreadSet(events[k].enabled));
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
            let woken = p.event.kind() == Kind::CondWake && p.event.value == 1;
            if !p.enabled && (p.event.kind() == Kind::Lock || woken) {
                st.begin(t);
                st.woken(t);
                st.acquire_candidate(
                    p.event
                        .kind()
                        .mutex_of(&p.event)
                        .expect("a mutex operation"),
                );
                races.extend(st.races().into_iter().map(|c| Race {
                    earlier: c,
                    later: Later::Pending(k),
                }));
            }
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
