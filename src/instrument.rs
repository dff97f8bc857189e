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
            Rejection::ThreadLocal { variable } => write!(
                f,
                "thread-local variable `{variable}` is not supported yet (all threads run in one OS thread)"
            ),
        }
    }
}

/// Functions the runtime replaces, and the name of the replacement's suffix.
const REDIRECTS: &[(&str, &str)] = &[
    ("pthread_create", "pthread_create"),
    ("pthread_join", "pthread_join"),
    ("pthread_exit", "pthread_exit"),
    ("pthread_self", "pthread_self"),
    ("pthread_equal", "pthread_equal"),
    ("pthread_detach", "pthread_detach"),
    ("pthread_attr_init", "pthread_attr_init"),
    ("pthread_attr_destroy", "pthread_attr_destroy"),
    ("pthread_mutex_init", "pthread_mutex_init"),
    ("pthread_mutex_destroy", "pthread_mutex_destroy"),
    ("pthread_mutex_lock", "pthread_mutex_lock"),
    ("pthread_mutex_trylock", "pthread_mutex_trylock"),
    ("pthread_mutex_unlock", "pthread_mutex_unlock"),
    ("pthread_cond_init", "pthread_cond_init"),
    ("pthread_cond_destroy", "pthread_cond_destroy"),
    ("pthread_cond_wait", "pthread_cond_wait"),
    ("pthread_cond_signal", "pthread_cond_signal"),
    ("pthread_cond_broadcast", "pthread_cond_broadcast"),
    ("exit", "exit"),
    ("_exit", "exit"),
    ("_Exit", "exit"),
    ("abort", "abort"),
    ("__assert_fail", "assert_fail"),
    ("malloc", "malloc"),
    ("calloc", "calloc"),
    ("realloc", "realloc"),
    ("free", "free"),
    ("aligned_alloc", "aligned_alloc"),
    ("memalign", "memalign"),
    ("posix_memalign", "posix_memalign"),
    ("strdup", "strdup"),
    ("strndup", "strndup"),
    ("sleep", "sleep"),
    ("usleep", "usleep"),
    ("nanosleep", "nanosleep"),
    ("sched_yield", "sched_yield"),
];

/// Why a function the program calls cannot be modelled yet, if it cannot.
fn unsupported(name: &str) -> Option<&'static str> {
    const PROCESS: &[&str] = &[
        "fork",
        "vfork",
        "clone",
        "system",
        "popen",
        "execv",
        "execve",
        "execvp",
        "execl",
        "execlp",
        "execle",
        "wait",
        "waitpid",
        "signal",
        "sigaction",
        "raise",
        "kill",
        "alarm",
        "setitimer",
        "pause",
        "atexit",
        "at_quick_exit",
        "quick_exit",
        "thrd_create",
        "call_once",
    ];
    // Attribute objects are plain data: glibc's own functions fill them in, and the
    // runtime reads a mutex's type where it matters (recursive mutexes are refused).
    const ATTRIBUTES: &[&str] = &[
        "pthread_attr_setdetachstate",
        "pthread_attr_getdetachstate",
        "pthread_attr_setstacksize",
        "pthread_attr_getstacksize",
        "pthread_mutexattr_init",
        "pthread_mutexattr_destroy",
        "pthread_mutexattr_settype",
        "pthread_mutexattr_gettype",
    ];
    if ATTRIBUTES.contains(&name) {
        None
    } else if name == "pthread_cond_timedwait" || name == "pthread_cond_clockwait" {
        Some("timed waits are not supported yet")
    } else if name.starts_with("pthread_cond") {
        Some("this condition-variable function is not supported yet")
    } else if name.starts_with("pthread_rwlock_") {
        Some("read-write locks are not supported yet")
    } else if name.starts_with("pthread_barrier_") || name.starts_with("pthread_spin_") {
        Some("barriers and spin locks are not supported yet")
    } else if name.starts_with("pthread_key_")
        || name.ends_with("specific") && name.starts_with("pthread_")
    {
        Some("thread-specific data is not supported yet")
    } else if name.starts_with("pthread_") {
        Some("this pthread function is not supported yet")
    } else if name.starts_with("sem_") {
        Some("semaphores are not supported yet")
    } else if ["thrd_", "mtx_", "cnd_", "tss_"]
        .iter()
        .any(|p| name.starts_with(p))
    {
        Some("C11 threads are not supported yet")
    } else if name.starts_with("__VERIFIER_") {
        Some("the SV-COMP __VERIFIER_ API is not supported yet")
    } else if PROCESS.contains(&name) {
        Some("processes, signals and exit handlers are outside what cdpor models")
    } else {
        None
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
            cstr(p, len as usize)
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
                        )
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
    },
    CmpXchg {
        ptr: LLVMValueRef,
        expected: LLVMValueRef,
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
    /// A call to a redirected function: record its site.
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
    shared: HashMap<LLVMValueRef, bool>,
}

/// Instruments `module` in place and returns its site table (index = site id; 0 is unknown).
pub fn instrument<'ctx>(
    context: &'ctx Context,
    module: &Module<'ctx>,
    target: &TargetData,
) -> Result<Vec<Site>, Rejection> {
    let mut pass = Pass {
        context,
        module,
        target,
        sites: vec![Site::default()],
        shared: HashMap::new(),
    };
    pass.run()?;
    Ok(pass.sites)
}

impl<'a, 'ctx> Pass<'a, 'ctx> {
    fn run(&mut self) -> Result<(), Rejection> {
        let main = self
            .module
            .get_function("main")
            .filter(|f| f.count_basic_blocks() > 0)
            .ok_or(Rejection::NoMain)?;
        self.check_globals()?;
        let redirected = self.check_calls()?;
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
                value_name(callee(inst.as_value_ref()).unwrap_or(std::ptr::null_mut()))
            } else {
                String::new()
            };
            let variable = self.variable_of(&action);
            let src_variable = match action {
                Action::Copy { src, .. } => named_object(src),
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
        main.as_global_value().set_name("__cdpor_user_main");
        Ok(())
    }

    fn check_globals(&self) -> Result<(), Rejection> {
        for g in self.module.get_globals() {
            if g.is_thread_local() && first_user(g.as_value_ref()).is_some() {
                return Err(Rejection::ThreadLocal {
                    variable: g.get_name().to_string_lossy().into_owned(),
                });
            }
        }
        Ok(())
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
            if let Some((_, to)) = REDIRECTS.iter().find(|(from, _)| *from == name) {
                redirected.push((f.as_value_ref(), format!("__cdpor_{to}")));
            } else if let Some(why) = unsupported(&name) {
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
            rmw: declare("__cdpor_rmw", &[ptr.into(), i64t.into(), i32t.into()]),
            cmpxchg: declare(
                "__cdpor_cmpxchg",
                &[ptr.into(), i64t.into(), i64t.into(), i32t.into()],
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
                true
            }
        };
        self.shared.insert(base, shared);
        shared
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
                    })
                }
                InstructionOpcode::AtomicCmpXchg => {
                    let ptr = LLVMGetOperand(v, 0);
                    let expected = LLVMGetOperand(v, 1);
                    self.may_be_shared(ptr).then(|| Action::CmpXchg {
                        ptr,
                        expected,
                        size: self.store_size(LLVMTypeOf(expected)),
                    })
                }
                InstructionOpcode::Fence => Some(Action::Fence),
                InstructionOpcode::Call => {
                    let f = callee(v)?;
                    if redirected.iter().any(|(r, _)| *r == f) {
                        return Some(Action::Site);
                    }
                    let name = value_name(f);
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

    /// A name for the memory an access goes to, when it is (a field of) a global.
    fn variable_of(&self, action: &Action) -> Option<String> {
        let ptr = match action {
            Action::Load { ptr, .. }
            | Action::Store { ptr, .. }
            | Action::Rmw { ptr, .. }
            | Action::CmpXchg { ptr, .. } => *ptr,
            Action::Copy { dst, .. } | Action::Set { dst, .. } => *dst,
            Action::Fence | Action::Site => return None,
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
            Action::Rmw { ptr, size } => {
                call(hooks.rmw, &[val(ptr), i64c(size), i32c(site as u64)])
            }
            Action::CmpXchg {
                ptr,
                expected,
                size,
            } => {
                let (v, _) = self.as_i64(b, expected);
                call(hooks.cmpxchg, &[val(ptr), i64c(size), v, i32c(site as u64)])
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
