//! Where a checked program's threads keep their stacks, heap blocks and thread-local
//! variables: fixed addresses, so that every address a program sees is the same in every
//! execution whatever the interleaving. The runtime maps them; reports name memory by
//! them.

use crate::event::{Tid, MAX_THREADS};

pub const STACK_BASE: u64 = 0x1000_0000_0000;
/// Each thread's stack slot: a guard at the bottom, then the stack.
pub const STACK_SLOT: u64 = 8 << 20;
pub const STACK_GUARD: u64 = 64 << 10;

/// Words that stand for threads' detached states (`ops::thread`), one per thread, just
/// below the stacks: never mapped, only named by footprints.
pub const DETACH_WORDS: u64 = STACK_BASE - 8 * MAX_THREADS as u64;

/// Bytes that stand for parts of synchronization objects that no byte of the object
/// holds (a barrier's rounds: `ops::barrier`), above every address a program can have:
/// never mapped, only named by footprints, so that dependence can say more than the
/// object's own bytes would.
pub const NAMES_BASE: u64 = 1 << 62;

/// Is `addr` such a name rather than memory?
pub fn is_name(addr: u64) -> bool {
    addr >= NAMES_BASE
}

/// Each thread allocates from a slot of its own.
pub const HEAP_BASE: u64 = 0x2000_0000_0000;
pub const HEAP_SLOT: u64 = 1 << 32;
pub const HEAP_SPAN: u64 = HEAP_SLOT * MAX_THREADS as u64;
/// A byte per 8 bytes of heap: which bytes are in a live block.
pub const SHADOW_BASE: u64 = 0x3000_0000_0000;

/// Each thread's block of thread-local variables.
pub const TLS_BASE: u64 = 0x4000_0000_0000;
pub const TLS_SLOT: u64 = 1 << 20;

/// A thread number serves several threads one after another (a joined thread's number
/// goes to its joiner's next child): each life of it starts its stack and its block of
/// thread-local variables elsewhere in its slots, in turn, so that an access to an
/// earlier life's locals is told from the current life's (it is in neither).
pub const LIVES: u32 = 4;
pub const STACK_STAGGER: u64 = 256 << 10;
pub const TLS_LIFE: u64 = TLS_SLOT / LIVES as u64;

/// Where the stack of the `life`-th thread of number `t` starts.
pub fn life_stack_top(t: Tid, life: u32) -> u64 {
    stack_top(t) - (life % LIVES) as u64 * STACK_STAGGER
}

/// The block of thread-local variables of the `life`-th thread of number `t`.
pub fn life_tls_block(t: Tid, life: u32) -> u64 {
    tls_block(t) + (life % LIVES) as u64 * TLS_LIFE
}

/// The lowest address of thread `t`'s stack slot (its guard).
pub fn stack_bottom(t: Tid) -> u64 {
    STACK_BASE + t as u64 * STACK_SLOT
}

pub fn stack_top(t: Tid) -> u64 {
    stack_bottom(t) + STACK_SLOT
}

/// Thread `t`'s block of thread-local variables.
pub fn tls_block(t: Tid) -> u64 {
    TLS_BASE + t as u64 * TLS_SLOT
}

/// The thread whose slot `addr` is in, of the `MAX_THREADS` slots at `base` of `slot`
/// bytes each, and the offset in it.
fn owner(addr: u64, base: u64, slot: u64) -> Option<(Tid, u64)> {
    let off = addr.checked_sub(base)?;
    (off < slot * MAX_THREADS as u64).then(|| ((off / slot) as Tid, off % slot))
}

/// The thread whose stack slot holds `addr`, and the offset in the slot.
pub fn stack_owner(addr: u64) -> Option<(Tid, u64)> {
    owner(addr, STACK_BASE, STACK_SLOT)
}

/// The thread whose block of thread-local variables holds `addr`, and the offset in it.
pub fn tls_owner(addr: u64) -> Option<(Tid, u64)> {
    owner(addr, TLS_BASE, TLS_SLOT)
}

/// Is `addr` in some thread's heap slot?
pub fn in_heap(addr: u64) -> bool {
    addr.wrapping_sub(HEAP_BASE) < HEAP_SPAN
}
