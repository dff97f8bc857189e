//! The instrumentation pass: makes every visible operation of the user's module call into
//! the runtime first.
//!
//! * loads, stores, atomics and `llvm.mem*` intrinsics whose memory may be shared get a
//!   hook call with address, size and a site id (accesses to allocas whose address never
//!   escapes, and to constant globals, are left alone);
//! * calls to pthread and libc functions that the runtime replaces are redirected to
//!   `__cdpor_<name>`, and the site of each such call is stored in `__cdpor_site` first;
//! * `main` becomes `__cdpor_user_main`, so the runtime owns the process entry;
//! * functions the runtime cannot model are rejected by name.
//!
//! Each site gets an entry in the site table (function, file, line, column, operation), which
//! is how reports name source lines.

use std::collections::HashMap;

use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::*;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::values::AsValueRef;
use inkwell::values::{
    BasicMetadataValueEnum, BasicValueEnum, FunctionValue, InstructionOpcode, InstructionValue,
};
use inkwell::AtomicOrdering;
use serde::{Deserialize, Serialize};

mod externals;
mod frames;
mod irreversible;
mod linkage;
mod loops;
mod memoryless;
mod nondet;
mod records;
mod retry;
mod tls;
mod verifier;

pub use records::Record;
pub use tls::TlsVar;

/// What the program's `main` is called once instrumented (the runtime owns `main`).
pub const USER_MAIN: &str = "__cdpor_user_main";

/// Where a visible operation comes from in the source.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Site {
    pub op: String,
    pub function: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The global the access goes to, when the pass can tell (a fallback for reports).
    pub variable: Option<String>,
    /// For a copy, the variable it reads from, likewise.
    #[serde(default)]
    pub src_variable: Option<String>,
    /// The struct a load or store goes through, if the pass can tell (naming heap
    /// fields).
    #[serde(default)]
    pub record: Option<Record>,
}

/// An external function that cdpor does not model, called with a pointer to memory that
/// another thread may see: its accesses there are not events.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Warning {
    pub function: String,
    /// `file:line` of its first such call.
    pub location: String,
    #[serde(skip)]
    pub why: Unmodelled,
}

/// Why an unmodelled function may reach memory or state that threads share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unmodelled {
    /// A call passes it a pointer to such memory.
    SharedArgument,
    /// The program takes its address: calls through a pointer may pass anything.
    AddressTaken,
    /// It keeps state of its own that all threads share (`externals::hidden_state`).
    HiddenState,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is not modelled: {}",
            self.function,
            match self.why {
                Unmodelled::SharedArgument =>
                    "its accesses to memory that other threads may share are not explored (called with such a pointer",
                Unmodelled::AddressTaken =>
                    "its accesses to memory that other threads may share are not explored (its address is taken, and calls through a pointer may pass such memory",
                Unmodelled::HiddenState =>
                    "it keeps state that all threads share (a static result the next call overwrites), and the order of threads' calls is not explored (called",
            }
        )?;
        if !self.location.is_empty() {
            write!(f, " at {}", self.location)?;
        }
        write!(f, ")")
    }
}

/// An instrumented module's site table and warnings.
pub struct Instrumented {
    /// Index = site id; 0 is unknown.
    pub sites: Vec<Site>,
    pub warnings: Vec<Warning>,
    /// The program uses the SV-COMP verifier API.
    pub verifier_api: bool,
    /// Where each thread-local variable is in a thread's block.
    pub tls: Vec<TlsVar>,
}

/// Why a module cannot be checked.
#[derive(Debug)]
pub enum Rejection {
    NoMain,
    Unsupported {
        function: String,
        at: String,
        why: &'static str,
    },
    ThreadLocal {
        variable: String,
    },
    /// The program stores the address of `errno` into memory, where another thread
    /// could take it.
    ErrnoAddress {
        at: String,
    },
    /// The program defines an allocator function and calls one of the model's, so that
    /// blocks of one could reach the other.
    MixedAllocators {
        defined: String,
        called: String,
        at: String,
    },
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejection::NoMain => write!(f, "the program has no `main` function"),
            Rejection::Unsupported { function, at, why } => {
                write!(f, "unsupported function `{function}`")?;
                if !at.is_empty() {
                    write!(f, " (called at {at})")?;
                }
                write!(f, ": {why}")
            }
            Rejection::ErrnoAddress { at } => write!(
                f,
                "the address of `errno` is stored in memory at {at}: each thread has its own errno value in cdpor, but not its own address, so another thread using it would be modelled wrongly"
            ),
            Rejection::MixedAllocators { defined, called, at } => {
                write!(f, "the program defines its own `{defined}` but calls the C library's `{called}`")?;
                if !at.is_empty() {
                    write!(f, " (at {at})")?;
                }
                write!(
                    f,
                    ": cdpor models the library's allocator apart from the program's, so blocks of one would reach the other; the program must define every allocator function it calls (malloc, calloc, realloc, free, strdup, ...), or none"
                )
            }
            Rejection::ThreadLocal { variable } => write!(
                f,
                "thread-local variable `{variable}` is used other than through llvm.threadlocal.address, which cdpor cannot give each thread a copy of"
            ),
        }
    }
}

fn cstr(p: *const std::ffi::c_char, len: usize) -> String {
    if p.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0;
    let p = unsafe { LLVMGetValueName2(v, &mut len) };
    cstr(p, len)
}

fn opcode(v: LLVMValueRef) -> Option<LLVMOpcode> {
    unsafe { (!LLVMIsAInstruction(v).is_null()).then(|| LLVMGetInstructionOpcode(v)) }
}

/// The function a call instruction calls directly, if any.
fn callee(call: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        let n = LLVMGetNumOperands(call);
        let f = LLVMGetOperand(call, (n - 1) as u32);
        (!LLVMIsAFunction(f).is_null()).then_some(f)
    }
}

/// The location of a block: that of its first instruction that has one.
fn block_location(bb: inkwell::llvm_sys::prelude::LLVMBasicBlockRef) -> (String, u32, u32) {
    unsafe {
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            let loc = location(i);
            if loc.1 != 0 {
                return loc;
            }
            i = LLVMGetNextInstruction(i);
        }
    }
    (String::new(), 0, 0)
}

/// `file:line` of an instruction, from its debug location.
fn location(inst: LLVMValueRef) -> (String, u32, u32) {
    unsafe {
        let loc = LLVMInstructionGetDebugLoc(inst);
        if loc.is_null() {
            return (String::new(), 0, 0);
        }
        let line = LLVMDILocationGetLine(loc);
        let col = LLVMDILocationGetColumn(loc);
        let scope = LLVMDILocationGetScope(loc);
        let file = if scope.is_null() {
            std::ptr::null_mut()
        } else {
            LLVMDIScopeGetFile(scope)
        };
        let name = if file.is_null() {
            String::new()
        } else {
            let mut len = 0;
            let p = LLVMDIFileGetFilename(file, &mut len);
            let name = cstr(p, len as usize);
            let p = LLVMDIFileGetDirectory(file, &mut len);
            // clang may split the path the user gave into a directory and a name; the
            // whole path, as short as the working directory allows, is the user's.
            let path = std::path::Path::new(&cstr(p, len as usize)).join(&name);
            crate::symbols::short(&path.to_string_lossy()).into_owned()
        };
        (name, line, col)
    }
}

/// The global or local variable `ptr` points into, by name. Locals are named after their
/// variable (clang keeps names with -fno-discard-value-names); the address alone only says
/// whose stack it is.
fn named_object(ptr: LLVMValueRef) -> Option<String> {
    let base = base_object(ptr);
    let named =
        unsafe { !LLVMIsAGlobalVariable(base).is_null() || !LLVMIsAAllocaInst(base).is_null() };
    Some(value_name(base)).filter(|n| named && !n.is_empty())
}

/// The object a pointer points into: through GEPs and casts, instructions or constants.
fn base_object(mut p: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        for _ in 0..64 {
            let op = if !LLVMIsAInstruction(p).is_null() {
                Some(LLVMGetInstructionOpcode(p))
            } else if !LLVMIsAConstantExpr(p).is_null() {
                Some(LLVMGetConstOpcode(p))
            } else {
                None
            };
            match op {
                Some(
                    LLVMOpcode::LLVMGetElementPtr
                    | LLVMOpcode::LLVMBitCast
                    | LLVMOpcode::LLVMAddrSpaceCast,
                ) => p = LLVMGetOperand(p, 0),
                _ => break,
            }
        }
        p
    }
}

fn is_intrinsic(f: LLVMValueRef, prefixes: &[&str]) -> bool {
    let name = value_name(f);
    prefixes.iter().any(|p| name.starts_with(p))
}

/// A pointer the C library handed out from one of its own globals (`stdout`, `stderr`):
/// it points at the library's objects, not the program's.
fn is_library_object(p: LLVMValueRef) -> bool {
    unsafe {
        opcode(p) == Some(LLVMOpcode::LLVMLoad) && {
            let g = LLVMGetOperand(p, 0);
            !LLVMIsAGlobalVariable(g).is_null() && LLVMIsDeclaration(g) != 0
        }
    }
}

/// Whether the address of an alloca can reach another thread: stored somewhere, passed to
/// a call, turned into an integer, returned...
fn escapes(alloca: LLVMValueRef) -> bool {
    let mut work = vec![alloca];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        unsafe {
            let mut u = LLVMGetFirstUse(v);
            while !u.is_null() {
                let user = LLVMGetUser(u);
                let ok = match opcode(user) {
                    Some(LLVMOpcode::LLVMLoad) | Some(LLVMOpcode::LLVMICmp) => true,
                    Some(LLVMOpcode::LLVMStore) => LLVMGetOperand(user, 0) != v,
                    Some(LLVMOpcode::LLVMAtomicRMW) | Some(LLVMOpcode::LLVMAtomicCmpXchg) => {
                        LLVMGetOperand(user, 0) == v
                            && (1..LLVMGetNumOperands(user) as u32)
                                .all(|i| LLVMGetOperand(user, i) != v)
                    }
                    Some(
                        LLVMOpcode::LLVMGetElementPtr
                        | LLVMOpcode::LLVMBitCast
                        | LLVMOpcode::LLVMAddrSpaceCast
                        | LLVMOpcode::LLVMPHI
                        | LLVMOpcode::LLVMSelect,
                    ) => {
                        work.push(user);
                        true
                    }
                    Some(LLVMOpcode::LLVMCall) => callee(user).is_some_and(|f| {
                        is_intrinsic(
                            f,
                            &[
                                "llvm.lifetime.",
                                "llvm.dbg.",
                                "llvm.memcpy",
                                "llvm.memmove",
                                "llvm.memset",
                            ],
                        ) || {
                            let name = value_name(f);
                            let args = LLVMGetNumOperands(user) as u32 - 1;
                            (0..args).all(|i| {
                                LLVMGetOperand(user, i) != v || externals::keeps_private(&name, i)
                            })
                        }
                    }),
                    _ => false,
                };
                if !ok {
                    return true;
                }
                u = LLVMGetNextUse(u);
            }
        }
    }
    false
}

struct Hooks<'ctx> {
    load: FunctionValue<'ctx>,
    store: FunctionValue<'ctx>,
    rmw: FunctionValue<'ctx>,
    cmpxchg: FunctionValue<'ctx>,
    fence: FunctionValue<'ctx>,
    memcpy: FunctionValue<'ctx>,
    memset: FunctionValue<'ctx>,
}

/// What to do before one instruction.
enum Action {
    Load {
        ptr: LLVMValueRef,
        size: u64,
        atomic: bool,
    },
    Store {
        ptr: LLVMValueRef,
        value: LLVMValueRef,
        size: u64,
        atomic: bool,
    },
    Rmw {
        ptr: LLVMValueRef,
        size: u64,
        /// LLVM's `AtomicRMWBinOp` and the operand: whether it changes memory.
        op: u32,
        operand: LLVMValueRef,
    },
    CmpXchg {
        ptr: LLVMValueRef,
        expected: LLVMValueRef,
        desired: LLVMValueRef,
        size: u64,
    },
    Fence,
    Copy {
        dst: LLVMValueRef,
        src: LLVMValueRef,
        len: LLVMValueRef,
    },
    Set {
        dst: LLVMValueRef,
        len: LLVMValueRef,
    },
    /// A call to a redirected or external function: record its site.
    Site,
}

impl Action {
    fn op(&self, callee: &str) -> String {
        match self {
            Action::Load { atomic: true, .. } => "atomic-load".into(),
            Action::Load { .. } => "load".into(),
            Action::Store { atomic: true, .. } => "atomic-store".into(),
            Action::Store { .. } => "store".into(),
            Action::Rmw { .. } => "atomicrmw".into(),
            Action::CmpXchg { .. } => "cmpxchg".into(),
            Action::Fence => "fence".into(),
            Action::Copy { .. } => "memcpy".into(),
            Action::Set { .. } => "memset".into(),
            Action::Site => callee.to_string(),
        }
    }
}

pub struct Pass<'a, 'ctx> {
    context: &'ctx Context,
    module: &'a Module<'ctx>,
    target: &'a TargetData,
    sites: Vec<Site>,
    warnings: Vec<Warning>,
    shared: HashMap<LLVMValueRef, bool>,
}

/// Instruments `module` in place and returns its site table and warnings.
pub fn instrument<'ctx>(
    context: &'ctx Context,
    module: &Module<'ctx>,
    target: &TargetData,
) -> Result<Instrumented, Rejection> {
    let mut pass = Pass {
        context,
        module,
        target,
        sites: vec![Site::default()],
        warnings: Vec::new(),
        shared: HashMap::new(),
    };
    let (verifier_api, tls) = pass.run()?;
    Ok(Instrumented {
        sites: pass.sites,
        warnings: pass.warnings,
        verifier_api,
        tls,
    })
}

impl<'a, 'ctx> Pass<'a, 'ctx> {
    /// Instruments the module; returns whether it uses the SV-COMP verifier API, and its
    /// thread-local variables.
    fn run(&mut self) -> Result<(bool, Vec<TlsVar>), Rejection> {
        let main = self
            .module
            .get_function("main")
            .filter(|f| f.count_basic_blocks() > 0)
            .ok_or(Rejection::NoMain)?;
        self.make_names_private();
        self.check_own_allocator()?;
        let tls = self.lower_thread_locals()?;
        let verifier_api = self.lower_verifier_api();
        let redirected = self.check_calls()?;
        self.check_errno_address()?;
        self.unmodelled_calls(&redirected);
        self.mark_exit_handlers(&redirected);
        let hooks = self.declare_hooks();
        let site_global = self
            .module
            .add_global(self.context.i32_type(), None, "__cdpor_site");

        let mut actions = Vec::new();
        for f in self.module.get_functions() {
            for bb in f.get_basic_block_iter() {
                for inst in bb.get_instructions() {
                    if let Some(a) = self.action(inst, &redirected) {
                        actions.push((f, inst, a));
                    }
                }
            }
        }

        let builder = self.context.create_builder();
        for (f, inst, action) in actions {
            let (file, line, column) = location(inst.as_value_ref());
            let callee_name = if let Action::Site = action {
                callee(inst.as_value_ref())
                    .map_or_else(|| "call through a pointer".to_string(), value_name)
            } else {
                String::new()
            };
            let variable = self.variable_of(&action, inst.as_value_ref());
            let src_variable = match action {
                Action::Copy { src, .. } => named_object(src),
                _ => None,
            };
            let record = match action {
                Action::Load { ptr, .. }
                | Action::Store { ptr, .. }
                | Action::Rmw { ptr, .. }
                | Action::CmpXchg { ptr, .. } => records::record_of(ptr, self.target_ref()),
                _ => None,
            };
            let site = self.sites.len() as u32;
            self.sites.push(Site {
                op: action.op(&callee_name),
                function: f.get_name().to_string_lossy().into_owned(),
                file,
                line,
                column,
                variable,
                src_variable,
                record,
            });
            builder.position_before(&inst);
            self.emit(
                &builder,
                &hooks,
                site_global.as_pointer_value(),
                action,
                site,
            );
        }

        // Before the redirected functions take their runtime names: which library
        // functions a loop calls decides whether it can wait, and which calls a reset
        // can undo.
        self.mark_irreversible_calls(&redirected);
        self.instrument_loops();
        self.check_frames();

        for (from, to) in redirected {
            let f = unsafe { FunctionValue::new(from).expect("a function") };
            match self.module.get_function(&to) {
                // Another spelling (e.g. `_exit` and `exit`) was redirected already.
                Some(existing) => {
                    f.replace_all_uses_with(existing);
                    unsafe { f.delete() };
                }
                None => f.as_global_value().set_name(&to),
            }
        }
        main.as_global_value().set_name(USER_MAIN);
        self.mark_unused_barrier_results();
        Ok((verifier_api, tls))
    }

    /// When no call of `pthread_barrier_wait` uses its result, the calls go to a shim
    /// that says so: no thread needs to be told it is the serial one, which saves the
    /// exploration a choice of serial thread per round (`ops::barrier`). One call that
    /// uses it (or a use of the function other than a call) and every thread may be the
    /// one told, the ones that ignore it included.
    fn mark_unused_barrier_results(&self) {
        let Some(wait) = self.module.get_function("__cdpor_pthread_barrier_wait") else {
            return;
        };
        let wait_ref = wait.as_value_ref();
        let mut calls = Vec::new();
        unsafe {
            let mut u = LLVMGetFirstUse(wait_ref);
            while !u.is_null() {
                let user = LLVMGetUser(u);
                let ignored = opcode(user) == Some(LLVMOpcode::LLVMCall)
                    && callee(user) == Some(wait_ref)
                    && LLVMGetFirstUse(user).is_null();
                if !ignored {
                    return;
                }
                calls.push(user);
                u = LLVMGetNextUse(u);
            }
        }
        let unused =
            self.module
                .add_function("__cdpor_pthread_barrier_wait_unused", wait.get_type(), None);
        for call in calls {
            unsafe {
                let n = LLVMGetNumOperands(call);
                LLVMSetOperand(call, (n - 1) as u32, unused.as_value_ref());
            }
        }
    }

    /// Tells the runtime whether the program can register exit handlers, so that the
    /// end of every other program stays one event.
    fn mark_exit_handlers(&self, redirected: &[(LLVMValueRef, String)]) {
        let registers = |(_, to): &(LLVMValueRef, String)| {
            to == "__cdpor_atexit" || to == "__cdpor_at_quick_exit"
        };
        if redirected.iter().any(registers) {
            let i8 = self.context.i8_type();
            let flag = self
                .module
                .add_global(i8, None, "__cdpor_exit_handlers_used");
            flag.set_initializer(&i8.const_int(1, false));
            flag.set_constant(true);
        }
    }

    /// Checks every called declaration; returns the declarations to redirect, with their
    /// new names.
    fn check_calls(&self) -> Result<Vec<(LLVMValueRef, String)>, Rejection> {
        let mut redirected = Vec::new();
        for f in self.module.get_functions() {
            if f.count_basic_blocks() > 0 {
                continue;
            }
            let name = f.get_name().to_string_lossy().into_owned();
            if let Some(to) = externals::redirect(&name) {
                redirected.push((f.as_value_ref(), format!("__cdpor_{to}")));
            } else if let Some(why) = externals::unsupported(&name) {
                let Some(user) = first_user(f.as_value_ref()) else {
                    continue;
                };
                let (file, line, _) = location(user);
                let at = if file.is_empty() {
                    String::new()
                } else {
                    format!("{file}:{line}")
                };
                return Err(Rejection::Unsupported {
                    function: name,
                    at,
                    why,
                });
            }
        }
        Ok(redirected)
    }

    /// Refuses a program that stores `&errno` into memory: cdpor keeps each thread's
    /// errno value in the one location the C library writes, so the address is the same
    /// in every thread. Using it within the thread that took it is fine.
    fn check_errno_address(&self) -> Result<(), Rejection> {
        let Some(f) = self.module.get_function("__errno_location") else {
            return Ok(());
        };
        unsafe {
            let mut u = LLVMGetFirstUse(f.as_value_ref());
            while !u.is_null() {
                let call = LLVMGetUser(u);
                u = LLVMGetNextUse(u);
                let mut v = LLVMGetFirstUse(call);
                while !v.is_null() {
                    let user = LLVMGetUser(v);
                    v = LLVMGetNextUse(v);
                    if opcode(user) == Some(LLVMOpcode::LLVMStore)
                        && LLVMGetOperand(user, 0) == call
                    {
                        let (file, line, _) = location(user);
                        return Err(Rejection::ErrnoAddress {
                            at: format!("{file}:{line}"),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Warns about each external function that cdpor does not model and that the program
    /// calls with a pointer to memory another thread may see.
    fn unmodelled_calls(&mut self, redirected: &[(LLVMValueRef, String)]) {
        for f in self.module.get_functions() {
            let fv = f.as_value_ref();
            let name = f.get_name().to_string_lossy().into_owned();
            if f.count_basic_blocks() > 0
                || redirected.iter().any(|(r, _)| *r == fv)
                || externals::harmless(&name)
            {
                continue;
            }
            let (mut calls, mut address_taken) = (Vec::new(), None);
            unsafe {
                let mut u = LLVMGetFirstUse(fv);
                while !u.is_null() {
                    let user = LLVMGetUser(u);
                    if opcode(user) == Some(LLVMOpcode::LLVMCall) && callee(user) == Some(fv) {
                        calls.push(user);
                    } else if address_taken.is_none() || opcode(user).is_some() {
                        address_taken = Some(user);
                    }
                    u = LLVMGetNextUse(u);
                }
            }
            let shared_arg = |pass: &mut Self, call: LLVMValueRef| unsafe {
                let args = LLVMGetNumOperands(call) as u32 - 1;
                (0..args).any(|i| {
                    let a = LLVMGetOperand(call, i);
                    LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMTypeKind::LLVMPointerTypeKind
                        && !is_library_object(a)
                        && pass.may_be_shared(a)
                })
            };
            let warn_at = if externals::hidden_state(&name) {
                calls
                    .first()
                    .copied()
                    .or(address_taken)
                    .map(|c| (c, Unmodelled::HiddenState))
            } else {
                calls
                    .iter()
                    .copied()
                    .find(|&c| shared_arg(self, c))
                    .map(|c| (c, Unmodelled::SharedArgument))
                    .or(address_taken.map(|u| (u, Unmodelled::AddressTaken)))
            };
            if let Some((at, why)) = warn_at {
                let (file, line, _) = if opcode(at).is_some() {
                    location(at)
                } else {
                    Default::default()
                };
                self.warnings.push(Warning {
                    why,
                    function: externals::source_name(&name).to_string(),
                    location: if file.is_empty() {
                        String::new()
                    } else {
                        format!("{file}:{line}")
                    },
                });
            }
        }
    }

    fn declare_hooks(&self) -> Hooks<'ctx> {
        let c = self.context;
        let (void, ptr, i64t, i32t) = (
            c.void_type(),
            c.ptr_type(Default::default()),
            c.i64_type(),
            c.i32_type(),
        );
        let declare = |name: &str, params: &[inkwell::types::BasicMetadataTypeEnum<'ctx>]| {
            self.module.get_function(name).unwrap_or_else(|| {
                self.module
                    .add_function(name, void.fn_type(params, false), None)
            })
        };
        Hooks {
            load: declare(
                "__cdpor_load",
                &[ptr.into(), i64t.into(), i32t.into(), i32t.into()],
            ),
            store: declare(
                "__cdpor_store",
                &[
                    ptr.into(),
                    i64t.into(),
                    i64t.into(),
                    i32t.into(),
                    i32t.into(),
                ],
            ),
            rmw: declare(
                "__cdpor_rmw",
                &[
                    ptr.into(),
                    i64t.into(),
                    i64t.into(),
                    i32t.into(),
                    i32t.into(),
                ],
            ),
            cmpxchg: declare(
                "__cdpor_cmpxchg",
                &[
                    ptr.into(),
                    i64t.into(),
                    i64t.into(),
                    i32t.into(),
                    i32t.into(),
                ],
            ),
            fence: declare("__cdpor_fence", &[i32t.into()]),
            memcpy: declare(
                "__cdpor_memcpy",
                &[ptr.into(), ptr.into(), i64t.into(), i32t.into()],
            ),
            memset: declare("__cdpor_memset", &[ptr.into(), i64t.into(), i32t.into()]),
        }
    }

    /// May memory at `ptr` be seen by another thread?
    fn may_be_shared(&mut self, ptr: LLVMValueRef) -> bool {
        let base = base_object(ptr);
        if let Some(&s) = self.shared.get(&base) {
            return s;
        }
        let shared = unsafe {
            if !LLVMIsAAllocaInst(base).is_null() {
                escapes(base)
            } else if !LLVMIsAGlobalVariable(base).is_null() {
                LLVMIsGlobalConstant(base) == 0
            } else {
                // `errno` is each thread's own (the runtime keeps it per thread).
                opcode(base) != Some(LLVMOpcode::LLVMCall)
                    || callee(base).is_none_or(|f| value_name(f) != "__errno_location")
            }
        };
        self.shared.insert(base, shared);
        shared
    }

    /// A site of the instrumentation's own (a loop head, a frame check...) in `f`.
    fn add_site(
        &mut self,
        f: FunctionValue,
        (file, line, column): (String, u32, u32),
        op: &str,
    ) -> u32 {
        self.sites.push(Site {
            op: op.to_string(),
            function: f.get_name().to_string_lossy().into_owned(),
            file,
            line,
            column,
            variable: None,
            src_variable: None,
            record: None,
        });
        self.sites.len() as u32 - 1
    }

    fn store_size(&self, ty: inkwell::llvm_sys::prelude::LLVMTypeRef) -> u64 {
        unsafe { inkwell::llvm_sys::target::LLVMStoreSizeOfType(self.target_ref(), ty) }
    }

    fn target_ref(&self) -> inkwell::llvm_sys::target::LLVMTargetDataRef {
        self.target.as_mut_ptr()
    }

    fn action(
        &mut self,
        inst: InstructionValue<'ctx>,
        redirected: &[(LLVMValueRef, String)],
    ) -> Option<Action> {
        let v = inst.as_value_ref();
        let atomic = || {
            inst.get_atomic_ordering()
                .is_ok_and(|o| o != AtomicOrdering::NotAtomic)
        };
        unsafe {
            match inst.get_opcode() {
                InstructionOpcode::Load => {
                    let ptr = LLVMGetOperand(v, 0);
                    self.may_be_shared(ptr).then(|| Action::Load {
                        ptr,
                        size: self.store_size(LLVMTypeOf(v)),
                        atomic: atomic(),
                    })
                }
                InstructionOpcode::Store => {
                    let (value, ptr) = (LLVMGetOperand(v, 0), LLVMGetOperand(v, 1));
                    self.may_be_shared(ptr).then(|| Action::Store {
                        ptr,
                        value,
                        size: self.store_size(LLVMTypeOf(value)),
                        atomic: atomic(),
                    })
                }
                InstructionOpcode::AtomicRMW => {
                    let ptr = LLVMGetOperand(v, 0);
                    self.may_be_shared(ptr).then(|| Action::Rmw {
                        ptr,
                        size: self.store_size(LLVMTypeOf(LLVMGetOperand(v, 1))),
                        op: LLVMGetAtomicRMWBinOp(v) as u32,
                        operand: LLVMGetOperand(v, 1),
                    })
                }
                InstructionOpcode::AtomicCmpXchg => {
                    let ptr = LLVMGetOperand(v, 0);
                    let expected = LLVMGetOperand(v, 1);
                    self.may_be_shared(ptr).then(|| Action::CmpXchg {
                        ptr,
                        expected,
                        desired: LLVMGetOperand(v, 2),
                        size: self.store_size(LLVMTypeOf(expected)),
                    })
                }
                InstructionOpcode::Fence => Some(Action::Fence),
                InstructionOpcode::Call => {
                    // A call through a pointer may reach a redirected function, whose
                    // event needs the site of the call.
                    let Some(f) = callee(v) else {
                        let target = LLVMGetOperand(v, (LLVMGetNumOperands(v) - 1) as u32);
                        return LLVMIsAInlineAsm(target).is_null().then_some(Action::Site);
                    };
                    let name = value_name(f);
                    // A call into the C library: its site says where a crash inside it
                    // comes from, and a redirected function's where its event is.
                    let external = LLVMCountBasicBlocks(f) == 0
                        && !name.starts_with("llvm.")
                        && !name.starts_with("__cdpor_");
                    if external || redirected.iter().any(|(r, _)| *r == f) {
                        return Some(Action::Site);
                    }
                    if name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove") {
                        let (dst, src, len) = (
                            LLVMGetOperand(v, 0),
                            LLVMGetOperand(v, 1),
                            LLVMGetOperand(v, 2),
                        );
                        (self.may_be_shared(dst) || self.may_be_shared(src))
                            .then_some(Action::Copy { dst, src, len })
                    } else if name.starts_with("llvm.memset") {
                        let (dst, len) = (LLVMGetOperand(v, 0), LLVMGetOperand(v, 2));
                        self.may_be_shared(dst).then_some(Action::Set { dst, len })
                    } else {
                        None
                    }
                }
                _ => None,
            }
        }
    }

    /// A name for the memory an access goes to, when it is (a field of) a global or a
    /// local; for a call, the memory its first pointer argument points to.
    fn variable_of(&self, action: &Action, inst: LLVMValueRef) -> Option<String> {
        let ptr = match action {
            Action::Load { ptr, .. }
            | Action::Store { ptr, .. }
            | Action::Rmw { ptr, .. }
            | Action::CmpXchg { ptr, .. } => *ptr,
            Action::Copy { dst, .. } | Action::Set { dst, .. } => *dst,
            Action::Fence => return None,
            Action::Site => unsafe {
                let args = LLVMGetNumOperands(inst) as u32 - 1;
                (0..args).map(|i| LLVMGetOperand(inst, i)).find(|&a| {
                    LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMTypeKind::LLVMPointerTypeKind
                })?
            },
        };
        named_object(ptr)
    }

    fn emit(
        &self,
        b: &Builder<'ctx>,
        hooks: &Hooks<'ctx>,
        site_global: inkwell::values::PointerValue<'ctx>,
        action: Action,
        site: u32,
    ) {
        let c = self.context;
        let i64c =
            |n: u64| -> BasicMetadataValueEnum<'ctx> { c.i64_type().const_int(n, false).into() };
        let i32c =
            |n: u64| -> BasicMetadataValueEnum<'ctx> { c.i32_type().const_int(n, false).into() };
        let val = |v: LLVMValueRef| -> BasicMetadataValueEnum<'ctx> {
            unsafe { BasicValueEnum::new(v).into() }
        };
        let flags = |atomic: bool, has_value: bool| {
            i32c(
                u64::from(atomic) * cdpor_sched::event::FLAG_ATOMIC as u64
                    + u64::from(has_value) * cdpor_sched::event::FLAG_VALUE as u64,
            )
        };
        let call = |f: FunctionValue<'ctx>, args: &[BasicMetadataValueEnum<'ctx>]| {
            b.build_call(f, args, "").expect("builder is positioned");
        };
        match action {
            Action::Load { ptr, size, atomic } => call(
                hooks.load,
                &[
                    val(ptr),
                    i64c(size),
                    i32c(site as u64),
                    flags(atomic, false),
                ],
            ),
            Action::Store {
                ptr,
                value,
                size,
                atomic,
            } => {
                let (v, known) = self.as_i64(b, value);
                call(
                    hooks.store,
                    &[
                        val(ptr),
                        i64c(size),
                        v,
                        i32c(site as u64),
                        flags(atomic, known),
                    ],
                )
            }
            Action::Rmw {
                ptr,
                size,
                op,
                operand,
            } => {
                // The runtime knows the operation only if the operand fits a word.
                let (v, known) = self.as_i64(b, operand);
                let op = if known { op as u64 + 1 } else { 0 };
                call(
                    hooks.rmw,
                    &[val(ptr), i64c(size), v, i32c(op), i32c(site as u64)],
                )
            }
            Action::CmpXchg {
                ptr,
                expected,
                desired,
                size,
            } => {
                let (v, known) = self.as_i64(b, expected);
                let (d, known_d) = self.as_i64(b, desired);
                // Whether a success would store what memory held (expected = desired):
                // the runtime then records it as changing nothing.
                let i32t = self.context.i32_type();
                let same: BasicMetadataValueEnum = if known && known_d {
                    let eq = b
                        .build_int_compare(
                            inkwell::IntPredicate::EQ,
                            v.into_int_value(),
                            d.into_int_value(),
                            "",
                        )
                        .expect("positioned");
                    b.build_int_z_extend(eq, i32t, "")
                        .expect("positioned")
                        .into()
                } else {
                    i32t.const_zero().into()
                };
                call(
                    hooks.cmpxchg,
                    &[val(ptr), i64c(size), v, same, i32c(site as u64)],
                )
            }
            Action::Fence => call(hooks.fence, &[i32c(site as u64)]),
            Action::Copy { dst, src, len } => {
                let (len, _) = self.as_i64(b, len);
                call(hooks.memcpy, &[val(dst), val(src), len, i32c(site as u64)])
            }
            Action::Set { dst, len } => {
                let (len, _) = self.as_i64(b, len);
                call(hooks.memset, &[val(dst), len, i32c(site as u64)])
            }
            Action::Site => {
                b.build_store(site_global, c.i32_type().const_int(site as u64, false))
                    .expect("builder is positioned");
            }
        }
    }

    /// The value as an i64 for the reports, and whether it is the whole value.
    fn as_i64(&self, b: &Builder<'ctx>, v: LLVMValueRef) -> (BasicMetadataValueEnum<'ctx>, bool) {
        let c = self.context;
        let i64t = c.i64_type();
        unsafe {
            let ty = LLVMTypeOf(v);
            let bv = BasicValueEnum::new(v);
            let out: Option<inkwell::values::IntValue<'ctx>> = match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMIntegerTypeKind if LLVMGetIntTypeWidth(ty) <= 64 => Some(
                    b.build_int_z_extend_or_bit_cast(bv.into_int_value(), i64t, "")
                        .expect("positioned"),
                ),
                LLVMTypeKind::LLVMPointerTypeKind => Some(
                    b.build_ptr_to_int(bv.into_pointer_value(), i64t, "")
                        .expect("positioned"),
                ),
                LLVMTypeKind::LLVMDoubleTypeKind => Some(
                    b.build_bit_cast(bv, i64t, "")
                        .expect("positioned")
                        .into_int_value(),
                ),
                LLVMTypeKind::LLVMFloatTypeKind => {
                    let i = b
                        .build_bit_cast(bv, c.i32_type(), "")
                        .expect("positioned")
                        .into_int_value();
                    Some(b.build_int_z_extend(i, i64t, "").expect("positioned"))
                }
                _ => None,
            };
            match out {
                Some(i) => (i.into(), true),
                None => (i64t.const_zero().into(), false),
            }
        }
    }
}

/// Element size of each global array, for reports to name `a[i]` instead of `a+off`.
pub fn array_globals(module: &Module, target: &TargetData) -> HashMap<String, u64> {
    let mut out = HashMap::new();
    for g in module.get_globals() {
        unsafe {
            let ty = LLVMGlobalGetValueType(g.as_value_ref());
            if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMArrayTypeKind {
                let elem = inkwell::llvm_sys::target::LLVMStoreSizeOfType(
                    target.as_mut_ptr(),
                    LLVMGetElementType(ty),
                );
                out.insert(g.get_name().to_string_lossy().into_owned(), elem);
            }
        }
    }
    out
}

fn first_user(f: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        let mut u = LLVMGetFirstUse(f);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            if !LLVMIsAInstruction(user).is_null() {
                return Some(user);
            }
            u = LLVMGetNextUse(u);
        }
        None
    }
}
