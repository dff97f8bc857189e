//! Which values of `__VERIFIER_nondet_*` the program only compares with constants, and
//! with which: the domain the runtime explores (`cdpor_sched::ops::nondet`) is cut into
//! intervals at those constants, and a value from a wide interval is only sampled. The
//! program tells the runtime when it uses such a value in any other way
//! (`__cdpor_nondet_used`), which makes a sampled value restrict the execution.
//!
//! A value is followed through sign and zero extensions (under which a comparison's
//! outcome changes only where `ops::nondet::cuts` cuts), and through a global variable
//! that holds nothing but such values and constants and is only loaded and stored
//! directly: its loads are the values of every site that stores into it.

use std::collections::{BTreeSet, HashMap};

use cdpor_sched::ops::nondet;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use inkwell::values::AsValueRef;

use super::{opcode, Pass};

/// A lowered call of `__VERIFIER_nondet_*`.
pub(super) struct NondetCall {
    pub site: u32,
    /// The call of `__cdpor_nondet`, whose flags and cuts are filled in here.
    pub hook: LLVMValueRef,
    /// The value the program sees (of the call's return type).
    pub value: LLVMValueRef,
    pub bits: u32,
    pub signed: bool,
}

/// Operands of the `__cdpor_nondet` call filled in here.
const FLAGS: u32 = 3;
const CUTS: u32 = 4;
const N_CUTS: u32 = 5;

/// What the program does with the values of a source (a call's value, or a global's).
#[derive(Default)]
struct Uses {
    /// Constants compared with, as patterns.
    constants: Vec<u64>,
    /// Instructions before which the value is used otherwise.
    marks: Vec<LLVMValueRef>,
}

fn is_int(v: LLVMValueRef) -> bool {
    unsafe { LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMTypeKind::LLVMIntegerTypeKind }
}

fn int_width(v: LLVMValueRef) -> u32 {
    unsafe { LLVMGetIntTypeWidth(LLVMTypeOf(v)) }
}

/// A constant integer of at most 64 bits, as its pattern.
fn constant(v: LLVMValueRef) -> Option<u64> {
    unsafe {
        (!LLVMIsAConstantInt(v).is_null() && int_width(v) <= 64)
            .then(|| LLVMConstIntGetZExtValue(v))
    }
}

fn users(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    unsafe {
        let mut u = LLVMGetFirstUse(v);
        while !u.is_null() {
            out.push(LLVMGetUser(u));
            u = LLVMGetNextUse(u);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Follows `v` (a source's value or a widening of it) to its uses. `globals` are the
/// variables followed as sources of their own (a store into one is no use).
fn follow(v: LLVMValueRef, globals: &HashMap<LLVMValueRef, Vec<u32>>, out: &mut Uses) {
    for u in users(v) {
        unsafe {
            match opcode(u) {
                Some(LLVMOpcode::LLVMICmp) => {
                    let (a, b) = (LLVMGetOperand(u, 0), LLVMGetOperand(u, 1));
                    let other = if a == v { b } else { a };
                    match constant(other) {
                        Some(c) if other != v => out.constants.push(c),
                        _ => out.marks.push(u),
                    }
                }
                Some(LLVMOpcode::LLVMSwitch) if LLVMGetOperand(u, 0) == v => {
                    let n = LLVMGetNumOperands(u) as u32;
                    for i in (2..n).step_by(2) {
                        match constant(LLVMGetOperand(u, i)) {
                            Some(c) => out.constants.push(c),
                            None => out.marks.push(u),
                        }
                    }
                }
                Some(LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt) if int_width(u) <= 64 => {
                    follow(u, globals, out)
                }
                Some(LLVMOpcode::LLVMStore)
                    if LLVMGetOperand(u, 0) == v && globals.contains_key(&LLVMGetOperand(u, 1)) => {
                }
                Some(LLVMOpcode::LLVMPHI) => {
                    // Used where control leaves each block it comes from.
                    for i in 0..LLVMCountIncoming(u) {
                        if LLVMGetIncomingValue(u, i) == v {
                            let bb = LLVMGetIncomingBlock(u, i);
                            out.marks.push(LLVMGetBasicBlockTerminator(bb));
                        }
                    }
                }
                _ => out.marks.push(u),
            }
        }
    }
}

impl Pass<'_, '_> {
    /// Fills in each call's flags and cuts, and reports the uses of the values that are
    /// not comparisons with constants.
    pub(super) fn nondet_domains(&mut self, calls: &[NondetCall]) {
        let tracked: HashMap<LLVMValueRef, &NondetCall> = calls
            .iter()
            .filter(|c| c.bits > 0 && c.bits <= 64 && is_int(c.value))
            .map(|c| (c.value, c))
            .collect();
        let globals = self.nondet_globals(&tracked);
        // Each source's uses, the sites whose values it holds, and whether it holds other
        // threads' values.
        let mut sources: Vec<(Vec<u32>, bool, Uses)> = Vec::new();
        for c in tracked.values() {
            let mut uses = Uses::default();
            follow(c.value, &globals, &mut uses);
            sources.push((vec![c.site], false, uses));
        }
        for (&g, sites) in &globals {
            let mut uses = Uses::default();
            for load in users(g) {
                if opcode(load) == Some(LLVMOpcode::LLVMLoad) {
                    follow(load, &globals, &mut uses);
                }
            }
            sources.push((sites.clone(), true, uses));
        }
        let mut constants: HashMap<u32, Vec<u64>> = HashMap::new();
        let mut used: BTreeSet<u32> = BTreeSet::new();
        let mut marks: HashMap<LLVMValueRef, BTreeSet<(u32, bool)>> = HashMap::new();
        for (sites, any, uses) in sources {
            for &s in &sites {
                constants.entry(s).or_default().extend(&uses.constants);
                if !uses.marks.is_empty() {
                    used.insert(s);
                }
            }
            for m in uses.marks {
                marks
                    .entry(m)
                    .or_default()
                    .extend(sites.iter().map(|&s| (s, any)));
            }
        }
        let i32t = self.context.i32_type();
        let hook = self
            .module
            .get_function("__cdpor_nondet_used")
            .unwrap_or_else(|| {
                let ty = self
                    .context
                    .void_type()
                    .fn_type(&[i32t.into(), i32t.into()], false);
                self.module.add_function("__cdpor_nondet_used", ty, None)
            });
        let b = self.context.create_builder();
        for (at, sites) in marks {
            b.position_before(&unsafe { inkwell::values::InstructionValue::new(at) });
            for (s, any) in sites {
                let site = i32t.const_int(s as u64, false);
                let any = i32t.const_int(any as u64, false);
                b.build_call(hook, &[site.into(), any.into()], "")
                    .expect("positioned");
            }
        }
        for c in calls {
            let known = tracked.contains_key(&c.value);
            let mut flags = 0;
            if !known || used.contains(&c.site) {
                flags |= nondet::USED;
            }
            if !known {
                flags |= nondet::UNTRACKED;
            }
            let seen = constants.remove(&c.site).unwrap_or_default();
            let cuts = nondet::cuts(c.bits.max(1), c.signed, seen);
            self.set_domain(c.hook, flags, &cuts);
        }
    }

    /// Globals that hold only values of tracked calls and constants and that the program
    /// only loads and stores by name, with the sites that store into each.
    fn nondet_globals(
        &self,
        tracked: &HashMap<LLVMValueRef, &NondetCall>,
    ) -> HashMap<LLVMValueRef, Vec<u32>> {
        let mut out = HashMap::new();
        for g in self.module.get_globals() {
            let g = g.as_value_ref();
            let mut sites = Vec::new();
            let only_values = users(g).into_iter().all(|u| unsafe {
                match opcode(u) {
                    Some(LLVMOpcode::LLVMLoad) => true,
                    Some(LLVMOpcode::LLVMStore) if LLVMGetOperand(u, 1) == g => {
                        let v = LLVMGetOperand(u, 0);
                        if let Some(c) = tracked.get(&v) {
                            sites.push(c.site);
                            true
                        } else {
                            constant(v).is_some()
                        }
                    }
                    _ => false,
                }
            });
            if only_values && !sites.is_empty() {
                sites.sort_unstable();
                sites.dedup();
                out.insert(g, sites);
            }
        }
        out
    }

    fn set_domain(&self, hook: LLVMValueRef, flags: u32, cuts: &[i64]) {
        let c = self.context;
        let i64t = c.i64_type();
        let values: Vec<_> = cuts
            .iter()
            .map(|&x| i64t.const_int(x as u64, true))
            .collect();
        let array = i64t.const_array(&values);
        let g = self
            .module
            .add_global(array.get_type(), None, "__cdpor_nondet_cuts");
        g.set_initializer(&array);
        g.set_constant(true);
        g.set_linkage(inkwell::module::Linkage::Private);
        let i32t = c.i32_type();
        unsafe {
            LLVMSetOperand(
                hook,
                FLAGS,
                i32t.const_int(flags as u64, false).as_value_ref(),
            );
            LLVMSetOperand(hook, CUTS, g.as_pointer_value().as_value_ref());
            LLVMSetOperand(
                hook,
                N_CUTS,
                i32t.const_int(cuts.len() as u64, false).as_value_ref(),
            );
        }
    }
}
