//! `RemoveItems` and `ExtractItems` (`typed/remove.go`): drop the paths of a set from a value
//! (prune), or keep only them (what a manager owns).
//!
//! A list item or map key named by a member of the set goes (or stays) whole; a route into it
//! recurses. Atomic and empty containers are leaves. An absent result is `null`.

use super::{Part, check_depth, deduce, list_item_element, pick};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Relationship, Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::value::{Map, Value};

/// `TypedValue.RemoveItems`.
#[must_use]
pub fn remove_items(schema: &Schema, tr: TypeRef, v: &Value, set: &Set) -> Value {
    walk(schema, tr, v, set, false, 0).unwrap_or(Value::Null)
}

/// [`remove_items`] of a value the caller gives away: what stays is moved, not copied, and
/// only the nodes on the way to a path of `set` are rebuilt. The same result.
#[must_use]
pub fn remove_items_owned(schema: &Schema, tr: TypeRef, v: Value, set: &Set) -> Value {
    remove_watched(schema, tr, v, set, &mut ()).0
}

/// [`remove_items_owned`], with `watch` told what the walk removes and keeps, node by node
/// (with what it gathered at the root; `None` where the result is `null`).
pub(super) fn remove_watched<W: Watch>(
    schema: &Schema,
    tr: TypeRef,
    mut v: Value,
    set: &Set,
    watch: &mut W,
) -> (Value, Option<W::Node>) {
    match remove_in_place(schema, tr, &mut v, set, 0, watch) {
        Some(node) => (v, Some(node)),
        None => (Value::Null, None),
    }
}

/// What a removal in place tells as it goes, beside removing: the comparison of the value
/// before with the value after is gathered by the removal's own walk
/// ([`super::compare::remove_items_compared`]). `()` is told nothing.
pub(super) trait Watch {
    /// Whether it is told anything (a walk for `()` is the plain removal).
    const TOLD: bool;
    /// What it gathers at one node.
    type Node: Default;
    /// `v`, of type `tr`, at `pe` below `node`, goes whole.
    fn removed(
        &mut self,
        node: &mut Self::Node,
        pe: &PathElement,
        v: &Value,
        tr: TypeRef,
        depth: usize,
    );
    /// The child at `pe` below `node` was walked into and stays, as `child` gathered.
    fn kept(&mut self, node: &mut Self::Node, pe: &PathElement, child: Self::Node);
    /// What was gathered cannot tell: a child emptied (it becomes `null`), a list whose items
    /// cannot all be named or whose removal names the same item twice.
    fn lost(&mut self);
    /// Whether a list whose removal is `set` is told of as a whole ([`Watch::whole`]) rather
    /// than item by item.
    fn whole_list(&mut self, set: &Set) -> bool;
    /// The node `before`, of type `tr`, is `after` now (told of as a whole).
    fn whole(&mut self, before: &Value, after: &Value, tr: TypeRef, depth: usize) -> Self::Node;
}

impl Watch for () {
    const TOLD: bool = false;
    type Node = ();
    fn removed(&mut self, (): &mut (), _: &PathElement, _: &Value, _: TypeRef, _: usize) {}
    fn kept(&mut self, (): &mut (), _: &PathElement, (): ()) {}
    fn lost(&mut self) {}
    fn whole_list(&mut self, _: &Set) -> bool {
        false
    }
    fn whole(&mut self, _: &Value, _: &Value, _: TypeRef, _: usize) {}
}

/// [`walk`] removing, in place: `None` where `walk` answers `None` (the caller then holds a
/// null, as `walk`'s callers do), else what `watch` gathered at the node.
fn remove_in_place<W: Watch>(
    schema: &Schema,
    tr: TypeRef,
    v: &mut Value,
    set: &Set,
    depth: usize,
    watch: &mut W,
) -> Option<W::Node> {
    check_depth(depth).ok()?;
    let r = schema.resolve(tr)?;
    let part = pick(&r, deduce(&r, Some(v))).ok()?;
    let mut node = W::Node::default();
    match part {
        Part::Scalar(_) => {}
        Part::List(t) => {
            let list = v.as_array_mut()?;
            if list.is_empty() || t.rel == Relationship::Atomic {
                return None;
            }
            if W::TOLD && watch.whole_list(set) {
                let before = list.clone();
                remove_in_place(schema, tr, v, set, depth, &mut ())?;
                return Some(watch.whole(&Value::Array(before), v, tr, depth));
            }
            // The elements of the items the removal reaches, told apart (only when told).
            let mut reached: Vec<PathElement> = Vec::new();
            list.retain_mut(|item| {
                let pe = list_item_element(schema, &t, item).ok();
                let Some(pe) = pe else {
                    watch.lost();
                    return true;
                };
                let member = set.has_member(&pe);
                let prefix = set.child(&pe).filter(|s| !s.is_empty());
                if W::TOLD && (member || prefix.is_some()) {
                    reached.push(pe.clone());
                }
                if member {
                    watch.removed(&mut node, &pe, item, t.elem, depth + 1);
                    return false;
                }
                if let Some(sub) = prefix {
                    match remove_in_place(schema, t.elem, item, sub, depth + 1, watch) {
                        Some(child) => watch.kept(&mut node, &pe, child),
                        None => {
                            *item = Value::Null;
                            watch.lost();
                        }
                    }
                }
                true
            });
            // An item reached twice: sorted, the repeats are neighbours.
            reached.sort_unstable();
            if reached.windows(2).any(|w| w[0] == w[1]) {
                watch.lost();
            }
            if list.is_empty() {
                return None;
            }
        }
        Part::Map(t) => {
            let m = v.as_object_mut()?;
            if m.is_empty() || t.rel == Relationship::Atomic {
                return None;
            }
            m.retain(|k, val| {
                let pe = PathElement::Field(k.clone());
                if set.has_member(&pe) {
                    watch.removed(&mut node, &pe, val, t.field_type(k), depth + 1);
                    return false;
                }
                if let Some(sub) = set.child(&pe).filter(|s| !s.is_empty()) {
                    match remove_in_place(schema, t.field_type(k), val, sub, depth + 1, watch) {
                        Some(child) => watch.kept(&mut node, &pe, child),
                        None => {
                            *val = Value::Null;
                            watch.lost();
                        }
                    }
                }
                true
            });
            if m.is_empty() {
                return None;
            }
        }
    }
    Some(node)
}

/// `TypedValue.ExtractItems` (without key fields appended).
#[must_use]
pub fn extract_items(schema: &Schema, tr: TypeRef, v: &Value, set: &Set) -> Value {
    walk(schema, tr, v, set, true, 0).unwrap_or(Value::Null)
}

/// `ExtractItems(set, WithAppendKeyFields())`: as [`extract_items`], with the key fields of
/// every keyed item on the way to a path of `set` that the value holds (so that the extracted
/// items can be told apart and applied).
#[must_use]
pub fn extract_items_with_keys(schema: &Schema, tr: TypeRef, v: &Value, set: &Set) -> Value {
    let Ok(present) = super::to_field_set(schema, tr, v) else {
        return extract_items(schema, tr, v, set);
    };
    let mut keys: Vec<Vec<PathElement>> = Vec::new();
    for path in set.paths() {
        if !present.has(&path) {
            continue;
        }
        for (i, pe) in path.iter().enumerate() {
            if let PathElement::Key(fields) = pe {
                for (name, _) in fields.iter() {
                    let mut p = path[..=i].to_vec();
                    p.push(PathElement::Field(name.clone()));
                    keys.push(p);
                }
            }
        }
    }
    let with_keys = set.union(&Set::from_unsorted_paths(keys));
    extract_items(schema, tr, v, &with_keys)
}

fn walk(
    schema: &Schema,
    tr: TypeRef,
    v: &Value,
    set: &Set,
    extract: bool,
    depth: usize,
) -> Option<Value> {
    if check_depth(depth).is_err() {
        return None;
    }
    let r = schema.resolve(tr)?;
    match pick(&r, deduce(&r, Some(v))).ok()? {
        Part::Scalar(_) => Some(v.clone()),
        Part::List(t) => {
            let list = v.as_array()?;
            if list.is_empty() || t.rel == Relationship::Atomic {
                return extract.then(|| v.clone());
            }
            let mut items = Vec::new();
            for item in list {
                let pe = list_item_element(schema, &t, item).ok();
                let exact = pe.as_ref().is_some_and(|pe| set.has_member(pe));
                let prefix = pe
                    .as_ref()
                    .and_then(|pe| set.child(pe))
                    .filter(|s| !s.is_empty());
                let recurse = |item: &Value| match prefix {
                    Some(sub) => {
                        walk(schema, t.elem, item, sub, extract, depth + 1).unwrap_or(Value::Null)
                    }
                    None => item.clone(),
                };
                if extract {
                    if exact || prefix.is_some() {
                        items.push(recurse(item));
                    }
                } else if !exact {
                    items.push(recurse(item));
                }
            }
            (!items.is_empty()).then_some(Value::Array(items))
        }
        Part::Map(t) => {
            let m = v.as_object()?;
            if m.is_empty() || t.rel == Relationship::Atomic {
                return extract.then(|| v.clone());
            }
            let mut out = Map::new();
            for (k, val) in m {
                let pe = PathElement::Field(k.clone());
                let ty = t.field_type(k);
                if set.has_member(&pe) {
                    if extract {
                        let inner = walk(schema, ty, val, set, extract, depth + 1);
                        out.insert(k.clone(), inner.unwrap_or(Value::Null));
                    }
                    continue;
                }
                match set.child(&pe).filter(|s| !s.is_empty()) {
                    Some(sub) => {
                        let inner = walk(schema, ty, val, sub, extract, depth + 1);
                        out.insert(k.clone(), inner.unwrap_or(Value::Null));
                    }
                    None if extract => {}
                    None => {
                        out.insert(k.clone(), val.clone());
                    }
                }
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
    }
}
