//! From C files to an instrumented executable: clang-19 to bitcode (LLVM bitcode or IR
//! from the user's own build is taken as it is), one module linked from them all,
//! `sroa,mem2reg` so that locals that never escape leave memory, the instrumentation
//! pass, code generation, and a link against the runtime.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine,
};
use inkwell::OptimizationLevel;

use crate::instrument::{self, Rejection, Site, Warning};
use crate::link::Link;

/// How to compile the user's files.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// C files, or `.bc`/`.ll` files; linked into one program.
    pub sources: Vec<PathBuf>,
    pub defines: Vec<String>,
    pub includes: Vec<PathBuf>,
    pub clang_args: Vec<String>,
}

/// An instrumented executable, ready to serve executions.
pub struct Program {
    /// Holds the build products; removed when the program is dropped.
    _dir: tempfile::TempDir,
    pub binary: PathBuf,
    pub sites: Vec<Site>,
    /// Unmodelled functions the program passes shared memory to.
    pub warnings: Vec<Warning>,
    /// Element size of each global array (see `instrument::array_globals`).
    pub arrays: HashMap<String, u64>,
    /// The program uses the SV-COMP verifier API.
    pub verifier_api: bool,
    /// Its thread-local variables' places in a thread's block.
    pub tls: Vec<instrument::TlsVar>,
}

#[derive(Debug)]
pub enum BuildError {
    /// The source file cannot be read.
    Missing(PathBuf, std::io::Error),
    /// clang rejected the file; carries clang's diagnostics.
    Compile(String),
    /// The program uses something cdpor cannot model.
    Rejected(Rejection),
    /// The instrumented program does not link; carries the linker's diagnostics.
    Link(String),
    /// A tool is missing or failed in a way that is cdpor's problem, not the program's.
    Setup(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Missing(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            BuildError::Compile(d) => write!(f, "the program does not compile:\n{}", d.trim_end()),
            BuildError::Rejected(r) => write!(f, "{r}"),
            BuildError::Link(d) => write!(f, "the program does not link: {}", d.trim_end()),
            BuildError::Setup(m) => write!(f, "{m}"),
        }
    }
}

impl BuildError {
    /// Errors in the user's input (as opposed to cdpor's setup).
    pub fn is_compile_error(&self) -> bool {
        matches!(
            self,
            BuildError::Missing(..)
                | BuildError::Compile(_)
                | BuildError::Link(_)
                | BuildError::Rejected(_)
        )
    }
}

/// clang's flags for the bitcode the pass works on. -O0 marks every function optnone,
/// which would make sroa a no-op, hence -disable-O0-optnone; value names stay so that
/// reports can name escaping locals.
const FRONTEND: &[&str] = &[
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-g",
    "-emit-llvm",
    "-c",
    "-fno-stack-protector",
    "-fno-discard-value-names",
    // What clang 16 made errors in old C, gcc still accepts.
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-function-pointer-types",
];

/// The clang-19 to use: `$CDPOR_CLANG`, `clang-19` on the PATH, or LLVM 19's own.
fn clang() -> Result<PathBuf, BuildError> {
    if let Some(p) = std::env::var_os("CDPOR_CLANG") {
        return Ok(PathBuf::from(p));
    }
    for dir in std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
    {
        let p = dir.join("clang-19");
        if p.is_file() {
            return Ok(p);
        }
    }
    let p = PathBuf::from("/usr/lib/llvm-19/bin/clang");
    if p.is_file() {
        return Ok(p);
    }
    Err(BuildError::Setup(
        "clang-19 not found (install Debian's clang-19, or set CDPOR_CLANG)".into(),
    ))
}

/// The runtime archive (C shims, fibers and scheduler), built by `build.rs` and carried
/// inside the cdpor binary.
const RUNTIME: &[u8] = include_bytes!(env!("CDPOR_RUNTIME_LIB"));

/// Where to link the runtime from: `$CDPOR_RUNTIME` if set, else the embedded copy
/// written into the work directory.
fn runtime_archive(dir: &Path) -> Result<PathBuf, BuildError> {
    if let Some(p) = std::env::var_os("CDPOR_RUNTIME") {
        return Ok(PathBuf::from(p));
    }
    let path = dir.join("libcdpor_rt.a");
    std::fs::write(&path, RUNTIME)
        .map_err(|e| BuildError::Setup(format!("cannot write the runtime archive: {e}")))?;
    Ok(path)
}

fn run(cmd: &mut Command) -> Result<std::process::Output, BuildError> {
    cmd.output()
        .map_err(|e| BuildError::Setup(format!("cannot run {:?}: {e}", cmd.get_program())))
}

/// A module to link: LLVM bitcode (the user's, or clang's from a C file) or textual IR,
/// and the file the user gave for it.
enum Unit {
    Bitcode(PathBuf, PathBuf),
    Ir(PathBuf, PathBuf),
}

impl Unit {
    fn source(&self) -> &Path {
        match self {
            Unit::Bitcode(_, s) | Unit::Ir(_, s) => s,
        }
    }
}

/// A C99 `inline` function without an `extern` declaration has no external definition,
/// and a program that relies on one does not link, while older programs expect one (GNU
/// C89's `inline`), which `-fgnu89-inline` gives; but with it, a C99 `extern inline`
/// definition is none. So a program is built the GNU way first, and the C99 way if that
/// leaves a function undefined.
pub fn build(opts: &BuildOptions) -> Result<Program, BuildError> {
    match build_as(opts, true) {
        Err(BuildError::Link(d)) if d.contains("undefined reference") => {
            build_as(opts, false).map_err(|_| BuildError::Link(d))
        }
        built => built,
    }
}

fn build_as(opts: &BuildOptions, gnu_inline: bool) -> Result<Program, BuildError> {
    for source in &opts.sources {
        std::fs::metadata(source).map_err(|e| BuildError::Missing(source.clone(), e))?;
    }
    let clang = clang()?;
    let dir = tempfile::Builder::new()
        .prefix("cdpor-")
        .tempdir()
        .map_err(|e| BuildError::Setup(format!("cannot create a work directory: {e}")))?;
    let runtime = runtime_archive(dir.path())?;
    let object = dir.path().join("prog.o");
    let binary = dir.path().join("prog");
    let link = Link::plan(&clang, &object, &runtime, &binary);

    // Every C file is compiled with the same flags, in the order given, so that clang's
    // diagnostics come in that order too.
    let mut units = Vec::new();
    for (i, source) in opts.sources.iter().enumerate() {
        let c = match source.extension().and_then(|e| e.to_str()) {
            Some("bc") => {
                units.push(Unit::Bitcode(source.clone(), source.clone()));
                continue;
            }
            Some("ll") => {
                units.push(Unit::Ir(source.clone(), source.clone()));
                continue;
            }
            _ => source,
        };
        let bitcode = dir.path().join(format!("unit{i}.bc"));
        let mut cc = Command::new(&clang);
        cc.args(FRONTEND);
        if gnu_inline {
            cc.arg("-fgnu89-inline");
        }
        cc.args(opts.defines.iter().map(|d| format!("-D{d}")));
        cc.args(opts.includes.iter().map(|i| format!("-I{}", i.display())));
        cc.args(&opts.clang_args);
        // A file whose name does not end in `.c` (a `.i`, or no extension) is C too.
        if c.extension().and_then(|e| e.to_str()) != Some("c") {
            cc.args(["-x", "c"]);
        }
        cc.arg(c).arg("-o").arg(&bitcode);
        let out = run(&mut cc)?;
        if !out.status.success() {
            return Err(BuildError::Compile(
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ));
        }
        units.push(Unit::Bitcode(bitcode, source.clone()));
    }

    let (instrumented, arrays) = instrument_to_object(&units, &object)?;
    let instrument::Instrumented {
        sites,
        warnings,
        verifier_api,
        tls,
    } = instrumented;

    let out = link
        .run()
        .map_err(|e| BuildError::Setup(format!("cannot run the linker: {e}")))?;
    if !out.status.success() {
        return Err(BuildError::Link(linker_diagnostics(
            &String::from_utf8_lossy(&out.stderr),
            &object,
        )));
    }
    // CDPOR_KEEP=1 keeps the build products (prog.ll: the instrumented program).
    if std::env::var_os("CDPOR_KEEP").is_some() {
        let _ = writeln!(
            std::io::stderr(),
            "cdpor: build products kept in {}",
            dir.path().display()
        );
        let _ = dir.keep();
        return Ok(Program {
            _dir: tempfile::Builder::new()
                .tempdir()
                .map_err(|e| BuildError::Setup(e.to_string()))?,
            binary,
            sites,
            warnings,
            arrays,
            verifier_api,
            tls,
        });
    }
    Ok(Program {
        _dir: dir,
        binary,
        sites,
        warnings,
        arrays,
        verifier_api,
        tls,
    })
}

/// The linker's complaints about the program, in the user's terms: each problem on one
/// line that names the user's file and symbol, never cdpor's work directory or the
/// runtime's own use of glibc in a static link.
fn linker_diagnostics(stderr: &str, object: &Path) -> String {
    if stderr.contains("ld.lld") {
        return lld_diagnostics(stderr, object);
    }
    let object = format!("{}:", object.display());
    let mut problems: Vec<String> = Vec::new();
    let mut function: Option<String> = None;
    let mut skip_next = false;
    for line in stderr.lines() {
        if std::mem::take(&mut skip_next) && line.contains("statically linked applications") {
            continue;
        }
        if line.contains("libcdpor_rt.a(") {
            skip_next = true;
            continue;
        }
        if line.contains("linker command failed") {
            continue;
        }
        // `/usr/bin/ld: `, or whichever linker clang ran.
        let line = match line.split_once(": ") {
            Some((tool, rest)) if tool.ends_with("ld") || tool.ends_with("ld.lld") => rest,
            _ => line,
        };
        let line = line
            .strip_prefix(object.as_str())
            .unwrap_or(line)
            .trim_start();
        if let Some(f) = line
            .strip_prefix("in function `")
            .and_then(|r| r.strip_suffix("':"))
        {
            function = Some(source_function(f).to_string());
            continue;
        }
        // What remains of a place in the object without debug information: `(.text+0x1a)`.
        let (place, what) = match line.split_once(": ") {
            Some((place, what)) if place.starts_with('(') => (String::new(), what),
            Some((place, what))
                if place
                    .rsplit_once(':')
                    .is_some_and(|(_, l)| l.parse::<u32>().is_ok()) =>
            {
                (format!("{}: ", crate::symbols::short(place)), what)
            }
            _ => (String::new(), line),
        };
        let what = what.replace('\'', "`");
        let within = match (&function, what.starts_with("undefined reference")) {
            (Some(f), true) => format!(" (in `{f}`)"),
            (None, true) if line.starts_with('(') => " (in a global's initial value)".into(),
            _ => String::new(),
        };
        problems.push(format!("{place}{what}{within}"));
    }
    problems.dedup();
    problems.join("\n")
}

/// `linker_diagnostics` for lld, whose report of an undefined symbol spans lines:
///
/// ```text
/// ld.lld: error: undefined symbol: frobnicate
/// >>> referenced by prog.c:15 (/home/me/prog.c:15)
/// >>>               /tmp/cdpor-k3J9aQ/prog.o:(worker)
/// ```
fn lld_diagnostics(stderr: &str, object: &Path) -> String {
    let object = format!("{}:", object.display());
    let mut problems: Vec<String> = Vec::new();
    // The symbol being reported, and where its first reference is.
    let mut undefined: Option<(String, Option<String>, Option<String>)> = None;
    let flush = |u: &mut Option<(String, Option<String>, Option<String>)>,
                 out: &mut Vec<String>| {
        if let Some((symbol, place, within)) = u.take() {
            let place = place.map_or(String::new(), |p| format!("{p}: "));
            let within = within.map_or(String::new(), |w| format!(" ({w})"));
            out.push(format!("{place}undefined reference to `{symbol}`{within}"));
        }
    };
    for line in stderr.lines() {
        if line.contains("linker command failed") {
            continue;
        }
        if let Some(more) = line.strip_prefix(">>>") {
            let more = more.trim();
            let Some((_, place, within)) = undefined.as_mut() else {
                continue;
            };
            if let Some(at) = more.strip_prefix("referenced by ") {
                // `prog.c:15 (/home/me/prog.c:15)`: the full path, as short as it goes.
                let at = at
                    .rsplit_once(" (")
                    .and_then(|(_, full)| full.strip_suffix(')'))
                    .unwrap_or(at);
                place.get_or_insert_with(|| crate::symbols::short(at).into_owned());
            } else if let Some(f) = more
                .strip_prefix(object.as_str())
                .and_then(|r| r.strip_prefix('('))
                .and_then(|r| r.strip_suffix(')'))
            {
                within.get_or_insert_with(|| {
                    if f.starts_with('.') {
                        "in a global's initial value".to_string()
                    } else {
                        format!("in `{}`", source_function(f))
                    }
                });
            }
            continue;
        }
        flush(&mut undefined, &mut problems);
        let what = line.split_once("error: ").map_or(line, |(_, w)| w);
        if let Some(symbol) = what.strip_prefix("undefined symbol: ") {
            undefined = Some((symbol.to_string(), None, None));
        } else if line.contains("error: ") {
            problems.push(what.replace(object.as_str(), "the program:"));
        }
    }
    flush(&mut undefined, &mut problems);
    problems.dedup();
    problems.join("\n")
}

/// The program's name for a function of its object.
fn source_function(name: &str) -> &str {
    if name == instrument::USER_MAIN {
        "main"
    } else {
        name
    }
}

fn target_machine() -> Result<TargetMachine, BuildError> {
    Target::initialize_native(&InitializationConfig::default()).map_err(BuildError::Setup)?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| BuildError::Setup(e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            "x86-64",
            "",
            OptimizationLevel::Default,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| {
            BuildError::Setup("LLVM cannot create a target machine for this host".into())
        })
}

/// Reads one input into `context`. Functions of the user's own -O0 build lose `optnone`,
/// which would keep `sroa,mem2reg` from taking its locals out of memory.
fn load<'c>(unit: &Unit, context: &'c Context) -> Result<Module<'c>, BuildError> {
    let (path, what, module) = match unit {
        Unit::Bitcode(p, _) => (p, "bitcode", Module::parse_bitcode_from_path(p, context)),
        Unit::Ir(p, _) => (
            p,
            "IR",
            MemoryBuffer::create_from_file(p).and_then(|b| context.create_module_from_ir(b)),
        ),
    };
    let module = module.map_err(|e| {
        BuildError::Compile(format!("{} is not LLVM 19 {what}: {e}", path.display()))
    })?;
    let optnone = Attribute::get_named_enum_kind_id("optnone");
    for f in module.get_functions() {
        f.remove_enum_attribute(AttributeLoc::Function, optnone);
    }
    Ok(module)
}

fn instrument_to_object(
    units: &[Unit],
    object: &Path,
) -> Result<(instrument::Instrumented, HashMap<String, u64>), BuildError> {
    let context = Context::create();
    let (first, rest) = units.split_first().expect("at least one input file");
    let module = load(first, &context)?;
    // Who defined each name first, to name both files of a clash.
    let mut defined = HashMap::new();
    note_definitions(&module, first.source(), &mut defined);
    for unit in rest {
        let next = load(unit, &context)?;
        let clash = definitions(&next).find_map(|(name, strong)| {
            let (first, first_strong) = defined.get(&name)?;
            (strong && *first_strong).then_some((name, first))
        });
        if let Some((name, first)) = clash {
            let (a, b) = (first.display(), unit.source().display());
            return Err(BuildError::Link(format!(
                "`{name}` is defined in both {a} and {b}"
            )));
        }
        note_definitions(&next, unit.source(), &mut defined);
        module
            .link_in_module(next)
            .map_err(|e| BuildError::Link(format!("{}: {e}", unit.source().display())))?;
    }
    let tm = target_machine()?;
    module.set_triple(&tm.get_triple());
    // Only these two: passes that merge, hoist or delete loads and stores would change
    // which shared accesses the program makes.
    module
        .run_passes("sroa,mem2reg", &tm, PassBuilderOptions::create())
        .map_err(|e| BuildError::Setup(format!("LLVM passes failed: {e}")))?;
    let instrumented = instrument::instrument(&context, &module, &tm.get_target_data())
        .map_err(BuildError::Rejected)?;
    module
        .verify()
        .map_err(|e| BuildError::Setup(format!("instrumentation produced invalid IR: {e}")))?;
    if std::env::var_os("CDPOR_KEEP").is_some() {
        let _ = module.print_to_file(object.with_extension("ll"));
    }
    tm.write_to_file(&module, FileType::Object, object)
        .map_err(|e| BuildError::Setup(e.to_string()))?;
    Ok((
        instrumented,
        instrument::array_globals(&module, &tm.get_target_data()),
    ))
}

/// The names a module defines for other modules, each with whether its definition is a
/// strong one (two strong definitions of a name clash; weak, common and inline ones merge).
fn definitions<'m>(module: &'m Module) -> impl Iterator<Item = (String, bool)> + 'm {
    use inkwell::module::Linkage;
    let functions = module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
        .map(|f| f.as_global_value());
    let globals = module
        .get_globals()
        .filter(|g| g.get_initializer().is_some());
    functions.chain(globals).filter_map(|g| {
        let strong = match g.get_linkage() {
            Linkage::Internal | Linkage::Private | Linkage::AvailableExternally => return None,
            Linkage::External => true,
            _ => false,
        };
        Some((g.get_name().to_string_lossy().into_owned(), strong))
    })
}

fn note_definitions(
    module: &Module,
    source: &Path,
    defined: &mut HashMap<String, (PathBuf, bool)>,
) {
    for (name, strong) in definitions(module) {
        let e = defined
            .entry(name)
            .or_insert((source.to_path_buf(), strong));
        if strong && !e.1 {
            *e = (source.to_path_buf(), true);
        }
    }
}

/// Instruments a module and returns its IR, for tests of the pass.
pub fn instrument_ir(source: &str) -> Result<(String, Vec<Site>), BuildError> {
    let dir = tempfile::tempdir().map_err(|e| BuildError::Setup(e.to_string()))?;
    let c = dir.path().join("t.c");
    std::fs::write(&c, source).map_err(|e| BuildError::Setup(e.to_string()))?;
    let bc = dir.path().join("t.bc");
    let out = run(Command::new(clang()?)
        .args(FRONTEND)
        .arg(&c)
        .arg("-o")
        .arg(&bc))?;
    if !out.status.success() {
        return Err(BuildError::Compile(
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ));
    }
    let context = Context::create();
    let module = Module::parse_bitcode_from_path(&bc, &context)
        .map_err(|e| BuildError::Setup(e.to_string()))?;
    let tm = target_machine()?;
    module
        .run_passes("sroa,mem2reg", &tm, PassBuilderOptions::create())
        .map_err(|e| BuildError::Setup(e.to_string()))?;
    let instrumented = instrument::instrument(&context, &module, &tm.get_target_data())
        .map_err(BuildError::Rejected)?;
    module
        .verify()
        .map_err(|e| BuildError::Setup(e.to_string()))?;
    Ok((module.print_to_string().to_string(), instrumented.sites))
}
