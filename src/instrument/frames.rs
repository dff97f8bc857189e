//! Stack frames too large for a thread's guard (`runtime/src/exec.rs`: `cdpor_frame`).
//!
//! Threads' stacks sit side by side (`cdpor_sched::layout`), each above a guard. A frame
//! smaller than the guard cannot pass it without touching it (every call writes its
//! return address), so a deep recursion faults in the guard: the thread's stack overflow.
//! A larger frame can land below the guard, in another thread's stack, and corrupt it
//! unseen. So before such memory is allocated, `__cdpor_frame(bytes, site)` tells the
//! runtime how far down it reaches, and a frame that would not fit is the thread's stack
//! overflow, there. A function's fixed frame is allocated by its prologue, before any
//! instruction could call the hook: so its large locals become allocations of their own,
//! whose size is what the hook returns (its argument), which the code generator cannot
//! fold back into the fixed frame. A variable-length array or `alloca()` is checked with
//! its size, right before it.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use inkwell::llvm_sys::target::LLVMABISizeOfType;
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::types::AsTypeRef;
use inkwell::values::{AsValueRef, FunctionValue};

use super::{block_location, opcode, Pass};

/// Locals at least this large leave the fixed frame when together they are at least
/// `CHECKED`; both are well below the guard (`layout::STACK_GUARD`), which also absorbs
/// the fixed frame's other slots.
const LARGE: u64 = 1 << 10;
const CHECKED: u64 = 16 << 10;

impl<'ctx> Pass<'_, 'ctx> {
    pub(super) fn check_frames(&mut self) {
        let c = self.context;
        let (i64t, i8t) = (c.i64_type().as_type_ref(), c.i8_type().as_type_ref());
        let hook = self
            .module
            .get_function("__cdpor_frame")
            .unwrap_or_else(|| {
                self.module.add_function(
                    "__cdpor_frame",
                    c.i64_type()
                        .fn_type(&[c.i64_type().into(), c.i32_type().into()], false),
                    None,
                )
            });
        let functions: Vec<FunctionValue> = self
            .module
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0)
            .collect();
        let builder = c.create_builder();
        let b = builder.as_mut_ptr();
        // Calls `__cdpor_frame(bytes, site)` before `at`, and returns its result.
        let check = |at: LLVMValueRef, bytes: LLVMValueRef, site: u32| unsafe {
            LLVMPositionBuilderBefore(b, at);
            let mut args = [
                bytes,
                LLVMConstInt(c.i32_type().as_type_ref(), site as u64, 0),
            ];
            LLVMBuildCall2(
                b,
                LLVMGlobalGetValueType(hook.as_value_ref()),
                hook.as_value_ref(),
                args.as_mut_ptr(),
                2,
                c"".as_ptr(),
            )
        };
        for f in functions {
            let entry = unsafe { LLVMGetEntryBasicBlock(f.as_value_ref()) };
            let mut large = Vec::new();
            let mut dynamic = Vec::new();
            for bb in f.get_basic_block_iter() {
                for inst in bb.get_instructions() {
                    let v = inst.as_value_ref();
                    if opcode(v) != Some(LLVMOpcode::LLVMAlloca) {
                        continue;
                    }
                    match self.fixed_size(v) {
                        Some(n) if bb.as_mut_ptr() == entry => {
                            if n >= LARGE {
                                large.push((v, n));
                            }
                        }
                        _ => dynamic.push(v),
                    }
                }
            }
            if large.iter().map(|&(_, n)| n).sum::<u64>() >= CHECKED {
                for (v, n) in large {
                    let site = self.frame_site(f, unsafe { LLVMGetInstructionParent(v) });
                    unsafe {
                        let bytes = check(v, LLVMConstInt(i64t, n, 0), site);
                        let mut name = 0;
                        let name = LLVMGetValueName2(v, &mut name);
                        let local = LLVMBuildArrayAlloca(b, i8t, bytes, name);
                        LLVMSetAlignment(local, LLVMGetAlignment(v));
                        LLVMReplaceAllUsesWith(v, local);
                        LLVMInstructionEraseFromParent(v);
                    }
                }
            }
            for v in dynamic {
                let site = self.frame_site(f, unsafe { LLVMGetInstructionParent(v) });
                unsafe {
                    LLVMPositionBuilderBefore(b, v);
                    let elem = LLVMABISizeOfType(self.target_ref(), LLVMGetAllocatedType(v));
                    let count = LLVMBuildZExtOrBitCast(b, LLVMGetOperand(v, 0), i64t, c"".as_ptr());
                    let bytes = LLVMBuildMul(b, count, LLVMConstInt(i64t, elem, 0), c"".as_ptr());
                    check(v, bytes, site);
                }
            }
        }
    }

    /// The bytes an alloca with a constant count allocates.
    fn fixed_size(&self, alloca: LLVMValueRef) -> Option<u64> {
        unsafe {
            let count = LLVMGetOperand(alloca, 0);
            if LLVMIsAConstantInt(count).is_null() {
                return None;
            }
            let elem = LLVMABISizeOfType(self.target_ref(), LLVMGetAllocatedType(alloca));
            Some(elem.saturating_mul(LLVMConstIntGetZExtValue(count)))
        }
    }

    /// A site for the frame check of `f`: the first source line of the block.
    fn frame_site(&mut self, f: FunctionValue, bb: LLVMBasicBlockRef) -> u32 {
        self.add_site(f, block_location(bb), "stack frame")
    }
}
