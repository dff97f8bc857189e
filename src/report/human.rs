//! The human report of a finished exploration.

use super::*;

/// The human report of a finished exploration.
/// `full_trace`: every step of the interleaving, not only those that matter (`fold`).
pub fn human(namer: &Namer, s: &Summary, algorithm: &str, full_trace: bool) -> String {
    let mut out = String::new();
    let (verdict, _) = verdict(s);
    let time = format!("{:.2} s", s.elapsed.as_secs_f64());
    let mut extra = String::new();
    if s.stats.blocked > 0 {
        extra += &format!(", {} sleep-set blocked", s.stats.blocked);
    }
    if s.assume_blocked > 0 {
        extra += &format!(", {} ended by a false assumption", s.assume_blocked);
    }
    if s.stale_spins > 0 {
        extra += &format!(
            ", {} redundant (a spin loop read what changed later)",
            s.stale_spins
        );
    }
    if s.stuck > 0 {
        extra += &format!(", {} with threads stuck for good", s.stuck);
    }
    if s.stats.bounded > 0 {
        extra += &format!(", {} cut by a bound", s.stats.bounded);
    }
    if s.probes > 0 {
        extra += &format!(", after {}", plural(s.probes, "probe"));
    }
    let counts = format!(
        "{}{extra} (algorithm {algorithm}, {time})",
        plural(s.executions(), "execution"),
    );
    if let Some(f) = s.errors.first() {
        let headline = format!("cdpor: {} error:", f.kind.name());
        out += &format!("{} {}\n", paint(ERROR, &headline), namer.message(f));
        let by = if f.probe { "probe" } else { "execution" };
        out += &format!("  found in {by} {} of this run; {counts}\n\n", f.index);
        if let Some(threads) = namer.thread_legend(&f.execution) {
            out += &format!("Threads: {threads}\n");
        }
        out += &format!("Interleaving ({} events):\n", f.execution.events.len());
        out += &interleaving(namer, f, full_trace);
        if matches!(f.kind, ErrorKind::Deadlock | ErrorKind::Livelock) {
            out += "\nBlocked threads:\n";
            for b in &f.execution.blocked {
                out += &format!("  {}\n", namer.wait(b, &f.execution));
            }
            if let Some(cycle) = namer.wait_cycle(&f.execution) {
                out += &format!("\nCycle: {cycle}\n");
            }
            for lost in namer.lost_wakeups(&f.execution) {
                out += &format!("\nLost wake-up: {lost}.\n");
            }
        }
        let replay = if s.ordered_barriers {
            "cdpor replay --ordered-barriers --schedule"
        } else {
            "cdpor replay --schedule"
        };
        out += &format!(
            "\nSchedule (thread of each step, for `{replay}`): {}\n",
            schedule::format(&f.schedule, f.execution.names())
        );
        if s.errors.len() > 1 || s.failing > 1 {
            let mut runs = plural(s.executions(), "execution");
            if s.probes > 0 {
                runs += &format!(" and {}", plural(s.probes, "probe"));
            }
            out += &format!("\n{} of {runs} failed; distinct errors:\n", s.failing);
            for e in &s.errors {
                out += &format!(
                    "  {:>6} x {}: {}\n",
                    e.count,
                    e.kind.name(),
                    namer.message(e)
                );
            }
        }
        // Counts of a cut run are partial: say so, whatever was found.
        if let Some(c) = cut_text(namer, s) {
            out += &format!("exploration incomplete: {c}\n");
        }
        out += &format!("\n{}\n", paint(ERROR, &format!("verdict: {verdict}")));
    } else {
        out += &format!("cdpor: no errors found in {counts}\n");
        if let Some(c) = cut_text(namer, s) {
            out += &format!("exploration incomplete: {c}\n");
        }
        let style = if verdict == "safe" { SAFE } else { ERROR };
        out += &format!("{}\n", paint(style, &format!("verdict: {verdict}")));
    }
    out
}

pub fn cut_text(namer: &Namer, s: &Summary) -> Option<String> {
    let mut parts = Vec::new();
    match &s.cut {
        Some(Cut::MaxExecutions(n)) => parts.push(format!("stopped at --max-executions {n}")),
        Some(Cut::TimeLimit(d)) => {
            parts.push(format!("stopped at --time-limit {}s", d.as_secs_f64()))
        }
        Some(Cut::Interrupted(sig)) => parts.push(format!("interrupted by {}", signal_name(*sig))),
        Some(Cut::Hangs) => parts.push(
            "stopped once the executions that ran past --exec-timeout had taken that long again"
                .into(),
        ),
        None => {}
    }
    let by_steps = s.steps_bounded();
    if by_steps > 0 {
        parts.push(format!(
            "{} cut by --max-steps",
            plural(by_steps, "execution")
        ));
    }
    if s.loop_bounded > 0 {
        // Sites that stopped a thread for good: loops past --unroll, condition waits that
        // could end without a signal once more (`ops::cond::UNSIGNALLED`) and, under
        // --svcomp, allocations the heap cannot meet (SV-COMP assumes malloc never fails).
        let op = |site: u32| namer.site(site).map_or(String::new(), |x| x.op.clone());
        let alloc = |site: u32| op(site).contains("alloc");
        let wait = |site: u32| ["cond_", "cnd_"].iter().any(|w| op(site).contains(w));
        let at = |pick: &dyn Fn(u32) -> bool| -> Vec<String> {
            (s.unrolled.iter().copied())
                .filter(|&site| pick(site))
                .map(|site| namer.location(site))
                .filter(|l| !l.is_empty())
                .collect()
        };
        let allocations = at(&alloc);
        if !allocations.is_empty() {
            parts.push(format!(
                "cut where an allocation was larger than a thread's heap of 4 GiB (at {}), which SV-COMP assumes never fails",
                allocations.join(", ")
            ));
        }
        let (waits, loops) = (at(&wait), at(&|site| !alloc(site) && !wait(site)));
        let mut why = Vec::new();
        match loops.len() {
            0 => {}
            1 => why.push(format!("the loop at {} ran that many iterations", loops[0])),
            _ => why.push(format!(
                "the loops at {} ran that many iterations",
                loops.join(", ")
            )),
        }
        if !waits.is_empty() {
            why.push(format!(
                "a thread's condition wait at {} could end without a signal after {} such ends",
                waits.join(", "),
                cdpor_sched::ops::cond::UNSIGNALLED
            ));
        }
        if why.is_empty() && allocations.is_empty() {
            why.push("a loop ran that many iterations".into());
        }
        if !why.is_empty() {
            parts.push(format!(
                "{} cut by --unroll ({})",
                plural(s.loop_bounded, "execution"),
                why.join("; ")
            ));
        }
    }
    if s.timeouts_cut > 0 {
        parts.push(format!(
            "{} cut where no thread could run but a timed wait could time out again and \
             see another thread's change (time is not modelled)",
            plural(s.timeouts_cut, "execution")
        ));
    }
    if s.hung > 0 {
        parts.push(format!(
            "{} cut where a thread ran past --exec-timeout without a visible operation \
             (it may loop forever there)",
            plural(s.hung, "execution")
        ));
    }
    if s.thread_bounded > 0 {
        parts.push(format!(
            "{} cut by --max-threads (they would create more threads than it \
             allows, or more than the {} that can be created and not joined at once)",
            plural(s.thread_bounded, "execution"),
            cdpor_sched::MAX_THREADS - 1
        ));
    }
    for (&site, &n) in &s.restricted {
        let what = namer
            .site(site)
            .map_or("a nondeterministic value", |x| x.op.as_str());
        parts.push(format!(
            "{what}(){} explored over {n} of its values only (intervals of more than {} \
             values are sampled over --nondet-range)",
            at(&namer.location(site)),
            cdpor_sched::ops::nondet::WHOLE
        ));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}
