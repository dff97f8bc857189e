//! Operations on synchronization objects: mutexes, spin locks, condition variables
//! (a wait is two events: the release-and-wait, then the wake-up and re-lock), semaphores,
//! barriers, read-write locks; what each does is `cdpor_sched::ops`'.

use super::*;

/// An operation on a mutex or a condition variable (not a wait).
#[no_mangle]
pub extern "C" fn cdpor_sync(kind: u32, object: *mut c_void, site: u32) -> c_int {
    cdpor_sync_value(kind, object, 0, site)
}

/// An operation on a synchronization object that takes a value (the count `sem_init`
/// starts a semaphore with); returns the operation's result (`sem_getvalue`: the count).
#[no_mangle]
pub extern "C" fn cdpor_sync_value(kind: u32, object: *mut c_void, value: u64, site: u32) -> c_int {
    sync_op(Event {
        site,
        value,
        ..Event::on(
            0,
            Kind::from_u8(kind as u8).unwrap_or(Kind::Fence),
            object as u64,
        )
    })
}

/// An operation on a POSIX spin lock: the mutex operation `kind` on a 4-byte object.
#[no_mangle]
pub extern "C" fn cdpor_spin(kind: u32, object: *mut c_void, site: u32) -> c_int {
    sync_op(Event {
        site,
        flags: ops::mutex::FLAG_SPIN,
        ..Event::on(
            0,
            Kind::from_u8(kind as u8).unwrap_or(Kind::Fence),
            object as u64,
        )
    })
}

/// Performs the operation `ev` on the object at `ev.addr`, whose bytes are the
/// operation's footprint (a thread crashes on an object it cannot write); returns its
/// result.
pub(super) fn sync_op(ev: Event) -> c_int {
    if ev.addr == 0 {
        return libc::EINVAL;
    }
    let e = ex();
    for r in ops::footprint(&ev)
        .ranges()
        .filter(|r| !layout::is_name(r.lo))
    {
        e.check_object(r.lo, r.hi - r.lo, ev.site);
    }
    e.submit(ev);
    let e = ex();
    e.threads[e.cur as usize].result as c_int
}

/// `pthread_cond_wait`: release the mutex and wait (one event), then take the mutex back
/// once a signal woke this thread (another event).
#[no_mangle]
pub extern "C" fn cdpor_cond_wait(cond: *mut c_void, mutex: *mut c_void, site: u32) -> c_int {
    cond_wait(cond, mutex, false, site)
}

/// `pthread_barrier_wait`: arrives, then waits for the round to end (`ops::barrier`);
/// `used`: the program uses the result, so the pass claims the serial return.
#[no_mangle]
pub extern "C" fn cdpor_barrier_wait(barrier: *mut c_void, site: u32, used: c_int) -> c_int {
    if barrier.is_null() {
        return libc::EINVAL;
    }
    let e = ex();
    e.check_object(barrier as u64, ops::barrier::SIZE, site);
    let ordered = e.hdr().flags & shm::FLAG_ORDERED_BARRIERS != 0;
    let mode = if ordered { ops::barrier::ORDERED } else { 0 };
    e.submit(Event {
        site,
        aux: mode,
        ..Event::on(0, Kind::BarrierWait, barrier as u64)
    });
    let e = ex();
    let arrived = e.event_at(e.sched.step() - 1);
    if !ops::barrier::passes(&arrived) {
        return ops::barrier::SERIAL_THREAD;
    }
    let unused = if used == 0 { ops::barrier::UNUSED } else { 0 };
    e.submit(Event {
        site,
        value: arrived.value,
        aux: mode | unused,
        ..Event::on(0, Kind::BarrierPass, barrier as u64)
    });
    let e = ex();
    e.threads[e.cur as usize].result as c_int
}

/// `pthread_cond_timedwait`: a wait that may also time out (`ops::cond`).
#[no_mangle]
pub extern "C" fn cdpor_cond_timedwait(cond: *mut c_void, mutex: *mut c_void, site: u32) -> c_int {
    cond_wait(cond, mutex, true, site)
}

pub(super) fn cond_wait(cond: *mut c_void, mutex: *mut c_void, timed: bool, site: u32) -> c_int {
    if cond.is_null() || mutex.is_null() {
        return libc::EINVAL;
    }
    let e = ex();
    e.check_object(cond as u64, ops::cond::SIZE, site);
    e.check_object(mutex as u64, ops::mutex::SIZE, site);
    // Waiting without holding the mutex is a misuse (`ops::cond::misuse`), found when
    // the wait executes; where misuses are no errors, the wait fails as glibc's
    // error-checking one would.
    if !e.strict && e.sync_word(mutex as u64) != e.cur + 1 {
        return libc::EPERM;
    }
    // A wait may end without a signal, unless spurious wake-ups are off, and a timed
    // one may time out; but not in the way the thread's last wait ended if it ended
    // without a signal and the thread since did nothing but look (no change, and no
    // loop of its moved a value on): waking so again would only repeat that (it could
    // as well have woken later the first time). A timeout ruled out so, which would
    // come, is looked at again if no thread can run (`could_time_out`).
    let t = e.cur as usize;
    let no_spurious = e.hdr().flags & shm::FLAG_NO_SPURIOUS != 0;
    let th = &e.threads[t];
    let still = |mark: Option<u32>| {
        mark.is_some_and(|m| m == th.changes || th.restore.undone(m, th.changes))
    };
    let spurious_ruled_out = still(th.spurious_mark);
    let spurious = !no_spurious && !spurious_ruled_out;
    let mut flags = if spurious { FLAG_SPURIOUS } else { 0 };
    let ruled_out = timed && still(th.timeout_mark);
    if timed && !ruled_out {
        flags |= ops::cond::FLAG_TIMED;
    }
    if flags != 0 && th.unsignalled >= ops::cond::UNSIGNALLED {
        e.in_runtime = true;
        e.cut_by_unroll(site)
    }
    let wait_step = e.sched.step();
    e.threads[t].wait_without_timeout = ruled_out.then_some(wait_step);
    let ev = Event {
        site,
        arg: mutex as u64,
        flags,
        ..Event::on(0, Kind::CondWait, cond as u64)
    };
    e.submit(ev);
    let e = ex();
    let waited = e.event_at(e.sched.step() - 1);
    let timed = waited.flags & ops::cond::FLAG_TIMED != 0 && waited.choice == 0;
    let mut flags = if waited.choice == 1 { FLAG_SPURIOUS } else { 0 };
    if timed {
        flags |= ops::cond::FLAG_TIMED;
    }
    e.submit(Event {
        kind: Kind::CondWake as u8,
        flags,
        ..ev
    });
    let e = ex();
    let woke = e.event_at(e.sched.step() - 1);
    let th = &mut e.threads[t];
    th.wait_without_timeout = None;
    if !woke.failed() {
        th.spurious_mark = None;
        th.timeout_mark = None;
        return 0;
    }
    // This wait changed nothing either: the other way of waking stays ruled out if it
    // was for this wait (not if it was offered, after a change since it was taken).
    let now = Some(th.changes);
    th.restore = Restore::from(th.changes);
    th.unsignalled += 1;
    if spurious_ruled_out {
        th.spurious_mark = now;
    } else {
        th.spurious_mark = None;
    }
    if ruled_out {
        th.timeout_mark = now;
    } else {
        th.timeout_mark = None;
    }
    if timed {
        th.timeout_mark = now;
        th.timed_out_at = e.sched.step();
        libc::ETIMEDOUT
    } else {
        th.spurious_mark = now;
        0
    }
}
