//! The human report of each error kind, compared with the plain-text file kept for it in
//! `tests/snapshots/` (times are written as `T`). A change of the report shows here as
//! a diff to read; `CDPOR_UPDATE_SNAPSHOTS=1 cargo test --test report_snapshots` writes
//! the files anew, to be reviewed like code.

use std::path::Path;
use std::process::Command;

/// One program per error kind, and its flags.
const CASES: &[(&str, &str, &[&str])] = &[
    ("assertion", "c-tests/basic/lost_update.c", &[]),
    ("deadlock", "c-tests/checks/deadlock_ab.c", &[]),
    ("lost_wakeup", "c-tests/condvar/lost_wakeup.c", &[]),
    ("livelock", "c-tests/spin/livelock_never_set.c", &[]),
    ("crash", "c-tests/checks/div_zero.c", &[]),
    ("abort", "c-tests/checks/abort_thread.c", &[]),
    ("memory", "c-tests/memory/use_after_free.c", &[]),
    ("misuse", "c-tests/misuse/join_detached.c", &[]),
    ("data_race", "c-tests/races/counters.c", &["--races"]),
    (
        "heap_fields",
        "c-tests/names/heap_fields.c",
        &["--full-trace"],
    ),
    (
        "keep_going",
        "c-tests/basic/lost_update.c",
        &["--keep-going"],
    ),
];

/// The report with its times (`0.01 s`) as `T s`.
fn normalized(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut line = line.to_string();
        if let Some(end) = line.find(" s)") {
            let start = line[..end]
                .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
                .map_or(0, |i| i + 1);
            line.replace_range(start..end, "T");
        }
        out += &line;
        out.push('\n');
    }
    out
}

#[test]
fn the_report_of_each_error_kind_is_as_kept() {
    let update = std::env::var_os("CDPOR_UPDATE_SNAPSHOTS").is_some();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut differ = Vec::new();
    for (name, program, flags) in CASES {
        let out = Command::new(env!("CARGO_BIN_EXE_cdpor"))
            .current_dir(root)
            .args([&["run", program][..], flags].concat())
            .env_remove("CLICOLOR_FORCE")
            .output()
            .expect("cdpor runs");
        assert_eq!(out.status.code(), Some(1), "{name}: an error is reported");
        let got = normalized(&String::from_utf8_lossy(&out.stdout));
        let file = root.join("tests/snapshots").join(format!("{name}.txt"));
        if update {
            std::fs::write(&file, &got).unwrap();
            continue;
        }
        let kept = std::fs::read_to_string(&file).unwrap_or_default();
        if kept != got {
            differ.push(format!("{name} ({}):\n{got}", file.display()));
        }
    }
    assert!(
        differ.is_empty(),
        "reports that differ from tests/snapshots (CDPOR_UPDATE_SNAPSHOTS=1 writes them):\n{}",
        differ.join("\n")
    );
}

#[test]
fn times_are_normalized() {
    assert_eq!(
        normalized("2 executions (algorithm optimal, 0.01 s)\nx\n"),
        "2 executions (algorithm optimal, T s)\nx\n"
    );
}
