//! `lhs.Compare(rhs)` (`typed/compare.go`): which paths were removed, modified or added.
//!
//! A leaf (scalar, atomic list/map, or a container empty on both sides) present on both
//! sides and unequal is *modified*; present on one side only, *removed* or *added*. A
//! container present on one side only is removed/added itself, as well as what is inside. A
//! key repeated in a list is compared as one leaf.

use std::collections::BTreeMap;

use super::{NO_TYPE, Part, check_depth, deduce, list_item_element, pick, scalar_error};
use crate::engine::ssa::order;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{ListView, MapView, Relationship, Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::TypedError;
use crate::value::{Map, Value};

mod alone;
mod comparer;
mod errors;
mod removal;

pub(super) use comparer::Comparer;
pub use removal::remove_items_compared;

/// `typed.Comparison`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    pub removed: Set,
    pub modified: Set,
    pub added: Set,
}

impl Comparison {
    /// `IsSame`.
    #[must_use]
    pub fn is_same(&self) -> bool {
        self.removed.is_empty() && self.modified.is_empty() && self.added.is_empty()
    }

    /// The comparison of `a` with `c` from `self` (of `a` with `b`) and `next` (of `b` with
    /// `c`), by membership alone: a path added then removed is neither, modified or added
    /// then removed is removed, added then modified is added. `None` where that cannot tell
    /// without the values (removed then added again, modified twice: maybe back as it was).
    #[must_use]
    pub fn then(&self, next: &Comparison) -> Option<Comparison> {
        if !self.removed.intersection(&next.added).is_empty()
            || !self.modified.intersection(&next.modified).is_empty()
        {
            return None;
        }
        Some(Comparison {
            removed: self.removed.union(&next.removed.difference(&self.added)),
            modified: self
                .modified
                .difference(&next.removed)
                .union(&next.modified.difference(&self.added)),
            added: self.added.difference(&next.removed).union(&next.added),
        })
    }

    /// `ExcludeFields`: drops `fields` and everything below them from all three sets.
    #[must_use]
    pub fn exclude_fields(self, fields: &Set) -> Comparison {
        if fields.is_empty() {
            return self;
        }
        Comparison {
            removed: self.removed.recursive_difference(fields),
            modified: self.modified.recursive_difference(fields),
            added: self.added.recursive_difference(fields),
        }
    }
}

/// `TypedValue.Compare`.
///
/// # Errors
/// When a value does not fit the schema.
pub fn compare(
    schema: &Schema,
    tr: TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<Comparison, TypedError> {
    compare_sides(schema, tr, (Some(lhs), Some(rhs)), None, true)
}

/// [`compare`] of two values that are the same but within `touched`: at and below its
/// members and along its children's routes (`rhs` is `lhs` less the paths of a
/// [`super::remove_items`] of `touched`, as prune leaves it). Only those parts are walked;
/// the same result as [`compare`] for valid values (the rest of both is equal, where
/// [`compare`] finds nothing either).
///
/// # Errors
/// As [`compare`].
pub fn compare_within(
    schema: &Schema,
    tr: TypeRef,
    lhs: &Value,
    rhs: &Value,
    touched: &Set,
) -> Result<Comparison, TypedError> {
    compare_sides(schema, tr, (Some(lhs), Some(rhs)), Some(touched), true)
}

/// [`compare`] of sides that may be missing, with [`Walker::alone`] or without it (the tests
/// compare the two).
pub(super) fn compare_sides(
    schema: &Schema,
    tr: TypeRef,
    (lhs, rhs): (Option<&Value>, Option<&Value>),
    touched: Option<&Set>,
    one_sided: bool,
) -> Result<Comparison, TypedError> {
    let mut w = Walker::new(schema, one_sided);
    let found = w.compare(lhs, rhs, tr, touched, 0);
    Comparer(w).finish(found)
}

/// What a comparison found at one node: for each of removed, modified and added, the paths
/// below it and whether the node itself is in the set.
pub(super) type Found = ([Set; 3], [bool; 3]);

const REMOVED: usize = 0;
const MODIFIED: usize = 1;
const ADDED: usize = 2;

/// What one node found: for each of removed, modified and added, the paths below it (members
/// and children, sorted once at the end) and whether the node itself is in the set.
#[derive(Default)]
pub(super) struct Node {
    members: [Vec<PathElement>; 3],
    children: [Vec<(PathElement, Set)>; 3],
    own: [bool; 3],
}

impl Node {
    pub(super) fn add_child(&mut self, pe: &PathElement, (sets, own): Found) {
        for (i, set) in sets.into_iter().enumerate() {
            if own[i] {
                self.members[i].push(pe.clone());
            }
            if !set.is_empty() {
                self.children[i].push((pe.clone(), set));
            }
        }
    }

    pub(super) fn finish(self) -> Found {
        let Node {
            members,
            children,
            own,
        } = self;
        let mut sets: [Set; 3] = Default::default();
        for (i, (members, children)) in members.into_iter().zip(children).enumerate() {
            sets[i] = Set::from_unsorted_parts(members, children);
        }
        (sets, own)
    }
}

struct Walker<'s> {
    schema: &'s Schema,
    errs: Vec<String>,
    /// The path of each error of `errs`, prefixed step by step as the walk goes back up
    /// (`ValidationErrors.WithLazyPrefix`); shorter than `errs` while the last have none.
    paths: Vec<String>,
    /// A value on one side alone is walked by [`Walker::alone`] (`false`: by the whole walk,
    /// which the tests compare it with).
    one_sided: bool,
    /// Whether [`Walker::alone`] may still split a long list between two cores (once a walk).
    fork: bool,
}

impl Walker<'_> {
    /// `within`: the paths where `lhs` and `rhs` may differ ([`compare_within`]; `None`:
    /// anywhere).
    fn compare(
        &mut self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        tr: TypeRef,
        within: Option<&Set>,
        depth: usize,
    ) -> Found {
        // A value on one side alone: removed or added whole, walked with one set per node.
        if self.one_sided && within.is_none() {
            match (lhs, rhs) {
                (Some(lhs), None) => {
                    let (removed, own) = self.alone(lhs, tr, depth);
                    return ([removed, Set::new(), Set::new()], [own, false, false]);
                }
                (None, Some(rhs)) => {
                    let (added, own) = self.alone(rhs, tr, depth);
                    return ([Set::new(), Set::new(), added], [false, false, own]);
                }
                _ => {}
            }
        }
        let mut node = Node::default();
        if let Err(e) = check_depth(depth) {
            self.errs.push(e);
            return node.finish();
        }
        if lhs.is_none() && rhs.is_none() {
            self.errs
                .push("at least one of lhs and rhs must be provided".to_owned());
            return node.finish();
        }
        let Some(r) = self.schema.resolve(tr) else {
            self.errs.push(NO_TYPE.to_owned());
            return node.finish();
        };
        // Equal values hold nothing removed, modified or added: not walked (most of an
        // object is the same from one request to the next). Within known differences, the
        // walk below passes over what is the same instead.
        if within.is_none()
            && let (Some(l), Some(r)) = (lhs, rhs)
            && l == r
        {
            return node.finish();
        }
        let al = deduce(&r, lhs);
        let ar = deduce(&r, rhs);
        let sides = (lhs, rhs, within);
        let in_leaf = if rhs.is_none() {
            self.handle(pick(&r, al), sides, depth, &mut node)
        } else if lhs.is_none() || al == ar {
            self.handle(pick(&r, ar), sides, depth, &mut node)
        } else {
            self.handle(pick(&r, al), sides, depth, &mut node);
            self.handle(pick(&r, ar), sides, depth, &mut node)
        };
        if !in_leaf {
            if lhs.is_none() {
                node.own[ADDED] = true;
            } else if rhs.is_none() {
                node.own[REMOVED] = true;
            }
        }
        node.finish()
    }

    /// Handles one part; whether it was a leaf.
    fn handle(
        &mut self,
        part: Result<Part<'_>, String>,
        (lhs, rhs, within): Sides<'_>,
        depth: usize,
        node: &mut Node,
    ) -> bool {
        match part {
            Err(e) => {
                self.errs.push(e);
                false
            }
            Ok(Part::Scalar(t)) => {
                let l = scalar_error(t, lhs, "lhs: ");
                let r = scalar_error(t, rhs, "rhs: ");
                if let (Some(l), Some(r)) = (l, r) {
                    self.errs.push(l);
                    self.errs.push(r);
                    return false;
                }
                leaf(node, lhs, rhs);
                true
            }
            Ok(Part::List(t)) => self.do_list(&t, (lhs, rhs, within), depth, node),
            Ok(Part::Map(t)) => self.do_map(&t, (lhs, rhs, within), depth, node),
        }
    }

    fn do_list(
        &mut self,
        t: &ListView<'_>,
        (lhs, rhs, within): Sides<'_>,
        depth: usize,
        node: &mut Node,
    ) -> bool {
        let l = lhs.and_then(Value::as_array).map(Vec::as_slice);
        let r = rhs.and_then(Value::as_array).map(Vec::as_slice);
        let empty = l.is_none_or(<[Value]>::is_empty) && r.is_none_or(<[Value]>::is_empty);
        if t.rel == Relationship::Atomic || empty {
            leaf(node, lhs, rhs);
            return true;
        }
        if l.is_none() && r.is_none() {
            return false;
        }
        let (l, r) = (l.unwrap_or_default(), r.unwrap_or_default());
        self.visit_list_items(t, (l, r, within), depth, node);
        false
    }

    fn visit_list_items(
        &mut self,
        t: &ListView<'_>,
        (lhs, rhs, within): (&[Value], &[Value], Option<&Set>),
        depth: usize,
        node: &mut Node,
    ) {
        // An item that lost a field of its key is another item now, maybe one the other side
        // holds too: such a list is compared whole.
        let within = within.filter(|w| !loses_key_field(w));
        let (mut all, lvals) = self.items(t, lhs);
        let (right, rvals) = self.items(t, rhs);
        all.extend(right.into_iter().filter(|pe| !lvals.contains_key(pe)));
        for pe in all {
            // An item the same on both sides holds nothing.
            let Some(within) = inside(within, &pe) else {
                continue;
            };
            let l = lvals.get(&pe).map_or(&[][..], Vec::as_slice);
            let r = rvals.get(&pe).map_or(&[][..], Vec::as_slice);
            match (l.len(), r.len()) {
                (0, 0) => return,
                (0 | 1, 0 | 1) => {
                    let (l, r) = (l.first().copied(), r.first().copied());
                    let n = self.errs.len();
                    let found = self.compare(l, r, t.elem, within, depth + 1);
                    self.under(n, &pe);
                    node.add_child(&pe, found);
                }
                (2.., 2..) => {
                    let same =
                        l.len() == r.len() && l.iter().zip(r).all(|(a, b)| order::equals(a, b));
                    if !same {
                        node.members[MODIFIED].push(pe);
                    }
                }
                (2.., _) => {
                    if let Some(first) = r.first() {
                        let n = self.errs.len();
                        let found = self.compare(None, Some(first), t.elem, None, depth + 1);
                        self.under(n, &pe);
                        node.add_child(&pe, found);
                    }
                    node.members[REMOVED].push(pe);
                }
                (_, _) => {
                    if let Some(first) = l.first() {
                        let n = self.errs.len();
                        let found = self.compare(Some(first), None, t.elem, None, depth + 1);
                        self.under(n, &pe);
                        node.add_child(&pe, found);
                    }
                    node.members[ADDED].push(pe);
                }
            }
        }
    }

    /// A list's items grouped by their element (each element in the order it first comes),
    /// an item that has none reported as the reference does.
    fn items<'v>(
        &mut self,
        t: &ListView<'_>,
        items: &'v [Value],
    ) -> (Vec<PathElement>, BTreeMap<PathElement, Vec<&'v Value>>) {
        let mut order: Vec<PathElement> = Vec::with_capacity(items.len());
        let mut by: BTreeMap<PathElement, Vec<&Value>> = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            match list_item_element(self.schema, t, item) {
                Err(e) => self.errs.push(format!("element {i}: {e}")),
                Ok(pe) => {
                    if let Some(vs) = by.get_mut(&pe) {
                        vs.push(item);
                    } else {
                        by.insert(pe.clone(), vec![item]);
                        order.push(pe);
                    }
                }
            }
        }
        (order, by)
    }

    fn do_map(
        &mut self,
        t: &MapView<'_>,
        (lhs, rhs, within): Sides<'_>,
        depth: usize,
        node: &mut Node,
    ) -> bool {
        let l = lhs.and_then(Value::as_object);
        let r = rhs.and_then(Value::as_object);
        let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
        if t.rel == Relationship::Atomic || empty {
            leaf(node, lhs, rhs);
            return true;
        }
        if l.is_none() && r.is_none() {
            return false;
        }
        for (k, lv) in l.into_iter().flatten() {
            let pe = PathElement::Field(k.clone());
            // A field the same on both sides holds nothing.
            let Some(within) = inside(within, &pe) else {
                continue;
            };
            let rv = r.and_then(|r| r.get(k));
            let n = self.errs.len();
            let found = self.compare(Some(lv), rv, t.field_type(k), within, depth + 1);
            self.under(n, &pe);
            node.add_child(&pe, found);
        }
        let added = |k: &str| l.is_none_or(|l| !l.contains_key(k));
        match within {
            None => {
                for (k, rv) in r.into_iter().flatten().filter(|(k, _)| added(k)) {
                    let pe = PathElement::Field(k.clone());
                    let n = self.errs.len();
                    let found = self.compare(None, Some(rv), t.field_type(k), None, depth + 1);
                    self.under(n, &pe);
                    node.add_child(&pe, found);
                }
            }
            // Only a field within the differences can be on one side alone (the node's
            // sets are sorted at the end: the order of the walk does not matter).
            Some(within) => {
                let routes = within.children().iter().map(|(pe, _)| pe);
                let routes = routes.filter(|pe| !within.has_member(pe));
                for k in within
                    .members()
                    .iter()
                    .chain(routes)
                    .filter_map(PathElement::as_field)
                {
                    if let Some(rv) = r.and_then(|r| r.get(k)).filter(|_| added(k)) {
                        let pe = PathElement::field(k);
                        let n = self.errs.len();
                        let found = self.compare(None, Some(rv), t.field_type(k), None, depth + 1);
                        self.under(n, &pe);
                        node.add_child(&pe, found);
                    }
                }
            }
        }
        false
    }
}

/// A node's sides and where they may differ ([`Walker::compare`]).
type Sides<'v> = (Option<&'v Value>, Option<&'v Value>, Option<&'v Set>);

/// Where the child `pe` of a node may differ, from where the node may (`within`): `None`
/// when it is the same on both sides; `Some(None)` anywhere in it.
fn inside<'s>(within: Option<&'s Set>, pe: &PathElement) -> Option<Option<&'s Set>> {
    match within {
        None => Some(None),
        Some(w) if w.has_member(pe) => Some(None),
        Some(w) => w.child(pe).map(Some),
    }
}

/// Whether a list's differences (`within`) reach a field of an item's key.
fn loses_key_field(within: &Set) -> bool {
    within.children().iter().any(|(pe, inside)| match pe {
        PathElement::Key(key) => key.iter().any(|(name, _)| {
            let field = PathElement::Field(name.clone());
            inside.has_member(&field) || inside.child(&field).is_some()
        }),
        _ => false,
    })
}

/// `doLeaf`: a leaf on one side only is removed or added; on both, modified when unequal.
fn leaf(node: &mut Node, lhs: Option<&Value>, rhs: Option<&Value>) {
    match (lhs, rhs) {
        (None, _) => node.own[ADDED] = true,
        (_, None) => node.own[REMOVED] = true,
        (Some(l), Some(r)) => {
            if !order::equals(r, l) {
                node.own[MODIFIED] = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::kubernetes;
    use crate::json;

    /// Composed comparisons are the comparison of the first object with the last, whenever
    /// membership can tell, over maps that come and go, empty and not, and values that change
    /// and change back; membership cannot tell exactly for a path removed and added again, or
    /// modified twice.
    #[test]
    fn comparisons_compose_by_membership() {
        let kube = kubernetes::embedded();
        let root = kube.root_for_gvk("v1", "ConfigMap").unwrap();
        let compare = |a: &Value, b: &Value| compare(&kube.schema, root, a, b).unwrap();
        let map = |state: usize| -> Option<Value> {
            match state {
                0 => None,
                _ => {
                    let mut m = Map::new();
                    for (i, k) in ["a", "b"].iter().enumerate() {
                        match (state - 1) / 3usize.pow(u32::try_from(i).unwrap()) % 3 {
                            1 => m.insert(*k, Value::from("1")),
                            2 => m.insert(*k, Value::from("2")),
                            _ => None,
                        };
                    }
                    Some(Value::Object(m))
                }
            }
        };
        let object = |state: usize| {
            let mut o = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}});
            if let Some(data) = map(state % 10) {
                o["data"] = data;
            }
            if let Some(labels) = map(state / 10 % 10) {
                o["metadata"]["labels"] = labels;
            }
            o
        };
        let (mut composed, mut unknown) = (0, 0);
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            usize::try_from(seed >> 33).unwrap() % 100
        };
        for _ in 0..3000 {
            let (a, b, c) = (object(next()), object(next()), object(next()));
            let (ab, bc) = (compare(&a, &b), compare(&b, &c));
            match ab.then(&bc) {
                Some(ac) => {
                    assert_eq!(ac, compare(&a, &c), "{a} {b} {c}");
                    composed += 1;
                }
                None => {
                    let again = !ab.removed.intersection(&bc.added).is_empty()
                        || !ab.modified.intersection(&bc.modified).is_empty();
                    assert!(again, "{a} {b} {c}");
                    unknown += 1;
                }
            }
        }
        assert!(composed > 1000 && unknown > 100, "{composed} {unknown}");
    }
}
