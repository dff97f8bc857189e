//! The fork server: the checked program's process, which sets up what every execution
//! shares (the region, the reserved address ranges, the C library, the snapshot an
//! in-place reset goes back to), then forks workers (`worker`), one at a time: a new one
//! when the last one ended, after one execution (fork reset) or many (in-place reset). It
//! stays small and single-threaded, since every resident page it has makes each fork
//! slower.

use std::ffi::{c_char, c_int};
use std::ptr;

use cdpor_sched::handoff::Word;
use cdpor_sched::shm::{self, Header};

use crate::{ffi, layout, worker};

const ALTSTACK: usize = 256 << 10;

fn env_fd(name: &str) -> Option<c_int> {
    std::env::var(name).ok()?.parse().ok()
}

fn die(msg: &str) -> c_int {
    eprintln!("cdpor runtime: {msg}");
    2
}

/// Workers in a row that died before taking the request that waits: then the request
/// is answered with how the last one died.
const STILLBORN: u32 = 3;

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
    let Some(shm_fd) = env_fd(shm::ENV_SHM_FD) else {
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
    if !worker::init(hdr) {
        (*hdr).reset = shm::RESET_FORK;
    }
    let h = &mut *hdr;
    let go = Word::new(&mut h.go, &mut h.go_sleeping);
    let done = Word::new(&mut h.done, &mut h.done_sleeping);
    let mut stillborn = 0;
    let server = libc::getpid();
    loop {
        let taken_before = h.taken;
        let pid = libc::fork();
        if pid == 0 {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // A server killed between the fork and the line above (cdpor tears it down
            // as it forks the next worker) would leave this worker waiting for good.
            if libc::getppid() != server {
                libc::_exit(0);
            }
            ffi::cdpor_install_signals(altstack, ALTSTACK);
            worker::serve(base as *mut u8, show_output, argc, argv, envp);
        }
        h.child_pid = pid;
        h.workers += 1;
        let mut status = -1;
        if pid > 0 {
            while libc::waitpid(pid, &mut status, 0) < 0 && *libc::__errno_location() == libc::EINTR
            {
            }
        }
        // A worker that died in the middle of a request leaves it to be answered here.
        let request = go.get();
        let answered = done.get() == request;
        let died_on_it = h.taken == request && !answered;
        stillborn = if h.taken == taken_before {
            stillborn + 1
        } else {
            0
        };
        if died_on_it || (!answered && (stillborn >= STILLBORN || pid < 0)) {
            h.taken = request;
            h.wait_status = status;
            done.post(request);
            stillborn = 0;
        }
    }
}
