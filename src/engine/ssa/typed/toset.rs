//! `ToFieldSet` (`typed/tofieldset.go`): the paths an applier of a value owns.
//!
//! | value | owned |
//! | --- | --- |
//! | scalar | the field |
//! | atomic list/map/struct | the field, nothing below |
//! | associative list item | the item (`k:`/`v:`) and its fields; a repeated key only as the item |
//! | map key, or a struct field whose value is `null` or `{}` | the key/field itself |
//! | struct field with content | only what is inside |

use super::{Part, check_depth, deduce, list_item_element, pick};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Relationship, Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::TypedError;
use crate::value::Value;

/// `TypedValue.ToFieldSet`.
///
/// # Errors
/// When the value does not fit the schema.
pub fn to_field_set(schema: &Schema, tr: TypeRef, v: &Value) -> Result<Set, TypedError> {
    let mut w = Walker {
        schema,
        errs: Vec::new(),
    };
    let (set, _) = w.node(v, tr, 0);
    if w.errs.is_empty() {
        Ok(set)
    } else {
        Err(TypedError(w.errs))
    }
}

struct Walker<'s> {
    schema: &'s Schema,
    errs: Vec<String>,
}

impl Walker<'_> {
    /// The paths below a value, and whether the value itself is owned (a scalar or an atomic
    /// container). Each node is built once, its members and children sorted at the end.
    fn node(&mut self, v: &Value, tr: TypeRef, depth: usize) -> (Set, bool) {
        if let Err(e) = check_depth(depth) {
            self.errs.push(e);
            return (Set::new(), false);
        }
        let Some(r) = self.schema.resolve(tr) else {
            self.errs
                .push("schema error: no type found matching".to_owned());
            return (Set::new(), false);
        };
        let mut members: Vec<PathElement> = Vec::new();
        let mut children: Vec<(PathElement, Set)> = Vec::new();
        match pick(&r, deduce(&r, Some(v))) {
            Err(e) => {
                self.errs.push(e);
                return (Set::new(), false);
            }
            Ok(Part::Scalar(_)) => return (Set::new(), true),
            Ok(Part::List(t)) => {
                if t.rel == Relationship::Atomic {
                    return (Set::new(), true);
                }
                let Some(list) = v.as_array() else {
                    return (Set::new(), false);
                };
                let mut pes = Vec::with_capacity(list.len());
                for child in list {
                    match list_item_element(self.schema, &t, child) {
                        Ok(pe) => pes.push(pe),
                        Err(e) => {
                            self.errs.push(e);
                            return (Set::new(), false);
                        }
                    }
                }
                // Sorted once: duplicates are neighbours, and members and children come out
                // in order (the items are walked in the list's order, for the errors' order).
                let mut order: Vec<usize> = (0..pes.len()).collect();
                order.sort_by(|&a, &b| pes[a].cmp(&pes[b]));
                let mut duplicated = vec![false; pes.len()];
                for w in order.windows(2) {
                    if pes[w[0]] == pes[w[1]] {
                        duplicated[w[0]] = true;
                        duplicated[w[1]] = true;
                    }
                }
                // A repeated item is owned as the item only.
                let mut subs: Vec<Set> = list
                    .iter()
                    .zip(&duplicated)
                    .map(|(child, &dup)| {
                        if dup {
                            Set::new()
                        } else {
                            self.node(child, t.elem, depth + 1).0
                        }
                    })
                    .collect();
                members.reserve(order.len());
                for i in order {
                    let pe = std::mem::replace(&mut pes[i], PathElement::Index(0));
                    let sub = std::mem::take(&mut subs[i]);
                    if members.last() == Some(&pe) {
                        continue;
                    }
                    if !sub.is_empty() {
                        children.push((pe.clone(), sub));
                    }
                    members.push(pe);
                }
                return (Set::from_parts(members, children), false);
            }
            Ok(Part::Map(t)) => {
                if t.rel == Relationship::Atomic {
                    return (Set::new(), true);
                }
                let Some(m) = v.as_object() else {
                    return (Set::new(), false);
                };
                for (k, val) in m {
                    let (sub, leaf) = self.node(val, t.field_type(k), depth + 1);
                    let pe = PathElement::Field(k.clone());
                    let empty_map = val.as_object().is_some_and(|m| m.is_empty());
                    if !sub.is_empty() {
                        children.push((pe.clone(), sub));
                    }
                    if leaf || val.is_null() || empty_map || t.field(k).is_none() {
                        members.push(pe);
                    }
                }
            }
        }
        members.sort_unstable();
        members.dedup();
        children.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        (Set::from_parts(members, children), false)
    }
}
