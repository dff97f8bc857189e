//! Loops: each thread's record of the loop activations it is in, from which an iteration
//! that changed nothing is told (the thread then waits in an await, `ops::awaits`) and
//! `--unroll` is counted; and what a timed or spurious wake-up left ruled out (`Restore`).

use super::*;

/// Loop-carried values a loop record keeps; the instrumentation does not let a loop with
/// more wait (`cdpor_loop`).
pub(super) const LOOP_VALS: usize = 6;

/// Loops a thread keeps track of at once (innermost activations first out).
pub(super) const LOOP_RECORDS: usize = 6;

/// Writes a `Restore` keeps track of.
pub(super) const RESTORE_LOG: usize = 8;

/// The thread's writes since its last wait that ended without a signal (the marks of
/// `Thread`), each with what its bytes held before: a retry loop that recomputes its
/// deadline each time (`clock_gettime(&ts); ts.tv_sec += 1;`) writes the same values
/// again, which changes nothing, so timing out again would only repeat that. Values are
/// those of the thread's own writes and of what they overwrote, which the writes that
/// conflict with them decide: the same in every execution of a trace.
#[derive(Clone, Copy)]
pub(super) struct Restore {
    /// The thread's `changes` at that wait, and the writes since (each a change).
    pub(super) base: u32,
    pub(super) writes: u32,
    /// More writes than the log holds, or one it cannot compare.
    pub(super) full: bool,
    pub(super) n: usize,
    /// Address, length, bytes before the first write, bytes of the last.
    pub(super) log: [(u64, u32, u64, u64); RESTORE_LOG],
}

pub(super) const NO_RESTORE: Restore = Restore {
    base: 0,
    writes: 0,
    full: false,
    n: 0,
    log: [(0, 0, 0, 0); RESTORE_LOG],
};

impl Restore {
    pub(super) fn from(changes: u32) -> Restore {
        Restore {
            base: changes,
            ..NO_RESTORE
        }
    }

    /// The thread wrote `value` over `before` (the bytes at `addr`, if known).
    pub(super) fn wrote(&mut self, addr: u64, len: u32, before: Option<u64>, value: Option<u64>) {
        self.writes += 1;
        let (Some(before), Some(value), false) = (before, value, self.full || len > 8) else {
            self.full = true;
            return;
        };
        let end = addr + len as u64;
        let log = &mut self.log[..self.n];
        if let Some(w) = log
            .iter_mut()
            .find(|w| w.0 < end && addr < w.0 + w.1 as u64)
        {
            if (w.0, w.1) == (addr, len) {
                w.3 = value;
            } else {
                self.full = true;
            }
        } else if self.n == RESTORE_LOG {
            self.full = true;
        } else {
            self.log[self.n] = (addr, len, before, value);
            self.n += 1;
        }
    }

    /// Did the thread, now at `changes`, change nothing since the wait at `mark` but
    /// write bytes back as they were?
    pub(super) fn undone(&self, mark: u32, changes: u32) -> bool {
        self.base == mark
            && !self.full
            && changes.wrapping_sub(mark) == self.writes
            && self.log[..self.n].iter().all(|w| w.2 == w.3)
    }
}

/// The most events of a thread's iterations that `Exec::private_since` looks at.
const PRIVATE_EVENTS: usize = 4096;

/// A thread's last visit of the head of one activation of a loop.
#[derive(Clone, Copy)]
pub(super) struct LoopRecord {
    pub(super) loop_id: u32,
    /// The frame of the function running it: activations of one loop in recursive calls
    /// are different loops.
    pub(super) frame: u64,
    /// The step, and the thread's events and state-changing events, at that visit.
    pub(super) step: u32,
    pub(super) events: u32,
    pub(super) changes: u32,
    /// The thread's reads of the clock at that visit.
    pub(super) clocks: u32,
    /// Iterations that count toward `--unroll`, since step `counted_from`.
    pub(super) iterations: u32,
    pub(super) counted_from: u32,
    /// The threads the thread had created and joined at that visit.
    pub(super) threads: u32,
    pub(super) vals: [u64; LOOP_VALS],
    pub(super) n: u32,
    /// The thread's `errno`, which its loop may read (its own library calls set it).
    pub(super) errno: c_int,
    /// The visit began the activation (it came from outside the loop).
    pub(super) entered: bool,
}

pub(super) const NO_RECORD: LoopRecord = LoopRecord {
    loop_id: u32::MAX,
    frame: 0,
    step: 0,
    events: 0,
    changes: 0,
    clocks: 0,
    iterations: 0,
    counted_from: 0,
    threads: 0,
    vals: [0; LOOP_VALS],
    n: 0,
    errno: 0,
    entered: false,
};

impl LoopRecord {
    /// A visit of loop `loop_id` in `frame` with these values (and `errno`, when the
    /// loop may read it).
    pub(super) fn new(loop_id: u32, frame: u64, vals: &[u64], flags: u32) -> LoopRecord {
        let mut r = LoopRecord {
            loop_id,
            frame,
            n: vals.len() as u32,
            errno: if flags & LOOP_ERRNO != 0 { *errno() } else { 0 },
            ..NO_RECORD
        };
        r.vals[..vals.len()].copy_from_slice(vals);
        r
    }

    /// This visit, by thread `th` at `step`, after `iterations` counted ones since step
    /// `counted_from`.
    pub(super) fn visited(
        self,
        th: &Thread,
        step: u32,
        iterations: u32,
        counted_from: u32,
    ) -> LoopRecord {
        LoopRecord {
            step,
            events: th.events,
            changes: th.changes,
            clocks: th.clocks,
            iterations,
            counted_from,
            threads: th.children + th.joins,
            ..self
        }
    }

    /// Did the loop come back to its head as it was at this visit?
    pub(super) fn same_values(&self, other: &LoopRecord) -> bool {
        self.n == other.n
            && self.vals[..self.n as usize] == other.vals[..other.n as usize]
            && self.errno == other.errno
    }
}

impl Thread {
    /// The record of `loop_id`'s activation in `frame`, if it has one, else the slot
    /// a new one takes: records of frames below this one belong to calls that have
    /// returned; else the oldest visit goes.
    pub(super) fn loop_record(&self, loop_id: u32, frame: u64) -> (usize, bool) {
        let found = self
            .loops
            .iter()
            .position(|r| r.loop_id == loop_id && r.frame == frame);
        let slot = found.unwrap_or_else(|| {
            (0..LOOP_RECORDS)
                .find(|&i| self.loops[i].frame < frame)
                .unwrap_or_else(|| {
                    (0..LOOP_RECORDS)
                        .min_by_key(|&i| self.loops[i].step)
                        .expect("records")
                })
        });
        (slot, found.is_some())
    }
}

/// What a loop that made no progress depends on (`Exec::stalled`).
pub(super) struct Stall {
    pub(super) watch: Watch,
    /// The step of the first write by another thread that changed bytes the iteration
    /// had accessed, if any.
    pub(super) woken_at: Option<u32>,
}

/// The current thread read the clock. No event (time stands still), but progress for its
/// loops, which count it toward `--unroll` as an event: a loop that waits for time to
/// pass is no await (`src/instrument/loops.rs`), and must not go round unbounded.
#[no_mangle]
pub extern "C" fn cdpor_clock_read() {
    let e = ex();
    let th = &mut e.threads[e.cur as usize];
    th.events += 1;
    th.clocks += 1;
}

/// The head of a loop, reached by the current thread: on entry (`flags` bit 0 clear) a
/// new record of the loop's activation; through the back edge, the end of an iteration.
/// An iteration with an effect counts toward `--unroll` (for a loop the instrumentation
/// could not see all the effects of, `flags` bit 1 clear, any iteration with an event
/// does). An iteration that changed nothing and left the loop-carried values `vals[n]` as
/// they were would repeat itself: the thread spins, stopped for good (`awaits`).
///
/// # Safety
/// `vals` must point to `n` values (or, when `n` is 0, anywhere in the caller's frame).
#[no_mangle]
pub unsafe extern "C" fn cdpor_loop(loop_id: u32, flags: u32, vals: *const u64, n: u32, site: u32) {
    let e = ex();
    let t = e.cur as usize;
    let frame = vals as u64;
    let n = (n as usize).min(LOOP_VALS);
    let now = LoopRecord::new(loop_id, frame, std::slice::from_raw_parts(vals, n), flags);
    let back = flags & LOOP_BACK != 0;
    let may_wait = flags & LOOP_MAY_WAIT != 0;
    let (i, found) = e.threads[t].loop_record(loop_id, frame);
    if e.threads[t].atomic > 0 {
        // Inside an atomic section the loop is part of one step, and no other thread
        // runs: an iteration that changed nothing and left the loop's values as they
        // were would go round for ever. The section cannot complete in this state: like
        // a false assumption there, it waits for a write that could change what it read.
        let (Some(sec), true) = (e.threads[t].section, may_wait) else {
            return;
        };
        let rec = e.threads[t].loops[i];
        let clocks = e.threads[t].clocks;
        let same = rec.changes == sec.changes && rec.clocks == clocks && rec.same_values(&now);
        if found && back && same {
            cdpor_assume(0, site);
        }
        e.threads[t].loops[i] = LoopRecord {
            changes: sec.changes,
            clocks,
            ..now
        };
        return;
    }
    let step = e.sched.step() as u32;
    let unroll = e.hdr().unroll;
    let th = &mut e.threads[t];
    if flags & LOOP_ENDLESS != 0 && found && back {
        // The first iteration of a loop that cannot be left ended: the thread waits for
        // good (an await of nothing), which is all that others could ever tell of it.
        let from = th.loops[i].step as usize;
        e.in_runtime = true;
        e.spin(from, site)
    }
    if !(found && back) {
        // A new activation.
        th.loops[i] = LoopRecord {
            entered: true,
            ..now.visited(th, step, 0, step)
        };
        return;
    }
    let rec = th.loops[i];
    let (changes, events) = (th.changes, th.events);
    let progressed = if may_wait {
        // Taking and freeing mutexes as often makes an even number of changes.
        let n = changes.wrapping_sub(rec.changes);
        n != 0 && !(n % 2 == 0 && e.relocked_only(t as Tid, rec.step as usize))
    } else {
        events != rec.events
    };
    // Loops that run while the thread is alone end or hang by themselves. Alone as far
    // as it knows: main once it has joined every thread there is. Whether another
    // thread has finished without its knowing must not change what it does, or
    // re-executing a schedule in which that thread finished later would not give back
    // the same events. A loop that waits for the clock is the exception: time stands
    // still here, so it would hang where the program would not.
    let alone = t == 0 && e.threads[t].unfinished == 0 && e.threads[t].clocks == rec.clocks;
    // A memoryless loop's values come back as the next iteration leaves them, whatever
    // they were before (`LOOP_MEMORYLESS`; not for the oracle, which compares them).
    let oracle = e.hdr().flags & shm::FLAG_ALL_RETRIES != 0;
    let same = rec.same_values(&now) || (flags & LOOP_MEMORYLESS != 0 && !oracle);
    // Time stands still here, but not in the program's intent: an iteration that read
    // the clock waits for time to pass, which no other thread does, so it is no await
    // (that would leave out what the program does once the time has passed, and call
    // a wait for time a livelock) but counts toward --unroll (`looked`).
    let timed = e.threads[t].clocks != rec.clocks;
    let stalls = may_wait && !progressed && same && !timed;
    let peeled = flags & LOOP_PEELED != 0 && !oracle;
    let retry = flags & LOOP_RETRY != 0 && !oracle;
    if (retry && !same || peeled) && may_wait && !progressed && !timed && rec.entered {
        if let Some(from) = e.retry_redundant(t as Tid, &rec, &now, peeled) {
            e.in_runtime = true;
            e.spin(from, site)
        }
    }
    if !same || !may_wait {
        // A value of the loop moved on (a retry counter), or may have (an effect the
        // runtime does not see): the thread's next condition wait may end without a
        // signal again, however its last one ended.
        let th = &mut e.threads[t];
        th.spurious_mark = None;
        th.timeout_mark = None;
    }
    // An iteration that only looked but moved a counter on counts too: nothing else
    // bounds how often it looks before the thread it waits for acts.
    let looked = !progressed && e.threads[t].events != rec.events;
    // Creations are bounded by --max-threads (and the steps of an execution), and so
    // are joins, so that a loop that creates or joins threads runs for as many as the
    // program has.
    let threads = e.threads[t].children + e.threads[t].joins != rec.threads;
    let mut iterations =
        rec.iterations + u32::from((progressed || looked) && !stalls && !alone && !threads);
    let mut counted_from = rec.counted_from;
    let may_leave = flags & LOOP_NO_EXIT == 0;
    if iterations > unroll
        && !timed
        && may_leave
        && e.private_since(t as Tid, counted_from as usize)
    {
        // Those iterations only touched memory no other thread had touched before them,
        // and read only what their thread wrote: whether the loop ends depends on the
        // thread alone, which runs on as if alone (into --max-steps, if it never ends).
        // Their count starts again.
        iterations = 0;
        counted_from = step;
    }
    if iterations > unroll {
        e.in_runtime = true;
        e.cut_by_unroll(site)
    }
    if stalls {
        e.in_runtime = true;
        e.spin(rec.step as usize, site)
    } else if looked {
        // It looked and changed nothing, but its own values moved on (a counter): no
        // await, but it lets another thread run next, or it could spin forever first.
        e.sched.yield_turn();
    }
    let e = ex();
    let step = e.sched.step() as u32;
    let th = &mut e.threads[t];
    th.loops[i] = now.visited(th, step, iterations, counted_from);
}

/// Is `r` within one of the ranges `[lo, hi)`?
fn within(ranges: &[(u64, u64)], r: &ops::Range) -> bool {
    ranges.iter().any(|&(lo, hi)| lo <= r.lo && r.hi <= hi)
}

impl Exec {
    /// Thread `t` is back at the head of a loop whose last iteration, from step `from`
    /// to now, changed nothing and ended with the values it began with: whether it waits
    /// depends on that alone (on what its own events read), never on what other threads
    /// did meanwhile, or re-executing a schedule in which they did it later would not
    /// reproduce the thread's next event. The bytes the iteration depended on, and the
    /// first change another thread made to bytes the iteration had already accessed.
    pub(super) fn stalled(&self, t: Tid, from: usize) -> Stall {
        self.stalled_until(t, from, usize::MAX)
    }

    /// `stalled`, counting the thread's own events only up to step `own_end`.
    pub(super) fn stalled_until(&self, t: Tid, from: usize, own_end: usize) -> Stall {
        let now = self.sched.step();
        let mut stall = Stall {
            watch: Watch::default(),
            woken_at: None,
        };
        for i in from..now {
            let e = self.event_at(i);
            if e.tid == t {
                if i >= own_end {
                    continue;
                }
                for r in ops::footprint(&e).ranges() {
                    stall.watch.add(r);
                }
            } else if !stall.watch.is_empty()
                && awaits::changes_state(&e)
                && ops::footprint(&e).conflicts(&stall.watch.footprint(), true)
            {
                stall.woken_at.get_or_insert(i as u32);
            }
        }
        stall
    }

    /// Thread `t` is back at the head of a retry loop (`LOOP_RETRY`) after its first
    /// try, which changed nothing but the loop's values: is the try redundant? It is
    /// when the loop's values on entry were what the load just before it read, the try
    /// was one compare-and-swap of the same bytes that failed, leaving the values as
    /// what it read, and another thread changed those bytes in between. Then the
    /// execution in which the load runs where the try did, reading what the try read,
    /// reaches this head with this very state, minus the try: the thread's memory is as
    /// it was, its values are the same, and the load's value served nothing else (the
    /// instrumentation saw to that). That execution is explored, by reversing the race
    /// of the load with the change; so the thread stops here as a stale spin from the
    /// load on. Returns the load's step.
    ///
    /// A peeled memoryless loop's first iteration (`peeled`, `LOOP_PEELED`) is one the
    /// same way when its one event read the load's bytes, changed since: its values are
    /// what that read made them, as the load's would be had it run there.
    pub(super) fn retry_redundant(
        &self,
        t: Tid,
        rec: &LoopRecord,
        now: &LoopRecord,
        peeled: bool,
    ) -> Option<usize> {
        let from = (rec.step as usize).checked_sub(1)?;
        let load = self.event_at(from);
        if load.tid != t
            || load.kind() != Kind::Read
            || self.threads[t as usize].events != rec.events + 1
        {
            return None;
        }
        // The try: the thread's one event since.
        let at = (from + 1..self.sched.step())
            .rev()
            .find(|&i| self.event_at(i).tid == t)?;
        let tried = self.event_at(at);
        let failed = if peeled {
            tried.kind() == Kind::Read
        } else {
            tried.kind() == Kind::CmpXchg && tried.flags & FLAG_FAILED != 0
        } && (tried.addr, tried.len) == (load.addr, load.len);
        let m = mask(load.len);
        let all = |r: &LoopRecord, v: u64| r.vals[..r.n as usize].iter().all(|&x| x & m == v);
        let read_derived = peeled || rec.n > 0 && all(rec, load.value) && all(now, tried.value);
        (failed && read_derived && self.stalled(t, from).woken_at.is_some()).then_some(from)
    }

    /// The step after thread `t`'s last event that changed anything: what a false
    /// assumption it reaches now may rest on, if another thread can change it, is what
    /// it read since (`cdpor_assume`).
    pub(super) fn since_last_change(&self, t: Tid) -> usize {
        (0..self.sched.step())
            .rev()
            .find(|&i| {
                let ev = self.event_at(i);
                ev.tid == t && awaits::changes_state(&ev)
            })
            .map_or(0, |i| i + 1)
    }

    /// Were thread `t`'s events since step `from` all accesses to memory, each read of
    /// bytes it wrote itself (since, or last before), and none in conflict with an
    /// earlier access by another thread? Then what those iterations did depended on the
    /// thread alone: not a poll of a flag no other thread has set yet, whose reads see
    /// what was there before. That depends on the trace alone (two accesses in conflict
    /// keep their order in every equivalent execution), not on where independent events
    /// of other threads fell.
    pub(super) fn private_since(&self, t: Tid, from: usize) -> bool {
        let now = self.sched.step();
        let mut own: Vec<(usize, ops::Footprint)> = Vec::new();
        // The ranges the thread wrote since, each kept once: a loop rewrites the same.
        let mut written: Vec<(u64, u64)> = Vec::new();
        // Ranges read before the thread wrote them since: it must write them later on,
        // or have been the last to write them before.
        let mut unwritten: Vec<ops::Range> = Vec::new();
        let mut cover = Watch::default();
        for i in from..now {
            let ev = self.event_at(i);
            if ev.tid != t {
                continue;
            }
            // Past PRIVATE_EVENTS, the quadratic check is not worth it: the loop counts.
            let access = ops::memory::access(&ev) || ev.kind() == Kind::Atomic;
            if !access || own.len() == PRIVATE_EVENTS {
                return false;
            }
            let fp = ops::footprint(&ev);
            for r in fp.ranges() {
                if r.mode.reads() && !within(&written, r) && !unwritten.iter().any(|u| u == r) {
                    unwritten.push(*r);
                }
                if r.mode.writes() && !within(&written, r) {
                    written.push((r.lo, r.hi));
                }
                cover.add(r);
            }
            own.push((i, fp));
        }
        let ours = |r: &ops::Range| within(&written, r) || self.last_written_by(t, r, from);
        if !unwritten.iter().all(ours) {
            return false;
        }
        let Some(&(last, _)) = own.last() else {
            return true;
        };
        let cover = cover.footprint();
        (0..last).all(|i| {
            let ev = self.event_at(i);
            if ev.tid == t {
                return true;
            }
            let fp = ops::footprint(&ev);
            !fp.conflicts(&cover, false)
                || own
                    .iter()
                    .filter(|(j, _)| *j > i)
                    .all(|(_, w)| !fp.conflicts(w, true))
        })
    }

    /// Was the last write to the bytes of `r` before step `before` thread `t`'s own, of
    /// all of them? (A read's last write is the same in every equivalent execution.)
    fn last_written_by(&self, t: Tid, r: &ops::Range, before: usize) -> bool {
        for i in (0..before).rev() {
            let ev = self.event_at(i);
            let fp = ops::footprint(&ev);
            let hit = fp
                .ranges()
                .find(|w| w.mode.writes() && w.lo < r.hi && r.lo < w.hi);
            if let Some(w) = hit {
                return ev.tid == t && w.lo <= r.lo && r.hi <= w.hi;
            }
        }
        false
    }

    /// Did thread `t`'s events since step `from` change nothing but take mutexes and
    /// free them again, as often on each (`ops::mutex::hold_change`), with no other
    /// thread seeing one held meanwhile (a failed trylock)? Then the iteration left no
    /// trace another thread could have seen.
    fn relocked_only(&self, t: Tid, from: usize) -> bool {
        let mut held: [(Event, i32); 4] = [(Event::default(), 0); 4];
        let mut n = 0;
        for i in from..self.sched.step() {
            let ev = self.event_at(i);
            if ev.tid != t {
                let mut busy = held[..n].iter().filter(|h| h.1 != 0).peekable();
                if busy.peek().is_some() {
                    let seen = ops::footprint(&ev);
                    if busy.any(|h| ops::footprint(&h.0).conflicts(&seen, false)) {
                        return false;
                    }
                }
                continue;
            }
            if !awaits::changes_state(&ev) {
                continue;
            }
            let Some((m, d)) = ops::mutex::hold_change(&ev) else {
                return false;
            };
            match held[..n].iter().position(|h| h.0.addr == m) {
                Some(k) => held[k].1 += d,
                None if n < held.len() => {
                    held[n] = (ev, d);
                    n += 1;
                }
                None => return false,
            }
        }
        held[..n].iter().all(|h| h.1 == 0)
    }

    /// Does thread `t` spin on bytes that another thread changed after it read them?
    pub(super) fn stale(&self, t: Tid) -> bool {
        let th = &self.threads[t as usize];
        awaits::spins(&th.pending)
            && awaits::stale(
                t,
                (th.spin_from..self.sched.step()).map(|i| self.event_at(i)),
            )
    }

    /// The current thread's loop, whose last iteration began at step `from`, cannot
    /// make progress: the thread stops there for good (`awaits`).
    pub(super) fn spin(&mut self, from: usize, site: u32) -> ! {
        let t = self.cur;
        self.threads[t as usize].spin_from = from;
        let watch = self.stalled(t, from).watch;
        self.submit(awaits::event(&watch, site));
        unreachable!("a spinning thread runs again")
    }

    /// A thread blocked in a timed wait whose timeout was ruled out (`cond_wait`), and
    /// that another thread since wrote what it read after its last timeout: timing out
    /// again, it would see that change, so no thread being able to run does not make
    /// the program stuck.
    pub(super) fn could_time_out(&self) -> Option<Tid> {
        self.ready.iter().find(|&t| {
            let th = &self.threads[t as usize];
            th.pending.kind() == Kind::CondWake
                && th.wait_without_timeout.is_some_and(|wait| {
                    self.stalled_until(t, th.timed_out_at, wait)
                        .woken_at
                        .is_some()
                })
        })
    }

    /// The current thread ran a loop `--unroll` times: it stops there for good.
    pub(super) fn cut_by_unroll(&mut self, site: u32) -> ! {
        self.submit(awaits::stop(site));
        unsafe { libc::_exit(3) }
    }
}
