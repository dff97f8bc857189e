//! Cartesian partial order reduction checked against the whole state graph: every local
//! state of every thread (its position, registers and status) that some interleaving
//! reaches must be reached (the paper's Theorem 1), and so every failed assertion.

use std::collections::{BTreeSet, HashMap};

use cdpor_sched::Tid;

use super::cartesian::{Cartesian, SoloRun, Stats, SOLO_STEPS};
use super::sim::{self, Op, Outcome, Program};
use super::stateful_tests::{env_or, every_state, one_signal_for_two_waiters, random_program};

type Local = (Tid, Vec<i64>);

#[derive(Debug, Default, PartialEq, Eq)]
struct Reached {
    locals: BTreeSet<Local>,
    failed: BTreeSet<Outcome>,
}

/// What the search checks: the local states of the states of its prefixes (a solo run
/// goes further than its prefix, but what it finds there does not count).
fn explore(prog: &Program, names: &mut HashMap<Vec<i64>, u128>) -> (Reached, Stats) {
    let mut engine = Cartesian::new();
    let mut seen: HashMap<u128, (Vec<Local>, Option<Outcome>)> = HashMap::new();
    while let Some(req) = engine.next_request() {
        let solo = sim::run_solo(prog, &req.path, req.tid, SOLO_STEPS, names);
        for (k, (s, l)) in solo.states.iter().zip(&solo.locals).enumerate() {
            let last = k + 1 == solo.states.len();
            let failed = (solo.outcome.clone()).filter(|o| last && o.killed());
            seen.entry(*s).or_insert((l.clone(), failed));
        }
        let run = SoloRun {
            events: &solo.events,
            states: &solo.states,
            start: &solo.start,
            ended: solo.ended,
        };
        engine.record(&req, &run);
    }
    let mut out = Reached::default();
    for (s, (locals, failed)) in seen {
        if engine.in_prefix(s) {
            out.locals.extend(locals);
            out.failed.extend(failed);
        }
    }
    (out, engine.stats())
}

/// Every local state and failed assertion, by a breadth-first search of the state graph.
fn oracle(prog: &Program, names: &mut HashMap<Vec<i64>, u128>) -> (Reached, usize) {
    let mut out = Reached::default();
    let size = every_state(prog, names, |at| {
        out.locals.extend(at.locals[0].iter().cloned());
        out.failed
            .extend(at.outcome.clone().filter(Outcome::killed));
    });
    (out, size)
}

fn check(prog: &Program) {
    let mut names = HashMap::new();
    let (want, _) = oracle(prog, &mut names);
    let (got, _) = explore(prog, &mut names);
    assert_eq!(got, want, "{prog:#?}");
}

#[test]
fn independent_runs_make_no_context_switch() {
    // Two threads counting on their own variables: one cartesian vector from the state
    // after the creations takes each to its end.
    let own = |v: usize| vec![Op::write(v, 1), Op::write(v, 2), Op::write(v, 3)];
    let prog = Program {
        workers: vec![own(0), own(1)],
        vars: 2,
        ..Default::default()
    };
    let mut names = HashMap::new();
    let (want, reachable) = oracle(&prog, &mut names);
    let (got, stats) = explore(&prog, &mut names);
    assert_eq!(got, want);
    // The start, after each creation, after each thread's run in either order, after
    // the joins: 9 of the 38.
    assert_eq!((stats.states, reachable), (9, 38), "{stats:?}");
}

#[test]
fn a_conflict_is_explored_both_ways() {
    // T1: x = 1; T2: r = x; assert(r == 0).
    let prog = Program {
        workers: vec![
            vec![Op::write(0, 1)],
            vec![Op::read(0, 0), Op::Assert { reg: 0, value: 0 }],
        ],
        vars: 1,
        ..Default::default()
    };
    check(&prog);
}

#[test]
fn main_works_between_creating_a_thread_and_joining_it() {
    // Found by review: main reads y after creating T1, which writes it. The creation
    // ended no prefix, so main's read never came after T1's write.
    let prog = Program {
        main: vec![Op::read(0, 0)],
        workers: vec![vec![Op::write(0, 1)]],
        vars: 1,
        ..Default::default()
    };
    check(&prog);
}

#[test]
fn a_thread_created_inside_a_prefix_takes_part() {
    // T1 spawns C, then reads z; C sets y; T2 sets z if it reads y set. T1 reads z set
    // only after the spawn, C's write, T2's read and write.
    let prog = Program {
        workers: vec![
            vec![Op::Spawn(0), Op::read(1, 0)],
            vec![
                Op::read(0, 0),
                Op::SkipIfEq {
                    reg: 0,
                    value: 0,
                    skip: 1,
                },
                Op::write(1, 1),
            ],
        ],
        children: vec![vec![Op::write(0, 1)]],
        vars: 2,
        ..Default::default()
    };
    check(&prog);
}

#[test]
fn a_thread_waiting_for_a_lock_ends_the_holders_prefix() {
    let section = vec![
        Op::Lock(0),
        Op::read(0, 0),
        Op::write_plus(0, 0, 1),
        Op::Unlock(0),
    ];
    let prog = Program {
        workers: vec![section.clone(), section],
        vars: 1,
        ..Default::default()
    };
    check(&prog);
}

/// `CDPOR_CARTESIAN_PROGRAMS` random cyclic programs (default 300) from seed
/// `CDPOR_CARTESIAN_SEED` (default 1), of the stateful tests' shape.
#[test]
fn random_cyclic_programs_reach_every_local_state() {
    let seed = env_or("CDPOR_CARTESIAN_SEED", 1);
    let programs = env_or("CDPOR_CARTESIAN_PROGRAMS", 300);
    let (mut states, mut graph) = (0, 0);
    for k in 0..programs {
        let prog = random_program(seed * 1_000_003 + k, 2, 3);
        let mut names = HashMap::new();
        let (want, size) = oracle(&prog, &mut names);
        let (got, stats) = explore(&prog, &mut names);
        if got != want {
            let missed: Vec<_> = want.locals.difference(&got.locals).collect();
            let failed: Vec<_> = want.failed.difference(&got.failed).collect();
            panic!("program {k} (seed {seed}): {prog:#?} missed {missed:?} {failed:?}");
        }
        states += stats.states;
        graph += size;
    }
    eprintln!("{programs} programs: {states} states explored of {graph} reachable");
}

#[test]
fn every_waiter_a_signal_can_wake_is_reached() {
    check(&one_signal_for_two_waiters());
}
