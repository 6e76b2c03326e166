//! Field sets (`fieldpath/set.go`): a trie of path elements. A path is in the set when its
//! last element is a *member* of the node reached by the others; *children* are the routes
//! below. Both are kept sorted by [`PathElement`]'s order, which is also FieldsV1's.
//!
//! A node is shared (`Arc`): a copy of a set is a count, and an operation that leaves a
//! subtree as it was (a union or difference with nothing on the other side) hands the same
//! subtree on instead of copying it; a change copies only the nodes on its way
//! ([`Arc::make_mut`]). The empty set allocates nothing.

use std::fmt;
use std::sync::Arc;

use super::path::{Path, PathElement};

mod named;
mod sorted;

pub(crate) use sorted::Seek;
use sorted::{merge_sorted, zip_children};

/// A set of paths.
#[derive(Clone, Default)]
pub struct Set(Option<Arc<Node>>);

#[derive(Clone, Default, PartialEq, Eq)]
struct Node {
    members: Vec<PathElement>,
    children: Vec<(PathElement, Set)>,
}

impl PartialEq for Set {
    fn eq(&self, other: &Set) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || **a == **b,
            _ => {
                self.members().is_empty()
                    && other.members().is_empty()
                    && self.children().is_empty()
                    && other.children().is_empty()
            }
        }
    }
}

impl Eq for Set {}

impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Set")
            .field("members", &self.members())
            .field("children", &self.children())
            .finish()
    }
}

/// Sorts `members` and drops repeats, unless they are in strictly ascending order already (a
/// walk often meets them so): one pass tells that, where the sort and the dedup take two.
fn sort_members(members: &mut Vec<PathElement>) {
    if !members.is_sorted_by(|a, b| a < b) {
        members.sort_unstable();
        members.dedup();
    }
}

impl Set {
    #[must_use]
    pub fn new() -> Set {
        Set::default()
    }

    /// A set of these paths.
    #[must_use]
    pub fn from_paths<'a>(paths: impl IntoIterator<Item = &'a [PathElement]>) -> Set {
        let mut s = Set::new();
        for p in paths {
            s.insert(p);
        }
        s
    }

    /// A set of these paths, in any order: sorted first, so that every insertion appends
    /// (building from unsorted paths one by one costs a shift per insertion).
    #[must_use]
    pub fn from_unsorted_paths(mut paths: Vec<Path>) -> Set {
        paths.sort_unstable();
        paths.dedup();
        let mut s = Set::new();
        for p in &paths {
            s.insert(p);
        }
        s
    }

    /// The members of this node (paths of length one).
    #[must_use]
    pub fn members(&self) -> &[PathElement] {
        self.0.as_deref().map_or(&[], |n| &n.members)
    }

    /// The routes below this node.
    #[must_use]
    pub fn children(&self) -> &[(PathElement, Set)] {
        self.0.as_deref().map_or(&[], |n| &n.children)
    }

    /// This node, for a change: copied first when shared.
    fn node_mut(&mut self) -> &mut Node {
        Arc::make_mut(self.0.get_or_insert_with(Arc::default))
    }

    /// Whether both are the same node (one is the other's copy): equal without a look inside.
    fn same(&self, other: &Set) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    /// A node with no members and no children (emptier than [`Set::is_empty`], which also
    /// looks below).
    fn is_bare(&self) -> bool {
        self.members().is_empty() && self.children().is_empty()
    }

    /// A set from members and children in any order, children of one element given more than
    /// once united: sorted and deduplicated, then [`Set::from_parts`].
    pub(super) fn from_unsorted_parts(
        mut members: Vec<PathElement>,
        mut children: Vec<(PathElement, Set)>,
    ) -> Set {
        sort_members(&mut members);
        // Often in order already, as members are.
        if children.is_sorted_by(|a, b| a.0 < b.0) {
            return Set::from_parts(members, children);
        }
        children.sort_by(|a, b| a.0.cmp(&b.0));
        let mut merged: Vec<(PathElement, Set)> = Vec::with_capacity(children.len());
        for (pe, s) in children {
            match merged.last_mut() {
                Some((last, set)) if *last == pe => *set = set.union(&s),
                _ => merged.push((pe, s)),
            }
        }
        Set::from_parts(members, merged)
    }

    pub(super) fn from_parts(members: Vec<PathElement>, children: Vec<(PathElement, Set)>) -> Set {
        if members.is_empty() && children.is_empty() {
            return Set::new();
        }
        Set(Some(Arc::new(Node { members, children })))
    }

    /// Adds a path; the empty path (the whole object) is never tracked.
    pub fn insert(&mut self, path: &[PathElement]) {
        let Some((last, route)) = path.split_last() else {
            return;
        };
        let mut node = self;
        for pe in route {
            node = node.descend(pe);
        }
        node.insert_member(last);
    }

    pub(super) fn insert_member(&mut self, pe: &PathElement) {
        if self.members().last().is_none_or(|last| last < pe) {
            self.node_mut().members.push(pe.clone());
        } else if let Err(at) = self.members().binary_search(pe) {
            self.node_mut().members.insert(at, pe.clone());
        }
    }

    /// The child node for `pe`, created empty when missing.
    pub(super) fn descend(&mut self, pe: &PathElement) -> &mut Set {
        let children = &mut self.node_mut().children;
        match children.last() {
            Some((last, _)) if last == pe => {
                let at = children.len() - 1;
                return &mut children[at].1;
            }
            Some((last, _)) if last > pe => {}
            _ => {
                children.push((pe.clone(), Set::new()));
                let at = children.len() - 1;
                return &mut children[at].1;
            }
        }
        let at = match children.binary_search_by(|(c, _)| c.cmp(pe)) {
            Ok(at) => at,
            Err(at) => {
                children.insert(at, (pe.clone(), Set::new()));
                at
            }
        };
        &mut children[at].1
    }

    /// The child node for `pe`.
    #[must_use]
    pub fn child(&self, pe: &PathElement) -> Option<&Set> {
        self.child_by(|c| c.cmp(pe))
    }

    /// [`Set::child`] of the field `name`, found by the name alone.
    #[must_use]
    pub fn field_child(&self, name: &str) -> Option<&Set> {
        self.child_by(|c| c.cmp_field(name))
    }

    /// The child whose element `order` finds equal (it orders elements as they are sorted).
    #[inline]
    fn child_by(&self, order: impl Fn(&PathElement) -> std::cmp::Ordering) -> Option<&Set> {
        let children = self.children();
        children
            .binary_search_by(|(c, _)| order(c))
            .ok()
            .map(|at| &children[at].1)
    }

    /// [`Set::has_member`] of the field `name`, found by the name alone.
    #[must_use]
    pub fn has_field(&self, name: &str) -> bool {
        self.members()
            .binary_search_by(|m| m.cmp_field(name))
            .is_ok()
    }

    /// Is `pe` a member of this node?
    #[must_use]
    pub fn has_member(&self, pe: &PathElement) -> bool {
        self.members().binary_search(pe).is_ok()
    }

    /// `Set.Has`.
    #[must_use]
    pub fn has(&self, path: &[PathElement]) -> bool {
        let Some((last, route)) = path.split_last() else {
            return false;
        };
        let mut node = self;
        for pe in route {
            match node.child(pe) {
                Some(c) => node = c,
                None => return false,
            }
        }
        node.has_member(last)
    }

    /// `Set.Empty`: no member anywhere.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.members().is_empty() && self.children().iter().all(|(_, c)| c.is_empty())
    }

    /// `Set.Size`: how many paths.
    #[must_use]
    pub fn size(&self) -> usize {
        self.members().len() + self.children().iter().map(|(_, c)| c.size()).sum::<usize>()
    }

    /// `Set.WithPrefix`: the paths below `pe`, without it.
    #[must_use]
    pub fn with_prefix(&self, pe: &PathElement) -> Set {
        self.child(pe).cloned().unwrap_or_default()
    }

    /// Every path, members of a node before its children (`Set.Iterate`).
    #[must_use]
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect(&mut Vec::new(), &mut out);
        out
    }

    /// Every path as [`super::path::path_string`] prints it (`.spec.replicas`), in the order
    /// of [`Set::paths`]: written from one buffer, not from a copy of each path.
    #[must_use]
    pub fn path_strings(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.write_paths(&mut String::new(), &mut out);
        out
    }

    fn write_paths(&self, prefix: &mut String, out: &mut Vec<String>) {
        for m in self.members() {
            let mut p = String::with_capacity(prefix.len() + 32);
            p.push_str(prefix);
            m.write_to(&mut p);
            out.push(p);
        }
        for (pe, c) in self.children() {
            let at = prefix.len();
            pe.write_to(prefix);
            c.write_paths(prefix, out);
            prefix.truncate(at);
        }
    }

    fn collect(&self, prefix: &mut Path, out: &mut Vec<Path>) {
        for m in self.members() {
            let mut p = prefix.clone();
            p.push(m.clone());
            out.push(p);
        }
        for (pe, c) in self.children() {
            prefix.push(pe.clone());
            c.collect(prefix, out);
            prefix.pop();
        }
    }

    /// `self` again when `members` and `children` are what it holds (nothing was taken out or
    /// added: the node is shared, not rebuilt), else a new node.
    fn rebuilt(&self, members: Vec<PathElement>, children: Vec<(PathElement, Set)>) -> Set {
        let unchanged = members.len() == self.members().len()
            && children.len() == self.children().len()
            && children
                .iter()
                .zip(self.children())
                .all(|((_, a), (_, b))| a.same(b));
        if unchanged {
            self.clone()
        } else {
            Set::from_parts(members, children)
        }
    }

    /// `Set.Union`.
    #[must_use]
    pub fn union(&self, other: &Set) -> Set {
        if self.same(other) || other.is_bare() {
            return self.clone();
        }
        if self.is_bare() {
            return other.clone();
        }
        let members = merge_sorted(self.members(), other.members());
        let children = zip_children(self.children(), other.children(), |a, b| match (a, b) {
            (Some(a), Some(b)) => Some(a.union(b)),
            (Some(x), None) | (None, Some(x)) => Some(x.clone()),
            (None, None) => None,
        });
        if members.len() == other.members().len() && children.len() == other.children().len() {
            other.rebuilt(members, children)
        } else {
            self.rebuilt(members, children)
        }
    }

    /// The members of `self` that are (`found`) or are not members of `other`, in order: one
    /// walk of `other`'s sorted members.
    fn members_found_in(&self, other: &Set, found: bool) -> Vec<PathElement> {
        let mut theirs = Seek::new(other.members());
        self.members()
            .iter()
            .filter(|m| theirs.find(m).is_some() == found)
            .cloned()
            .collect()
    }

    /// `Set.Intersection`.
    #[must_use]
    pub fn intersection(&self, other: &Set) -> Set {
        if self.same(other) {
            return self.clone();
        }
        if self.is_bare() || other.is_bare() {
            return Set::new();
        }
        let members = self.members_found_in(other, true);
        let children = zip_children(self.children(), other.children(), |a, b| match (a, b) {
            (Some(a), Some(b)) => Some(a.intersection(b)).filter(|s| !s.is_empty()),
            _ => None,
        });
        self.rebuilt(members, children)
    }

    /// `Set.Difference`: paths of `self` not in `other` (a member of `other` does not remove
    /// what lies below it).
    #[must_use]
    pub fn difference(&self, other: &Set) -> Set {
        if self.same(other) {
            return Set::new();
        }
        if self.is_bare() || other.is_bare() {
            return self.clone();
        }
        let members = self.members_found_in(other, false);
        let children = zip_children(self.children(), other.children(), |a, b| match (a, b) {
            (Some(a), Some(b)) => Some(a.difference(b)).filter(|s| !s.is_empty()),
            (Some(a), None) => Some(a.clone()),
            _ => None,
        });
        self.rebuilt(members, children)
    }

    /// `Set.RecursiveDifference`: as [`Set::difference`], and a member of `other` also removes
    /// everything below it.
    #[must_use]
    pub fn recursive_difference(&self, other: &Set) -> Set {
        if self.same(other) {
            return Set::new();
        }
        if self.is_bare() || other.is_bare() {
            return self.clone();
        }
        let members = self.members_found_in(other, false);
        let mut their_members = Seek::new(other.members());
        let mut their_children = Seek::new(other.children());
        let children = self
            .children()
            .iter()
            .filter(|(pe, _)| their_members.find(pe).is_none())
            .filter_map(|(pe, c)| match their_children.find(pe).map(|(_, o)| o) {
                Some(o) => {
                    let d = c.recursive_difference(o);
                    (!d.is_empty()).then(|| (pe.clone(), d))
                }
                None => Some((pe.clone(), c.clone())),
            })
            .collect();
        self.rebuilt(members, children)
    }

    /// Whether every path of `self` is in one of `others`: what `self − others[0] − …` being
    /// empty says ([`Set::difference`] drops members only), without building the differences.
    #[must_use]
    pub fn is_covered_by(&self, others: &[&Set]) -> bool {
        if others.iter().any(|o| self.same(o)) {
            return true;
        }
        self.members()
            .iter()
            .all(|m| others.iter().any(|o| o.has_member(m)))
            && self.children().iter().all(|(pe, c)| {
                let below: Vec<&Set> = others.iter().filter_map(|o| o.child(pe)).collect();
                c.is_covered_by(&below)
            })
    }

    /// `Set.Leaves`: the members that have nothing below them.
    #[must_use]
    pub fn leaves(&self) -> Set {
        Set::from_parts(
            self.members()
                .iter()
                .filter(|m| self.child(m).is_none())
                .cloned()
                .collect(),
            self.children()
                .iter()
                .map(|(pe, c)| (pe.clone(), c.leaves()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(names: &[&str]) -> Path {
        names.iter().map(|n| PathElement::field(*n)).collect()
    }

    #[test]
    fn set_algebra() {
        let a = Set::from_paths([p(&["a"]).as_slice(), p(&["b", "c"]).as_slice()]);
        let b = Set::from_paths([p(&["b"]).as_slice(), p(&["b", "c"]).as_slice()]);
        assert_eq!(a.union(&b).size(), 3);
        assert_eq!(a.intersection(&b).paths(), vec![p(&["b", "c"])]);
        assert_eq!(a.difference(&b).paths(), vec![p(&["a"])]);
        assert_eq!(a.recursive_difference(&b).paths(), vec![p(&["a"])]);
        assert!(a.has(&p(&["b", "c"])));
        assert!(!a.has(&p(&["b"])));
    }

    /// The paths' texts are the printed paths, in the order of the paths: members before
    /// children, a member that also has children, keys, values and indexes.
    #[test]
    fn path_strings_print_the_paths_in_order() {
        let f = PathElement::field;
        let key = |n: &str| PathElement::key(vec![("name".into(), crate::value::Value::from(n))]);
        let paths: Vec<Path> = vec![
            vec![f("spec"), f("replicas")],
            vec![f("spec"), f("containers"), key("web")],
            vec![f("spec"), f("containers"), key("web"), f("image")],
            vec![
                f("spec"),
                f("containers"),
                key("a.b[c]"),
                f("args"),
                PathElement::Index(2),
            ],
            vec![f("spec"), f("finalizers"), PathElement::Value("x".into())],
            vec![f("metadata")],
            vec![f("metadata"), f("labels"), f("app")],
        ];
        let set = Set::from_unsorted_paths(paths);
        let printed: Vec<String> = set
            .paths()
            .iter()
            .map(|q| super::super::path::path_string(q))
            .collect();
        assert_eq!(printed.len(), 7);
        assert_eq!(set.path_strings(), printed);
    }
}
