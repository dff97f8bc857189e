//! Schedules as users see them and `replay` takes them: one step per event, naming the
//! thread that performs it (`0` for main, `2` for main's second child, `2.1` for that
//! thread's first child) and, for an operation with several alternatives (which waiter
//! a signal wakes), the one it took after a slash, counting from 1 as reports do (`3/2`:
//! thread 3, second alternative; the first is the default and is not written). A run
//! of four or more equal steps is written once with its length: `1*62`.
//! Inside an exploration threads are numbers (`shm::ThreadName`), and a number stands
//! for several threads in turn when creators give joined threads' numbers to new ones;
//! names are read off a run's creations.

use cdpor_sched::{Event, Kind, Step, Tid};

/// The names of a run's threads, by number and from which event on.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Per number, its threads in turn: the index of the first event after the creation
    /// (0 for main), and the name.
    threads: Vec<Vec<(usize, String)>>,
}

impl Names {
    /// The names of the threads of a run with these events: a thread is named by its
    /// creator's name and its rank (from 1) among that creator's children.
    pub fn of(events: &[Event]) -> Names {
        let mut threads = vec![vec![(0, "0".to_string())]];
        let mut children: Vec<u32> = vec![0];
        for (i, e) in events.iter().enumerate() {
            if e.kind() != Kind::Create || e.aux == u32::MAX {
                continue;
            }
            let (p, c) = (e.tid as usize, e.aux as usize);
            let n = p.max(c) + 1;
            if threads.len() < n {
                threads.resize(n, Vec::new());
                children.resize(n, 0);
            }
            children[p] += 1;
            let rank = children[p];
            let name = match threads[p].last() {
                Some((_, parent)) if parent != "0" => format!("{parent}.{rank}"),
                Some(_) => rank.to_string(),
                None => format!("#{p}.{rank}"),
            };
            threads[c].push((i + 1, name));
            children[c] = 0;
        }
        Names { threads }
    }

    /// The name of the thread of number `t` that performs event `i`, or the last of that
    /// number when `i` is past the events.
    pub fn name_at(&self, t: Tid, i: usize) -> String {
        let of = self.threads.get(t as usize).map_or(&[][..], Vec::as_slice);
        let k = of.partition_point(|(from, _)| *from <= i);
        match k.checked_sub(1).and_then(|k| of.get(k)) {
            Some((_, name)) => name.clone(),
            None => format!("#{t}"),
        }
    }

    /// The name of the last thread of number `t`.
    pub fn name(&self, t: Tid) -> String {
        self.name_at(t, usize::MAX)
    }

    /// `T` and the name, as reports show threads.
    pub fn thread(&self, t: Tid) -> String {
        format!("T{}", self.name(t))
    }

    /// `T` and the name of the thread of number `t` at event `i`.
    pub fn thread_at(&self, t: Tid, i: usize) -> String {
        format!("T{}", self.name_at(t, i))
    }

    /// The number of the thread named `name` that exists at event `i`.
    pub fn number_at(&self, name: &str, i: usize) -> Option<Tid> {
        (0..self.threads.len() as Tid).find(|&t| {
            let of = &self.threads[t as usize];
            let k = of.partition_point(|(from, _)| *from <= i);
            k > 0 && of[k - 1].1 == name
        })
    }
}

/// A schedule as text: `0,1,1.1,2/1,0*5`; step `i` is event `i` of the run `names` are
/// of.
pub fn format(steps: &[Step], names: &Names) -> String {
    let mut parts: Vec<(String, usize)> = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let name = names.name_at(s.tid, i);
        let step = if s.choice == 0 {
            name
        } else {
            format!("{name}/{}", s.choice + 1)
        };
        match parts.last_mut() {
            Some((last, n)) if *last == step => *n += 1,
            _ => parts.push((step, 1)),
        }
    }
    let runs: Vec<String> = (parts.into_iter())
        .map(|(step, n)| match n {
            1..=3 => vec![step; n].join(","),
            _ => format!("{step}*{n}"),
        })
        .collect();
    runs.join(",")
}

/// The most steps a schedule's text may stand for (`0*N`).
const MAX_STEPS: usize = 1 << 24;

/// A step of a schedule read from text: the thread's name (`0`, `2.1`) and the
/// alternative (from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedStep {
    pub thread: String,
    pub choice: u32,
}

/// A schedule read from text. Which number a name stands for is known only once the
/// run has reached the creation of its thread (`explore::replay`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub steps: Vec<NamedStep>,
}

/// Reads a schedule: steps separated by commas or spaces, optionally in brackets.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let mut steps = Vec::new();
    let body = text.trim().trim_start_matches('[').trim_end_matches(']');
    for tok in body
        .split(|c: char| c == ',' || c.is_whitespace())
        .map(|t| t.trim_matches('"'))
        .filter(|t| !t.is_empty())
    {
        let bad = || {
            format!("bad schedule step `{tok}` (expected a thread such as 0, 2 or 1.2, optionally /ALTERNATIVE from 1, optionally *REPEATS)")
        };
        let (tok, repeats) = match tok.split_once('*') {
            Some((t, n)) => match n.parse::<usize>() {
                Ok(n) if n >= 1 => (t, n),
                _ => return Err(bad()),
            },
            None => (tok, 1),
        };
        if steps.len().saturating_add(repeats) > MAX_STEPS {
            return Err(format!("the schedule has more than {MAX_STEPS} steps"));
        }
        let (thread, choice) = match tok.split_once('/') {
            Some((t, c)) => match c.parse::<u32>() {
                Ok(c) if c >= 1 => (t, c - 1),
                _ => return Err(bad()),
            },
            None => (tok, 0),
        };
        let thread = thread.trim_start_matches('T');
        let ranks = if thread == "0" {
            Vec::new()
        } else {
            thread
                .split('.')
                .map(|part| part.parse::<u32>().ok().filter(|&r| r > 0))
                .collect::<Option<Vec<u32>>>()
                .ok_or_else(bad)?
        };
        let thread = if ranks.is_empty() {
            "0".to_string()
        } else {
            let parts: Vec<String> = ranks.iter().map(u32::to_string).collect();
            parts.join(".")
        };
        steps.extend(std::iter::repeat_n(NamedStep { thread, choice }, repeats));
    }
    Ok(Parsed { steps })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create(parent: Tid, child: Tid) -> Event {
        Event {
            aux: child,
            ..Event::new(parent, Kind::Create)
        }
    }

    #[test]
    fn names_follow_creations_and_numbers_used_again() {
        // Main creates 1 (number 1) and joins it; its second child takes number 1
        // again and creates a child of its own (number 2).
        let events = [
            create(0, 1),
            Event::new(1, Kind::ThreadExit),
            Event::new(0, Kind::Join),
            create(0, 1),
            create(1, 2),
            Event::new(2, Kind::Fence),
        ];
        let names = Names::of(&events);
        assert_eq!(names.name_at(1, 1), "1");
        assert_eq!(names.name_at(1, 4), "2");
        assert_eq!(names.thread(1), "T2");
        assert_eq!(names.thread_at(2, 5), "T2.1");
        assert_eq!(names.number_at("2.1", 5), Some(2));
        assert_eq!(names.number_at("1", 2), Some(1));
        assert_eq!(
            names.number_at("1", 4),
            None,
            "number 1 is thread 2 by then"
        );
        assert_eq!(names.name(7), "#7");
        let steps: Vec<Step> = events.iter().map(Step::of).collect();
        assert_eq!(format(&steps, &names), "0,1,0,0,2,2.1");
    }

    /// Each step of a parsed schedule as `thread/alternative`.
    fn steps_of(text: &str) -> Vec<String> {
        let p = parse(text).unwrap();
        (p.steps.iter())
            .map(|s| format!("{}/{}", s.thread, s.choice))
            .collect()
    }

    #[test]
    fn schedules_parse() {
        let text = steps_of("[0, 1, 1.1, 2/2, T1.1.2,0/1]");
        assert_eq!(text, ["0/0", "1/0", "1.1/0", "2/1", "1.1.2/0", "0/0"]);
        assert!(parse("1,x").is_err());
        assert!(parse("1.0").is_err());
        assert!(parse("1/0").is_err());
        assert_eq!(parse("T0,T1").unwrap().steps.len(), 2);
        let text = steps_of("0*3,1/2*2,2");
        assert_eq!(text, ["0/0", "0/0", "0/0", "1/1", "1/1", "2/0"]);
        assert!(parse("1*0").is_err());
        assert!(parse("1*x").is_err());
        assert!(parse("1*99999999999").is_err());
        assert!(parse(&format!("1,1*{}", usize::MAX)).is_err());
    }

    #[test]
    fn runs_of_equal_steps_are_written_once() {
        let names = Names::of(&[create(0, 1)]);
        let step = |tid, choice| Step { tid, choice };
        let mut steps = vec![step(0, 0); 5];
        steps.extend([step(1, 0), step(1, 0), step(1, 1), step(1, 1)]);
        steps.extend(vec![step(1, 1); 3]);
        steps.push(step(0, 0));
        assert_eq!(format(&steps, &names), "0*5,1,1,1/2*5,0");
        let back = parse(&format(&steps, &names)).unwrap();
        assert_eq!(back.steps.len(), steps.len());
    }
}
