//! What a checked program is blocked on in the kernel. The runtime runs one thread at a
//! time and sleeps return at once, so a child that sleeps in one system call for a whole
//! second waits for something no other thread of the program can give it while it
//! waits: I/O between its own threads, input, a child process.

use std::fs;

/// The system call `pid` is sleeping in, if it sleeps in one (Linux `/proc`).
pub fn sleeping_in(pid: i32) -> Option<i64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The state follows the command's closing parenthesis.
    let state = stat.rsplit_once(')')?.1.trim_start().chars().next()?;
    if state != 'S' && state != 'D' {
        return None;
    }
    let call = fs::read_to_string(format!("/proc/{pid}/syscall")).ok()?;
    call.split_whitespace().next()?.parse().ok()
}

/// Does a sleep in call `nr` end by itself (a timed sleep the runtime did not replace)?
pub fn ends_by_itself(nr: i64) -> bool {
    nr == libc::SYS_nanosleep || nr == libc::SYS_clock_nanosleep
}

/// The name of system call `nr`, for the ones a program blocks in.
pub fn name(nr: i64) -> String {
    let known: &[(i64, &str)] = &[
        (libc::SYS_read, "read"),
        (libc::SYS_write, "write"),
        (libc::SYS_readv, "readv"),
        (libc::SYS_writev, "writev"),
        (libc::SYS_pread64, "pread"),
        (libc::SYS_openat, "open"),
        (libc::SYS_accept, "accept"),
        (libc::SYS_accept4, "accept4"),
        (libc::SYS_connect, "connect"),
        (libc::SYS_recvfrom, "recv"),
        (libc::SYS_recvmsg, "recvmsg"),
        (libc::SYS_sendto, "send"),
        (libc::SYS_sendmsg, "sendmsg"),
        (libc::SYS_ppoll, "poll"),
        (libc::SYS_pselect6, "select"),
        (libc::SYS_epoll_pwait, "epoll_wait"),
        (libc::SYS_wait4, "wait"),
        (libc::SYS_waitid, "waitid"),
        (libc::SYS_futex, "futex"),
        (libc::SYS_flock, "flock"),
        (libc::SYS_fcntl, "fcntl"),
        (libc::SYS_msgrcv, "msgrcv"),
        (libc::SYS_msgsnd, "msgsnd"),
        (libc::SYS_semop, "semop"),
        (libc::SYS_rt_sigsuspend, "sigsuspend"),
        (libc::SYS_rt_sigtimedwait, "sigwait"),
        (libc::SYS_nanosleep, "nanosleep"),
        (libc::SYS_clock_nanosleep, "clock_nanosleep"),
        #[cfg(target_arch = "x86_64")]
        (libc::SYS_poll, "poll"),
        #[cfg(target_arch = "x86_64")]
        (libc::SYS_select, "select"),
        #[cfg(target_arch = "x86_64")]
        (libc::SYS_epoll_wait, "epoll_wait"),
        #[cfg(target_arch = "x86_64")]
        (libc::SYS_pause, "pause"),
        #[cfg(target_arch = "x86_64")]
        (libc::SYS_open, "open"),
    ];
    match known.iter().find(|&&(n, _)| n == nr) {
        Some((_, name)) => name.to_string(),
        None => format!("system call {nr}"),
    }
}
