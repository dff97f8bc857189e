//! Abstract programs and a simulator that runs them the way the runtime runs C programs
//! (same event records, same `Scheduler`, and the same operation definitions through
//! `ops::World`), so the engine can be tested without fork, FFI or LLVM: threads are
//! lists of reads, writes, read-modify-writes, compare-and-swaps, mutex and condition
//! operations on a few variables, with branches on values read, crashes, and threads that
//! create and join threads of their own.
//!
//! Thread 0 plays `main`: it creates the workers, runs its own operations, joins the
//! workers and exits. Threads are numbered by the program's text (worker `w` is thread
//! `w`, child `k` is thread `workers + 1 + k`), as the runtime numbers them by name.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use cdpor_sched::event::{FLAG_FAILED, FLAG_VALUE};
use cdpor_sched::ops::{self, awaits, World};
use cdpor_sched::{dependent, Event, Kind, Pick, Scheduler, ThreadSet, Tid};

use super::{Pending, Request, Trace, TraceEnd};

/// Address of variable slot `v` (8 bytes each).
pub fn var_addr(v: usize) -> u64 {
    0x1000 + 8 * v as u64
}

fn mutex_addr(m: usize) -> u64 {
    0x9000 + 64 * m as u64
}

fn sem_addr(s: usize) -> u64 {
    0xb000 + 64 * s as u64
}

fn rwlock_addr(l: usize) -> u64 {
    0xc000 + 64 * l as u64
}

fn cond_addr(c: usize) -> u64 {
    0xa000 + 64 * c as u64
}

fn barrier_addr(b: usize) -> u64 {
    0xd000 + 64 * b as u64
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
    /// Goes to operation `to` of the thread (backwards too: a loop) when `reg == value`.
    JumpIfEq {
        reg: usize,
        value: i64,
        to: usize,
    },
    /// `sem_wait(s)`.
    SemWait(usize),
    /// `sem_post(s)`.
    SemPost(usize),
    /// `reg = 0` if `sem_trywait(s)` took a unit, 1 if the count was 0.
    SemTryWait {
        s: usize,
        reg: usize,
    },
    /// `pthread_rwlock_rdlock(l)`.
    RdLock(usize),
    /// `pthread_rwlock_wrlock(l)`.
    WrLock(usize),
    /// `pthread_rwlock_unlock(l)`.
    RwUnlock(usize),
    /// `reg = 0` if `pthread_rwlock_tryrdlock(l)` (or `trywrlock`, `write`) took it, 1 if
    /// not.
    TryRwLock {
        l: usize,
        write: bool,
        reg: usize,
    },
    /// Fails the program when `reg != value`.
    Assert {
        reg: usize,
        value: i64,
    },
    /// The thread crashes (a fault in its own code).
    Crash,
    /// `pthread_cond_wait(c, m)`: the thread must hold `m`.
    Wait {
        c: usize,
        m: usize,
    },
    /// `pthread_cond_signal(c)`: wakes one waiter.
    Signal {
        c: usize,
    },
    /// `pthread_cond_broadcast(c)`: wakes every waiter.
    Broadcast {
        c: usize,
    },
    /// `reg = pthread_barrier_wait(b) == PTHREAD_BARRIER_SERIAL_THREAD` (no `reg`: the
    /// result is not used; if no wait uses it, no thread is told it is the serial one):
    /// an arrival, then a pass once the round has ended (ordered: unless the arrival
    /// ended it).
    Barrier {
        b: usize,
        reg: Option<usize>,
    },
    /// `while ((reg = var) != value) {}`, as the runtime runs it: a read, and when the
    /// value is not there, a spin (`awaits`): the thread stops for good.
    AwaitEq {
        var: usize,
        value: i64,
        reg: usize,
    },
    /// Creates child `k` (its code is `Program::children[k]`).
    Spawn(usize),
    /// Joins child `k`.
    JoinChild(usize),
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
    /// Threads that workers create with `Op::Spawn` (each spawned at most once).
    pub children: Vec<Vec<Op>>,
    pub vars: usize,
    /// The initial counts of semaphores 0, 1...
    pub sems: Vec<u32>,
    /// The kinds of mutexes 0, 1... (`ops::mutex::RECURSIVE`...; absent: default).
    pub mutex_kinds: Vec<u32>,
    /// How many threads barriers 0, 1... wait for.
    pub barriers: Vec<u32>,
    /// Main returns after its operations without joining the workers: its end waits
    /// while another thread can run (`ops::enabled_threads`), as the runtime's does.
    pub early_return: bool,
}

impl Program {
    /// lastzero (Abdulla et al.): thread 0 scans a[n..0] for the last zero; thread j sets
    /// a[j] = a[j-1] + 1. Its trace counts are published; the engine's tests check them
    /// and its benchmark times them.
    pub fn lastzero(n: usize) -> Program {
        let mut scan = Vec::new();
        for i in (0..=n).rev() {
            scan.push(Op::read(i, 0));
            // Stop at the first zero found: skip the remaining reads.
            scan.push(Op::SkipIfEq {
                reg: 0,
                value: 0,
                skip: 2 * i,
            });
        }
        let mut workers = vec![scan];
        workers.extend((1..=n).map(|j| vec![Op::read(j - 1, 0), Op::write_plus(j, 0, 1)]));
        Program {
            workers,
            vars: n + 1,
            ..Default::default()
        }
    }

    fn threads(&self) -> usize {
        1 + self.workers.len() + self.children.len()
    }

    /// `ops::barrier::UNUSED` when no barrier wait of the program uses its result (what
    /// the instrumentation tells the runtime), else 0.
    fn barrier_results_unused(&self) -> u32 {
        let uses = |op: &Op| matches!(op, Op::Barrier { reg: Some(_), .. });
        let code = [&self.main]
            .into_iter()
            .chain(&self.workers)
            .chain(&self.children);
        if code.flatten().any(uses) {
            0
        } else {
            ops::barrier::UNUSED
        }
    }

    fn child_tid(&self, k: usize) -> Tid {
        (1 + self.workers.len() + k) as Tid
    }
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
    /// No thread could run, and one spins on what another thread changed after it read
    /// it: redundant (`awaits`), but a trace like any other.
    StaleSpin,
    /// Thread and index of its failed assertion.
    AssertFail {
        tid: Tid,
        op: usize,
    },
    /// Thread and index of its crash.
    Crash {
        tid: Tid,
        op: usize,
    },
}

impl Outcome {
    /// A failed assertion or a crash ended the program.
    pub fn killed(&self) -> bool {
        matches!(self, Outcome::AssertFail { .. } | Outcome::Crash { .. })
    }
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
    /// Between the two halves of a `Wait`, or of a `Barrier` (whose round is `round`).
    waiting: bool,
    round: u64,
    /// In an `AwaitEq` whose read missed (at step `spin_from`): its next event is the
    /// await.
    awaiting: bool,
    spin_from: usize,
}

/// One simulated execution.
pub struct Run {
    pub events: Vec<Event>,
    pub enabled: Vec<ThreadSet>,
    pub pending: Vec<Pending>,
    pub end: TraceEnd,
    pub outcome: Option<Outcome>,
    /// More threads used a barrier than it waits for (`ops::barrier`).
    pub barrier_overflow: bool,
}

impl Run {
    pub fn trace(&self) -> Trace<'_> {
        Trace {
            events: &self.events,
            enabled: &self.enabled,
            pending: &self.pending,
            end: self.end,
        }
    }
}

const REGS: usize = 4;

struct Sim<'p> {
    prog: &'p Program,
    memory: Vec<u8>,
    sync_words: HashMap<u64, u32>,
    thread_words: HashMap<(Tid, u64), u32>,
    threads: Vec<Thread>,
    /// Each ready thread's announced next operation.
    pending: Vec<Event>,
    sched: Scheduler<'p>,
    /// Arrivals at barriers are ordered (`ops::barrier::ORDERED`).
    ordered_barriers: bool,
    /// `ops::barrier::UNUSED` if no barrier wait of the program uses its result.
    barrier_unused: u32,
    barrier_overflow: bool,
}

/// The code of thread `t`: main's creates, own operations and joins; a worker's or a
/// child's operations.
enum Step<'a> {
    Op(&'a Op),
    Create(usize),
    Join(usize),
    Exit,
}

impl World for Sim<'_> {
    fn sync_word(&self, m: u64) -> u32 {
        self.sync_words.get(&m).copied().unwrap_or(0)
    }
    fn set_sync_word(&mut self, m: u64, v: u32) {
        self.sync_words.insert(m, v);
    }
    fn thread_word(&self, t: Tid, m: u64) -> u32 {
        self.thread_words.get(&(t, m)).copied().unwrap_or(0)
    }
    fn set_thread_word(&mut self, t: Tid, m: u64, v: u32) {
        self.thread_words.insert((t, m), v);
    }
    fn ready(&self) -> ThreadSet {
        (0..self.threads.len() as Tid)
            .filter(|&t| self.threads[t as usize].status == Status::Ready)
            .collect()
    }
    fn pending(&self, t: Tid) -> &Event {
        &self.pending[t as usize]
    }
    fn pending_mut(&mut self, t: Tid) -> &mut Event {
        &mut self.pending[t as usize]
    }
    fn finished(&self, t: Tid) -> bool {
        self.threads[t as usize].status == Status::Finished
    }
    fn choose(&mut self, n: u32) -> u32 {
        self.sched.choice(n)
    }
    fn barrier_overflow(&mut self) {
        self.barrier_overflow = true;
    }
}

impl<'p> Sim<'p> {
    fn step_of(&self, t: Tid) -> Step<'p> {
        let th = &self.threads[t as usize];
        let n = self.prog.workers.len();
        let code: &'p [Op] = if t == 0 {
            if th.created < n {
                return Step::Create(th.created + 1);
            }
            if th.pc >= self.prog.main.len() {
                return if th.joined < n && !self.prog.early_return {
                    Step::Join(th.joined + 1)
                } else {
                    Step::Exit
                };
            }
            &self.prog.main
        } else if (t as usize) <= n {
            &self.prog.workers[t as usize - 1]
        } else {
            &self.prog.children[t as usize - 1 - n]
        };
        code.get(th.pc).map_or(Step::Exit, Step::Op)
    }

    /// Runs local steps (branches, passing assertions) until the thread's next visible
    /// operation, and announces it.
    fn settle(&mut self, t: Tid) {
        for local in 0.. {
            assert!(local < 100_000, "T{t} loops without a visible operation");
            let step = self.step_of(t);
            let th = &mut self.threads[t as usize];
            match step {
                Step::Op(Op::SkipIfEq { reg, value, skip }) => {
                    th.pc += 1 + if th.regs[*reg] == *value { *skip } else { 0 }
                }
                Step::Op(Op::JumpIfEq { reg, value, to }) => {
                    th.pc = if th.regs[*reg] == *value {
                        *to
                    } else {
                        th.pc + 1
                    }
                }
                Step::Op(Op::Assert { reg, value }) if th.regs[*reg] == *value => th.pc += 1,
                _ => break,
            }
        }
        let mut ev = self.announce(t);
        ops::announce(self, &mut ev);
        self.pending[t as usize] = ev;
    }

    fn announce(&self, t: Tid) -> Event {
        let mem = |var: usize, off: u8, len: u8, kind| {
            Event::mem(t, kind, var_addr(var) + off as u64, len as u32)
        };
        let create = |c: Tid| Event {
            aux: c,
            ..Event::new(t, Kind::Create)
        };
        let join = |c: Tid| Event {
            aux: c,
            ..Event::new(t, Kind::Join)
        };
        match self.step_of(t) {
            Step::Create(c) => create(c as Tid),
            Step::Join(c) => join(c as Tid),
            Step::Exit if t == 0 => Event::new(t, Kind::ProcessExit),
            Step::Exit => Event::new(t, Kind::ThreadExit),
            Step::Op(op) => match *op {
                Op::Read { var, off, len, .. } => mem(var, off, len, Kind::Read),
                Op::Write { var, off, len, .. } => mem(var, off, len, Kind::Write),
                Op::FetchAdd { var, .. } => mem(var, 0, 8, Kind::Rmw),
                Op::Cas { var, expected, .. } => Event {
                    value: expected as u64,
                    ..mem(var, 0, 8, Kind::CmpXchg)
                },
                Op::Lock(m) => Event::on(t, Kind::Lock, mutex_addr(m)),
                Op::Unlock(m) => Event::on(t, Kind::Unlock, mutex_addr(m)),
                Op::TryLock { m, .. } => Event::on(t, Kind::TryLock, mutex_addr(m)),
                Op::SemWait(s) => Event::on(t, Kind::SemWait, sem_addr(s)),
                Op::SemPost(s) => Event::on(t, Kind::SemPost, sem_addr(s)),
                Op::SemTryWait { s, .. } => Event::on(t, Kind::SemTryWait, sem_addr(s)),
                Op::RdLock(l) => Event::on(t, Kind::RdLock, rwlock_addr(l)),
                Op::WrLock(l) => Event::on(t, Kind::WrLock, rwlock_addr(l)),
                Op::RwUnlock(l) => Event::on(t, Kind::RwUnlock, rwlock_addr(l)),
                Op::TryRwLock { l, write, .. } => {
                    let k = if write {
                        Kind::TryWrLock
                    } else {
                        Kind::TryRdLock
                    };
                    Event::on(t, k, rwlock_addr(l))
                }
                Op::Assert { .. } => Event::new(t, Kind::AssertFail),
                Op::Crash => Event::new(t, Kind::Crash),
                Op::Wait { c, m } => Event {
                    arg: mutex_addr(m),
                    ..Event::on(
                        t,
                        if self.threads[t as usize].waiting {
                            Kind::CondWake
                        } else {
                            Kind::CondWait
                        },
                        cond_addr(c),
                    )
                },
                Op::Barrier { b, .. } if self.threads[t as usize].waiting => Event {
                    value: self.threads[t as usize].round,
                    aux: self.barrier_mode() | self.barrier_unused,
                    ..Event::on(t, Kind::BarrierPass, barrier_addr(b))
                },
                Op::Barrier { b, .. } => Event {
                    aux: self.barrier_mode(),
                    ..Event::on(t, Kind::BarrierWait, barrier_addr(b))
                },
                Op::Signal { c } => Event::on(t, Kind::CondSignal, cond_addr(c)),
                Op::Broadcast { c } => Event::on(t, Kind::CondBroadcast, cond_addr(c)),
                Op::AwaitEq { var, .. } if self.threads[t as usize].awaiting => {
                    let mut watch = awaits::Watch::default();
                    let r = ops::Range::new(var_addr(var), 8, ops::Mode::Read);
                    watch.add(&r.expect("a range"));
                    Event {
                        tid: t,
                        ..awaits::event(&watch, 0)
                    }
                }
                Op::AwaitEq { var, .. } => mem(var, 0, 8, Kind::Read),
                Op::Spawn(k) => create(self.prog.child_tid(k)),
                Op::JoinChild(k) => join(self.prog.child_tid(k)),
                Op::SkipIfEq { .. } | Op::JumpIfEq { .. } => unreachable!("settled"),
            },
        }
    }

    fn barrier_mode(&self) -> u32 {
        if self.ordered_barriers {
            ops::barrier::ORDERED
        } else {
            0
        }
    }

    /// Everything that decides what the program does from here, exactly: memory, the
    /// synchronization and thread words, each thread's position, registers and status,
    /// and whether its pending wake or await has been woken. (The rest of a pending event
    /// follows from these; which step woke it is history, not state.)
    fn state(&self) -> Vec<i64> {
        let mut key: Vec<i64> = self.memory.iter().map(|&b| i64::from(b)).collect();
        let mut words: Vec<_> = self.sync_words.iter().map(|(&a, &v)| (a, v)).collect();
        words.sort_unstable();
        key.push(words.len() as i64);
        key.extend(words.iter().flat_map(|&(a, v)| [a as i64, i64::from(v)]));
        let mut words: Vec<_> = self.thread_words.iter().map(|(&k, &v)| (k, v)).collect();
        words.sort_unstable();
        key.push(words.len() as i64);
        for ((t, a), v) in words {
            key.extend([i64::from(t), a as i64, i64::from(v)]);
        }
        for th in &self.threads {
            let status = th.status as i64;
            key.extend([th.pc as i64, status, th.joined as i64, th.created as i64]);
            key.extend([
                i64::from(th.waiting),
                th.round as i64,
                i64::from(th.awaiting),
            ]);
            key.push(if th.awaiting { th.spin_from as i64 } else { -1 });
            key.extend(&th.regs);
        }
        for (th, p) in self.threads.iter().zip(&self.pending) {
            let wakes = matches!(p.kind(), Kind::CondWake | Kind::Await);
            key.push(i64::from(
                th.status == Status::Ready && wakes && p.value != 0,
            ));
        }
        key
    }

    /// Each live thread's next event, and whether it can run.
    fn pending_events(&self) -> Vec<Pending> {
        let enabled = ops::enabled_threads(self, |_| true);
        (self.ready().iter())
            .map(|t| Pending {
                event: self.pending[t as usize],
                enabled: enabled.contains(t),
            })
            .collect()
    }

    /// The state's name: its number among the states `names` holds (added if new).
    fn name(&self, names: &mut HashMap<Vec<i64>, u128>) -> u128 {
        let next = names.len() as u128;
        *names.entry(self.state()).or_insert(next)
    }

    /// Each created thread's own state: its position, registers and status.
    fn locals(&self) -> Vec<(Tid, Vec<i64>)> {
        (self.threads.iter().enumerate())
            .filter(|(_, th)| th.status != Status::NotCreated)
            .map(|(t, th)| {
                let mut l = vec![th.pc as i64, th.status as i64, th.joined as i64];
                l.extend([th.created as i64, i64::from(th.waiting), th.round as i64]);
                l.extend(&th.regs);
                (t as Tid, l)
            })
            .collect()
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

    fn start(&mut self, t: Tid) {
        self.threads[t as usize].status = Status::Ready;
        self.settle(t);
    }

    /// Executes thread `t`'s pending operation `ev` at step `step`; returns the recorded
    /// event.
    fn execute(&mut self, t: Tid, mut ev: Event, step: u32) -> Event {
        let result = ops::execute(self, &mut ev, step);
        let ti = t as usize;
        match self.step_of(t) {
            Step::Create(c) => {
                self.threads[ti].created += 1;
                self.start(c as Tid);
            }
            Step::Join(_) => self.threads[ti].joined += 1,
            Step::Exit => self.threads[ti].status = Status::Finished,
            Step::Op(op) => {
                match *op {
                    Op::Read { var, off, len, reg } => {
                        let v = self.load(var, off, len);
                        self.threads[ti].regs[reg] = v;
                        ev.value = v as u64;
                        ev.flags |= FLAG_VALUE;
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
                        ev.flags |= FLAG_VALUE;
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
                        } else {
                            ev.flags |= FLAG_FAILED;
                        }
                    }
                    Op::TryLock { reg, .. }
                    | Op::SemTryWait { reg, .. }
                    | Op::TryRwLock { reg, .. } => self.threads[ti].regs[reg] = ev.failed() as i64,
                    Op::AwaitEq { var, value, reg } => {
                        let v = self.load(var, 0, 8);
                        self.threads[ti].regs[reg] = v;
                        ev.value = v as u64;
                        ev.flags |= FLAG_VALUE;
                        if v != value {
                            self.threads[ti].awaiting = true;
                            self.threads[ti].spin_from = step as usize;
                            self.settle(t);
                            return ev;
                        }
                    }
                    Op::Spawn(k) => self.start(self.prog.child_tid(k)),
                    Op::Wait { .. } if !self.threads[ti].waiting => {
                        // First half: stay at this operation, now waiting.
                        self.threads[ti].waiting = true;
                        self.settle(t);
                        return ev;
                    }
                    Op::Wait { .. } => self.threads[ti].waiting = false,
                    Op::Barrier { .. } if !self.threads[ti].waiting => {
                        if ops::barrier::passes(&ev) {
                            // Stay at this operation, now waiting to pass.
                            self.threads[ti].waiting = true;
                            self.threads[ti].round = ev.value;
                            self.settle(t);
                            return ev;
                        }
                        if let Some(reg) = reg_of(op) {
                            self.threads[ti].regs[reg] = 1;
                        }
                    }
                    Op::Barrier { .. } => {
                        self.threads[ti].waiting = false;
                        if let Some(reg) = reg_of(op) {
                            let serial = result == ops::barrier::SERIAL_THREAD;
                            self.threads[ti].regs[reg] = i64::from(serial);
                        }
                    }
                    Op::Assert { .. } | Op::Crash => return ev,
                    _ => {}
                }
                self.threads[ti].pc += 1;
            }
        }
        if self.threads[ti].status == Status::Ready {
            self.settle(t);
        }
        ev
    }
}

/// The register a barrier wait returns its result in, if any.
fn reg_of(op: &Op) -> Option<usize> {
    match *op {
        Op::Barrier { reg, .. } => reg,
        _ => None,
    }
}

/// The program before its first step, to run under `req`.
fn new_sim<'p>(
    prog: &'p Program,
    req: &'p Request,
    max_steps: usize,
    ordered_barriers: bool,
) -> Sim<'p> {
    let n = prog.threads();
    Sim {
        prog,
        memory: vec![0; 8 * prog.vars.max(1)],
        sync_words: (prog.sems.iter().enumerate())
            .map(|(s, &count)| (sem_addr(s), count))
            .chain(
                (prog.mutex_kinds.iter().enumerate())
                    .map(|(m, &k)| (mutex_addr(m) + ops::mutex::KIND_OFFSET, k)),
            )
            .chain(
                (prog.barriers.iter().enumerate())
                    .flat_map(|(b, &n)| ops::barrier::initialized(barrier_addr(b), n)),
            )
            .collect(),
        thread_words: HashMap::new(),
        threads: (0..n)
            .map(|_| Thread {
                pc: 0,
                regs: vec![0; REGS],
                status: Status::NotCreated,
                joined: 0,
                created: 0,
                waiting: false,
                round: 0,
                awaiting: false,
                spin_from: 0,
            })
            .collect(),
        pending: vec![Event::default(); n],
        sched: Scheduler::new(&req.schedule, &req.sleep, req.sleep_from, max_steps),
        ordered_barriers,
        barrier_unused: prog.barrier_results_unused(),
        barrier_overflow: false,
    }
}

/// Runs the program under `req`, as the runtime would; `ordered_barriers`: with every
/// order of arrival at barriers explored (`ops::barrier::ORDERED`).
pub fn run(prog: &Program, req: &Request, max_steps: usize, ordered_barriers: bool) -> Run {
    let mut sim = new_sim(prog, req, max_steps, ordered_barriers);
    let mut r = drive(&mut sim, &mut |_, _| false);
    r.barrier_overflow = sim.barrier_overflow;
    r
}

/// Runs the program under `req` for stateful exploration: after the request's schedule,
/// the execution stops at the first state for which `seen` holds, or that it passed
/// through already. Returns the run and its states (`stateful::Execution::states`),
/// each named exactly: its index in `names`, where every state is interned.
pub fn run_stateful(
    prog: &Program,
    req: &Request,
    max_steps: usize,
    names: &mut HashMap<Vec<i64>, u128>,
    seen: &dyn Fn(u128) -> bool,
) -> (Run, Vec<u128>) {
    let mut sim = new_sim(prog, req, max_steps, false);
    let mut states = Vec::new();
    let from = req.schedule.len();
    let r = drive(&mut sim, &mut |sim, last| {
        let s = sim.name(names);
        let stop = !last && states.len() >= from && (seen(s) || states.contains(&s));
        states.push(s);
        stop
    });
    (r, states)
}

/// One thread run alone from the state a schedule leads to (a prefix of Cartesian
/// partial order reduction): see `run_solo`.
pub struct Solo {
    /// The events of the thread alone (after the schedule's).
    pub events: Vec<Event>,
    /// The state where it started, and after each of its events.
    pub states: Vec<u128>,
    /// Each thread alive where it started, with its next event.
    pub start: Vec<Pending>,
    /// The program ended with its last event (a failed assertion: `outcome`).
    pub ended: bool,
    pub outcome: Option<Outcome>,
    /// Each thread's own state (position, registers, status), at each state of `states`.
    pub locals: Vec<Vec<(Tid, Vec<i64>)>>,
    /// The last event of the schedule followed.
    pub before: Option<Event>,
}

/// Follows `path`, then runs thread `tid` alone: until it cannot run, the program
/// ends, it comes back to a state of its own run, or after `cap` events. States are
/// named as by `run_stateful`.
pub fn run_solo(
    prog: &Program,
    path: &[cdpor_sched::Step],
    tid: Tid,
    cap: usize,
    names: &mut HashMap<Vec<i64>, u128>,
) -> Solo {
    let mut schedule = path.to_vec();
    schedule.extend(std::iter::repeat_n(
        cdpor_sched::Step { tid, choice: 0 },
        cap,
    ));
    let req = Request {
        schedule,
        ..Request::default()
    };
    let mut sim = new_sim(prog, &req, usize::MAX, false);
    let (mut states, mut locals, mut start) = (Vec::new(), Vec::new(), Vec::new());
    let mut step = 0;
    let from = path.len();
    let r = drive(&mut sim, &mut |sim, last| {
        let at = step;
        step += 1;
        if at < from {
            return false;
        }
        let s = sim.name(names);
        let enabled = ops::enabled_threads(sim, |_| true);
        if at == from {
            start = sim.pending_events();
        }
        let again = states.contains(&s);
        states.push(s);
        locals.push(sim.locals());
        !last && (again || !enabled.contains(tid) || at >= from + cap)
    });
    let ended = matches!(r.end, TraceEnd::Maximal { .. });
    Solo {
        events: r.events[from.min(r.events.len())..].to_vec(),
        states,
        start,
        ended,
        outcome: r.outcome,
        locals,
        before: from.checked_sub(1).and_then(|k| r.events.get(k).copied()),
    }
}

/// Runs the execution. `at(sim, last)` sees every state: before each choice of a thread
/// (`last` false: a true answer stops the execution there, as cut), and where the
/// program ended by an event (`last` true).
fn drive(sim: &mut Sim, at: &mut dyn FnMut(&Sim, bool) -> bool) -> Run {
    let prog = sim.prog;
    sim.start(0);
    let mut events = Vec::new();
    let mut enabled_sets = Vec::new();
    let mut cur = 0;
    loop {
        let stop = at(sim, false);
        let live = sim.ready();
        let enabled = ops::enabled_threads(&*sim, |_| true);
        let end = |events, enabled, pending, end, outcome| Run {
            events,
            enabled,
            pending,
            end,
            outcome,
            barrier_overflow: false,
        };
        if stop {
            let p = sim.pending_events();
            return end(events, enabled_sets, p, TraceEnd::Stopped, None);
        }
        let t = match sim.sched.pick(Some(cur), enabled, live) {
            Pick::Run(t) => t,
            Pick::Done => unreachable!("main exits before every thread is done"),
            Pick::Deadlock => {
                let stale = live.iter().any(|t| {
                    let th = &sim.threads[t as usize];
                    th.awaiting && awaits::stale(t, events[th.spin_from..].iter().copied())
                });
                let outcome = if stale {
                    Outcome::StaleSpin
                } else {
                    Outcome::Deadlock {
                        blocked: live.iter().collect(),
                    }
                };
                let p = sim.pending_events();
                let maximal = TraceEnd::Maximal { killed: false };
                return end(events, enabled_sets, p, maximal, Some(outcome));
            }
            Pick::SleepBlocked => {
                return end(events, enabled_sets, vec![], TraceEnd::SleepBlocked, None)
            }
            Pick::StepBound => {
                let p = sim.pending_events();
                return end(events, enabled_sets, p, TraceEnd::Stopped, None);
            }
            Pick::Diverged(t) => panic!(
                "schedule diverged at step {}: T{t} cannot run",
                events.len()
            ),
        };
        cur = t;
        let op_index = sim.threads[t as usize].pc;
        let ev = sim.execute(t, sim.pending[t as usize], events.len() as u32);
        sim.sched.executed(&ev);
        events.push(ev);
        enabled_sets.push(enabled);
        let killed = match ev.kind() {
            Kind::AssertFail => Some(Outcome::AssertFail {
                tid: t,
                op: op_index,
            }),
            Kind::Crash => Some(Outcome::Crash {
                tid: t,
                op: op_index,
            }),
            _ => None,
        };
        if let Some(outcome) = killed {
            // The failing thread is mid-operation: it has no next event.
            sim.threads[t as usize].status = Status::Finished;
            at(sim, true);
            let p = sim.pending_events();
            let maximal = TraceEnd::Maximal { killed: true };
            return end(events, enabled_sets, p, maximal, Some(outcome));
        }
        if ev.kind() == Kind::ProcessExit {
            at(sim, true);
            let memory = (0..prog.vars).map(|v| sim.load(v, 0, 8)).collect();
            let regs = sim.threads.iter().map(|th| th.regs.clone()).collect();
            let p = sim.pending_events();
            let maximal = TraceEnd::Maximal { killed: false };
            return end(
                events,
                enabled_sets,
                p,
                maximal,
                Some(Outcome::Exit { memory, regs }),
            );
        }
    }
}

/// A canonical name for an execution's Mazurkiewicz trace: each event as (thread, its
/// index in the thread, the alternative it took), and the order of every dependent pair
/// of events of different threads. Two executions are equivalent exactly when these agree.
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
    let mut ops: Vec<(u32, u32, u8, u64, u32, u32)> = events
        .iter()
        .zip(&ids)
        .map(|(e, id)| (id.0, id.1, e.kind, e.addr, e.len, e.choice))
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
pub type Class = (
    Vec<(u32, u32, u8, u64, u32, u32)>,
    Vec<(u32, u32, u32, u32)>,
);

/// What exploring a program with one algorithm found.
#[derive(Debug, Default)]
pub struct Explored {
    pub stats: super::Stats,
    /// Traces of the executions that the program ended by itself. Executions ended early by
    /// a failed assertion or a crash are not compared by trace: the engine does not
    /// enumerate how far other threads got before the end, since that cannot change what
    /// is found.
    pub classes: BTreeSet<Class>,
    pub outcomes: BTreeSet<Outcome>,
    /// Executions ended by a failed assertion or a crash.
    pub killed: u64,
    /// Complete executions that repeated a trace already seen.
    pub redundant: u64,
    /// Explored with ordered arrivals at barriers, after an overflow.
    pub ordered_barriers: bool,
}

/// Explores `prog` exhaustively with `alg`; `None` if it takes more than `limit` executions.
pub fn explore(prog: &Program, alg: super::Algorithm, limit: u64) -> Option<Explored> {
    explore_within(prog, alg, limit, 10_000)
}

/// `explore`, with executions cut after `max_steps` events. Like cdpor, it explores
/// again with ordered arrivals at barriers once an execution finds that more threads use
/// a barrier than it waits for.
pub fn explore_within(
    prog: &Program,
    alg: super::Algorithm,
    limit: u64,
    max_steps: usize,
) -> Option<Explored> {
    explore_in_mode(prog, alg, limit, max_steps, false).unwrap_or_else(|| {
        explore_in_mode(prog, alg, limit, max_steps, true)
            .expect("ordered arrivals fit every program")
    })
}

/// `explore`, with every order of arrival at barriers: the model that the commuting
/// arrivals are checked against.
pub fn explore_ordered(prog: &Program, alg: super::Algorithm, limit: u64) -> Option<Explored> {
    explore_in_mode(prog, alg, limit, 10_000, true).expect("ordered arrivals fit every program")
}

/// `None` inside: more executions than `limit`; outer `None`: the mode does not fit
/// the program (a barrier overflowed).
fn explore_in_mode(
    prog: &Program,
    alg: super::Algorithm,
    limit: u64,
    max_steps: usize,
    ordered_barriers: bool,
) -> Option<Option<Explored>> {
    let mut engine = super::Engine::new(alg);
    let mut out = Explored {
        ordered_barriers,
        ..Explored::default()
    };
    let mut seen_killed = BTreeSet::new();
    let mut runs = 0;
    while let Some(req) = engine.next_request() {
        runs += 1;
        if runs > limit {
            return Some(None);
        }
        let r = run(prog, &req.clone(), max_steps, ordered_barriers);
        if r.barrier_overflow && !ordered_barriers {
            return None;
        }
        engine
            .record(&r.trace())
            .expect("simulated programs are deterministic");
        if let Some(o) = r.outcome {
            let class = trace_class(&r.events);
            if o.killed() {
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
    Some(Some(out))
}
