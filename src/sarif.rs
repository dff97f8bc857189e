//! The errors of a run in SARIF 2.1.0, which GitHub code scanning and editors show inline
//! (`--sarif FILE`): one result per distinct error, at its location, with the failing
//! interleaving as a code flow of one thread flow per thread, its steps in the order they
//! ran (`executionOrder`).

use serde_json::{json, Value};

use crate::explore::Summary;
use crate::report::Namer;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// `file:line` as a SARIF location (a bare file when the line is unknown, no place at
/// all when the file is), with `text` as its message.
fn location(at: &str, text: Option<String>) -> Value {
    let (file, line) = match at.rsplit_once(':') {
        Some((file, line)) => (file, line.parse::<u64>().ok().filter(|&l| l > 0)),
        None => (at, None),
    };
    let mut loc = json!({});
    if !file.is_empty() {
        loc["physicalLocation"] = json!({ "artifactLocation": { "uri": file } });
        if let Some(line) = line {
            loc["physicalLocation"]["region"] = json!({ "startLine": line });
        }
    }
    if let Some(text) = text {
        loc["message"] = json!({ "text": text });
    }
    loc
}

/// The SARIF log of a run's errors.
pub fn log(namer: &Namer, summary: &Summary) -> Value {
    let mut kinds: Vec<&'static str> = summary.errors.iter().map(|f| f.kind.name()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let rules: Vec<Value> = kinds
        .iter()
        .map(|k| json!({ "id": k, "shortDescription": { "text": format!("{k} error") } }))
        .collect();
    let results: Vec<Value> = summary
        .errors
        .iter()
        .map(|f| {
            let rows = namer.rows(f);
            let mut threads: Vec<&str> = rows.iter().map(|r| r.thread.as_str()).collect();
            threads.sort_unstable();
            threads.dedup();
            let thread_flows: Vec<Value> = threads
                .iter()
                .map(|&t| {
                    let steps: Vec<Value> = (rows.iter().filter(|r| r.thread == t))
                        .map(|r| {
                            let what = match &r.value {
                                Some(v) => format!("{} {} {} = {v}", r.thread, r.op, r.object),
                                None => format!("{} {} {}", r.thread, r.op, r.object),
                            };
                            json!({
                                "location": location(&r.location, Some(what.trim_end().to_string())),
                                "executionOrder": r.step,
                            })
                        })
                        .collect();
                    json!({ "id": t, "locations": steps })
                })
                .collect();
            json!({
                "ruleId": f.kind.name(),
                "level": "error",
                "message": { "text": namer.message(f) },
                "locations": [location(&namer.error_location(f), None)],
                "codeFlows": [{
                    "message": { "text": format!("the interleaving of execution {}", f.index) },
                    "threadFlows": thread_flows,
                }],
                "occurrenceCount": f.count,
            })
        })
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "cdpor",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
}
