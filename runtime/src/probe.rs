//! The runtime's own reads and writes of user memory (a value read, a mutex word, a
//! store on the program's behalf) through a bad pointer must not crash the runtime: they
//! are the program's crash, at that operation. The probes (`runtime/c/probe.c`) are
//! leaf routines that the fatal-signal handler resumes at a fault exit.

#[repr(C)]
struct Probed {
    value: u64,
    fault: u64,
}

extern "C" {
    fn cdpor_probe_load(p: u64, len: u64) -> Probed;
    fn cdpor_probe_touch(p: u64, write: u32) -> Probed;
}

/// The value of the `len` bytes at `addr` (the first 8 when longer, little-endian), or
/// `None` if they cannot be read.
pub fn load(addr: u64, len: u32) -> Option<u64> {
    let r = unsafe { cdpor_probe_load(addr, len as u64) };
    if r.fault != 0 || (len > 8 && unreadable(addr, len as u64).is_some()) {
        return None;
    }
    Some(r.value)
}

fn touch(addr: u64, write: bool) -> bool {
    unsafe { cdpor_probe_touch(addr, write as u32).fault == 0 }
}

/// The first address of `[addr, addr+len)` found unreadable (both ends are checked, the
/// second only when it lies on another page: the ranges are small, or one object).
pub fn unreadable(addr: u64, len: u64) -> Option<u64> {
    ends(addr, len).find(|&a| !touch(a, false))
}

/// Like `unreadable`, for writing (a byte is read and written back).
pub fn unwritable(addr: u64, len: u64) -> Option<u64> {
    ends(addr, len).find(|&a| !touch(a, true))
}

fn ends(addr: u64, len: u64) -> impl Iterator<Item = u64> {
    let last = addr.wrapping_add(len.max(1) - 1);
    std::iter::once(addr).chain((last >> 12 != addr >> 12).then_some(last))
}
