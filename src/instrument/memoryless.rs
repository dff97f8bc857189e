//! Memoryless loops (`ops::awaits::LOOP_MEMORYLESS`): `a = x; while (a != 0) a = x;`.
//! The values the loop carries (its head's phis) serve only to decide, at the head,
//! whether it leaves, and each iteration computes them afresh from what it reads, never
//! from what they were. So the body runs the same events whatever they are, and an
//! iteration that changed nothing and went round leaves the thread where the next one,
//! reading the same bytes, leaves it again: it waits, though its values changed (they
//! would not change again). The hook sits where the head decided to go round, so that
//! an iteration ends there; the runtime stops such a thread as it stops a spin whose
//! values came back the same.
//!
//! The values are often those of one load just before the loop, which the body's load
//! repeats (the loop is "peeled"): then a first iteration whose one event reads the
//! same bytes and finds them changed since that load is redundant, as a retry loop's
//! failed first try is (`LOOP_PEELED`, `retry_redundant` in the runtime).

use std::collections::HashSet;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use inkwell::llvm_sys::LLVMOpcode;

use super::opcode;
use super::retry::{entry_load, feeds_only, no_event_after};

/// A memoryless loop: the block the head goes round to (where the hook goes), and
/// whether it is peeled.
pub(super) struct Memoryless {
    pub(super) cont: LLVMBasicBlockRef,
    pub(super) peeled: bool,
}

/// Is the loop of these blocks, whose head has these phis, memoryless?
pub(super) fn memoryless(
    body: &HashSet<LLVMBasicBlockRef>,
    head: LLVMBasicBlockRef,
    phis: &[LLVMValueRef],
) -> Option<Memoryless> {
    if phis.is_empty() {
        // Nothing carried: its values always come back the same.
        return None;
    }
    let term = unsafe { LLVMGetBasicBlockTerminator(head) };
    if opcode(term) != Some(LLVMOpcode::LLVMBr) || unsafe { LLVMGetNumSuccessors(term) } != 2 {
        return None;
    }
    let succ = |k| unsafe { LLVMGetSuccessor(term, k) };
    let cont = match (body.contains(&succ(0)), body.contains(&succ(1))) {
        (true, false) => succ(0),
        (false, true) => succ(1),
        _ => return None,
    };
    // The head is the only way in, so that each visit of `cont` ends one iteration.
    let entries: usize = body
        .iter()
        .map(|&bb| unsafe {
            let t = LLVMGetBasicBlockTerminator(bb);
            (0..LLVMGetNumSuccessors(t))
                .filter(|&k| LLVMGetSuccessor(t, k) == cont)
                .count()
        })
        .sum();
    let start = unsafe { LLVMGetFirstInstruction(cont) };
    if entries != 1 || opcode(start) == Some(LLVMOpcode::LLVMPHI) {
        return None;
    }
    if !decide_only(body, head, term, phis) {
        return None;
    }
    Some(Memoryless {
        cont,
        peeled: peeled(body, phis),
    })
}

/// Do the phis, inside the loop, reach nothing but pure instructions of the head that
/// end at its branch `term`?
fn decide_only(
    body: &HashSet<LLVMBasicBlockRef>,
    head: LLVMBasicBlockRef,
    term: LLVMValueRef,
    phis: &[LLVMValueRef],
) -> bool {
    let mut seen: HashSet<LLVMValueRef> = HashSet::new();
    let mut work: Vec<LLVMValueRef> = phis.to_vec();
    while let Some(v) = work.pop() {
        let mut u = unsafe { LLVMGetFirstUse(v) };
        while !u.is_null() {
            let user = unsafe { LLVMGetUser(u) };
            u = unsafe { LLVMGetNextUse(u) };
            if unsafe { LLVMIsAInstruction(user).is_null() } {
                return false;
            }
            let bb = unsafe { LLVMGetInstructionParent(user) };
            if !body.contains(&bb) {
                // Used once the loop is left: what the values were when it left.
                continue;
            }
            if user == term {
                continue;
            }
            if bb != head || phis.contains(&user) || !pure(user) {
                return false;
            }
            if seen.insert(user) {
                work.push(user);
            }
        }
    }
    true
}

/// An instruction that computes a value from its operands and does nothing else (and
/// cannot trap: no division).
fn pure(i: LLVMValueRef) -> bool {
    use LLVMOpcode::*;
    matches!(
        opcode(i),
        Some(
            LLVMICmp
                | LLVMFCmp
                | LLVMAdd
                | LLVMSub
                | LLVMMul
                | LLVMAnd
                | LLVMOr
                | LLVMXor
                | LLVMShl
                | LLVMLShr
                | LLVMAShr
                | LLVMZExt
                | LLVMSExt
                | LLVMTrunc
                | LLVMBitCast
                | LLVMSelect
                | LLVMFreeze
        )
    )
}

/// Are the phis' values on entry those of one load, the last thing with an event before
/// the loop and used for nothing else, and on the way round those of loads of the same
/// pointer and type?
fn peeled(body: &HashSet<LLVMBasicBlockRef>, phis: &[LLVMValueRef]) -> bool {
    let Some((first, pre)) = entry_load(body, phis) else {
        return false;
    };
    let same_load = |v: LLVMValueRef| unsafe {
        opcode(v) == Some(LLVMOpcode::LLVMLoad)
            && LLVMGetOperand(v, 0) == LLVMGetOperand(first, 0)
            && LLVMTypeOf(v) == LLVMTypeOf(first)
    };
    // The loads themselves, not casts of them, so that the values are the same function
    // of the bytes on entry and on the way round.
    let round = phis.iter().all(|&p| unsafe {
        (0..LLVMCountIncoming(p)).all(|k| {
            let v = LLVMGetIncomingValue(p, k);
            if body.contains(&LLVMGetIncomingBlock(p, k)) {
                same_load(v)
            } else {
                v == first
            }
        })
    });
    round
        && unsafe { LLVMGetInstructionParent(first) } == pre
        && no_event_after(first)
        && feeds_only(first, phis)
}
