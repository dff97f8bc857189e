//! Where the runtime puts fiber stacks and the heap. Fixed addresses keep every address a
//! program sees the same across executions.

use cdpor_sched::{Tid, MAX_THREADS};

pub const STACK_BASE: u64 = 0x1000_0000_0000;
/// Each thread's stack slot: a guard at the bottom, then the stack.
pub const STACK_SLOT: u64 = 8 << 20;
pub const STACK_GUARD: u64 = 64 << 10;

pub const HEAP_BASE: u64 = 0x2000_0000_0000;
pub const HEAP_SLOT: u64 = 1 << 32;
/// A byte per 8 bytes of heap (`heap`): made accessible with the heap it describes.
pub const SHADOW_BASE: u64 = 0x3000_0000_0000;
/// Each thread's block of thread-local variables (`runtime/c/tls.c`, which holds a copy
/// of these two).
pub const TLS_BASE: u64 = 0x4000_0000_0000;
pub const TLS_SLOT: u64 = 1 << 20;

pub fn stack_top(t: Tid) -> u64 {
    STACK_BASE + (t as u64 + 1) * STACK_SLOT
}

/// The thread whose stack guard contains `addr`, if any.
pub fn guard_of(addr: u64) -> Option<Tid> {
    let off = addr.checked_sub(STACK_BASE)?;
    let t = off / STACK_SLOT;
    (t < MAX_THREADS as u64 && off % STACK_SLOT < STACK_GUARD).then_some(t as Tid)
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
