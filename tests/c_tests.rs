//! Runs every program under `c-tests/` through the cdpor binary and checks the outcome
//! its header comment declares. A header holds one `run:` line per check:
//!
//! ```text
//!  * cdpor-test
//!  * run: --algorithm optimal -DN=3 ; verdict=safe executions=8 blocked=0
//! ```
//!
//! Keys: `verdict`, `kind` (error kind), `executions`, `blocked`, `bounded`, `failing`
//! (failing executions), `exit` (status; implied by the verdict when absent),
//! `location` (suffix of the error's `file:line`), `contains` (text in the message, or in
//! what cut the exploration; may be quoted), `warns` (a function named in the warnings),
//! `errors` (every distinct error, as `kind@file:line` separated by commas, in any order:
//! with `--keep-going`), `messages`
//! (comma-separated texts, each in the message of some reported error). Each check is a
//! test of its own (`cargo test --test c_tests -- NAME` filters them);
//! `CDPOR_TEST_FILTER=substr` runs only matching files. Each check runs with in-place
//! reset, with a worker forked per execution (`[fork]` in its name), and with three
//! workers running ahead (`[threads]`), unless `CDPOR_TEST_RESET=inplace|fork|threads`
//! picks one.

use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone)]
struct Check {
    file: PathBuf,
    line: usize,
    args: Vec<String>,
    expect: Vec<(String, String)>,
}

fn split_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse(file: &Path) -> Vec<Check> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut checks = Vec::new();
    let mut in_header = false;
    for (i, line) in text.lines().enumerate() {
        if line.contains("cdpor-test") {
            in_header = true;
            continue;
        }
        if !in_header {
            continue;
        }
        if line.contains("*/") {
            break;
        }
        let Some(rest) = line.split_once("run:").map(|(_, r)| r) else {
            continue;
        };
        let (args, expect) = rest
            .split_once(';')
            .unwrap_or_else(|| panic!("{}:{}: `run: ARGS ; EXPECTATIONS`", file.display(), i + 1));
        let expect = split_words(expect)
            .into_iter()
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap_or_else(|| {
                    panic!("{}:{}: bad expectation {kv}", file.display(), i + 1)
                });
                (k.to_string(), v.to_string())
            })
            .collect();
        checks.push(Check {
            file: file.to_path_buf(),
            line: i + 1,
            args: split_words(args),
            expect,
        });
    }
    checks
}

fn c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            c_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "c") {
            out.push(p);
        }
    }
}

fn field<'a>(json: &'a serde_json::Value, key: &str) -> Option<&'a serde_json::Value> {
    match key {
        "kind" => json.pointer("/error/kind"),
        "location" => json.pointer("/error/location"),
        "failing" => json.get("failing_executions"),
        other => json.get(other),
    }
}

fn run_check(root: &Path, c: &Check, reset: &str) -> Result<(), String> {
    let rel = c.file.strip_prefix(root).unwrap_or(&c.file);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cdpor"));
    cmd.current_dir(root).arg("run").arg(rel).args(&c.args);
    match reset {
        // Three workers running ahead from the first execution: the same answers.
        "threads" => cmd.args(["--threads", "3"]).env("CDPOR_RUN_AHEAD_US", "0"),
        reset => cmd.args(["--reset", reset]),
    };
    let out = cmd
        .args(["--json", "-"])
        .output()
        .map_err(|e| format!("cannot run cdpor: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&stdout).map_err(|e| format!("no JSON ({e}); stderr: {stderr}"))?;
    let mut problems = Vec::new();
    let verdict = json.get("verdict").and_then(|v| v.as_str()).unwrap_or("");
    let implied_exit = match verdict {
        "safe" => 0,
        "error" => 1,
        "incomplete" => 3,
        _ => 2,
    };
    let mut exit_expected = implied_exit;
    for (k, v) in &c.expect {
        match k.as_str() {
            "exit" => exit_expected = v.parse().map_err(|_| format!("bad exit {v}"))?,
            "contains" => {
                // The message, or what cut the exploration.
                let msg = json
                    .get("message")
                    .or_else(|| json.pointer("/error/message"))
                    .or_else(|| json.get("cut"))
                    .and_then(|m| m.as_str())
                    .unwrap_or("");
                if !msg.contains(v.as_str()) {
                    problems.push(format!("message {msg:?} lacks {v:?}"));
                }
            }
            "location" => {
                let got = field(&json, k).and_then(|x| x.as_str()).unwrap_or("");
                if !got.ends_with(v.as_str()) {
                    problems.push(format!("location {got:?}, expected …{v}"));
                }
            }
            "warns" => {
                let warned = json["warnings"]
                    .as_array()
                    .is_some_and(|ws| ws.iter().any(|w| w["function"] == v.as_str()));
                if !warned {
                    problems.push(format!("no warning about `{v}`: {}", json["warnings"]));
                }
            }
            "errors" => {
                // The distinct errors, as kind@file:line, comma-separated, in any order.
                let mut got: Vec<String> = json["errors"]
                    .as_array()
                    .map(|es| {
                        es.iter()
                            .map(|e| {
                                let loc = e["location"].as_str().unwrap_or("");
                                let file = loc.rsplit('/').next().unwrap_or(loc);
                                format!("{}@{file}", e["kind"].as_str().unwrap_or(""))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                got.sort();
                let mut want: Vec<String> = v.split(',').map(str::to_string).collect();
                want.sort();
                if got != want {
                    problems.push(format!("errors {got:?}, expected {want:?}"));
                }
            }
            "messages" => {
                let msgs: Vec<&str> = json["errors"]
                    .as_array()
                    .map(|es| es.iter().filter_map(|e| e["message"].as_str()).collect())
                    .unwrap_or_default();
                for want in v.split(',') {
                    if !msgs.iter().any(|m| m.contains(want)) {
                        problems.push(format!("no error message has {want:?}: {msgs:?}"));
                    }
                }
            }
            _ => {
                let got = field(&json, k).map(|x| {
                    x.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| x.to_string())
                });
                if got.as_deref() != Some(v.as_str()) {
                    problems.push(format!(
                        "{k} = {}, expected {v}",
                        got.unwrap_or_else(|| "(absent)".into())
                    ));
                }
            }
        }
    }
    let code = out.status.code().unwrap_or(-1);
    if code != exit_expected {
        problems.push(format!("exit status {code}, expected {exit_expected}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let msg = json
            .get("message")
            .or_else(|| json.pointer("/error/message"))
            .and_then(|m| m.as_str())
            .unwrap_or("");
        Err(format!("{}; message: {msg}", problems.join("; ")))
    }
}

/// One named test per `run:` line: `checks/null_deref.c:8 --algorithm none`, so that
/// `cargo test --test c_tests -- null_deref` runs a program's checks and a failure names
/// the program, the line and what differed.
fn main() -> std::process::ExitCode {
    let args = libtest_mimic::Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    c_files(&root.join("c-tests"), &mut files);
    let filter = std::env::var("CDPOR_TEST_FILTER").unwrap_or_default();
    // Every check in both reset modes: in place (the default) and with a worker forked
    // per execution, which must give the same answers; CDPOR_TEST_RESET picks one.
    // And with three workers (`[threads]`), which must too.
    let modes: Vec<&'static str> = match std::env::var("CDPOR_TEST_RESET").as_deref() {
        Ok("fork") => vec!["fork"],
        Ok("inplace") => vec!["inplace"],
        Ok("threads") => vec!["threads"],
        _ => vec!["inplace", "fork", "threads"],
    };
    let checks: Vec<Check> = files
        .iter()
        .filter(|f| f.to_string_lossy().contains(&filter))
        .flat_map(|f| parse(f))
        .collect();
    let trials = modes
        .iter()
        .flat_map(|&reset| checks.iter().map(move |c| (reset, c.clone())))
        .map(|(reset, c)| {
            let rel = c.file.strip_prefix(root.join("c-tests")).unwrap_or(&c.file);
            let mut name = format!("{}:{} {}", rel.display(), c.line, c.args.join(" "));
            if reset != "inplace" {
                name = format!("{} [{reset}]", name.trim_end());
            }
            libtest_mimic::Trial::test(name.trim_end().to_string(), move || {
                run_check(root, &c, reset).map_err(Into::into)
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
