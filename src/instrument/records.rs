//! Which struct an access goes through, so that reports can name a field of a heap
//! block (`heap[16B from f.c:8].balance`): a block has no type of its own, but the
//! accesses to it do, in the `getelementptr` that computes their address.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::target::{LLVMABISizeOfType, LLVMOffsetOfElement, LLVMTargetDataRef};
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use serde::{Deserialize, Serialize};

/// The struct an access goes through: its C name, and where in it the accessed bytes
/// start.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Record {
    pub name: String,
    pub offset: u64,
}

/// The record of an access to `ptr`: the outermost named struct of the chain of
/// `getelementptr`s that computes `ptr` with constant indices (a field, a field of a
/// field, an element of an array field: `o->in.b`, `o->items[2]`), and the offset of the
/// accessed bytes in it. The first index of the outermost one only says which struct of
/// an array: the offset is from the start of the struct.
pub fn record_of(ptr: LLVMValueRef, target: LLVMTargetDataRef) -> Option<Record> {
    let mut record = None;
    let mut offset = 0;
    let mut p = ptr;
    for _ in 0..8 {
        let Some((ty, within, first_is_zero)) = (unsafe { step(p, target) }) else {
            break;
        };
        offset += within;
        if let Some(name) = unsafe { struct_name(ty) } {
            record = Some(Record { name, offset });
        }
        if !first_is_zero {
            break;
        }
        p = unsafe { LLVMGetOperand(p, 0) };
    }
    record
}

/// One `getelementptr` with constant indices past the first: its source type, the offset
/// those indices select in it, and whether its first index is 0 (its base is the start
/// of that type's value).
unsafe fn step(
    ptr: LLVMValueRef,
    target: LLVMTargetDataRef,
) -> Option<(inkwell::llvm_sys::prelude::LLVMTypeRef, u64, bool)> {
    let is_gep = (!LLVMIsAGetElementPtrInst(ptr).is_null())
        || (!LLVMIsAConstantExpr(ptr).is_null()
            && LLVMGetConstOpcode(ptr) == LLVMOpcode::LLVMGetElementPtr);
    if !is_gep {
        return None;
    }
    let root = LLVMGetGEPSourceElementType(ptr);
    let indices = LLVMGetNumOperands(ptr) as u32 - 1;
    let constant = |i: u32| {
        let idx = LLVMGetOperand(ptr, i);
        (!LLVMIsAConstantInt(idx).is_null()).then(|| LLVMConstIntGetZExtValue(idx))
    };
    let first_is_zero = constant(1) == Some(0);
    let mut ty = root;
    let mut offset = 0u64;
    for i in 2..=indices {
        let k = constant(i)?;
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMStructTypeKind => {
                offset += LLVMOffsetOfElement(target, ty, k as u32);
                ty = LLVMStructGetTypeAtIndex(ty, k as u32);
            }
            LLVMTypeKind::LLVMArrayTypeKind => {
                ty = LLVMGetElementType(ty);
                offset += k * LLVMABISizeOfType(target, ty);
            }
            _ => return None,
        }
    }
    Some((root, offset, first_is_zero))
}

/// The C name of a named struct type: `struct.account` is `account` (clang names an
/// anonymous struct after its typedef); `.0`, `.1`... tell apart types of one name from
/// different files, which the debug information does not.
unsafe fn struct_name(ty: inkwell::llvm_sys::prelude::LLVMTypeRef) -> Option<String> {
    if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMStructTypeKind {
        return None;
    }
    let p = LLVMGetStructName(ty);
    if p.is_null() {
        return None;
    }
    let full = std::ffi::CStr::from_ptr(p).to_string_lossy();
    let name = full.strip_prefix("struct.")?;
    let name = match name.rsplit_once('.') {
        Some((base, n)) if n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => name,
    };
    (!name.is_empty()).then(|| name.to_string())
}
