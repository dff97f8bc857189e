//! The fork server: the checked program's process waits for cdpor to ask for an
//! execution, forks a child that runs it, waits for the child and tells cdpor it is done.
//! The server itself stays small and single-threaded, since every resident page it has
//! makes each fork slower.

use std::ffi::{c_char, c_int, c_void};
use std::ptr;

use cdpor_sched::shm::{self, Header, Outcome};

use crate::{exec, ffi, layout};

const ALTSTACK: usize = 256 << 10;

fn env_fd(name: &str) -> Option<c_int> {
    std::env::var(name).ok()?.parse().ok()
}

fn die(msg: &str) -> c_int {
    eprintln!("cdpor runtime: {msg}");
    2
}

/// The process entry point (called from `main` in `runtime/c/main.c`).
///
/// # Safety
/// Called once, by `main`, with its arguments.
#[no_mangle]
pub unsafe extern "C" fn cdpor_rt_main(
    argc: c_int,
    argv: *mut *mut c_char,
    envp: *mut *mut c_char,
) -> c_int {
    let (Some(shm_fd), Some(cmd), Some(ack)) = (
        env_fd(shm::ENV_SHM_FD),
        env_fd(shm::ENV_CMD_FD),
        env_fd(shm::ENV_ACK_FD),
    ) else {
        return die("this program was built by cdpor and runs only under it (`cdpor run FILE.c`)");
    };
    let mut st: libc::stat = std::mem::zeroed();
    if libc::fstat(shm_fd, &mut st) != 0 || (st.st_size as usize) < std::mem::size_of::<Header>() {
        return die("bad shared-memory descriptor");
    }
    let base = libc::mmap(
        ptr::null_mut(),
        st.st_size as usize,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_SHARED,
        shm_fd,
        0,
    );
    if base == libc::MAP_FAILED || (*(base as *const Header)).magic != shm::MAGIC {
        return die("bad shared-memory region");
    }
    let hdr = base as *mut Header;
    // Die with cdpor rather than linger.
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    if let Some(cpu) = env_fd(shm::ENV_CPU) {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu as usize, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
    if let Err(what) = layout::reserve() {
        return die(&format!("cannot reserve the address range for {what}"));
    }
    let altstack = libc::mmap(
        ptr::null_mut(),
        ALTSTACK,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
        -1,
        0,
    );
    ffi::cdpor_libc_init();
    let show_output = (*hdr).flags & shm::FLAG_SHOW_OUTPUT != 0;
    if !show_output {
        let devnull = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if devnull >= 0 {
            ffi::cdpor_quiet_stdio(devnull);
            libc::close(devnull);
        }
    }
    loop {
        let mut byte = 0u8;
        if libc::read(cmd, &mut byte as *mut u8 as *mut c_void, 1) != 1 {
            libc::_exit(0);
        }
        (*hdr).n_events = 0;
        (*hdr).n_threads = 0;
        (*hdr).n_allocs = 0;
        (*hdr).n_restricted = 0;
        (*hdr).outcome = Outcome::Running as u32;
        (*hdr).fault_addr = 0;
        (*hdr).fault_pc = 0;
        (*hdr).text[0] = 0;
        (*hdr).file[0] = 0;
        let pid = libc::fork();
        if pid == 0 {
            libc::close(cmd);
            libc::close(ack);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            ffi::cdpor_install_signals(altstack, ALTSTACK);
            exec::start(base as *mut u8, show_output, argc, argv, envp);
        }
        (*hdr).child_pid = pid;
        let mut status = 0;
        if pid > 0 {
            while libc::waitpid(pid, &mut status, 0) < 0 && *libc::__errno_location() == libc::EINTR
            {
            }
        }
        (*hdr).wait_status = if pid > 0 { status } else { -1 };
        if libc::write(ack, &byte as *const u8 as *const c_void, 1) != 1 {
            libc::_exit(0);
        }
    }
}
