//! The failing interleaving, step by step: what each event did, to what, where.

use super::*;
use cdpor_sched::ops::barrier;

impl Namer<'_> {
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
            Kind::CmpXchg if e.flags & FLAG_SILENT != 0 => named("cmpxchg (changes nothing)"),
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
                        .name(e.arg, &x.allocs, self.sites, (local, None), x.names())
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
            Kind::BarrierWait if barrier::is_serial(e) => {
                named("barrier wait: arrives last (serial thread)")
            }
            Kind::BarrierWait => named("barrier wait: arrives"),
            Kind::BarrierPass if barrier::is_serial(e) => {
                named("barrier wait: round over, passes (serial thread)")
            }
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
