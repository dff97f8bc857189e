//! Reserving the regions of `cdpor_sched::layout`: fiber stacks, the heap and its
//! shadow, threads' thread-local variables.

use cdpor_sched::layout::*;
use cdpor_sched::{Tid, MAX_THREADS};

/// The thread whose stack guard contains `addr`, if any.
pub fn guard_of(addr: u64) -> Option<Tid> {
    stack_owner(addr).and_then(|(t, off)| (off < STACK_GUARD).then_some(t))
}

/// Reserves the stack and heap regions (inaccessible until a thread or an allocation
/// needs them), in the fork server so that each execution inherits them for free.
pub fn reserve() -> Result<(), &'static str> {
    unsafe {
        for (base, len, what) in [
            (STACK_BASE, STACK_SLOT * MAX_THREADS as u64, "thread stacks"),
            (HEAP_BASE, HEAP_SLOT * MAX_THREADS as u64, "heap"),
            (
                SHADOW_BASE,
                HEAP_SLOT * MAX_THREADS as u64 / 8,
                "heap shadow",
            ),
            (
                TLS_BASE,
                TLS_SLOT * MAX_THREADS as u64,
                "thread-local variables",
            ),
        ] {
            let p = libc::mmap(
                base as *mut libc::c_void,
                len as usize,
                libc::PROT_NONE,
                libc::MAP_PRIVATE
                    | libc::MAP_ANONYMOUS
                    | libc::MAP_NORESERVE
                    | libc::MAP_FIXED_NOREPLACE,
                -1,
                0,
            );
            if p as u64 != base {
                return Err(what);
            }
        }
    }
    Ok(())
}
