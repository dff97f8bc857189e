//! Stateful DPOR (the engine side; C programs do not name their states yet:
//! docs/stateful.md): Flanagan & Godefroid's backtrack
//! sets kept per program *state* instead of per node of one execution, with states
//! named by the runner, so that a state reached again is not explored again and a
//! program whose state space has cycles is explored to the end (Cirisci, Enea, Farzan,
//! Mutluergil, "A Pragmatic Approach to Stateful Partial Order Reduction", whose
//! algorithms assume an acyclic state space; what cycles add is ours, below).
//!
//! Exploration runs as the stateless engine's does, by re-execution: a request is the
//! schedule of the first path that reached a state, then the step to explore from it;
//! the runner goes on freely from there and stops at the first state already seen (in an
//! earlier execution, or earlier in this one). Every state keeps the transitions
//! explored from it (the state graph) and its backtrack set: the threads explored or
//! asked for from it (`done`).
//!
//! An execution's races are reversed as classic DPOR reverses them, at the state before
//! the earlier event. An execution that ends at a state seen before stands for every
//! continuation explored from that state: each event of the state graph reachable from
//! there (and each next event recorded where an execution ended) is compared with the
//! events of the path, as if it ran at the end of it (a summary, as Yang et al.'s
//! stateful DPOR does). Two things make that sound with cycles:
//!
//! * **The summary grows.** A state reached while a cycle through it is still being
//!   explored has an incomplete graph below it; so when no request is left, every
//!   such match is compared again with what its state reaches now, until nothing new
//!   is added (a fixpoint). Without this, a failed assertion behind a state first
//!   reached inside a cycle was lost.
//! * **No transition is ignored round a cycle.** Where a transition closes a cycle of
//!   the state graph (its target reaches its source), its source explores every
//!   enabled thread (the cycle proviso of static partial order reduction). Otherwise a
//!   thread that loops for ever would hide every other thread: each of its rounds
//!   comes back to a state seen, and nothing the others do is ever executed.
//!
//! The comparison with a summary does not know the events between the path's end and
//! the summarized one, so it is conservative: every earlier event of the path that
//! conflicts with it and does not happen before its thread's last event races with it,
//! not just the last. There are no sleep sets.

use std::collections::{HashMap, HashSet};

use cdpor_sched::ops;
use cdpor_sched::{dependent, Event, Step, ThreadSet};

use super::hb::{self, Later, Scope};
use super::summary::{Below, Labels};
use super::{classic_candidates, EngineError, Request, Trace, TraceEnd};

/// A program state's name, as the runner gives it.
pub type State = u128;

/// One execution as the runner reports it: the trace, and the state before each event
/// and where it ended (`states.len() == trace.events.len() + 1`).
#[derive(Clone, Copy, Debug)]
pub struct Execution<'a> {
    pub trace: Trace<'a>,
    pub states: &'a [State],
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Executions run.
    pub executions: u64,
    /// Executions that ended at a state seen before.
    pub matched: u64,
    /// Executions that ended where no thread could go on.
    pub finals: u64,
    /// Executions cut by a bound.
    pub bounded: u64,
    /// Distinct states stored.
    pub states: u64,
    /// Transitions of the state graph.
    pub transitions: u64,
}

type Id = u32;

/// States a search for a cycle visits at most (`Stateful::reaches`).
const REACH_LIMIT: usize = 4096;

#[derive(Default)]
struct Matches {
    last: Vec<(Id, Event)>,
    compared: Labels,
}

struct Node {
    name: State,
    /// The state before, and the event from it, on the first path that reached this one.
    parent: Option<(Id, Event)>,
    enabled: ThreadSet,
    /// Explored transitions: the event and the state it leads to (`next`, apart, for
    /// `summary::Below`).
    edges: Vec<Event>,
    next: Vec<Id>,
    /// The labels (`Stateful::labels`) of the events of `edges`, and of the next events
    /// of the threads alive where an execution ended here.
    own: Vec<u32>,
    /// Threads explored from here, or asked for: the backtrack set.
    done: ThreadSet,
}

pub struct Stateful {
    ids: HashMap<State, Id>,
    nodes: Vec<Node>,
    /// Steps to explore, as (state, step); `requested` holds every one ever asked.
    todo: Vec<(Id, Step)>,
    requested: HashSet<(Id, Step)>,
    /// Executions that ended at a state seen before, by that state: the last transition
    /// of each (from a state whose first path is the execution's), and the events below
    /// the state that every one of them has been compared with.
    matches: HashMap<Id, Matches>,
    /// Distinct events of the state graph, as they race (`ops::attempt`), numbered.
    labels: HashMap<Event, u32>,
    events: Vec<Event>,
    /// The state graph changed since the last fixpoint round.
    grown: bool,
    /// The request handed out, while its execution runs, and the state and step it
    /// explores (none: the first execution).
    current: Option<(Request, Option<(Id, Step)>)>,
    started: bool,
    stats: Stats,
}

impl Default for Stateful {
    fn default() -> Stateful {
        Stateful::new()
    }
}

impl Stateful {
    pub fn new() -> Stateful {
        Stateful {
            ids: HashMap::new(),
            nodes: Vec::new(),
            todo: Vec::new(),
            requested: HashSet::new(),
            matches: HashMap::new(),
            labels: HashMap::new(),
            events: Vec::new(),
            grown: false,
            current: None,
            started: false,
            stats: Stats::default(),
        }
    }

    pub fn stats(&self) -> Stats {
        Stats {
            states: self.nodes.len() as u64,
            transitions: self.nodes.iter().map(|n| n.next.len() as u64).sum(),
            ..self.stats
        }
    }

    /// Has an execution reached `s`? A runner stops at such a state, once past its
    /// request's schedule.
    pub fn seen(&self, s: State) -> bool {
        self.ids.contains_key(&s)
    }

    /// The next execution to run, or `None` when the exploration is complete.
    pub fn next_request(&mut self) -> Option<Request> {
        if !self.started {
            self.started = true;
            self.current = Some((Request::default(), None));
            return Some(Request::default());
        }
        loop {
            if let Some((id, step)) = self.todo.pop() {
                let mut schedule: Vec<Step> = self.path_to(id).1.iter().map(Step::of).collect();
                schedule.push(step);
                let req = Request {
                    schedule,
                    sleep: Vec::new(),
                    sleep_from: 0,
                };
                self.current = Some((req.clone(), Some((id, step))));
                return Some(req);
            }
            if !std::mem::take(&mut self.grown) {
                return None;
            }
            // Summaries may have grown: compare every match with what its state reaches
            // now and it has not been compared with.
            let nodes = &self.nodes;
            let below = Below::of(
                nodes.len(),
                self.events.len(),
                |i| &nodes[i].next,
                |i| &nodes[i].own,
            );
            let mut ends: Vec<Id> = self.matches.keys().copied().collect();
            ends.sort_unstable();
            for end in ends {
                let m = self.matches.get_mut(&end).expect("a key");
                let new: Vec<Event> = (below.at(end as usize).iter())
                    .filter(|&l| !m.compared.contains(l))
                    .map(|l| self.events[l as usize])
                    .collect();
                if new.is_empty() {
                    continue;
                }
                for e in &new {
                    m.compared.insert(self.labels[e]);
                }
                for (src, last) in m.last.clone() {
                    self.compare(src, last, &new);
                }
            }
        }
    }

    /// Takes in the execution of the last request.
    pub fn record(&mut self, x: &Execution) -> Result<(), EngineError> {
        let Some((req, from)) = self.current.take() else {
            return Ok(());
        };
        let events = x.trace.events;
        let n = events.len();
        assert_eq!(
            x.states.len(),
            n + 1,
            "a state before each event and at the end"
        );
        self.stats.executions += 1;
        self.check_replay(from, x)?;
        // States from here on were new to this execution, up to its last.
        let first_new = req.schedule.len();
        let last = x.states[n];
        let matched = self.ids.contains_key(&last) || x.states[..n].contains(&last);
        let mut ids = Vec::with_capacity(n + 1);
        for k in 0..=n {
            let enabled = if k < n {
                x.trace.enabled[k]
            } else if let TraceEnd::Maximal { .. } = x.trace.end {
                ThreadSet::EMPTY
            } else {
                (x.trace.pending.iter())
                    .filter(|p| p.enabled)
                    .map(|p| p.event.tid())
                    .collect()
            };
            let parent = (k > 0).then(|| (ids[k - 1], events[k - 1]));
            let id = self.intern(x.states[k], parent, enabled);
            ids.push(id);
            if k > 0 {
                self.add_edge(ids[k - 1], events[k - 1], id);
            }
            if k >= first_new && k < n {
                // A new state's first step: the one this execution took.
                let node = &mut self.nodes[id as usize];
                node.done.insert(events[k].tid);
                self.requested.insert((id, Step::of(&events[k])));
            }
        }
        let end = ids[n];
        for p in x.trace.pending {
            self.label(end, &p.event);
        }
        let (kill, complete) = match x.trace.end {
            TraceEnd::Maximal { killed } => (killed, true),
            _ => (false, false),
        };
        if matched {
            self.stats.matched += 1;
        } else if complete {
            self.stats.finals += 1;
        } else {
            self.stats.bounded += 1;
        }
        // The races whose later event is one this execution ran from its request's
        // state on (those before were analysed with the path that first reached it).
        let scope = Scope {
            from: first_new.saturating_sub(1),
            kill,
            with_pending: complete,
            cut: !complete && !matched,
            reads_commute: true,
        };
        let (hb, races) = hb::analyze(events, x.trace.enabled, x.trace.pending, scope);
        for race in races {
            let (later, end) = match race.later {
                Later::Event(j) => (ops::attempt(&events[j]), j),
                Later::Pending(k) => (x.trace.pending[k].event, n),
            };
            let enabled = x.trace.enabled[race.earlier];
            let pending = x.trace.pending;
            let threads = classic_candidates(&hb, events, pending, enabled, race, end, &later);
            self.add_backtrack(ids[race.earlier], threads);
        }
        if matched && n > 0 {
            // Compared at once with what its state is known to reach, and with the rest
            // once no request is left.
            let m = self.matches.entry(end).or_default();
            m.last.push((ids[n - 1], events[n - 1]));
            let known: Vec<Event> = m.compared.iter().map(|l| self.events[l as usize]).collect();
            self.compare(ids[n - 1], events[n - 1], &known);
        }
        Ok(())
    }

    /// The replayed prefix must be the path it was planned from: the same operations,
    /// through the same states, then the step asked for.
    fn check_replay(&self, from: Option<(Id, Step)>, x: &Execution) -> Result<(), EngineError> {
        let Some((id, step)) = from else {
            return Ok(());
        };
        let (states, path) = self.path_to(id);
        let events = x.trace.events;
        for (k, &sid) in states.iter().enumerate() {
            let got = events.get(k);
            let same_state = x.states.get(k) == Some(&self.nodes[sid as usize].name);
            let ok = same_state
                && match (got, path.get(k)) {
                    (Some(g), Some(e)) => ops::same_op(e, g),
                    (Some(g), None) => g.tid == step.tid && g.choice == step.choice,
                    (None, _) => false,
                };
            if !ok {
                let expected = path.get(k).copied().unwrap_or(Event {
                    choice: step.choice,
                    ..Event::new(step.tid, cdpor_sched::Kind::Fence)
                });
                return Err(EngineError::Nondeterministic {
                    step: k,
                    expected: Box::new(expected),
                    got: got.map(|g| Box::new(*g)),
                });
            }
        }
        Ok(())
    }

    fn intern(&mut self, s: State, parent: Option<(Id, Event)>, enabled: ThreadSet) -> Id {
        if let Some(&id) = self.ids.get(&s) {
            return id;
        }
        let id = self.nodes.len() as Id;
        self.ids.insert(s, id);
        self.nodes.push(Node {
            name: s,
            parent,
            enabled,
            edges: Vec::new(),
            next: Vec::new(),
            own: Vec::new(),
            done: ThreadSet::EMPTY,
        });
        self.grown = true;
        id
    }

    fn add_edge(&mut self, from: Id, e: Event, to: Id) {
        let node = &self.nodes[from as usize];
        if node
            .edges
            .iter()
            .any(|x| x.tid == e.tid && x.choice == e.choice)
        {
            return;
        }
        let node = &mut self.nodes[from as usize];
        node.edges.push(e);
        node.next.push(to);
        self.label(from, &e);
        self.grown = true;
        // Every alternative of the step is explored with it.
        for choice in 0..e.choices.max(1) {
            let step = Step { tid: e.tid, choice };
            if self.requested.insert((from, step)) && choice != e.choice {
                self.todo.push((from, step));
            }
        }
        if self.reaches(to, from) {
            // The cycle proviso: the transition closes a cycle.
            let enabled = self.nodes[from as usize].enabled;
            self.add_backtrack(from, enabled);
        }
    }

    /// Adds `threads` (none: every enabled thread) to the backtrack set of `id`, and
    /// requests those not explored yet.
    fn add_backtrack(&mut self, id: Id, threads: ThreadSet) {
        let node = &mut self.nodes[id as usize];
        let threads = if threads.is_empty() {
            node.enabled
        } else {
            threads
        };
        for t in threads.minus(node.done).iter() {
            node.done.insert(t);
            let step = Step { tid: t, choice: 0 };
            if self.requested.insert((id, step)) {
                self.todo.push((id, step));
            }
        }
    }

    /// Does the state graph lead from `a` to `b`? Past `REACH_LIMIT` states searched,
    /// it says yes: a cycle closed where there is none only explores more.
    fn reaches(&self, a: Id, b: Id) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![a];
        while let Some(x) = stack.pop() {
            if x == b || seen.len() > REACH_LIMIT {
                return true;
            }
            if seen.insert(x) {
                stack.extend(&self.nodes[x as usize].next);
            }
        }
        false
    }

    /// The first path that reached `id`: its states, `id` included, and its events.
    fn path_to(&self, mut id: Id) -> (Vec<Id>, Vec<Event>) {
        let (mut ids, mut events) = (vec![id], Vec::new());
        while let Some((p, e)) = self.nodes[id as usize].parent {
            ids.push(p);
            events.push(e);
            id = p;
        }
        ids.reverse();
        events.reverse();
        (ids, events)
    }

    /// Adds event `e`, as it races, to the labels of state `id`.
    fn label(&mut self, id: Id, e: &Event) {
        let e = ops::attempt(e);
        let next = self.events.len() as u32;
        let l = *self.labels.entry(e).or_insert(next);
        if l == next {
            self.events.push(e);
        }
        let own = &mut self.nodes[id as usize].own;
        if !own.contains(&l) {
            own.push(l);
            self.grown = true;
        }
    }

    /// Compares the path of `src` then `last` (an execution that ended at a state seen
    /// before) with events the state graph has below its end, as if each ran next.
    fn compare(&mut self, src: Id, last: Event, below: &[Event]) {
        if below.is_empty() {
            return;
        }
        let (ids, mut events) = self.path_to(src);
        events.push(last);
        let enabled: Vec<ThreadSet> = ids
            .iter()
            .map(|&i| self.nodes[i as usize].enabled)
            .collect();
        let scope = Scope {
            from: events.len(),
            kill: false,
            with_pending: false,
            cut: false,
            reads_commute: true,
        };
        let (hb, _) = hb::analyze(&events, &enabled, &[], scope);
        for t in below {
            let p = t.tid();
            for (i, e) in events.iter().enumerate() {
                if e.tid() != p && dependent(&ops::attempt(e), t) && !hb.hb_pending(i, p) {
                    let mut threads = ThreadSet::EMPTY;
                    if enabled[i].contains(p) {
                        threads.insert(p);
                    }
                    self.add_backtrack(ids[i], threads);
                }
            }
        }
    }
}
