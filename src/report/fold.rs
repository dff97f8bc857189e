//! Which steps of a long interleaving the report shows: what matters to the error is each
//! thread's last steps, the steps of other threads that conflict with those (where the
//! order could have gone the other way), and the error's own step. Runs of other steps
//! are folded into one line (`… 40 steps of T2 in worker() …`); `--full-trace` shows all.

use cdpor_sched::{ops, Event};

/// Traces up to this many steps are shown whole.
pub const SHOWN_WHOLE: usize = 40;

/// Each thread's last steps that are shown.
const LAST_OF_EACH: usize = 3;

/// For each step of `events`, whether it is shown.
pub fn shown(events: &[Event]) -> Vec<bool> {
    let n = events.len();
    if n <= SHOWN_WHOLE {
        return vec![true; n];
    }
    let mut keep = vec![false; n];
    let mut seen = std::collections::HashMap::new();
    for (i, e) in events.iter().enumerate().rev() {
        let c = seen.entry(e.tid()).or_insert(0);
        if *c < LAST_OF_EACH {
            keep[i] = true;
            *c += 1;
        }
    }
    keep[n - 1] = true;
    // The steps of other threads in conflict with those (not the end of the process,
    // which conflicts with everything).
    let last: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
    for &i in &last {
        if events[i].ends_program() {
            continue;
        }
        for (j, e) in events.iter().enumerate() {
            if e.tid() != events[i].tid() && !e.ends_program() && ops::dependent(e, &events[i]) {
                keep[j] = true;
            }
        }
    }
    // A line that stands for one step is no shorter than the step.
    for i in 0..n {
        let alone = !keep[i] && (i == 0 || keep[i - 1]) && (i + 1 == n || keep[i + 1]);
        if alone {
            keep[i] = true;
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use cdpor_sched::Kind;

    fn write(t: u32, addr: u64) -> Event {
        Event {
            len: 4,
            ..Event::on(t, Kind::Write, addr)
        }
    }

    #[test]
    fn a_long_trace_keeps_last_steps_and_their_conflicts_and_folds_the_rest() {
        // T1 writes 50 private words, then x; T2 wrote x at the start.
        let mut events = vec![write(2, 0x100)];
        events.extend((0..50).map(|k| write(1, 0x1000 + 8 * k)));
        events.push(write(1, 0x100));
        let shown = shown(&events);
        // T2's write conflicts with T1's last one; T1's last three steps are shown.
        assert!(shown[0]);
        assert_eq!(shown[49..], [true; 3]);
        assert_eq!(shown.iter().filter(|&&s| s).count(), 4);
        // Short traces are shown whole.
        assert!(super::shown(&events[..SHOWN_WHOLE]).iter().all(|&s| s));
    }
}
