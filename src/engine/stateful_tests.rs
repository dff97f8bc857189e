//! Stateful exploration checked against the whole state graph: programs with loops
//! (`Op::JumpIfEq` backwards), run by the simulator with every state named exactly, and
//! a breadth-first search of every state reachable under every schedule as the oracle.
//! A stateful exploration must reach every final state (an exit with its memory and
//! registers, a deadlock, a failed assertion) that the search reaches.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::time::{Duration, Instant};

use cdpor_sched::Step;

use super::sim::{self, Op, Program};
use super::stateful::{Execution, Stateful, Stats};
use super::TraceEnd;

const MAX_STEPS: usize = 2_000;

/// A final state as the oracle compares it: by its name, or, where a failed assertion or
/// a crash ended the program, by which one (how far the other threads got before it is
/// not enumerated, as in stateless exploration: it changes nothing that is reported).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Final {
    State(u128),
    Killed(sim::Outcome),
}

fn final_of(state: u128, outcome: &Option<sim::Outcome>) -> Final {
    match outcome {
        Some(o) if o.killed() => Final::Killed(o.clone()),
        _ => Final::State(state),
    }
}

struct Found {
    finals: BTreeSet<Final>,
    stats: Stats,
}

/// Explores `prog` statefully; `None` past `limit` executions.
fn explore(prog: &Program, names: &mut HashMap<Vec<i64>, u128>, limit: u64) -> Option<Found> {
    let mut engine = Stateful::new();
    let mut finals = BTreeSet::new();
    while let Some(req) = engine.next_request() {
        if engine.stats().executions >= limit {
            return None;
        }
        let (run, states) = sim::run_stateful(prog, &req, MAX_STEPS, names, &|s| engine.seen(s));
        let last = *states.last().expect("a state");
        if matches!(run.end, TraceEnd::Maximal { .. }) && !engine.seen(last) {
            finals.insert(final_of(last, &run.outcome));
        }
        let x = Execution {
            trace: run.trace(),
            states: &states,
        };
        engine
            .record(&x)
            .expect("simulated programs are deterministic");
    }
    let stats = engine.stats();
    assert_eq!(
        stats.bounded, 0,
        "no execution should reach {MAX_STEPS} steps"
    );
    Some(Found { finals, stats })
}

/// Visits every state reachable under every schedule, and every alternative of a step
/// that has several, breadth first: `visit` sees each once, as a run that ends there
/// (`sim::run_solo` of no event). Returns how many there are.
pub(super) fn every_state(
    prog: &Program,
    names: &mut HashMap<Vec<i64>, u128>,
    mut visit: impl FnMut(&sim::Solo),
) -> usize {
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([Vec::<Step>::new()]);
    while let Some(path) = queue.pop_front() {
        let at = sim::run_solo(prog, &path, 0, 0, names);
        if let (Some(e), Some(step)) = (at.before, path.last()) {
            if step.choice == 0 {
                for choice in 1..e.choices {
                    let mut other = path.clone();
                    other.last_mut().expect("a step").choice = choice;
                    queue.push_back(other);
                }
            }
        }
        if !seen.insert(at.states[0]) {
            continue;
        }
        visit(&at);
        if at.ended {
            continue;
        }
        for p in at.start.iter().filter(|p| p.enabled) {
            let mut next = path.clone();
            next.push(Step {
                tid: p.event.tid(),
                choice: 0,
            });
            queue.push_back(next);
        }
    }
    seen.len()
}

/// Every final state reachable (where the program ended, or no thread can go on).
fn oracle(prog: &Program, names: &mut HashMap<Vec<i64>, u128>) -> (BTreeSet<Final>, usize) {
    let mut finals = BTreeSet::new();
    let size = every_state(prog, names, |at| {
        if at.ended || !at.start.iter().any(|p| p.enabled) {
            finals.insert(final_of(at.states[0], &at.outcome));
        }
    });
    (finals, size)
}

/// `key` from the environment, or `default`.
pub(super) fn env_or(key: &str, default: u64) -> u64 {
    (std::env::var(key).ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn check(prog: &Program) -> Found {
    let mut names = HashMap::new();
    let (want, _) = oracle(prog, &mut names);
    let found = explore(prog, &mut names, 1_000_000).expect("within the limit");
    assert_eq!(found.finals, want, "final states of {prog:#?}");
    found
}

/// `L: reg = var; if reg == value goto L`.
fn spin_while(var: usize, value: i64, at: usize) -> Vec<Op> {
    vec![
        Op::read(var, 0),
        Op::JumpIfEq {
            reg: 0,
            value,
            to: at,
        },
    ]
}

#[test]
fn a_thread_that_loops_for_ever_does_not_hide_a_failing_one() {
    // T1 spins on a flag no thread sets; T2, which shares nothing with it, fails. Only the
    // cycle proviso explores T2: the spin comes back to the state it left, where nothing
    // T1 did conflicts with T2's next event.
    let prog = Program {
        workers: vec![
            spin_while(0, 0, 0),
            vec![Op::read(1, 0), Op::Assert { reg: 0, value: 1 }],
        ],
        vars: 2,
        ..Default::default()
    };
    let found = check(&prog);
    assert!(found.stats.matched > 0, "the spin comes back to a state");
    let failed = sim::Outcome::AssertFail { tid: 2, op: 1 };
    assert!(found.finals.contains(&Final::Killed(failed)));
}

#[test]
fn a_summary_that_grows_after_its_match_is_compared_again() {
    // Found by the random programs: without comparing matches again once the state graph
    // below them has grown, T1's failing assertion (it needs T2's CAS, then T3 past its
    // own assertion to write y) was missed.
    let read = Op::read;
    let prog = Program {
        workers: vec![
            vec![
                read(1, 0),
                Op::Assert { reg: 0, value: 0 },
                read(0, 1),
                Op::JumpIfEq {
                    reg: 1,
                    value: 2,
                    to: 0,
                },
                read(0, 0),
                read(0, 1),
                Op::JumpIfEq {
                    reg: 1,
                    value: 1,
                    to: 4,
                },
            ],
            vec![Op::Cas {
                var: 0,
                expected: 0,
                new: 1,
                reg: 1,
            }],
            vec![
                read(0, 1),
                Op::Assert { reg: 1, value: 1 },
                read(0, 1),
                Op::JumpIfEq {
                    reg: 1,
                    value: 0,
                    to: 0,
                },
                Op::write(1, 2),
                read(1, 0),
            ],
        ],
        vars: 2,
        ..Default::default()
    };
    let found = check(&prog);
    let failed = sim::Outcome::AssertFail { tid: 1, op: 1 };
    assert!(found.finals.contains(&Final::Killed(failed)));
}

#[test]
fn message_passing_with_a_spin_needs_no_await() {
    // T1: data = 1; flag = 1. T2: while (!flag); assert(data == 1).
    let mut t2 = spin_while(1, 0, 0);
    t2.extend([Op::read(0, 1), Op::Assert { reg: 1, value: 1 }]);
    let prog = Program {
        workers: vec![vec![Op::write(0, 1), Op::write(1, 1)], t2],
        vars: 2,
        ..Default::default()
    };
    let found = check(&prog);
    assert_eq!(found.finals.len(), 1, "one final state, safe");
}

#[test]
fn a_spinlock_made_of_a_cas_retry_loop_excludes() {
    // Each thread: while (!cas(lock, 0, 1)) {} c = c + 1; lock = 0. Then main checks c.
    let inc = vec![
        Op::Cas {
            var: 0,
            expected: 0,
            new: 1,
            reg: 0,
        },
        Op::JumpIfEq {
            reg: 0,
            value: 1,
            to: 0,
        },
        Op::read(1, 1),
        Op::write_plus(1, 1, 1),
        Op::write(0, 0),
    ];
    let prog = Program {
        main: vec![],
        workers: vec![inc.clone(), inc],
        vars: 2,
        ..Default::default()
    };
    check(&prog);
}

#[test]
fn two_loops_and_lock_order_inversion() {
    // T1 takes a then b, round and round while x is 0; T2 takes b then a once and sets x.
    let t1 = vec![
        Op::Lock(0),
        Op::Lock(1),
        Op::read(0, 0),
        Op::Unlock(1),
        Op::Unlock(0),
        Op::JumpIfEq {
            reg: 0,
            value: 0,
            to: 0,
        },
    ];
    let t2 = vec![
        Op::Lock(1),
        Op::Lock(0),
        Op::write(0, 1),
        Op::Unlock(0),
        Op::Unlock(1),
    ];
    let prog = Program {
        workers: vec![t1, t2],
        vars: 1,
        ..Default::default()
    };
    let found = check(&prog);
    assert!(found.finals.len() >= 2, "an exit and a deadlock");
}

/// A small xorshift generator: the random tests name their seeds.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A random thread of blocks: stores, loads, compare-and-swaps, critical sections,
/// assertions, condition waits and signals, and loops back to a block's first operation while a register holds a
/// value.
fn random_thread(rng: &mut Rng, vars: usize, locks: usize, blocks: u64) -> Vec<Op> {
    let mut ops = Vec::new();
    let blocks = 1 + rng.below(blocks);
    for _ in 0..blocks {
        let start = ops.len();
        let v = rng.below(vars as u64) as usize;
        let c = rng.below(2) as i64;
        let r = rng.below(2) as usize;
        match rng.below(7) {
            0 => ops.push(Op::write(v, 1 + c)),
            1 => ops.push(Op::read(v, r)),
            2 => ops.push(Op::Cas {
                var: v,
                expected: c,
                new: 1 - c,
                reg: r,
            }),
            3 if locks > 0 => {
                let m = rng.below(locks as u64) as usize;
                ops.push(Op::Lock(m));
                if locks > 1 && rng.below(2) == 0 {
                    let m2 = 1 - m;
                    ops.extend([Op::Lock(m2), Op::read(v, r), Op::Unlock(m2)]);
                } else {
                    ops.push(Op::write(v, c));
                }
                ops.push(Op::Unlock(m));
            }
            4 => ops.extend([Op::read(v, r), Op::Assert { reg: r, value: c }]),
            5 if locks > 0 => {
                // A wait on condition 0 under mutex 0, or a signal or broadcast of it.
                let middle = match rng.below(3) {
                    0 => Op::Wait { c: 0, m: 0 },
                    1 => Op::Signal { c: 0 },
                    _ => Op::Broadcast { c: 0 },
                };
                ops.extend([Op::Lock(0), middle, Op::Unlock(0)]);
            }
            _ => ops.push(Op::read(v, r)),
        }
        if rng.below(3) == 0 {
            // Round again while the block's register (or a fresh read) says so.
            let w = rng.below(vars as u64) as usize;
            ops.push(Op::read(w, 1));
            ops.push(Op::JumpIfEq {
                reg: 1,
                value: rng.below(3) as i64,
                to: start,
            });
        }
    }
    ops
}

/// A random program of 2 to `1 + threads` workers of up to `blocks` blocks each; main
/// sometimes has a block of its own between creating the workers and joining them, and
/// the first worker sometimes creates a child of its own and joins it.
pub(super) fn random_program(seed: u64, threads: u64, blocks: u64) -> Program {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let vars = 1 + rng.below(2) as usize;
    let locks = rng.below(3) as usize;
    let workers = 2 + rng.below(threads) as usize;
    let mut workers: Vec<Vec<Op>> = (0..workers)
        .map(|_| random_thread(&mut rng, vars, locks, blocks))
        .collect();
    let main = if rng.below(3) == 0 {
        random_thread(&mut rng, vars, locks, 1)
    } else {
        Vec::new()
    };
    let mut children = Vec::new();
    if rng.below(4) == 0 {
        children.push(random_thread(&mut rng, vars, locks, 1));
        // Loops jump to positions in the thread: shift them past the spawn.
        let mut w: Vec<Op> = workers[0].drain(..).map(shifted).collect();
        w.insert(0, Op::Spawn(0));
        w.push(Op::JoinChild(0));
        workers[0] = w;
    }
    Program {
        main,
        workers,
        children,
        vars,
        early_return: rng.below(4) == 0,
        ..Default::default()
    }
}

/// `op` one position further down its thread.
fn shifted(op: Op) -> Op {
    match op {
        Op::JumpIfEq { reg, value, to } => Op::JumpIfEq {
            reg,
            value,
            to: to + 1,
        },
        op => op,
    }
}

/// Random cyclic programs: `CDPOR_STATEFUL_PROGRAMS` of them (default 300) from seed
/// `CDPOR_STATEFUL_SEED` (default 1), with up to `1 + CDPOR_STATEFUL_THREADS` workers
/// (default 2) of up to `CDPOR_STATEFUL_BLOCKS` blocks (default 3).
#[test]
fn random_cyclic_programs_reach_every_final_state() {
    let seed = env_or("CDPOR_STATEFUL_SEED", 1);
    let programs = env_or("CDPOR_STATEFUL_PROGRAMS", 300);
    let (threads, blocks) = (
        env_or("CDPOR_STATEFUL_THREADS", 2),
        env_or("CDPOR_STATEFUL_BLOCKS", 3),
    );
    let (mut states, mut graph) = (0, 0);
    let (mut oracle_time, mut explore_time) = (Duration::ZERO, Duration::ZERO);
    for k in 0..programs {
        let prog = random_program(seed * 1_000_003 + k, threads, blocks);
        let mut names = HashMap::new();
        let t = Instant::now();
        let (want, size) = oracle(&prog, &mut names);
        oracle_time += t.elapsed();
        let t = Instant::now();
        let found = explore(&prog, &mut names, 1_000_000).expect("within the limit");
        explore_time += t.elapsed();
        if found.finals != want {
            let missed: Vec<_> = want.difference(&found.finals).collect();
            panic!("program {k} (seed {seed}): {prog:#?} missed {missed:?}");
        }
        states += found.stats.states;
        graph += size;
    }
    eprintln!(
        "{programs} programs: {states} states stored of {graph} reachable; \
         {oracle_time:?} in the oracle, {explore_time:?} exploring"
    );
}

#[test]
fn independent_threads_are_explored_in_one_order() {
    // Four threads, each writing its own variable three times: 4^4 interleaved positions,
    // one of which matters.
    let own = |v: usize| vec![Op::write(v, 1), Op::write(v, 2), Op::write(v, 3)];
    let prog = Program {
        workers: (0..4).map(own).collect(),
        vars: 4,
        ..Default::default()
    };
    let mut names = HashMap::new();
    let (want, reachable) = oracle(&prog, &mut names);
    let found = explore(&prog, &mut names, 1_000_000).expect("within the limit");
    assert_eq!(found.finals, want);
    assert_eq!(
        found.stats.executions, 1,
        "{:?} of {reachable} states",
        found.stats
    );
}

/// Two threads count themselves in under a mutex and wait on a condition, then set
/// their own variable; a third waits (spinning) until both are in and signals once. Only
/// the signal's second alternative wakes the second waiter.
pub(super) fn one_signal_for_two_waiters() -> Program {
    let waiter = |v: usize| {
        vec![
            Op::Lock(0),
            Op::read(2, 0),
            Op::write_plus(2, 0, 1),
            Op::Wait { c: 0, m: 0 },
            Op::write(v, 1),
            Op::Unlock(0),
        ]
    };
    let signaler = vec![
        Op::Lock(0),
        Op::read(2, 0),
        Op::Unlock(0),
        Op::JumpIfEq {
            reg: 0,
            value: 0,
            to: 0,
        },
        Op::JumpIfEq {
            reg: 0,
            value: 1,
            to: 0,
        },
        Op::Lock(0),
        Op::Signal { c: 0 },
        Op::Unlock(0),
    ];
    Program {
        workers: vec![waiter(0), waiter(1), signaler],
        vars: 3,
        early_return: true,
        ..Default::default()
    }
}

#[test]
fn every_waiter_a_signal_can_wake_is_explored() {
    check(&one_signal_for_two_waiters());
}
