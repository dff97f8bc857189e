//! Cartesian partial order reduction (Gueta, Flanagan, Yahav, Sagiv; the engine side, as
//! for stateful exploration: C programs do not name their states yet, docs/stateful.md).
//!
//! From each state it explores, the search runs every thread alone (a *solo* run: the
//! schedule to the state, then that thread only, as far as it goes) and cuts the runs
//! into a *cartesian vector*: a prefix per thread such that only the last events of two
//! prefixes may conflict (the paper's `CalcCV`, Fig. 6, extending the prefixes round
//! robin). The state at the end of each finite prefix is explored next, unless it was
//! explored before (the paper's `modelCheck`, Fig. 7): a context switch happens only where
//! threads conflict. Every local state of every thread that the program can reach is
//! reached (the paper's Theorem 1), so a failed assertion is found.
//!
//! What the paper does not have: threads that block. A thread that cannot run in the state
//! has one transition in the vector, its next event, as a step that leads back to the
//! same state (the paper models blocking so), marked infinite: whatever conflicts with it
//! (the unlock its lock waits for) ends the other prefixes. A prefix whose thread comes back
//! to a state of its own run is infinite too, as in the paper, and one cut at
//! `SOLO_STEPS` is a finite prefix like any other. Nor do the paper's threads have steps
//! with several outcomes (which waiter a signal wakes): such a step ends its prefix, and
//! each other alternative is one more run, to the state it leads to.

use std::collections::{HashMap, HashSet};

use cdpor_sched::{dependent, ops, Event, Kind, Step, Tid};

use super::stateful::State;
use super::Pending;

/// Events a solo run takes at most.
pub const SOLO_STEPS: usize = 1000;

/// What the runner is asked for: the schedule to a state, then thread `tid` alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloRequest {
    pub path: Vec<Step>,
    pub tid: Tid,
}

/// A solo run as the runner reports it.
#[derive(Clone, Copy, Debug)]
pub struct SoloRun<'a> {
    /// The thread's events alone.
    pub events: &'a [Event],
    /// The state where it started, then after each event.
    pub states: &'a [State],
    /// Each thread alive where it started, with its next event.
    pub start: &'a [Pending],
    /// The last event ended the program.
    pub ended: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Solo runs (executions).
    pub executions: u64,
    /// States explored (each with its cartesian vector).
    pub states: u64,
    /// States at the end of a prefix that had been explored already.
    pub covered: u64,
}

type Id = u32;

struct Node {
    /// The schedule that reached it first.
    path: Vec<Step>,
}

/// The solo runs of the state being explored, as they come in.
struct Expanding {
    id: Id,
    /// Threads alive there, and their next events; `None` until the first run.
    start: Option<Vec<Pending>>,
    runs: Vec<(Tid, Vec<Event>, Vec<State>, bool)>,
    /// Once the vector is cut: the schedules of the other alternatives of the prefixes'
    /// last steps, still to run.
    alternatives: Option<Vec<Vec<Step>>>,
}

pub struct Cartesian {
    ids: HashMap<State, Id>,
    nodes: Vec<Node>,
    work: Vec<Id>,
    explored: HashSet<Id>,
    /// Every state of every prefix of every vector (the paper's `states(prefix)`: where
    /// local properties are checked).
    prefix_states: HashSet<State>,
    current: Option<Expanding>,
    stats: Stats,
}

impl Default for Cartesian {
    fn default() -> Cartesian {
        Cartesian::new()
    }
}

impl Cartesian {
    pub fn new() -> Cartesian {
        Cartesian {
            ids: HashMap::new(),
            nodes: vec![Node { path: Vec::new() }],
            work: vec![0],
            explored: HashSet::new(),
            prefix_states: HashSet::new(),
            current: None,
            stats: Stats::default(),
        }
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Is `s` a state of the prefix of some vector: where the search checks what each
    /// thread's local state is (a failed assertion)?
    pub fn in_prefix(&self, s: State) -> bool {
        self.prefix_states.contains(&s)
    }

    /// The next solo run, or `None` once every state in the work set is explored.
    pub fn next_request(&mut self) -> Option<SoloRequest> {
        loop {
            if let Some(x) = &self.current {
                let path = self.nodes[x.id as usize].path.clone();
                let Some(start) = &x.start else {
                    // The first thread alive there is unknown before a run: main's
                    // number is the smallest, and a run of a thread that is not there
                    // stops at once, telling which are.
                    return Some(SoloRequest { path, tid: 0 });
                };
                if let Some(alts) = &x.alternatives {
                    // Where each other alternative of a prefix's last step leads: the state
                    // where a run of its thread after it starts.
                    match alts.last() {
                        Some(to) => {
                            let tid = to.last().expect("a step").tid;
                            let path = to.clone();
                            return Some(SoloRequest { path, tid });
                        }
                        None => {
                            self.current = None;
                            continue;
                        }
                    }
                }
                let done: HashSet<Tid> = x.runs.iter().map(|r| r.0).collect();
                match start.iter().find(|p| !done.contains(&p.event.tid())) {
                    Some(p) => {
                        let tid = p.event.tid();
                        return Some(SoloRequest { path, tid });
                    }
                    None => {
                        self.expand();
                        continue;
                    }
                }
            }
            let id = self.work.pop()?;
            if self.explored.insert(id) {
                self.stats.states += 1;
                self.current = Some(Expanding {
                    id,
                    start: None,
                    runs: Vec::new(),
                    alternatives: None,
                });
            } else {
                self.stats.covered += 1;
            }
        }
    }

    /// Takes in the solo run of the last request.
    pub fn record(&mut self, req: &SoloRequest, run: &SoloRun) {
        self.stats.executions += 1;
        let x = self.current.as_mut().expect("a state being explored");
        if let Some(alts) = &mut x.alternatives {
            let to = alts.pop().expect("the request was one");
            self.reached(run.states[0], to);
            return;
        }
        if x.start.is_none() {
            x.start = Some(run.start.to_vec());
            let name = run.states[0];
            if x.id == 0 {
                self.ids.insert(name, 0);
            }
        }
        let alive = (x.start.as_ref()).is_some_and(|s| s.iter().any(|p| p.event.tid() == req.tid));
        if alive {
            x.runs
                .push((req.tid, run.events.to_vec(), run.states.to_vec(), run.ended));
        }
    }

    /// Cuts the solo runs of the state being explored into a cartesian vector, adds the
    /// state at the end of each finite prefix to the work set, and lists the other
    /// alternatives of the prefixes' last steps to run.
    fn expand(&mut self) {
        let x = self.current.as_mut().expect("expanding");
        let start = x.start.clone().unwrap_or_default();
        let mut prefixes: Vec<Prefix> = Vec::new();
        for p in &start {
            let (events, states, ended) = (x.runs.iter())
                .find(|r| r.0 == p.event.tid())
                .map(|r| (r.1.clone(), r.2.clone(), r.3))
                .unwrap_or_default();
            prefixes.push(if events.is_empty() {
                // It cannot run here: its next event, as a step back to this state.
                Prefix {
                    events: vec![p.event],
                    states: Vec::new(),
                    len: 1,
                    infinite: true,
                    ended: false,
                }
            } else {
                Prefix {
                    events,
                    states,
                    len: 1,
                    infinite: false,
                    ended,
                }
            });
        }
        cartesian_vector(&mut prefixes);
        let path = self.nodes[x.id as usize].path.clone();
        let mut alternatives = Vec::new();
        // Prefixes of threads that ran (not those that cannot run here).
        for p in prefixes.iter().filter(|p| !p.states.is_empty()) {
            self.prefix_states.extend(&p.states[..=p.len]);
            let mut to = path.clone();
            to.extend(p.events[..p.len].iter().map(Step::of));
            let e = p.events[p.len - 1];
            for choice in (0..e.choices).filter(|&c| c != e.choice) {
                let mut other = to.clone();
                other.last_mut().expect("a step").choice = choice;
                alternatives.push(other);
            }
            // A prefix that ends the program leads nowhere.
            let ends = p.ended && p.len == p.events.len();
            if !p.infinite && !ends {
                self.reached(p.states[p.len], to);
            }
        }
        if let Some(x) = &mut self.current {
            x.alternatives = Some(alternatives);
        }
    }

    /// A prefix ends at `state`, reached by `path`: to explore, unless it was.
    fn reached(&mut self, state: State, path: Vec<Step>) {
        let next = self.nodes.len() as Id;
        let id = *self.ids.entry(state).or_insert(next);
        if id == next {
            self.nodes.push(Node { path });
        }
        if !self.explored.contains(&id) {
            self.work.push(id);
        } else {
            self.stats.covered += 1;
        }
    }
}

/// One thread's prefix in a cartesian vector: its first `len` events of a solo run.
struct Prefix {
    events: Vec<Event>,
    /// The state before each event, and after the last (empty: the thread cannot run).
    states: Vec<State>,
    len: usize,
    infinite: bool,
    /// The last event of the solo run ended the program.
    ended: bool,
}

/// The paper's `CalcCV` (Fig. 6): extends the prefixes, one event at a time round robin,
/// while only the last events of two prefixes conflict.
fn cartesian_vector(prefixes: &mut [Prefix]) {
    let n = prefixes.len();
    let mut extendable: Vec<bool> = (prefixes.iter())
        .map(|p| !p.infinite && !ends_prefix(last(p)))
        .collect();
    for i in 0..n {
        for j in i + 1..n {
            if conflict(last(&prefixes[i]), last(&prefixes[j])) {
                extendable[i] = false;
                extendable[j] = false;
            }
        }
    }
    while let Some(i) = (0..n).find(|&i| extendable[i]) {
        // Round robin: every extendable prefix grows by one event, or stops growing.
        for i in i..n {
            if !extendable[i] {
                continue;
            }
            let p = &prefixes[i];
            let Some(t) = p.events.get(p.len) else {
                extendable[i] = false;
                continue;
            };
            let conflicts_inside = (0..n).any(|j| {
                let q = &prefixes[j];
                j != i && q.events[..q.len - 1].iter().any(|u| conflict(t, u))
            });
            if conflicts_inside {
                extendable[i] = false;
                continue;
            }
            for j in (0..n).filter(|&j| j != i) {
                if conflict(t, last(&prefixes[j])) {
                    extendable[i] = false;
                    extendable[j] = false;
                }
            }
            let p = &mut prefixes[i];
            let after = p.states[p.len + 1];
            if p.states[..=p.len].contains(&after) && extendable[i] {
                p.infinite = true;
                extendable[i] = false;
            }
            p.len += 1;
            if ends_prefix(last(p)) {
                extendable[i] = false;
            }
        }
    }
}

fn last(p: &Prefix) -> &Event {
    &p.events[p.len - 1]
}

/// Events after which a prefix cannot grow. A step with alternatives (which waiter a
/// signal wakes) is one transition per alternative: the others are explored from the same
/// point. A creation starts a thread that the paper's fixed set of threads would have had
/// from the start, waiting to be created: its wait conflicts with the creation, which
/// must therefore be the last event of its prefix, so that the new thread takes part in
/// the next vector. (Without this, what main did between creating a thread and joining
/// it was never interleaved with that thread.)
fn ends_prefix(e: &Event) -> bool {
    e.choices > 1 || e.kind() == Kind::Create
}

/// The paper's dependence is of transitions, in every state: an event as it was
/// attempted (a compare-and-swap that failed alone may succeed after another prefix).
fn conflict(a: &Event, b: &Event) -> bool {
    dependent(&ops::attempt(a), &ops::attempt(b))
}
