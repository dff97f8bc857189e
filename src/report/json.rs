//! The `--json` report.

use super::errors::error_thread;
use super::*;

#[derive(Serialize)]
pub struct JsonError {
    pub kind: &'static str,
    pub message: String,
    /// The thread's name (`T1`, `T1.2`).
    pub thread: String,
    pub location: String,
    /// What `cdpor replay --schedule` takes (see `schedule`).
    pub schedule: String,
    pub trace: Vec<Row>,
}

#[derive(Serialize)]
pub struct JsonErrorSummary {
    pub kind: &'static str,
    pub message: String,
    pub location: String,
    /// Failing executions that showed this error.
    pub executions: u64,
}

#[derive(Serialize)]
pub struct JsonReport {
    pub verdict: &'static str,
    pub executions: u64,
    pub blocked: u64,
    pub bounded: u64,
    /// Executions ended by a false assumption (infeasible; not in `executions`).
    pub assume_blocked: u64,
    /// Executions that ended with a spin loop waiting for a change that came after it
    /// read: redundant, since another execution runs the loop after that change (not in
    /// `executions`).
    pub stale_spins: u64,
    /// Every order of arrival at barriers was explored (a barrier was used by more
    /// threads than it waits for, or `--ordered-barriers`): replaying `schedule` needs
    /// `--ordered-barriers`.
    pub ordered_barriers: bool,
    pub algorithm: &'static str,
    pub threads: usize,
    pub time_s: f64,
    /// Executions that ended in an error.
    pub failing_executions: u64,
    /// Probe executions run before exploring (not in `executions`).
    pub probes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonError>,
    pub errors: Vec<JsonErrorSummary>,
    /// Unmodelled external functions called with pointers to shared memory.
    pub warnings: Vec<JsonWarning>,
    /// `inplace` or `fork`: how workers got back to the state before an execution.
    pub reset: &'static str,
    /// Why in-place reset stopped for the rest of the run, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<JsonFallback>,
    pub timing: JsonTiming,
}

#[derive(Serialize)]
pub struct JsonFallback {
    pub message: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub location: String,
}

/// Where the time of a run went (seconds): executions running in workers, their in-place
/// resets, the hand-off between cdpor and workers (forks included), and cdpor's own work.
#[derive(Serialize)]
pub struct JsonTiming {
    pub run_s: f64,
    pub reset_s: f64,
    pub handoff_s: f64,
    pub engine_s: f64,
    pub workers: u32,
    /// With `--threads`: executions run before the engine asked for them (docs/parallel.md),
    /// and of the executions it took in, those that had run or were running ahead.
    pub ran_ahead: u64,
    pub used_ahead: u64,
    /// In-place workers replaced after an execution they could not reset from: a crash,
    /// a use of the C library's allocator, a write outside the program's memory, or the
    /// runtime's room for an execution running out.
    pub replaced: JsonReplaced,
}

#[derive(Serialize)]
pub struct JsonReplaced {
    pub crash: u32,
    pub library_allocator: u32,
    pub stray_write: u32,
    pub room: u32,
}

#[derive(Serialize)]
pub struct JsonWarning {
    pub function: String,
    pub location: String,
    pub message: String,
}

pub fn json(
    namer: &Namer,
    s: &Summary,
    algorithm: &'static str,
    threads: usize,
    warnings: &[Warning],
) -> JsonReport {
    let (verdict, _) = verdict(s);
    let error = s.errors.first().map(|f| JsonError {
        kind: f.kind.name(),
        message: namer.message(f),
        thread: error_thread(f),
        location: namer.error_location(f),
        schedule: schedule::format(&f.schedule, f.execution.names()),
        trace: namer.rows(f),
    });
    JsonReport {
        verdict,
        executions: s.executions(),
        blocked: s.stats.blocked,
        bounded: s.stats.bounded,
        assume_blocked: s.assume_blocked,
        stale_spins: s.stale_spins,
        ordered_barriers: s.ordered_barriers,
        algorithm,
        threads,
        time_s: (s.elapsed.as_secs_f64() * 1e4).round() / 1e4,
        failing_executions: s.failing,
        probes: s.probes,
        cut: cut_text(namer, s),
        error,
        errors: s
            .errors
            .iter()
            .map(|f| JsonErrorSummary {
                kind: f.kind.name(),
                message: namer.message(f),
                location: namer.error_location(f),
                executions: f.count,
            })
            .collect(),
        warnings: warnings
            .iter()
            .map(|w| JsonWarning {
                function: w.function.clone(),
                location: short(&w.location).into_owned(),
                message: w.to_string(),
            })
            .collect(),
        reset: match s.workers.reset {
            Reset::Fork => "fork",
            Reset::InPlace => "inplace",
        },
        fallback: s.workers.fell_back.as_ref().map(|f| JsonFallback {
            message: fallback_text(f),
            location: namer.location(f.site),
        }),
        timing: {
            let w = &s.workers;
            let secs = |d: std::time::Duration| (d.as_secs_f64() * 1e6).round() / 1e6;
            JsonTiming {
                run_s: secs(w.run),
                reset_s: secs(w.resetting),
                handoff_s: secs(w.waiting.saturating_sub(w.tail)),
                engine_s: secs(w.engine),
                workers: w.forked,
                ran_ahead: w.ran_ahead,
                used_ahead: w.used_ahead,
                replaced: JsonReplaced {
                    crash: w.replaced[Replaced::Crash as usize],
                    library_allocator: w.replaced[Replaced::LibraryAllocator as usize],
                    stray_write: w.replaced[Replaced::StrayWrite as usize],
                    room: w.replaced[Replaced::Room as usize],
                },
            }
        },
    }
}
