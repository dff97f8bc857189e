//! Threads: the numbers they take (by creator and rank, numbers of joined threads used
//! again), their fibers, and the entry points that create, join, detach and end them.

use super::*;

#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    Unused,
    /// Created, running to its first visible operation.
    Starting,
    /// Waiting at `pending`.
    Ready,
    /// Executing its last operation and running on to the next one.
    Running,
    Finished,
}

pub(super) type StartRoutine = unsafe extern "C" fn(*mut c_void) -> *mut c_void;

#[derive(Clone, Copy)]
pub(super) struct Thread {
    pub(super) status: Status,
    pub(super) pending: Event,
    pub(super) sp: *mut c_void,
    pub(super) parent: Tid,
    /// Threads it created so far (the rank of its next child).
    pub(super) children: u32,
    /// Threads it joined so far.
    pub(super) joins: u32,
    pub(super) start: Option<StartRoutine>,
    pub(super) arg: *mut c_void,
    pub(super) retval: *mut c_void,
    /// Result of the last executed operation, for the shim that asked for it.
    pub(super) result: u64,
    /// Site of the thread's last executed operation, to locate crashes.
    pub(super) last_site: u32,
    /// The thread's `errno` while another thread runs (all fibers share the OS thread's).
    pub(super) errno: c_int,
    /// Where the loop iteration after which it spins began (`awaits::stale`).
    pub(super) spin_from: usize,
    /// It waits for good at a false assumption (`cdpor_assume`), not in a loop.
    pub(super) assumed: bool,
    /// How it crashed, once it has: signal, faulting address, instruction, and the site
    /// of the last library call it made (where a fault inside the library comes from).
    pub(super) crash: (c_int, u64, u64, u32),
    /// For a pending library call: how to compute its ranges again.
    pub(super) lib: Option<(Footprint, *const c_void)>,
    /// The failed assertion it is about to report: expression, file, line.
    pub(super) assertion: (*const c_char, *const c_char, u32),
    /// Its `pthread_t` (`handle`).
    pub(super) handle: u64,
    /// Nesting depth of atomic sections (`__VERIFIER_atomic_*`).
    pub(super) atomic: u32,
    /// The atomic section it is running, once the scheduler picked it.
    pub(super) section: Option<Section>,
    /// Its `AssertFail` is a call of `reach_error()` (or `__VERIFIER_error()`).
    pub(super) reach: bool,
    /// Its events so far (and reads of the clock, `cdpor_clock_read`), and those that
    /// changed memory or the synchronization state.
    pub(super) events: u32,
    pub(super) changes: u32,
    pub(super) clocks: u32,
    pub(super) loops: [LoopRecord; LOOP_RECORDS],
    /// Its `changes` right after its last condition wait ended spuriously, and after
    /// its last timed wait timed out (cleared when a loop of its moves a value on).
    pub(super) spurious_mark: Option<u32>,
    pub(super) timeout_mark: Option<u32>,
    pub(super) restore: Restore,
    /// Its condition waits that ended without a signal (`ops::cond::UNSIGNALLED`).
    pub(super) unsignalled: u32,
    /// The step after that timeout: what the thread read from there on decides whether
    /// its next timed wait can end otherwise.
    pub(super) timed_out_at: usize,
    /// The step of its `CondWait` while it waits in a timed wait whose timeout was
    /// ruled out.
    pub(super) wait_without_timeout: Option<usize>,
    /// Its `World::thread_word` about itself.
    pub(super) own_word: u32,
    /// Threads it created, or learned of by joining their creator, and does not know
    /// to have finished (it knows only what it joined).
    pub(super) unfinished: u32,
    /// How many new numbers threads of this number took for their children
    /// (`Exec::child_number`); kept when the number is given to a later thread.
    pub(super) fresh: u32,
    /// The last number of the threads it joined, which its next child takes (then
    /// `next_free` of that thread, and so on); kept like `fresh`.
    pub(super) free: Tid,
    pub(super) next_free: Tid,
    /// It was joined (its number is in its joiner's `free` list, unless it holds a lock).
    pub(super) joined: bool,
    /// Locks it holds (`ops::holds`).
    pub(super) held: i32,
    /// How many threads had its number before it (`layout::LIVES`), and where and at
    /// which step the last of them exited.
    pub(super) life: u32,
    pub(super) previous_exit: (u32, u32),
    /// The step of its exit, once it has exited.
    pub(super) exit_step: u32,
    /// The domain of its pending nondeterministic value, and whether the value's uses go
    /// unreported (a sampled value then counts as used at once). Per thread: several
    /// threads' values can be pending at once, each with its own site's domain.
    pub(super) nondet: Option<(nondet::Domain<'static>, bool)>,
}

/// No thread (an empty `free` list).
pub(super) const NO_TID: Tid = Tid::MAX;

pub(super) const UNUSED: Thread = Thread {
    spin_from: 0,
    assumed: false,
    status: Status::Unused,
    pending: Event {
        addr: 0,
        arg: 0,
        value: 0,
        len: 0,
        arg_len: 0,
        tid: 0,
        aux: 0,
        site: 0,
        choice: 0,
        choices: 0,
        kind: 0,
        flags: 0,
        modes: 0,
        replaced: 0,
    },
    sp: ptr::null_mut(),
    parent: NO_PARENT,
    children: 0,
    joins: 0,
    start: None,
    arg: ptr::null_mut(),
    retval: ptr::null_mut(),
    result: 0,
    last_site: 0,
    errno: 0,
    crash: (0, 0, 0, 0),
    lib: None,
    assertion: (ptr::null(), ptr::null(), 0),
    handle: 0,
    atomic: 0,
    section: None,
    reach: false,
    events: 0,
    changes: 0,
    clocks: 0,
    loops: [NO_RECORD; LOOP_RECORDS],
    spurious_mark: None,
    timeout_mark: None,
    restore: NO_RESTORE,
    unsignalled: 0,
    timed_out_at: 0,
    wait_without_timeout: None,
    own_word: 0,
    unfinished: 0,
    fresh: 0,
    free: NO_TID,
    next_free: NO_TID,
    joined: false,
    held: 0,
    life: 0,
    previous_exit: (0, 0),
    exit_step: 0,
    nondet: None,
};

/// The `pthread_t` of the `rank`-th child (from 0) of the thread whose `pthread_t` is
/// `parent` (0 for main itself). A function of the thread's name, not of its number
/// (which depends on the order in which an exploration met the names), so that a program
/// that looks at thread ids behaves alike in every execution of a schedule and in its
/// replay. Readable where it can be: main is 1, its k-th child k + 1, and the k-th child
/// of a thread whose id is h is h * 1000 + k; other names are hashed above 2^63.
pub(super) fn handle(parent: u64, rank: u32) -> u64 {
    let k = rank as u64 + 1;
    match parent {
        0 => 1,
        1 if k < 1000 => k + 1,
        p if k < 1000 && p < (1 << 53) / 1000 => p * 1000 + k,
        p => {
            // splitmix64 of the parent's id and the rank.
            let mut z = p ^ (k << 40) ^ 0x9e37_79b9_7f4a_7c15;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) | 1 << 63
        }
    }
}

#[no_mangle]
pub extern "C" fn cdpor_create(start: Option<StartRoutine>, arg: *mut c_void, site: u32) -> u64 {
    let e = ex();
    let t = e.cur as usize;
    e.threads[t].start = start;
    e.threads[t].arg = arg;
    e.submit(Event {
        site,
        aux: u32::MAX,
        // The start routine, by which reports name the thread.
        arg: start.map_or(0, |f| f as usize as u64),
        ..Event::new(0, Kind::Create)
    });
    let e = ex();
    e.threads[e.cur as usize].result
}

#[no_mangle]
pub extern "C" fn cdpor_join(handle: u64, retval: *mut *mut c_void, site: u32) -> c_int {
    let e = ex();
    let Some(target) = e.thread_named(handle, Kind::Join, site) else {
        return libc::ESRCH;
    };
    if target == e.cur as usize {
        return libc::EDEADLK;
    }
    e.submit(Event {
        site,
        aux: target as Tid,
        ..Event::new(0, Kind::Join)
    });
    if !retval.is_null() {
        let e = ex();
        let value = e.threads[e.cur as usize].result;
        cdpor_store(retval as u64, 8, value, site);
    }
    0
}

#[no_mangle]
pub extern "C" fn cdpor_detach(handle: u64, site: u32) -> c_int {
    let e = ex();
    let Some(target) = e.thread_named(handle, Kind::Detach, site) else {
        return libc::ESRCH;
    };
    e.submit(Event {
        site,
        aux: target as Tid,
        ..Event::new(0, Kind::Detach)
    });
    0
}

#[no_mangle]
pub extern "C" fn cdpor_thread_exit(retval: *mut c_void, site: u32) -> ! {
    // The destructors of its thread-specific data run in the thread, as the program's.
    unsafe { ffi::cdpor_key_destructors(site) };
    let e = ex();
    // Its stack and its thread-local variables are gone with it (`ops::thread`).
    e.submit(Event {
        site,
        value: retval as u64,
        ..Event::new(0, Kind::ThreadExit)
    });
    // Finished: hand over to another thread for good.
    loop {
        let e = ex();
        e.in_runtime = true;
        let next = e.choose();
        e.switch_to(next);
    }
}

#[no_mangle]
pub extern "C" fn cdpor_self() -> u64 {
    let e = ex();
    e.threads[e.cur as usize].handle
}

#[no_mangle]
pub extern "C" fn cdpor_current_tid() -> u32 {
    ex().cur
}

/// The value of the thread that the current thread's last join waited for.
#[no_mangle]
pub extern "C" fn cdpor_joined_value() -> u64 {
    let e = ex();
    e.threads[e.cur as usize].result
}

impl Exec {
    /// The number of thread `t`'s next child: the number of the thread it joined last
    /// whose number no child took yet, else the `fresh`-th new number of its own. Either
    /// depends on what threads of `t`'s number did, not on what other threads did
    /// meanwhile, so a thread's number and addresses are the same whatever the
    /// interleaving. A joined thread did all it did before the join, so its events and
    /// those of the next thread of its number are one sequence to the engine, as a
    /// thread's are.
    pub(super) fn child_number(&mut self, t: Tid) -> Option<Tid> {
        let c = self.threads[t as usize].free;
        if c != NO_TID {
            self.threads[t as usize].free = self.threads[c as usize].next_free;
            return Some(c);
        }
        let th = &mut self.threads[t as usize];
        let k = th.fresh;
        th.fresh += 1;
        self.number(t, k)
    }

    /// The number of the `index`-th new number taken for a child of a thread of number
    /// `parent`: the one it was given when an execution of this exploration first took
    /// it, or the next unused one.
    pub(super) fn number(&mut self, parent: Tid, index: u32) -> Option<Tid> {
        let want = ThreadName { parent, index };
        if let Some(t) = self.taken(want) {
            return Some(t);
        }
        let n = self.hdr().n_names as usize;
        if n >= MAX_THREADS {
            return None;
        }
        unsafe { self.names.add(n).write(want) };
        self.hdr().n_names = n as u32 + 1;
        Some(n as Tid)
    }

    /// The number this exploration gave `want`, if any.
    pub(super) fn taken(&self, want: ThreadName) -> Option<Tid> {
        let n = unsafe { (*self.hdr).n_names } as usize;
        let names = unsafe { std::slice::from_raw_parts(self.names, n) };
        names.iter().position(|x| *x == want).map(|t| t as Tid)
    }

    /// Sets up a fiber for thread `t`; false when its stack cannot be mapped.
    pub(super) fn new_thread(
        &mut self,
        t: Tid,
        start: Option<StartRoutine>,
        arg: *mut c_void,
        parent: Tid,
        rank: u32,
    ) -> bool {
        let parent_handle = self.threads.get(parent as usize).map_or(0, |p| p.handle);
        let old = self.threads[t as usize];
        if old.status != Status::Unused {
            // The number was a joined thread's: this thread starts with none of its
            // thread-local state.
            unsafe { ffi::cdpor_thread_reset(t) };
        }
        let (life, previous_exit) = match old.status {
            Status::Unused => (0, (0, 0)),
            _ => (old.life + 1, (old.last_site, old.exit_step)),
        };
        if !crate::layout::map_stack(t, life) {
            return false;
        }
        let top = layout::life_stack_top(t, life);
        self.threads[t as usize] = Thread {
            status: Status::Starting,
            sp: unsafe { ffi::cdpor_fiber_init(top as *mut c_void, cdpor_fiber_main) },
            life,
            previous_exit,
            parent,
            start,
            arg,
            handle: handle(parent_handle, rank),
            fresh: old.fresh,
            free: old.free,
            ..UNUSED
        };
        true
    }

    /// The thread a `pthread_t` names, if any; if none, a join or detach of it is a
    /// misuse, and the step of the thread that makes it (`ops::thread`).
    pub(super) fn thread_named(&mut self, handle: u64, kind: Kind, site: u32) -> Option<usize> {
        let found = self
            .threads
            .iter()
            .position(|th| th.status != Status::Unused && th.handle == handle);
        if found.is_none() && self.strict {
            self.submit(Event {
                site,
                aux: ops::thread::NO_THREAD,
                ..Event::new(0, kind)
            });
        }
        found
    }
}
