//! A value cut down to the branches that lead to some paths (each of those paths kept whole),
//! so that questions about only those paths (are they in the value's field set, did a
//! comparison find them changed) are asked of a small value instead of a big one.
//!
//! The walks read a path's membership and its comparison from the path's own value and from
//! the containers on the way to it, never from their other children: the cut keeps those
//! containers (map or struct, associative list: what a path can go through by name or key)
//! with only the children that lead somewhere. Anything else (a scalar, an atomic value, a
//! list whose items are found by position, a value the schema does not read) is kept whole.

use super::{Part, deduce, list_item_element, pick};
use crate::engine::MAX_DEPTH;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Relationship, Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::value::{Map, Str, Value};

/// `v` (of type `tr`) with only what leads to the paths of `want`, each kept whole.
#[must_use]
pub fn project(schema: &Schema, tr: TypeRef, v: &Value, want: &Set) -> Value {
    at(schema, tr, v, want, &[], 0)
}

/// [`project`] of a value `depth` levels down; `keys`: the fields of a list item that name
/// it, kept whole (the walks find the item by them).
fn at(schema: &Schema, tr: TypeRef, v: &Value, want: &Set, keys: &[Str], depth: usize) -> Value {
    let Some(r) = schema.resolve(tr) else {
        return v.clone();
    };
    if depth > MAX_DEPTH {
        return v.clone();
    }
    // What leads on from here: the child kept whole when it is a path of `want`, cut down
    // when it is on the way to one, dropped otherwise.
    let next = |pe: &PathElement, elem: TypeRef, child: &Value, keys: &[Str]| {
        if want.has(std::slice::from_ref(pe)) {
            Some(child.clone())
        } else {
            want.child(pe)
                .map(|below| at(schema, elem, child, below, keys, depth + 1))
        }
    };
    match (pick(&r, deduce(&r, Some(v))), v) {
        (Ok(Part::Map(m)), Value::Object(map)) if m.rel != Relationship::Atomic => {
            let mut out = Map::with_capacity(map.len());
            for (k, child) in map {
                // A field is looked for by its name (no path element made for it), and
                // typed only when the cut goes below it.
                let kept = if keys.contains(k) || want.has_field(k) {
                    Some(child.clone())
                } else {
                    want.field_child(k)
                        .map(|below| at(schema, m.field_type(k), child, below, &[], depth + 1))
                };
                if let Some(kept) = kept {
                    out.push_unique(k.clone(), kept);
                }
            }
            Value::Object(out)
        }
        (Ok(Part::List(l)), Value::Array(items)) if l.rel == Relationship::Associative => {
            let mut out = Vec::new();
            for item in items {
                // An item without a name is kept: the walks report it as they would.
                let kept = match list_item_element(schema, &l, item) {
                    Ok(pe) => next(&pe, l.elem, item, l.keys),
                    Err(_) => Some(item.clone()),
                };
                out.extend(kept);
            }
            Value::Array(out)
        }
        _ => v.clone(),
    }
}
