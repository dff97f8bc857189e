//! The regions of `cdpor_sched::layout` that threads use: fiber stacks, the heap and its
//! shadow, threads' thread-local variables. The fork server reserves them (inaccessible);
//! a thread's stack and block are made accessible when it needs them.
//!
//! A worker forked for one execution makes a thread's whole stack slot accessible at
//! once, and the process's end takes it all back. An in-place worker keeps what it made
//! accessible from one execution to the next, so a reset must zero what an execution
//! used (a fresh page is zero, and a program that reads a local it never wrote must read
//! in every execution what it reads in the first). It does not know how deep a stack went
//! between two events (a library call, a recursion without shared accesses), so it makes
//! each life's stack accessible a few pages at a time, below its top: a fault just below
//! is the stack growing (`grow`), and what is accessible is what to zero.

use cdpor_sched::layout::*;
use cdpor_sched::{ThreadSet, Tid, MAX_THREADS};

use crate::Global;

/// The thread whose stack guard contains `addr`, if any.
pub fn guard_of(addr: u64) -> Option<Tid> {
    stack_owner(addr).and_then(|(t, off)| (off < STACK_GUARD).then_some(t))
}

/// Reserves the stack and heap regions (inaccessible until a thread or an allocation
/// needs them), in the fork server so that each worker inherits them for free.
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

/// How much of a life's stack an in-place worker makes accessible at a time.
const STACK_STEP: u64 = 4 << 10;
/// Thread-local blocks an execution can initialize (more: the worker is forked again).
const BLOCKS: usize = 1024;

/// What an in-place worker has made accessible (kept across executions), and what the
/// current execution used (zeroed by `reset`).
pub struct Regions {
    /// Per thread number and life: the accessible bytes below the life's stack top, and
    /// of its thread-local block.
    stack: [[u32; LIVES as usize]; MAX_THREADS],
    tls: [[u32; LIVES as usize]; MAX_THREADS],
    stacks_used: ThreadSet,
    blocks: [(u64, u64); BLOCKS],
    n_blocks: usize,
    /// The worker resets in place (else nothing is kept: the process ends).
    inplace: bool,
}

static REGIONS: Global<*mut Regions> = Global::new(std::ptr::null_mut());

fn regions() -> Option<&'static mut Regions> {
    unsafe { REGIONS.get().as_mut() }
}

/// Sets up the bookkeeping in `state`, outside the program's image (in the fork server).
///
/// # Safety
/// Once, with `state` valid for the process's life.
pub unsafe fn init(state: *mut Regions) {
    // Zero as `mmap` gave it: untouched, so that a worker faults in only what it uses.
    *REGIONS.get() = state;
}

/// The worker resets in place from now on.
pub fn set_inplace(on: bool) {
    if let Some(r) = regions() {
        r.inplace = on;
    }
}

fn protect(lo: u64, hi: u64) -> bool {
    unsafe {
        libc::mprotect(
            lo as *mut libc::c_void,
            (hi - lo) as usize,
            libc::PROT_READ | libc::PROT_WRITE,
        ) == 0
    }
}

/// The bounds of life `life`'s part of stack slot `t`: from the next life's top (or the
/// guard) up to its own top.
fn life_part(t: Tid, life: u32) -> (u64, u64) {
    let top = life_stack_top(t, life);
    let low = if life + 1 < LIVES {
        life_stack_top(t, life + 1)
    } else {
        stack_bottom(t) + STACK_GUARD
    };
    (low, top)
}

/// Makes the stack of the `life`-th thread of number `t` accessible; false if it cannot.
pub fn map_stack(t: Tid, life: u32) -> bool {
    let life = life % LIVES;
    match regions() {
        Some(r) if r.inplace => {
            r.stacks_used.insert(t);
            let (low, top) = life_part(t, life);
            let have = &mut r.stack[t as usize][life as usize];
            if (*have as u64) < STACK_STEP {
                let lo = (top - STACK_STEP).max(low);
                if !protect(lo, top - *have as u64) {
                    return false;
                }
                *have = (top - lo) as u32;
            }
            true
        }
        // The whole slot: the process ends with the execution.
        _ => protect(stack_bottom(t) + STACK_GUARD, stack_top(t)),
    }
}

/// A fault at `addr`: if it is just below the accessible part of a live thread's stack
/// (`live`), that part grows to cover it and the access can be made again.
pub fn grow(addr: u64, live: impl Fn(Tid) -> bool) -> bool {
    let Some(r) = regions().filter(|r| r.inplace) else {
        return false;
    };
    let Some((t, off)) = stack_owner(addr) else {
        return false;
    };
    if off < STACK_GUARD || !live(t) {
        return false;
    }
    for life in 0..LIVES {
        let (low, top) = life_part(t, life);
        if !(low..top).contains(&addr) {
            continue;
        }
        let have = &mut r.stack[t as usize][life as usize];
        let accessible = top - *have as u64;
        if addr >= accessible {
            return false;
        }
        let lo = (addr & !(STACK_STEP - 1)).max(low);
        if !protect(lo, accessible) {
            return false;
        }
        *have = (top - lo) as u32;
        r.stacks_used.insert(t);
        return true;
    }
    false
}

/// Makes the first `len` bytes (a multiple of the page size) of the thread-local block
/// of the `life`-th thread of number `t` accessible; returns the block, or `None`.
pub fn map_tls(t: Tid, life: u32, len: u64) -> Option<u64> {
    let block = life_tls_block(t, life);
    match regions() {
        Some(r) if r.inplace => {
            if r.n_blocks == BLOCKS {
                crate::worker::refork(cdpor_sched::shm::Replaced::Room);
            } else {
                r.blocks[r.n_blocks] = (block, len);
                r.n_blocks += 1;
            }
            let have = &mut r.tls[t as usize][(life % LIVES) as usize];
            if (*have as u64) < len {
                if !protect(block + *have as u64, block + len) {
                    return None;
                }
                *have = len as u32;
            }
        }
        _ => {
            if len > 0 && !protect(block, block + len) {
                return None;
            }
        }
    }
    Some(block)
}

/// Zeroes what the execution used of the stacks and thread-local blocks (in place).
pub fn reset() {
    let Some(r) = regions() else { return };
    for t in r.stacks_used.iter() {
        for life in 0..LIVES {
            let have = r.stack[t as usize][life as usize] as u64;
            if have > 0 {
                let top = life_stack_top(t, life);
                unsafe { std::ptr::write_bytes((top - have) as *mut u8, 0, have as usize) };
            }
        }
    }
    r.stacks_used = ThreadSet::EMPTY;
    for &(block, len) in &r.blocks[..r.n_blocks] {
        unsafe { std::ptr::write_bytes(block as *mut u8, 0, len as usize) };
    }
    r.n_blocks = 0;
}

/// The first byte of the accessible stacks and blocks that is not zero, if any (after a
/// reset: a test of it).
pub fn first_nonzero() -> Option<u64> {
    let r = regions()?;
    let zero = |lo: u64, len: u64| {
        let s = unsafe { std::slice::from_raw_parts(lo as *const u8, len as usize) };
        s.iter().position(|&b| b != 0).map(|i| lo + i as u64)
    };
    for t in 0..MAX_THREADS as Tid {
        for life in 0..LIVES {
            let have = r.stack[t as usize][life as usize] as u64;
            if let Some(a) = (have > 0)
                .then(|| zero(life_stack_top(t, life) - have, have))
                .flatten()
            {
                return Some(a);
            }
            let len = r.tls[t as usize][life as usize] as u64;
            if let Some(a) = (len > 0)
                .then(|| zero(life_tls_block(t, life), len))
                .flatten()
            {
                return Some(a);
            }
        }
    }
    None
}
