//! The runtime linked into every program that cdpor checks. The process becomes a fork
//! server (`server`), whose forked workers (`worker`) run executions (`exec`) under the
//! schedules that cdpor sends, with the user's threads as fibers (`runtime/c/fiber.c`),
//! one after another with an in-place reset between them, or one each.
//!
//! Everything here runs single-threaded, in a process whose user code may do anything;
//! nothing may panic across the C boundary.

mod alloc;
mod exec;
mod heap;
mod image;
mod layout;
mod probe;
mod server;
mod worker;

#[global_allocator]
static ALLOC: alloc::RtAlloc = alloc::RtAlloc;

use std::cell::UnsafeCell;

/// A global that only this process's one OS thread touches.
pub(crate) struct Global<T>(UnsafeCell<T>);

unsafe impl<T> Sync for Global<T> {}

impl<T> Global<T> {
    pub const fn new(v: T) -> Self {
        Global(UnsafeCell::new(v))
    }

    /// # Safety
    /// Single-threaded use only, and no two live references at once.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn get(&self) -> &mut T {
        &mut *self.0.get()
    }
}

pub(crate) mod ffi {
    use std::ffi::{c_char, c_int, c_void};

    extern "C" {
        /// The site of the last call of a library function (`runtime/c/shims.c`).
        pub static __cdpor_site: u32;
        pub fn cdpor_fiber_switch(save_sp: *mut *mut c_void, to_sp: *mut c_void);
        pub fn cdpor_fiber_init(stack_top: *mut c_void, entry: extern "C" fn()) -> *mut c_void;
        pub fn cdpor_install_signals(altstack: *mut c_void, size: usize);
        pub fn cdpor_quiet_stdio(devnull: c_int);
        pub fn cdpor_flush_stdio();
        pub fn cdpor_libc_init();
        pub fn cdpor_key_destructors(site: u32);
        pub fn cdpor_thread_reset(t: u32);
        /// Ends the program as `exit` does, its `atexit` handlers first.
        pub fn cdpor_exit(code: c_int, site: u32) -> !;
        /// Whether `atexit` handlers wait to run.
        pub fn cdpor_exit_handlers() -> c_int;
        pub fn __cdpor_user_main(
            argc: c_int,
            argv: *mut *mut c_char,
            envp: *mut *mut c_char,
        ) -> c_int;
    }
}

pub use server::cdpor_rt_main;
