//! The checked program's heap. Each thread allocates from its own arena at a fixed
//! address by bumping a pointer, so a block's address depends only on which thread
//! allocates it and what that thread allocated before: the same in every interleaving,
//! which the engine needs to recognise an event when it re-executes a schedule. Freed
//! blocks are never reused within an execution, which is also what makes every use
//! after free detectable.
//!
//! A shadow byte per 8 bytes of heap (as in AddressSanitizer) says which bytes are
//! inside a live block: accesses are checked against it when they execute, so whether
//! a use comes before or after the free depends on the interleaving, like any event.
//! Every block has a header in front of it (size, state, who allocated and freed it),
//! which is also a red zone: an access just past a block or just before the next one
//! falls into a gap no block owns.

use cdpor_sched::shm::{MemError, MemFault};
use cdpor_sched::{ThreadSet, Tid, MAX_THREADS};

use crate::Global;
use cdpor_sched::layout::{in_heap, stack_owner, HEAP_BASE, HEAP_SLOT, HEAP_SPAN, SHADOW_BASE};

/// Bytes in front of each block: its `Header`, and at least as many of red zone behind
/// the block before the next header.
const HEADER: u64 = 32;
const RED_ZONE: u64 = 32;
/// Made accessible in steps of 2 MiB (and the shadow with it).
const STEP: u64 = 1 << 21;

/// Shadow values: 0 no block (header, red zone, never allocated); 1..=8 the first k
/// bytes of the granule belong to a live block; a freed block's bytes; the granule at a
/// live block of size 0 (no byte of it is the block's).
const FREED: u8 = 0xfd;
const EMPTY: u8 = 0xfa;

const LIVE_TAG: u32 = 0xa110_c8ed;
const FREED_TAG: u32 = 0xf4ee_b10c;

#[repr(C)]
#[derive(Clone, Copy)]
struct Header {
    size: u64,
    tag: u32,
    alloc_site: u32,
    alloc_tid: Tid,
    free_site: u32,
    free_tid: Tid,
    /// The step at which it was allocated: the allocating thread's number may be
    /// another thread's by the time a report names it.
    alloc_step: u32,
}

const _: () = assert!(std::mem::size_of::<Header>() == HEADER as usize);

#[derive(Clone, Copy)]
struct Arena {
    /// Offset of the first unallocated byte.
    used: u64,
    /// Bytes made accessible (kept by an in-place worker from one execution to the next).
    mapped: u64,
    /// Bytes this execution needed accessible: what a worker forked for it would have
    /// made accessible, which decides what an access beyond the blocks does.
    reach: u64,
    /// Offset past the last byte the execution wrote (beyond `used` only where memory
    /// errors do not end it, `--svcomp`).
    written: u64,
}

/// The arenas, and those the current execution used: an in-place reset zeroes what they
/// allocated, as fresh memory is.
pub struct Heap {
    arenas: [Arena; MAX_THREADS],
    touched: ThreadSet,
}

static HEAP: Global<*mut Heap> = Global::new(std::ptr::null_mut());

/// Sets up the heap's bookkeeping in `state`, outside the program's image (in the fork
/// server).
///
/// # Safety
/// Once, with `state` valid for the process's life.
pub unsafe fn init(state: *mut Heap) {
    // Zero as `mmap` gave it: untouched, so that a worker faults in only what it uses.
    *HEAP.get() = state;
}

fn heap() -> &'static mut Heap {
    unsafe { &mut **HEAP.get() }
}

fn arenas() -> &'static mut [Arena; MAX_THREADS] {
    &mut heap().arenas
}

/// The bytes `[lo, hi)` of the heap were written.
pub fn wrote(lo: u64, hi: u64) {
    let off = lo - HEAP_BASE;
    let t = (off / HEAP_SLOT) as usize;
    let h = heap();
    let a = &mut h.arenas[t];
    a.written = a
        .written
        .max((hi - HEAP_BASE - t as u64 * HEAP_SLOT).min(a.reach));
    h.touched.insert(t as Tid);
}

/// Gives back what the execution allocated, zeroed (in place).
pub fn reset() {
    let h = heap();
    for t in h.touched.iter() {
        let a = &mut h.arenas[t as usize];
        let end = a.used.max(a.written).min(a.reach);
        let base = HEAP_BASE + t as u64 * HEAP_SLOT;
        // Not even a call for no bytes: a memset of nothing into a page not yet written
        // costs some 140 ns here (glibc's masked store), one of a byte 3.5 ns.
        if end > 0 {
            unsafe {
                std::ptr::write_bytes(base as *mut u8, 0, end as usize);
                std::ptr::write_bytes(shadow(base), 0, end.div_ceil(8) as usize);
            }
        }
        a.used = 0;
        a.written = 0;
        a.reach = 0;
    }
    h.touched = ThreadSet::EMPTY;
}

/// Before an access to `[lo, hi)`, in the heap: an access beyond what this execution
/// made accessible of an arena must fault, as in a worker forked for this execution,
/// although an earlier execution in this worker made more of it accessible. That part is
/// made inaccessible again (rarely: an access past every block by more than a step).
pub fn before_access(lo: u64, hi: u64) {
    for addr in [lo, hi - 1] {
        let off = addr.wrapping_sub(HEAP_BASE);
        if off >= HEAP_SPAN {
            continue;
        }
        let t = (off / HEAP_SLOT) as usize;
        let a = &mut arenas()[t];
        if off % HEAP_SLOT >= a.reach && a.mapped > a.reach {
            let base = HEAP_BASE + t as u64 * HEAP_SLOT;
            let shrink = |lo: u64, len: u64| unsafe {
                libc::mprotect(lo as *mut _, len as usize, libc::PROT_NONE);
            };
            shrink(base + a.reach, a.mapped - a.reach);
            shrink(shadow(base + a.reach) as u64, (a.mapped - a.reach) / 8);
            a.mapped = a.reach;
        }
    }
}

/// The first byte of the accessible heap (or its shadow) that is not zero, if any (after
/// a reset: a test of it).
pub fn first_nonzero() -> Option<u64> {
    let h = heap();
    (0..MAX_THREADS).find_map(|t| {
        let base = HEAP_BASE + t as u64 * HEAP_SLOT;
        let len = h.arenas[t].mapped;
        [(base, len), (shadow(base) as u64, len / 8)]
            .into_iter()
            .find_map(|(lo, len)| {
                let s = unsafe { std::slice::from_raw_parts(lo as *const u8, len as usize) };
                s.iter().position(|&b| b != 0).map(|i| lo + i as u64)
            })
    })
}

fn shadow(addr: u64) -> *mut u8 {
    (SHADOW_BASE + ((addr - HEAP_BASE) >> 3)) as *mut u8
}

fn shadow_at(addr: u64) -> u8 {
    unsafe { *shadow(addr) }
}

fn set_shadow(lo: u64, len: u64, v: u8) {
    let n = len.div_ceil(8) as usize;
    unsafe { std::ptr::write_bytes(shadow(lo), v, n) };
}

fn header(block: u64) -> &'static mut Header {
    unsafe { &mut *((block - HEADER) as *mut Header) }
}

/// Is `addr` in the part of a heap arena this execution made accessible (so its shadow
/// is too)?
fn mapped(addr: u64) -> bool {
    let off = addr.wrapping_sub(HEAP_BASE);
    off < HEAP_SPAN && off % HEAP_SLOT < arenas()[(off / HEAP_SLOT) as usize].reach
}

/// Does the granule at `g` belong to a block, live or freed?
fn owned(g: u64) -> bool {
    matches!(shadow_at(g), 1..=8 | FREED | EMPTY)
}

/// A new block of `size` bytes for thread `t` at `step`, or `None` when its arena is
/// exhausted.
pub fn alloc(t: Tid, step: u32, size: u64, align: u64, site: u32) -> Option<u64> {
    if t as usize >= MAX_THREADS || !align.is_power_of_two() || align > 4096 {
        return None;
    }
    let align = align.max(16);
    heap().touched.insert(t);
    let a = &mut arenas()[t as usize];
    let base = HEAP_BASE + t as u64 * HEAP_SLOT;
    let gap = if a.used == 0 { 0 } else { RED_ZONE };
    let start = (a.used + gap + HEADER).checked_add(align - 1)? & !(align - 1);
    let end = start.checked_add(size)?;
    if end > HEAP_SLOT {
        return None;
    }
    if end > a.reach {
        let want = end.div_ceil(STEP) * STEP;
        if want > a.mapped {
            let grow = |lo: u64, len: u64| unsafe {
                libc::mprotect(
                    lo as *mut _,
                    len as usize,
                    libc::PROT_READ | libc::PROT_WRITE,
                ) == 0
            };
            let heap = base + a.mapped;
            if !grow(heap, want - a.mapped) || !grow(shadow(heap) as u64, (want - a.mapped) / 8) {
                return None;
            }
            a.mapped = want;
        }
        a.reach = want;
    }
    a.used = end;
    let block = base + start;
    *header(block) = Header {
        size,
        tag: LIVE_TAG,
        alloc_site: site,
        alloc_tid: t,
        free_site: 0,
        free_tid: 0,
        alloc_step: step,
    };
    if size == 0 {
        unsafe { *shadow(block) = EMPTY };
    } else {
        set_shadow(block, size & !7, 8);
        if !size.is_multiple_of(8) {
            unsafe { *shadow(block + (size & !7)) = (size % 8) as u8 };
        }
    }
    Some(block)
}

/// The size of the block at `block`, live or freed (for `realloc`'s copy); 0 if no block
/// starts there.
pub fn size(block: u64) -> u64 {
    match target(block) {
        Target::Live(size) | Target::Freed(size) => size,
        _ => 0,
    }
}

/// What a pointer passed to `free` points to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    /// The start of a live block of this many bytes.
    Live(u64),
    /// The start of a block freed already.
    Freed(u64),
    /// Inside or between heap blocks, or a static or stack address: never a block.
    Invalid(MemError),
    /// Memory the C library allocated for itself (`getline`'s buffer): its own `free`'s.
    Foreign,
}

extern "C" {
    /// The linker's bounds of the executable's image (text, data and bss).
    static __executable_start: u8;
    static _end: u8;
}

pub fn target(p: u64) -> Target {
    if in_heap(p) {
        // A block starts 16-aligned, owns its first granule, and has its header (no
        // block's) right before it.
        if mapped(p) && p.is_multiple_of(16) && p % HEAP_SLOT >= HEADER && owned(p) && !owned(p - 8)
        {
            let h = header(p);
            match h.tag {
                LIVE_TAG => return Target::Live(h.size),
                FREED_TAG => return Target::Freed(h.size),
                _ => {}
            }
        }
        return Target::Invalid(MemError::InvalidFree);
    }
    if stack_owner(p).is_some() {
        return Target::Invalid(MemError::FreeStack);
    }
    let (lo, hi) = unsafe {
        (
            &__executable_start as *const u8 as u64,
            &_end as *const u8 as u64,
        )
    };
    if (lo..hi).contains(&p) {
        return Target::Invalid(MemError::FreeStatic);
    }
    Target::Foreign
}

/// Frees the block at `p` (thread `t`, at `site`), or says why it cannot.
pub fn free(p: u64, t: Tid, site: u32) -> Result<(), MemFault> {
    match target(p) {
        Target::Live(size) => {
            let h = header(p);
            h.tag = FREED_TAG;
            h.free_site = site;
            h.free_tid = t;
            set_shadow(p, size.max(1), FREED);
            Ok(())
        }
        Target::Freed(_) => Err(fault(MemError::DoubleFree, p, 0, p)),
        Target::Invalid(what) => Err(fault(what, p, 0, p)),
        // Checked before the event: never reached.
        Target::Foreign => Ok(()),
    }
}

/// Checks an access to `[lo, lo+len)` as it executes: `Err` when a byte of it is in the
/// heap but in no live block.
#[inline]
pub fn check(lo: u64, len: u64) -> Result<(), MemFault> {
    if !in_heap(lo) || len == 0 {
        return Ok(());
    }
    check_heap(lo, len)
}

fn check_heap(lo: u64, len: u64) -> Result<(), MemFault> {
    let last = lo.saturating_add(len - 1);
    // Beyond what the arena made accessible, the access itself crashes.
    if !mapped(lo) || !mapped(last) {
        return Ok(());
    }
    let mut g = lo & !7;
    while g <= last {
        let s = shadow_at(g);
        let hi = last.min(g + 7) & 7;
        if !(1..=8).contains(&s) || hi >= s as u64 {
            let what = if s == FREED {
                MemError::UseAfterFree
            } else {
                MemError::OutOfBounds
            };
            return Err(fault(what, lo, len, g.max(lo)));
        }
        g += 8;
    }
    Ok(())
}

/// Describes a memory error of an access (or free) at `addr`: the block its first bad
/// byte `bad` concerns, if one is near enough.
fn fault(what: MemError, addr: u64, len: u64, bad: u64) -> MemFault {
    let mut f = MemFault {
        what: what as u32,
        addr,
        len,
        ..MemFault::default()
    };
    if let Some(block) = block_near(bad) {
        let h = header(block);
        f.block = block;
        f.size = h.size;
        f.alloc_site = h.alloc_site;
        f.alloc_tid = h.alloc_tid;
        f.alloc_step = h.alloc_step;
        if h.tag == FREED_TAG {
            f.freed = 1;
            f.free_site = h.free_site;
            f.free_tid = h.free_tid;
        }
    }
    f
}

/// The block that `addr` is in, or the one it is just past or just before: the first
/// bad byte's nearest block within a red zone and a header.
fn block_near(addr: u64) -> Option<u64> {
    if !in_heap(addr) || !mapped(addr) {
        return None;
    }
    let slot_base = addr - (addr - HEAP_BASE) % HEAP_SLOT;
    let mut g = addr & !7;
    // Back over the gap to the end of the block before, if it is near.
    let reach = (RED_ZONE + HEADER + 16) / 8;
    let mut steps = 0;
    while !owned(g) && g > slot_base && steps < reach {
        g -= 8;
        steps += 1;
    }
    if owned(g) {
        // Then back to its start: blocks are separated by unowned headers.
        while g > slot_base && owned(g - 8) {
            g -= 8;
        }
        return Some(g);
    }
    // Else forward to the start of the next block (an access just before it).
    let mut g = addr & !7;
    for _ in 0..=(HEADER / 8) {
        g += 8;
        if mapped(g) && owned(g) {
            return Some(g);
        }
    }
    None
}
