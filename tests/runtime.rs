//! Tests of the runtime (`runtime/`) inside real instrumented programs: each test builds a
//! small C program with `cdpor::program::build`, starts its fork server with
//! `cdpor::executor::Executor`, and checks the traces of chosen executions.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use cdpor::engine::Request;
use cdpor::executor::{End, ExecOptions, Execution, Executor, Placement, Reset};
use cdpor::program::{build, BuildOptions, Program};
use cdpor_sched::event::{FLAG_ATOMIC, FLAG_FAILED, FLAG_STORE, FLAG_VALUE};
use cdpor_sched::{Event, Kind, Step, ThreadSet, Tid};

/// A built program and its running fork server.
struct Fixture {
    /// The C source; kept alive for the program's lifetime.
    _dir: tempfile::TempDir,
    source: PathBuf,
    program: Program,
    exec: Executor,
}

const LONG: Duration = Duration::from_secs(10);

fn fixture_with(src: &str, max_steps: usize, timeout: Duration) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("prog.c");
    std::fs::write(&source, src).unwrap();
    let program = build(&BuildOptions {
        sources: vec![source.clone()],
        ..BuildOptions::default()
    })
    .unwrap_or_else(|e| panic!("build failed: {e}"));
    let exec = Executor::start(
        &program.binary,
        &ExecOptions {
            max_steps,
            timeout,
            show_output: false,
            cpu: Placement::Sleeping,
            reset: Reset::InPlace,
            verify_reset: true,
            run: Default::default(),
        },
    )
    .unwrap();
    Fixture {
        _dir: dir,
        source,
        program,
        exec,
    }
}

fn fixture(src: &str) -> Fixture {
    fixture_with(src, 1000, LONG)
}

impl Fixture {
    fn request(&mut self, req: &Request, max_steps: usize) -> Execution {
        self.exec.run(req, max_steps, None).unwrap()
    }

    /// Follows `schedule` (threads, taking the first alternative where there are
    /// several), then runs freely (no sleep set).
    fn run(&mut self, schedule: &[Tid]) -> Execution {
        self.request(
            &Request {
                schedule: schedule
                    .iter()
                    .map(|&tid| Step { tid, choice: 0 })
                    .collect(),
                sleep: Vec::new(),
                sleep_from: 0,
            },
            1000,
        )
    }

    /// The 1-based line of the source that contains `needle`.
    fn line_of(&self, needle: &str) -> u32 {
        let src = std::fs::read_to_string(&self.source).unwrap();
        let hits: Vec<u32> = src
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains(needle))
            .map(|(i, _)| i as u32 + 1)
            .collect();
        assert_eq!(hits.len(), 1, "`{needle}` must occur on exactly one line");
        hits[0]
    }
}

fn tids(x: &Execution) -> Vec<Tid> {
    x.events.iter().map(Event::tid).collect()
}

fn kinds(x: &Execution) -> Vec<(Tid, Kind)> {
    x.events.iter().map(|e| (e.tid(), e.kind())).collect()
}

fn set(ts: &[Tid]) -> ThreadSet {
    ts.iter().copied().collect()
}

/// Two threads: T0 writes 5 to x, T1 increments x, T0 returns x.
const RACE: &str = r#"#include <pthread.h>
int x;
void *inc(void *arg) {
    x = x + 1;
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, inc, 0);
    x = 5;
    pthread_join(th, 0);
    return x;
}
"#;

#[test]
fn first_execution_records_the_expected_events() {
    let mut f = fixture(RACE);
    let x = f.run(&[]);
    assert_eq!(x.end, End::Exit(6), "{:?}", x.events);
    use Kind::*;
    assert_eq!(
        kinds(&x),
        vec![
            (0, Create),
            (0, Write),      // pthread_create stores th
            (0, Write),      // x = 5
            (1, Read),       // T0 waits in the join: T1 runs
            (1, Write),      // x = 6
            (1, ThreadExit), // the start routine returns
            (0, Join),
            (0, Read), // return x
            (0, ProcessExit),
        ]
    );
    let e = &x.events;
    assert_eq!(e[0].aux, 1, "the create names thread 1");
    assert_eq!(e[6].aux, 1, "the join waits for thread 1");
    // Both threads access the same 4 bytes of `x`.
    let xaddr = e[2].addr;
    for i in [2, 3, 4, 7] {
        assert_eq!((e[i].addr, e[i].len), (xaddr, 4), "event {i}: {:?}", e[i]);
        assert_ne!(e[i].flags & FLAG_VALUE, 0, "event {i} carries its value");
        assert_eq!(e[i].flags & FLAG_ATOMIC, 0);
    }
    // The runtime's own store of the thread's id (1 + its number) is an event.
    assert_eq!((e[1].len, e[1].value), (8, 2), "pthread_t is 8 bytes");
    assert_ne!(e[1].flags & FLAG_STORE, 0);
    assert_ne!(e[1].addr, xaddr);
    // Values read and written.
    let values: Vec<u64> = [2, 3, 4, 7].iter().map(|&i| e[i].value).collect();
    assert_eq!(values, vec![5, 5, 6, 6]);
    assert_eq!(e[8].value, 6, "exit code");
    // Sites point at the source lines.
    let sites = &f.program.sites;
    assert_eq!(sites[e[2].site as usize].line, f.line_of("x = 5;"));
    assert_eq!(sites[e[4].site as usize].line, f.line_of("x = x + 1;"));
    assert_eq!(sites[e[4].site as usize].op, "store");
    assert_eq!(sites[e[0].site as usize].op, "pthread_create");
    assert_eq!(sites[e[1].site as usize].op, "pthread_create");
    // Enabled sets: T1 exists from step 1; T0 waits in the join from step 3 to 5.
    let (t0, t1, both) = (set(&[0]), set(&[1]), set(&[0, 1]));
    assert_eq!(x.enabled, vec![t0, both, both, t1, t1, t1, t0, t0, t0]);
    // Nobody is left at the end.
    assert!(x.blocked.is_empty());
    assert!(x.allocs.is_empty());
}

#[test]
fn follows_the_schedule_then_keeps_the_running_thread() {
    let mut f = fixture(RACE);
    // T1 first, right after its creation.
    let x = f.run(&[0, 1]);
    assert_eq!(x.events[1].tid(), 1);
    assert_eq!(x.events[1].kind(), Kind::Read);
    assert_eq!(x.events[1].value, 0, "T1 reads x before T0 writes it");
    // Free run from step 2: T1 keeps running to its end, then T0.
    assert_eq!(tids(&x), vec![0, 1, 1, 1, 0, 0, 0, 0, 0]);
    assert_eq!(x.events[2].value, 1);
    assert_eq!(x.events[5].value, 5);
    assert_eq!(x.end, End::Exit(5));

    // A longer schedule: T0 stores th and writes, then T1 runs its read.
    let x = f.run(&[0, 0, 0, 1]);
    assert_eq!(tids(&x)[..4], [0, 0, 0, 1]);
    assert_eq!(x.events[3].value, 5, "T1 reads T0's write");
    // T1 keeps running to its end; T0 joins it and returns 6.
    assert_eq!(tids(&x)[4..], [1, 1, 0, 0, 0]);
    assert_eq!(x.end, End::Exit(6));
}

#[test]
fn a_schedule_naming_a_disabled_thread_diverges() {
    let mut f = fixture(RACE);
    // Thread 1 does not exist yet at step 0.
    let x = f.run(&[1]);
    assert_eq!(x.end, End::Diverged(1));
    assert!(x.events.is_empty(), "{:?}", x.events);
    // At step 3 T0 waits in the join for T1, which has not run.
    let x = f.run(&[0, 0, 0, 0]);
    assert_eq!(x.end, End::Diverged(0));
    assert_eq!(tids(&x), vec![0, 0, 0]);
    // The executor still serves good schedules afterwards.
    assert_eq!(f.run(&[]).end, End::Exit(6));
}

const SLEEPY: &str = r#"#include <pthread.h>
int x, y;
void *t(void *arg) {
    y = 1;
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    x = 1;
    pthread_join(th, 0);
    return 0;
}
"#;

#[test]
fn a_sleeping_thread_that_nothing_wakes_blocks_the_execution() {
    let mut f = fixture(SLEEPY);
    let free = f.run(&[]);
    assert_eq!(free.end, End::Exit(0));
    let t1_write = *free
        .events
        .iter()
        .find(|e| e.tid() == 1 && e.kind() == Kind::Write)
        .unwrap();
    let x_write = free.events[2];
    assert_eq!((x_write.tid(), x_write.kind()), (0, Kind::Write));
    assert_eq!(x_write.flags & FLAG_STORE, 0, "x = 1, not the store of th");
    assert_ne!(t1_write.addr, x_write.addr);

    // T1 sleeps from step 1 (after its creation, which is dependent with it). Nothing T0
    // does touches y, so once T0 waits in the join only the sleeping T1 could run.
    let x = f.request(
        &Request {
            schedule: vec![],
            sleep: vec![t1_write],
            sleep_from: 1,
        },
        1000,
    );
    assert_eq!(x.end, End::SleepBlocked, "{:?}", x.events);
    assert_eq!(
        kinds(&x),
        vec![(0, Kind::Create), (0, Kind::Write), (0, Kind::Write)]
    );

    // A sleeper on x is woken by T0's write to x, and the execution completes.
    let sleeper = Event::mem(1, Kind::Write, x_write.addr, 4);
    let x = f.request(
        &Request {
            schedule: vec![],
            sleep: vec![sleeper],
            sleep_from: 1,
        },
        1000,
    );
    assert_eq!(x.end, End::Exit(0));
    assert_eq!(tids(&x), tids(&free));

    // Asleep from step 0, T1's own creation wakes it.
    let x = f.request(
        &Request {
            schedule: vec![],
            sleep: vec![t1_write],
            sleep_from: 0,
        },
        1000,
    );
    assert_eq!(x.end, End::Exit(0));
}

#[test]
fn the_step_bound_cuts_an_infinite_loop() {
    let src = r#"
int x;
int main(void) {
    for (;;)
        x = x + 1;
}
"#;
    let mut f = fixture_with(src, 100, LONG);
    let req = Request {
        schedule: vec![],
        sleep: vec![],
        sleep_from: 0,
    };
    let x = f.request(&req, 40);
    assert_eq!(x.end, End::StepBound);
    assert_eq!(x.events.len(), 40);
    for (i, e) in x.events.iter().enumerate() {
        let kind = if i % 2 == 0 { Kind::Read } else { Kind::Write };
        let value = (i / 2 + i % 2) as u64;
        assert_eq!((e.tid(), e.kind(), e.value), (0, kind, value), "event {i}");
    }
    // The same bound as the executor's capacity.
    let x = f.request(&req, 100);
    assert_eq!(x.end, End::StepBound);
    assert_eq!(x.events.len(), 100);
    assert_eq!(x.events[99].value, 50);
}

#[test]
fn heap_blocks_have_the_same_address_in_every_interleaving() {
    let src = r#"#include <pthread.h>
#include <stdlib.h>
int g1, g2;
int *p1;
long *p2;
void *first(void *arg) {
    g1 = 1;
    int *b = malloc(12);
    b[2] = 7;
    p1 = b;
    return 0;
}
void *second(void *arg) {
    g2 = 1;
    long *b = malloc(40);
    b[0] = 9;
    p2 = b;
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"#;
    let mut f = fixture(src);
    let a = f.run(&[]);
    // T2 runs first when scheduled right after the two creations (and their stores).
    let b = f.run(&[0, 0, 0, 0, 2]);
    assert_eq!(a.end, End::Exit(0));
    assert_eq!(b.end, End::Exit(0));
    // The heap stores b[2] = 7 (T1, 4 bytes) and b[0] = 9 (T2, 8 bytes), as
    // (tid, addr, len, value).
    let block_write = |x: &Execution, tid: Tid, value: u64| {
        let w: Vec<(Tid, u64, u32, u64)> = x
            .events
            .iter()
            .filter(|e| e.tid() == tid && e.kind() == Kind::Write && e.value == value)
            .map(|e| (e.tid(), e.addr, e.len, e.value))
            .collect();
        assert_eq!(w.len(), 1, "{:?}", x.events);
        w[0]
    };
    let (a1, a2) = (block_write(&a, 1, 7), block_write(&a, 2, 9));
    let (b1, b2) = (block_write(&b, 1, 7), block_write(&b, 2, 9));
    assert_eq!(a1, b1);
    assert_eq!(a2, b2);
    assert_eq!((a1.2, a2.2), (4, 8));
    // The interleavings do differ: T1 runs before T2 in one, after it in the other.
    let pos = |x: &Execution, tid: Tid| x.events.iter().position(|e| e.tid() == tid).unwrap();
    assert!(pos(&a, 1) < pos(&a, 2));
    assert!(pos(&b, 2) < pos(&b, 1));

    // Both executions log both blocks, with their sizes, and the stores land inside them.
    for x in [&a, &b] {
        let mut allocs: Vec<(u32, u64, u64)> = x
            .allocs
            .iter()
            .map(|al| (al.tid, al.addr, al.size))
            .collect();
        allocs.sort();
        assert_eq!(allocs.len(), 2, "{:?}", x.allocs);
        assert_eq!((allocs[0].0, allocs[0].2), (1, 12));
        assert_eq!((allocs[1].0, allocs[1].2), (2, 40));
        assert_eq!(allocs[0].1 + 8, a1.1, "b[2] is 8 bytes into T1's block");
        assert_eq!(allocs[1].1, a2.1, "b[0] is the start of T2's block");
        assert_ne!(allocs[0].1, allocs[1].1);
        let site = &f.program.sites[x.allocs[0].site as usize];
        assert_eq!(site.op, "malloc");
        // The pointers published in p1/p2 are the block addresses.
        let published: Vec<u64> = x
            .events
            .iter()
            .filter(|e| e.kind() == Kind::Write && e.len == 8 && e.tid() != 0)
            .filter(|e| e.value >= 1 << 32)
            .map(|e| e.value)
            .collect();
        assert_eq!(published.len(), 2, "{:?}", x.events);
        assert!(published.contains(&allocs[0].1));
        assert!(published.contains(&allocs[1].1));
    }
}

#[test]
fn a_null_dereference_in_a_thread_is_a_crash() {
    let src = r#"#include <pthread.h>
int *volatile nowhere;
int ok;
void *t(void *arg) {
    ok = 1;
    *nowhere = 42;
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    pthread_join(th, 0);
    return 0;
}
"#;
    let mut f = fixture(src);
    let x = f.run(&[]);
    let End::Crash {
        tid,
        site,
        signal,
        addr,
        overflow,
        ..
    } = x.end
    else {
        panic!("expected a crash, got {:?} after {:?}", x.end, x.events);
    };
    assert_eq!((tid, signal, addr, overflow), (1, 11, 0, false));
    // The store through the null pointer is T1's crash, in its place in the trace.
    let last = x.events.last().unwrap();
    assert_eq!((last.tid(), last.kind(), last.addr), (1, Kind::Crash, 0));
    assert_eq!(site, last.site);
    assert_eq!(
        f.program.sites[site as usize].line,
        f.line_of("*nowhere = 42;")
    );
}

#[test]
fn deep_recursion_in_a_thread_is_a_stack_overflow() {
    let src = r#"#include <pthread.h>
int depth;
int down(int n) {
    volatile char frame[512];
    frame[0] = (char)n;
    return n == 0 ? 0 : down(n - 1) + frame[0];
}
void *t(void *arg) {
    depth = 1;
    return (void *)(long)down(1 << 24);
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    pthread_join(th, 0);
    return 0;
}
"#;
    let mut f = fixture(src);
    let x = f.run(&[]);
    let End::Crash {
        tid,
        signal,
        overflow,
        ..
    } = x.end
    else {
        panic!("expected a crash, got {:?}", x.end);
    };
    assert_eq!((tid, signal, overflow), (1, 11, true));
    // The executor survives the crash.
    let again = f.run(&[]);
    assert!(
        matches!(
            again.end,
            End::Crash {
                overflow: true,
                tid: 1,
                ..
            }
        ),
        "{:?}",
        again.end
    );
}

#[test]
fn exit_from_a_thread_ends_the_program_with_its_code() {
    let src = r#"#include <pthread.h>
#include <stdlib.h>
int x;
void *t(void *arg) {
    x = 1;
    exit(3);
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    pthread_join(th, 0);
    return 0;
}
"#;
    let mut f = fixture(src);
    let x = f.run(&[]);
    assert_eq!(x.end, End::Exit(3));
    let last = x.events.last().unwrap();
    assert_eq!(
        (last.tid(), last.kind(), last.value),
        (1, Kind::ProcessExit, 3)
    );
    assert_eq!(f.program.sites[last.site as usize].op, "exit");
    assert_eq!(
        f.program.sites[last.site as usize].line,
        f.line_of("exit(3)")
    );
    // T0 never got past its join.
    assert_eq!(
        x.events.iter().filter(|e| e.kind() == Kind::Join).count(),
        0
    );
}

#[test]
fn a_deadlock_lists_the_blocked_lock_operations() {
    let src = r#"#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
void *t(void *arg) {
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    pthread_join(th, 0);
    return 0;
}
"#;
    let mut f = fixture(src);
    // T0 takes a, T1 takes b: each then waits for the other's mutex.
    let x = f.run(&[0, 0, 0, 1]);
    assert_eq!(x.end, End::Deadlock);
    assert_eq!(
        kinds(&x),
        vec![
            (0, Kind::Create),
            (0, Kind::Write),
            (0, Kind::Lock),
            (1, Kind::Lock)
        ]
    );
    let (a, b) = (x.events[2].addr, x.events[3].addr);
    assert_ne!(a, b);
    let mut blocked: Vec<(Tid, Kind, u64)> = x
        .blocked
        .iter()
        .map(|e| (e.tid(), e.kind(), e.addr))
        .collect();
    blocked.sort_by_key(|b| b.0);
    assert_eq!(blocked, vec![(0, Kind::Lock, b), (1, Kind::Lock, a)]);
    // T0 waits at line 15 (lock b in main), T1 at line 6 (lock a in t).
    let sites = &f.program.sites;
    let mut lines: Vec<(Tid, u32)> = x
        .blocked
        .iter()
        .map(|e| (e.tid(), sites[e.site as usize].line))
        .collect();
    lines.sort();
    assert_eq!(lines, vec![(0, 15), (1, 6)]);
    // The free run does not deadlock: T0 takes both mutexes before T1 starts.
    let free = f.run(&[]);
    assert_eq!(free.end, End::Exit(0));
    assert!(free.blocked.is_empty());
}

#[test]
fn the_enabled_set_leaves_out_a_thread_blocked_on_a_lock() {
    let src = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;
void *t(void *arg) {
    pthread_mutex_lock(&m);
    x = 2;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_mutex_lock(&m);
    pthread_create(&th, 0, t, 0);
    x = 1;
    pthread_mutex_unlock(&m);
    y = 1;
    pthread_join(th, 0);
    return x;
}
"#;
    let mut f = fixture(src);
    let x = f.run(&[]);
    assert_eq!(x.end, End::Exit(2));
    use Kind::*;
    let got: Vec<(Tid, Kind, ThreadSet)> = x
        .events
        .iter()
        .zip(&x.enabled)
        .map(|(e, &en)| (e.tid(), e.kind(), en))
        .collect();
    let (t0, t1, both) = (set(&[0]), set(&[1]), set(&[0, 1]));
    assert_eq!(
        got,
        vec![
            (0, Lock, t0),
            (0, Create, t0),
            (0, Write, t0), // stores th; T1 waits for m
            (0, Write, t0), // x = 1
            (0, Unlock, t0),
            (0, Write, both), // y = 1; m is free: T1 may lock it
            (1, Lock, t1),    // T0 waits in the join
            (1, Write, t1),
            (1, Unlock, t1),
            (1, ThreadExit, t1),
            (0, Join, t0),
            (0, Read, t0),
            (0, ProcessExit, t0),
        ]
    );
    let m = x.events[0].addr;
    for i in [4, 6, 8] {
        assert_eq!(x.events[i].addr, m);
    }
    // Stopped while T1 waits for m, T1 is reported blocked on it.
    let cut = f.request(
        &Request {
            schedule: vec![],
            sleep: vec![],
            sleep_from: 0,
        },
        3,
    );
    assert_eq!(cut.end, End::StepBound);
    let pending_t1: Vec<(Kind, u64, bool)> = cut
        .pending
        .iter()
        .filter(|p| p.event.tid() == 1)
        .map(|p| (p.event.kind(), p.event.addr, p.enabled))
        .collect();
    assert_eq!(pending_t1, vec![(Lock, m, false)]);
    assert_eq!(
        cut.blocked
            .iter()
            .map(|e| (e.tid(), e.kind()))
            .collect::<Vec<_>>(),
        vec![(1, Lock)]
    );
}

#[test]
fn a_failed_assert_reports_expression_file_and_line() {
    let src = r#"#include <assert.h>
#include <pthread.h>
int x;
void *t(void *arg) {
    x = 1;
    assert(x == 7 && "x is seven");
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    pthread_join(th, 0);
    return 0;
}
"#;
    let mut f = fixture(src);
    let x = f.run(&[]);
    let End::Assertion {
        tid,
        site,
        expr,
        file,
        line,
    } = &x.end
    else {
        panic!("expected an assertion failure, got {:?}", x.end);
    };
    assert_eq!(*tid, 1);
    assert_eq!(expr, "x == 7 && \"x is seven\"");
    assert_eq!(file, f.source.to_str().unwrap());
    assert_eq!(*line, 6);
    assert_eq!(f.program.sites[*site as usize].op, "__assert_fail");
    assert_eq!(f.program.sites[*site as usize].line, 6);
    let last = x.events.last().unwrap();
    assert_eq!((last.tid(), last.kind()), (1, Kind::AssertFail));
}

#[test]
fn a_loop_without_visible_operations_times_out() {
    let src = r#"#include <pthread.h>
int x;
void *t(void *arg) {
    if (x == 0)
        for (unsigned i = 1;; i = i / (i | 1) + i) {
        }
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    x = 1;
    return 0;
}
"#;
    // (A loop that divides could trap: it is left alone. One that cannot be left, make
    // an event or fault is an await that nothing ends: `for (;;) i++;` would not hang.)
    let mut f = fixture_with(src, 1000, Duration::from_millis(500));
    // T1 runs at step 1, reads 0 and spins forever.
    let start = Instant::now();
    let x = f.run(&[0, 1]);
    let spinning = End::TimedOut {
        running: 1,
        syscall: None,
    };
    assert_eq!(
        x.end, spinning,
        "T1 was spinning, not sleeping in a system call"
    );
    // It was run twice before being called a hang (a loaded machine can stall one run).
    assert!(start.elapsed() >= Duration::from_millis(1000));
    assert!(start.elapsed() < Duration::from_secs(5));
    // The events before the hang are kept.
    assert_eq!(kinds(&x), vec![(0, Kind::Create), (1, Kind::Read)]);
    // The executor serves the next request: T0 writes `th` and `x` first, so T1 reads 1 and
    // returns before the process ends.
    let x = f.run(&[]);
    assert_eq!(x.end, End::Exit(0));
    assert_eq!(
        kinds(&x),
        vec![
            (0, Kind::Create),
            (0, Kind::Write),
            (0, Kind::Write),
            (1, Kind::Read),
            (1, Kind::ThreadExit),
            (0, Kind::ProcessExit)
        ]
    );
}

#[test]
fn atomics_and_copies_are_recorded_with_their_outcome() {
    let src = r#"#include <string.h>
long x;
struct S { int a[6]; } s1, s2;
int main(void) {
    long e0 = 0, e1 = 0;
    int ok1 = __atomic_compare_exchange_n(&x, &e0, 1L, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    int ok2 = __atomic_compare_exchange_n(&x, &e1, 2L, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&x, 10, __ATOMIC_SEQ_CST);
    s1 = s2;
    memset(&s2, 0, sizeof s2);
    return ok1 * 100 + ok2 * 10 + (int)x;
}
"#;
    let mut f = fixture(src);
    let x = f.run(&[]);
    assert_eq!(x.end, End::Exit(100 + 11));
    let e = &x.events;
    use Kind::*;
    assert_eq!(
        kinds(&x),
        vec![
            (0, CmpXchg), // succeeds
            (0, CmpXchg), // fails: it only reads
            (0, Rmw),
            (0, Copy),
            (0, Write), // memset
            (0, Read),  // return ... x
            (0, ProcessExit),
        ]
    );
    let xaddr = e[0].addr;
    for i in [0, 1, 2, 5] {
        assert_eq!((e[i].addr, e[i].len), (xaddr, 8), "event {i}");
    }
    // Values seen: 0 before the first cmpxchg, 1 at the failed one, 1 before the add.
    assert_eq!(
        (e[0].value, e[1].value, e[2].value, e[5].value),
        (0, 1, 1, 11)
    );
    assert!(!e[0].failed() && e[1].failed() && !e[2].failed());
    assert_ne!(e[2].flags & FLAG_ATOMIC, 0);
    // s1 = s2: 24 bytes from s2 to s1; the memset writes all of s2.
    assert_eq!((e[3].len, e[3].arg_len), (24, 24));
    assert_eq!(e[4].addr, e[3].arg);
    assert_eq!(e[4].len, 24);
    assert_ne!(e[3].addr, e[3].arg);
}

#[test]
fn trylock_succeeds_or_fails_with_ebusy() {
    let src = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int r = -1;
void *t(void *arg) {
    r = pthread_mutex_trylock(&m);
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    pthread_join(th, 0);
    return r;
}
"#;
    let mut f = fixture(src);
    // T0 holds m when T1 tries it.
    let busy = f.run(&[0, 0, 0, 1]);
    use Kind::*;
    assert_eq!(
        kinds(&busy)[..5],
        [(0, Create), (0, Write), (0, Lock), (1, TryLock), (1, Write)]
    );
    assert_ne!(busy.events[3].flags & FLAG_FAILED, 0, "the mutex was busy");
    assert_eq!(busy.events[3].addr, busy.events[2].addr);
    assert_eq!(busy.events[4].value, 16, "EBUSY is stored in r");
    assert_eq!(busy.end, End::Exit(16));
    // T1 tries first and gets the mutex; it never unlocks it, so T0's lock deadlocks.
    let got = f.run(&[0, 1]);
    assert_eq!(kinds(&got)[..3], [(0, Create), (1, TryLock), (1, Write)]);
    assert!(!got.events[1].failed());
    assert_eq!(got.events[2].value, 0);
    assert_eq!(got.end, End::Deadlock);
    assert_eq!(
        got.blocked
            .iter()
            .map(|e| (e.tid(), e.kind()))
            .collect::<Vec<_>>(),
        vec![(0, Lock)]
    );
}

#[test]
fn join_returns_the_value_of_pthread_exit() {
    let src = r#"#include <pthread.h>
int x;
void finish(void) { pthread_exit((void *)42); }
void *t(void *arg) {
    x = 1;
    finish();
    x = 2;
    return 0;
}
int main(void) {
    pthread_t th;
    void *ret = 0;
    pthread_create(&th, 0, t, 0);
    pthread_join(th, &ret);
    return (int)(long)ret + x;
}
"#;
    let mut f = fixture(src);
    let x = f.run(&[]);
    assert_eq!(x.end, End::Exit(43));
    let exit = x
        .events
        .iter()
        .find(|e| e.kind() == Kind::ThreadExit)
        .unwrap();
    assert_eq!((exit.tid(), exit.value), (1, 42));
    assert_eq!(
        f.program.sites[exit.site as usize].line,
        f.line_of("pthread_exit((void *)42)")
    );
    // x = 2 never runs.
    assert!(!x
        .events
        .iter()
        .any(|e| e.kind() == Kind::Write && e.flags & FLAG_STORE == 0 && e.value == 2));
    // The join stores the value in ret: an event of T0's.
    assert!(x
        .events
        .iter()
        .any(|e| (e.tid(), e.kind(), e.flags & FLAG_STORE, e.value)
            == (0, Kind::Write, FLAG_STORE, 42)));
}
