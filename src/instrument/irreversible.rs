//! Calls whose effects an in-place reset cannot put back. A worker that resets in place
//! knows what an execution changed through its events (and the runtime's models); an
//! external function that cdpor does not model may write memory without events, keep
//! state of its own, or change the kernel's (a file, a descriptor, a signal mask). Before
//! each call of one, the runtime is told (`__cdpor_irreversible`), and the run goes on
//! with a worker forked per execution. Functions known to change nothing of the kind run
//! unmarked (`externals::restorable`); so do the runtime's models, which mark what they
//! cannot reset themselves (`runtime/c/libc.c`).
//!
//! A call through a pointer may reach such a function only if the program takes its
//! address: such a program runs with a worker forked per execution from the start
//! (`__cdpor_fork_only` names the function).

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};

use super::{callee, externals, location, opcode, value_name, Pass};

/// The runtime's entry point (`runtime/c/shims.c`).
const HOOK: &str = "__cdpor_irreversible";
/// Set, to the name of such a function, when the program takes its address.
pub const FORK_ONLY: &str = "__cdpor_fork_only";

impl Pass<'_, '_> {
    /// Marks every call that an in-place reset cannot undo; `redirected` are the
    /// declarations the runtime replaces.
    pub(super) fn mark_irreversible_calls(&mut self, redirected: &[(LLVMValueRef, String)]) {
        let unmodelled = |f: LLVMValueRef| {
            let name = value_name(f);
            let declared = unsafe { LLVMCountBasicBlocks(f) == 0 };
            declared
                && !redirected.iter().any(|(r, _)| *r == f)
                && !name.starts_with("__cdpor_")
                && !externals::restorable(&name)
        };
        let mut calls = Vec::new();
        let mut taken = None;
        for f in self.module.get_functions() {
            let fv = f.as_value_ref();
            if unmodelled(fv) && taken.is_none() && address_taken(fv) {
                taken = Some(externals::source_name(&value_name(fv)).to_string());
            }
            for bb in f.get_basic_block_iter() {
                for inst in bb.get_instructions() {
                    let v = inst.as_value_ref();
                    if !matches!(
                        opcode(v),
                        Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke)
                    ) {
                        continue;
                    }
                    let what = match callee(v) {
                        Some(target) if unmodelled(target) => {
                            externals::source_name(&value_name(target)).to_string()
                        }
                        Some(_) => continue,
                        None if is_opaque_asm(v) => "inline assembly".to_string(),
                        None => continue,
                    };
                    calls.push((f, inst, what));
                }
            }
        }
        for (f, call, what) in calls {
            self.mark(f, call, &what);
        }
        if let Some(name) = taken {
            let text = self.context.const_string(name.as_bytes(), true);
            let g = self.module.add_global(text.get_type(), None, FORK_ONLY);
            g.set_initializer(&text);
            g.set_constant(true);
        }
    }

    fn mark(&mut self, f: FunctionValue, call: InstructionValue, what: &str) {
        let c = self.context;
        let hook = self.module.get_function(HOOK).unwrap_or_else(|| {
            let ty = c.void_type().fn_type(
                &[c.ptr_type(Default::default()).into(), c.i32_type().into()],
                false,
            );
            self.module.add_function(HOOK, ty, None)
        });
        let site = self.add_site(f, location(call.as_value_ref()), &format!("call {what}"));
        let builder = c.create_builder();
        builder.position_before(&call);
        let name = builder
            .build_global_string_ptr(what, "cdpor.irreversible")
            .expect("a builder positioned in a function");
        builder
            .build_call(
                hook,
                &[
                    name.as_pointer_value().into(),
                    c.i32_type().const_int(site as u64, false).into(),
                ],
                "",
            )
            .expect("a builder positioned in a function");
    }
}

/// Is `f` used other than as the function a call calls?
fn address_taken(f: LLVMValueRef) -> bool {
    unsafe {
        let mut u = LLVMGetFirstUse(f);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            let called = matches!(
                opcode(user),
                Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke)
            ) && callee(user) == Some(f);
            if !called {
                return true;
            }
            u = LLVMGetNextUse(u);
        }
    }
    false
}

/// An inline `asm` that is more than a hint to the CPU: it may make a system call.
fn is_opaque_asm(call: LLVMValueRef) -> bool {
    unsafe {
        let target = LLVMGetOperand(call, (LLVMGetNumOperands(call) - 1) as u32);
        !LLVMIsAInlineAsm(target).is_null() && !super::loops::is_hint_asm(call)
    }
}
