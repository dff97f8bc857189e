//! Why threads wait: each blocked thread's wait, the deadlock cycle, lost wake-ups.

use super::*;

impl Namer<'_> {
    /// What a blocked thread waits for.
    pub fn wait(&self, b: &Event, x: &Execution) -> String {
        let loc = at(&self.location(b.site));
        let t = |t: Tid| x.names().thread(t);
        match b.kind() {
            Kind::Lock => {
                let holder = self.held_by(x, b.addr);
                format!(
                    "{} waits to lock {}{holder}{loc}",
                    t(b.tid),
                    self.object(b.addr, x)
                )
            }
            Kind::RdLock | Kind::WrLock => {
                let mut h = rwlock::Holders::default();
                for e in &x.events {
                    h.apply(b.addr, e);
                }
                let holders: Vec<String> = (h.writer.iter())
                    .map(|&w| format!("write-locked by {}", t(w)))
                    .chain((!h.readers.is_empty()).then(|| {
                        let r: Vec<String> = h.readers.iter().map(|&r| t(r)).collect();
                        format!("read-locked by {}", r.join(", "))
                    }))
                    .collect();
                let how = if b.kind() == Kind::RdLock {
                    "read-lock"
                } else {
                    "write-lock"
                };
                let held = if holders.is_empty() {
                    String::new()
                } else {
                    format!(", {}", holders.join(" and "))
                };
                format!(
                    "{} waits to {how} {}{held}{loc}",
                    t(b.tid),
                    self.object(b.addr, x)
                )
            }
            Kind::Join => format!("{} waits to join {}{loc}", t(b.tid), t(b.aux)),
            Kind::OnceBegin => format!(
                "{} waits in pthread_once for {}'s initializer to finish{loc}",
                t(b.tid),
                self.object(b.addr, x)
            ),
            Kind::BarrierPass => format!(
                "{} waits at barrier {} for the other threads of its round{loc}",
                t(b.tid),
                self.object(b.addr, x)
            ),
            Kind::SemWait => {
                let inited =
                    (x.events.iter()).any(|e| e.kind() == Kind::SemInit && e.addr == b.addr);
                format!(
                    "{} waits on semaphore {}, whose count is 0{}{loc}",
                    t(b.tid),
                    self.object(b.addr, x),
                    if inited {
                        ""
                    } else {
                        " (no sem_init initialized it)"
                    }
                )
            }
            Kind::CondWake if !cond::woken(b) => {
                let woke_others = x
                    .events
                    .iter()
                    .any(|e| e.kind() == Kind::CondSignal && e.addr == b.addr && e.choices > 1);
                let note = if woke_others {
                    " (a signal woke another waiter)"
                } else {
                    ""
                };
                format!(
                    "{} waits on condition {}, and no signal woke it{note}{loc}",
                    t(b.tid),
                    self.object(b.addr, x)
                )
            }
            Kind::CondWake => {
                let holder = self.held_by(x, b.arg);
                format!(
                    "{} was signalled on {} and waits to relock {}{holder}{loc}",
                    t(b.tid),
                    self.object(b.addr, x),
                    self.object(b.arg, x)
                )
            }
            Kind::Await if b.flags & awaits::FLAG_ASSUMPTION != 0 => {
                let names: Vec<String> = (awaits::watched(b).ranges())
                    .map(|r| self.object(r.lo, x))
                    .collect();
                format!(
                    "{} waits for the assumption of an atomic function to hold{loc}: \
                     no thread will change {}",
                    t(b.tid),
                    names.join(", ")
                )
            }
            Kind::Await => {
                let seen = self.last_reads(b, x);
                let what = if seen.is_empty() {
                    "it reads nothing another thread can change".to_string()
                } else {
                    format!("no thread will change {}", seen.join(", "))
                };
                format!("{} spins in the loop{loc}: {what}", t(b.tid))
            }
            _ => format!("{} waits{loc}", t(b.tid)),
        }
    }

    /// What the spinning thread of the pending await `b` last read of the bytes it
    /// waits on, as `name = value`.
    fn last_reads(&self, b: &Event, x: &Execution) -> Vec<String> {
        let watched = awaits::watched(b);
        let mut seen: Vec<(u64, String)> = Vec::new();
        for e in x.events.iter().rev().filter(|e| e.tid == b.tid) {
            if seen.len() >= 4 {
                break;
            }
            let inside = cdpor_sched::ops::footprint(e)
                .ranges()
                .all(|r| watched.ranges().any(|w| w.lo <= r.lo && r.hi <= w.hi));
            if !inside || seen.iter().any(|s| s.0 == e.addr) {
                continue;
            }
            let name = self.accessed(e, x);
            if e.flags & FLAG_VALUE != 0 {
                seen.push((e.addr, format!("{name} = {}", show_value(e.value, e.len))));
            } else if e.kind() == Kind::Lib {
                // A library function's reads (`strcmp` on a shared buffer): no one value.
                seen.push((e.addr, name));
            }
        }
        seen.into_iter().rev().map(|s| s.1).collect()
    }

    /// ", held by Tn" when a thread holds mutex `m` at the end of `x`.
    /// The cycle of waits that the blocked threads of a deadlock make, if they make one
    /// through locks and joins: each wants a lock the next one holds (and since where),
    /// or waits to join it. `None` when the waits end at a thread that waits for
    /// something else (a condition, a semaphore...).
    pub fn wait_cycle(&self, x: &Execution) -> Option<String> {
        let t = |t: Tid| x.names().thread(t);
        let blocked = |u: Tid| x.blocked.iter().find(|b| b.tid() == u);
        // What each blocked thread waits for: the thread it waits on, and how.
        let edge = |b: &Event| -> Option<(Tid, String)> {
            match b.kind() {
                Kind::Lock => holding(&x.events, b.addr).map(|(h, i)| {
                    let locked = self.location(x.events[i].site);
                    let since = if locked.is_empty() {
                        String::new()
                    } else {
                        format!(" since {locked}")
                    };
                    let what = self.object(b.addr, x);
                    (h, format!("wants {what}, held by {}{since}", t(h)))
                }),
                Kind::Join => Some((b.aux, format!("waits to join {}", t(b.aux)))),
                _ => None,
            }
        };
        for start in &x.blocked {
            let mut path: Vec<(Tid, Tid, String)> = Vec::new();
            let mut cur = start.tid();
            while let Some((next, how)) = blocked(cur).and_then(edge) {
                path.push((cur, next, how));
                if let Some(k) = path.iter().position(|p| p.0 == next) {
                    let steps: Vec<String> = (path[k..].iter())
                        .map(|(a, _, how)| format!("{} {how}", t(*a)))
                        .collect();
                    return Some(format!("{} -> back to {}", steps.join(" -> "), t(next)));
                }
                if path.len() > x.blocked.len() {
                    break;
                }
                cur = next;
            }
        }
        None
    }

    /// The signals that went nowhere, for the blocked threads that wait on a condition:
    /// each signal or broadcast of that condition that found no waiter before the thread
    /// waited (a lost wake-up).
    pub fn lost_wakeups(&self, x: &Execution) -> Vec<String> {
        let t = |t: Tid| x.names().thread(t);
        let mut out = Vec::new();
        for b in &x.blocked {
            if !matches!(b.kind(), Kind::CondWait | Kind::CondWake) {
                continue;
            }
            let Some(waited) = (x.events.iter()).rposition(|e| {
                e.kind() == Kind::CondWait && e.tid() == b.tid() && e.addr == b.addr
            }) else {
                continue;
            };
            for (i, s) in x.events[..waited].iter().enumerate() {
                let signal = matches!(s.kind(), Kind::CondSignal | Kind::CondBroadcast);
                if signal && s.addr == b.addr && s.failed() {
                    out.push(format!(
                        "{} signalled {}{} (step {}) before {} waited on it (step {}): the signal woke no thread",
                        t(s.tid()),
                        self.object(b.addr, x),
                        at(&self.location(s.site)),
                        i + 1,
                        t(b.tid()),
                        waited + 1
                    ));
                }
            }
        }
        out
    }

    /// The threads of an execution with the function each started in (`T0 main, T1
    /// worker, T2 worker`), when the program's symbols name them.
    pub fn thread_legend(&self, x: &Execution) -> Option<String> {
        let names = x.names();
        let started: Vec<String> = (x.events.iter().enumerate())
            .filter(|(_, e)| e.kind() == Kind::Create && e.arg != 0)
            .filter_map(|(i, e)| {
                let f = self.symbols.function_at(e.arg)?;
                Some(format!("{} {f}", names.thread_at(e.aux, i + 1)))
            })
            .collect();
        (!started.is_empty()).then(|| format!("T0 main, {}", started.join(", ")))
    }

    fn held_by(&self, x: &Execution, m: u64) -> String {
        holder(&x.events, m)
            .map(|t| format!(", held by {}", x.names().thread(t)))
            .unwrap_or_default()
    }
}

/// The thread holding a mutex at the end of a trace.
pub(super) fn holder(events: &[Event], mutex: u64) -> Option<Tid> {
    holding(events, mutex).map(|(t, _)| t)
}

/// The thread that holds `mutex` at the end of `events`, and the event by which it took
/// it.
fn holding(events: &[Event], mutex: u64) -> Option<(Tid, usize)> {
    let mut h = None;
    // A write over the lock word (a memset of the mutex) frees it, as in glibc.
    let overwrites = |e: &Event| {
        matches!(e.kind(), Kind::Write | Kind::Copy | Kind::Lib)
            && cdpor_sched::ops::footprint(e)
                .ranges()
                .any(|r| r.mode.writes() && (r.lo..r.hi).contains(&mutex))
    };
    for (i, e) in events.iter().enumerate() {
        if cdpor_sched::ops::acquires(e) == Some(mutex) {
            h = Some((e.tid(), i));
        } else if cdpor_sched::ops::releases(e) == Some(mutex)
            || (e.kind() == Kind::MutexInit && e.addr == mutex)
            || overwrites(e)
        {
            h = None;
        }
    }
    h
}
