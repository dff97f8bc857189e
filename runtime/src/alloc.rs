//! Where the runtime's own Rust allocations go. Before any execution (the fork server
//! setting up), to the C library's allocator. During an execution, to an arena that the
//! end of the execution empties: nothing the runtime allocates outlives an execution, and
//! the C library's allocator keeps the state it had before, which an in-place reset could
//! not put back (its bookkeeping is spread over its heap). `worker` watches the C
//! library's allocator for calls made during an execution (`runtime/c/alloc.c`).

use std::alloc::{GlobalAlloc, Layout};

use crate::Global;

/// The arena's reservation; an execution that needs more goes to the C library's
/// allocator (and its worker is forked again afterwards).
const SIZE: usize = 256 << 20;

pub struct Arena {
    base: usize,
    top: usize,
    /// An execution is running: allocations go to the arena.
    active: bool,
}

static ARENA: Global<*mut Arena> = Global::new(std::ptr::null_mut());

fn arena() -> Option<&'static mut Arena> {
    unsafe { ARENA.get().as_mut() }
}

/// Reserves the arena (in the fork server), its bookkeeping in `state`, which lives
/// outside the program's image.
///
/// # Safety
/// Once, with `state` valid for the process's life.
pub unsafe fn init(state: *mut Arena) -> bool {
    let p = libc::mmap(
        std::ptr::null_mut(),
        SIZE,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
        -1,
        0,
    );
    if p == libc::MAP_FAILED {
        return false;
    }
    state.write(Arena {
        base: p as usize,
        top: p as usize,
        active: false,
    });
    *ARENA.get() = state;
    true
}

/// An execution starts (allocations go to the arena) or ends (the arena is emptied).
pub fn execution(running: bool) {
    if let Some(a) = arena() {
        a.active = running;
        if !running {
            a.top = a.base;
        }
    }
}

pub struct RtAlloc;

unsafe impl GlobalAlloc for RtAlloc {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if let Some(a) = arena().filter(|a| a.active) {
            let start = a.top.next_multiple_of(l.align());
            if start + l.size() <= a.base + SIZE {
                a.top = start + l.size();
                return start as *mut u8;
            }
            crate::worker::refork(cdpor_sched::shm::Replaced::Room);
        }
        let mut p = std::ptr::null_mut();
        if libc::posix_memalign(&mut p, l.align().max(16), l.size()) != 0 {
            return std::ptr::null_mut();
        }
        p as *mut u8
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        let addr = p as usize;
        match arena() {
            Some(a) if (a.base..a.base + SIZE).contains(&addr) => {
                // The last allocation goes back; the rest waits for the end.
                if addr + l.size() == a.top {
                    a.top = addr;
                }
            }
            _ => libc::free(p as *mut libc::c_void),
        }
    }
}
