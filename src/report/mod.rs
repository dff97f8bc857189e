//! What the user sees: the failing interleaving one event per line, deadlock waits, the
//! JSON object of DESIGN §4, and the exit status.

mod errors;
mod fold;
mod human;
mod json;
mod steps;
mod waits;

pub use human::{cut_text, human};
pub use json::*;
pub use steps::interleaving;

use std::collections::HashMap;

use crate::style::{paint, ERROR, LOCATION, SAFE, THREAD};
use cdpor_sched::event::{
    CRASH_MEMORY, CRASH_MISUSE, FLAG_ATOMIC, FLAG_SILENT, FLAG_STORE, FLAG_VALUE,
};
use cdpor_sched::ops::{awaits, cond, memory, rwlock, thread, Misuse};
use cdpor_sched::shm::{Fallback, MemError, MemFault, Replaced};
use cdpor_sched::{Event, Kind, Tid};
use serde::Serialize;

use crate::executor::{signal_name, End, Execution, FellBack, Reset};
use crate::explore::{Cut, ErrorKind, Found, Summary};
use crate::instrument::{Record, Site, Warning};
use crate::schedule;
use crate::symbols::{short, Symbols};

pub const EXIT_SAFE: i32 = 0;
pub const EXIT_ERROR: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INCOMPLETE: i32 = 3;

/// Names things for one program.
pub struct Namer<'a> {
    pub sites: &'a [Site],
    pub symbols: &'a Symbols,
}

#[derive(Serialize, Clone, Debug)]
pub struct Row {
    pub step: usize,
    pub thread: String,
    pub op: String,
    pub object: String,
    pub value: Option<String>,
    pub location: String,
}

impl Namer<'_> {
    fn site(&self, id: u32) -> Option<&Site> {
        self.sites.get(id as usize).filter(|_| id != 0)
    }

    pub fn location(&self, site: u32) -> String {
        match self.site(site) {
            Some(s) if !s.file.is_empty() => format!("{}:{}", short(&s.file), s.line),
            Some(s) => s.function.clone(),
            None => String::new(),
        }
    }

    fn object(&self, addr: u64, x: &Execution) -> String {
        self.symbols
            .name(addr, &x.allocs, self.sites, (None, None), x.names())
    }

    /// The memory an event accesses: as `object`, with the site's variable for locals.
    fn accessed(&self, e: &Event, x: &Execution) -> String {
        let site = self.site(e.site);
        let local = site.and_then(|s| Some((s.variable.as_deref()?, user_function(&s.function))));
        // A block that some access reads as one whole struct is named by that struct
        // (an access through a struct embedded in it would otherwise look like an
        // element of an array of those).
        let blocks = x.blocks(|| self.block_types(x));
        let record = (self.symbols.block_of(e.addr, &x.allocs))
            .and_then(|b| blocks.get(&b.addr))
            .or_else(|| site.and_then(|s| s.record.as_ref()));
        self.symbols
            .name(e.addr, &x.allocs, self.sites, (local, record), x.names())
    }

    /// The heap blocks of `x` that an access goes to through a struct of the block's
    /// size, and that struct, by the block's address.
    fn block_types(&self, x: &Execution) -> HashMap<u64, Record> {
        let mut out = HashMap::new();
        for e in &x.events {
            let Some(r) = self.site(e.site).and_then(|s| s.record.as_ref()) else {
                continue;
            };
            if let Some(b) = self.symbols.block_of(e.addr, &x.allocs) {
                if self.symbols.record_size(&r.name) == Some(b.size) {
                    out.entry(b.addr).or_insert_with(|| r.clone());
                }
            }
        }
        out
    }

    /// `file:line` of an instruction of the program's own (not of the C library, nor of
    /// cdpor's runtime).
    fn program_line(&self, pc: u64) -> Option<String> {
        let line = self.symbols.line_at(pc)?;
        let file = line.rsplit_once(':')?.0;
        self.sites
            .iter()
            .any(|s| !s.file.is_empty() && short(&s.file) == file)
            .then_some(line)
    }
}

fn at(loc: &str) -> String {
    if loc.is_empty() {
        String::new()
    } else {
        format!(" at {loc}")
    }
}

fn show_value(v: u64, len: u32) -> String {
    let bits = (len.clamp(1, 8) * 8) as u64;
    let signed = if bits < 64 && v >> (bits - 1) & 1 == 1 {
        (v | !((1u64 << bits) - 1)) as i64
    } else {
        v as i64
    };
    if signed.unsigned_abs() < 1 << 20 {
        signed.to_string()
    } else {
        format!("{v:#x}")
    }
}

pub fn verdict(s: &Summary) -> (&'static str, i32) {
    if !s.errors.is_empty() {
        ("error", EXIT_ERROR)
    } else if s.complete() {
        ("safe", EXIT_SAFE)
    } else {
        ("incomplete", EXIT_INCOMPLETE)
    }
}

/// The verdict in SV-COMP's words for the unreach-call property: an assertion failure
/// (or a call of `reach_error`) is a counterexample; anything short of a complete safe
/// exploration is unknown.
pub fn svcomp_verdict(s: &Summary) -> &'static str {
    match s.errors.first() {
        Some(f) if f.kind == ErrorKind::Assertion => "FALSE(unreach-call)",
        Some(f) if f.kind == ErrorKind::DataRace => "FALSE(no-data-race)",
        None if s.complete() => "TRUE",
        _ => "UNKNOWN",
    }
}

/// Why in-place reset stopped, as the user reads it.
pub fn fallback_text(f: &FellBack) -> String {
    match f.why {
        Fallback::Call => format!(
            "`{}` changes what an in-place reset cannot put back (files, the kernel's state, or state cdpor does not see): every later execution ran in a worker forked for it",
            f.what
        ),
        _ => format!(
            "{}: every later execution ran in a worker forked for it",
            f.what
        ),
    }
}

/// How an execution without error ended, in words.
pub fn normal_end(end: &End) -> String {
    match end {
        End::Exit(code) => format!("the program exited with status {code}"),
        End::StepBound => "cut by --max-steps".into(),
        End::SleepBlocked => "every thread left to run was asleep".into(),
        End::ThreadBound => "cut by --max-threads".into(),
        End::TimedWaitCut => "cut where a timed wait could time out again".into(),
        End::LoopBound { .. } => "cut by --unroll".into(),
        End::Livelock => "every thread left waits for good (some spin)".into(),
        End::AssumeFail { .. } => "an assumption was false (an infeasible execution)".into(),
        End::StaleSpin { .. } => {
            "a thread spins on what changed after it read it (a redundant execution)".into()
        }
        End::Deadlock => "every thread left is blocked for good".into(),
        other => format!("{other:?}"),
    }
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A function as the program names it (its `main`, which cdpor renames).
fn user_function(f: &str) -> &str {
    if f == crate::instrument::USER_MAIN {
        "main"
    } else {
        f
    }
}
