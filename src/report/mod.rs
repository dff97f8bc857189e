//! What the user sees: the failing interleaving one event per line, deadlock waits, the
//! JSON object of DESIGN §4, and the exit status.

mod fold;

use crate::style::{paint, ERROR, LOCATION, SAFE, THREAD};
use cdpor_sched::event::{CRASH_MEMORY, CRASH_MISUSE, FLAG_ATOMIC, FLAG_STORE, FLAG_VALUE};
use cdpor_sched::ops::{awaits, cond, memory, rwlock, thread, Misuse};
use cdpor_sched::shm::{Fallback, MemError, MemFault, Replaced};
use cdpor_sched::{Event, Kind, Tid};
use serde::Serialize;

use crate::executor::{signal_name, End, Execution, FellBack, Reset};
use crate::explore::{Cut, ErrorKind, Found, Summary};
use crate::instrument::{Site, Warning};
use crate::schedule;
use crate::symbols::{short, Symbols};

pub const EXIT_SAFE: i32 = 0;
pub const EXIT_ERROR: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INCOMPLETE: i32 = 3;

/// Names things for one program.
pub struct Namer<'a> {
    pub sites: &'a [Site],
    pub symbols: &'a Symbols,
}

#[derive(Serialize, Clone, Debug)]
pub struct Row {
    pub step: usize,
    pub thread: String,
    pub op: String,
    pub object: String,
    pub value: Option<String>,
    pub location: String,
}

impl Namer<'_> {
    fn site(&self, id: u32) -> Option<&Site> {
        self.sites.get(id as usize).filter(|_| id != 0)
    }

    pub fn location(&self, site: u32) -> String {
        match self.site(site) {
            Some(s) if !s.file.is_empty() => format!("{}:{}", short(&s.file), s.line),
            Some(s) => s.function.clone(),
            None => String::new(),
        }
    }

    fn object(&self, addr: u64, x: &Execution) -> String {
        self.symbols
            .name(addr, &x.allocs, self.sites, None, x.names())
    }

    /// The memory an event accesses: as `object`, with the site's variable for locals.
    fn accessed(&self, e: &Event, x: &Execution) -> String {
        let local = (self.site(e.site))
            .and_then(|s| Some((s.variable.as_deref()?, user_function(&s.function))));
        self.symbols
            .name(e.addr, &x.allocs, self.sites, local, x.names())
    }

    /// The failing execution's events, one row each.
    pub fn rows(&self, f: &Found) -> Vec<Row> {
        let x = &f.execution;
        (x.events.iter().enumerate())
            .map(|(i, e)| self.row(i + 1, e, x))
            .collect()
    }

    fn row(&self, step: usize, e: &Event, x: &Execution) -> Row {
        let atomic = e.flags & FLAG_ATOMIC != 0;
        let site_op = self.site(e.site).map(|s| s.op.as_str()).unwrap_or("");
        // The threads of the numbers at this step (a number can be several threads').
        let t = |t: Tid| x.names().thread_at(t, step - 1);
        let here = || self.accessed(e, x);
        let named = |op: &str| (op.to_string(), here());
        let nested = e.flags & cdpor_sched::ops::mutex::FLAG_NESTED != 0;
        let (op, object) = match e.kind() {
            Kind::Read => named(if atomic { "atomic read" } else { "read" }),
            Kind::Write if e.flags & FLAG_STORE != 0 => (format!("{site_op} stores"), here()),
            Kind::Write if site_op == "memset" => (format!("memset {}B", e.len), here()),
            Kind::Write if site_op.starts_with("pthread_") => {
                (format!("{site_op} writes {}B", e.len), here())
            }
            Kind::Write => named(if atomic { "atomic write" } else { "write" }),
            Kind::CmpXchg if e.failed() => named("cmpxchg (fails)"),
            Kind::CmpXchg => named("cmpxchg"),
            Kind::Rmw if e.failed() => named("atomic rmw (changes nothing)"),
            Kind::Rmw => named("atomic rmw"),
            Kind::Copy => (
                format!("memcpy {}B", e.len),
                format!("{} <- {}", here(), {
                    let local = (self.site(e.site)).and_then(|s| {
                        Some((s.src_variable.as_deref()?, user_function(&s.function)))
                    });
                    self.symbols
                        .name(e.arg, &x.allocs, self.sites, local, x.names())
                }),
            ),
            // What the runtime does when a thread's function returns (exit handlers, key
            // destructors) has no call site.
            Kind::Lib if e.site == 0 => ("returns".to_string(), self.lib_ranges(e, x)),
            Kind::Lib => (site_op.to_string(), self.lib_ranges(e, x)),
            Kind::Free => (site_op.to_string(), self.object(e.addr, x)),
            Kind::Atomic => ("atomic section".to_string(), self.lib_ranges(e, x)),
            Kind::Nondet => {
                let restricted = if e.flags & cdpor_sched::event::FLAG_RESTRICTED != 0 {
                    format!(" (of {} values tried)", e.choices)
                } else {
                    String::new()
                };
                (
                    format!("{}() -> {}{restricted}", site_op, e.value as i64),
                    String::new(),
                )
            }
            Kind::AssumeFail => ("assumption fails".to_string(), String::new()),
            Kind::Await => ("spins for good".to_string(), String::new()),
            Kind::Fence => ("fence".to_string(), String::new()),
            Kind::Lock if e.failed() => named("lock fails (EDEADLK: already held)"),
            Kind::Lock if nested => named("lock again (recursive)"),
            Kind::Lock => named("lock"),
            Kind::TryLock if e.failed() && e.value != 0 => named("timedlock (times out)"),
            Kind::TryLock if e.failed() => named("trylock (busy)"),
            Kind::TryLock if nested => named("trylock again (recursive)"),
            Kind::TryLock if e.value != 0 => named("timedlock"),
            Kind::TryLock => named("trylock"),
            Kind::Unlock if e.failed() => named("unlock fails (EPERM: not the owner)"),
            Kind::Unlock if nested => named("unlock (still held)"),
            Kind::Unlock => named("unlock"),
            Kind::MutexInit => named("mutex init"),
            Kind::MutexDestroy => named("mutex destroy"),
            Kind::SemInit => (format!("sem init to {}", e.value), here()),
            Kind::SemWait => named("sem wait"),
            Kind::SemTryWait if e.failed() && site_op.contains("timed") => {
                named("sem timedwait (count 0: times out)")
            }
            Kind::SemTryWait if e.failed() => named("sem trywait (count 0)"),
            Kind::SemTryWait => named("sem trywait"),
            Kind::SemPost => named("sem post"),
            Kind::SemGetValue => named("sem getvalue"),
            Kind::SemDestroy => named("sem destroy"),
            Kind::OnceBegin if e.failed() => named("once (already run)"),
            Kind::OnceBegin => named("once: runs the initializer"),
            Kind::OnceEnd => named("once: initializer done"),
            Kind::RwInit => named("rwlock init"),
            Kind::RwDestroy => named("rwlock destroy"),
            Kind::BarrierInit => (format!("barrier init for {}", e.value), here()),
            Kind::BarrierWait if e.failed() => named("barrier wait: arrives"),
            Kind::BarrierWait => named("barrier wait: arrives last (serial thread)"),
            Kind::BarrierPass => named("barrier wait: round over, passes"),
            Kind::BarrierDestroy => named("barrier destroy"),
            Kind::RdLock if e.failed() => named("read-lock: EDEADLK (holds the write lock)"),
            Kind::RdLock => named("read-lock"),
            Kind::WrLock if e.failed() => named("write-lock: EDEADLK (holds the write lock)"),
            Kind::WrLock => named("write-lock"),
            Kind::TryRdLock if e.failed() => named("try read-lock (write-locked)"),
            Kind::TryRdLock => named("try read-lock"),
            Kind::TryWrLock if e.failed() => named("try write-lock (busy)"),
            Kind::TryWrLock => named("try write-lock"),
            Kind::RwUnlock if e.flags & rwlock::FLAG_READER != 0 => named("read-unlock"),
            Kind::RwUnlock => named("unlock"),
            Kind::CondInit => named("cond init"),
            Kind::CondDestroy => named("cond destroy"),
            Kind::CondWait => (
                "cond wait".to_string(),
                format!("{}, unlocks {}", here(), self.object(e.arg, x)),
            ),
            Kind::CondSignal if e.failed() => named("cond signal (no waiter: lost)"),
            Kind::CondSignal if e.choices > 1 => (
                format!(
                    "cond signal, wakes {} (choice {} of {})",
                    t(e.aux),
                    e.choice + 1,
                    e.choices
                ),
                here(),
            ),
            Kind::CondSignal => (format!("cond signal, wakes {}", t(e.aux)), here()),
            Kind::CondBroadcast if e.failed() => named("cond broadcast (no waiter)"),
            Kind::CondBroadcast => named("cond broadcast"),
            Kind::CondWake if e.failed() && e.flags & cond::FLAG_TIMED != 0 => (
                "cond wait times out".to_string(),
                format!("{}, relocks {}", here(), self.object(e.arg, x)),
            ),
            Kind::CondWake if e.failed() => (
                "cond wakes without a signal (spurious)".to_string(),
                format!("{}, relocks {}", here(), self.object(e.arg, x)),
            ),
            Kind::CondWake => (
                "cond wakes".to_string(),
                format!("{}, relocks {}", here(), self.object(e.arg, x)),
            ),
            Kind::Create => (
                format!("create {}", x.names().thread_at(e.aux, step)),
                String::new(),
            ),
            Kind::Join => (format!("join {}", t(e.aux)), String::new()),
            Kind::Detach => (format!("detach {}", t(e.aux)), String::new()),
            Kind::ThreadExit => ("finish".to_string(), String::new()),
            Kind::ProcessExit => (format!("exit({})", e.value as i64), String::new()),
            Kind::AssertFail => ("assert fails".to_string(), String::new()),
            Kind::Abort => ("abort".to_string(), String::new()),
            Kind::Crash if matches!(e.value, CRASH_MEMORY | CRASH_MISUSE) => {
                let what = if e.value == CRASH_MEMORY {
                    "memory error"
                } else {
                    "misuse"
                };
                let op = Kind::from_u8(e.replaced).map_or("", |k| k.name());
                (format!("{op}: {what}"), here())
            }
            Kind::Crash => {
                let sig = signal_name(e.value as i32);
                let at = if matches!(e.value as i32, libc::SIGSEGV | libc::SIGBUS) {
                    format!("address {:#x}", e.addr)
                } else {
                    String::new()
                };
                (format!("crash ({sig})"), at)
            }
        };
        // A nondeterministic value is shown in the operation ("nondet_uchar() -> 200").
        let value = (e.flags & FLAG_VALUE != 0 && e.kind() != Kind::Nondet)
            .then(|| show_value(e.value, e.len));
        let mut location = self.location(e.site);
        if e.kind() == Kind::Crash && !matches!(e.value, CRASH_MEMORY | CRASH_MISUSE) {
            location = self.crash_location(e.arg, e.aux, e.site);
        } else if location.is_empty() && matches!(e.kind(), Kind::ProcessExit | Kind::Lib) {
            location = if e.tid() == 0 {
                "return from main"
            } else {
                "return from its start routine"
            }
            .into();
        }
        Row {
            step,
            thread: t(e.tid()),
            op,
            object,
            value,
            location,
        }
    }

    /// The ranges a library call accessed, named.
    fn lib_ranges(&self, e: &Event, x: &Execution) -> String {
        let mut parts = Vec::new();
        let (len_a, len_b) = if e.kind() == Kind::Atomic {
            cdpor_sched::ops::memory::Summary::lengths(e)
        } else {
            (e.len as u64, e.arg_len as u64)
        };
        for (addr, len, bits) in [(e.addr, len_a, e.modes & 3), (e.arg, len_b, e.modes >> 2)] {
            if len == 0 || bits == 0 {
                continue;
            }
            let how = match bits {
                1 => "reads",
                2 => "writes",
                _ => "updates",
            };
            let name = self.object(addr, x);
            let name = name.strip_suffix("[0]").unwrap_or(&name);
            parts.push(format!("{how} {name} ({len} bytes)"));
        }
        parts.join(", ")
    }

    /// The one-line description of an error.
    pub fn message(&self, f: &Found) -> String {
        let x = &f.execution;
        match &x.end {
            End::Assertion {
                tid,
                expr,
                file,
                line,
                ..
            } => {
                format!(
                    "assertion `{expr}` failed in thread {} at {}:{line}",
                    x.names().thread(*tid),
                    short(file)
                )
            }
            End::Abort { tid, site } => format!(
                "abort() called in thread {}{}",
                x.names().thread(*tid),
                at(&self.location(*site))
            ),
            End::Crash {
                tid,
                site,
                signal,
                addr,
                pc,
                overflow,
                call,
            } => {
                let line = self.crash_location(*pc, *call, *site);
                let func = match (self.program_line(*pc), self.site(*call)) {
                    (Some(line), _) => match self.symbols.function_at(*pc) {
                        Some(f) => format!(" at {line} in {f}()"),
                        None => format!(" at {line}"),
                    },
                    // Inside the C library: the program's call of it says where.
                    (None, Some(c)) => format!(" in {}(), called at {line}", c.op),
                    (None, None) => match self.symbols.function_at(*pc) {
                        Some(f) => format!(" in library code ({f})"),
                        // An access of the program's that the runtime made for it, or
                        // an operation that found no stack left.
                        None => match self.site(*site) {
                            Some(s) if !s.function.is_empty() => {
                                format!(" at {line} in {}()", s.function)
                            }
                            _ => format!(" at {line}"),
                        },
                    },
                };
                let line = Some(line);
                let last = match self.site(*site) {
                    Some(s)
                        if !s.file.is_empty()
                            && line != Some(format!("{}:{}", short(&s.file), s.line)) =>
                    {
                        format!(
                            "; its last visible operation was at {}:{} in {}()",
                            short(&s.file),
                            s.line,
                            s.function
                        )
                    }
                    _ => String::new(),
                };
                let tid = x.names().thread(*tid);
                if *overflow {
                    format!("thread {tid} overflowed its stack{func}{last}")
                } else {
                    // SIGFPE and SIGILL report the instruction, already named by `func`.
                    let addr = if matches!(*signal, libc::SIGSEGV | libc::SIGBUS) {
                        format!(" (address {addr:#x})")
                    } else {
                        String::new()
                    };
                    format!(
                        "thread {tid} crashed with {}{addr}{func}{last}",
                        signal_name(*signal)
                    )
                }
            }
            End::Died(how) => format!("the program died: {how}"),
            End::Memory { tid, site, fault } => self.memory_error(*tid, *site, fault, x),
            End::Misuse { tid, site, what } => self.misuse(*tid, *site, *what, x),
            End::DataRace {
                first,
                second,
                second_step,
            } => self.data_race(*first, second, *second_step, x),
            End::ReachError { tid, site } => {
                let what = self.site(*site).map_or("reach_error", |s| s.op.as_str());
                format!(
                    "{what}() called in thread {}{}",
                    x.names().thread(*tid),
                    at(&self.location(*site))
                )
            }
            End::Deadlock | End::Livelock => {
                let waits: Vec<String> = x.blocked.iter().map(|b| self.wait(b, x)).collect();
                format!("{}: {}", f.kind.name(), waits.join("; "))
            }
            other => format!("{other:?}"),
        }
    }

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

    /// The line that stands for the folded steps `hidden` (none: no line): how many,
    /// of which threads, and in which function when they all ran in one.
    fn folded(&self, hidden: &[usize], events: &[Event], rows: &[Row]) -> String {
        let Some(&first) = hidden.first() else {
            return String::new();
        };
        let mut threads: Vec<&str> = hidden.iter().map(|&i| rows[i].thread.as_str()).collect();
        threads.dedup();
        threads.sort_unstable();
        threads.dedup();
        let function = |i: usize| self.site(events[i].site).map(|s| s.function.as_str());
        let within = match function(first) {
            Some(f) if !f.is_empty() && hidden.iter().all(|&i| function(i) == Some(f)) => {
                format!(" in {}()", user_function(f))
            }
            _ => String::new(),
        };
        let steps = if hidden.len() == 1 { "step" } else { "steps" };
        format!(
            "  {:>5}  … {} {steps} of {}{within} …\n",
            "",
            hidden.len(),
            threads.join(", ")
        )
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

    /// `file:line` of an instruction of the program's own (not of the C library, nor of
    /// cdpor's runtime).
    fn program_line(&self, pc: u64) -> Option<String> {
        let line = self.symbols.line_at(pc)?;
        let file = line.rsplit_once(':')?.0;
        self.sites
            .iter()
            .any(|s| !s.file.is_empty() && short(&s.file) == file)
            .then_some(line)
    }

    /// Where a crash happened, as the program's source says it: the faulting line when
    /// it is the program's, else the library call it happened in, else the crashing
    /// thread's last visible operation.
    fn crash_location(&self, pc: u64, call: u32, site: u32) -> String {
        self.program_line(pc).unwrap_or_else(|| {
            let call = self.location(call);
            if call.is_empty() {
                self.location(site)
            } else {
                call
            }
        })
    }

    /// A data race between the event at step `first` and `second`.
    fn data_race(
        &self,
        first: usize,
        second: &Event,
        second_step: Option<usize>,
        x: &Execution,
    ) -> String {
        let access = |e: &Event, step: usize| {
            let how = match e.kind() {
                Kind::Read => "reads",
                Kind::Write => "writes",
                Kind::Rmw | Kind::CmpXchg => "updates",
                _ => "accesses",
            };
            let atomic = if memory::atomic(e) { "atomically " } else { "" };
            format!(
                "{} {atomic}{how} {}{}",
                x.names().thread_at(e.tid(), step),
                self.accessed(e, x),
                at(&self.location(e.site))
            )
        };
        let when = match second_step {
            Some(s) => format!("steps {} and {}", first + 1, s + 1),
            None => format!(
                "step {} and the next step of {}",
                first + 1,
                x.names().thread(second.tid())
            ),
        };
        format!(
            "data race: {} and {}, with no synchronization between them ({when})",
            access(&x.events[first], first),
            access(second, second_step.unwrap_or(usize::MAX))
        )
    }

    /// A misuse of a synchronization object by the last event.
    fn misuse(&self, tid: Tid, site: u32, what: u32, x: &Execution) -> String {
        let who = x.names().thread(tid);
        let place = at(&self.location(site));
        let Some(e) = x.events.last() else {
            return format!("misuse by thread {who}{place}");
        };
        let object = self.accessed(e, x);
        let mutex = || {
            self.symbols
                .name(e.arg, &x.allocs, self.sites, None, x.names())
        };
        match Misuse::from_u32(what) {
            Some(Misuse::UnlockNotHeld) => {
                // The crash in its place keeps the operation's kind.
                let holder = match Kind::from_u8(e.replaced) {
                    Some(Kind::RwUnlock) => String::new(),
                    _ => match holder(&x.events[..x.events.len() - 1], e.addr) {
                        Some(h) => format!(" (held by {})", x.names().thread(h)),
                        None => " (held by no thread)".to_string(),
                    },
                };
                format!("misuse: thread {who}{place} unlocks {object}, which it does not hold{holder}")
            }
            Some(Misuse::Relock) => format!(
                "misuse: thread {who}{place} locks the error-checking mutex {object}, which it already holds"
            ),
            Some(Misuse::DestroyHeld) => {
                format!("misuse: thread {who}{place} destroys {object} while it is held")
            }
            Some(Misuse::DestroyWaitedOn) => {
                let kind = object_kind(e);
                let on = if kind == "barrier" { "at" } else { "on" };
                format!("misuse: thread {who}{place} destroys the {kind} {object} while threads wait {on} it")
            }
            Some(Misuse::WaitWithoutMutex) => format!(
                "misuse: thread {who}{place} waits on {object} with the mutex {}, which it does not hold",
                mutex()
            ),
            Some(Misuse::TwoMutexes) => format!(
                "misuse: thread {who}{place} waits on {object} with the mutex {}, while other threads wait on it with another mutex",
                mutex()
            ),
            Some(Misuse::UseDestroyed) => format!(
                "misuse: thread {who}{place} uses {object}, a {} destroyed and not initialized again",
                object_kind(e)
            ),
            Some(Misuse::NoSuchThread) if e.aux != thread::NO_THREAD => format!(
                "misuse: thread {who}{place} {} {}, which was joined already",
                thread_verb(e),
                x.names().thread(e.aux)
            ),
            Some(Misuse::Detached) => format!(
                "misuse: thread {who}{place} {} {}, which is detached",
                thread_verb(e),
                x.names().thread(e.aux)
            ),
            Some(Misuse::NoSuchThread) => format!(
                "misuse: thread {who}{place} {} a thread id that names no thread (never set \
                 by pthread_create, or of a thread joined already)",
                thread_verb(e)
            ),
            Some(Misuse::Uninitialized) => format!(
                "misuse: thread {who}{place} uses {object}, a {} that was never initialized",
                object_kind(e)
            ),
            None => format!("misuse by thread {who}{place}"),
        }
    }

    /// A memory error: what the thread did, and the heap block it concerns.
    fn memory_error(&self, tid: Tid, site: u32, f: &MemFault, x: &Execution) -> String {
        let who = x.names().thread(tid);
        let place = at(&self.location(site));
        let block = |f: &MemFault| {
            let mut s = format!(
                "a heap block of {} bytes allocated by {}{}",
                f.size,
                x.names().thread_at(f.alloc_tid, f.alloc_step as usize),
                at(&self.location(f.alloc_site))
            );
            if f.freed != 0 {
                // Thread numbers are used again: name the one of the free's step.
                let step = (x.events.iter())
                    .position(|e| e.kind() == Kind::Free && e.addr == f.block)
                    .unwrap_or(usize::MAX);
                s += &format!(
                    " and freed by {}{}",
                    x.names().thread_at(f.free_tid, step),
                    at(&self.location(f.free_site))
                );
            }
            s
        };
        let how = match f.access {
            1 => "reads",
            2 => "writes",
            3 => "updates",
            _ => "accesses",
        };
        match MemError::from_u32(f.what) {
            MemError::UseAfterFree => format!(
                "use after free: thread {who}{place} {how} {} bytes at offset {} of {}",
                f.len,
                f.addr.wrapping_sub(f.block),
                block(f)
            ),
            MemError::OutOfBounds if f.block == 0 => format!(
                "heap access out of bounds: thread {who}{place} {how} {} bytes at {:#x}, in no heap block",
                f.len, f.addr
            ),
            MemError::OutOfBounds => {
                let off = f.addr as i64 - f.block as i64;
                let rel = if off < 0 {
                    format!("{} bytes before the start", -off)
                } else {
                    format!("offset {off}")
                };
                format!(
                    "heap access out of bounds: thread {who}{place} {how} {} bytes at {rel} of {}",
                    f.len,
                    block(f)
                )
            }
            MemError::DoubleFree => {
                format!("double free: thread {who}{place} frees again {}", block(f))
            }
            MemError::InvalidFree if f.block != 0 => format!(
                "invalid free: thread {who}{place} frees a pointer {} bytes into {}",
                f.addr.wrapping_sub(f.block),
                block(f)
            ),
            MemError::InvalidFree => format!(
                "invalid free: thread {who}{place} frees a heap pointer that no allocation returned ({:#x})",
                f.addr
            ),
            e @ (MemError::DeadStack | MemError::DeadTls) => format!(
                "use of a finished thread's {}: thread {who}{place} {how} {} bytes of {}, after {} exited{}",
                if e == MemError::DeadStack { "stack" } else { "thread-local variable" },
                f.len,
                self.object(f.addr, x),
                x.names().thread_at(f.alloc_tid, f.alloc_step as usize),
                at(&self.location(f.free_site))
            ),
            MemError::FreeStatic | MemError::FreeStack => format!(
                "invalid free: thread {who}{place} frees {}, which is not heap memory",
                self.object(f.addr, x)
            ),
        }
    }

    pub fn error_location(&self, f: &Found) -> String {
        match &f.execution.end {
            End::Assertion { file, line, .. } => format!("{}:{line}", short(file)),
            End::Crash { site, pc, call, .. } => self.crash_location(*pc, *call, *site),
            End::Abort { site, .. }
            | End::ReachError { site, .. }
            | End::Memory { site, .. }
            | End::Misuse { site, .. } => self.location(*site),
            End::DataRace { second, .. } => self.location(second.site),
            End::Deadlock | End::Livelock => first_waiter(&f.execution)
                .map(|b| self.location(b.site))
                .unwrap_or_default(),
            _ => String::new(),
        }
    }
}

fn at(loc: &str) -> String {
    if loc.is_empty() {
        String::new()
    } else {
        format!(" at {loc}")
    }
}

/// The thread holding a mutex at the end of a trace.
fn holder(events: &[Event], mutex: u64) -> Option<Tid> {
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

fn show_value(v: u64, len: u32) -> String {
    let bits = (len.clamp(1, 8) * 8) as u64;
    let signed = if bits < 64 && v >> (bits - 1) & 1 == 1 {
        (v | !((1u64 << bits) - 1)) as i64
    } else {
        v as i64
    };
    if signed.unsigned_abs() < 1 << 20 {
        signed.to_string()
    } else {
        format!("{v:#x}")
    }
}

/// The failing interleaving as a table: every step (`full`), or the steps that matter,
/// with runs of the others folded (`fold`).
pub fn interleaving(namer: &Namer, f: &Found, full: bool) -> String {
    let rows = namer.rows(f);
    let events = &f.execution.events;
    let shown = if full {
        vec![true; rows.len()]
    } else {
        fold::shown(events)
    };
    let w_op = rows.iter().map(|r| r.op.len()).max().unwrap_or(0).max(9);
    let w_obj = rows
        .iter()
        .map(|r| r.object.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let w_val = rows
        .iter()
        .map(|r| r.value.as_deref().unwrap_or("").len())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut out = format!(
        "  {:>5}  {:<6}  {:<w_op$}  {:<w_obj$}  {:<w_val$}  location\n",
        "step", "thread", "operation", "object", "value"
    );
    let mut hidden: Vec<usize> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        if !shown.get(i).copied().unwrap_or(true) {
            hidden.push(i);
            continue;
        }
        out += &namer.folded(&hidden, events, &rows);
        hidden.clear();
        out += &format!(
            "  {:>5}  {}  {:<w_op$}  {:<w_obj$}  {:<w_val$}  {}\n",
            r.step,
            paint(THREAD, &format!("{:<6}", r.thread)),
            r.op,
            r.object,
            r.value.as_deref().unwrap_or(""),
            paint(LOCATION, &r.location)
        );
    }
    out += &namer.folded(&hidden, events, &rows);
    out
}

#[derive(Serialize)]
pub struct JsonError {
    pub kind: &'static str,
    pub message: String,
    /// The thread's name (`T1`, `T1.2`).
    pub thread: String,
    pub location: String,
    /// What `cdpor replay --schedule` takes (see `schedule`).
    pub schedule: String,
    pub trace: Vec<Row>,
}

#[derive(Serialize)]
pub struct JsonErrorSummary {
    pub kind: &'static str,
    pub message: String,
    pub location: String,
    /// Failing executions that showed this error.
    pub executions: u64,
}

#[derive(Serialize)]
pub struct JsonReport {
    pub verdict: &'static str,
    pub executions: u64,
    pub blocked: u64,
    pub bounded: u64,
    /// Executions ended by a false assumption (infeasible; not in `executions`).
    pub assume_blocked: u64,
    /// Executions that ended with a spin loop waiting for a change that came after it
    /// read: redundant, since another execution runs the loop after that change (not in
    /// `executions`).
    pub stale_spins: u64,
    pub algorithm: &'static str,
    pub threads: usize,
    pub time_s: f64,
    /// Executions that ended in an error.
    pub failing_executions: u64,
    /// Probe executions run before exploring (not in `executions`).
    pub probes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonError>,
    pub errors: Vec<JsonErrorSummary>,
    /// Unmodelled external functions called with pointers to shared memory.
    pub warnings: Vec<JsonWarning>,
    /// `inplace` or `fork`: how workers got back to the state before an execution.
    pub reset: &'static str,
    /// Why in-place reset stopped for the rest of the run, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<JsonFallback>,
    pub timing: JsonTiming,
}

#[derive(Serialize)]
pub struct JsonFallback {
    pub message: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub location: String,
}

/// Where the time of a run went (seconds): executions running in workers, their in-place
/// resets, the hand-off between cdpor and workers (forks included), and cdpor's own work.
#[derive(Serialize)]
pub struct JsonTiming {
    pub run_s: f64,
    pub reset_s: f64,
    pub handoff_s: f64,
    pub engine_s: f64,
    pub workers: u32,
    /// In-place workers replaced after an execution they could not reset from: a crash,
    /// a use of the C library's allocator, a write outside the program's memory, or the
    /// runtime's room for an execution running out.
    pub replaced: JsonReplaced,
}

#[derive(Serialize)]
pub struct JsonReplaced {
    pub crash: u32,
    pub library_allocator: u32,
    pub stray_write: u32,
    pub room: u32,
}

#[derive(Serialize)]
pub struct JsonWarning {
    pub function: String,
    pub location: String,
    pub message: String,
}

/// What kind of synchronization object the misusing event `e` operates on (the crash in
/// its place keeps the operation's kind).
/// What a misused thread operation does to the thread it names.
fn thread_verb(e: &Event) -> &'static str {
    match Kind::from_u8(e.replaced).unwrap_or(e.kind()) {
        Kind::Detach => "detaches",
        _ => "joins",
    }
}

fn object_kind(e: &Event) -> &'static str {
    use Kind::*;
    match Kind::from_u8(e.replaced).unwrap_or(e.kind()) {
        SemInit | SemWait | SemTryWait | SemPost | SemGetValue | SemDestroy => "semaphore",
        BarrierInit | BarrierWait | BarrierPass | BarrierDestroy => "barrier",
        CondWait | CondSignal | CondBroadcast | CondInit | CondDestroy | CondWake => "condition",
        _ => "mutex",
    }
}

/// The blocked thread an error of no thread's own is reported at: one that waits in an
/// await (it spins, or its assumption can never hold), else the first.
fn first_waiter(x: &Execution) -> Option<&Event> {
    (x.blocked.iter().find(|b| b.kind() == Kind::Await)).or(x.blocked.first())
}

/// The thread an error is reported in, named at the step where it erred.
fn error_thread(f: &Found) -> String {
    let names = f.execution.names();
    if let End::DataRace {
        second,
        second_step,
        ..
    } = &f.execution.end
    {
        return names.thread_at(second.tid, second_step.unwrap_or(usize::MAX));
    }
    names.thread(match &f.execution.end {
        End::Assertion { tid, .. }
        | End::Abort { tid, .. }
        | End::Crash { tid, .. }
        | End::Memory { tid, .. }
        | End::Misuse { tid, .. }
        | End::ReachError { tid, .. } => *tid,
        End::Deadlock | End::Livelock => first_waiter(&f.execution).map_or(0, |b| b.tid()),
        _ => f.execution.events.last().map(|e| e.tid()).unwrap_or(0),
    })
}

pub fn verdict(s: &Summary) -> (&'static str, i32) {
    if !s.errors.is_empty() {
        ("error", EXIT_ERROR)
    } else if s.complete() {
        ("safe", EXIT_SAFE)
    } else {
        ("incomplete", EXIT_INCOMPLETE)
    }
}

/// The verdict in SV-COMP's words for the unreach-call property: an assertion failure
/// (or a call of `reach_error`) is a counterexample; anything short of a complete safe
/// exploration is unknown.
pub fn svcomp_verdict(s: &Summary) -> &'static str {
    match s.errors.first() {
        Some(f) if f.kind == ErrorKind::Assertion => "FALSE(unreach-call)",
        Some(f) if f.kind == ErrorKind::DataRace => "FALSE(no-data-race)",
        None if s.complete() => "TRUE",
        _ => "UNKNOWN",
    }
}

pub fn cut_text(namer: &Namer, s: &Summary) -> Option<String> {
    let mut parts = Vec::new();
    match &s.cut {
        Some(Cut::MaxExecutions(n)) => parts.push(format!("stopped at --max-executions {n}")),
        Some(Cut::TimeLimit(d)) => {
            parts.push(format!("stopped at --time-limit {}s", d.as_secs_f64()))
        }
        Some(Cut::Interrupted(sig)) => parts.push(format!("interrupted by {}", signal_name(*sig))),
        None => {}
    }
    let by_steps = s.steps_bounded();
    if by_steps > 0 {
        parts.push(format!(
            "{} cut by --max-steps",
            plural(by_steps, "execution")
        ));
    }
    if s.loop_bounded > 0 {
        // Sites that stopped a thread for good: loops past --unroll, condition waits that
        // could end without a signal once more (`ops::cond::UNSIGNALLED`) and, under
        // --svcomp, allocations the heap cannot meet (SV-COMP assumes malloc never fails).
        let op = |site: u32| namer.site(site).map_or(String::new(), |x| x.op.clone());
        let alloc = |site: u32| op(site).contains("alloc");
        let wait = |site: u32| ["cond_", "cnd_"].iter().any(|w| op(site).contains(w));
        let at = |pick: &dyn Fn(u32) -> bool| -> Vec<String> {
            (s.unrolled.iter().copied())
                .filter(|&site| pick(site))
                .map(|site| namer.location(site))
                .filter(|l| !l.is_empty())
                .collect()
        };
        let allocations = at(&alloc);
        if !allocations.is_empty() {
            parts.push(format!(
                "cut where an allocation was larger than a thread's heap of 4 GiB (at {}), which SV-COMP assumes never fails",
                allocations.join(", ")
            ));
        }
        let (waits, loops) = (at(&wait), at(&|site| !alloc(site) && !wait(site)));
        let mut why = Vec::new();
        match loops.len() {
            0 => {}
            1 => why.push(format!("the loop at {} ran that many iterations", loops[0])),
            _ => why.push(format!(
                "the loops at {} ran that many iterations",
                loops.join(", ")
            )),
        }
        if !waits.is_empty() {
            why.push(format!(
                "a thread's condition wait at {} could end without a signal after {} such ends",
                waits.join(", "),
                cdpor_sched::ops::cond::UNSIGNALLED
            ));
        }
        if why.is_empty() && allocations.is_empty() {
            why.push("a loop ran that many iterations".into());
        }
        if !why.is_empty() {
            parts.push(format!(
                "{} cut by --unroll ({})",
                plural(s.loop_bounded, "execution"),
                why.join("; ")
            ));
        }
    }
    if s.timeouts_cut > 0 {
        parts.push(format!(
            "{} cut where no thread could run but a timed wait could time out again and \
             see another thread's change (time is not modelled)",
            plural(s.timeouts_cut, "execution")
        ));
    }
    if s.thread_bounded > 0 {
        parts.push(format!(
            "{} cut by --max-threads (they would create more threads than it \
             allows, or more than the {} that can be created and not joined at once)",
            plural(s.thread_bounded, "execution"),
            cdpor_sched::MAX_THREADS - 1
        ));
    }
    for (&site, &n) in &s.restricted {
        let what = namer
            .site(site)
            .map_or("a nondeterministic value", |x| x.op.as_str());
        parts.push(format!(
            "{what}(){} explored over {n} of its values only (intervals of more than {} \
             values are sampled over --nondet-range)",
            at(&namer.location(site)),
            cdpor_sched::ops::nondet::WHOLE
        ));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

pub fn json(
    namer: &Namer,
    s: &Summary,
    algorithm: &'static str,
    threads: usize,
    warnings: &[Warning],
) -> JsonReport {
    let (verdict, _) = verdict(s);
    let error = s.errors.first().map(|f| JsonError {
        kind: f.kind.name(),
        message: namer.message(f),
        thread: error_thread(f),
        location: namer.error_location(f),
        schedule: schedule::format(&f.schedule, f.execution.names()),
        trace: namer.rows(f),
    });
    JsonReport {
        verdict,
        executions: s.executions(),
        blocked: s.stats.blocked,
        bounded: s.stats.bounded,
        assume_blocked: s.assume_blocked,
        stale_spins: s.stale_spins,
        algorithm,
        threads,
        time_s: (s.elapsed.as_secs_f64() * 1e4).round() / 1e4,
        failing_executions: s.failing,
        probes: s.probes,
        cut: cut_text(namer, s),
        error,
        errors: s
            .errors
            .iter()
            .map(|f| JsonErrorSummary {
                kind: f.kind.name(),
                message: namer.message(f),
                location: namer.error_location(f),
                executions: f.count,
            })
            .collect(),
        warnings: warnings
            .iter()
            .map(|w| JsonWarning {
                function: w.function.clone(),
                location: short(&w.location).into_owned(),
                message: w.to_string(),
            })
            .collect(),
        reset: match s.workers.reset {
            Reset::Fork => "fork",
            Reset::InPlace => "inplace",
        },
        fallback: s.workers.fell_back.as_ref().map(|f| JsonFallback {
            message: fallback_text(f),
            location: namer.location(f.site),
        }),
        timing: {
            let w = &s.workers;
            let secs = |d: std::time::Duration| (d.as_secs_f64() * 1e6).round() / 1e6;
            JsonTiming {
                run_s: secs(w.run),
                reset_s: secs(w.resetting),
                handoff_s: secs(w.waiting.saturating_sub(w.tail)),
                engine_s: secs(w.engine),
                workers: w.forked,
                replaced: JsonReplaced {
                    crash: w.replaced[Replaced::Crash as usize],
                    library_allocator: w.replaced[Replaced::LibraryAllocator as usize],
                    stray_write: w.replaced[Replaced::StrayWrite as usize],
                    room: w.replaced[Replaced::Room as usize],
                },
            }
        },
    }
}

/// Why in-place reset stopped, as the user reads it.
pub fn fallback_text(f: &FellBack) -> String {
    match f.why {
        Fallback::Call => format!(
            "`{}` changes what an in-place reset cannot put back (files, the kernel's state, or state cdpor does not see): every later execution ran in a worker forked for it",
            f.what
        ),
        _ => format!(
            "{}: every later execution ran in a worker forked for it",
            f.what
        ),
    }
}

/// The human report of a finished exploration.
/// `full_trace`: every step of the interleaving, not only those that matter (`fold`).
pub fn human(namer: &Namer, s: &Summary, algorithm: &str, full_trace: bool) -> String {
    let mut out = String::new();
    let (verdict, _) = verdict(s);
    let time = format!("{:.2} s", s.elapsed.as_secs_f64());
    let mut extra = String::new();
    if s.stats.blocked > 0 {
        extra += &format!(", {} sleep-set blocked", s.stats.blocked);
    }
    if s.assume_blocked > 0 {
        extra += &format!(", {} ended by a false assumption", s.assume_blocked);
    }
    if s.stale_spins > 0 {
        extra += &format!(
            ", {} redundant (a spin loop read what changed later)",
            s.stale_spins
        );
    }
    if s.stuck > 0 {
        extra += &format!(", {} with threads stuck for good", s.stuck);
    }
    if s.stats.bounded > 0 {
        extra += &format!(", {} cut by a bound", s.stats.bounded);
    }
    if s.probes > 0 {
        extra += &format!(", after {}", plural(s.probes, "probe"));
    }
    let counts = format!(
        "{}{extra} (algorithm {algorithm}, {time})",
        plural(s.executions(), "execution"),
    );
    if let Some(f) = s.errors.first() {
        let headline = format!("cdpor: {} error:", f.kind.name());
        out += &format!("{} {}\n", paint(ERROR, &headline), namer.message(f));
        let by = if f.probe { "probe" } else { "execution" };
        out += &format!("  found in {by} {} of this run; {counts}\n\n", f.index);
        if let Some(threads) = namer.thread_legend(&f.execution) {
            out += &format!("Threads: {threads}\n");
        }
        out += &format!("Interleaving ({} events):\n", f.execution.events.len());
        out += &interleaving(namer, f, full_trace);
        if matches!(f.kind, ErrorKind::Deadlock | ErrorKind::Livelock) {
            out += "\nBlocked threads:\n";
            for b in &f.execution.blocked {
                out += &format!("  {}\n", namer.wait(b, &f.execution));
            }
            if let Some(cycle) = namer.wait_cycle(&f.execution) {
                out += &format!("\nCycle: {cycle}\n");
            }
            for lost in namer.lost_wakeups(&f.execution) {
                out += &format!("\nLost wake-up: {lost}.\n");
            }
        }
        out += &format!(
            "\nSchedule (thread of each step, for `cdpor replay --schedule`): {}\n",
            schedule::format(&f.schedule, f.execution.names())
        );
        if s.errors.len() > 1 || s.failing > 1 {
            let mut runs = plural(s.executions(), "execution");
            if s.probes > 0 {
                runs += &format!(" and {}", plural(s.probes, "probe"));
            }
            out += &format!("\n{} of {runs} failed; distinct errors:\n", s.failing);
            for e in &s.errors {
                out += &format!(
                    "  {:>6} x {}: {}\n",
                    e.count,
                    e.kind.name(),
                    namer.message(e)
                );
            }
        }
        // Counts of a cut run are partial: say so, whatever was found.
        if let Some(c) = cut_text(namer, s) {
            out += &format!("exploration incomplete: {c}\n");
        }
        out += &format!("\n{}\n", paint(ERROR, &format!("verdict: {verdict}")));
    } else {
        out += &format!("cdpor: no errors found in {counts}\n");
        if let Some(c) = cut_text(namer, s) {
            out += &format!("exploration incomplete: {c}\n");
        }
        let style = if verdict == "safe" { SAFE } else { ERROR };
        out += &format!("{}\n", paint(style, &format!("verdict: {verdict}")));
    }
    out
}

/// How an execution without error ended, in words.
pub fn normal_end(end: &End) -> String {
    match end {
        End::Exit(code) => format!("the program exited with status {code}"),
        End::StepBound => "cut by --max-steps".into(),
        End::SleepBlocked => "every thread left to run was asleep".into(),
        End::ThreadBound => "cut by --max-threads".into(),
        End::TimedWaitCut => "cut where a timed wait could time out again".into(),
        End::LoopBound { .. } => "cut by --unroll".into(),
        End::Livelock => "every thread left waits for good (some spin)".into(),
        End::AssumeFail { .. } => "an assumption was false (an infeasible execution)".into(),
        End::StaleSpin { .. } => {
            "a thread spins on what changed after it read it (a redundant execution)".into()
        }
        End::Deadlock => "every thread left is blocked for good".into(),
        other => format!("{other:?}"),
    }
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A function as the program names it (its `main`, which cdpor renames).
fn user_function(f: &str) -> &str {
    if f == crate::instrument::USER_MAIN {
        "main"
    } else {
        f
    }
}
