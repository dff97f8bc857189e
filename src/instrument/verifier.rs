//! The SV-COMP verifier API, lowered onto runtime hooks before the rest of the pass:
//!
//! * a call of `reach_error()` or `__VERIFIER_error()` is the error, whatever the
//!   function's body (`__cdpor_reach_error`);
//! * `__VERIFIER_assume(c)` ends an infeasible execution (`__cdpor_assume`);
//! * `__VERIFIER_nondet_T()` returns a value the checker chooses (`__cdpor_nondet`, with
//!   the width and signedness of `T`, converted to the call's return type, whatever
//!   signature the program declared);
//! * `__VERIFIER_atomic_begin()`/`_end()` bracket an atomic section, and so does the body
//!   of every function whose name starts with `__VERIFIER_atomic_`.
//!
//! The calls themselves are removed, so that declarations without a definition link.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMTypeKind};
use inkwell::values::{AsValueRef, FunctionValue};

use super::nondet::NondetCall;
use super::{callee, location, opcode, value_name, Pass};

/// What a call of the API is.
enum Api {
    Error,
    Assume,
    /// `bits`: the width the name gives the value (`None`: the declared type's).
    Nondet {
        signed: bool,
        bits: Option<u32>,
    },
    AtomicBegin,
    AtomicEnd,
}

fn api(name: &str) -> Option<Api> {
    Some(match name {
        "reach_error" | "__VERIFIER_error" => Api::Error,
        "__VERIFIER_assume" => Api::Assume,
        "__VERIFIER_atomic_begin" => Api::AtomicBegin,
        "__VERIFIER_atomic_end" => Api::AtomicEnd,
        _ => {
            let t = name.strip_prefix("__VERIFIER_nondet_")?;
            let unsigned = t.starts_with('u')
                || matches!(t, "bool" | "_Bool" | "size_t" | "sizet" | "pointer")
                || t.starts_with("unsigned");
            // The name says the type (programs declare `int __VERIFIER_nondet_bool()`
            // too): a declared type at least as wide does not widen the values.
            let bits = match t {
                "bool" | "_Bool" => Some(1),
                "char" | "uchar" | "schar" | "u8" | "unsigned_char" => Some(8),
                "short" | "ushort" | "u16" | "unsigned_short" => Some(16),
                "int" | "uint" | "unsigned" | "u32" | "unsigned_int" => Some(32),
                _ => None,
            };
            Api::Nondet {
                signed: !unsigned,
                bits,
            }
        }
    })
}

/// Is `name` a function of the API that the pass lowers?
pub(super) fn handles(name: &str) -> bool {
    api(name).is_some()
}

/// A function whose whole body is one atomic section.
fn atomic_function(name: &str) -> bool {
    name.starts_with("__VERIFIER_atomic_") && api(name).is_none()
}

impl Pass<'_, '_> {
    /// Lowers the API; returns whether the program uses it.
    pub(super) fn lower_verifier_api(&mut self) -> bool {
        let mut calls = Vec::new();
        let mut atomic_bodies = Vec::new();
        for f in self.module.get_functions() {
            let name = f.get_name().to_string_lossy().into_owned();
            if f.count_basic_blocks() > 0 && atomic_function(&name) {
                atomic_bodies.push(f);
            }
            for bb in f.get_basic_block_iter() {
                for inst in bb.get_instructions() {
                    let v = inst.as_value_ref();
                    if opcode(v) != Some(LLVMOpcode::LLVMCall) {
                        continue;
                    }
                    let Some(target) = callee(v) else { continue };
                    if let Some(a) = api(&value_name(target)) {
                        calls.push((f, v, value_name(target), a));
                    }
                }
            }
        }
        let used = !calls.is_empty() || !atomic_bodies.is_empty();
        let mut nondets = Vec::new();
        for (f, call, name, a) in calls {
            nondets.extend(self.lower_call(f, call, &name, a));
        }
        self.nondet_domains(&nondets);
        for f in atomic_bodies {
            self.bracket(f);
        }
        used
    }

    fn hook(&self, name: &str, params: usize) -> FunctionValue<'_> {
        let c = self.context;
        let i32t = c.i32_type();
        let args: Vec<inkwell::types::BasicMetadataTypeEnum> =
            (0..params).map(|_| i32t.into()).collect();
        self.module.get_function(name).unwrap_or_else(|| {
            let ty = c.void_type().fn_type(&args, false);
            self.module.add_function(name, ty, None)
        })
    }

    fn lower_call(
        &mut self,
        f: FunctionValue,
        call: LLVMValueRef,
        name: &str,
        a: Api,
    ) -> Option<NondetCall> {
        // Reports say "nondet_int() -> 7" but name the error function as written.
        let op = match a {
            Api::Error => name,
            _ => name.strip_prefix("__VERIFIER_").unwrap_or(name),
        };
        let site = self.add_site(f, location(call), op);
        let c = self.context;
        let i32t = c.i32_type();
        let b = c.create_builder();
        let inst = unsafe { inkwell::values::InstructionValue::new(call) };
        b.position_before(&inst);
        let site_v = i32t.const_int(site as u64, false);
        let mut nondet = None;
        unsafe {
            match a {
                Api::Error => {
                    let h = self.hook("__cdpor_reach_error", 1);
                    b.build_call(h, &[site_v.into()], "").expect("positioned");
                }
                Api::AtomicBegin | Api::AtomicEnd => {
                    let name = if matches!(a, Api::AtomicBegin) {
                        "__cdpor_atomic_begin"
                    } else {
                        "__cdpor_atomic_end"
                    };
                    let h = self.hook(name, 1);
                    b.build_call(h, &[site_v.into()], "").expect("positioned");
                }
                Api::Assume => {
                    let h = self.hook("__cdpor_assume", 2);
                    let cond = if LLVMGetNumOperands(call) > 1 {
                        let arg = LLVMGetOperand(call, 0);
                        truth(b.as_mut_ptr(), arg)
                    } else {
                        i32t.const_int(1, false).as_value_ref()
                    };
                    let cond = inkwell::values::IntValue::new(cond);
                    b.build_call(h, &[cond.into(), site_v.into()], "")
                        .expect("positioned");
                }
                Api::Nondet { signed, bits } => {
                    let h = self.nondet_hook();
                    let ty = LLVMTypeOf(call);
                    let kind = LLVMGetTypeKind(ty);
                    let declared = match kind {
                        LLVMTypeKind::LLVMIntegerTypeKind => LLVMGetIntTypeWidth(ty),
                        LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMDoubleTypeKind => 32,
                        _ => 0,
                    };
                    let bits = match (kind, bits) {
                        (LLVMTypeKind::LLVMIntegerTypeKind, Some(b)) => declared.min(b),
                        _ => declared,
                    };
                    let signed = signed || bits == 32 && kind != LLVMTypeKind::LLVMIntegerTypeKind;
                    // Flags and cuts come once every call is lowered (`nondet_domains`).
                    let zero = i32t.const_zero();
                    let args = [
                        i32t.const_int(bits as u64, false).into(),
                        i32t.const_int(signed as u64, false).into(),
                        site_v.into(),
                        zero.into(),
                        c.ptr_type(inkwell::AddressSpace::default())
                            .const_null()
                            .into(),
                        zero.into(),
                    ];
                    let v = b
                        .build_call(h, &args, "nondet")
                        .expect("positioned")
                        .as_value_ref();
                    let bp = b.as_mut_ptr();
                    let out = match kind {
                        LLVMTypeKind::LLVMIntegerTypeKind if declared < 64 => {
                            LLVMBuildTrunc(bp, v, ty, c"".as_ptr())
                        }
                        LLVMTypeKind::LLVMIntegerTypeKind if declared > 64 => {
                            LLVMBuildSExt(bp, v, ty, c"".as_ptr())
                        }
                        LLVMTypeKind::LLVMIntegerTypeKind => v,
                        LLVMTypeKind::LLVMPointerTypeKind => {
                            LLVMBuildIntToPtr(bp, v, ty, c"".as_ptr())
                        }
                        LLVMTypeKind::LLVMFloatTypeKind
                        | LLVMTypeKind::LLVMDoubleTypeKind
                        | LLVMTypeKind::LLVMX86_FP80TypeKind => {
                            LLVMBuildSIToFP(bp, v, ty, c"".as_ptr())
                        }
                        LLVMTypeKind::LLVMVoidTypeKind => v,
                        _ => LLVMGetUndef(ty),
                    };
                    if kind != LLVMTypeKind::LLVMVoidTypeKind {
                        LLVMReplaceAllUsesWith(call, out);
                    }
                    nondet = Some(NondetCall {
                        site,
                        hook: v,
                        value: out,
                        bits,
                        signed,
                    });
                }
            }
            // Keep a call whose result the program uses but the lowering did not
            // replace (none today); the others go.
            if LLVMGetFirstUse(call).is_null() {
                LLVMInstructionEraseFromParent(call);
            }
        }
        nondet
    }

    /// `__cdpor_nondet(bits, signed, site, flags, cuts, n_cuts)`.
    fn nondet_hook(&self) -> FunctionValue<'_> {
        let c = self.context;
        let i32t = c.i32_type();
        let ptr = c.ptr_type(inkwell::AddressSpace::default());
        self.module
            .get_function("__cdpor_nondet")
            .unwrap_or_else(|| {
                let params = [
                    i32t.into(),
                    i32t.into(),
                    i32t.into(),
                    i32t.into(),
                    ptr.into(),
                    i32t.into(),
                ];
                let ty = c.i64_type().fn_type(&params, false);
                self.module.add_function("__cdpor_nondet", ty, None)
            })
    }

    /// Makes the body of `f` one atomic section: a begin at its entry and an end before
    /// each return.
    fn bracket(&mut self, f: FunctionValue) {
        let name = f.get_name().to_string_lossy().into_owned();
        let Some(entry) = f.get_first_basic_block() else {
            return;
        };
        let Some(first) = entry.get_first_instruction() else {
            return;
        };
        let site = self.add_site(f, location(first.as_value_ref()), &name);
        let begin = self.hook("__cdpor_atomic_begin", 1);
        let end = self.hook("__cdpor_atomic_end", 1);
        let b = self.context.create_builder();
        let site_v = self.context.i32_type().const_int(site as u64, false);
        let mut rets = Vec::new();
        for bb in f.get_basic_block_iter() {
            for inst in bb.get_instructions() {
                if opcode(inst.as_value_ref()) == Some(LLVMOpcode::LLVMRet) {
                    rets.push(inst);
                }
            }
        }
        b.position_before(&first);
        b.build_call(begin, &[site_v.into()], "")
            .expect("positioned");
        for r in rets {
            b.position_before(&r);
            b.build_call(end, &[site_v.into()], "").expect("positioned");
        }
    }
}

/// `v != 0` as an `i32` 0 or 1, for a condition passed as any integer type.
unsafe fn truth(b: inkwell::llvm_sys::prelude::LLVMBuilderRef, v: LLVMValueRef) -> LLVMValueRef {
    let ty = LLVMTypeOf(v);
    let ctx = LLVMGetTypeContext(ty);
    let i32t = LLVMInt32TypeInContext(ctx);
    let nonzero = match LLVMGetTypeKind(ty) {
        LLVMTypeKind::LLVMIntegerTypeKind => LLVMBuildICmp(
            b,
            LLVMIntPredicate::LLVMIntNE,
            v,
            LLVMConstNull(ty),
            c"".as_ptr(),
        ),
        LLVMTypeKind::LLVMPointerTypeKind => LLVMBuildIsNotNull(b, v, c"".as_ptr()),
        _ => return LLVMConstInt(i32t, 1, 0),
    };
    LLVMBuildZExt(b, nonzero, i32t, c"".as_ptr())
}
