//! Schedules as users see them and `replay` takes them: one step per event, naming the
//! thread that performs it (`0` for main, `2` for main's second child, `2.1` for that
//! thread's first child) and, for an operation with several alternatives (which waiter
//! a signal wakes), the one it took after a slash, counting from 1 as reports do (`3/2`:
//! thread 3, second alternative; the first is the default and is not written).
//! Inside an exploration threads are numbers given by name (`shm::ThreadName`); this
//! module converts between the two.

use cdpor_sched::shm::{ThreadName, NO_PARENT};
use cdpor_sched::{Step, Tid, MAX_THREADS};

/// The names of an exploration's threads: thread `t` is named by entry `t`.
#[derive(Clone, Debug, Default)]
pub struct Names(pub Vec<ThreadName>);

impl Names {
    /// The thread's name: the ranks (from 1) of it and its ancestors among their
    /// creators' children, main excluded; `0` for main.
    pub fn name(&self, t: Tid) -> String {
        let mut parts = Vec::new();
        let mut cur = t;
        while let Some(n) = self.0.get(cur as usize) {
            if n.parent == NO_PARENT {
                break;
            }
            parts.push((n.index + 1).to_string());
            cur = n.parent;
            if parts.len() > MAX_THREADS {
                break;
            }
        }
        if parts.is_empty() {
            return if t == 0 { "0".into() } else { format!("#{t}") };
        }
        parts.reverse();
        parts.join(".")
    }

    /// `T` and the name, as reports show threads.
    pub fn thread(&self, t: Tid) -> String {
        format!("T{}", self.name(t))
    }
}

/// A schedule as text: `0,1,1.1,2/1`.
pub fn format(steps: &[Step], names: &Names) -> String {
    let parts: Vec<String> = steps
        .iter()
        .map(|s| {
            let name = names.name(s.tid);
            if s.choice == 0 {
                name
            } else {
                format!("{name}/{}", s.choice + 1)
            }
        })
        .collect();
    parts.join(",")
}

/// A schedule read from text, with the thread names it uses numbered in order of first
/// use (a thread's creator before it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub names: Vec<ThreadName>,
    pub steps: Vec<Step>,
}

/// Reads a schedule: steps separated by commas or spaces, optionally in brackets.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let mut names = vec![ThreadName {
        parent: NO_PARENT,
        index: 0,
    }];
    let mut steps = Vec::new();
    let body = text.trim().trim_start_matches('[').trim_end_matches(']');
    for tok in body
        .split(|c: char| c == ',' || c.is_whitespace())
        .map(|t| t.trim_matches('"'))
        .filter(|t| !t.is_empty())
    {
        let bad = || {
            format!("bad schedule step `{tok}` (expected a thread such as 0, 2 or 1.2, optionally /ALTERNATIVE from 1)")
        };
        let (thread, choice) = match tok.split_once('/') {
            Some((t, c)) => match c.parse::<u32>() {
                Ok(c) if c >= 1 => (t, c - 1),
                _ => return Err(bad()),
            },
            None => (tok, 0),
        };
        let thread = thread.trim_start_matches('T');
        let mut tid: Tid = 0;
        if thread != "0" {
            for part in thread.split('.') {
                let rank: u32 = part.parse().map_err(|_| bad())?;
                if rank == 0 {
                    return Err(bad());
                }
                let want = ThreadName {
                    parent: tid,
                    index: rank - 1,
                };
                tid = match names.iter().position(|n| *n == want) {
                    Some(i) => i as Tid,
                    None => {
                        names.push(want);
                        (names.len() - 1) as Tid
                    }
                };
            }
        }
        if names.len() > MAX_THREADS {
            return Err(format!(
                "the schedule names more than {MAX_THREADS} threads"
            ));
        }
        steps.push(Step { tid, choice });
    }
    Ok(Parsed { names, steps })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_schedules_round_trip() {
        let p = parse("[0, 1, 1.1, 2/2, 1.1.2,0/1]").unwrap();
        let names = Names(p.names.clone());
        assert_eq!(format(&p.steps, &names), "0,1,1.1,2/2,1.1.2,0");
        assert_eq!(names.thread(p.steps[2].tid), "T1.1");
        assert_eq!(p.steps[3], Step { tid: 3, choice: 1 });
        assert!(parse("1,x").is_err());
        assert!(parse("1.0").is_err());
        assert!(parse("1/0").is_err());
        assert_eq!(parse("T0,T1").unwrap().steps.len(), 2);
    }
}
