//! The worker: a process forked from the fork server that runs executions one after
//! another. With in-place reset (`shm::RESET_INPLACE`) it puts the program back as it was
//! before the first one between two executions, instead of ending; with fork reset, or
//! when an execution changed what it cannot put back, it ends after the execution and
//! the server forks another.
//!
//! What an in-place reset puts back, and how:
//! * the static image (the program's globals, the C library's and the runtime's state):
//!   the pages that executed events wrote, copied back from a snapshot (`image`);
//! * the heap, the stacks and the thread-local blocks: zeroed where the execution used
//!   them (`heap`, `layout`);
//! * the runtime's per-execution state: the execution (`exec::reset`) and the C side's
//!   tables and the C library state its models touch (`runtime/c/reset.c`).
//!
//! What it cannot put back makes the worker end after the execution: a crash (the program
//! may have left anything half done), a write outside the memory above, a use of the C
//! library's allocator (its bookkeeping is spread over its heap). A change outside the
//! process, or in state cdpor does not see (a call of a function it does not model), sends
//! the whole run back to a fork per execution (`irreversible`).

use std::ffi::{c_char, c_int, c_void};

use cdpor_sched::handoff::{Spin, Word};
use cdpor_sched::layout::{stack_owner, tls_owner, DETACH_WORDS, STACK_BASE};
use cdpor_sched::shm::{self, Fallback, Header, Outcome, Replaced};

use crate::{alloc, exec, heap, image, layout, Global};

/// A `jmp_buf`: where an execution's end comes back to (`runtime/c/main.c`).
type JmpBuf = [u64; 32];

extern "C" {
    fn cdpor_exec_run(env: *mut JmpBuf, body: extern "C" fn(*mut c_void), arg: *mut c_void);
    fn cdpor_exec_leave(env: *mut JmpBuf) -> !;
    /// The C side's part of a reset (`runtime/c/reset.c`).
    fn cdpor_c_snapshot();
    fn cdpor_c_reset(threads: u32);
    fn cdpor_c_execution(running: c_int);
    /// The function whose address the program takes, if the instrumentation found one
    /// whose effects no reset undoes (`runtime/c/shims.c`).
    fn cdpor_fork_only() -> *const c_char;
}

/// The C side's tables that it resets itself, row by row.
mod tables {
    extern "C" {
        fn cdpor_tls_values(len: *mut u64) -> *const u8;
    }

    /// Where thread-specific data's values are, and their size.
    pub fn values() -> (u64, u64) {
        let mut len = 0;
        let p = unsafe { cdpor_tls_values(&mut len) };
        (p as u64, len)
    }
}

/// The worker's own state: outside the program's image, so that neither a reset nor the
/// program touches it. Set up by the fork server, inherited by each worker.
///
/// Fresh from `mmap`, it is zero; what an execution touches first comes first, so that
/// a worker forked for one execution faults in as few pages of it as it can.
#[repr(C)]
struct State {
    env: JmpBuf,
    hdr: *mut Header,
    /// The worker resets in place (else only `env` and the flags below are used).
    inplace: bool,
    /// This worker ends after the current execution, and why.
    refork: Option<Replaced>,
    /// Compare the image with its snapshot after each reset (`shm::ENV_VERIFY_RESET`).
    verify: bool,
    /// An execution is running.
    running: bool,
    /// The wait for the rest of a partial schedule (`await_rest`), tuned as it goes.
    rest_spin: Spin,
    /// When the current execution's request came, and when the rest of its schedule did.
    began: u64,
    tail_from: u64,
    /// Ticks the current execution waited for the rest of its schedule.
    waited: u64,
    /// Ticks the last reset took, reported with the next execution.
    last_reset: u64,
    arena: alloc::Arena,
    heap: heap::Heap,
    regions: layout::Regions,
    image: image::Image,
}

static STATE: Global<*mut State> = Global::new(std::ptr::null_mut());

fn state() -> Option<&'static mut State> {
    unsafe { STATE.get().as_mut() }
}

/// Sets the worker's state up in the fork server, before any worker is forked; false if
/// in-place reset is not possible in this process.
///
/// # Safety
/// Once, in the fork server, with the region's header.
pub unsafe fn init(hdr: *mut Header) -> bool {
    let p = libc::mmap(
        std::ptr::null_mut(),
        std::mem::size_of::<State>(),
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
        -1,
        0,
    );
    if p == libc::MAP_FAILED {
        return false;
    }
    let s = p as *mut State;
    (*s).hdr = hdr;
    // Not all zero bytes are a value: `None` has a representation of its own.
    std::ptr::addr_of_mut!((*s).refork).write(None);
    (*s).verify = std::env::var_os(shm::ENV_VERIFY_RESET).is_some();
    heap::init(&mut (*s).heap);
    layout::init(&mut (*s).regions);
    *STATE.get() = s;
    let ok = alloc::init(&mut (*s).arena);
    let taken = cdpor_fork_only();
    if !taken.is_null() && (*hdr).reset == shm::RESET_INPLACE {
        let name = std::ffi::CStr::from_ptr(taken).to_bytes();
        let mut text = b"the program calls `".to_vec();
        text.extend_from_slice(name);
        text.extend_from_slice(b"` through a pointer, and cdpor cannot tell when");
        (*hdr).reset = shm::RESET_FORK;
        (*hdr).fallback = Fallback::Program as u32;
        shm::set_text(&mut (*hdr).fallback_text, &text);
    }
    cdpor_c_snapshot();
    // Last: the image as every execution must find it.
    let mut excluded = Vec::new();
    for (lo, len) in [exec::table(), tables::values()] {
        image::exclude(lo, len, &mut excluded);
    }
    ok && image::snapshot(&mut (*s).image, &excluded)
}

/// This worker cannot reset after the current execution: it ends after it, and the
/// server forks a fresh one.
pub fn refork(why: Replaced) {
    if let Some(s) = state() {
        s.refork.get_or_insert(why);
    }
}

/// The current execution changes what no reset can put back (outside the process, or in
/// state cdpor does not see): the rest of the run forks a worker per execution.
#[no_mangle]
pub extern "C" fn cdpor_irreversible(what: *const c_char, site: u32) {
    let what = if what.is_null() {
        &b""[..]
    } else {
        unsafe { std::ffi::CStr::from_ptr(what) }.to_bytes()
    };
    fall_back(Fallback::Call, what, site);
}

/// A use of the C library's allocator (`runtime/c/alloc.c`): during an execution, its
/// worker cannot reset.
#[no_mangle]
pub extern "C" fn cdpor_library_alloc() {
    if state().is_some_and(|s| s.running) {
        refork(Replaced::LibraryAllocator);
    }
}

fn fall_back(why: Fallback, what: &[u8], site: u32) {
    let Some(s) = state() else { return };
    let h = unsafe { &mut *s.hdr };
    if h.reset == shm::RESET_INPLACE {
        h.reset = shm::RESET_FORK;
        h.fallback = why as u32;
        h.fallback_site = site;
        shm::set_text(&mut h.fallback_text, what);
    }
}

/// An executed event wrote `[lo, hi)` of the program's memory.
pub fn wrote(lo: u64, hi: u64) {
    if hi <= lo || !state().is_some_and(|s| s.inplace) {
        return;
    }
    if image::contains(lo, hi) {
        image::wrote(lo, hi);
    } else if cdpor_sched::layout::in_heap(lo) {
        heap::wrote(lo, hi);
    } else if stack_owner(lo).is_some()
        || tls_owner(lo).is_some()
        || (DETACH_WORDS..STACK_BASE).contains(&lo)
        || cdpor_sched::layout::is_name(lo)
    {
        // Stacks and blocks are zeroed whole; the words below the stacks are names, as
        // are the bytes above every address.
    } else {
        refork(Replaced::StrayWrite);
    }
}

/// Waits until cdpor posts the rest of the current request, whose schedule was a prefix
/// (`shm::Header::partial`).
pub fn await_rest() {
    let Some(s) = state() else { return };
    let h = unsafe { &mut *s.hdr };
    let began = ticks();
    let more = unsafe { Word::new(&mut h.more, &mut h.more_sleeping) };
    let taken = h.taken;
    more.wait(|m| m == taken, &mut s.rest_spin, None);
    s.tail_from = ticks();
    s.waited += s.tail_from - began;
}

/// Ends the current execution: back to the worker's loop (`serve`).
pub fn leave() -> ! {
    match state() {
        Some(s) if s.running => unsafe { cdpor_exec_leave(&mut s.env) },
        _ => unsafe { libc::_exit(3) },
    }
}

struct Start {
    base: *mut u8,
    show_output: bool,
    argc: c_int,
    argv: *mut *mut c_char,
    envp: *mut *mut c_char,
}

extern "C" fn run_one(arg: *mut c_void) {
    let a = unsafe { &*(arg as *const Start) };
    unsafe { exec::run(a.base, a.show_output, a.argc, a.argv, a.envp) }
}

/// The worker's loop: takes each request, runs its execution, and either resets or
/// ends. Never returns.
///
/// # Safety
/// In a worker just forked by the server, with the region's `base`.
pub unsafe fn serve(
    base: *mut u8,
    show_output: bool,
    argc: c_int,
    argv: *mut *mut c_char,
    envp: *mut *mut c_char,
) -> ! {
    let Some(s) = state() else { libc::_exit(3) };
    let h = &mut *s.hdr;
    let go = Word::new(&mut h.go, &mut h.go_sleeping);
    let done = Word::new(&mut h.done, &mut h.done_sleeping);
    let errno = *libc::__errno_location();
    let mut start = Start {
        base,
        show_output,
        argc,
        argv,
        envp,
    };
    let mut spin = Spin::new(h.spin != 0);
    s.rest_spin = Spin::new(h.spin != 0);
    let me = libc::getpid();
    loop {
        let taken = h.taken;
        go.wait(|g| g != taken, &mut spin, None);
        let request = go.get();
        // cdpor stops a request that runs too long in the process that took it, not in
        // the one the server may have forked since (`Executor::wait_done`).
        std::ptr::write_volatile(&mut h.runner_pid, me);
        std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
        std::ptr::write_volatile(&mut h.taken, request);
        s.began = ticks();
        (s.tail_from, s.waited) = (s.began, 0);
        h.reset_ticks = std::mem::take(&mut s.last_reset);
        clear_response(h);
        s.inplace = h.reset == shm::RESET_INPLACE && !show_output;
        if s.inplace {
            layout::set_inplace(true);
            alloc::execution(true);
        }
        *libc::__errno_location() = errno;
        s.running = true;
        cdpor_c_execution(1);
        cdpor_exec_run(&mut s.env, run_one, &mut start as *mut Start as *mut c_void);
        cdpor_c_execution(0);
        s.running = false;
        if matches!(
            Outcome::from_u32(h.outcome),
            Outcome::Crash | Outcome::StackOverflow
        ) {
            refork(Replaced::Crash);
        }
        let keep = s.inplace && h.reset == shm::RESET_INPLACE && s.refork.is_none();
        if let (true, Some(why)) = (s.inplace, s.refork) {
            h.replaced[why as usize] += 1;
        }
        let end = ticks();
        h.run_ticks = end - s.began - s.waited;
        h.tail_ticks = end - s.tail_from;
        if !keep {
            done.post(request);
            libc::_exit(0);
        }
        // The reset touches nothing of the shared region: it runs while cdpor reads the
        // execution and plans the next, unless it is checked (the check's verdict is
        // part of the answer).
        if !s.verify {
            done.post(request);
        }
        let began = ticks();
        reset();
        s.last_reset = ticks() - began;
        if s.verify {
            verify();
            done.post(request);
        }
    }
}

fn clear_response(h: &mut Header) {
    h.n_events = 0;
    h.n_threads = 0;
    h.n_allocs = 0;
    h.n_restricted = 0;
    h.barrier_overflow = 0;
    h.outcome = Outcome::Running as u32;
    h.fault_addr = 0;
    h.fault_pc = 0;
    h.text[0] = 0;
    h.file[0] = 0;
}

fn ticks() -> u64 {
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// Puts the program back as it was before the first execution.
fn reset() {
    let threads = exec::reset();
    unsafe { cdpor_c_reset(threads) };
    heap::reset();
    layout::reset();
    image::restore();
    alloc::execution(false);
}

/// After a reset, every byte the program can see must be as before the first execution:
/// a difference falls back to forking (and says where, for the test that looks).
fn verify() {
    let found = image::first_difference()
        .map(|a| ("image", a))
        .or_else(|| heap::first_nonzero().map(|a| ("heap", a)))
        .or_else(|| layout::first_nonzero().map(|a| ("stack or thread-local block", a)));
    if let Some((what, addr)) = found {
        let text = format!("reset left {what} different at {addr:#x}");
        fall_back(Fallback::Verify, text.as_bytes(), 0);
    }
}

/// Resumes a fault in a live thread's stack just below what is accessible (`layout`).
#[no_mangle]
pub extern "C" fn cdpor_grow_stack(addr: u64) -> c_int {
    layout::grow(addr, exec::thread_exists) as c_int
}
