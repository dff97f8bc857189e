//! Retry loops (`ops::awaits::LOOP_RETRY`): `old = x; while (!cas(&x, &old, f(old)));`.
//! The runtime calls a failed first try of such a loop redundant when what it saw at run
//! time agrees (`retry_redundant`); what it needs from the code is that the loop's state
//! on entry is the value of one load and nothing else: the load feeds the head's phis and
//! nothing else, and no event comes between it and the loop, so that the load, run later
//! where the try ran, would bring the thread to the head in the state the failed try
//! left it in.

use std::collections::HashSet;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use inkwell::llvm_sys::LLVMOpcode;

use super::{callee, opcode, value_name};

/// Is the loop of these blocks, whose head has these phis, a retry loop?
pub(super) fn is_retry_loop(body: &HashSet<LLVMBasicBlockRef>, phis: &[LLVMValueRef]) -> bool {
    let Some((load, pre)) = entry_load(body, phis) else {
        return false;
    };
    unsafe {
        LLVMGetInstructionParent(load) == pre
            && no_event_after(load)
            && feeds_only(load, phis)
            && cas_of(body, LLVMGetOperand(load, 0))
    }
}

/// The one load that every phi of the head takes from outside the loop, and the one block
/// outside it that the loop is entered from.
pub(super) fn entry_load(
    body: &HashSet<LLVMBasicBlockRef>,
    phis: &[LLVMValueRef],
) -> Option<(LLVMValueRef, LLVMBasicBlockRef)> {
    let mut found = None;
    for &p in phis {
        for k in 0..unsafe { LLVMCountIncoming(p) } {
            let bb = unsafe { LLVMGetIncomingBlock(p, k) };
            if body.contains(&bb) {
                continue;
            }
            let v = strip_casts(unsafe { LLVMGetIncomingValue(p, k) });
            if opcode(v) != Some(LLVMOpcode::LLVMLoad) || found.is_some_and(|f| f != (v, bb)) {
                return None;
            }
            found = Some((v, bb));
        }
    }
    found
}

fn strip_casts(mut v: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        while !LLVMIsACastInst(v).is_null() {
            v = LLVMGetOperand(v, 0);
        }
    }
    v
}

/// Does the rest of the load's block run no call but intrinsics without events?
pub(super) fn no_event_after(load: LLVMValueRef) -> bool {
    let mut i = unsafe { LLVMGetNextInstruction(load) };
    while !i.is_null() {
        if matches!(
            opcode(i),
            Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr)
        ) {
            let quiet = callee(i).is_some_and(|f| {
                let name = value_name(f);
                name.starts_with("llvm.dbg.") || name.starts_with("llvm.lifetime.")
            });
            if !quiet {
                return false;
            }
        }
        i = unsafe { LLVMGetNextInstruction(i) };
    }
    true
}

/// Is every use of `v` one of `phis`, or a cast whose uses are?
pub(super) fn feeds_only(v: LLVMValueRef, phis: &[LLVMValueRef]) -> bool {
    let mut u = unsafe { LLVMGetFirstUse(v) };
    while !u.is_null() {
        let user = unsafe { LLVMGetUser(u) };
        let ok = phis.contains(&user)
            || (unsafe { !LLVMIsACastInst(user).is_null() } && feeds_only(user, phis));
        if !ok {
            return false;
        }
        u = unsafe { LLVMGetNextUse(u) };
    }
    true
}

/// Does the loop compare-and-swap the bytes at `ptr`?
fn cas_of(body: &HashSet<LLVMBasicBlockRef>, ptr: LLVMValueRef) -> bool {
    body.iter().any(|&bb| unsafe {
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            if opcode(i) == Some(LLVMOpcode::LLVMAtomicCmpXchg) && LLVMGetOperand(i, 0) == ptr {
                return true;
            }
            i = LLVMGetNextInstruction(i);
        }
        false
    })
}
