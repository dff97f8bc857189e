//! The program's names stay the program's. The runtime lives in the program's process and
//! reaches the C library by its public names (`write`, `memcpy`, `malloc`...); a program
//! that defines one of them would, in a plain link, take the runtime's calls too. So every
//! definition of the program becomes local to its module (internal linkage: the symbol
//! stays in the symbol table, under its own name, for reports) and nothing of the program
//! but its entry point is visible to the linker. This holds for every name, whatever
//! files the program is linked from, and costs nothing at run time.
//!
//! The program's calls of a function it defines go to its definition, as in a normal
//! link: only calls of declarations are redirected to the runtime's models.

use inkwell::llvm_sys::comdat::{LLVMGetComdat, LLVMSetComdat};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::{LLVMDLLStorageClass, LLVMLinkage, LLVMVisibility};
use inkwell::values::AsValueRef;

use super::{externals, first_user, location, value_name, Pass, Rejection};

/// The allocator's functions a program may define as its own, as glibc allows.
const ALLOCATOR: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "free",
    "aligned_alloc",
    "memalign",
    "posix_memalign",
    "valloc",
    "pvalloc",
    "reallocarray",
];

impl Pass<'_, '_> {
    /// Makes every definition of the program local to it, `main` excepted (the runtime
    /// calls it, under the name the pass gives it).
    pub(super) fn make_names_private(&self) {
        let module = self.module.as_mut_ptr();
        unsafe {
            let mut g = LLVMGetFirstFunction(module);
            while !g.is_null() {
                if value_name(g) != "main" {
                    privatize(g);
                }
                g = LLVMGetNextFunction(g);
            }
            let mut g = LLVMGetFirstGlobal(module);
            while !g.is_null() {
                privatize(g);
                g = LLVMGetNextGlobal(g);
            }
            let mut g = LLVMGetFirstGlobalAlias(module);
            while !g.is_null() {
                privatize(g);
                g = LLVMGetNextGlobalAlias(g);
            }
        }
    }

    /// A program may bring its own allocator; cdpor then leaves its blocks to it. But a
    /// block of the program's allocator must never reach the model's (or the other way
    /// round: `free` of a `strdup`ed string), where glibc would use one allocator for
    /// both: such a program is refused, naming the functions.
    pub(super) fn check_own_allocator(&self) -> Result<(), Rejection> {
        let own = self.module.get_functions().find(|f| {
            f.count_basic_blocks() > 0
                && ALLOCATOR.contains(&f.get_name().to_string_lossy().as_ref())
        });
        let Some(own) = own else { return Ok(()) };
        for f in self.module.get_functions() {
            let name = f.get_name().to_string_lossy().into_owned();
            if f.count_basic_blocks() > 0 || !externals::allocates_or_frees(&name) {
                continue;
            }
            let Some(user) = first_user(f.as_value_ref()) else {
                continue;
            };
            let (file, line, _) = location(user);
            return Err(Rejection::MixedAllocators {
                defined: own.get_name().to_string_lossy().into_owned(),
                called: name,
                at: if file.is_empty() {
                    String::new()
                } else {
                    format!("{file}:{line}")
                },
            });
        }
        Ok(())
    }
}

unsafe fn privatize(g: LLVMValueRef) {
    if LLVMIsDeclaration(g) != 0 {
        return;
    }
    match LLVMGetLinkage(g) {
        // A body that stands for a definition elsewhere (C99 `inline`): it is the
        // declaration of that definition, not one of its own.
        LLVMLinkage::LLVMAvailableExternallyLinkage
        | LLVMLinkage::LLVMPrivateLinkage
        | LLVMLinkage::LLVMInternalLinkage
        | LLVMLinkage::LLVMAppendingLinkage => return,
        _ => {}
    }
    if value_name(g).starts_with("llvm.") {
        return;
    }
    LLVMSetLinkage(g, LLVMLinkage::LLVMInternalLinkage);
    // Local symbols have default visibility and storage, and belong to no comdat group
    // that another object could pick instead.
    LLVMSetVisibility(g, LLVMVisibility::LLVMDefaultVisibility);
    LLVMSetDLLStorageClass(g, LLVMDLLStorageClass::LLVMDefaultStorageClass);
    if !LLVMIsAGlobalObject(g).is_null() && !LLVMGetComdat(g).is_null() {
        LLVMSetComdat(g, std::ptr::null_mut());
    }
}
