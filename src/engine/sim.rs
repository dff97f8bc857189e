//! Abstract programs and a simulator that runs them the way the runtime runs C programs
//! (same event records, same `Scheduler`), so the engine can be tested without fork, FFI
//! or LLVM: threads are lists of reads, writes, read-modify-writes, compare-and-swaps and
//! mutex operations on a few variables, with branches on values read.
//!
//! Thread 0 plays `main`: it creates the workers, runs its own operations, joins the
//! workers and exits.

use std::collections::{BTreeMap, BTreeSet};

use cdpor_sched::event::FLAG_FROM_TRY;
use cdpor_sched::{dependent, Event, Kind, Pick, Scheduler, ThreadSet, Tid};

use super::{Pending, Request, Trace, TraceEnd};

/// Address of variable slot `v` (8 bytes each).
pub fn var_addr(v: usize) -> u64 {
    0x1000 + 8 * v as u64
}

fn mutex_addr(m: usize) -> u64 {
    0x9000 + 64 * m as u64
}

fn cond_addr(c: usize) -> u64 {
    0xa000 + 64 * c as u64
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `reg = bytes [off, off+len)` of variable `var` (little-endian).
    Read {
        var: usize,
        off: u8,
        len: u8,
        reg: usize,
    },
    /// Bytes `[off, off+len)` of `var` = `value` (+ `reg` if given).
    Write {
        var: usize,
        off: u8,
        len: u8,
        value: i64,
        plus_reg: Option<usize>,
    },
    /// Atomically: `reg = var; var += add`.
    FetchAdd {
        var: usize,
        add: i64,
        reg: usize,
    },
    /// Atomically: `reg = var; if var == expected { var = new }`.
    Cas {
        var: usize,
        expected: i64,
        new: i64,
        reg: usize,
    },
    Lock(usize),
    Unlock(usize),
    /// `reg = 0` if the mutex was taken, 1 if busy.
    TryLock {
        m: usize,
        reg: usize,
    },
    /// Skips the next `skip` operations when `reg == value`.
    SkipIfEq {
        reg: usize,
        value: i64,
        skip: usize,
    },
    /// Fails the program when `reg != value`.
    Assert {
        reg: usize,
        value: i64,
    },
    /// `pthread_cond_wait(c, m)`: the thread must hold `m`.
    Wait {
        c: usize,
        m: usize,
    },
    /// `pthread_cond_signal(c)` (wakes every waiter, as cdpor models it).
    Signal {
        c: usize,
    },
}

impl Op {
    pub fn read(var: usize, reg: usize) -> Op {
        Op::Read {
            var,
            off: 0,
            len: 8,
            reg,
        }
    }
    pub fn write(var: usize, value: i64) -> Op {
        Op::Write {
            var,
            off: 0,
            len: 8,
            value,
            plus_reg: None,
        }
    }
    /// `var = reg + add`: the write half of an increment.
    pub fn write_plus(var: usize, reg: usize, add: i64) -> Op {
        Op::Write {
            var,
            off: 0,
            len: 8,
            value: add,
            plus_reg: Some(reg),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Operations of main before it joins the workers.
    pub main: Vec<Op>,
    pub workers: Vec<Vec<Op>>,
    pub vars: usize,
}

/// What an execution ends with, as far as a user could observe it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Final memory and every thread's registers.
    Exit {
        memory: Vec<i64>,
        regs: Vec<Vec<i64>>,
    },
    Deadlock {
        blocked: Vec<Tid>,
    },
    /// Thread and index of its failed assertion.
    AssertFail {
        tid: Tid,
        op: usize,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    NotCreated,
    Ready,
    Finished,
}

struct Thread {
    pc: usize,
    regs: Vec<i64>,
    status: Status,
    joined: usize,
    created: usize,
    /// Between the two halves of a `Wait`: whether a signal woke it yet.
    waiting: Option<bool>,
}

/// One simulated execution.
pub struct Run {
    pub events: Vec<Event>,
    pub pending: Vec<Pending>,
    pub end: TraceEnd,
    pub outcome: Option<Outcome>,
}

impl Run {
    pub fn trace(&self) -> Trace<'_> {
        Trace {
            events: &self.events,
            pending: &self.pending,
            end: self.end,
        }
    }
}

const REGS: usize = 4;

struct Sim<'p> {
    prog: &'p Program,
    memory: Vec<u8>,
    mutex_owner: Vec<Option<Tid>>,
    threads: Vec<Thread>,
}

/// The code of thread `t`: main's creates, own operations and joins; a worker's operations.
enum Step<'a> {
    Op(&'a Op),
    Create(usize),
    Join(usize),
    Exit,
}

impl<'p> Sim<'p> {
    fn step_of(&self, t: Tid) -> Step<'p> {
        let th = &self.threads[t as usize];
        let n = self.prog.workers.len();
        if t == 0 {
            if th.created < n {
                return Step::Create(th.created + 1);
            }
            if th.pc < self.prog.main.len() {
                return Step::Op(&self.prog.main[th.pc]);
            }
            if th.joined < n {
                return Step::Join(th.joined + 1);
            }
            Step::Exit
        } else {
            match self.prog.workers[t as usize - 1].get(th.pc) {
                Some(op) => Step::Op(op),
                None => Step::Exit,
            }
        }
    }

    /// Runs local steps (branches, passing assertions) until the thread's next visible
    /// operation.
    fn settle(&mut self, t: Tid) {
        loop {
            let step = self.step_of(t);
            let th = &mut self.threads[t as usize];
            match step {
                Step::Op(Op::SkipIfEq { reg, value, skip }) => {
                    th.pc += 1 + if th.regs[*reg] == *value { *skip } else { 0 }
                }
                Step::Op(Op::Assert { reg, value }) if th.regs[*reg] == *value => th.pc += 1,
                _ => return,
            }
        }
    }

    fn pending(&self, t: Tid) -> Event {
        let mem = |var: usize, off: u8, len: u8, kind| {
            Event::mem(t, kind, var_addr(var) + off as u64, len as u32)
        };
        match self.step_of(t) {
            Step::Create(c) => Event {
                aux: c as u32,
                ..Event::new(t, Kind::Create)
            },
            Step::Join(c) => Event {
                aux: c as u32,
                ..Event::new(t, Kind::Join)
            },
            Step::Exit if t == 0 => Event::new(t, Kind::ProcessExit),
            Step::Exit => Event::new(t, Kind::ThreadExit),
            Step::Op(op) => match *op {
                Op::Read { var, off, len, .. } => mem(var, off, len, Kind::Read),
                Op::Write { var, off, len, .. } => mem(var, off, len, Kind::Write),
                Op::FetchAdd { var, .. } => mem(var, 0, 8, Kind::Rmw),
                Op::Cas { var, .. } => mem(var, 0, 8, Kind::CmpXchg),
                Op::Lock(m) => Event {
                    addr: mutex_addr(m),
                    ..Event::new(t, Kind::Lock)
                },
                Op::Unlock(m) => Event {
                    addr: mutex_addr(m),
                    ..Event::new(t, Kind::Unlock)
                },
                Op::TryLock { m, .. } => Event {
                    addr: mutex_addr(m),
                    ..Event::new(t, Kind::TryLock)
                },
                Op::Assert { .. } => Event::new(t, Kind::AssertFail),
                Op::Wait { c, m } => match self.threads[t as usize].waiting {
                    None => Event {
                        addr: cond_addr(c),
                        src: mutex_addr(m),
                        ..Event::new(t, Kind::CondWait)
                    },
                    Some(woken) => Event {
                        addr: cond_addr(c),
                        src: mutex_addr(m),
                        value: woken as u64,
                        ..Event::new(t, Kind::CondWake)
                    },
                },
                Op::Signal { c } => Event {
                    addr: cond_addr(c),
                    ..Event::new(t, Kind::CondSignal)
                },
                Op::SkipIfEq { .. } => unreachable!("settled"),
            },
        }
    }

    fn enabled(&self, t: Tid) -> bool {
        match self.step_of(t) {
            Step::Op(Op::Lock(m)) => self.mutex_owner[*m].is_none(),
            Step::Op(Op::Wait { m, .. }) => self.threads[t as usize]
                .waiting
                .is_none_or(|woken| woken && self.mutex_owner[*m].is_none()),
            Step::Join(c) => self.threads[c].status == Status::Finished,
            _ => true,
        }
    }

    fn load(&self, var: usize, off: u8, len: u8) -> i64 {
        let a = 8 * var + off as usize;
        let mut b = [0u8; 8];
        b[..len as usize].copy_from_slice(&self.memory[a..a + len as usize]);
        i64::from_le_bytes(b)
    }

    fn store(&mut self, var: usize, off: u8, len: u8, v: i64) {
        let a = 8 * var + off as usize;
        self.memory[a..a + len as usize].copy_from_slice(&v.to_le_bytes()[..len as usize]);
    }

    /// Executes thread `t`'s pending operation; returns the recorded event, and whether
    /// an assertion failed.
    fn execute(&mut self, t: Tid, mut ev: Event) -> (Event, bool) {
        let step = self.step_of(t);
        let ti = t as usize;
        let mut failed = false;
        match step {
            Step::Create(c) => {
                self.threads[ti].created += 1;
                self.threads[c].status = Status::Ready;
                self.settle(c as Tid);
                self.settle(t);
                return (ev, false);
            }
            Step::Join(_) => {
                self.threads[ti].joined += 1;
                self.settle(t);
                return (ev, false);
            }
            Step::Exit => {
                self.threads[ti].status = Status::Finished;
                return (ev, false);
            }
            Step::Op(op) => match *op {
                Op::Read { var, off, len, reg } => {
                    let v = self.load(var, off, len);
                    self.threads[ti].regs[reg] = v;
                    ev.value = v as u64;
                }
                Op::Write {
                    var,
                    off,
                    len,
                    value,
                    plus_reg,
                } => {
                    let v = value + plus_reg.map_or(0, |r| self.threads[ti].regs[r]);
                    self.store(var, off, len, v);
                    ev.value = v as u64;
                }
                Op::FetchAdd { var, add, reg } => {
                    let v = self.load(var, 0, 8);
                    self.threads[ti].regs[reg] = v;
                    self.store(var, 0, 8, v + add);
                }
                Op::Cas {
                    var,
                    expected,
                    new,
                    reg,
                } => {
                    let v = self.load(var, 0, 8);
                    self.threads[ti].regs[reg] = v;
                    if v == expected {
                        self.store(var, 0, 8, new);
                        ev.kind = Kind::Rmw as u8;
                    } else {
                        ev.kind = Kind::Read as u8;
                    }
                    ev.flags |= FLAG_FROM_TRY;
                }
                Op::Lock(m) => self.mutex_owner[m] = Some(t),
                Op::Wait { m, .. } if self.threads[ti].waiting.is_none() => {
                    // First half: release the mutex and wait, staying at this operation.
                    self.mutex_owner[m] = None;
                    self.threads[ti].waiting = Some(false);
                    return (ev, false);
                }
                Op::Wait { m, .. } => {
                    self.mutex_owner[m] = Some(t);
                    self.threads[ti].waiting = None;
                }
                Op::Signal { c } => {
                    for u in 0..self.threads.len() {
                        let waits_here = matches!(self.step_of(u as Tid), Step::Op(Op::Wait { c: c2, .. }) if *c2 == c);
                        if waits_here && self.threads[u].waiting.is_some() {
                            self.threads[u].waiting = Some(true);
                        }
                    }
                }
                Op::Unlock(m) => self.mutex_owner[m] = None,
                Op::TryLock { m, reg } => {
                    if self.mutex_owner[m].is_none() {
                        self.mutex_owner[m] = Some(t);
                        self.threads[ti].regs[reg] = 0;
                        ev.kind = Kind::Lock as u8;
                        ev.flags |= FLAG_FROM_TRY;
                    } else {
                        self.threads[ti].regs[reg] = 1;
                        ev.kind = Kind::TryFail as u8;
                    }
                }
                Op::Assert { .. } => failed = true,
                Op::SkipIfEq { .. } => unreachable!("settled"),
            },
        }
        if !failed {
            self.threads[ti].pc += 1;
            self.settle(t);
        }
        (ev, failed)
    }
}

/// Runs the program under `req`, as the runtime would.
pub fn run(prog: &Program, req: &Request, max_steps: usize) -> Run {
    let n = prog.workers.len() + 1;
    let mut sim = Sim {
        prog,
        memory: vec![0; 8 * prog.vars.max(1)],
        mutex_owner: vec![None; 8],
        threads: (0..n)
            .map(|t| Thread {
                pc: 0,
                regs: vec![0; REGS],
                status: if t == 0 {
                    Status::Ready
                } else {
                    Status::NotCreated
                },
                joined: 0,
                created: 0,
                waiting: None,
            })
            .collect(),
    };
    sim.settle(0);
    let mut sched = Scheduler::new(&req.schedule, &req.sleep, req.sleep_from, max_steps);
    let mut events = Vec::new();
    let mut cur = 0;
    loop {
        let mut enabled = ThreadSet::EMPTY;
        let mut live = ThreadSet::EMPTY;
        for t in 0..n as Tid {
            if sim.threads[t as usize].status == Status::Ready {
                live.insert(t);
                if sim.enabled(t) {
                    enabled.insert(t);
                }
            }
        }
        let pending = |sim: &Sim| -> Vec<Pending> {
            (0..n as Tid)
                .filter(|&t| sim.threads[t as usize].status == Status::Ready)
                .map(|t| Pending {
                    event: sim.pending(t),
                    enabled: sim.enabled(t),
                })
                .collect()
        };
        let t = match sched.pick(Some(cur), enabled, live) {
            Pick::Run(t) => t,
            Pick::Done => unreachable!("main exits before every thread is done"),
            Pick::Deadlock => {
                let blocked = live.iter().collect();
                return Run {
                    pending: pending(&sim),
                    events,
                    end: TraceEnd::Maximal { killed: false },
                    outcome: Some(Outcome::Deadlock { blocked }),
                };
            }
            Pick::SleepBlocked => {
                return Run {
                    pending: Vec::new(),
                    events,
                    end: TraceEnd::SleepBlocked,
                    outcome: None,
                }
            }
            Pick::StepBound => {
                return Run {
                    pending: Vec::new(),
                    events,
                    end: TraceEnd::Bounded,
                    outcome: None,
                }
            }
            Pick::Diverged(t) => panic!(
                "schedule diverged at step {}: T{t} cannot run",
                events.len()
            ),
        };
        cur = t;
        let ev = Event {
            enabled: enabled.0,
            ..sim.pending(t)
        };
        let op_index = sim.threads[t as usize].pc;
        let (ev, failed) = sim.execute(t, ev);
        sched.executed(&ev);
        events.push(ev);
        if failed {
            // The failing thread is mid-operation: it has no next event.
            sim.threads[t as usize].status = Status::Finished;
            return Run {
                pending: pending(&sim),
                events,
                end: TraceEnd::Maximal { killed: true },
                outcome: Some(Outcome::AssertFail {
                    tid: t,
                    op: op_index,
                }),
            };
        }
        if ev.kind() == Kind::ProcessExit {
            let memory = (0..prog.vars).map(|v| sim.load(v, 0, 8)).collect();
            let regs = sim.threads.iter().map(|th| th.regs.clone()).collect();
            return Run {
                pending: pending(&sim),
                events,
                end: TraceEnd::Maximal { killed: false },
                outcome: Some(Outcome::Exit { memory, regs }),
            };
        }
    }
}

/// A canonical name for an execution's Mazurkiewicz trace: each event as (thread, its
/// index in the thread), and the order of every dependent pair of events of different
/// threads. Two executions are equivalent exactly when these agree.
pub fn trace_class(events: &[Event]) -> Class {
    let mut index = BTreeMap::new();
    let ids: Vec<(u32, u32)> = events
        .iter()
        .map(|e| {
            let c = index.entry(e.tid()).or_insert(0u32);
            *c += 1;
            (e.tid(), *c)
        })
        .collect();
    let mut ops: Vec<(u32, u32, u8, u64, u32)> = events
        .iter()
        .zip(&ids)
        .map(|(e, id)| (id.0, id.1, e.kind, e.addr, e.len))
        .collect();
    ops.sort();
    let mut pairs = BTreeSet::new();
    for i in 0..events.len() {
        for j in i + 1..events.len() {
            if events[i].tid != events[j].tid && dependent(&events[i], &events[j]) {
                pairs.insert((ids[i].0, ids[i].1, ids[j].0, ids[j].1));
            }
        }
    }
    (ops, pairs.into_iter().collect())
}

/// See `trace_class`.
pub type Class = (Vec<(u32, u32, u8, u64, u32)>, Vec<(u32, u32, u32, u32)>);

/// What exploring a program with one algorithm found.
#[derive(Debug, Default)]
pub struct Explored {
    pub stats: super::Stats,
    /// Traces of the executions that the program ended by itself. Executions ended early by
    /// a failed assertion are not compared by trace: the engine does not enumerate how far
    /// other threads got before the end, since that cannot change what is found.
    pub classes: BTreeSet<Class>,
    pub outcomes: BTreeSet<Outcome>,
    /// Executions ended by a failed assertion.
    pub killed: u64,
    /// Complete executions that repeated a trace already seen.
    pub redundant: u64,
}

/// Explores `prog` exhaustively with `alg`; `None` if it takes more than `limit` executions.
pub fn explore(prog: &Program, alg: super::Algorithm, limit: u64) -> Option<Explored> {
    let mut engine = super::Engine::new(alg);
    let mut out = Explored::default();
    let mut seen_killed = BTreeSet::new();
    let mut runs = 0;
    while let Some(req) = engine.next_request() {
        runs += 1;
        if runs > limit {
            return None;
        }
        let r = run(prog, &req.clone(), 10_000);
        engine
            .record(&r.trace())
            .expect("simulated programs are deterministic");
        if let Some(o) = r.outcome {
            let class = trace_class(&r.events);
            if matches!(o, Outcome::AssertFail { .. }) {
                out.killed += 1;
                if !seen_killed.insert(class) {
                    out.redundant += 1;
                }
            } else if !out.classes.insert(class) {
                out.redundant += 1;
            }
            out.outcomes.insert(o);
        }
    }
    out.stats = engine.stats();
    Some(out)
}
