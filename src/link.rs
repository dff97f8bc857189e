//! Linking the instrumented program with the runtime into a static binary.
//!
//! clang's driver knows where the C library's start files and archives lie, but starting
//! it costs a fifth of a small program's start-up (some 25 ms of 120 on this machine
//! class). So while the program compiles, the driver is only asked for the linker's
//! command line (`-###`), and the linker is then run directly. Whatever keeps that from
//! working (no lld, a driver that prints something else) links through the driver, as
//! before.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A link, planned before its object exists.
pub struct Link {
    driver: Command,
    /// The driver's dry run, printing the linker's command line.
    dry_run: Option<Child>,
}

impl Link {
    /// Plans linking `object` with the `runtime` archive into `binary`, with `clang` as
    /// the driver and lld as the linker if it is installed. The driver wants its inputs
    /// to exist: `object` is made, empty, if it does not.
    pub fn plan(clang: &Path, object: &Path, runtime: &Path, binary: &Path) -> Link {
        let lld = lld();
        if !object.exists() {
            let _ = std::fs::File::create(object);
        }
        let driver = |dry: bool| {
            let mut ld = Command::new(clang);
            if let Some(lld) = &lld {
                ld.arg(format!("-fuse-ld={}", lld.display()));
            }
            ld.arg(object).arg(runtime);
            ld.args([
                "-static",
                // The C library's own allocations reach the runtime first
                // (runtime/c/alloc.c).
                "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free",
                "-lpthread",
                "-ldl",
                "-lm",
                "-lrt",
                "-lutil",
                "-o",
            ]);
            ld.arg(binary);
            if dry {
                ld.arg("-###");
            }
            ld
        };
        let dry_run = lld.is_some().then(|| {
            driver(true)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .ok()
        });
        Link {
            driver: driver(false),
            dry_run: dry_run.flatten(),
        }
    }

    /// Links; the output is the linker's (or the driver's, if it ran the link).
    pub fn run(mut self) -> std::io::Result<Output> {
        let line = (self.dry_run.take())
            .and_then(|child| child.wait_with_output().ok())
            .filter(|out| out.status.success())
            .and_then(|out| linker_line(&String::from_utf8_lossy(&out.stderr)));
        match line {
            Some(args) => Command::new(&args[0]).args(&args[1..]).output(),
            None => self.driver.output(),
        }
    }
}

/// LLVM's linker, when it is installed: it links a program several times faster than
/// the system's BFD `ld`, which is the fallback.
fn lld() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .flat_map(|dir| [dir.join("ld.lld-19"), dir.join("ld.lld")])
        .find(|p| p.is_file());
    on_path.or_else(|| Some(PathBuf::from("/usr/lib/llvm-19/bin/ld.lld")).filter(|p| p.is_file()))
}

/// The linker's command line in the driver's `-###` output: its last line that names
/// lld, each argument in double quotes with `\` before a quote, a backslash or a `$`.
fn linker_line(dry_run: &str) -> Option<Vec<String>> {
    let line = dry_run.lines().rev().find(|l| l.starts_with(" \""))?;
    let mut args = Vec::new();
    let mut chars = line.chars();
    loop {
        match chars.next() {
            None => break,
            Some(' ') => continue,
            Some('"') => {
                let mut arg = String::new();
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => arg.push(chars.next()?),
                        c => arg.push(c),
                    }
                }
                args.push(arg);
            }
            Some(_) => return None,
        }
    }
    let program = Path::new(args.first()?)
        .file_name()?
        .to_string_lossy()
        .into_owned();
    program.starts_with("ld.lld").then_some(args)
}

#[cfg(test)]
mod tests {
    use super::linker_line;

    #[test]
    fn the_linker_line_is_read_back_with_its_escapes() {
        let out = "clang version 19.1.7\nTarget: x86_64-pc-linux-gnu\n \
                   \"/usr/bin/ld.lld-19\" \"-static\" \"-o\" \"/tmp/a \\\"b\\\\c\" \"x\\$y\"\n";
        assert_eq!(
            linker_line(out),
            Some(vec![
                "/usr/bin/ld.lld-19".to_string(),
                "-static".into(),
                "-o".into(),
                "/tmp/a \"b\\c".into(),
                "x$y".into(),
            ])
        );
    }

    #[test]
    fn anything_but_an_lld_line_is_no_line() {
        assert_eq!(linker_line(" \"/usr/bin/ld\" \"-static\"\n"), None);
        assert_eq!(linker_line(" \"/usr/bin/ld.lld\" \"-o\n"), None);
        assert_eq!(linker_line("clang: error: no input files\n"), None);
    }
}
