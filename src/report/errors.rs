//! What went wrong, in words: the error message of each kind of error, and where.

use super::waits::holder;
use super::*;

impl Namer<'_> {
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

    /// Where a crash happened, as the program's source says it: the faulting line when
    /// it is the program's, else the library call it happened in, else the crashing
    /// thread's last visible operation.
    pub(super) fn crash_location(&self, pc: u64, call: u32, site: u32) -> String {
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
                .name(e.arg, &x.allocs, self.sites, (None, None), x.names())
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

/// What a misused thread operation does to the thread it names.
fn thread_verb(e: &Event) -> &'static str {
    match Kind::from_u8(e.replaced).unwrap_or(e.kind()) {
        Kind::Detach => "detaches",
        _ => "joins",
    }
}

/// What kind of synchronization object the misusing event `e` operates on (the crash in
/// its place keeps the operation's kind).
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
pub(super) fn error_thread(f: &Found) -> String {
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
