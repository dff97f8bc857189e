use std::io::Write;
use std::path::PathBuf;

// What cdpor prints goes to whoever reads it; a reader that went away (`cdpor ... | head`)
// is no reason to fail: write errors are ignored.
// Through `anstream`: the report's colours reach a terminal only (not with `NO_COLOR`).
macro_rules! say_out {
    ($($arg:tt)*) => {{
        let _ = write!(anstream::stdout(), $($arg)*);
    }};
}
macro_rules! say_err {
    ($($arg:tt)*) => {{
        let _ = writeln!(anstream::stderr(), $($arg)*);
    }};
}
macro_rules! say_err_raw {
    ($($arg:tt)*) => {{
        let _ = write!(anstream::stderr(), $($arg)*);
    }};
}
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use cdpor::engine::Algorithm;
use cdpor::executor::Reset;
use cdpor::explore::{self, Cut, Fatal, Found};
use cdpor::program::{self, BuildError, BuildOptions, Program};
use cdpor::report::{self, Namer, EXIT_USAGE};
use cdpor::schedule::{self, Parsed};
use cdpor::symbols::Symbols;

#[derive(Parser)]
#[command(
    name = "cdpor",
    version,
    about = "Model checker for multithreaded C programs (dynamic partial order reduction)"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Explore the interleavings of a C program and report assertion failures, deadlocks and crashes.
    Run(RunArgs),
    /// Re-run one schedule (from `--json` output or a list of thread numbers) and show the program's output.
    Replay(ReplayArgs),
}

#[derive(Args, Clone)]
struct BuildArgs {
    /// The program: C files (compiled with the same flags), or LLVM bitcode or IR files
    /// (`.bc`, `.ll`) from the program's own build, linked together.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Define a macro for the compiler (NAME or NAME=VALUE).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Add a directory to the include path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Pass an extra flag to clang (repeatable), e.g. --clang-arg=-std=c11.
    #[arg(long = "clang-arg", value_name = "FLAG", allow_hyphen_values = true)]
    clang_arg: Vec<String>,
    /// Bound on visible events per execution; longer executions are cut and the verdict says so.
    #[arg(long, default_value_t = 20_000)]
    max_steps: usize,
    /// Seconds one execution may run before it is declared hung: it is cut there, and
    /// the run ends on it (exit 2) unless another execution finds an error.
    #[arg(long, default_value_t = 10.0)]
    exec_timeout: f64,
    /// SV-COMP conventions: abort() and a false __VERIFIER_assume end an execution
    /// silently, a deadlock is no error, at most 16 threads by default; prints the SV-COMP
    /// verdict too.
    #[arg(long)]
    svcomp: bool,
    /// Threads one execution may create besides main; executions that would create more
    /// are cut (verdict incomplete). Default: 16 with --svcomp (after a first round of
    /// 4, unless --unroll or --keep-going is given), else no bound but that of 511
    /// threads created and not joined at once.
    #[arg(long, value_name = "N")]
    max_threads: Option<u32>,
    /// The values a __VERIFIER_nondet_* of a type wider than 8 bits takes (bool and char
    /// types take all theirs); a run that leaves values out is incomplete.
    #[arg(long, value_name = "LO..HI", default_value = "-1..3", value_parser = parse_range, allow_hyphen_values = true)]
    nondet_range: (i64, i64),
    /// A loop that has run more than N iterations with an effect while other threads are
    /// alive stops its thread there, and the execution counts as cut (verdict
    /// incomplete); N iterations in a row that touched only what no other thread had
    /// touched before them, reading only what they wrote, do not count (in a loop that can
    /// be left). Loops that only wait are not bounded: they stop their thread, and the loop
    /// runs again in the executions where another thread changed what they read first.
    /// Default: 100 (under --svcomp, unless --max-threads or --keep-going is given, after a
    /// first round of 3 with --max-threads 4).
    #[arg(long, value_name = "N")]
    unroll: Option<u32>,
    /// Condition waits end only when signalled (POSIX lets them end without a signal,
    /// which cdpor explores by default).
    #[arg(long)]
    no_spurious_wakeups: bool,
    /// Report data races: accesses of different threads to the same bytes, one a write
    /// and one not atomic, that no synchronization orders.
    #[arg(long)]
    races: bool,
    /// Explore every failed try of a retry loop (the oracle of that reduction, for tests).
    #[arg(long, hide = true)]
    all_retries: bool,
    /// End the execution at a false assumption (the oracle of stopping the thread
    /// there, for tests).
    #[arg(long, hide = true)]
    assume_ends: bool,
    /// Explore every order in which threads arrive at a barrier. cdpor does so by itself
    /// when more threads use a barrier than it waits for; a schedule from such a run
    /// replays with it.
    #[arg(long)]
    ordered_barriers: bool,
}

fn parse_range(s: &str) -> Result<(i64, i64), String> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| format!("`{s}` is not a range LO..HI"))?;
    let num = |x: &str| {
        x.trim()
            .parse::<i64>()
            .map_err(|_| format!("`{x}` is not a number"))
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo > hi {
        return Err(format!("the range {lo}..{hi} is empty"));
    }
    if (hi as i128 - lo as i128) >= cdpor_sched::ops::nondet::MAX_CHOICES as i128 {
        return Err(format!(
            "the range {lo}..{hi} has more than {} values",
            cdpor_sched::ops::nondet::MAX_CHOICES
        ));
    }
    Ok((lo, hi))
}

impl BuildArgs {
    fn run_options(&self) -> cdpor::executor::RunOptions {
        cdpor::executor::RunOptions {
            svcomp: self.svcomp,
            max_threads: self.max_threads.unwrap_or(if self.svcomp {
                SVCOMP_MAX_THREADS
            } else {
                u32::MAX
            }),
            nondet: self.nondet_range,
            unroll: self.unroll.unwrap_or(cdpor::executor::DEFAULT_UNROLL),
            spurious_wakeups: !self.no_spurious_wakeups,
            races: self.races,
            retry_reduction: !self.all_retries,
            ordered_barriers: self.ordered_barriers,
            assume_waits: !self.assume_ends,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum AlgorithmArg {
    Optimal,
    Source,
    Classic,
    None,
}

#[derive(Clone, Copy, ValueEnum)]
enum ResetArg {
    Inplace,
    Fork,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    build: BuildArgs,
    /// Workers running executions at once (0: one per CPU).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Exploration algorithm.
    #[arg(long, value_enum, default_value = "optimal")]
    algorithm: AlgorithmArg,
    /// How a worker process gets back to the program's initial state between two
    /// executions: `inplace` puts back what an execution changed (and falls back to
    /// `fork` for the rest of the run when the program changes what cannot be put back,
    /// such as a file), `fork` forks a fresh worker for every execution.
    #[arg(long, value_enum, default_value = "inplace")]
    reset: ResetArg,
    /// Write the result as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE|-")]
    json: Option<String>,
    /// Show every step of a failing interleaving (by default, a long one shows each
    /// thread's last steps, the steps in conflict with them and the error's, and folds
    /// the others).
    #[arg(long)]
    full_trace: bool,
    /// Write the errors as SARIF 2.1.0 to FILE (for code scanning and editors).
    #[arg(long, value_name = "FILE")]
    sarif: Option<String>,
    /// Keep exploring after an error, and count failing executions.
    #[arg(long, conflicts_with = "stop_on_first_error")]
    keep_going: bool,
    /// Stop at the first error (the default).
    #[arg(long)]
    stop_on_first_error: bool,
    /// Stop after this many executions (verdict incomplete).
    #[arg(long)]
    max_executions: Option<u64>,
    /// Stop after this many seconds from the start, compiling included (verdict
    /// incomplete). Default: none, except 50 with --svcomp, so that a task ends within
    /// the 60 seconds SV-COMP gives it.
    #[arg(long)]
    time_limit: Option<f64>,
    /// Before exploring, run N probe executions (fixed patterns: main first for a while,
    /// then the other threads in turn or one after another; and random walks; the end of
    /// the program last), which find some deep bugs at once; they prove nothing. Default:
    /// 0, except 4096 with --svcomp (with --unroll 100 and --max-threads 64 unless
    /// given; 256 before a first round, the rest before the next).
    #[arg(long, value_name = "N")]
    probes: Option<u32>,
}

/// `--probes` under `--svcomp` unless given.
const SVCOMP_PROBES: u32 = 4096;

/// The bound on threads of probes under `--svcomp` unless `--max-threads` is given: a
/// probe that creates many threads is one cheap execution.
const SVCOMP_PROBE_MAX_THREADS: u32 = 64;

/// The time limit under `--svcomp` unless given.
const SVCOMP_TIME_LIMIT: f64 = 50.0;

/// `--max-threads` under `--svcomp` unless given.
const SVCOMP_MAX_THREADS: u32 = 16;

/// Under `--svcomp` with neither bound given: a fifth of the time with small bounds
/// first (most bugs of the benchmarks need few iterations and threads), then the
/// defaults.
const SVCOMP_ROUNDS: [explore::Round; 2] = [
    explore::Round {
        unroll: 3,
        max_threads: 4,
        share: 0.2,
    },
    explore::Round {
        unroll: cdpor::executor::DEFAULT_UNROLL,
        max_threads: SVCOMP_MAX_THREADS,
        share: 1.0,
    },
];

#[derive(Args)]
struct ReplayArgs {
    #[command(flatten)]
    build: BuildArgs,
    /// A JSON file written by `cdpor run --json` (its error's schedule is used), or a
    /// schedule as reports print it: `0,1,1.1,2/1` (threads by name; `/N`: the
    /// alternative an operation took).
    #[arg(long)]
    schedule: String,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    say_err!("cdpor: {msg}");
    ExitCode::from(EXIT_USAGE as u8)
}

/// The JSON object of a run that reached no verdict on the program (with the counts and
/// lists of a full report, empty, so that readers find the same keys).
#[derive(serde::Serialize)]
struct NoVerdict<'a> {
    verdict: &'a str,
    message: &'a str,
    algorithm: &'a str,
    threads: usize,
    executions: u64,
    blocked: u64,
    failing_executions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    svcomp: Option<&'a str>,
    errors: [(); 0],
    warnings: [(); 0],
}

/// Reports a failure (exit 2) after `executions`, as JSON too when asked.
fn fail_json(
    json_out: Option<&str>,
    verdict: &str,
    message: String,
    executions: u64,
    algorithm: Algorithm,
    threads: usize,
    svcomp: bool,
) -> ExitCode {
    if let Some(dest) = json_out {
        let v = NoVerdict {
            verdict,
            message: &message,
            algorithm: algorithm.name(),
            threads,
            executions,
            blocked: 0,
            failing_executions: 0,
            svcomp: svcomp.then_some("UNKNOWN"),
            errors: [],
            warnings: [],
        };
        if let Err(m) = write_json(dest, &v) {
            return fail(m);
        }
    }
    fail(message)
}

fn build(args: &BuildArgs) -> Result<Program, BuildError> {
    program::build(&BuildOptions {
        sources: args.files.clone(),
        defines: args.define.clone(),
        includes: args.include.clone(),
        clang_args: args.clang_arg.clone(),
    })
}

fn timeout(secs: f64) -> Duration {
    Duration::from_secs_f64(secs.clamp(0.001, 1e6))
}

fn write_json(dest: &str, value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).expect("reports serialize") + "\n";
    if dest == "-" {
        say_out!("{text}");
        Ok(())
    } else {
        std::fs::write(dest, text).map_err(|e| format!("cannot write {dest}: {e}"))
    }
}

fn fatal_message(f: &Fatal, namer: &Namer) -> String {
    match f {
        Fatal::Nondeterministic(m) | Fatal::Server(m) => m.clone(),
        Fatal::Start(e) => format!("cannot start the program: {e}"),
        Fatal::BarrierOverflow => "a barrier was used by more threads than it waits for".into(),
        Fatal::Unsupported { what, site } => {
            let at = namer.location(*site);
            if at.is_empty() {
                what.clone()
            } else {
                format!("{what} (at {at})")
            }
        }
        Fatal::Hang {
            execution,
            thread,
            last,
            timeout,
            syscall,
            others,
            explored,
            gave_up,
        } => {
            let thread = thread.trim_start_matches('T');
            let after = match last {
                &Some(site) if !namer.location(site).is_empty() => {
                    format!("after its visible operation at {}", namer.location(site))
                }
                Some(_) => "after its last visible operation".to_string(),
                None => "since it started".to_string(),
            };
            match syscall.map(cdpor::syscall::name) {
                Some(call) => format!(
                    "execution {execution}: thread T{thread} blocked in the system call `{call}` {after}; it waits for something cdpor does not model (I/O between the program's threads, input, another process), and cdpor runs one thread at a time"
                ),
                None => {
                    let more = match others {
                        0 => String::new(),
                        1 if *explored == 2 => "; so did the other execution explored".into(),
                        n if n + 1 == *explored => {
                            format!("; so did the {n} other executions explored")
                        }
                        n => format!(
                            "; so did {n} more of the {explored} executions explored, and no error was found in the others"
                        ),
                    };
                    let more = if *gave_up {
                        more + ", until those that hung had taken --exec-timeout again, when cdpor gave up"
                    } else {
                        more
                    };
                    format!(
                        "execution {execution} did not finish within {:.1} s: thread T{thread} ran without a visible operation {after}; it may loop forever (or needs a larger --exec-timeout){more}",
                        timeout.as_secs_f64()
                    )
                }
            }
        }
    }
}

fn run(mut args: RunArgs) -> ExitCode {
    // The time limit is the whole run's, compiling included (SV-COMP gives a task a
    // number of seconds for everything).
    let started = std::time::Instant::now();
    let algorithm = match args.algorithm {
        AlgorithmArg::Optimal => Algorithm::Optimal,
        AlgorithmArg::Source => Algorithm::Source,
        AlgorithmArg::Classic => Algorithm::Classic,
        AlgorithmArg::None => Algorithm::None,
    };
    if args.threads == 0 {
        args.threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    }
    let json_out = args.json.as_deref();
    let quiet = json_out == Some("-");
    let program = match build(&args.build) {
        Ok(p) => p,
        Err(e) => {
            // A ^C or SIGTERM reaches clang and the linker too: their failure is not the
            // program's.
            let (verdict, message) = match cdpor::interrupt::requested() {
                Some(sig) => (
                    "unknown",
                    format!("interrupted (signal {sig}) while building the program"),
                ),
                None if e.is_compile_error() => ("compile-error", e.to_string()),
                None => ("unknown", e.to_string()),
            };
            return fail_json(
                json_out,
                verdict,
                message,
                0,
                algorithm,
                args.threads,
                args.build.svcomp,
            );
        }
    };
    for w in &program.warnings {
        say_err!("cdpor: warning: {w}");
    }
    let symbols = Symbols::load(&program.binary, program.arrays.clone(), program.tls.clone());
    let namer = Namer {
        sites: &program.sites,
        symbols: &symbols,
    };
    let time_limit = (args.time_limit)
        .or(args.build.svcomp.then_some(SVCOMP_TIME_LIMIT))
        .map(timeout);
    let opts = explore::Options {
        algorithm,
        keep_going: args.keep_going,
        max_steps: args.build.max_steps,
        max_executions: args.max_executions,
        time_limit: time_limit.map(|l| {
            l.saturating_sub(started.elapsed())
                .max(Duration::from_millis(1))
        }),
        exec_timeout: timeout(args.build.exec_timeout),
        progress: !quiet,
        run: args.build.run_options(),
        reset: match args.reset {
            ResetArg::Inplace => Reset::InPlace,
            ResetArg::Fork => Reset::Fork,
        },
        probes: explore::Probes {
            count: (args.probes).unwrap_or(if args.build.svcomp { SVCOMP_PROBES } else { 0 }),
            unroll: args.build.unroll.unwrap_or(cdpor::executor::DEFAULT_UNROLL),
            max_threads: args.build.max_threads.unwrap_or(if args.build.svcomp {
                SVCOMP_PROBE_MAX_THREADS
            } else {
                u32::MAX
            }),
            from: 0,
            time: None,
        },
        threads: args.threads,
        // For tests: `CDPOR_RUN_AHEAD_US=0` runs ahead from the first execution.
        run_ahead_from: (std::env::var("CDPOR_RUN_AHEAD_US").ok())
            .and_then(|v| v.parse().ok())
            .map(Duration::from_micros),
    };
    let b = &args.build;
    // Rounds find a first error sooner; --keep-going wants every error and whole counts,
    // which only the final bounds give.
    let rounds = b.svcomp && b.unroll.is_none() && b.max_threads.is_none() && !args.keep_going;
    let explored = if rounds {
        explore::explore_in_rounds(&program, &opts, &SVCOMP_ROUNDS)
    } else {
        explore::explore(&program, &opts)
    };
    let summary = match explored {
        // The cut names the limit the user gave.
        Ok(mut s) => {
            if let (Some(Cut::TimeLimit(_)), Some(l)) = (&s.cut, time_limit) {
                s.cut = Some(Cut::TimeLimit(l));
            }
            s
        }
        Err(f) => {
            // Only a hang stops the run with a count of what was explored.
            let executions = match f {
                Fatal::Hang { explored, .. } => explored,
                _ => 0,
            };
            return fail_json(
                json_out,
                "unknown",
                fatal_message(&f, &namer),
                executions,
                algorithm,
                args.threads,
                args.build.svcomp,
            );
        }
    };
    let (_, code) = report::verdict(&summary);
    if let (Some(f), false) = (&summary.workers.fell_back, quiet) {
        let at = namer.location(f.site);
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" (at {at})")
        };
        say_err!("cdpor: note: {}{at}", report::fallback_text(f));
    }
    if let Some(dest) = json_out {
        let mut v = serde_json::to_value(report::json(
            &namer,
            &summary,
            algorithm.name(),
            args.threads,
            &program.warnings,
        ))
        .expect("report serializes");
        if args.build.svcomp {
            v["svcomp"] = report::svcomp_verdict(&summary).into();
        }
        if let Err(m) = write_json(dest, &v) {
            return fail(m);
        }
    }
    if let Some(dest) = args.sarif.as_deref() {
        if let Err(m) = write_json(dest, &cdpor::sarif::log(&namer, &summary)) {
            return fail(m);
        }
    }
    if !quiet {
        say_out!(
            "{}",
            report::human(&namer, &summary, algorithm.name(), args.full_trace)
        );
        if args.build.svcomp {
            say_out!("SV-COMP verdict: {}\n", report::svcomp_verdict(&summary));
        }
    }
    let aborts = summary
        .errors
        .iter()
        .any(|f| f.kind == explore::ErrorKind::Abort);
    if aborts && program.verifier_api && !args.build.svcomp && !quiet {
        say_err!("cdpor: note: this program uses the SV-COMP verifier API; with --svcomp, abort() ends an execution silently instead of being an error");
    }
    ExitCode::from(code as u8)
}

/// The schedule `--schedule` names: inline text, or a file holding `cdpor run --json`
/// output, the schedule text, or a JSON list of steps.
/// The schedule `arg` names, and whether it comes from a run that explored every order
/// of arrival at barriers (a `--json` report says so), which its replay needs too.
fn read_schedule(arg: &str) -> Result<(Parsed, bool), String> {
    if !std::path::Path::new(arg).exists() {
        // Schedules are digits, dots, commas, slashes and stars: anything else was
        // meant as a file.
        if arg.contains(|c: char| c.is_ascii_alphabetic() && c != 'T') {
            return Err(format!("cannot read {arg}: no such file"));
        }
        return Ok((schedule::parse(arg)?, false));
    }
    let text = std::fs::read_to_string(arg).map_err(|e| format!("cannot read {arg}: {e}"))?;
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        let parsed = schedule::parse(&text).map_err(|e| format!("{arg}: {e}"))?;
        return Ok((parsed, false));
    };
    let ordered = v.pointer("/ordered_barriers") == Some(&serde_json::Value::Bool(true));
    let value = v.pointer("/error/schedule").unwrap_or(&v);
    let text = match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(steps) => steps
            .iter()
            .map(|s| s.as_str().map_or_else(|| s.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(","),
        _ => {
            return Err(format!(
                "{arg}: no schedule (expected `cdpor run --json` output or a schedule)"
            ))
        }
    };
    let parsed = schedule::parse(&text).map_err(|e| format!("{arg}: {e}"))?;
    Ok((parsed, ordered))
}

fn replay(args: ReplayArgs) -> ExitCode {
    let (schedule, ordered_barriers) = match read_schedule(&args.schedule) {
        Ok(s) => s,
        Err(m) => return fail(m),
    };
    let mut run = args.build.run_options();
    run.ordered_barriers |= ordered_barriers;
    let program = match build(&args.build) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let symbols = Symbols::load(&program.binary, program.arrays.clone(), program.tls.clone());
    let namer = Namer {
        sites: &program.sites,
        symbols: &symbols,
    };
    match explore::replay(
        &program,
        &schedule,
        args.build.max_steps,
        timeout(args.build.exec_timeout),
        run,
    ) {
        Err(f) => fail(fatal_message(&f, &namer)),
        Ok(execution) => {
            if execution.barrier_overflow {
                eprintln!(
                    "cdpor: note: more threads used a barrier than it waits for, so `cdpor run` explored this program with --ordered-barriers: replay its schedules with that flag"
                );
            }
            let steps: Vec<cdpor_sched::Step> =
                execution.events.iter().map(cdpor_sched::Step::of).collect();
            let found = explore::kind_of(&execution.end, args.build.svcomp).map(|kind| Found {
                kind,
                schedule: steps.clone(),
                execution: execution.clone(),
                index: 1,
                probe: false,
                count: 1,
            });
            let shown = found.clone().unwrap_or(Found {
                kind: explore::ErrorKind::Crash,
                schedule: steps,
                execution,
                index: 1,
                probe: false,
                count: 1,
            });
            say_err!(
                "\nReplayed interleaving ({} events):",
                shown.execution.events.len()
            );
            say_err_raw!("{}", report::interleaving(&namer, &shown, true));
            match found {
                Some(f) => {
                    say_err!("cdpor: {} error: {}", f.kind.name(), namer.message(&f));
                    ExitCode::from(report::EXIT_ERROR as u8)
                }
                None => {
                    say_err!(
                        "cdpor: this execution ends without error ({})",
                        report::normal_end(&shown.execution.end)
                    );
                    ExitCode::from(report::EXIT_SAFE as u8)
                }
            }
        }
    }
}

fn main() -> ExitCode {
    cdpor::interrupt::install();
    let cli = Cli::parse();
    match cli.command {
        Cmd::Run(a) => run(a),
        Cmd::Replay(a) => replay(a),
    }
}
