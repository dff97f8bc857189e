//! Loop heads, for awaits and `--unroll` (`runtime/src/exec.rs`: `cdpor_loop`).
//!
//! The head of every natural loop calls `__cdpor_loop(id, flags, vals, n, site)` each
//! time it is reached: `flags` (`ops::awaits::LOOP_*`) bit 0 says whether through a
//! back edge (an iteration ended) or from outside (the loop starts); `vals` holds the
//! values the loop carries from one iteration to the next (its head's phis), in a slot
//! array of the function's frame. The runtime concludes that an iteration changed nothing when its events
//! changed nothing and those values came back the same, which is only true when nothing
//! else can change: `flags` bit 1 says the iteration that just ended had no effect
//! beyond its events and those values. It may have when it stored into a local the
//! instrumentation leaves alone, allocated stack or heap, or called a function through
//! a pointer or one whose effects are hidden (reading a file moves its offset): each
//! such instruction of a loop first sets the loop's byte in the frame, which the hook
//! reads and clears, so that a loop that has such effects on some paths (storing what
//! it consumed into a local array) still waits on the paths that have none. A loop
//! that carries more values (or wider ones) than the runtime keeps never has the bit.
//! `flags` bit 2 says an iteration
//! may read `errno`, which the loop's own library calls set: the runtime compares it
//! from one iteration to the next like those values.

use std::collections::{HashMap, HashSet};

use cdpor_sched::ops::awaits::{
    LOOP_ENDLESS, LOOP_ERRNO, LOOP_MAY_WAIT, LOOP_MEMORYLESS, LOOP_NO_EXIT, LOOP_PEELED, LOOP_RETRY,
};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use inkwell::types::AsTypeRef;
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, FunctionValue};
use inkwell::IntPredicate;

use super::{block_location, callee, externals, opcode, value_name, Pass};

/// Loop-carried values the runtime keeps for one loop (`runtime/src/exec.rs`:
/// `LOOP_VALS`).
const MAX_VALS: usize = 6;

/// Whether an iteration of a loop can be one that waits (changes nothing the runtime
/// cannot see).
enum MayWait {
    /// It carries values the runtime does not keep.
    Never,
    /// Every iteration can.
    Always,
    /// Those that run none of these instructions (effects the runtime cannot see).
    Unmarked(Vec<LLVMValueRef>),
}

/// One natural loop: its head, and every block of it.
struct Loop {
    head: LLVMBasicBlockRef,
    body: HashSet<LLVMBasicBlockRef>,
}

fn successors(bb: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    unsafe {
        let term = LLVMGetBasicBlockTerminator(bb);
        if term.is_null() {
            return Vec::new();
        }
        (0..LLVMGetNumSuccessors(term))
            .map(|i| LLVMGetSuccessor(term, i))
            .collect()
    }
}

/// The natural loops of `f`, one per head (Cooper, Harvey and Kennedy's dominators).
fn natural_loops(f: LLVMValueRef) -> Vec<Loop> {
    let entry = unsafe { LLVMGetEntryBasicBlock(f) };
    // Reverse postorder of the blocks reachable from the entry.
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(entry, 0usize)];
    seen.insert(entry);
    while let Some((bb, i)) = stack.pop() {
        let succ = successors(bb);
        if i < succ.len() {
            stack.push((bb, i + 1));
            if seen.insert(succ[i]) {
                stack.push((succ[i], 0));
            }
        } else {
            order.push(bb);
        }
    }
    order.reverse();
    let index: HashMap<_, _> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
    for (i, &bb) in order.iter().enumerate() {
        for s in successors(bb) {
            preds[index[&s]].push(i);
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; order.len()];
    idom[0] = Some(0);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while a > b {
                a = idom[a].expect("processed");
            }
            while b > a {
                b = idom[b].expect("processed");
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..order.len() {
            let mut new = None;
            for &p in &preds[b] {
                if idom[p].is_some() {
                    new = Some(new.map_or(p, |n| intersect(&idom, p, n)));
                }
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    let dominates = |a: usize, mut b: usize| loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(d) if d != b => b = d,
            _ => return false,
        }
    };
    let mut loops: Vec<Loop> = Vec::new();
    for (h, latches) in (0..order.len()).map(|h| {
        let latches: Vec<usize> = preds[h]
            .iter()
            .copied()
            .filter(|&p| dominates(h, p))
            .collect();
        (h, latches)
    }) {
        if latches.is_empty() {
            continue;
        }
        let mut body = HashSet::from([order[h]]);
        let mut work: Vec<usize> = latches;
        while let Some(b) = work.pop() {
            if body.insert(order[b]) {
                work.extend(preds[b].iter().copied());
            }
        }
        loops.push(Loop {
            head: order[h],
            body,
        });
    }
    loops
}

/// Does every edge out of a block of the loop stay in it (`LOOP_NO_EXIT`)?
fn no_exit(body: &HashSet<LLVMBasicBlockRef>) -> bool {
    body.iter()
        .all(|&bb| successors(bb).iter().all(|s| body.contains(s)))
}

/// Can a loop of these blocks never be left, nor fault, nor make an event
/// (`LOOP_ENDLESS`)? Every block ends in a branch within the loop; every instruction
/// computes on registers, or loads or stores a whole scalar local (the alloca itself,
/// of its type: never out of bounds), or is a call of a debug or lifetime marker or a
/// hint to the CPU. No division (it can trap), no allocation (the stack would grow), no
/// other call (it could exit, jump out or block). `for (;;) n++;` on a local is such a
/// loop: natively the thread runs for ever and the process ends when main returns.
/// Floating-point operations are allowed: they trap only once the program unmasks
/// exceptions, which it cannot do without a call.
fn is_endless(body: &HashSet<LLVMBasicBlockRef>) -> bool {
    use LLVMOpcode::*;
    let scalar_local = |ptr: LLVMValueRef, ty| unsafe {
        !LLVMIsAAllocaInst(ptr).is_null() && LLVMGetAllocatedType(ptr) == ty
    };
    no_exit(body)
        && body.iter().all(|&bb| unsafe {
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                let ok = match opcode(i) {
                    // The only terminators: no return, no `unreachable`.
                    Some(LLVMBr | LLVMSwitch) => true,
                    Some(LLVMLoad) => scalar_local(LLVMGetOperand(i, 0), LLVMTypeOf(i)),
                    Some(LLVMStore) => {
                        scalar_local(LLVMGetOperand(i, 1), LLVMTypeOf(LLVMGetOperand(i, 0)))
                    }
                    Some(LLVMCall) => match callee(i) {
                        Some(f) => {
                            let name = value_name(f);
                            name.starts_with("llvm.dbg.") || name.starts_with("llvm.lifetime.")
                        }
                        None => is_hint_asm(i),
                    },
                    Some(
                        LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd
                        | LLVMOr | LLVMXor | LLVMICmp | LLVMFCmp | LLVMSelect | LLVMPHI | LLVMTrunc
                        | LLVMZExt | LLVMSExt | LLVMBitCast | LLVMPtrToInt | LLVMIntToPtr
                        | LLVMGetElementPtr | LLVMFreeze | LLVMFAdd | LLVMFSub | LLVMFMul
                        | LLVMFDiv | LLVMFNeg | LLVMFPExt | LLVMFPTrunc | LLVMSIToFP | LLVMUIToFP
                        | LLVMFPToSI | LLVMFPToUI | LLVMExtractValue | LLVMInsertValue
                        | LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector,
                    ) => true,
                    _ => false,
                };
                if !ok {
                    return false;
                }
                i = LLVMGetNextInstruction(i);
            }
            true
        })
}

/// Is `call` an inline `asm` that is only a hint to the CPU or a compiler barrier, as
/// spin loops' `cpu_relax()` is (`pause`, `rep; nop`, `yield`, or nothing with a memory
/// clobber)? Without operands it can change nothing a loop could depend on.
pub(super) fn is_hint_asm(call: LLVMValueRef) -> bool {
    const HINTS: &[&str] = &["", "pause", "nop", "rep", "rep nop", "yield"];
    unsafe {
        let target = LLVMGetOperand(call, (LLVMGetNumOperands(call) - 1) as u32);
        if LLVMIsAInlineAsm(target).is_null() || LLVMGetNumOperands(call) != 1 {
            return false;
        }
        let mut len = 0;
        let text = LLVMGetInlineAsmAsmString(target, &mut len);
        let text = std::slice::from_raw_parts(text as *const u8, len);
        let text = String::from_utf8_lossy(text).to_ascii_lowercase();
        text.split([';', '\n'])
            .all(|i| HINTS.contains(&i.split_whitespace().collect::<Vec<_>>().join(" ").as_str()))
    }
}

/// Library functions without effects a loop could depend on (no hidden state, no
/// memory but what their instrumented events say).
fn without_hidden_effects(name: &str) -> bool {
    const INPUT: &[&str] = &["fread", "fgets", "read"];
    const PURE: &[&str] = &[
        "putchar", "fputc", "putc", "fflush", "perror", "strerror", "isatty", "abs", "labs",
        "llabs", "toupper", "tolower", "isalpha", "isdigit", "isalnum", "isspace", "isupper",
        "islower", "isxdigit", "ispunct", "isprint",
    ];
    let name = externals::source_name(name);
    if let Some(to) = externals::redirect(name) {
        return !externals::MODEL_HEAP.contains(&to) && !INPUT.contains(&to);
    }
    // `errno`'s address: the runtime compares `errno` from one iteration to the next.
    PURE.contains(&name)
        || name == "__errno_location"
        || [
            "sqrt", "sin", "cos", "tan", "exp", "log", "pow", "fabs", "floor", "ceil", "fmod",
            "round", "trunc",
        ]
        .iter()
        .any(|m| {
            name.strip_prefix(m)
                .is_some_and(|r| r.is_empty() || r == "f" || r == "l")
        })
}

impl Pass<'_, '_> {
    /// Are all of this call's effects events? A callee's stores into its own locals
    /// are fine (they end with the call); a loop's own are found by `hidden_effects`.
    fn call_is_visible(
        &mut self,
        call: LLVMValueRef,
        memo: &mut HashMap<LLVMValueRef, bool>,
    ) -> bool {
        let Some(f) = callee(call) else {
            return is_hint_asm(call);
        };
        let name = value_name(f);
        if name.starts_with("__cdpor_") {
            return true;
        }
        if let Some(rest) = name.strip_prefix("llvm.") {
            return if ["memcpy", "memmove", "memset"]
                .iter()
                .any(|m| rest.starts_with(m))
            {
                self.may_be_shared(unsafe { LLVMGetOperand(call, 0) })
            } else {
                !rest.starts_with("stacksave") && !rest.starts_with("stackrestore")
            };
        }
        // A local passed to the library (`keeps_private`) may be written without events.
        let args = unsafe { LLVMGetNumOperands(call) as u32 - 1 };
        let local_arg = (0..args).any(|i| unsafe {
            let a = LLVMGetOperand(call, i);
            LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMTypeKind::LLVMPointerTypeKind
                && !LLVMIsAAllocaInst(super::base_object(a)).is_null()
                && !self.may_be_shared(a)
        });
        if local_arg {
            return false;
        }
        if unsafe { LLVMCountBasicBlocks(f) } == 0 {
            return without_hidden_effects(&name);
        }
        if let Some(&v) = memo.get(&f) {
            return v;
        }
        // Recursion: assume the best while the body is being looked at.
        memo.insert(f, true);
        let mut ok = true;
        unsafe {
            let mut bb = LLVMGetFirstBasicBlock(f);
            while ok && !bb.is_null() {
                let mut i = LLVMGetFirstInstruction(bb);
                while ok && !i.is_null() {
                    ok = match opcode(i) {
                        Some(LLVMOpcode::LLVMCall) => self.call_is_visible(i, memo),
                        Some(LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr) => false,
                        _ => true,
                    };
                    i = LLVMGetNextInstruction(i);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
        }
        memo.insert(f, ok);
        ok
    }

    /// Where an iteration of `l` can have effects beyond its events and its head's
    /// phis: the first such instruction of each block of it.
    fn hidden_effects(
        &mut self,
        l: &Loop,
        memo: &mut HashMap<LLVMValueRef, bool>,
    ) -> Vec<LLVMValueRef> {
        let mut hidden = Vec::new();
        for &bb in &l.body {
            unsafe {
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    let ok = match opcode(i) {
                        Some(LLVMOpcode::LLVMStore) => self.may_be_shared(LLVMGetOperand(i, 1)),
                        Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
                            self.may_be_shared(LLVMGetOperand(i, 0))
                        }
                        Some(LLVMOpcode::LLVMAlloca) => false,
                        Some(LLVMOpcode::LLVMCall) => self.call_is_visible(i, memo),
                        Some(LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr) => false,
                        _ => true,
                    };
                    if !ok {
                        hidden.push(i);
                        break;
                    }
                    i = LLVMGetNextInstruction(i);
                }
            }
        }
        hidden
    }

    /// Can an iteration of `l` make an event (a hooked access, or any call but to a
    /// pure intrinsic)? Loops that cannot are left alone (but for those that can only
    /// spin for ever): they interact with no thread, so they end by themselves or hang
    /// (which the execution timeout reports), and compute-heavy code keeps its speed.
    fn loop_has_events(&mut self, l: &Loop) -> bool {
        l.body.iter().any(|&bb| unsafe {
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                let hooked = match opcode(i) {
                    Some(LLVMOpcode::LLVMLoad) => self.may_be_shared(LLVMGetOperand(i, 0)),
                    Some(LLVMOpcode::LLVMStore) => self.may_be_shared(LLVMGetOperand(i, 1)),
                    Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => true,
                    Some(LLVMOpcode::LLVMFence) => true,
                    Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke) => {
                        callee(i).is_none_or(|f| {
                            let name = value_name(f);
                            !name.starts_with("llvm.")
                                || ["memcpy", "memmove", "memset"]
                                    .iter()
                                    .any(|m| name["llvm.".len()..].starts_with(m))
                        })
                    }
                    _ => false,
                };
                if hooked {
                    return true;
                }
                i = LLVMGetNextInstruction(i);
            }
            false
        })
    }

    /// Instruments the head of every loop of every function.
    pub(super) fn instrument_loops(&mut self) {
        let c = self.context;
        let (void, ptr, i32t, i64t) = (
            c.void_type(),
            c.ptr_type(Default::default()),
            c.i32_type(),
            c.i64_type(),
        );
        let hook = self.module.get_function("__cdpor_loop").unwrap_or_else(|| {
            self.module.add_function(
                "__cdpor_loop",
                void.fn_type(
                    &[
                        i32t.into(),
                        i32t.into(),
                        ptr.into(),
                        i32t.into(),
                        i32t.into(),
                    ],
                    false,
                ),
                None,
            )
        });
        let mut memo = HashMap::new();
        let mut errno_memo = HashMap::new();
        let functions: Vec<FunctionValue> = self
            .module
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0 && f.get_name().to_bytes() != b"__cdpor_loop")
            .collect();
        let mut next_id = 0u32;
        let b = c.create_builder();
        for f in functions {
            let loops = natural_loops(f.as_value_ref());
            if loops.is_empty() {
                continue;
            }
            // Decide before changing anything: the analysis reads the original code.
            let mut plans = Vec::new();
            for l in loops {
                let head = l.head;
                let phis = phis(head);
                let first = match phis.last() {
                    Some(&p) => unsafe { LLVMGetNextInstruction(p) },
                    None => unsafe { LLVMGetFirstInstruction(head) },
                };
                if first.is_null() || unsafe { !LLVMIsALandingPadInst(first).is_null() } {
                    continue;
                }
                let scalar = phis.iter().all(|&p| unsafe { to_i64_kind(LLVMTypeOf(p)) });
                // A loop without events carries nothing from one iteration to the next
                // when its head has no phis and it changes nothing: once it goes round,
                // it goes round for ever (`while (t != 1) {}` on a copy of a shared
                // variable). Its hook makes it an await that nothing can end, so the
                // thread is stuck and the others go on, instead of a hang.
                let has_events = self.loop_has_events(&l);
                if !has_events && is_endless(&l.body) {
                    plans.push((l, first, Vec::new(), MayWait::Never, false, LOOP_ENDLESS));
                    continue;
                }
                if !has_events && !phis.is_empty() {
                    continue;
                }
                let kept = scalar && phis.len() <= MAX_VALS;
                let hidden = if kept {
                    self.hidden_effects(&l, &mut memo)
                } else {
                    Vec::new()
                };
                let waits_whole = kept && hidden.is_empty();
                if !has_events && !waits_whole {
                    continue;
                }
                // An iteration that runs an instruction with a hidden effect marks the
                // loop's byte, and the hook tells the runtime which iterations did not.
                let may_wait = if !kept {
                    MayWait::Never
                } else if hidden.is_empty() {
                    MayWait::Always
                } else {
                    MayWait::Unmarked(hidden)
                };
                // May an iteration read `errno` (in a function it calls, too)?
                let errno = kept && l.body.iter().any(|&bb| calls_errno(bb, &mut errno_memo));
                let retry = kept && super::retry::is_retry_loop(&l.body, &phis);
                let memoryless = (matches!(may_wait, MayWait::Always) && !retry)
                    .then(|| super::memoryless::memoryless(&l.body, head, &phis))
                    .flatten();
                // A memoryless loop's hook goes where the head decided to go round.
                let (first, shape) = match &memoryless {
                    Some(m) => (
                        unsafe { LLVMGetFirstInstruction(m.cont) },
                        LOOP_MEMORYLESS | if m.peeled { LOOP_PEELED } else { 0 },
                    ),
                    None if retry => (first, LOOP_RETRY),
                    None => (first, 0),
                };
                let shape = shape | if no_exit(&l.body) { LOOP_NO_EXIT } else { 0 };
                plans.push((l, first, phis, may_wait, errno, shape));
            }
            if plans.is_empty() {
                continue;
            }
            let slots = plans
                .iter()
                .filter(|p| !matches!(p.3, MayWait::Never))
                .map(|p| p.2.len())
                .max()
                .unwrap_or(0)
                .max(1);
            let entry = f.get_first_basic_block().expect("a body");
            match entry.get_first_instruction() {
                Some(i) => b.position_before(&i),
                None => b.position_at_end(entry),
            }
            let array = b
                .build_alloca(i64t.array_type(slots as u32), "cdpor.loop")
                .expect("positioned");
            let i8t = c.i8_type();
            let marked = plans
                .iter()
                .filter(|p| matches!(p.3, MayWait::Unmarked(_)))
                .count();
            // One byte per such loop, in the entry block, where its address dominates
            // every use.
            let mut marks = Vec::new();
            if marked > 0 {
                let bytes = i8t.array_type(marked as u32);
                let array = b.build_alloca(bytes, "cdpor.marks").expect("positioned");
                b.build_store(array, bytes.const_zero())
                    .expect("positioned");
                for k in 0..marked {
                    let at = unsafe {
                        b.build_in_bounds_gep(
                            bytes,
                            array,
                            &[i32t.const_zero(), i32t.const_int(k as u64, false)],
                            "",
                        )
                        .expect("positioned")
                    };
                    marks.push(at);
                }
            }
            let mut marks = marks.into_iter();
            for (l, first, phis, may_wait, errno, shape) in plans {
                let site = self.add_site(f, block_location(l.head), "loop");
                let id = next_id;
                next_id += 1;
                let back = back_phi(f.as_value_ref(), &l, i32t);
                let mark = match may_wait {
                    MayWait::Unmarked(_) => marks.next(),
                    _ => None,
                };
                b.position_before(&unsafe { inkwell::values::InstructionValue::new(first) });
                let n = if matches!(may_wait, MayWait::Never) {
                    0
                } else {
                    phis.len()
                };
                for (k, &p) in phis.iter().enumerate().take(n) {
                    let (v, _) = self.as_i64(&b, p);
                    let slot = unsafe {
                        b.build_in_bounds_gep(
                            i64t.array_type(slots as u32),
                            array,
                            &[i32t.const_zero(), i32t.const_int(k as u64, false)],
                            "",
                        )
                        .expect("positioned")
                    };
                    let v: inkwell::values::BasicValueEnum = match v {
                        BasicMetadataValueEnum::IntValue(i) => i.into(),
                        _ => unreachable!("as_i64 gives an integer"),
                    };
                    b.build_store(slot, v).expect("positioned");
                }
                let bits = if matches!(may_wait, MayWait::Always) {
                    LOOP_MAY_WAIT
                } else {
                    0
                } | if errno { LOOP_ERRNO } else { 0 }
                    | shape;
                let mut flags = if bits != 0 {
                    b.build_or(back, i32t.const_int(bits.into(), false), "")
                        .expect("positioned")
                } else {
                    back
                };
                if let Some(at) = mark {
                    // The iteration that ends here may wait unless it marked the byte;
                    // the next one starts unmarked.
                    let m = b
                        .build_load(i8t, at, "")
                        .expect("positioned")
                        .into_int_value();
                    let clean = b
                        .build_int_compare(IntPredicate::EQ, m, i8t.const_zero(), "")
                        .expect("positioned");
                    let bit = b
                        .build_select(
                            clean,
                            i32t.const_int(LOOP_MAY_WAIT.into(), false),
                            i32t.const_zero(),
                            "",
                        )
                        .expect("positioned")
                        .into_int_value();
                    flags = b.build_or(flags, bit, "").expect("positioned");
                    b.build_store(at, i8t.const_zero()).expect("positioned");
                }
                b.build_call(
                    hook,
                    &[
                        i32t.const_int(id as u64, false).into(),
                        flags.into(),
                        array.into(),
                        i32t.const_int(n as u64, false).into(),
                        i32t.const_int(site as u64, false).into(),
                    ],
                    "",
                )
                .expect("positioned");
                // After the hook: a hidden effect at the head's first instruction
                // belongs to the iteration that starts there.
                if let (Some(at), MayWait::Unmarked(hidden)) = (mark, &may_wait) {
                    for &h in hidden {
                        b.position_before(&unsafe { inkwell::values::InstructionValue::new(h) });
                        b.build_store(at, i8t.const_int(1, false))
                            .expect("positioned");
                    }
                }
            }
        }
    }
}

/// A phi at the top of `l`'s head: 1 when it is reached from inside the loop, else 0.
fn back_phi<'ctx>(
    f: LLVMValueRef,
    l: &Loop,
    i32t: inkwell::types::IntType<'ctx>,
) -> inkwell::values::IntValue<'ctx> {
    unsafe {
        // One entry per edge into the head (a switch may have several).
        let mut blocks = Vec::new();
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            blocks.extend(
                successors(bb)
                    .into_iter()
                    .filter(|&s| s == l.head)
                    .map(|_| bb),
            );
            bb = LLVMGetNextBasicBlock(bb);
        }
        let mut vals: Vec<LLVMValueRef> = blocks
            .iter()
            .map(|b| {
                i32t.const_int(u64::from(l.body.contains(b)), false)
                    .as_value_ref()
            })
            .collect();
        let builder = LLVMCreateBuilderInContext(LLVMGetTypeContext(i32t.as_type_ref()));
        let first = LLVMGetFirstInstruction(l.head);
        // Before the debug records of the first instruction too: a phi may not carry any.
        LLVMPositionBuilderBeforeDbgRecords(builder, l.head, first);
        let phi = LLVMBuildPhi(builder, i32t.as_type_ref(), c"cdpor.back".as_ptr());
        LLVMAddIncoming(
            phi,
            vals.as_mut_ptr(),
            blocks.as_mut_ptr(),
            blocks.len() as u32,
        );
        LLVMDisposeBuilder(builder);
        inkwell::values::IntValue::new(phi)
    }
}

/// The phis of a block.
fn phis(bb: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    unsafe {
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() && opcode(i) == Some(LLVMOpcode::LLVMPHI) {
            out.push(i);
            i = LLVMGetNextInstruction(i);
        }
    }
    out
}

/// Does block `bb` call `__errno_location`, directly or through a function with a
/// body (`memo`: by function; recursion counts as no)?
fn calls_errno(bb: LLVMBasicBlockRef, memo: &mut HashMap<LLVMValueRef, bool>) -> bool {
    let mut i = unsafe { LLVMGetFirstInstruction(bb) };
    while !i.is_null() {
        let call = matches!(
            opcode(i),
            Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke)
        );
        if let Some(f) = call.then(|| callee(i)).flatten() {
            if value_name(f) == "__errno_location" {
                return true;
            }
            let known = memo.get(&f).copied();
            let reads = known.unwrap_or_else(|| {
                memo.insert(f, false);
                let mut b = unsafe { LLVMGetFirstBasicBlock(f) };
                let mut reads = false;
                while !reads && !b.is_null() {
                    reads = calls_errno(b, memo);
                    b = unsafe { LLVMGetNextBasicBlock(b) };
                }
                memo.insert(f, reads);
                reads
            });
            if reads {
                return true;
            }
        }
        i = unsafe { LLVMGetNextInstruction(i) };
    }
    false
}

/// Can a value of this type travel as an i64 (`Pass::as_i64`)?
unsafe fn to_i64_kind(ty: inkwell::llvm_sys::prelude::LLVMTypeRef) -> bool {
    match LLVMGetTypeKind(ty) {
        LLVMTypeKind::LLVMIntegerTypeKind => LLVMGetIntTypeWidth(ty) <= 64,
        LLVMTypeKind::LLVMPointerTypeKind
        | LLVMTypeKind::LLVMDoubleTypeKind
        | LLVMTypeKind::LLVMFloatTypeKind => true,
        _ => false,
    }
}
