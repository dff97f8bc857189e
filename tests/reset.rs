//! In-place reset (`runtime/src/worker.rs`): a worker that runs execution after execution
//! must give each the process a fresh worker would have. Each test runs schedules of a
//! small program with both reset modes and compares what the executions did; the in-place
//! worker also checks after each reset that nothing the program can see differs from the
//! state before the first execution (`verify_reset`).

use std::time::Duration;

use cdpor::engine::Request;
use cdpor::executor::{End, ExecOptions, Execution, Executor, FellBack, Placement, Reset};
use cdpor::program::{build, BuildOptions, Program};
use cdpor_sched::shm::Fallback;
use cdpor_sched::{Step, Tid};

fn program(src: &str) -> (tempfile::TempDir, Program) {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("prog.c");
    std::fs::write(&source, src).unwrap();
    let program = build(&BuildOptions {
        sources: vec![source],
        ..BuildOptions::default()
    })
    .unwrap_or_else(|e| panic!("build failed: {e}"));
    (dir, program)
}

fn executor(program: &Program, reset: Reset) -> Executor {
    Executor::start(
        &program.binary,
        &ExecOptions {
            max_steps: 5000,
            timeout: Duration::from_secs(10),
            show_output: false,
            cpu: Placement::Sleeping,
            reset,
            verify_reset: true,
            run: Default::default(),
        },
    )
    .unwrap()
}

fn run(exec: &mut Executor, schedule: &[Tid]) -> Execution {
    let req = Request {
        schedule: schedule
            .iter()
            .map(|&tid| Step { tid, choice: 0 })
            .collect(),
        sleep: Vec::new(),
        sleep_from: 0,
    };
    exec.run(&req, 5000, None).unwrap()
}

/// What an execution did, to compare across reset modes: its events and its end.
fn outcome(x: &Execution) -> String {
    format!("{:?} -> {:?}", x.events, x.end)
}

/// Runs each schedule, twice over, in one in-place worker and with a worker per
/// execution; the executions must be the same. Returns the in-place executor and the
/// executions.
fn same_in_both_modes(src: &str, schedules: &[&[Tid]]) -> (Executor, Vec<Execution>) {
    let (_dir, p) = program(src);
    let mut inplace = executor(&p, Reset::InPlace);
    let mut fork = executor(&p, Reset::Fork);
    let mut runs = Vec::new();
    for round in 0..2 {
        for (i, s) in schedules.iter().enumerate() {
            let a = run(&mut inplace, s);
            let b = run(&mut fork, s);
            assert_eq!(
                outcome(&a),
                outcome(&b),
                "schedule {i} (round {round}): in place and forked differ"
            );
            runs.push(a);
        }
    }
    (inplace, runs)
}

/// Touches each kind of state an execution can change, and returns what it saw of it
/// before changing it: all must look fresh in every execution.
const STATE: &str = r#"#include <errno.h>
#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

int counter;
int *shared;
__thread int tls_counter = 7;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static char text[] = "a,b,c";
static int handlers;

static void at_end(void) { handlers++; }
static void init(void) { once_runs++; }
static void destroy(void *p) { (void)p; }

/* A local it never writes: a fresh stack reads zero. */
static int deep(int n) {
    volatile int unset[512];
    int seen = unset[n % 512];
    unset[(n + 1) % 512] = n + 1;
    return n > 0 ? seen + deep(n - 1) : seen;
}

void *worker(void *arg) {
    (void)arg;
    pthread_setspecific(key, &counter);
    tls_counter++;
    counter++;
    return 0;
}

int main(void) {
    int bad = 0;
    bad |= counter != 0;
    bad |= tls_counter != 7;
    bad |= once_runs != 0;
    bad |= errno != 0;
    bad |= fegetround() != FE_TONEAREST;
    bad |= deep(64) != 0;
    bad |= (rand() != 1804289383) << 1;
    bad |= (strcmp(strtok(text, ","), "a") != 0) << 2;
    unsigned char r[8];
    getrandom(r, sizeof r, 0);
    static unsigned char first[8];
    static int have_first;
    if (have_first)
        bad |= (memcmp(r, first, 8) != 0) << 3;
    memcpy(first, r, 8);
    have_first = 1;
    time_t t = 0;
    bad |= (localtime(&t)->tm_year != 70) << 4;
    shared = malloc(64);
    bad |= (shared[3] != 0) << 5;
    shared[3] = 42;
    pthread_key_create(&key, destroy);
    pthread_once(&once, init);
    atexit(at_end);
    printf("counter %d\n", counter);
    errno = EINTR;
    fesetround(FE_UPWARD);
    pthread_t th;
    pthread_create(&th, 0, worker, 0);
    counter += 10;
    tls_counter += 10;
    pthread_join(th, 0);
    return bad;
}
"#;

/// The threads of `x`'s events up to its first creation, then the created thread.
fn child_first(x: &Execution) -> Vec<Tid> {
    let create = x
        .events
        .iter()
        .position(|e| e.kind() == cdpor_sched::Kind::Create)
        .expect("a creation");
    let mut s: Vec<Tid> = x.events[..=create].iter().map(|e| e.tid()).collect();
    s.push(x.events[create].aux);
    s
}

#[test]
fn every_execution_finds_the_state_a_fresh_process_has() {
    let (_dir, p) = program(STATE);
    let first = run(&mut executor(&p, Reset::Fork), &[]);
    let other = child_first(&first);
    let (exec, runs) = same_in_both_modes(STATE, &[&[], &other]);
    for x in &runs {
        assert_eq!(x.end, End::Exit(0), "{:?}", x.events);
    }
    assert_eq!(exec.fell_back(), None);
    // One worker served them all.
    assert_eq!(exec.replaced(), [0; 4]);
    assert_eq!(exec.timing().1, 1);
}

#[test]
fn a_call_that_changes_what_no_reset_undoes_falls_back_to_forking() {
    let src = r#"#include <stdio.h>
int seen;
int main(void) {
    seen++;
    FILE *f = fopen("/dev/null", "r");
    if (f)
        fclose(f);
    return seen;
}
"#;
    let (exec, runs) = same_in_both_modes(src, &[&[]]);
    for x in &runs {
        assert_eq!(x.end, End::Exit(1));
    }
    let f: FellBack = exec.fell_back().expect("a fallback");
    assert_eq!((f.why, f.what.as_str()), (Fallback::Call, "fopen"));
    // A worker per execution since, and the next one waiting.
    assert_eq!(workers_forked(&exec, 3), 3);
}

/// The workers the server has forked, once it has forked `expected` or a while has
/// passed: the server forks the next worker once it has reaped the last one, a moment
/// after that one's answer came.
fn workers_forked(exec: &Executor, expected: u32) -> u32 {
    let since = std::time::Instant::now();
    while exec.timing().1 < expected && since.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    exec.timing().1
}

#[test]
fn a_worker_that_cannot_reset_is_replaced() {
    // A crash may leave anything half done; the C library's allocator (setenv) keeps its
    // bookkeeping where no reset reaches it: a fresh worker takes over, in place again.
    let src = r#"#include <pthread.h>
#include <stdlib.h>
int *p;
int done;
void *crash(void *arg) {
    (void)arg;
    if (!done)
        *p = 1;
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, crash, 0);
    done = 1;
    setenv("CDPOR_TEST", "1", 1);
    pthread_join(th, 0);
    return 0;
}
"#;
    let (exec, runs) = same_in_both_modes(src, &[&[0, 0, 1], &[0, 0, 0, 0]]);
    assert!(
        matches!(runs[0].end, End::Crash { .. }),
        "{:?}",
        runs[0].end
    );
    assert_eq!(runs[1].end, End::Exit(0));
    assert_eq!(exec.fell_back(), None);
    // Each execution replaced its worker (a crash, then setenv), and one more waits.
    assert_eq!(workers_forked(&exec, 5), 5);
}

#[test]
fn a_thread_number_used_again_finds_fresh_stack_and_thread_locals() {
    // Main joins each child before it creates the next, whose number (and stack slot)
    // the joined one gives up; each of the first four lives of a number starts its stack
    // and its thread-local block elsewhere (`layout::LIVES`).
    let src = r#"#include <pthread.h>
__thread int mine;
static int deep(int n) {
    volatile int unset[1024];
    int seen = unset[n % 1024];
    unset[(n * 7) % 1024] = n + 1;
    return n > 0 ? seen + deep(n - 1) : seen;
}
void *child(void *arg) {
    int bad = mine != 0 || deep(40) != 0;
    mine = (int)(long)arg;
    return (void *)(long)bad;
}
int main(void) {
    int bad = 0;
    for (long i = 1; i <= 4; i++) {
        pthread_t th;
        void *r;
        pthread_create(&th, 0, child, (void *)i);
        pthread_join(th, &r);
        bad += (int)(long)r;
    }
    return bad;
}
"#;
    let (exec, runs) = same_in_both_modes(src, &[&[]]);
    for x in &runs {
        assert_eq!(x.end, End::Exit(0), "{:?}", x.events);
    }
    assert_eq!(exec.fell_back(), None);
}
