//! The set a value has after `RemoveItems`, read without building that value: what prune asks
//! of the object it builds between its steps, `ensure(ToFieldSet(RemoveItems(v, removed)))`
//! (named fields as members), given `ensure(ToFieldSet(v))`.
//!
//! Both walks are local: below a node, the removal and the set depend only on the node's value,
//! its type and the part of `removed` below it. So only what the removal walks (the nodes on the
//! way to a path of `removed`) is looked at; every subtree it copies as it was keeps its set from
//! `v`'s, the same nodes (comparing the two sets afterwards answers there at once). A removed
//! member simply goes; a walked node is read as [`mod@super::toset`] reads what [`mod@super::remove`] leaves of it.
//!
//! `None` when the answer would need the value itself: the value or its result does not fit the
//! schema (the set walk would fail), the removal empties a list item (a null item) or touches
//! a key field of an item it keeps (the item's name would change), a walked list repeats a key,
//! or the depth limit is near. The caller then builds the value and its set.

use super::{Part, check_depth, deduce, list_item_element, pick, to_field_set};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{ListView, Relationship, Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::value::{Map, Value};

/// `ensure(ToFieldSet(RemoveItems(v, removed)))`, `v_set` being `ensure(ToFieldSet(v))`;
/// `None` when this cannot say without building the value (see the module).
#[must_use]
pub fn field_set_after_remove(
    schema: &Schema,
    tr: TypeRef,
    v: &Value,
    removed: &Set,
    v_set: &Set,
) -> Option<Set> {
    match node(schema, tr, v, removed, v_set, 0)? {
        After::Gone => null_set(schema, tr),
        After::Kept(set, _) => Some(set),
    }
}

/// What the removal leaves of a node it walks.
enum After {
    /// Nothing (`RemoveItems` answers no value there: the parent holds a null).
    Gone,
    /// A value with this set (named fields as members), and whether the value itself is owned
    /// (a scalar or an atomic container).
    Kept(Set, bool),
}

/// The set of a null of type `tr`, named fields as members.
fn null_set(schema: &Schema, tr: TypeRef) -> Option<Set> {
    let set = to_field_set(schema, tr, &Value::Null).ok()?;
    Some(set.into_named_fields_as_members(schema, tr))
}

/// One node the removal walks: `removed` is what goes below it, `v_set` the set `v` has.
fn node(
    schema: &Schema,
    tr: TypeRef,
    v: &Value,
    removed: &Set,
    v_set: &Set,
    depth: usize,
) -> Option<After> {
    // One level spare: the set walk reads a null one level down.
    check_depth(depth + 1).ok()?;
    let r = schema.resolve(tr)?;
    let empty = Set::new();
    match pick(&r, deduce(&r, Some(v))).ok()? {
        Part::Scalar(_) => Some(After::Kept(Set::new(), true)),
        Part::List(t) => {
            let Some(list) = v.as_array() else {
                return Some(After::Gone);
            };
            if list.is_empty() || t.rel == Relationship::Atomic {
                return Some(After::Gone);
            }
            let mut pes = Vec::with_capacity(list.len());
            for item in list {
                pes.push(list_item_element(schema, &t, item).ok()?);
            }
            let mut sorted: Vec<&PathElement> = pes.iter().collect();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return None;
            }
            let mut members = Vec::with_capacity(list.len());
            let mut children = Vec::new();
            for (item, pe) in list.iter().zip(pes) {
                if removed.has_member(&pe) {
                    continue;
                }
                let item_set = v_set.child(&pe).unwrap_or(&empty);
                let set = match removed.child(&pe).filter(|s| !s.is_empty()) {
                    None => item_set.clone(),
                    Some(sub) => {
                        if !keeps_name(schema, &t, item, &pe, sub) {
                            return None;
                        }
                        match node(schema, t.elem, item, sub, item_set, depth + 1)? {
                            After::Gone => return None,
                            After::Kept(set, _) => set,
                        }
                    }
                };
                if !set.is_empty() {
                    children.push((pe.clone(), set));
                }
                members.push(pe);
            }
            if members.is_empty() {
                return Some(After::Gone);
            }
            Some(After::Kept(
                Set::from_unsorted_parts(members, children),
                false,
            ))
        }
        Part::Map(t) => {
            let Some(m) = v.as_object() else {
                return Some(After::Gone);
            };
            if m.is_empty() || t.rel == Relationship::Atomic {
                return Some(After::Gone);
            }
            let mut members = Vec::new();
            let mut children = Vec::new();
            let mut kept = false;
            for (k, val) in m {
                let pe = PathElement::Field(k.clone());
                if removed.has_member(&pe) {
                    continue;
                }
                kept = true;
                let field_set = v_set.child(&pe).unwrap_or(&empty);
                let (set, member) = match removed.child(&pe).filter(|s| !s.is_empty()) {
                    // As it was: its set and its membership (named fields included) are `v`'s.
                    None => (field_set.clone(), v_set.has_member(&pe)),
                    Some(sub) => {
                        let field = t.field(k);
                        let ty = field.map_or(t.map.elem, |f| f.ty);
                        let declared = field.is_some();
                        let (set, owned) = match node(schema, ty, val, sub, field_set, depth + 1)? {
                            After::Gone => (null_set(schema, ty)?, true),
                            After::Kept(set, leaf) => (set, leaf || !declared),
                        };
                        let member = owned || (declared && !set.is_empty());
                        (set, member)
                    }
                };
                if member {
                    members.push(pe.clone());
                }
                if !set.is_empty() {
                    children.push((pe, set));
                }
            }
            if !kept {
                return Some(After::Gone);
            }
            Some(After::Kept(
                Set::from_unsorted_parts(members, children),
                false,
            ))
        }
    }
}

/// Whether the item keeps its name once `removed` (what goes below it) is taken: a key field
/// taken away names the item by the schema's default, which may be the value it had (a port's
/// `protocol`). A key field walked into (not a scalar) counts as a change.
fn keeps_name(
    schema: &Schema,
    list: &ListView<'_>,
    item: &Value,
    pe: &PathElement,
    removed: &Set,
) -> bool {
    let PathElement::Key(fields) = pe else {
        return true;
    };
    let Some(m) = item.as_object() else {
        return false;
    };
    let mut keys = Map::new();
    for name in list.keys {
        let f = PathElement::Field(name.clone());
        if removed.child(&f).is_some_and(|s| !s.is_empty()) {
            return false;
        }
        if let Some(v) = m.get(name)
            && !removed.has_member(&f)
        {
            keys.insert(name.clone(), v.clone());
        }
    }
    let touched = fields
        .iter()
        .any(|(name, _)| removed.has_member(&PathElement::Field(name.clone())));
    !touched
        || list_item_element(schema, list, &Value::Object(keys)).is_ok_and(|after| after == *pe)
}

#[cfg(test)]
mod tests;
