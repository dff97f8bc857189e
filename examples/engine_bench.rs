//! The engine's own cost per execution on programs shaped like the classic benchmarks.
//! The simulator runs the exploration once and its traces are kept; the engine is then
//! timed alone, fed those traces again (it asks for the same executions: it is
//! deterministic). Times are CPU times, the best of three rounds, so that other work on
//! the machine does not count. The fingerprint of every request made shows that two
//! versions of the engine explored the same way; `execs` are complete executions of the
//! exploration, cut after `CAP` runs.
//!
//! `cargo run --release --example engine_bench [FILTER [ALGORITHM]]`

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::time::Duration;

use cdpor::engine::sim::{self, Op, Program};
use cdpor::engine::{Algorithm, Engine, Request};

/// Explorations stop after this many executions (`none`, and `classic` on readers, would
/// take hours), or this many events in all: the time per execution is what is compared.
const CAP: usize = 20_000;
const MAX_EVENTS: usize = 1_000_000;

/// A writer of variable 0 and `n` readers of it (`shared`), or of variables 1..=n, each
/// reader reading the writer's variable and then its own (`distinct`).
fn readers(n: usize, shared: bool) -> Program {
    let mut workers = vec![vec![Op::write(0, 1)]];
    if shared {
        workers.extend((0..n).map(|_| vec![Op::read(0, 0)]));
    } else {
        workers[0].extend((1..=n).map(|v| Op::write(v, 1)));
        workers.extend((1..=n).map(|v| vec![Op::read(v, 0)]));
    }
    Program {
        workers,
        vars: n + 1,
        ..Default::default()
    }
}

fn increments(threads: usize, k: usize) -> Program {
    let body = (0..k)
        .flat_map(|_| [Op::read(0, 0), Op::write_plus(0, 0, 1)])
        .collect();
    Program {
        workers: vec![body; threads],
        vars: 1,
        ..Default::default()
    }
}

fn mutex_counter(threads: usize) -> Program {
    let body = vec![
        Op::Lock(0),
        Op::read(0, 0),
        Op::write_plus(0, 0, 1),
        Op::Unlock(0),
    ];
    Program {
        workers: vec![body; threads],
        vars: 1,
        ..Default::default()
    }
}

/// One worker does `prefix` private writes (and reads) of its own, then creates the
/// `children` threads: every race lies in the short suffix after a long prefix.
fn long_prefix(prefix: usize, children: Vec<Vec<Op>>) -> Program {
    let private = 1;
    let mut w: Vec<Op> = (0..prefix)
        .map(|k| {
            if k % 3 == 2 {
                Op::read(private + k % 7, 1)
            } else {
                Op::write(private + k % 7, k as i64)
            }
        })
        .collect();
    w.extend((0..children.len()).map(Op::Spawn));
    w.extend((0..children.len()).map(Op::JoinChild));
    Program {
        workers: vec![w],
        children,
        vars: private + 7,
        ..Default::default()
    }
}

struct Row {
    executions: u64,
    blocked: u64,
    bounded: u64,
    runs: usize,
    events: usize,
    /// Events from the point where each execution left the previous one.
    new_events: usize,
    /// Per execution.
    engine: Duration,
    sim: Duration,
    fingerprint: u64,
}

fn hash_request(h: &mut DefaultHasher, r: &Request) {
    r.schedule.hash(h);
    r.sleep.hash(h);
    r.sleep_from.hash(h);
}

/// CPU time of the process: what other work on the machine does not add to.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Explores `prog` with the simulator, keeping every execution's trace (up to `CAP`
/// executions or `MAX_EVENTS` events in all).
fn simulate(prog: &Program, alg: Algorithm, max_steps: usize) -> (Vec<sim::Run>, Duration, usize) {
    let mut engine = Engine::new(alg);
    let mut runs = Vec::new();
    let (mut sim_t, mut events, mut new_events) = (Duration::ZERO, 0, 0);
    while let Some(req) = engine.next_request() {
        if runs.len() >= CAP || events >= MAX_EVENTS {
            break;
        }
        let t = cpu_time();
        let run = sim::run(prog, req, max_steps, false);
        sim_t += cpu_time() - t;
        events += run.events.len();
        new_events += run.events.len().saturating_sub(req.sleep_from);
        engine
            .record(&run.trace())
            .expect("simulated programs are deterministic");
        runs.push(run);
    }
    (runs, sim_t, new_events)
}

/// Feeds the engine the recorded executions: its time alone.
fn replay(alg: Algorithm, runs: &[sim::Run]) -> Duration {
    let mut engine = Engine::new(alg);
    let t = cpu_time();
    for run in runs {
        engine.next_request().expect("as when simulated");
        engine
            .record(&run.trace())
            .expect("simulated programs are deterministic");
    }
    cpu_time() - t
}

/// The fingerprint of the requests the engine makes when fed the recorded executions.
fn fingerprint(alg: Algorithm, runs: &[sim::Run]) -> (Engine, u64) {
    let mut engine = Engine::new(alg);
    let mut h = DefaultHasher::new();
    for run in runs {
        hash_request(&mut h, engine.next_request().expect("as when simulated"));
        engine
            .record(&run.trace())
            .expect("simulated programs are deterministic");
    }
    (engine, h.finish())
}

fn measure(prog: &Program, alg: Algorithm, max_steps: usize) -> Row {
    let (runs, sim_t, new_events) = simulate(prog, alg, max_steps);
    let (engine, fingerprint) = fingerprint(alg, &runs);
    // Replayed at least 20000 executions' worth, the best of three rounds.
    let reps = 20_000usize.div_ceil(runs.len().max(1)).clamp(1, 1000);
    let best = (0..3)
        .map(|_| (0..reps).map(|_| replay(alg, &runs)).sum::<Duration>())
        .min()
        .expect("three rounds");
    let n = runs.len().max(1) as u32;
    let s = engine.stats();
    Row {
        executions: s.executions,
        blocked: s.blocked,
        bounded: s.bounded,
        runs: runs.len(),
        events: runs.iter().map(|r| r.events.len()).sum(),
        new_events,
        engine: best / (n * reps as u32),
        sim: sim_t / n,
        fingerprint,
    }
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let alg_filter = std::env::args().nth(2);
    let increment = vec![Op::read(0, 0), Op::write_plus(0, 0, 1)];
    let mut readers6 = vec![vec![Op::write(0, 1)]];
    readers6.extend((0..6).map(|_| vec![Op::read(0, 0)]));
    let benches: Vec<(String, Program, usize)> = vec![
        ("readers-shared-12".into(), readers(12, true), 10_000),
        ("readers-shared-14".into(), readers(14, true), 10_000),
        ("readers-distinct-13".into(), readers(13, false), 10_000),
        ("lastzero-10".into(), Program::lastzero(10), 10_000),
        ("lastzero-12".into(), Program::lastzero(12), 10_000),
        ("increments-3x2".into(), increments(3, 2), 10_000),
        ("increments-4x1".into(), increments(4, 1), 10_000),
        ("mutex-counter-6".into(), mutex_counter(6), 10_000),
        (
            "long-300+incr-3".into(),
            long_prefix(300, vec![increment.clone(); 3]),
            10_000,
        ),
        (
            "long-600+readers-6".into(),
            long_prefix(600, readers6),
            10_000,
        ),
        // Cut by the step bound within the racing suffix: bounded executions.
        (
            "long-300+incr-3-cut".into(),
            long_prefix(300, vec![increment; 3]),
            308,
        ),
    ];
    println!(
        "{:<22} {:<8} {:>7} {:>6} {:>6} {:>7} {:>7} {:>10} {:>9} {:>18}",
        "benchmark",
        "alg",
        "execs",
        "blockd",
        "bound",
        "ev/run",
        "new/run",
        "engine µs",
        "sim µs",
        "fingerprint"
    );
    for (name, prog, max_steps) in &benches {
        if !name.contains(&filter) {
            continue;
        }
        for alg in Algorithm::ALL {
            if alg_filter.as_deref().is_some_and(|a| a != alg.name()) {
                continue;
            }
            let r = measure(prog, alg, *max_steps);
            let per = |d: Duration| d.as_secs_f64() * 1e6;
            println!(
                "{:<22} {:<8} {:>7} {:>6} {:>6} {:>7.1} {:>7.1} {:>10.2} {:>9.2} {:>18x}",
                name,
                alg.name(),
                r.executions,
                r.blocked,
                r.bounded,
                r.events as f64 / r.runs.max(1) as f64,
                r.new_events as f64 / r.runs.max(1) as f64,
                per(r.engine),
                per(r.sim),
                r.fingerprint
            );
        }
    }
}
