//! The walk down the union of the sets, which it is never built: at each node, the members
//! and then the children of any set, in order. The managers' sets and the changed ones each
//! hold a part of them in the same order, so each is read by a cursor that only moves forward
//! (one comparison per element and set), and the least element at the cursors comes next.

use std::cmp::Ordering;

use super::{ADDED, At, MODIFIED, REMOVED, Walk, find, fork};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{ListView, Schema};
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

/// A set's slot ([`At::slot`]), its members or children at a node, and a cursor in them.
pub(super) type Head<'l, T> = (usize, &'l [T], usize);

/// The least element at the cursors of `heads` (each a set's slot, its list and a cursor in
/// it; `None`: every list is done), and on `ties` the heads that have it. One comparison per
/// list.
fn least<'l, T>(
    heads: &[Head<'l, T>],
    key: fn(&T) -> &PathElement,
    ties: &mut Vec<usize>,
) -> Option<&'l PathElement> {
    let base = ties.len();
    let mut least: Option<&'l PathElement> = None;
    for (h, &(_, list, at)) in heads.iter().enumerate() {
        let Some(x) = list.get(at).map(key) else {
            continue;
        };
        match least.map(|l| x.cmp(l)) {
            None | Some(Ordering::Less) => {
                least = Some(x);
                ties.truncate(base);
                ties.push(h);
            }
            Some(Ordering::Equal) => ties.push(h),
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
    /// The list at the node walked, as the schema types it.
    fn list_here(&self) -> Option<(&'a Schema, ListView<'a>)> {
        let (schema, root) = self.types;
        Some((
            schema,
            crate::engine::ssa::typed::list_at(schema, root, &self.path)?,
        ))
    }

    /// The objects are read without `metadata.managedFields`.
    fn managed_fields(&self, pe: &PathElement) -> bool {
        self.path.len() == 1
            && self.path[0].as_field() == Some("metadata")
            && pe.as_field() == Some("managedFields")
    }

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
        let (nb, k) = (self.before.len(), at.sets.len());
        // The sets with members here, each with its cursor; the owners' buffers: reused
        // from node to node.
        let mut heads = std::mem::take(&mut self.heads);
        heads.clear();
        heads.extend((0..at.slots()).filter_map(|j| {
            let members = at.slot(j)?.members();
            (!members.is_empty()).then_some((j, members, 0))
        }));
        let (mut ob, mut oa) = std::mem::take(&mut self.owners);
        let mut ties = std::mem::take(&mut self.ties);
        loop {
            // The least member at the cursors, and the sets that have it.
            ties.clear();
            let Some(m) = least(&heads, element, &mut ties) else {
                break;
            };
            let skip = self.managed_fields(m);
            let (before, after) = if skip {
                (None, None)
            } else {
                let list = || self.list_here();
                (live.child_at_named(m, list), result.child_at_named(m, list))
            };
            ob.clear();
            oa.clear();
            let mut is = [false; 3];
            for &h in &ties {
                let (j, _, at) = &mut heads[h];
                *at += 1;
                let j = *j;
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
        self.heads = heads;
        self.ties = ties;
        self.owners = (ob, oa);
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
        // The sets with children here, each with its cursor (on a stack: the walk below has
        // its own), and per set a cursor in its members.
        let level = self.routes.len();
        let from = |list: &[(PathElement, Set)]| {
            between
                .from
                .map_or(0, |f| list.partition_point(|(x, _)| x < f))
        };
        self.routes.extend((0..n).filter_map(|j| {
            let children = at.slot(j)?.children();
            (!children.is_empty()).then(|| (j, children, from(children)))
        }));
        let base = self.cursors.len();
        self.cursors.resize(base + n, 0);
        if let Some(from) = between.from {
            for j in 0..n {
                if let Some(s) = at.slot(j) {
                    self.cursors[base + j] = s.members().partition_point(|x| x < from);
                }
            }
        }
        loop {
            // The sets that have the next child, on the stack of ties.
            let tied = self.ties.len();
            let Some(pe) = least(&self.routes[level..], route, &mut self.ties) else {
                break;
            };
            if between.to.is_some_and(|to| pe >= to) {
                self.ties.truncate(tied);
                break;
            }
            let skip = self.managed_fields(pe);
            let mut sets = vec![None; k];
            let (mut owned, mut changed, mut inside) = (false, [None; 3], [false; 3]);
            for &h in &self.ties[tied..] {
                let (j, list, at) = &mut self.routes[level + h];
                let sub = list.get(*at).map(|(_, c)| c);
                *at += 1;
                if *j < k {
                    sets[*j] = sub;
                } else {
                    changed[*j - k] = sub;
                }
            }
            self.ties.truncate(tied);
            // Whether each set has the child as a member too.
            for j in 0..n {
                let member = at.slot(j).is_some_and(|s| {
                    seek(s.members(), &mut self.cursors[base + j], pe, element).is_some()
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
                let list = || self.list_here();
                (
                    live.child_at_named(pe, list),
                    result.child_at_named(pe, list),
                )
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
        self.routes.truncate(level);
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
