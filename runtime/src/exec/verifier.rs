//! The SV-COMP verifier API: atomic sections (one step for all their accesses),
//! assumptions, `reach_error`, and nondeterministic values (their domains, and which
//! values only a sample of was explored).

use super::*;

/// An atomic section in progress: it runs as one step, whose event is recorded when the
/// section ends, with every access it made (`Summary`) and the one nondeterministic
/// value it may choose.
#[derive(Clone, Copy, Default)]
pub(super) struct Section {
    pub(super) summary: Summary,
    pub(super) choice: Option<(u32, u32)>,
    /// How many of its accesses changed memory (`awaits::changes_state`).
    pub(super) changes: u32,
}

/// `__VERIFIER_assume(cond)`: a false condition makes the execution infeasible.
/// In an atomic section it is SV-COMP's blocking wait (`acquire() { assume(m == 0);
/// m = 1; }` is a lock): the attempt races with the writes that could make it hold, so
/// the orders in which it runs after them are explored, and ending the execution here
/// loses nothing while another thread can still run. When none can, the thread waits for
/// good: it is stuck, which is a deadlock (no error under `--svcomp`).
#[no_mangle]
pub extern "C" fn cdpor_assume(cond: c_int, site: u32) {
    if cond != 0 {
        return;
    }
    let e = ex();
    let t = e.cur as usize;
    if let Some(sec) = e.threads[t].section {
        e.in_runtime = true;
        if e.enabled_and_live().0.is_empty() {
            let mut attempt = Event::new(0, Kind::Atomic);
            sec.summary.store(&mut attempt);
            let mut watch = Watch::default();
            for r in ops::footprint(&attempt).ranges() {
                watch.add(r);
            }
            e.threads[t].atomic = 0;
            e.end_section();
            e.threads[t].pending = Event {
                tid: t as Tid,
                flags: awaits::FLAG_ASSUMPTION,
                ..awaits::event(&watch, site)
            };
            e.threads[t].status = Status::Ready;
            e.ready.insert(t as Tid);
            // No thread can run: the execution ends (a deadlock, or a bound's cut).
            e.choose();
            unsafe { libc::_exit(3) }
        }
    } else if e.hdr().flags & shm::FLAG_ASSUME_ENDS == 0 {
        // Outside a section the thread stops there for good, as a spin on what it read
        // since it last changed anything, and the others run on: a false assumption in
        // one thread cannot hide what the others do before it. Ending the execution here
        // instead would make that end race with every other thread's next event. The
        // orders in which the thread's reads come after the writes that follow them are
        // explored by reversing those races; the execution ends as infeasible, or as
        // redundant once another thread changed what the thread read
        // (docs/reductions.md).
        let from = e.since_last_change(t as Tid);
        e.in_runtime = true;
        e.threads[t].assumed = true;
        e.spin(from, site)
    }
    e.submit(Event {
        site,
        ..Event::new(0, Kind::AssumeFail)
    });
    unsafe { libc::_exit(3) }
}

/// A call of `reach_error()` or `__VERIFIER_error()`: the error SV-COMP programs mark
/// (whatever the function's body would do).
#[no_mangle]
pub extern "C" fn cdpor_reach_error(site: u32) -> ! {
    let e = ex();
    e.threads[e.cur as usize].reach = true;
    e.submit(Event {
        site,
        ..Event::new(0, Kind::AssertFail)
    });
    unsafe { libc::_exit(3) }
}

/// `__VERIFIER_nondet_*`: a value of an integer type of `bits` bits that the checker
/// chooses over the intervals that begin at `cuts` (`nondet::cuts`), with the site's
/// `nondet::USED` and `nondet::UNTRACKED` flags.
/// 0 bits: a pointer (`nondet::Domain::pointer`).
///
/// # Safety
/// `cuts` points to `n_cuts` values.
#[no_mangle]
pub unsafe extern "C" fn cdpor_nondet(
    bits: u32,
    signed: u32,
    site: u32,
    flags: u32,
    cuts: *const i64,
    n_cuts: u32,
) -> u64 {
    let e = ex();
    let cuts = if cuts.is_null() {
        &[]
    } else {
        std::slice::from_raw_parts(cuts, n_cuts as usize)
    };
    let d = if bits == 0 {
        nondet::Domain::pointer()
    } else {
        nondet::Domain {
            bits,
            signed: signed != 0,
            cuts,
            range: (e.hdr().nondet_lo, e.hdr().nondet_hi),
            used: flags & nondet::USED != 0,
        }
    };
    let untracked = flags & nondet::UNTRACKED != 0 || bits == 0;
    let ev = nondet::event(d.size(), site);
    e.threads[e.cur as usize].nondet = Some((d, untracked));
    e.submit(ev);
    let e = ex();
    e.threads[e.cur as usize].result
}

/// Enters an atomic section (`__VERIFIER_atomic_begin()`, or the entry of a
/// `__VERIFIER_atomic_*` function); sections nest.
#[no_mangle]
pub extern "C" fn cdpor_atomic_begin(site: u32) {
    let e = ex();
    let t = e.cur as usize;
    e.threads[t].atomic += 1;
    if e.threads[t].atomic == 1 {
        e.submit(Event {
            site,
            flags: FLAG_SCAN,
            ..Event::new(0, Kind::Atomic)
        });
    }
}

#[no_mangle]
pub extern "C" fn cdpor_atomic_end(_site: u32) {
    let e = ex();
    let t = e.cur as usize;
    match e.threads[t].atomic {
        0 => {}
        1 => {
            e.threads[t].atomic = 0;
            e.in_runtime = true;
            e.end_section();
            e.in_runtime = false;
        }
        _ => e.threads[t].atomic -= 1,
    }
}

/// The program uses a value of `__VERIFIER_nondet_*` at `site` other than by comparing it
/// with constants: one the current thread chose, or (`any`, read from memory) any
/// thread's.
#[no_mangle]
pub extern "C" fn cdpor_nondet_used(site: u32, any: u32) {
    ex().used(site, any != 0)
}

impl Exec {
    /// A value of `site` was explored over `n` values of its interval only: the execution
    /// is incomplete once the program uses it (at once when its uses go unreported).
    pub(super) fn sampled(&mut self, site: u32, n: u32, used: bool) {
        if used || self.n_sampled == SAMPLED {
            return self.restrict(site, n);
        }
        let t = self.cur;
        if !self.sampled[..self.n_sampled].contains(&(site, t, n)) {
            self.sampled[self.n_sampled] = (site, t, n);
            self.n_sampled += 1;
        }
    }

    /// The program used a value of `site`, of the current thread's own or (`any`, the
    /// value passed through memory) of any thread's: one that was sampled restricts the
    /// execution.
    pub(super) fn used(&mut self, site: u32, any: bool) {
        let t = self.cur;
        let mut i = 0;
        while i < self.n_sampled {
            let (s, owner, n) = self.sampled[i];
            if s == site && (any || owner == t) {
                self.n_sampled -= 1;
                self.sampled[i] = self.sampled[self.n_sampled];
                self.restrict(s, n);
            } else {
                i += 1;
            }
        }
    }

    pub(super) fn restrict(&mut self, site: u32, n: u32) {
        let h = self.hdr();
        let k = h.n_restricted as usize;
        if k < shm::MAX_RESTRICTED && !h.restricted[..k].iter().any(|r| r[0] == site) {
            h.restricted[k] = [site, n];
            h.n_restricted += 1;
        }
    }

    /// An operation of the current thread inside its atomic section: memory accesses
    /// and a nondeterministic value run at once and join the section's event; the end
    /// of the program ends the section with it; the rest would need other threads to
    /// run within the section.
    pub(super) fn within_section(&mut self, mut ev: Event) {
        let t = self.cur as usize;
        match ev.kind() {
            k if k.ends_program() => {
                // What the section read decided that it ends here: the end carries the
                // section's accesses (where its record has room for them), so that it
                // races with the writes that could have made the section complete
                // (`record` gives it the section's nondeterministic value).
                if let Some(sec) = self.threads[t].section {
                    if matches!(k, Kind::AssertFail | Kind::Abort | Kind::AssumeFail) {
                        sec.summary.store(&mut ev);
                        ev.flags |= FLAG_SCAN;
                    }
                }
                self.threads[t].pending = ev;
                self.execute();
            }
            Kind::ThreadExit => {
                // The thread ends inside its section: the section ends first.
                self.threads[t].atomic = 0;
                self.end_section();
                self.in_runtime = true;
                self.submit(ev);
            }
            Kind::Read
            | Kind::Write
            | Kind::Rmw
            | Kind::CmpXchg
            | Kind::Copy
            | Kind::Fence
            | Kind::Lib
            | Kind::Free
            | Kind::Nondet => {
                if ev.kind() == Kind::Nondet
                    && self.threads[t].section.is_some_and(|s| s.choice.is_some())
                {
                    self.unsupported(
                        ev.site,
                        b"two nondeterministic values in one atomic section",
                    );
                }
                let step = self.sched.step() as u32;
                let result = self.perform(&mut ev, step);
                self.threads[t].result = result;
                let Some(sec) = self.threads[t].section.as_mut() else {
                    return;
                };
                if ev.kind() == Kind::Nondet {
                    sec.choice = Some((ev.choices, ev.choice));
                }
                sec.changes += u32::from(awaits::changes_state(&ev));
                for r in ops::footprint(&ev).ranges() {
                    sec.summary.add_range(r);
                }
            }
            k => {
                let what = format!(
                    "{} inside an atomic section (only memory accesses can be atomic)",
                    k.name()
                );
                self.unsupported(ev.site, what.as_bytes())
            }
        }
    }

    /// Ends the current thread's atomic section: its event takes the step the scheduler
    /// gave the section.
    pub(super) fn end_section(&mut self) {
        let t = self.cur as usize;
        let Some(sec) = self.threads[t].section.take() else {
            return;
        };
        let mut ev = Event {
            site: self.threads[t].last_site,
            flags: FLAG_SCAN,
            ..Event::new(t as Tid, Kind::Atomic)
        };
        sec.summary.store(&mut ev);
        if let Some((n, c)) = sec.choice {
            ev.choices = n;
            ev.choice = c;
        }
        if sec.changes == 0 {
            ev.flags |= FLAG_SILENT;
        }
        self.record(ev);
    }
}
