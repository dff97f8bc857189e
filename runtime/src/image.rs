//! The program's static image: the `.data` and `.bss` of the executable, which hold the
//! program's globals, the C library's and the runtime's. The fork server copies it once
//! before any execution; an in-place reset puts back the pages an execution wrote.
//!
//! Writes come to know of in two ways: each executed event's footprint (every write of
//! the program to its globals is one, and so are the C library models' writes into
//! program memory), and the runtime's own resets of its tables (`worker::reset`).
//! A page is copied back whole: the snapshot is the state before any execution, so
//! whatever else on the page changed (a C library object a model touched) is put back too.

use crate::Global;

extern "C" {
    /// Start of `.data` (glibc's crt1) and end of `.bss` (the linker).
    static __data_start: u8;
    static _end: u8;
}

const PAGE: u64 = 4096;
/// Pages an image may have (256 MiB): a bitmap of them is part of the worker's state.
const MAX_PAGES: usize = 1 << 16;
/// Dirty pages listed in order; past this many, the bitmap is scanned instead.
const LISTED: usize = 4096;

/// Tables of the runtime that it resets itself (row by row, only the rows an execution
/// used), which the copy leaves out: together they are most of the image.
const EXCLUDED: usize = 4;

/// Where the image is, its copy, and the pages written since the last reset.
pub struct Image {
    lo: u64,
    pages: usize,
    excluded: [(u64, u64); EXCLUDED],
    snapshot: *mut u8,
    dirty: [u64; MAX_PAGES / 64],
    listed: [u32; LISTED],
    n_listed: usize,
    /// More dirty pages than `listed` holds.
    overflow: bool,
}

static IMAGE: Global<*mut Image> = Global::new(std::ptr::null_mut());

fn image() -> Option<&'static mut Image> {
    unsafe { IMAGE.get().as_mut() }
}

/// The image's bounds.
fn bounds() -> (u64, u64) {
    unsafe {
        let lo = &__data_start as *const u8 as u64 & !(PAGE - 1);
        let hi = (&_end as *const u8 as u64).next_multiple_of(PAGE);
        (lo, hi)
    }
}

/// Leaves the whole pages of `[lo, lo+len)` out of the copy (and of `first_difference`):
/// a table the runtime resets itself. Before `snapshot`.
pub fn exclude(lo: u64, len: u64, excluded: &mut Vec<(u64, u64)>) {
    let first = lo.next_multiple_of(PAGE);
    let end = (lo + len) & !(PAGE - 1);
    if end > first && excluded.len() < EXCLUDED {
        excluded.push((first, end));
    }
}

fn is_excluded(im: &Image, page: u64) -> bool {
    im.excluded.iter().any(|&(lo, hi)| (lo..hi).contains(&page))
}

/// Copies the image (in the fork server, before any execution), into `state`, which
/// lives outside it, but for the `excluded` tables. Returns false if it cannot (an image
/// too large to track).
///
/// # Safety
/// Once, with `state` valid for the process's life.
pub unsafe fn snapshot(state: *mut Image, excluded: &[(u64, u64)]) -> bool {
    let (lo, hi) = bounds();
    let pages = ((hi - lo) / PAGE) as usize;
    if pages > MAX_PAGES {
        return false;
    }
    // Shared: a fork copies no page-table entries of a shared mapping, and a worker
    // reads the copy only to put a page back.
    let copy = libc::mmap(
        std::ptr::null_mut(),
        (hi - lo) as usize,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_SHARED | libc::MAP_ANONYMOUS,
        -1,
        0,
    );
    if copy == libc::MAP_FAILED {
        return false;
    }
    let mut ex = [(0, 0); EXCLUDED];
    ex[..excluded.len()].copy_from_slice(excluded);
    state.write(Image {
        lo,
        pages,
        excluded: ex,
        snapshot: copy as *mut u8,
        dirty: [0; MAX_PAGES / 64],
        listed: [0; LISTED],
        n_listed: 0,
        overflow: false,
    });
    *IMAGE.get() = state;
    // The pointer to the state is part of the image: it is set before the copy. A child
    // makes the copy: reading every page of the image would give the server a page-table
    // entry for each, which every fork would copy and every worker's end tear down.
    // Pages of zeros stay untouched in the copy (a fresh shared mapping reads zero): most
    // of `.bss` costs a read here, and nothing in the copy.
    match libc::fork() {
        0 => {
            let im = &*state;
            for p in 0..pages {
                let page = lo + p as u64 * PAGE;
                let bytes = std::slice::from_raw_parts(page as *const u8, PAGE as usize);
                if !is_excluded(im, page) && bytes.iter().any(|&b| b != 0) {
                    let to = (copy as *mut u8).add(p * PAGE as usize);
                    std::ptr::copy_nonoverlapping(page as *const u8, to, PAGE as usize);
                }
            }
            libc::_exit(0)
        }
        pid if pid > 0 => {
            let mut status = 0;
            while libc::waitpid(pid, &mut status, 0) < 0 && *libc::__errno_location() == libc::EINTR
            {
            }
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
        }
        _ => false,
    }
}

/// Is `[lo, hi)` in the image?
pub fn contains(lo: u64, hi: u64) -> bool {
    let (a, b) = bounds();
    lo >= a && hi <= b
}

/// The bytes `[lo, hi)` of the image were (or will be) written.
pub fn wrote(lo: u64, hi: u64) {
    let Some(im) = image() else { return };
    if hi <= lo {
        return;
    }
    let first = ((lo - im.lo) / PAGE) as usize;
    let last = (((hi - 1) - im.lo) / PAGE) as usize;
    for p in first..=last.min(im.pages - 1) {
        let (w, bit) = (p / 64, 1u64 << (p % 64));
        if im.dirty[w] & bit == 0 {
            im.dirty[w] |= bit;
            if im.n_listed < LISTED {
                im.listed[im.n_listed] = p as u32;
                im.n_listed += 1;
            } else {
                im.overflow = true;
            }
        }
    }
}

/// The C library writes `[p, p+n)` of the image on the program's behalf
/// (`runtime/c/libc.c`).
#[no_mangle]
pub extern "C" fn cdpor_image_wrote(p: *const u8, n: usize) {
    let lo = p as u64;
    if contains(lo, lo + n as u64) {
        wrote(lo, lo + n as u64);
    }
}

/// Puts the bytes of `value` (`count` of them) back as they were in the snapshot: the
/// runtime's own state in the image, reset to what the fork server left, padding and all.
///
/// # Safety
/// `value` must be in the image, and what the snapshot holds there a valid `T`.
pub unsafe fn put_back<T>(value: *mut T, count: usize) {
    let Some(im) = image() else { return };
    let off = value as u64 - im.lo;
    std::ptr::copy_nonoverlapping(
        im.snapshot.add(off as usize),
        value as *mut u8,
        std::mem::size_of::<T>() * count,
    );
}

/// Puts the dirty pages back as they were in the snapshot.
pub fn restore() {
    let Some(im) = image() else { return };
    let copy_back = |p: usize| unsafe {
        let off = p as u64 * PAGE;
        std::ptr::copy_nonoverlapping(
            im.snapshot.add(off as usize),
            (im.lo + off) as *mut u8,
            PAGE as usize,
        );
    };
    if im.overflow {
        for w in 0..im.pages.div_ceil(64) {
            let mut bits = im.dirty[w];
            while bits != 0 {
                copy_back(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
            im.dirty[w] = 0;
        }
    } else {
        for i in 0..im.n_listed {
            let p = im.listed[i] as usize;
            copy_back(p);
            im.dirty[p / 64] = 0;
        }
    }
    im.n_listed = 0;
    im.overflow = false;
}

/// The first address where the image differs from its snapshot, if any.
pub fn first_difference() -> Option<u64> {
    let im = image()?;
    let len = im.pages * PAGE as usize;
    let now = unsafe { std::slice::from_raw_parts(im.lo as *const u8, len) };
    let then = unsafe { std::slice::from_raw_parts(im.snapshot, len) };
    // Page by page first: a memcmp of equal pages is fast.
    let page = (0..im.pages).find(|&p| {
        let r = p * PAGE as usize..(p + 1) * PAGE as usize;
        !is_excluded(im, im.lo + (p as u64) * PAGE) && now[r.clone()] != then[r]
    })?;
    let base = page * PAGE as usize;
    let off = (0..PAGE as usize).find(|&i| now[base + i] != then[base + i])?;
    Some(im.lo + (base + off) as u64)
}
