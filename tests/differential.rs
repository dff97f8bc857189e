//! The C-level differential test: seeded random pthread C programs (reads, writes, byte
//! stores, memcpy, string functions on shared buffers, cmpxchg, fetch_add, exchange,
//! compare-and-swap retry loops, nondeterministic values, lock and trylock, condition
//! waits, signals and broadcasts, barriers whose serial thread writes a variable or whose
//! result is ignored, waiting for as many threads as use them or one fewer, nested create
//! and join, a crash and errno on some paths, a `main` that returns without joining),
//! whose final state is folded into
//! assertions (one per bucket of a hash of the shared variables, so each reachable final
//! state fails its own), made in `main` after its joins or in an exit handler. The oracle
//! is `none` exploring every failed try of a retry loop too and every order of arrival
//! at a barrier (`--ordered-barriers`); `optimal`, `source` and
//! `classic`, which do not, must reach exactly its errors (kind, location and message),
//! and `optimal` must run no sleep-set-blocked execution.
//!
//! CI runs a few hundred with fixed seeds; `scripts/difftest` runs any number with any
//! seed (`CDPOR_DIFF_SEED`, `CDPOR_DIFF_CASES`). A program that fails is written, with a
//! c-test header that records `none`'s verdict, to `target/difftest/`: keep it under
//! `c-tests/differential/`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use cdpor::engine::Algorithm;
use cdpor::executor::Reset;
use cdpor::explore::{self, Options, Summary};
use cdpor::program::{self, BuildOptions, Program};
use cdpor::report::Namer;
use cdpor::symbols::Symbols;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed, TestRunner};

/// Interleavings beyond which `none` is not tried (the program is skipped).
const NONE_BUDGET: u64 = 4000;

#[derive(Clone, Debug)]
enum Stmt {
    Read(usize),
    Write(usize, i32),
    WritePlus(usize),
    ByteStore(usize, u8, u8),
    Memcpy(usize, usize),
    StrCpy(&'static str),
    StrLen,
    StrCmp,
    StrCat,
    Cas(usize, i32, i32),
    FetchAdd(usize),
    /// An exchange, which changes nothing when `x` holds its value already.
    Xchg(usize, i32),
    /// A retry loop adding 1 to `x`: `o = x; while (!cas(&x, &o, o + 1));` or, with
    /// `true`, one whose new value is computed from the first load (`f + 1`), which a
    /// failed try does not reset, so that its tries are not redundant.
    Retry(usize, bool),
    Locked(usize, Vec<Stmt>),
    TryLocked(usize, Vec<Stmt>),
    Wait,
    /// `while (!flag) pthread_cond_wait(...)`.
    WaitLoop,
    /// `while (x != n) {}`: an await (or a livelock).
    Spin(usize, i32),
    /// A poll under a lock: `for (;;) { lock(m); if (x == n) { unlock(m); break; }
    /// unlock(m); }`.
    PollLocked(usize, usize, i32),
    /// A memoryless await: `a = x; while (a != n) a = x;`, or with `false`, `a` starting
    /// at -1 instead of a load (not peeled).
    Memoryless(usize, i32, bool),
    /// A test-and-set acquire of `x` as a spin lock, and its release.
    SpinLocked(usize, Vec<Stmt>),
    Signal {
        broadcast: bool,
        locked: bool,
    },
    CrashIf(i32),
    Errno(i32),
    /// A nondeterministic value compared with a constant: a `char` (`false`) or an `int`
    /// (`true`), each with its own domain.
    Nondet(bool),
    Spawn(Vec<Stmt>),
    /// `pthread_barrier_wait(&bar)`; with a variable, the serial thread writes its number
    /// there (else the result is not used).
    Barrier(Option<usize>),
    /// `__VERIFIER_assume(x == n)`, or with a second variable `y`,
    /// `__VERIFIER_assume(x == n || y == n)`: false ones make executions infeasible.
    Assume(usize, usize, i32),
    /// `__VERIFIER_assume(r % 3 != n)` on the thread's sum of what it read, which may
    /// rest on reads before its last write.
    AssumeLocal(i32),
}

#[derive(Clone, Debug)]
struct Prog {
    workers: Vec<Vec<Stmt>>,
    main: Vec<Stmt>,
    /// `main` returns without joining its threads; an exit handler checks the final
    /// state instead.
    early_return: bool,
    /// The barrier waits for this many fewer threads than the workers that use it (so
    /// that some rounds are made up in more than one way, or some thread waits for good).
    barrier_short: u32,
}

fn simple() -> impl Strategy<Value = Stmt> {
    let var = 0..3usize;
    prop_oneof![
        3 => var.clone().prop_map(Stmt::Read),
        3 => (var.clone(), 1..4i32).prop_map(|(v, x)| Stmt::Write(v, x)),
        2 => var.clone().prop_map(Stmt::WritePlus),
        1 => (var.clone(), 0..4u8, 1..3u8).prop_map(|(v, b, x)| Stmt::ByteStore(v, b, x)),
        1 => (var.clone(), var.clone()).prop_map(|(a, b)| Stmt::Memcpy(a, b)),
        1 => prop_oneof![Just("hi"), Just("hello"), Just("")].prop_map(Stmt::StrCpy),
        1 => Just(Stmt::StrLen),
        1 => Just(Stmt::StrCmp),
        1 => Just(Stmt::StrCat),
        // With n = 4, one that stores what it compared with: a success changes nothing.
        1 => (var.clone(), 0..2i32, 4..7i32)
            .prop_map(|(v, e, n)| Stmt::Cas(v, e, if n == 4 { e } else { n })),
        1 => var.clone().prop_map(Stmt::FetchAdd),
        1 => (var.clone(), 0..2i32).prop_map(|(v, n)| Stmt::Xchg(v, n)),
        1 => (var, any::<bool>()).prop_map(|(v, f)| Stmt::Retry(v, f)),
        1 => (0..3i32).prop_map(Stmt::CrashIf),
        1 => (1..9i32).prop_map(Stmt::Errno),
        1 => any::<bool>().prop_map(Stmt::Nondet),
    ]
}

fn stmt() -> impl Strategy<Value = Stmt> {
    prop_oneof![
        8 => simple(),
        2 => (0..2usize, prop::collection::vec(simple(), 1..3)).prop_map(|(m, b)| Stmt::Locked(m, b)),
        1 => (0..2usize, simple()).prop_map(|(m, s)| Stmt::TryLocked(m, vec![s])),
        1 => Just(Stmt::Wait),
        1 => Just(Stmt::WaitLoop),
        1 => (0..3usize, 0..3i32).prop_map(|(v, n)| Stmt::Spin(v, n)),
        1 => (0..3usize, 0..3i32, any::<bool>()).prop_map(|(v, n, p)| Stmt::Memoryless(v, n, p)),
        1 => (0..2usize, 0..3usize, 0..3i32).prop_map(|(m, v, n)| Stmt::PollLocked(m, v, n)),
        1 => (0..3usize, simple()).prop_map(|(v, s)| Stmt::SpinLocked(v, vec![s])),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(broadcast, locked)| Stmt::Signal { broadcast, locked }),
        1 => prop::collection::vec(simple(), 1..3).prop_map(Stmt::Spawn),
        1 => prop_oneof![Just(None), (0..3usize).prop_map(Some)].prop_map(Stmt::Barrier),
        1 => (0..3usize, 0..3usize, 0..3i32).prop_map(|(v, w, n)| Stmt::Assume(v, w, n)),
        1 => (0..3i32).prop_map(Stmt::AssumeLocal),
    ]
}

/// Visible events a statement makes (about: branches may skip some).
fn events(s: &Stmt) -> usize {
    match s {
        Stmt::Errno(_) | Stmt::CrashIf(_) | Stmt::AssumeLocal(_) => 0,
        // Its values multiply the executions as much as a few events would.
        Stmt::Nondet(_) => 3,
        Stmt::StrCat => 2,
        Stmt::Locked(_, b) | Stmt::TryLocked(_, b) | Stmt::SpinLocked(_, b) => {
            2 + b.iter().map(events).sum::<usize>()
        }
        Stmt::Wait | Stmt::WaitLoop | Stmt::PollLocked(..) => 5,
        Stmt::Spin(..) | Stmt::Retry(..) | Stmt::Assume(..) | Stmt::Memoryless(..) => 2,
        Stmt::Signal { locked: true, .. } => 4,
        Stmt::Signal { locked: false, .. } => 2,
        Stmt::Spawn(b) => 4 + b.iter().map(events).sum::<usize>(),
        Stmt::Barrier(_) => 2,
        _ => 1,
    }
}

/// Programs small enough that `none` can try every interleaving: two or three workers
/// with a few events each.
fn prog() -> impl Strategy<Value = Prog> {
    (
        prop::collection::vec(prop::collection::vec(stmt(), 1..3), 2..4),
        prop::collection::vec(simple(), 0..2),
        prop::bool::weighted(0.2),
        prop_oneof![3 => Just(0u32), 1 => Just(1u32)],
    )
        .prop_map(|(workers, main, early_return, barrier_short)| Prog {
            workers,
            main,
            early_return,
            barrier_short,
        })
        .prop_filter("too many interleavings for none", |p| {
            let per_worker: Vec<usize> = p
                .workers
                .iter()
                .map(|w| 1 + w.iter().map(events).sum::<usize>())
                .collect();
            let total: usize =
                per_worker.iter().sum::<usize>() + p.main.iter().map(events).sum::<usize>();
            total <= if p.workers.len() == 2 { 9 } else { 8 }
        })
}

/// C for a statement of thread `t`; `children` numbers the threads it creates.
fn render_stmt(out: &mut String, s: &Stmt, t: usize, children: &mut usize, indent: &str) {
    let x = |v: &usize| format!("x{v}");
    match s {
        Stmt::Read(v) => writeln!(out, "{indent}r = {};", x(v)),
        Stmt::Write(v, n) => writeln!(out, "{indent}{} = {n};", x(v)),
        Stmt::WritePlus(v) => writeln!(out, "{indent}{} = r + 1;", x(v)),
        Stmt::ByteStore(v, b, n) => {
            writeln!(out, "{indent}((volatile char *)&{})[{b}] = {n};", x(v))
        }
        Stmt::Memcpy(a, b) => writeln!(out, "{indent}memcpy(&{}, &{}, sizeof(int));", x(a), x(b)),
        Stmt::StrCpy(lit) => writeln!(out, "{indent}strcpy(buf, \"{lit}\");"),
        Stmt::StrLen => writeln!(out, "{indent}r = (int)strlen(buf);"),
        Stmt::StrCmp => writeln!(out, "{indent}r = strcmp(buf, \"hi\") == 0;"),
        Stmt::StrCat => writeln!(out, "{indent}if (strlen(buf) < 6) strcat(buf, \"!\");"),
        Stmt::Cas(v, e, n) => writeln!(
            out,
            "{indent}{{ int e = {e}; r = __atomic_compare_exchange_n(&{}, &e, {n}, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }}",
            x(v)
        ),
        Stmt::FetchAdd(v) => {
            writeln!(out, "{indent}r = __atomic_fetch_add(&{}, 1, __ATOMIC_SEQ_CST);", x(v))
        }
        Stmt::Xchg(v, n) => writeln!(
            out,
            "{indent}r = __atomic_exchange_n(&{}, {n}, __ATOMIC_SEQ_CST);",
            x(v)
        ),
        Stmt::Retry(v, false) => writeln!(
            out,
            "{indent}{{ int o = __atomic_load_n(&{x}, __ATOMIC_SEQ_CST);\n{indent}  while (!__atomic_compare_exchange_n(&{x}, &o, o + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {{\n{indent}  }}\n{indent}  r = r + o; }}",
            x = x(v)
        ),
        Stmt::Retry(v, true) => writeln!(
            out,
            "{indent}{{ int f = __atomic_load_n(&{x}, __ATOMIC_SEQ_CST), o = f;\n{indent}  while (!__atomic_compare_exchange_n(&{x}, &o, f + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {{\n{indent}  }}\n{indent}  r = r + o; }}",
            x = x(v)
        ),
        Stmt::Locked(m, body) => {
            writeln!(out, "{indent}pthread_mutex_lock(&m{m});").unwrap();
            for s in body {
                render_stmt(out, s, t, children, indent);
            }
            writeln!(out, "{indent}pthread_mutex_unlock(&m{m});")
        }
        Stmt::PollLocked(m, v, n) => writeln!(
            out,
            "{indent}for (;;) {{\n{indent}    pthread_mutex_lock(&m{m});\n{indent}    if ({} == {n}) {{\n{indent}        pthread_mutex_unlock(&m{m});\n{indent}        break;\n{indent}    }}\n{indent}    pthread_mutex_unlock(&m{m});\n{indent}}}",
            x(v)
        ),
        Stmt::TryLocked(m, body) => {
            writeln!(out, "{indent}if (pthread_mutex_trylock(&m{m}) == 0) {{").unwrap();
            for s in body {
                render_stmt(out, s, t, children, &format!("{indent}    "));
            }
            writeln!(out, "{indent}    pthread_mutex_unlock(&m{m});\n{indent}}}")
        }
        Stmt::Wait => writeln!(
            out,
            "{indent}pthread_mutex_lock(&m0);\n{indent}if (!flag)\n{indent}    pthread_cond_wait(&c, &m0);\n{indent}pthread_mutex_unlock(&m0);"
        ),
        Stmt::WaitLoop => writeln!(
            out,
            "{indent}pthread_mutex_lock(&m0);\n{indent}while (!flag)\n{indent}    pthread_cond_wait(&c, &m0);\n{indent}pthread_mutex_unlock(&m0);"
        ),
        Stmt::Spin(v, n) => writeln!(out, "{indent}while ({} != {n}) {{\n{indent}}}", x(v)),
        Stmt::Memoryless(v, n, peeled) => {
            let first = if *peeled { x(v) } else { "-1".to_string() };
            writeln!(
                out,
                "{indent}{{\n{indent}    int a = {first};\n{indent}    while (a != {n})\n{indent}        a = {};\n{indent}}}",
                x(v)
            )
        }
        Stmt::SpinLocked(v, body) => {
            writeln!(
                out,
                "{indent}while (__atomic_exchange_n(&{}, 1, __ATOMIC_SEQ_CST) == 1) {{\n{indent}}}",
                x(v)
            )
            .unwrap();
            for s in body {
                render_stmt(out, s, t, children, indent);
            }
            writeln!(out, "{indent}__atomic_store_n(&{}, 0, __ATOMIC_SEQ_CST);", x(v))
        }
        Stmt::Signal { broadcast, locked } => {
            let f = if *broadcast {
                "pthread_cond_broadcast"
            } else {
                "pthread_cond_signal"
            };
            if *locked {
                writeln!(
                    out,
                    "{indent}pthread_mutex_lock(&m0);\n{indent}flag = 1;\n{indent}{f}(&c);\n{indent}pthread_mutex_unlock(&m0);"
                )
            } else {
                writeln!(out, "{indent}flag = 1;\n{indent}{f}(&c);")
            }
        }
        Stmt::CrashIf(n) => writeln!(out, "{indent}if (r == {n})\n{indent}    *nowhere = 1;"),
        Stmt::Errno(n) => {
            let n = n + 10 * t as i32;
            writeln!(out, "{indent}errno = {n};\n{indent}r = r + (errno == {n});\n{indent}assert(errno == {n});")
        }
        Stmt::Nondet(false) => writeln!(
            out,
            "{indent}if (__VERIFIER_nondet_uchar() == 3)\n{indent}    r = r + 1;"
        ),
        Stmt::Nondet(true) => writeln!(
            out,
            "{indent}if (__VERIFIER_nondet_int() == 1000)\n{indent}    r = r + 2;"
        ),
        Stmt::AssumeLocal(n) => writeln!(out, "{indent}__VERIFIER_assume(r % 3 != {n});"),
        Stmt::Assume(v, w, n) if v == w => {
            writeln!(out, "{indent}__VERIFIER_assume({} == {n});", x(v))
        }
        Stmt::Assume(v, w, n) => writeln!(
            out,
            "{indent}__VERIFIER_assume({} == {n} || {} == {n});",
            x(v),
            x(w)
        ),
        Stmt::Barrier(None) => writeln!(out, "{indent}pthread_barrier_wait(&bar);"),
        Stmt::Barrier(Some(v)) => writeln!(
            out,
            "{indent}if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)\n{indent}    {} = {};",
            x(v),
            t + 1
        ),
        Stmt::Spawn(_) => {
            let k = *children;
            *children += 1;
            writeln!(
                out,
                "{indent}{{\n{indent}    pthread_t ch;\n{indent}    pthread_create(&ch, 0, child{t}_{k}, 0);\n{indent}    pthread_join(ch, 0);\n{indent}}}"
            )
        }
    }
    .unwrap();
}

/// The children's bodies, rendered before the thread that creates them.
fn render_children(out: &mut String, body: &[Stmt], t: usize, children: &mut usize) {
    for s in body {
        match s {
            Stmt::Spawn(child) => {
                writeln!(
                    out,
                    "void *child{t}_{}(void *arg) {{\n    (void)arg;\n    int r = 0;",
                    *children
                )
                .unwrap();
                let mut none = 0;
                for c in child {
                    render_stmt(out, c, 100 + t, &mut none, "    ");
                }
                writeln!(out, "    return (void *)(long)r;\n}}\n").unwrap();
                *children += 1;
            }
            Stmt::Locked(_, b) | Stmt::TryLocked(_, b) | Stmt::SpinLocked(_, b) => {
                render_children(out, b, t, children)
            }
            _ => {}
        }
    }
}

const BUCKETS: u32 = 7;

fn render(p: &Prog) -> String {
    let mut out = String::from(
        "#include <assert.h>\n#include <errno.h>\n#include <pthread.h>\n#include <stdlib.h>\n#include <string.h>\n\n\
         int x0, x1, x2, flag, rm;\nchar buf[8] = \"ab\";\n\
         pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER, m1 = PTHREAD_MUTEX_INITIALIZER;\n\
         pthread_cond_t c = PTHREAD_COND_INITIALIZER;\nint *volatile nowhere;\npthread_barrier_t bar;\n\
         unsigned char __VERIFIER_nondet_uchar(void);\nint __VERIFIER_nondet_int(void);\n\
         void __VERIFIER_assume(int);\n\n",
    );
    for (i, w) in p.workers.iter().enumerate() {
        let t = i + 1;
        let mut k = 0;
        render_children(&mut out, w, t, &mut k);
        writeln!(
            out,
            "void *w{t}(void *arg) {{\n    (void)arg;\n    int r = 0;"
        )
        .unwrap();
        let mut k = 0;
        for s in w {
            render_stmt(&mut out, s, t, &mut k, "    ");
        }
        writeln!(out, "    return (void *)(long)r;\n}}\n").unwrap();
    }
    // The final state, folded into assertions: in `main` after its joins, or in an exit
    // handler when `main` returns at once (which reads shared state at exit).
    out += "static void check(int r) {\n";
    out += "    unsigned h = (unsigned)(x0 * 3 + x1 * 5 + x2 * 7 + flag * 11 + (int)strlen(buf) * 13 + r * 17);\n";
    for b in 0..BUCKETS {
        writeln!(
            out,
            "    assert(h % {BUCKETS} != {b} && \"final state {b}\");"
        )
        .unwrap();
    }
    out += "}\n\nstatic void at_exit(void) {\n    check(rm);\n}\n\n";
    out += "int main(void) {\n    int r = 0;\n";
    if p.early_return {
        out += "    atexit(at_exit);\n";
    }
    let waiting = (p.workers.iter())
        .filter(|w| w.iter().any(|s| matches!(s, Stmt::Barrier(_))))
        .count() as u32;
    if waiting > 0 {
        let count = waiting.saturating_sub(p.barrier_short).max(1);
        writeln!(out, "    pthread_barrier_init(&bar, 0, {count});").unwrap();
    }
    for i in 1..=p.workers.len() {
        writeln!(
            out,
            "    pthread_t t{i};\n    pthread_create(&t{i}, 0, w{i}, 0);"
        )
        .unwrap();
    }
    let mut k = 0;
    for s in &p.main {
        render_stmt(&mut out, s, 0, &mut k, "    ");
    }
    if p.early_return {
        out += "    rm = r;\n    return 0;\n}\n";
        return out;
    }
    for i in 1..=p.workers.len() {
        writeln!(out, "    pthread_join(t{i}, 0);").unwrap();
    }
    out += "    check(r);\n    return 0;\n}\n";
    out
}

/// The errors an exploration reached: kind, location and message.
type Errors = BTreeSet<(String, String, String)>;

fn errors(program: &Program, summary: &Summary) -> Errors {
    let symbols = Symbols::load(&program.binary, program.arrays.clone(), program.tls.clone());
    let namer = Namer {
        sites: &program.sites,
        symbols: &symbols,
    };
    summary
        .errors
        .iter()
        .map(|f| {
            (
                f.kind.name().to_string(),
                namer.error_location(f),
                namer.message(f),
            )
        })
        .collect()
}

/// `oracle`: `none` exploring every failed try of a retry loop, against which the
/// reductions (that one included) are checked.
fn explore(program: &Program, algorithm: Algorithm, max: Option<u64>, oracle: bool) -> Summary {
    let opts = Options {
        algorithm,
        keep_going: true,
        max_steps: 2000,
        max_executions: max,
        time_limit: None,
        exec_timeout: Duration::from_secs(10),
        progress: false,
        run: cdpor::executor::RunOptions {
            retry_reduction: !oracle,
            ordered_barriers: oracle,
            assume_waits: !oracle,
            ..Default::default()
        },
        // The oracle runs each execution in a worker of its own; the reductions, in
        // place: so the fast path is checked against the slow one too.
        reset: if algorithm == Algorithm::None {
            Reset::Fork
        } else {
            Reset::InPlace
        },
        probes: Default::default(),
        // Optimal with two workers running ahead from the first execution: the same
        // answers as one.
        threads: if algorithm == Algorithm::Optimal {
            2
        } else {
            1
        },
        run_ahead_from: Some(Duration::ZERO),
    };
    explore::explore(program, &opts).unwrap_or_else(|f| panic!("{algorithm:?}: {f:?}"))
}

/// Where failing programs are kept, ready to become c-tests.
fn keep(source: &str, summary: &Summary, errors: &Errors, why: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../difftest");
    std::fs::create_dir_all(&dir).unwrap();
    let n = std::fs::read_dir(&dir).map_or(0, |d| d.count());
    let path = dir.join(format!("case{n}.c"));
    let mut header = format!("/* Found by tests/differential.rs: {why}\n *\n * cdpor-test\n");
    writeln!(
        header,
        " * run: --keep-going --algorithm none --all-retries --ordered-barriers --assume-ends ; \
         verdict=error executions={} failing={}",
        summary.stats.executions, summary.failing
    )
    .unwrap();
    for alg in ["optimal", "source", "classic"] {
        writeln!(
            header,
            " * run: --keep-going --algorithm {alg} ; verdict=error"
        )
        .unwrap();
    }
    header += " * (none reaches:";
    for e in errors {
        write!(header, "\n *   {} at {}", e.0, e.1).unwrap();
    }
    header += ")\n */\n";
    std::fs::write(&path, header + source).unwrap();
    path
}

/// Builds and explores one program; `Err` says how the algorithms disagree.
fn check(p: &Prog) -> Result<bool, TestCaseError> {
    let source = render(p);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("prog.c");
    std::fs::write(&file, &source).unwrap();
    let program = program::build(&BuildOptions {
        sources: vec![file],
        ..BuildOptions::default()
    })
    .unwrap_or_else(|e| panic!("{e}\n{source}"));
    let oracle = explore(&program, Algorithm::None, Some(NONE_BUDGET), true);
    if !oracle.complete() {
        return Ok(false);
    }
    let expected = errors(&program, &oracle);
    let errno_broken = expected.iter().any(|e| e.2.contains("errno =="));
    if errno_broken {
        let kept = keep(&source, &oracle, &expected, "errno is shared");
        return Err(TestCaseError::fail(format!(
            "errno is not per thread ({})",
            kept.display()
        )));
    }
    for alg in [Algorithm::Optimal, Algorithm::Source, Algorithm::Classic] {
        let got = explore(&program, alg, Some(20 * NONE_BUDGET), false);
        let found = errors(&program, &got);
        let missing: Vec<_> = expected.difference(&found).collect();
        let extra: Vec<_> = found.difference(&expected).collect();
        let blocked = alg == Algorithm::Optimal && got.stats.blocked > 0;
        if !missing.is_empty() || !extra.is_empty() || blocked || !got.complete() {
            let why = format!(
                "{} misses {missing:?}, invents {extra:?}, {} blocked executions",
                alg.name(),
                got.stats.blocked
            );
            let kept = keep(&source, &oracle, &expected, &why);
            return Err(TestCaseError::fail(format!("{why} ({})", kept.display())));
        }
    }
    Ok(true)
}

/// Runs `cases` programs from `seed`; at least half must be small enough for `none`.
fn run(seed: u64, cases: u32) {
    // A seed given to scripts/difftest replaces the high bits: the four runs stay apart.
    let seed = std::env::var("CDPOR_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map_or(seed, |s| s.wrapping_mul(16) + (seed & 15));
    let cases = std::env::var("CDPOR_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    let config = Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 64,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let checked = std::cell::Cell::new(0u32);
    let result = runner.run(&prog(), |p| {
        if check(&p)? {
            checked.set(checked.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("seed {seed}: {e}");
    }
    eprintln!(
        "seed {seed}: {} of {cases} programs checked against none",
        checked.get()
    );
    assert!(
        checked.get() * 2 >= cases,
        "only {} of {cases} programs were small enough for none",
        checked.get()
    );
}

#[test]
fn algorithms_agree_with_none_on_random_c_programs_1() {
    run(0xd1ff_0001, 50);
}

#[test]
fn algorithms_agree_with_none_on_random_c_programs_2() {
    run(0xd1ff_0002, 50);
}

#[test]
fn algorithms_agree_with_none_on_random_c_programs_3() {
    run(0xd1ff_0003, 50);
}

#[test]
fn algorithms_agree_with_none_on_random_c_programs_4() {
    run(0xd1ff_0004, 50);
}

#[test]
fn a_generated_program_compiles_and_names_its_final_states() {
    let p = Prog {
        workers: vec![
            vec![Stmt::StrCpy("hi")],
            vec![Stmt::Spawn(vec![Stmt::StrLen])],
        ],
        main: vec![Stmt::Errno(3)],
        early_return: false,
        barrier_short: 0,
    };
    let src = render(&p);
    if let Ok(path) = std::env::var("CDPOR_DIFF_PRINT") {
        std::fs::write(path, &src).unwrap();
    }
    assert!(src.contains("void *child2_0(void *arg)"), "{src}");
    assert!(src.contains("assert(h % 7 != 6 && \"final state 6\");"));
    assert!(check(&p).unwrap(), "small enough for none");
}

#[test]
fn retry_loops_and_an_early_return_agree_with_every_try_explored() {
    // The exit handler's reads race with the worker's: only one worker, then.
    for (live_in, early_return) in [(false, true), (true, false)] {
        let (workers, main) = if early_return {
            (vec![vec![Stmt::Retry(0, live_in)]], vec![Stmt::Write(0, 2)])
        } else {
            (
                vec![vec![Stmt::Retry(0, live_in)], vec![Stmt::Write(0, 2)]],
                vec![],
            )
        };
        let p = Prog {
            workers,
            main,
            early_return,
            barrier_short: 0,
        };
        let src = render(&p);
        assert_eq!(src.contains("atexit(at_exit);"), early_return, "{src}");
        assert_eq!(src.contains("f + 1"), live_in, "{src}");
        if let Ok(path) = std::env::var("CDPOR_DIFF_PRINT") {
            std::fs::write(format!("{path}.{live_in}"), &src).unwrap();
        }
        assert!(check(&p).unwrap(), "small enough for none");
    }
}
