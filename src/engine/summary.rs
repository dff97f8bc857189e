//! What a graph has below each of its nodes: for every node, the set of labels on the
//! nodes it reaches (itself included). Nodes of one strongly connected component reach
//! the same nodes, so the sets are worked out per component, each the union of its own
//! labels and its successors' sets, in the order Tarjan's algorithm completes the
//! components (successors first): one pass over the graph, whatever the number of
//! nodes asked about. (Stateful exploration asks it about every state an execution ended
//! at, once per round of its fixpoint; a search per state was quadratic.)

/// A set of labels `0..width*64`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels(Vec<u64>);

impl Labels {
    fn with_width(words: usize) -> Labels {
        Labels(vec![0; words])
    }

    pub fn insert(&mut self, l: u32) {
        let (w, b) = (l as usize / 64, l % 64);
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << b;
    }

    pub fn contains(&self, l: u32) -> bool {
        let (w, b) = (l as usize / 64, l % 64);
        self.0.get(w).is_some_and(|x| x & (1 << b) != 0)
    }

    fn union_with(&mut self, other: &Labels) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (self.0.iter().enumerate()).flat_map(|(w, &x)| {
            (0..64)
                .filter(move |b| x & (1 << b) != 0)
                .map(move |b| (w * 64 + b) as u32)
        })
    }
}

/// The sets below each node of a graph of `n` nodes, by component.
pub struct Below {
    component: Vec<u32>,
    sets: Vec<Labels>,
}

impl Below {
    /// `succ(i)`: the nodes `i` has an edge to; `own(i)`: its labels (below `labels`).
    pub fn of<'a, S, O>(n: usize, labels: usize, succ: S, own: O) -> Below
    where
        S: Fn(usize) -> &'a [u32],
        O: Fn(usize) -> &'a [u32],
    {
        const UNSEEN: u32 = u32::MAX;
        let words = labels.div_ceil(64);
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut component = vec![UNSEEN; n];
        let mut sets: Vec<Labels> = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        // The depth-first search's own stack: a node and the next of its edges to follow.
        let mut calls: Vec<(u32, usize)> = Vec::new();
        let mut next = 0u32;
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            calls.push((root as u32, 0));
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root as u32);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut k)) = calls.last_mut() {
                let vs = v as usize;
                let edges = succ(vs);
                if let Some(&w) = edges.get(*k) {
                    *k += 1;
                    let ws = w as usize;
                    if index[ws] == UNSEEN {
                        index[ws] = next;
                        low[ws] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[ws] = true;
                        calls.push((w, 0));
                    } else if on_stack[ws] {
                        low[vs] = low[vs].min(index[ws]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    low[u as usize] = low[u as usize].min(low[vs]);
                }
                if low[vs] == index[vs] {
                    // A component is complete: every component it leads to already is.
                    let c = sets.len() as u32;
                    let mut members = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        component[w as usize] = c;
                        members.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let mut set = Labels::with_width(words);
                    for &m in &members {
                        for &l in own(m as usize) {
                            set.insert(l);
                        }
                        for &w in succ(m as usize) {
                            let d = component[w as usize];
                            if d != c {
                                set.union_with(&sets[d as usize]);
                            }
                        }
                    }
                    sets.push(set);
                }
            }
        }
        Below { component, sets }
    }

    /// The labels of every node `i` reaches.
    pub fn at(&self, i: usize) -> &Labels {
        &self.sets[self.component[i] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_shares_what_is_below_it() {
        // 0 -> 1 <-> 2 -> 3; 4 alone.
        let succ: Vec<Vec<u32>> = vec![vec![1], vec![2], vec![1, 3], vec![], vec![]];
        let own: Vec<Vec<u32>> = vec![vec![0], vec![1], vec![2], vec![70], vec![5]];
        let b = Below::of(5, 71, |i| &succ[i], |i| &own[i]);
        let at = |i: usize| b.at(i).iter().collect::<Vec<_>>();
        assert_eq!(at(0), [0, 1, 2, 70]);
        assert_eq!(at(1), [1, 2, 70]);
        assert_eq!(at(2), [1, 2, 70]);
        assert_eq!(at(3), [70]);
        assert_eq!(at(4), [5]);
        assert!(b.at(1).contains(70) && !b.at(1).contains(0));
    }
}
