//! Memory accesses, the C library's calls and the heap: the hooks of instrumented code,
//! a library call's footprint (computed again when it executes), stores the runtime makes
//! for the program, allocations and frees, thread-local blocks.

use super::*;

/// The ranges of user memory a C library call touches (`runtime/c/rt.h`).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Ranges {
    addr: u64,
    len: u64,
    arg: u64,
    arg_len: u64,
    mode: u32,
    arg_mode: u32,
}

/// Computes a library call's ranges from the current contents of memory.
pub type Footprint = unsafe extern "C" fn(ctx: *const c_void, out: *mut Ranges);

extern "C" {
    /// Runs `fp` and returns 0, or -1 if it faulted (`runtime/c/main.c`).
    pub(super) fn cdpor_protected_footprint(
        fp: Footprint,
        ctx: *const c_void,
        out: *mut Ranges,
    ) -> c_int;
}

/// A `Lib` event over `r`.
pub(super) fn lib_event(r: &Ranges, site: u32) -> Event {
    let len = |n: u64| n.min(u32::MAX as u64) as u32;
    Event {
        addr: r.addr,
        len: len(r.len),
        arg: r.arg,
        arg_len: len(r.arg_len),
        modes: ops::memory::modes(r.mode as u8 & 3, r.arg_mode as u8 & 3),
        flags: FLAG_SCAN,
        site,
        ..Event::new(0, Kind::Lib)
    }
}

#[no_mangle]
pub extern "C" fn cdpor_access(kind: u32, addr: u64, len: u64, value: u64, site: u32, flags: u32) {
    if len == 0 {
        return;
    }
    let e = ex();
    let kind = Kind::from_u8(kind as u8).unwrap_or(Kind::Fence);
    let len = len.min(u32::MAX as u64) as u32;
    let mut ev = Event::mem(0, kind, addr, len);
    ev.site = site;
    ev.flags = flags as u8;
    ev.aux = flags >> 8;
    if kind == Kind::Copy {
        ev.arg = value;
        ev.arg_len = len;
    } else {
        ev.value = value;
    }
    e.submit(ev);
}

/// A C library call's accesses to user memory, as one event whose ranges `fp` computes
/// from the contents of memory: now (a fault here is the calling thread's crash), when
/// the call executes, and at the end of the execution if it is still pending.
///
/// # Safety
/// `fp` must be callable with `ctx` until the call returns.
#[no_mangle]
pub unsafe extern "C" fn cdpor_lib(fp: Footprint, ctx: *const c_void, site: u32) {
    let mut r = Ranges::default();
    // A footprint may call the library (strtol, to know where a number ends), which may
    // set errno: the call itself sets it when it runs.
    let saved = *errno();
    fp(ctx, &mut r);
    *errno() = saved;
    let e = ex();
    e.threads[e.cur as usize].lib = Some((fp, ctx));
    e.submit(lib_event(&r, site));
}

/// A store the runtime makes into user memory on the program's behalf.
#[no_mangle]
pub extern "C" fn cdpor_store(addr: u64, len: u32, value: u64, site: u32) {
    ex().submit(Event {
        site,
        value,
        flags: FLAG_STORE | FLAG_VALUE,
        ..Event::mem(0, Kind::Write, addr, len)
    });
}

/// `malloc` and its kin: a new heap block of the current thread's, or NULL (ENOMEM).
#[no_mangle]
pub extern "C" fn cdpor_heap_alloc(size: u64, align: u64, site: u32) -> *mut c_void {
    let e = ex();
    match heap::alloc(e.cur, e.sched.step() as u32, size, align, site) {
        Some(block) => {
            log_alloc(e, block, size, site);
            block as *mut c_void
        }
        // SV-COMP assumes that allocation never fails: a thread whose request the heap
        // cannot meet stops for good there, and the execution is cut.
        None if !e.strict => {
            e.in_runtime = true;
            e.cut_by_unroll(site)
        }
        None => {
            *errno() = libc::ENOMEM;
            ptr::null_mut()
        }
    }
}

/// The current thread's block of thread-local variables, its first `size` bytes made
/// accessible.
#[no_mangle]
pub extern "C" fn cdpor_tls_block(size: u64) -> *mut c_void {
    let e = ex();
    let block = layout::life_tls_block(e.cur, e.threads[e.cur as usize].life);
    if size > layout::TLS_LIFE {
        e.unsupported(0, b"thread-local variables of more than 256 KiB in all");
    }
    let len = size.next_multiple_of(4096);
    match crate::layout::map_tls(e.cur, e.threads[e.cur as usize].life, len) {
        Some(b) if b == block => block as *mut c_void,
        _ => e.unsupported(0, b"cannot map a thread's thread-local variables"),
    }
}

/// The size of the heap block at `p`, live or freed (for `realloc`).
#[no_mangle]
pub extern "C" fn cdpor_heap_size(p: *const c_void) -> u64 {
    heap::size(p as u64)
}

/// `free(p)` (`p` not NULL), an event that writes the whole block, so that it conflicts
/// with every access to it; whether `p` is a block to free is decided when it executes.
/// Returns 1 when `p` is memory the C library allocated for itself, which the caller
/// gives back to the library's own `free` (no event: no other thread can have it but
/// through the program, which never sees the library's allocator).
#[no_mangle]
pub extern "C" fn cdpor_heap_free(p: *mut c_void, site: u32) -> c_int {
    let p = p as u64;
    let len = match heap::target(p) {
        heap::Target::Foreign => return 1,
        heap::Target::Live(size) | heap::Target::Freed(size) => size.max(1),
        heap::Target::Invalid(_) => 1,
    };
    ex().submit(Event {
        site,
        ..Event::mem(0, Kind::Free, p, len.min(u32::MAX as u64) as u32)
    });
    0
}

pub(super) fn log_alloc(e: &mut Exec, addr: u64, size: u64, site: u32) {
    let tid = e.cur;
    let h = e.hdr();
    let i = h.n_allocs as usize;
    if i < shm::MAX_ALLOCS {
        unsafe {
            e.allocs.add(i).write(Alloc {
                addr,
                size,
                site,
                tid,
            })
        };
        e.hdr().n_allocs = i as u32 + 1;
    }
}
