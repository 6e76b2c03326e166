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
pub fn remove_items_owned(schema: &Schema, tr: TypeRef, mut v: Value, set: &Set) -> Value {
    if remove_in_place(schema, tr, &mut v, set, 0) {
        v
    } else {
        Value::Null
    }
}

/// [`walk`] removing, in place: `false` where `walk` answers `None` (the caller then holds
/// a null, as `walk`'s callers do).
fn remove_in_place(schema: &Schema, tr: TypeRef, v: &mut Value, set: &Set, depth: usize) -> bool {
    if check_depth(depth).is_err() {
        return false;
    }
    let Some(r) = schema.resolve(tr) else {
        return false;
    };
    let Ok(part) = pick(&r, deduce(&r, Some(v))) else {
        return false;
    };
    match part {
        Part::Scalar(_) => true,
        Part::List(t) => {
            let Some(list) = v.as_array_mut() else {
                return false;
            };
            if list.is_empty() || t.rel == Relationship::Atomic {
                return false;
            }
            list.retain_mut(|item| {
                let pe = list_item_element(schema, &t, item).ok();
                if pe.as_ref().is_some_and(|pe| set.has_member(pe)) {
                    return false;
                }
                let prefix = pe
                    .as_ref()
                    .and_then(|pe| set.child(pe))
                    .filter(|s| !s.is_empty());
                if let Some(sub) = prefix
                    && !remove_in_place(schema, t.elem, item, sub, depth + 1)
                {
                    *item = Value::Null;
                }
                true
            });
            !list.is_empty()
        }
        Part::Map(t) => {
            let Some(m) = v.as_object_mut() else {
                return false;
            };
            if m.is_empty() || t.rel == Relationship::Atomic {
                return false;
            }
            m.retain(|k, val| {
                let pe = PathElement::Field(k.clone());
                if set.has_member(&pe) {
                    return false;
                }
                if let Some(sub) = set.child(&pe).filter(|s| !s.is_empty())
                    && !remove_in_place(schema, t.field_type(k), val, sub, depth + 1)
                {
                    *val = Value::Null;
                }
                true
            });
            !m.is_empty()
        }
    }
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
