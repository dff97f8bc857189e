//! The DPOR engine: consumes executed traces, produces the schedules still to explore.
//! It is pure (no fork, no FFI, no LLVM), so it is tested on abstract programs.
//!
//! Exploration is stateless and trace-based: the engine keeps the current execution as a
//! path of `Node`s (one per event: the state before it), re-executes a prefix of that path
//! with one choice changed, and analyses the races of the events from the point where the
//! new execution diverged. The algorithms differ only in what a race adds to a node and
//! in how the next branch of a node is chosen:
//!
//! * `none`: every enabled thread at every node (the test oracle);
//! * `classic`: Flanagan & Godefroid's backtrack sets, with sleep sets;
//! * `source`: Source-DPOR (source sets, sleep sets);
//! * `optimal`: Optimal-DPOR (wakeup trees, sleep sets), one execution per trace and no
//!   sleep-set-blocked executions.

pub mod cartesian;
#[cfg(test)]
mod cartesian_tests;
mod forecast;
pub mod hb;
#[cfg(test)]
mod incremental_tests;
mod shadow;
pub mod sim;
pub mod stateful;
#[cfg(test)]
mod stateful_tests;
mod summary;
#[cfg(test)]
pub(crate) mod tests;
pub mod wakeup_tree;

use cdpor_sched::event::FLAG_NO_COMMUTE;
use cdpor_sched::ops::{self, rwlock, Dependence};
use cdpor_sched::{Event, Kind, Step, ThreadSet, Tid};

use hb::{Analysis, Later, Race};
use wakeup_tree::{dependences, initials_of, is_weak_initial_of, WakeupTree, WuNode};

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Algorithm {
    None,
    Classic,
    Source,
    Optimal,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::None => "none",
            Algorithm::Classic => "classic",
            Algorithm::Source => "source",
            Algorithm::Optimal => "optimal",
        }
    }

    pub const ALL: [Algorithm; 4] = [
        Algorithm::None,
        Algorithm::Classic,
        Algorithm::Source,
        Algorithm::Optimal,
    ];
}

/// What the next execution must do: follow `schedule` (the thread of each event, and
/// the alternative taken by events that have several), and from step `sleep_from` on,
/// never choose a thread of the `sleep` set until an event dependent with its listed next
/// event wakes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub schedule: Vec<Step>,
    pub sleep: Vec<Event>,
    pub sleep_from: usize,
}

/// A thread alive at the end of an execution, and the event it was about to perform.
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    pub event: Event,
    pub enabled: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TraceEnd {
    /// No thread could continue: the program ended, deadlocked or failed.
    Maximal {
        /// The program was ended by the transition of the last event (a crash right after
        /// it, or the last event itself is `exit`, a failed assertion or `abort`).
        killed: bool,
    },
    /// Every enabled thread was asleep: a redundant execution, cut short.
    SleepBlocked,
    /// Cut by a bound (`--max-steps`, or every thread left is stopped by `--unroll` or
    /// `--max-threads`, or blocked): what each thread would have done next is known, and
    /// its races are analysed as at the end of a maximal execution, so that a bug
    /// reachable within the bound by reversing one is not missed.
    Stopped,
}

/// One executed trace, as the runtime (or a test simulator) reports it.
#[derive(Clone, Copy, Debug)]
pub struct Trace<'a> {
    pub events: &'a [Event],
    /// The threads enabled in the state before each event.
    pub enabled: &'a [ThreadSet],
    pub pending: &'a [Pending],
    pub end: TraceEnd,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Complete (maximal) executions.
    pub executions: u64,
    /// Sleep-set-blocked executions.
    pub blocked: u64,
    /// Executions cut by the step bound.
    pub bounded: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Re-executing a schedule did not reproduce the same event.
    Nondeterministic {
        step: usize,
        expected: Box<Event>,
        got: Option<Box<Event>>,
    },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Nondeterministic {
                step,
                expected,
                got,
            } => {
                write!(f, "the program is not deterministic: re-executing a schedule gave a different event at step {} (expected {expected:?}, got ", step + 1)?;
                match got {
                    Some(g) => write!(f, "{g:?})"),
                    None => write!(f, "the end of the execution)"),
                }
            }
        }
    }
}

/// The state before one event of the current execution.
#[derive(Clone, Debug)]
struct Node {
    /// The event taken from here in the current execution.
    event: Event,
    /// Sleeping threads' next events.
    sleep: Vec<Event>,
    /// optimal: branches still to explore.
    wut: WakeupTree,
    /// Its sets of threads, once one of them differs from what it starts as: most
    /// nodes never get there, and a node is made for every new event of every execution
    /// (three sets would make it three times the size).
    sets: Option<Box<Sets>>,
}

#[derive(Clone, Copy, Debug)]
struct Sets {
    /// classic/source: threads to explore from here; none: unused (all enabled are).
    backtrack: ThreadSet,
    /// Threads whose branch from here is explored or being explored.
    done: ThreadSet,
    /// optimal: threads whose operation here has had its other alternatives added to
    /// `wut`.
    alternatives: ThreadSet,
    /// optimal: sleeping threads that stay asleep (their next event commutes with every
    /// event since, as those executed) but cover no race's reversal here, because an
    /// event since conflicts with them as an attempt (`ops::attempt`: a failed
    /// compare-and-swap, which executed as a read, as the write it might have been) and
    /// exactly one of the two is such a try (two failed tries of the same bytes are
    /// reads either way).
    /// A wakeup tree knows the event whose race it reverses only as an attempt, so its
    /// branches were laid out under that dependence; a sleeper that only the finer one
    /// keeps asleep cannot stand for the executions under such a branch. (Without this,
    /// optimal dropped a load's reversal behind a sleeping load, under a branch started
    /// by a try that failed: a lost trace.)
    loose: ThreadSet,
}

impl Node {
    fn new(event: Event, sleep: Vec<Event>) -> Node {
        Node {
            event,
            sleep,
            wut: WakeupTree::default(),
            sets: None,
        }
    }

    /// As a node starts: its own event's thread to explore, and being explored.
    fn initial_sets(&self) -> Sets {
        let mut own = ThreadSet::EMPTY;
        own.insert(self.event.tid());
        Sets {
            backtrack: own,
            done: own,
            alternatives: ThreadSet::EMPTY,
            loose: ThreadSet::EMPTY,
        }
    }

    fn backtrack(&self) -> ThreadSet {
        self.sets
            .as_deref()
            .map_or(self.initial_sets(), |s| *s)
            .backtrack
    }

    fn done(&self) -> ThreadSet {
        self.sets
            .as_deref()
            .map_or(self.initial_sets(), |s| *s)
            .done
    }

    fn loose(&self) -> ThreadSet {
        self.sets.as_deref().map_or(ThreadSet::EMPTY, |s| s.loose)
    }

    fn sets_mut(&mut self) -> &mut Sets {
        let initial = self.initial_sets();
        self.sets.get_or_insert_with(|| Box::new(initial))
    }

    /// optimal: the other alternatives of the operation taken here become branches.
    fn add_alternatives(&mut self) {
        let e = self.event;
        if e.choices > 1 && !self.sets_mut().alternatives.contains(e.tid) {
            self.sets_mut().alternatives.insert(e.tid);
            let base = ops::attempt(&e);
            self.wut
                .branches
                .extend((0..e.choices).filter(|&c| c != e.choice).map(|c| WuNode {
                    event: Event { choice: c, ..base },
                    children: Vec::new(),
                }));
        }
    }
}

/// The sleepers of a node after `prev` (`sleep`, those that `prev.event` left asleep)
/// that cover no reversal there (`Sets::loose`): loose after `prev` already, or in
/// conflict with `prev.event` as attempts where one of the two is a try and the other
/// not.
fn loosened(prev: &Node, sleep: &[Event]) -> ThreadSet {
    let mut loose = ThreadSet::EMPTY;
    if sleep.is_empty() {
        return loose;
    }
    let before = prev.loose();
    let attempt = ops::attempt(&prev.event);
    let prev_tried = tried(&prev.event, &attempt);
    // Worked out only if some event here was a try: most nodes have none.
    let mut coarse = None;
    for s in sleep {
        let t = s.tid();
        let s_attempt = ops::attempt(s);
        if before.contains(t)
            || (prev_tried != tried(s, &s_attempt)) && {
                let c = coarse.get_or_insert_with(|| Dependence::of(&attempt));
                Dependence::of(&s_attempt).with(c)
            }
        {
            loose.insert(t);
        }
    }
    loose
}

/// Is `e` an access whose outcome made it finer than its attempt `attempt` (a failed
/// compare-and-swap or read-modify-write, a read)? Other operations with outcomes
/// (trylocks, rwlock tries, signals) are left to the finer dependence: see
/// docs/reductions.md, "Known limits".
fn tried(e: &Event, attempt: &Event) -> bool {
    matches!(e.kind(), Kind::CmpXchg | Kind::Rmw) && attempt != e
}

/// Puts thread `e.tid`'s next event into a sleep set (in place of an older entry).
fn sleep_push(sleep: &mut Vec<Event>, e: Event) {
    sleep.retain(|s| s.tid != e.tid);
    sleep.push(e);
}

/// The next execution: where it leaves the current path, and (optimal) the wakeup-tree
/// branch it follows from there.
struct Plan {
    div: usize,
    branch: Option<WuNode>,
}

pub struct Engine {
    alg: Algorithm,
    nodes: Vec<Node>,
    /// The threads enabled at each node (kept apart from the nodes, which it would make
    /// a quarter larger, as a copy of the trace's).
    enabled: Vec<ThreadSet>,
    /// The sleep sets of nodes cut from the path, emptied, for their allocations.
    spare: Vec<Vec<Event>>,
    /// The next execution's request. Its schedule is kept as the current path's, cut back
    /// and extended as the path changes, so that planning costs what changed, not the
    /// length of the path.
    request: Request,
    plan: Option<Plan>,
    /// Happens-before of the current path, kept for the next execution's prefix.
    analysis: Analysis,
    /// The last execution's races (a buffer kept for its allocation).
    races: Vec<Race>,
    /// Whether the analysis may keep what it knows of a prefix (tests compare an engine
    /// that never does).
    incremental: bool,
    /// Between `take` and `plan`: the divergence point of the execution taken in, and
    /// the deepest node with a branch left before its races were analysed.
    taken: Option<usize>,
    certain: Option<usize>,
    /// Between `plan` and `prepare`, if races are left to reverse: those above this node,
    /// and whether the execution's last event killed the program (`reverse`'s `kill`).
    deferred: Option<(usize, bool)>,
    stats: Stats,
}

impl Engine {
    pub fn new(alg: Algorithm) -> Engine {
        Engine {
            alg,
            nodes: Vec::new(),
            enabled: Vec::new(),
            spare: Vec::new(),
            request: Request::default(),
            plan: Some(Plan {
                div: 0,
                branch: None,
            }),
            analysis: Analysis::new(),
            races: Vec::new(),
            incremental: true,
            taken: None,
            certain: None,
            deferred: None,
            stats: Stats::default(),
        }
    }

    /// An engine that analyses every execution from its first event.
    #[cfg(test)]
    fn from_scratch(alg: Algorithm) -> Engine {
        Engine {
            incremental: false,
            ..Engine::new(alg)
        }
    }

    /// The happens-before relation and the races of the last execution analysed.
    #[cfg(test)]
    fn analysed(&self) -> (&hb::Hb, &[Race]) {
        (self.analysis.hb(), &self.races)
    }

    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The next execution to run, or `None` when exploration is complete.
    pub fn next_request(&self) -> Option<&Request> {
        self.plan.as_ref().map(|_| &self.request)
    }

    /// Takes in the execution of the last request and plans the next one.
    pub fn record(&mut self, trace: &Trace) -> Result<(), EngineError> {
        self.take(trace)?;
        self.plan(trace);
        self.prepare(trace);
        Ok(())
    }

    /// Work for the next execution that does not change its request, done while it runs:
    /// the races of `trace` (the execution `plan` took in) that `plan` left for later are
    /// reversed, and the analysis goes back to where the next execution leaves the
    /// current path (what `take` would do first).
    pub fn prepare(&mut self, trace: &Trace) {
        if let Some((certain, kill)) = self.deferred.take() {
            let races = std::mem::take(&mut self.races);
            for &race in races.iter().filter(|r| r.earlier < certain) {
                self.reverse(trace.events, trace.pending, kill, race);
            }
            self.races = races;
        }
        if let (Some(plan), true) = (&self.plan, self.alg != Algorithm::None) {
            self.analysis.rollback_to(plan.div);
        }
    }

    /// The first half of `record`: takes the execution of the last request in as the
    /// current path. Returns how many steps of the next execution are certain already,
    /// if there is sure to be one: the path up to its deepest node with a branch left,
    /// which the analysis of the execution's races (`plan`) can only add deeper ones to.
    /// The executor starts the next execution on them (`next_prefix`) while `plan` runs.
    pub fn take(&mut self, trace: &Trace) -> Result<Option<usize>, EngineError> {
        let plan = self.plan.take().expect("take() follows next_request()");
        let events = trace.events;
        self.check_replay(&plan, events, trace.end)?;
        let div = plan.div;
        self.extend_path(div, plan.branch, events, trace.enabled);
        let schedule = &mut self.request.schedule;
        schedule.truncate(div);
        schedule.extend(events.get(div..).unwrap_or_default().iter().map(Step::of));
        match trace.end {
            TraceEnd::Maximal { .. } => self.stats.executions += 1,
            TraceEnd::SleepBlocked => self.stats.blocked += 1,
            TraceEnd::Stopped => self.stats.bounded += 1,
        }
        self.taken = Some(div);
        self.certain = (0..self.nodes.len())
            .rev()
            .find(|&i| self.has_branch_left(i));
        Ok(self.certain)
    }

    /// The first `n` steps of the next execution, `n` as `take` returned.
    pub fn next_prefix(&self, n: usize) -> &[Step] {
        &self.request.schedule[..n]
    }

    /// Whether `plan_next` finds a branch to explore at node `i` (it mirrors its tests).
    fn has_branch_left(&self, i: usize) -> bool {
        let node = &self.nodes[i];
        if alternative_at(self.alg, node).is_some() {
            return true;
        }
        match self.alg {
            Algorithm::Optimal => !node.wut.branches.is_empty(),
            alg => {
                // The sleep set as `leave_branch` leaves it, as far as its threads go.
                let mut asleep = asleep(&node.sleep);
                asleep.insert(node.event.tid());
                next_thread(alg, node, asleep, self.enabled[i]).is_some()
            }
        }
    }

    /// The second half of `record`: analyses the races of the execution that `take`
    /// took in, and plans the next one.
    pub fn plan(&mut self, trace: &Trace) {
        let div = self.taken.take().expect("plan() follows take()");
        let events = trace.events;
        // Races are analysed on blocked executions too: the events before the block were
        // explored, and their races are what leads elsewhere (Source-DPOR, Alg. 1).
        if self.alg != Algorithm::None {
            // The last event ended the program, also when a bound had stopped a thread
            // (main returned, an assumption failed).
            let ended = events.last().is_some_and(|e| e.kind().ends_program());
            let (kill, complete) = match trace.end {
                TraceEnd::Maximal { killed } => (killed || ended, true),
                TraceEnd::Stopped => (ended, true),
                TraceEnd::SleepBlocked => (false, false),
            };
            let scope = hb::Scope {
                from: div,
                kill,
                with_pending: complete,
                cut: matches!(trace.end, TraceEnd::Stopped),
                reads_commute: self.alg != Algorithm::Classic,
            };
            if !self.incremental {
                self.analysis = Analysis::new();
            }
            let mut races = std::mem::take(&mut self.races);
            (self.analysis).analyze(events, trace.enabled, trace.pending, scope, &mut races);
            // A race reversed above the deepest node with a branch left only adds to
            // that node's wakeup tree or backtrack set, which the next request does not
            // read: `prepare` reverses it while the next execution runs. At that node or
            // below, it can change the branch the next request takes.
            let certain = self.certain.unwrap_or(0);
            for &race in races.iter().filter(|r| r.earlier >= certain) {
                self.reverse(events, trace.pending, kill, race);
            }
            self.deferred = races
                .iter()
                .any(|r| r.earlier < certain)
                .then_some((certain, kill));
            self.races = races;
        }
        self.plan = self.plan_next();
        if let Some(certain) = self.certain.take() {
            let div = self.plan.as_ref().map(|p| p.div);
            assert!(
                div.is_some_and(|d| d >= certain),
                "the next execution leaves the path above the point it was sure to reach"
            );
        }
    }

    /// The re-executed prefix, and the wakeup-tree branch that was followed, must give
    /// back the events they were planned from.
    fn check_replay(
        &self,
        plan: &Plan,
        events: &[Event],
        end: TraceEnd,
    ) -> Result<(), EngineError> {
        let mismatch = |step: usize, expected: &Event| EngineError::Nondeterministic {
            step,
            expected: Box::new(*expected),
            got: events.get(step).copied().map(Box::new),
        };
        for (step, node) in self.nodes.iter().enumerate().take(plan.div) {
            // Mostly the very event recorded: then no need to look closer.
            let same = |e: &Event| {
                identical(e, &node.event)
                    || (ops::same_op(e, &node.event) && e.choice == node.event.choice)
            };
            if !events.get(step).is_some_and(same) {
                return Err(mismatch(step, &node.event));
            }
        }
        let mut step = plan.div;
        let mut branch = plan.branch.as_ref();
        while let Some(b) = branch {
            // The step bound fell inside the branch (a wakeup sequence placed deeper than
            // where it was found): a cut like any, once the branch has begun.
            if end == TraceEnd::Stopped && step == events.len() && step > plan.div {
                break;
            }
            if !events.get(step).is_some_and(|e| ops::same_op(e, &b.event)) {
                return Err(mismatch(step, &b.event));
            }
            step += 1;
            branch = b.children.first();
        }
        if plan.div < self.request.schedule.len() && events.len() <= plan.div {
            return Err(EngineError::Nondeterministic {
                step: plan.div,
                expected: Box::new(Event::new(self.request.schedule[plan.div].tid, Kind::Fence)),
                got: None,
            });
        }
        Ok(())
    }

    /// Replaces the path from the divergence point with the new execution's events.
    fn extend_path(
        &mut self,
        div: usize,
        branch: Option<WuNode>,
        events: &[Event],
        enabled: &[ThreadSet],
    ) {
        self.cut(div + 1);
        if let Some(node) = self.nodes.get_mut(div) {
            if let Some(e) = events.get(div) {
                node.event = *e;
            }
        } else if let Some(e) = events.first() {
            self.nodes.push(Node::new(*e, Vec::new()));
        }
        // optimal: the events up to the end of the followed branch are forced: they
        // were placed there to reverse a race. The other alternatives of an operation
        // that has several are explored where it runs freely, or where it is the branch's
        // last event (the one whose race is reversed); elsewhere they would only repeat
        // traces explored where it ran before.
        let forced_end = div + branch.as_ref().map_or(0, chain_len);
        // Below the divergence point, the followed branch's other subtrees become the
        // new nodes' wakeup trees.
        let mut below = branch.map(|b| b.children).unwrap_or_default();
        for (k, &event) in events.iter().enumerate().skip(div + 1) {
            let prev = &self.nodes[k - 1];
            let mut sleep = self.spare.pop().unwrap_or_default();
            if !prev.sleep.is_empty() {
                let woken = Dependence::of(&prev.event);
                let awake = |s: &&Event| !Dependence::of(s).with(&woken);
                sleep.extend(prev.sleep.iter().filter(awake));
            }
            let loose = if self.alg == Algorithm::Optimal {
                loosened(prev, &sleep)
            } else {
                ThreadSet::EMPTY
            };
            let mut node = Node::new(event, sleep);
            if !loose.is_empty() {
                node.sets_mut().loose = loose;
            }
            if !below.is_empty() {
                let followed = below.remove(0);
                node.wut.branches = std::mem::replace(&mut below, followed.children);
            }
            self.nodes.push(node);
        }
        let n = self.nodes.len();
        let kept = self.enabled.len().min(n);
        self.enabled.truncate(kept);
        self.enabled
            .extend_from_slice(enabled.get(kept..n.min(enabled.len())).unwrap_or_default());
        self.enabled.resize(n, ThreadSet::EMPTY);
        if self.alg == Algorithm::Optimal {
            for k in div..self.nodes.len() {
                if k >= forced_end || k + 1 == forced_end {
                    self.nodes[k].add_alternatives();
                }
            }
        }
    }

    /// Cuts the path to its first `n` nodes, keeping their sleep sets' allocations.
    fn cut(&mut self, n: usize) {
        let keep = n.min(self.nodes.len());
        for node in self.nodes.drain(keep..) {
            let mut sleep = node.sleep;
            sleep.clear();
            self.spare.push(sleep);
        }
        self.enabled.truncate(keep);
    }

    /// Applies the algorithm's rule for one race.
    fn reverse(&mut self, events: &[Event], pending: &[Pending], kill: bool, race: Race) {
        let hb = self.analysis.hb();
        let e = race.earlier;
        let (later_event, end) = match race.later {
            Later::Event(j) => (ops::attempt(&events[j]), j),
            // Pending events run after every executed event, but before a final kill.
            Later::Pending(k) => (
                pending[k].event,
                if kill && e + 1 < events.len() {
                    events.len() - 1
                } else {
                    events.len()
                },
            ),
        };
        // v = notdep(e, E).e': the events after e that do not happen after it, then e'.
        let notdep = || (e + 1..end).filter(|&k| !hb.hb(e, k)).map(|k| events[k]);
        if !reversible(self.enabled[e], notdep(), &later_event) {
            return;
        }
        // The wakeup sequence v = notdep.e', for the algorithms that use one.
        let mut v: Vec<Event> = Vec::with_capacity(events.len() - e);
        if matches!(self.alg, Algorithm::Optimal | Algorithm::Source) {
            v.extend(notdep());
            if self.alg == Algorithm::Optimal {
                // notdep(e, E) is every event of E after e that does not happen after it,
                // those after e' too (Abdulla et al.): they commute with e', but a sleeper
                // is a weak initial of v only if it is one with them. Stopping at e' let
                // a sleeper that an event after e' conflicts with cover the reversal, and
                // lost the traces in which that event comes first (GenMC's big00r: 18 of
                // 69,112). The final event of a killed execution ends it: not in v.
                let last = if kill { events.len() - 1 } else { events.len() };
                let after = (end + 1..last).filter(|&k| !hb.hb(e, k));
                v.extend(after.map(|k| events[k]));
            }
            if later_event.kind() == Kind::WrLock {
                // Read locks in `notdep` may still be held there: the write lock goes
                // before them.
                match rwlock::free_point(&later_event, &events[..e], &v) {
                    Some(p) => v.truncate(p),
                    None => return,
                }
            }
            v.push(later_event);
        }
        let node = &mut self.nodes[e];
        let d = dependences(&v);
        match self.alg {
            Algorithm::None => {}
            Algorithm::Optimal => {
                let loose = node.loose();
                let covers = |s: &&Event| !loose.contains(s.tid());
                if (node.sleep.iter().filter(covers)).any(|s| is_weak_initial_of(s, &v, &d)) {
                    return;
                }
                node.wut.insert_of(v, d);
            }
            Algorithm::Source => {
                let init = initials_of(&v, &d);
                if !init.intersects(node.backtrack()) {
                    if let Some(q) = init.first() {
                        node.sets_mut().backtrack.insert(q);
                    }
                }
            }
            Algorithm::Classic => {
                // Failing the candidates, every thread enabled there.
                let enabled = self.enabled[e];
                let candidates =
                    classic_candidates(hb, events, pending, enabled, race, end, &later_event);
                // A sleeping candidate is never explored from here, so it cannot be the
                // one that reverses the race (F&G's "any q" predates sleep sets).
                let awake = candidates.minus(asleep(&node.sleep));
                if awake.is_empty() {
                    let sets = node.sets_mut();
                    sets.backtrack = sets.backtrack.union(enabled);
                } else if !awake.intersects(node.backtrack()) {
                    (node.sets_mut().backtrack).insert(awake.first().expect("not empty"));
                }
            }
        }
    }

    /// Backtracks to the deepest node with a branch left, and plans its execution.
    fn plan_next(&mut self) -> Option<Plan> {
        while let Some(i) = self.nodes.len().checked_sub(1) {
            let request = &mut self.request;
            if let Some(step) = alternative_at(self.alg, &self.nodes[i]) {
                request.schedule.truncate(i);
                request.schedule.push(step);
                request.sleep.clone_from(&self.nodes[i].sleep);
                request.sleep_from = i;
                return Some(Plan {
                    div: i,
                    branch: None,
                });
            }
            let enabled = self.enabled[i];
            let node = &mut self.nodes[i];
            leave_branch(self.alg, &mut node.sleep, node.event);
            // Its entry is new: it covers what its branch explored.
            let t = node.event.tid();
            if node.loose().contains(t) {
                node.sets_mut().loose.remove(t);
            }
            let (next, branch) = match self.alg {
                Algorithm::Optimal => match node.wut.take_leftmost() {
                    Some(b) => (Some(b.event.tid()), Some(b)),
                    None => (None, None),
                },
                alg => (next_thread(alg, node, asleep(&node.sleep), enabled), None),
            };
            let Some(next) = next else {
                self.cut(i);
                continue;
            };
            node.sets_mut().done.insert(next);
            request.sleep.clone_from(&node.sleep);
            request.sleep_from = i;
            request.schedule.truncate(i);
            match &branch {
                Some(b) => push_chain(&mut request.schedule, b),
                None => request.schedule.push(Step {
                    tid: next,
                    choice: 0,
                }),
            }
            return Some(Plan { div: i, branch });
        }
        None
    }
}

/// Not optimal: the next alternative of the operation taken at `node`, which goes before
/// any other thread from there (its thread joins the sleep set once every alternative is
/// explored). Optimal makes them wakeup-tree branches instead (`add_alternatives`).
fn alternative_at(alg: Algorithm, node: &Node) -> Option<Step> {
    let e = node.event;
    (alg != Algorithm::Optimal && e.choice + 1 < e.choices).then_some(Step {
        tid: e.tid,
        choice: e.choice + 1,
    })
}

/// A node's sleep set once the branch of its `event` is fully explored (its thread is in
/// `done` already: it was planned, or the node started with it).
fn leave_branch(alg: Algorithm, sleep: &mut Vec<Event>, event: Event) {
    match alg {
        Algorithm::None => {}
        // Classic DPOR's backtrack sets are persistent only under its own dependence,
        // where reads do not commute; its sleep sets must agree.
        Algorithm::Classic => sleep_push(
            sleep,
            Event {
                flags: event.flags | FLAG_NO_COMMUTE,
                ..event
            },
        ),
        _ => sleep_push(sleep, event),
    }
}

/// Not optimal: the thread to explore next from `node`, with the threads `asleep` there.
fn next_thread(alg: Algorithm, node: &Node, asleep: ThreadSet, enabled: ThreadSet) -> Option<Tid> {
    match alg {
        Algorithm::None => enabled.minus(node.done()).first(),
        _ => node.backtrack().minus(node.done()).minus(asleep).first(),
    }
}

/// The steps of a wakeup-tree branch, down its leftmost leaf.
fn push_chain(schedule: &mut Vec<Step>, branch: &WuNode) {
    let mut b = Some(branch);
    while let Some(n) = b {
        schedule.push(Step::of(&n.event));
        b = n.children.first();
    }
}

/// Can the later event of a race run after `notdep`, from the node of the earlier one?
/// Not when its thread was blocked there on that very event and nothing in `notdep`
/// touches what it waits for: an operation's enabledness depends only on the bytes of its
/// footprint (`ops`), so it stays blocked (a wake that waits for a mutex held across the
/// signal that woke another thread, say). `notdep` holds the events of the later event's
/// thread before it, if any; then its thread was not blocked on it there.
fn reversible(enabled: ThreadSet, notdep: impl Iterator<Item = Event>, later: &Event) -> bool {
    if enabled.contains(later.tid) {
        return true;
    }
    let mut notdep = notdep.peekable();
    let l = Dependence::of(later);
    notdep.peek().is_some() && notdep.any(|x| x.tid == later.tid || Dependence::of(&x).with(&l))
}

/// Flanagan & Godefroid, Fig. 3: the threads enabled at the earlier event of `race`
/// whose branch there can reverse it: the later event's thread, or a thread with an
/// event between the two (before `end`) that happens before the later one. Empty: none
/// of them is enabled there.
pub(crate) fn classic_candidates(
    hb: &hb::Hb,
    events: &[Event],
    pending: &[Pending],
    enabled: ThreadSet,
    race: Race,
    end: usize,
    later_event: &Event,
) -> ThreadSet {
    let p = later_event.tid();
    let mut candidates = ThreadSet::EMPTY;
    if enabled.contains(p) {
        candidates.insert(p);
    }
    for (k, ev) in events.iter().enumerate().take(end).skip(race.earlier + 1) {
        let q = ev.tid();
        if enabled.contains(q) && hb.hb_thread_of(k, race.later, pending) {
            candidates.insert(q);
        }
    }
    candidates
}

/// `a == b`, field by field without a branch per field: a replayed prefix is mostly the
/// very records of the last execution.
pub(crate) fn identical(a: &Event, b: &Event) -> bool {
    let words = (a.addr ^ b.addr) | (a.arg ^ b.arg) | (a.value ^ b.value);
    let halves = (a.len ^ b.len)
        | (a.arg_len ^ b.arg_len)
        | (a.tid ^ b.tid)
        | (a.aux ^ b.aux)
        | (a.site ^ b.site)
        | (a.choice ^ b.choice)
        | (a.choices ^ b.choices);
    let bytes =
        (a.kind ^ b.kind) | (a.flags ^ b.flags) | (a.modes ^ b.modes) | (a.replaced ^ b.replaced);
    words | u64::from(halves) | u64::from(bytes) == 0
}

/// The number of events on a branch's leftmost path.
fn chain_len(b: &WuNode) -> usize {
    1 + b.children.first().map_or(0, chain_len)
}

fn asleep(sleep: &[Event]) -> ThreadSet {
    sleep.iter().fold(ThreadSet::EMPTY, |mut s, e| {
        s.insert(e.tid());
        s
    })
}

/// A data race of an execution: two memory accesses of different threads to overlapping
/// bytes, at least one a write and at least one not atomic, that race (they conflict and
/// nothing but their own conflict orders them: they could run one right after the
/// other). The earlier access, and the later one (executed or pending), each race of the
/// execution in the order of the later accesses. Every data race of a program is such a
/// race in some trace, and every algorithm explores every trace.
pub fn data_races(trace: &Trace) -> Vec<(usize, hb::Later)> {
    let scope = hb::Scope {
        from: 0,
        kill: false,
        with_pending: true,
        cut: false,
        reads_commute: true,
    };
    let (_, races) = hb::analyze(trace.events, trace.enabled, trace.pending, scope);
    use ops::memory::{access, atomic};
    (races.into_iter())
        .filter_map(|r| {
            let a = &trace.events[r.earlier];
            let b = match r.later {
                hb::Later::Event(i) => &trace.events[i],
                hb::Later::Pending(k) => &trace.pending[k].event,
            };
            (access(a) && access(b) && !(atomic(a) && atomic(b))).then_some((r.earlier, r.later))
        })
        .collect()
}
