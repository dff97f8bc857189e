//! Thread-local variables (`__thread`, `_Thread_local`). The program's threads are fibers
//! of one OS thread, so the OS's thread-local storage would be one copy for all of them.
//! Instead the variables get offsets in a block that each thread has of its own
//! (`runtime/c/tls.c`), initialized from the variables' initializers, which stay in the
//! original globals as templates: every `llvm.threadlocal.address(@x)` (the only way
//! clang reaches such a variable) becomes the current thread's block plus `x`'s offset.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::values::AsValueRef;

use super::{callee, first_user, value_name, Pass, Rejection};

/// A thread-local variable's place in each thread's block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsVar {
    pub name: String,
    pub offset: u64,
    pub size: u64,
}

impl<'a, 'ctx> Pass<'a, 'ctx> {
    pub(super) fn lower_thread_locals(&mut self) -> Result<Vec<TlsVar>, Rejection> {
        let globals: Vec<_> = self
            .module
            .get_globals()
            .filter(|g| g.is_thread_local() && first_user(g.as_value_ref()).is_some())
            .collect();
        if globals.is_empty() {
            return Ok(Vec::new());
        }
        // Every use must be the intrinsic (before the table below adds uses of its own).
        let mut uses: Vec<Vec<LLVMValueRef>> = Vec::new();
        for g in &globals {
            let mut calls = Vec::new();
            unsafe {
                let mut u = LLVMGetFirstUse(g.as_value_ref());
                while !u.is_null() {
                    let user = LLVMGetUser(u);
                    let through_intrinsic = !LLVMIsACallInst(user).is_null()
                        && callee(user)
                            .is_some_and(|f| value_name(f).starts_with("llvm.threadlocal.address"));
                    if !through_intrinsic {
                        return Err(Rejection::ThreadLocal {
                            variable: g.get_name().to_string_lossy().into_owned(),
                        });
                    }
                    calls.push(user);
                    u = LLVMGetNextUse(u);
                }
            }
            uses.push(calls);
        }
        let c = self.context;
        let (i64t, ptr) = (c.i64_type(), c.ptr_type(Default::default()));
        let mut vars = Vec::new();
        let mut entries = Vec::new();
        let mut end = 0u64;
        for g in &globals {
            let ty = g.get_value_type();
            let size = self.target.get_abi_size(&ty);
            let align = (self.target.get_abi_alignment(&ty) as u64)
                .max(g.get_alignment() as u64)
                .max(1);
            let offset = end.next_multiple_of(align);
            end = offset + size;
            let name = g.get_name().to_string_lossy().into_owned();
            vars.push(TlsVar { name, offset, size });
            entries.push(c.const_struct(
                &[
                    g.as_pointer_value().into(),
                    i64t.const_int(offset, false).into(),
                    i64t.const_int(size, false).into(),
                ],
                false,
            ));
        }
        let entry_ty = c.struct_type(&[ptr.into(), i64t.into(), i64t.into()], false);
        let table_ty = entry_ty.array_type(entries.len() as u32);
        let table = self.module.add_global(table_ty, None, "__cdpor_tls_table");
        table.set_initializer(&entry_ty.const_array(&entries));
        table.set_constant(true);
        let block = self.module.get_function("__cdpor_tls").unwrap_or_else(|| {
            let ty = ptr.fn_type(&[ptr.into(), i64t.into(), i64t.into()], false);
            self.module.add_function("__cdpor_tls", ty, None)
        });

        let b = c.create_builder();
        for ((g, var), calls) in globals.iter().zip(&vars).zip(uses) {
            for call in calls {
                let inst = unsafe { inkwell::values::InstructionValue::new(call) };
                b.position_before(&inst);
                let base = b
                    .build_call(
                        block,
                        &[
                            table.as_pointer_value().into(),
                            i64t.const_int(vars.len() as u64, false).into(),
                            i64t.const_int(end, false).into(),
                        ],
                        "tls",
                    )
                    .expect("builder is positioned")
                    .try_as_basic_value()
                    .expect_basic("returns a pointer")
                    .into_pointer_value();
                let at = unsafe {
                    b.build_gep(
                        c.i8_type(),
                        base,
                        &[i64t.const_int(var.offset, false)],
                        &var.name,
                    )
                }
                .expect("builder is positioned");
                unsafe {
                    LLVMReplaceAllUsesWith(call, at.as_value_ref());
                    LLVMInstructionEraseFromParent(call);
                }
            }
            g.set_thread_local(false);
        }
        Ok(vars)
    }
}
