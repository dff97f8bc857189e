//! The command line as a user meets it: exit statuses, JSON on failures, replay.

use std::path::Path;
use std::process::{Command, Output};

fn cdpor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cdpor"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("cdpor runs")
}

/// `cdpor run ARGS --json FILE`: its output, the JSON it wrote, and FILE as `replay
/// --schedule` takes it (in a directory that lives as long as the returned guard).
fn run_to_file(args: &[&str]) -> (Output, serde_json::Value, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("result.json").to_str().unwrap().to_string();
    let out = cdpor(&[args, &["--json", &file]].concat());
    let v = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    (out, v, file, dir)
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn a_missing_file_is_bad_input_with_a_json_verdict() {
    let out = cdpor(&["run", "no/such/file.c", "--json", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let v = json(&out);
    assert_eq!(v["verdict"], "compile-error");
    assert!(v["message"].as_str().unwrap().contains("no/such/file.c"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one clear line: {stderr}");
}

#[test]
fn usage_errors_exit_with_2() {
    assert_eq!(
        cdpor(&[
            "run",
            "c-tests/basic/lost_update.c",
            "--algorithm",
            "fastest"
        ])
        .status
        .code(),
        Some(2)
    );
    assert_eq!(cdpor(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        cdpor(&["run", "c-tests/basic/lost_update.c", "--threads", "x"])
            .status
            .code(),
        Some(2)
    );
}

/// `cdpor run ARGS --json -` with `threads` workers running ahead from the first
/// execution (`CDPOR_RUN_AHEAD_US=0`: else short executions stay with one worker).
fn with_threads(args: &[&str], threads: &str) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_cdpor"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([&["run"], args, &["--threads", threads, "--json", "-"]].concat())
        .env("CDPOR_RUN_AHEAD_US", "0")
        .output()
        .expect("cdpor runs");
    json(&out)
}

#[test]
fn more_workers_give_the_answers_of_one() {
    let programs: [&[&str]; 6] = [
        &["c-tests/bench/lastzero.c", "-DN=4"],
        &["c-tests/barrier/serial.c", "-DN=4", "--keep-going", "-DBUG"],
        // The pool stops when the exploration starts again with ordered arrivals.
        &["c-tests/barrier/overflow.c", "-DBUG", "--keep-going"],
        &["c-tests/bench/readers.c", "-DN=5", "--algorithm", "source"],
        &[
            "c-tests/basic/lost_update.c",
            "--keep-going",
            "--algorithm",
            "classic",
        ],
        &["c-tests/condvar/lost_wakeup.c", "--keep-going"],
    ];
    for args in programs {
        let one = with_threads(args, "1");
        for threads in ["2", "4", "0"] {
            let more = with_threads(args, threads);
            for key in [
                "verdict",
                "executions",
                "blocked",
                "failing_executions",
                "errors",
            ] {
                assert_eq!(one[key], more[key], "{args:?} --threads {threads}: {key}");
            }
        }
        let more = with_threads(args, "4");
        assert_eq!(more["threads"], 4);
        assert!(one["executions"].as_u64().unwrap() > 1, "{args:?}");
    }
}

#[test]
fn replay_reproduces_the_reported_failure() {
    let (run, v, result, _dir) = run_to_file(&["run", "c-tests/condvar/lost_wakeup.c"]);
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(v["error"]["kind"], "deadlock");
    let replay = cdpor(&[
        "replay",
        "c-tests/condvar/lost_wakeup.c",
        "--schedule",
        &result,
    ]);
    assert_eq!(replay.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&replay.stderr);
    assert!(stderr.contains("deadlock error"), "{stderr}");
    let steps = v["error"]["trace"].as_array().unwrap().len();
    assert!(
        stderr.contains(&format!("Replayed interleaving ({steps} events)")),
        "{stderr}"
    );
    // The schedule as printed in the report, typed on the command line.
    let inline = v["error"]["schedule"].as_str().unwrap().to_string();
    let replay = cdpor(&[
        "replay",
        "c-tests/condvar/lost_wakeup.c",
        "--schedule",
        &inline,
    ]);
    assert_eq!(replay.status.code(), Some(1), "{inline}");
    assert!(String::from_utf8_lossy(&replay.stderr).contains("deadlock error"));
    // A schedule cut short is completed by the default policy: here T1 waits before T2
    // signals, so the wake-up is not lost.
    let replay = cdpor(&["replay", "c-tests/condvar/lost_wakeup.c", "--schedule", "0"]);
    let stderr = String::from_utf8_lossy(&replay.stderr);
    assert_eq!(replay.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("ends without error (the program exited with status 0)"),
        "{stderr}"
    );
}

/// A run that explored every order of arrival at a barrier (used by more threads than
/// it waits for) says so, and its schedules replay that way: from its JSON by itself, and
/// typed in with the flag its report names.
#[test]
fn replay_of_a_run_with_ordered_barriers_follows_them() {
    let prog = "c-tests/barrier/overflow.c";
    let (run, v, result, _dir) = run_to_file(&["run", prog, "-DBUG"]);
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(v["ordered_barriers"], true);
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(
        report.contains("for `cdpor replay --ordered-barriers --schedule`"),
        "{report}"
    );
    let steps = v["error"]["trace"].as_array().unwrap().len();
    let inline = v["error"]["schedule"].as_str().unwrap().to_string();
    for schedule in [&result, &inline] {
        let mut args = vec!["replay", prog, "-DBUG", "--schedule", schedule];
        if schedule == &inline {
            args.push("--ordered-barriers");
        }
        let replay = cdpor(&args);
        let stderr = String::from_utf8_lossy(&replay.stderr);
        assert_eq!(replay.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("Replayed interleaving ({steps} events)")),
            "{stderr}"
        );
    }
    let (_, v, _, _dir) = run_to_file(&["run", "c-tests/barrier/serial.c", "-DBUG"]);
    assert_eq!(v["ordered_barriers"], false);
}

#[test]
fn replay_names_threads_whose_numbers_were_used_again() {
    let file = "c-tests/threads/number_reused.c";
    let run = cdpor(&["run", file, "--json", "-"]);
    assert_eq!(run.status.code(), Some(1));
    let v = json(&run);
    // T3 runs with the number T2 had: the report names them apart.
    let trace = v["error"]["trace"].as_array().unwrap();
    let threads: Vec<&str> = trace
        .iter()
        .map(|r| r["thread"].as_str().unwrap())
        .collect();
    assert!(
        threads.contains(&"T2") && threads.contains(&"T3"),
        "{threads:?}"
    );
    let schedule = v["error"]["schedule"].as_str().unwrap().to_string();
    assert!(schedule.contains('3'), "{schedule}");
    let replay = cdpor(&["replay", file, "--schedule", &schedule]);
    let stderr = String::from_utf8_lossy(&replay.stderr);
    assert_eq!(replay.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("assertion error"), "{stderr}");
    assert!(
        stderr.contains(&format!("Replayed interleaving ({} events)", trace.len())),
        "{stderr}"
    );
    // T4 never exists: the replay says so.
    let wrong = schedule.replacen('3', "4", 1);
    let replay = cdpor(&["replay", file, "--schedule", &wrong]);
    let stderr = String::from_utf8_lossy(&replay.stderr);
    assert_eq!(replay.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("there is no thread T4"), "{stderr}");
}

#[test]
fn replay_shows_the_programs_output() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("hello.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\nint main(void) { printf(\"hello from the program\\n\"); return 0; }\n",
    )
    .unwrap();
    let schedule = dir.path().join("s.json");
    std::fs::write(&schedule, "[]").unwrap();
    let out = cdpor(&[
        "replay",
        src.to_str().unwrap(),
        "--schedule",
        schedule.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "hello from the program\n"
    );
    assert!(Path::new(&src).exists());
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let parent = |stat: &str| {
        // pid (comm) state ppid ...: comm may hold spaces, not a ')'.
        let rest = &stat[stat.rfind(')')? + 1..];
        rest.split_whitespace().nth(1)?.parse::<u32>().ok()
    };
    (std::fs::read_dir("/proc").unwrap().flatten())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
            parent(&stat) == Some(pid)
        })
        .collect()
}

fn interrupted(threads: &str) {
    // readers(24) has 2^24 traces: it runs for far longer than it takes to interrupt.
    let child = Command::new(env!("CARGO_BIN_EXE_cdpor"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "c-tests/bench/readers.c", "-DN=24", "--json", "-"])
        .args(["--threads", threads])
        .env("CDPOR_RUN_AHEAD_US", "0")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cdpor runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // Its fork servers, one per worker.
    let servers = children(child.id());
    assert!(servers.len() >= threads.parse().unwrap(), "{servers:?}");
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3), "--threads {threads}");
    let v = json(&out);
    assert_eq!(v["verdict"], "incomplete");
    assert_eq!(v["cut"], "interrupted by SIGINT");
    assert!(v["executions"].as_u64().unwrap() < 1 << 24);
    // None of them, nor their workers, is left behind.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let alive = |p: u32| {
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
        let state = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next());
        state.is_some_and(|s| s != "Z")
    };
    for s in servers {
        let workers: Vec<u32> = children(s).into_iter().filter(|&w| alive(w)).collect();
        assert!(
            !alive(s) && workers.is_empty(),
            "--threads {threads}: server {s} or its workers {workers:?} left behind"
        );
    }
}

#[test]
fn an_interrupt_ends_the_run_with_a_report() {
    interrupted("1");
}

#[test]
fn an_interrupt_stops_every_worker() {
    interrupted("4");
}

/// An execution that runs on for a minute (a loop cdpor cannot prove endless) is
/// stopped by the first SIGTERM, not waited for: the report comes at once.
#[test]
fn an_interrupt_stops_an_execution_that_runs_on() {
    let started = std::time::Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_cdpor"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "c-tests/checks/loops_forever.c", "--json", "-"])
        .args(["--exec-timeout", "60"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cdpor runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v = json(&out);
    assert_eq!(v["verdict"], "incomplete");
    assert_eq!(v["cut"], "interrupted by SIGTERM");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn replay_takes_the_alternative_a_signal_chose() {
    // Step 13 is main's signal with both threads waiting: `/2` wakes the second (T2), so
    // T1 sleeps on and main's join of it deadlocks.
    let schedule = "0,0,0,0,1,1,1,2,2,2,0,0,0/2,0";
    let replay = |s: &str| {
        let out = cdpor(&[
            "replay",
            "c-tests/boundary/signal_wakes_one.c",
            "--schedule",
            s,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stderr)
    };
    let (code, stderr) = replay(schedule);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("cond signal, wakes T2 (choice 2 of 2)"),
        "{stderr}"
    );
    assert!(stderr.contains("T0 waits to join T1"), "{stderr}");
    // The first alternative wakes T1 instead: main then waits for T2.
    let (_, stderr) = replay(&schedule.replace("0/2", "0"));
    assert!(
        stderr.contains("cond signal, wakes T1 (choice 1 of 2)"),
        "{stderr}"
    );
    assert!(stderr.contains("T0 waits to join T2"), "{stderr}");
    // An alternative the operation does not have is an error, not a guess.
    for s in [schedule.replace("0/2", "0/3"), "0/2".to_string()] {
        let (code, stderr) = replay(&s);
        assert_eq!(code, Some(2), "{s}: {stderr}");
        assert!(stderr.contains("alternative"), "{stderr}");
    }
}

/// clang-19 as cdpor finds it, to build inputs the way a user's own build would.
fn clang() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("CDPOR_CLANG") {
        return p.into();
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join("clang-19"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| "/usr/lib/llvm-19/bin/clang".into())
}

#[test]
fn bitcode_and_ir_from_the_users_build_link_with_c_files() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("counter.ll");
    let bc = dir.path().join("worker.bc");
    for (src, out, flag) in [
        ("c-tests/multi/counter.c", &ll, "-S"),
        ("c-tests/multi/worker.c", &bc, "-c"),
    ] {
        // -O0 marks functions optnone: cdpor must look through that.
        let st = Command::new(clang())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["-O0", "-g", "-emit-llvm", flag, "-DUNLOCKED", src, "-o"])
            .arg(out)
            .status()
            .expect("clang runs");
        assert!(st.success());
    }
    let out = cdpor(&[
        "run",
        "c-tests/multi/main.c",
        ll.to_str().unwrap(),
        bc.to_str().unwrap(),
        "--keep-going",
        "--json",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["executions"], 4);
    assert_eq!(v["failing_executions"], 2);
    assert_eq!(v["error"]["kind"], "assertion");

    let bad = dir.path().join("bad.ll");
    std::fs::write(&bad, "this is not IR\n").unwrap();
    let out = cdpor(&["run", "c-tests/multi/main.c", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.ll is not LLVM 19 IR"), "{stderr}");
}

#[test]
fn replay_reproduces_what_a_probe_found() {
    let (run, v, result, _dir) = run_to_file(&[
        "run",
        "c-tests/svcomp/pingpong.c",
        "--probes",
        "64",
        "--max-executions",
        "10",
    ]);
    assert_eq!(run.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("found in probe"), "{stdout}");
    assert_eq!(v["error"]["kind"], "assertion");
    assert!(v["probes"].as_u64().unwrap() >= 1, "{v}");
    let replay = cdpor(&["replay", "c-tests/svcomp/pingpong.c", "--schedule", &result]);
    assert_eq!(replay.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&replay.stderr);
    assert!(stderr.contains("assertion error"), "{stderr}");
}

#[test]
fn replay_with_races_shows_the_reported_race() {
    let (run, v, result, _dir) = run_to_file(&["run", "--races", "c-tests/races/counters.c"]);
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(v["error"]["kind"], "data-race");
    let replay = cdpor(&[
        "replay",
        "--races",
        "c-tests/races/counters.c",
        "--schedule",
        &result,
    ]);
    assert_eq!(replay.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&replay.stderr);
    let message = v["error"]["message"].as_str().unwrap();
    assert!(stderr.contains(message), "{message} not in {stderr}");
}

#[test]
fn a_cut_run_that_found_an_error_says_its_counts_are_partial() {
    // 255 of its 256 executions, the failing one among them: an error, and partial
    // counts.
    let out = cdpor(&[
        "run",
        "c-tests/svcomp/nondet_char.c",
        "--svcomp",
        "--keep-going",
        "--max-executions",
        "255",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("verdict: error"), "{stdout}");
    assert!(
        stdout.contains("exploration incomplete: stopped at --max-executions 255"),
        "{stdout}"
    );
}

#[test]
fn a_deadlock_report_shows_the_cycle_of_waits_and_where_each_lock_was_taken() {
    let text = |out: &Output| {
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)
    };
    let out = cdpor(&["run", "c-tests/checks/deadlock_ab.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains(
            "Cycle: T1 wants b, held by T2 since c-tests/checks/deadlock_ab.c:31 \
             -> T2 wants a, held by T1 since c-tests/checks/deadlock_ab.c:22 -> back to T1"
        ),
        "{}",
        text(&out)
    );
    // Threads are named by the function they started in.
    let out = cdpor(&["run", "c-tests/checks/deadlock_cycle3.c"]);
    assert!(
        text(&out).contains("Threads: T0 main, T1 philosopher, T2 philosopher, T3 philosopher"),
        "{}",
        text(&out)
    );
    // A join is a wait for the joined thread.
    let out = cdpor(&["run", "c-tests/checks/join_holding_lock.c"]);
    assert!(
        text(&out).contains(
            "Cycle: T0 waits to join T1 -> T1 wants m, held by T0 since \
             c-tests/checks/join_holding_lock.c:31 -> back to T0"
        ),
        "{}",
        text(&out)
    );
    // A lost wake-up is no cycle: the waiter waits for a signal, not for a thread. The
    // signal that went nowhere is shown.
    let out = cdpor(&["run", "c-tests/condvar/lost_wakeup.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out).contains("Cycle:"), "{}", text(&out));
    assert!(
        text(&out).contains(
            "Lost wake-up: T2 signalled c at c-tests/condvar/lost_wakeup.c:38 (step 8) \
             before T1 waited on it (step 10): the signal woke no thread."
        ),
        "{}",
        text(&out)
    );
}

#[test]
fn colours_reach_a_terminal_only() {
    let plain = cdpor(&["run", "c-tests/basic/lost_update.c"]);
    let text = String::from_utf8_lossy(&plain.stdout).to_string();
    assert!(
        text.contains("verdict: error") && !text.contains('\x1b'),
        "{text}"
    );
    // As on a terminal (`CLICOLOR_FORCE`): the error and the verdict in red.
    let forced = Command::new(env!("CARGO_BIN_EXE_cdpor"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "c-tests/basic/lost_update.c"])
        .env("CLICOLOR_FORCE", "1")
        .env_remove("NO_COLOR")
        .output()
        .expect("cdpor runs");
    let text = String::from_utf8_lossy(&forced.stdout);
    assert!(
        text.contains("\x1b[1m\x1b[31mverdict: error\x1b[0m"),
        "{text:?}"
    );
}

/// `--sarif` writes a log that the SARIF 2.1.0 schema (OASIS, `tests/data`, as published
/// in the sarif-spec repository) accepts: each distinct error a result at its location,
/// with the interleaving as thread flows.
#[test]
fn sarif_output_validates_against_the_schema() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("data/sarif-schema-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    // It refuses what is not SARIF 2.1.0.
    let wrong = serde_json::json!({ "version": "2.1.0", "runs": [{ "results": [] }] });
    assert!(!validator.is_valid(&wrong), "a run needs its tool");
    for (program, kinds) in [
        ("c-tests/checks/deadlock_ab.c", vec!["deadlock"]),
        ("c-tests/basic/lost_update.c", vec!["assertion"]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("out.sarif");
        let out = cdpor(&[
            "run",
            program,
            "--keep-going",
            "--sarif",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1));
        let log: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{program}: {errors:?}");
        let results = log["runs"][0]["results"].as_array().unwrap();
        let got: Vec<&str> = results
            .iter()
            .map(|r| r["ruleId"].as_str().unwrap())
            .collect();
        assert_eq!(got, kinds, "{program}");
        let flows = results[0]["codeFlows"][0]["threadFlows"]
            .as_array()
            .unwrap();
        assert!(flows.len() >= 2, "{program}: one thread flow per thread");
        let uri = &results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        assert_eq!(uri, program);
    }
    // A safe run is a log without results.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.sarif");
    let out = cdpor(&[
        "run",
        "c-tests/checks/trylock_failed_commute.c",
        "--sarif",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(validator.is_valid(&log));
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}

/// A long interleaving shows what matters and folds the rest; `--full-trace` shows all.
#[test]
fn long_interleavings_are_folded_unless_full_trace() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.c");
    std::fs::write(
        &file,
        "#include <pthread.h>\n#include <assert.h>\nint x, z[64];\n\
         void *worker(void *a) { for (int i = 0; i < 60; i++) z[i] = i; x = x + 1; return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, worker, 0);\n\
         x = x + 1; pthread_join(t, 0); assert(x == 2); return 0; }\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = cdpor(&["run", path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("steps of T1 in worker() …"), "{text}");
    let out = cdpor(&["run", path, "--full-trace"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('…'), "{text}");
    let rows = text.lines().filter(|l| l.contains("long.c:4")).count();
    assert!(rows >= 30, "{text}");
}

/// Globals are named as the source names their parts: fields, elements, nested.
#[test]
fn reports_name_struct_fields_and_array_elements() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fields.c");
    std::fs::write(
        &file,
        "#include <pthread.h>\n#include <assert.h>\n\
         struct job { int id; int state; char name[6]; };\nstruct job jobs[4];\n\
         struct { int a; struct { short b; short c[3]; } in; } nested;\nint plain[3][2];\n\
         void *w(void *a) { jobs[2].state = 1; nested.in.c[1] = 2; plain[1][1] = 3; return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, w, 0);\n\
         int s = jobs[2].state + nested.in.c[1] + plain[1][1];\n\
         pthread_join(t, 0); assert(s == 0); return 0; }\n",
    )
    .unwrap();
    let out = cdpor(&["run", file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    for name in ["jobs[2].state", "nested.in.c[1]", "plain[1][1]"] {
        assert!(text.contains(name), "{name}: {text}");
    }
}
