//! Wakeup trees (Optimal-DPOR, Abdulla et al. POPL'14 §6) and the sequence operations
//! the DPOR algorithms share: initials and weak initials of a sequence of events.
//!
//! A sequence `v` is an execution fragment that continues some prefix `E`; its events are
//! the ones recorded when they ran, so dependence between them is decided by the same
//! `dependent` relation as everywhere else.

use cdpor_sched::ops::Dependence;
use cdpor_sched::{Event, ThreadSet, Tid};

/// The dependence of each event of `v`, worked out once: a sequence is compared with
/// every sleeping thread and with the branches of a wakeup tree.
pub fn dependences(v: &[Event]) -> Vec<Dependence> {
    v.iter().map(Dependence::of).collect()
}

/// Index of thread `t`'s first event in `v` (of dependences `d`), if it is an initial of
/// `v`: no earlier event of `v` conflicts with it, so it can be moved to the front.
fn initial_at(v: &[Event], d: &[Dependence], t: Tid) -> Option<usize> {
    let j = v.iter().position(|e| e.tid() == t)?;
    d[..j].iter().all(|x| !x.with(&d[j])).then_some(j)
}

/// `I[E](v)`: the threads that can start an execution equivalent to `E.v`.
pub fn initials(v: &[Event]) -> ThreadSet {
    initials_of(v, &dependences(v))
}

/// Is `e` independent of every event of a sequence of dependences `d`?
fn independent_of_all(d: &[Dependence], e: &Event) -> bool {
    let c = Dependence::of(e);
    d.iter().all(|x| !x.with(&c))
}

/// `initials` of `v`, of dependences `d`.
pub fn initials_of(v: &[Event], d: &[Dependence]) -> ThreadSet {
    let mut out = ThreadSet::EMPTY;
    let mut seen = ThreadSet::EMPTY;
    for (j, e) in v.iter().enumerate() {
        let t = e.tid();
        if seen.contains(t) {
            continue;
        }
        seen.insert(t);
        if d[..j].iter().all(|x| !x.with(&d[j])) {
            out.insert(t);
        }
    }
    out
}

/// Is the thread whose next event (after `E`) is `next` a weak initial of `v`: an initial
/// of `v`, or absent from `v` with `next` independent of all of it?
pub fn is_weak_initial(next: &Event, v: &[Event]) -> bool {
    is_weak_initial_of(next, v, &dependences(v))
}

/// `is_weak_initial` for `v` of dependences `d`.
pub fn is_weak_initial_of(next: &Event, v: &[Event], d: &[Dependence]) -> bool {
    let t = next.tid();
    if v.iter().any(|e| e.tid() == t) {
        initial_at(v, d, t).is_some()
    } else {
        independent_of_all(d, next)
    }
}

/// A node of a wakeup tree: the event taken, and the subtrees after it, leftmost first.
#[derive(Clone, Debug)]
pub struct WuNode {
    pub event: Event,
    pub children: Vec<WuNode>,
}

/// The branches of a wakeup tree at one prefix, leftmost first. The branch being explored
/// is not kept here: it is handed down to the child prefix.
#[derive(Clone, Debug, Default)]
pub struct WakeupTree {
    pub branches: Vec<WuNode>,
}

fn chain(v: &[Event]) -> WuNode {
    let mut node = WuNode {
        event: v[v.len() - 1],
        children: Vec::new(),
    };
    for e in v[..v.len() - 1].iter().rev() {
        node = WuNode {
            event: *e,
            children: vec![node],
        };
    }
    node
}

impl WakeupTree {
    pub fn is_empty(&self) -> bool {
        self.branches.is_empty()
    }

    /// Makes sure some leaf extends to an execution that contains `v`: follow the leftmost
    /// compatible node at each level; stop at a leaf (it already covers `v`) or when `v`
    /// is used up; otherwise add the rest of `v` as a new rightmost branch there. A node
    /// is compatible when its thread's first event in `v` can go first and takes the same
    /// alternative (what follows may depend on it), or when it is independent of all of
    /// `v`.
    pub fn insert(&mut self, v: Vec<Event>) {
        let d = dependences(&v);
        self.insert_of(v, d);
    }

    /// `insert` of `v`, of dependences `d`.
    pub fn insert_of(&mut self, mut v: Vec<Event>, mut d: Vec<Dependence>) {
        let mut level = &mut self.branches;
        let mut at_root = true;
        loop {
            if v.is_empty() || (!at_root && level.is_empty()) {
                return;
            }
            let mut next = None;
            for (idx, child) in level.iter().enumerate() {
                let t = child.event.tid();
                if v.iter().any(|e| e.tid() == t) {
                    let same = |&j: &usize| v[j].choice == child.event.choice;
                    if let Some(j) = initial_at(&v, &d, t).filter(same) {
                        next = Some((idx, Some(j)));
                        break;
                    }
                } else if independent_of_all(&d, &child.event) {
                    next = Some((idx, None));
                    break;
                }
            }
            match next {
                Some((idx, j)) => {
                    if let Some(j) = j {
                        v.remove(j);
                        d.remove(j);
                    }
                    level = &mut level[idx].children;
                    at_root = false;
                }
                None => {
                    level.push(chain(&v));
                    return;
                }
            }
        }
    }

    /// Removes and returns the leftmost branch.
    pub fn take_leftmost(&mut self) -> Option<WuNode> {
        (!self.branches.is_empty()).then(|| self.branches.remove(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cdpor_sched::Kind;

    fn w(t: Tid, a: u64) -> Event {
        Event::mem(t, Kind::Write, a, 4)
    }
    fn r(t: Tid, a: u64) -> Event {
        Event::mem(t, Kind::Read, a, 4)
    }

    #[test]
    fn initials_skip_threads_whose_first_event_depends_on_an_earlier_one() {
        // x: T1 writes, then T2 reads it; T3 touches y.
        let v = [w(1, 0), r(2, 0), w(3, 8)];
        let i = initials(&v);
        assert!(i.contains(1) && !i.contains(2) && i.contains(3));
    }

    #[test]
    fn weak_initials_include_absent_independent_threads() {
        let v = [w(1, 0), r(2, 0)];
        assert!(is_weak_initial(&r(4, 16), &v));
        assert!(
            !is_weak_initial(&r(4, 0), &v),
            "T4's read of x conflicts with T1's write"
        );
        assert!(!is_weak_initial(&r(2, 0), &v));
        assert!(is_weak_initial(&w(1, 0), &v));
    }

    #[test]
    fn insert_follows_compatible_branches_and_stops_at_leaves() {
        let mut t = WakeupTree::default();
        t.insert(vec![r(1, 0), w(2, 8)]);
        assert_eq!(t.branches.len(), 1);
        // [T2 writes y, T1 reads x] is equivalent to the existing leaf: nothing to add.
        t.insert(vec![w(2, 8), r(1, 0)]);
        assert_eq!(t.branches.len(), 1);
        assert_eq!(t.branches[0].children.len(), 1);
        // A sequence starting with a write of x by T3: not compatible with T1's read of x.
        t.insert(vec![w(3, 0)]);
        assert_eq!(t.branches.len(), 2);
        // T1 reads x then T3 writes x: compatible with the first branch down to T1's read;
        // below it, the leaf T2:w(y) is independent of T3:w(x) and a leaf, so it covers it.
        t.insert(vec![r(1, 0), w(3, 0)]);
        assert_eq!(t.branches.len(), 2);
        assert_eq!(t.take_leftmost().unwrap().event, r(1, 0));
    }
}
