//! Which fields `-o text` folds into one line (and `-o markdown` into one row): a subtree
//! whose fields are all kept, or all removed, alike (the same action, rule, owners before and
//! after). A migrated object moves the owner of every field, and its second apply prunes each
//! container's defaults: a line per field buries the few that change among hundreds of
//! thousands that only change owners. A field that is added, set or taken in a conflict always
//! has its own line: its values are the point.

use crate::engine::ssa::path::PathElement;
use crate::session::ssa::{Action, Field};
use std::sync::Arc;

/// The fewest fields a fold holds: a few fields alike read as well on their own lines.
pub(super) const FOLD_AT: usize = 4;

/// How `-o text` shows one field (`-o markdown` alike, a row for a line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// Its own line.
    Own,
    /// The line of the subtree at its path's first `depth` elements, holding `count` fields
    /// alike (this one, the first of them in the plan's order, among them).
    Fold { depth: usize, count: usize },
    /// Its own line, then one for the `count` fields below it, all alike (and not like it):
    /// as the field at index `like` of the plan says.
    Above { count: usize, like: usize },
    /// Inside a fold written at another field.
    Inside,
}

/// Whether two fields say the same (a fold shows one of them for all). Rules and owner lists
/// are mostly shared between the fields that say the same: the same share is equal without a
/// look inside.
fn alike(a: &Field, b: &Field) -> bool {
    fn same<T: PartialEq + ?Sized>(x: &Arc<T>, y: &Arc<T>) -> bool {
        Arc::ptr_eq(x, y) || x == y
    }
    a.action == b.action
        && foldable(a)
        && same(&a.rule, &b.rule)
        && same(&a.owners_before, &b.owners_before)
        && same(&a.owners_after, &b.owners_after)
        && a.hidden_from_diff == b.hidden_from_diff
}

fn foldable(f: &Field) -> bool {
    matches!(f.action, Action::Keep | Action::Remove)
}

/// The fields of a subtree, at its root or below it: how many, one of them (`like`, an index
/// in the plan), whether all are alike.
#[derive(Clone, Copy)]
struct Part {
    count: usize,
    like: usize,
    uniform: bool,
}

impl Part {
    const NONE: Part = Part {
        count: 0,
        like: 0,
        uniform: true,
    };

    fn one(fields: &[Field], i: usize) -> Part {
        Part {
            count: 1,
            like: i,
            uniform: foldable(&fields[i]),
        }
    }

    /// `self` and `other` together.
    fn with(self, other: Part, fields: &[Field]) -> Part {
        match (self.count, other.count) {
            (0, _) => other,
            (_, 0) => self,
            _ => Part {
                count: self.count + other.count,
                like: self.like,
                uniform: self.uniform
                    && other.uniform
                    && alike(&fields[self.like], &fields[other.like]),
            },
        }
    }
}

/// A prefix of some field's path, `depth` long.
struct Node {
    depth: usize,
    /// Its last element (none for the root).
    elem: Option<PathElement>,
    /// The fields one step below it, in order; and how far the children have matched them.
    members: Vec<usize>,
    matched: usize,
    /// The prefixes one step below it that have fields below them, in order.
    children: Vec<usize>,
    /// The field at it: one of its parent's members.
    own: Option<usize>,
    /// Once closed: the fields below it, and with its own.
    below: Part,
    whole: Part,
    /// Its first field in the plan's order.
    earliest: usize,
}

impl Node {
    fn new(depth: usize, elem: Option<PathElement>) -> Node {
        Node {
            depth,
            elem,
            members: Vec::new(),
            matched: 0,
            children: Vec::new(),
            own: None,
            below: Part::NONE,
            whole: Part::NONE,
            earliest: usize::MAX,
        }
    }
}

/// The tree of the fields' paths, read in an order where each prefix's fields one step below
/// it come together, sorted, before anything deeper under it, and prefixes come in the order
/// of a walk down the tree: the plan's own order (the explanation walks so), or the paths
/// sorted by parent, then last element. `None` when `order` is not such an order. `owns`:
/// per field, whether it is a node's own (it has fields below it).
fn tree(fields: &[Field], order: &[usize], owns: &mut [bool]) -> Option<Vec<Node>> {
    let mut nodes = vec![Node::new(0, None)];
    // The prefixes of the parent of the field read last, from the root.
    let mut open: Vec<usize> = vec![0];
    let mut parent: &[PathElement] = &[];
    for &i in order {
        let path = fields[i].at.as_slice();
        let (elem, up) = path.split_last()?;
        let common = up.iter().zip(parent).take_while(|(a, b)| a == b).count();
        while open.len() > common + 1 {
            close(&mut nodes, &mut open, fields, owns);
        }
        for depth in common + 1..=up.len() {
            let p = open[open.len() - 1];
            let e = &up[depth - 1];
            // Children come sorted, each once.
            if let Some(&before) = nodes[p].children.last()
                && nodes[before].elem.as_ref().is_none_or(|b| b >= e)
            {
                return None;
            }
            let mut child = Node::new(depth, Some(e.clone()));
            // The field at it, if any, is among the parent's members (sorted, like the
            // children): matched by a cursor.
            let node = &mut nodes[p];
            while let Some(&m) = node.members.get(node.matched) {
                match fields[m].at.last().map(|x| x.cmp(e)) {
                    Some(std::cmp::Ordering::Less) => node.matched += 1,
                    Some(std::cmp::Ordering::Equal) => {
                        child.own = Some(m);
                        owns[m] = true;
                        node.matched += 1;
                        break;
                    }
                    _ => break,
                }
            }
            nodes.push(child);
            let c = nodes.len() - 1;
            nodes[p].children.push(c);
            open.push(c);
        }
        parent = up;
        let node = &mut nodes[open[open.len() - 1]];
        // A node's members all come before its children, sorted.
        if !node.children.is_empty()
            || node
                .members
                .last()
                .is_some_and(|&m| fields[m].at.last().is_none_or(|x| x >= elem))
        {
            return None;
        }
        node.members.push(i);
    }
    while !open.is_empty() {
        close(&mut nodes, &mut open, fields, owns);
    }
    Some(nodes)
}

/// The top open node is complete: its fields counted and compared.
fn close(nodes: &mut [Node], open: &mut Vec<usize>, fields: &[Field], owns: &[bool]) {
    let Some(n) = open.pop() else { return };
    let mut below = Part::NONE;
    let mut earliest = nodes[n].own.unwrap_or(usize::MAX);
    for &m in &nodes[n].members {
        earliest = earliest.min(m);
        if !owns[m] {
            below = below.with(Part::one(fields, m), fields);
        }
    }
    for &c in &nodes[n].children {
        below = below.with(nodes[c].whole, fields);
        earliest = earliest.min(nodes[c].earliest);
    }
    let node = &mut nodes[n];
    node.below = below;
    node.whole = match node.own {
        Some(f) => Part::one(fields, f).with(below, fields),
        None => below,
    };
    node.earliest = earliest;
}

/// How each field of `fields` is shown (in their order).
pub(super) fn lines(fields: &[Field]) -> Vec<Line> {
    let mut lines = vec![Line::Own; fields.len()];
    let walked: Vec<usize> = (0..fields.len()).collect();
    let mut owns = vec![false; fields.len()];
    let nodes = match tree(fields, &walked, &mut owns) {
        Some(nodes) => nodes,
        None => {
            // Not in a walk's order: sorted into one (by parent, then last element).
            let mut order = walked;
            order.sort_by(|&a, &b| {
                let (pa, pb) = (fields[a].at.split_last(), fields[b].at.split_last());
                match (pa, pb) {
                    (Some((ea, ua)), Some((eb, ub))) => ua.cmp(ub).then_with(|| ea.cmp(eb)),
                    _ => pa.is_some().cmp(&pb.is_some()),
                }
            });
            owns.fill(false);
            match tree(fields, &order, &mut owns) {
                Some(nodes) => nodes,
                None => return lines,
            }
        }
    };
    // The fields of a node: its own, and all below it.
    let inside = |n: usize, own: bool| -> Vec<usize> {
        let mut out = Vec::new();
        let mut todo = vec![(n, own)];
        while let Some((n, own)) = todo.pop() {
            let node = &nodes[n];
            if own {
                out.extend(node.own);
            }
            out.extend(node.members.iter().filter(|&&m| !owns[m]));
            todo.extend(node.children.iter().map(|&c| (c, true)));
        }
        out
    };
    // From the root down, the first node that folds: its whole subtree alike, or all below
    // its own field alike.
    let mut todo: Vec<usize> = nodes[0].children.clone();
    // The root's own members (fields one step below it) are never folded.
    while let Some(n) = todo.pop() {
        let node = &nodes[n];
        if node.whole.uniform && node.whole.count >= FOLD_AT {
            for f in inside(n, true) {
                lines[f] = Line::Inside;
            }
            lines[node.earliest] = Line::Fold {
                depth: node.depth,
                count: node.whole.count,
            };
        } else if let Some(own) = node.own
            && node.below.uniform
            && node.below.count >= FOLD_AT
        {
            for f in inside(n, false) {
                lines[f] = Line::Inside;
            }
            lines[own] = Line::Above {
                count: node.below.count,
                like: node.below.like,
            };
        } else {
            todo.extend(node.children.iter().rev());
        }
    }
    lines
}

/// How many lines (rows) `lines` are written on: fewer than the fields when some fold.
pub(super) fn written(lines: &[Line]) -> usize {
    lines
        .iter()
        .map(|l| match l {
            Line::Inside => 0,
            Line::Own | Line::Fold { .. } => 1,
            Line::Above { .. } => 2,
        })
        .sum()
}

/// The path of a fold: the first `depth` elements of a field's.
pub(super) fn fold_path(f: &Field, depth: usize) -> &[PathElement] {
    &f.at[..depth.min(f.at.len())]
}

#[cfg(test)]
#[path = "fold_tests.rs"]
mod tests;
