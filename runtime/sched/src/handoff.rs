//! How cdpor and a checked program's worker take turns on the shared region (`shm`).
//! Each hands over by bumping a request number that the other waits for:
//!
//! * cdpor writes a request, then `go += 1`;
//! * the worker waits until `go != taken`, sets `taken = go`, runs the execution, writes
//!   the results, then `done = taken`;
//! * the fork server, when the worker dies in the middle of a request (`taken == go`,
//!   `done != go`), writes how it died and then `done = go`;
//! * cdpor waits until `done == go`.
//!
//! A waiter first spins a little when the other side runs on another CPU, then sleeps on
//! the word (a futex in shared memory). A poster only makes the system call that wakes
//! it when the waiter said it sleeps, so a hand-off between two processes that each have
//! a CPU costs no system call.

use std::sync::atomic::{fence, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A word of the shared region that one side posts and the other waits on, with the
/// flag by which the waiter says it sleeps.
pub struct Word<'a> {
    value: &'a AtomicU32,
    sleeping: &'a AtomicU32,
}

/// Spins before sleeping: about as long as a short execution takes.
/// A waiter's spinning, tuned as it goes: spinning pays only while the other side gets
/// its work done within the spin, which it does not when it waits for a CPU (a loaded
/// machine) or has long work. Each wait that ends within the spin lengthens the next
/// one; each that has to sleep halves it, down to a short probe.
pub struct Spin {
    rounds: u32,
}

/// `spin_loop` rounds: at most about a short execution, at least a probe that finds out
/// when spinning pays again.
const MOST: u32 = 1 << 13;
const LEAST: u32 = 1 << 6;

impl Spin {
    /// Spins (when the two sides each have a CPU), or not at all.
    pub fn new(on: bool) -> Spin {
        Spin {
            rounds: if on { MOST } else { 0 },
        }
    }
}

impl<'a> Word<'a> {
    /// # Safety
    /// Both pointers must be 4-byte aligned words of the shared region, valid for `'a`.
    pub unsafe fn new(value: *mut u32, sleeping: *mut u32) -> Word<'a> {
        Word {
            value: AtomicU32::from_ptr(value),
            sleeping: AtomicU32::from_ptr(sleeping),
        }
    }

    pub fn get(&self) -> u32 {
        self.value.load(Ordering::Acquire)
    }

    /// Sets the word and wakes its waiter if it sleeps.
    pub fn post(&self, v: u32) {
        self.value.store(v, Ordering::Release);
        // Against the waiter's flag-then-check: one of the two sees the other.
        fence(Ordering::SeqCst);
        if self.sleeping.load(Ordering::Relaxed) != 0 {
            futex_wake(self.value);
        }
    }

    /// Waits until `ready(word)`, at most `timeout`; returns whether it is. It spins
    /// first as `spin` says, which learns from how the wait ends.
    pub fn wait(
        &self,
        ready: impl Fn(u32) -> bool,
        spin: &mut Spin,
        timeout: Option<Duration>,
    ) -> bool {
        if spin.rounds > 0 {
            for _ in 0..spin.rounds {
                if ready(self.get()) {
                    spin.rounds = (spin.rounds + spin.rounds / 8).min(MOST);
                    return true;
                }
                std::hint::spin_loop();
            }
            spin.rounds = (spin.rounds / 2).max(LEAST);
        }
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            let seen = self.get();
            if ready(seen) {
                return true;
            }
            let left = match deadline {
                Some(d) => match d.checked_duration_since(Instant::now()) {
                    Some(l) if !l.is_zero() => Some(l),
                    _ => return false,
                },
                None => None,
            };
            self.sleeping.store(1, Ordering::Relaxed);
            fence(Ordering::SeqCst);
            if self.get() == seen {
                futex_wait(self.value, seen, left);
            }
            self.sleeping.store(0, Ordering::Relaxed);
        }
    }
}

fn futex_wait(word: &AtomicU32, seen: u32, timeout: Option<Duration>) {
    let ts = timeout.map(|t| libc::timespec {
        tv_sec: t.as_secs() as libc::time_t,
        tv_nsec: t.subsec_nanos() as libc::c_long,
    });
    let tsp = ts
        .as_ref()
        .map_or(std::ptr::null(), |t| t as *const libc::timespec);
    // Shared between processes: not FUTEX_PRIVATE.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            seen,
            tsp,
            std::ptr::null::<u32>(),
            0u32,
        );
    }
}

fn futex_wake(word: &AtomicU32) {
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE,
            i32::MAX,
            std::ptr::null::<libc::timespec>(),
            std::ptr::null::<u32>(),
            0u32,
        );
    }
}
