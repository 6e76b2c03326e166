//! The walk down the union of the sets, which it is never built: at each node, the members
//! and then the children of any set, in order. The managers' sets and the changed ones each
//! hold a part of them in the same order, so each is read by a cursor that only moves forward
//! (one comparison per element and set), and the least element at the cursors comes next.

use std::cmp::Ordering;

use super::{ADDED, At, MODIFIED, REMOVED, Walk, find, fork};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::set::Set;

/// The element of `list` equal to `pe`, looked for from `*at` on, which moves past the
/// elements before `pe`: asked for ascending elements, one pass over the list.
fn seek<'l, T>(
    list: &'l [T],
    at: &mut usize,
    pe: &PathElement,
    key: fn(&T) -> &PathElement,
) -> Option<&'l T> {
    while let Some(x) = list.get(*at) {
        match key(x).cmp(pe) {
            Ordering::Less => *at += 1,
            Ordering::Equal => return Some(x),
            Ordering::Greater => return None,
        }
    }
    None
}

fn element(pe: &PathElement) -> &PathElement {
    pe
}

fn route(child: &(PathElement, Set)) -> &PathElement {
    &child.0
}

/// The slots whose list holds the least element at its cursor (pushed on `ties`), and that
/// element (`None`: every list is done). One comparison per list.
fn least<'l, T: 'l>(
    lists: impl Iterator<Item = (usize, &'l [T], usize)>,
    key: fn(&T) -> &PathElement,
    ties: &mut Vec<usize>,
) -> Option<&'l PathElement> {
    let base = ties.len();
    let mut least: Option<&PathElement> = None;
    for (j, list, at) in lists {
        let Some(x) = list.get(at).map(key) else {
            continue;
        };
        match least.map(|l| x.cmp(l)) {
            None | Some(Ordering::Less) => {
                least = Some(x);
                ties.truncate(base);
                ties.push(j);
            }
            Some(Ordering::Equal) => ties.push(j),
            Some(Ordering::Greater) => {}
        }
    }
    least
}

/// The children of a node a walk takes: from the first at or after `from` to the last
/// before `to` (`None`: from the first, to the last).
#[derive(Clone, Copy, Default)]
pub(super) struct Between<'a> {
    pub from: Option<&'a PathElement>,
    pub to: Option<&'a PathElement>,
}

impl<'a> At<'a> {
    /// The node's sets in one order: the managers' (before, then after), then the added,
    /// removed and modified paths.
    pub(super) fn slot(&self, j: usize) -> Option<&'a Set> {
        match self.sets.get(j) {
            Some(s) => *s,
            None => self.changed.get(j - self.sets.len()).copied().flatten(),
        }
    }

    pub(super) fn slots(&self) -> usize {
        self.sets.len() + self.changed.len()
    }
}

impl<'a> Walk<'a> {
    pub(super) fn visit(&mut self, at: &At<'a>) {
        if self.path.len() > crate::engine::MAX_DEPTH {
            return;
        }
        let (mut live, mut result) = (find::Finder::new(at.live), find::Finder::new(at.result));
        self.members(at, &mut live, &mut result);
        match self.fork.then(|| fork::middle(at)).flatten() {
            Some(middle) => self.fork(at, middle, &mut live, &mut result),
            None => self.children(at, Between::default(), &mut live, &mut result),
        }
    }

    /// Each member of the node: who owns it before and after, whether it changed, and its
    /// field of the plan if any ([`Walk::decide`]).
    fn members(&mut self, at: &At<'a>, live: &mut find::Finder<'a>, result: &mut find::Finder<'a>) {
        let (n, nb, k) = (at.slots(), self.before.len(), at.sets.len());
        let base = self.cursors.len();
        self.cursors.resize(base + n, 0);
        // The owners' buffers, reused from member to member.
        let (mut ob, mut oa) = std::mem::take(&mut self.owners);
        let mut ties = std::mem::take(&mut self.ties);
        loop {
            ties.clear();
            let heads =
                (0..n).filter_map(|j| Some((j, at.slot(j)?.members(), self.cursors[base + j])));
            let Some(m) = least(heads, element, &mut ties) else {
                break;
            };
            let skip = self.managed_fields(m);
            let before = if skip { None } else { live.child_at(m) };
            let after = if skip { None } else { result.child_at(m) };
            ob.clear();
            oa.clear();
            let mut is = [false; 3];
            for &j in &ties {
                self.cursors[base + j] += 1;
                if j < nb {
                    ob.push(self.before[j]);
                } else if j < k {
                    oa.push(self.after[j - nb]);
                } else {
                    is[j - k] = true;
                }
            }
            self.decide(at, m, (&ob, &oa, is), (before, after));
        }
        self.ties = ties;
        self.owners = (ob, oa);
        self.cursors.truncate(base);
    }

    /// The walk below the children of `at`'s node `between` two elements, in order.
    pub(super) fn children(
        &mut self,
        at: &At<'a>,
        between: Between<'a>,
        live: &mut find::Finder<'a>,
        result: &mut find::Finder<'a>,
    ) {
        let (n, k) = (at.slots(), at.sets.len());
        // Per set, a cursor in its members and one in its children.
        let base = self.cursors.len();
        self.cursors.resize(base + 2 * n, 0);
        if let Some(from) = between.from {
            for j in 0..n {
                if let Some(s) = at.slot(j) {
                    self.cursors[base + 2 * j] = s.members().partition_point(|x| x < from);
                    self.cursors[base + 2 * j + 1] =
                        s.children().partition_point(|(x, _)| x < from);
                }
            }
        }
        loop {
            // The slots that have the next child, on the stack of ties (the walk below uses
            // it too).
            let tied = self.ties.len();
            let heads = (0..n)
                .filter_map(|j| Some((j, at.slot(j)?.children(), self.cursors[base + 2 * j + 1])));
            let Some(pe) = least(heads, route, &mut self.ties) else {
                break;
            };
            if between.to.is_some_and(|to| pe >= to) {
                self.ties.truncate(tied);
                break;
            }
            let skip = self.managed_fields(pe);
            let mut sets = vec![None; k];
            let (mut owned, mut changed, mut inside) = (false, [None; 3], [false; 3]);
            for &j in &self.ties[tied..] {
                let c = &mut self.cursors[base + 2 * j + 1];
                let sub = at
                    .slot(j)
                    .and_then(|s| s.children().get(*c))
                    .map(|(_, c)| c);
                *c += 1;
                if j < k {
                    sets[j] = sub;
                } else {
                    changed[j - k] = sub;
                }
            }
            self.ties.truncate(tied);
            // Whether each set has the child as a member too.
            for j in 0..n {
                let member = at.slot(j).is_some_and(|s| {
                    seek(s.members(), &mut self.cursors[base + 2 * j], pe, element).is_some()
                });
                if j < k {
                    owned |= member;
                } else {
                    inside[j - k] = member;
                }
            }
            let (l, r) = if skip {
                (None, None)
            } else {
                (live.child_at(pe), result.child_at(pe))
            };
            let next = At {
                changed,
                sets,
                live: l.map(|(_, v)| v),
                result: r.map(|(_, v)| v),
                under: [at.under[0] || inside[ADDED], at.under[1] || inside[REMOVED]],
                said: [ADDED, REMOVED, MODIFIED].map(|i| at.said[i] || (owned && inside[i])),
            };
            self.path.push(pe.clone());
            for (places, found) in self.places.iter_mut().zip([l, r]) {
                places.push(found.map_or(u32::MAX, |(i, _)| i));
            }
            self.visit(&next);
            self.path.pop();
            for places in &mut self.places {
                places.pop();
            }
        }
        self.cursors.truncate(base);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    /// Asked for ascending elements, the cursor finds what a search finds, across kinds
    /// (fields, keys, values, indexes) and past elements the list lacks.
    #[test]
    fn a_cursor_finds_what_a_search_finds() {
        let key = |n: i64| PathElement::key(vec![("port".into(), Value::from(n))]);
        let mut all = vec![
            PathElement::field("a"),
            PathElement::field("b"),
            PathElement::field("c"),
            key(1),
            key(2),
            key(30),
            PathElement::Value(Value::from("x")),
            PathElement::Index(0),
            PathElement::Index(7),
        ];
        all.sort();
        for keep in [
            0b1_0101_0101_u32,
            0b0_1010_1010,
            0,
            0b1_1111_1111,
            0b1_0000_0001,
        ] {
            let list: Vec<PathElement> = (0..all.len())
                .filter(|i| keep & (1 << i) != 0)
                .map(|i| all[i].clone())
                .collect();
            let mut at = 0;
            for pe in &all {
                let found = seek(&list, &mut at, pe, element).is_some();
                assert_eq!(found, list.binary_search(pe).is_ok(), "{pe} in {keep:b}");
            }
        }
    }
}
