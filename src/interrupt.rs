//! ^C and `kill`: the first SIGINT or SIGTERM asks the exploration to stop after the
//! current execution (an executor stops one still running a second later), so the user
//! still gets a report (and the build directory is removed); a second one ends cdpor at
//! once, as usual.

use std::sync::atomic::{AtomicI32, Ordering};

static REQUESTED: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    REQUESTED.store(sig, Ordering::SeqCst);
}

/// Catches SIGINT and SIGTERM once each (the handler resets itself).
pub fn install() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            sa.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// The signal that asked to stop, if one did.
pub fn requested() -> Option<i32> {
    match REQUESTED.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}
