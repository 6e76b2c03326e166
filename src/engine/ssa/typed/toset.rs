//! `ToFieldSet` (`typed/tofieldset.go`): the paths an applier of a value owns.
//!
//! | value | owned |
//! | --- | --- |
//! | scalar | the field |
//! | atomic list/map/struct | the field, nothing below |
//! | associative list item | the item (`k:`/`v:`) and its fields; a repeated key only as the item |
//! | map key, or a struct field whose value is `null` or `{}` | the key/field itself |
//! | struct field with content | only what is inside |

use super::{Part, deduce, enter, list_item_element, pick};
use crate::engine::ssa::par;
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
    walk(schema, tr, v, false)
}

/// `ToFieldSet` then `EnsureNamedFieldsAreMembers` (what prune reads), in one walk: a struct
/// field declared by the schema with something owned inside is a member too. An item of a
/// keyed list that prune left without its key fields is left out: `ToFieldSet` names it with
/// an empty path element (it drops `listItemToPathElement`'s error), which no set it is
/// compared with holds, so prune's differences and intersections come out the same.
///
/// # Errors
/// As [`to_field_set`], but for those items.
pub fn to_field_set_named(schema: &Schema, tr: TypeRef, v: &Value) -> Result<Set, TypedError> {
    walk(schema, tr, v, true)
}

fn walk(schema: &Schema, tr: TypeRef, v: &Value, named: bool) -> Result<Set, TypedError> {
    let mut w = Walker {
        schema,
        errs: Vec::new(),
        fork: true,
        lenient: named,
    };
    let (set, _) = w.node(v, tr, named, 0);
    if w.errs.is_empty() {
        Ok(set)
    } else {
        Err(TypedError(w.errs))
    }
}

/// The items of a list past which the walk forks (once per walk, when they are big,
/// [`par::are_big`]): the second half on another core.
const FORK_AT: usize = 512;

struct Walker<'s> {
    schema: &'s Schema,
    errs: Vec<String>,
    /// Whether a long list may still be split between two cores.
    fork: bool,
    /// Whether an item that cannot be named is left out rather than an error
    /// ([`to_field_set_named`]).
    lenient: bool,
}

impl Walker<'_> {
    /// The paths below a value, and whether the value itself is owned (a scalar or an atomic
    /// container). Each node is built once, its members and children sorted at the end.
    /// `named`: struct fields with something owned inside are members too (as
    /// [`Set::ensure_named_fields_are_members`] reads the set: not below a list item that is
    /// not keyed).
    fn node(&mut self, v: &Value, tr: TypeRef, named: bool, depth: usize) -> (Set, bool) {
        let Some(r) = enter(self.schema, tr, depth, &mut self.errs) else {
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
                        // An item prune left without its key fields: `ToFieldSet` names it with
                        // an empty element, which no other set holds; it adds nothing here.
                        Err(_) if self.lenient => {
                            let kept = list
                                .iter()
                                .filter(|c| list_item_element(self.schema, &t, c).is_ok());
                            return self.node(
                                &Value::Array(kept.cloned().collect()),
                                tr,
                                named,
                                depth,
                            );
                        }
                        Err(e) => {
                            self.errs.push(e);
                            return (Set::new(), false);
                        }
                    }
                }
                // Sorted once: duplicates are neighbours, and members and children come out
                // in order (the items are walked in the list's order, for the errors' order).
                let (order, duplicated) = super::sorted_elements(&pes);
                // A repeated item is owned as the item only.
                let items = |w: &mut Walker<'_>, from: usize, to: usize| -> Vec<Set> {
                    (from..to)
                        .map(|i| {
                            if duplicated[i] {
                                Set::new()
                            } else {
                                let named = named && matches!(pes[i], PathElement::Key(_));
                                w.node(&list[i], t.elem, named, depth + 1).0
                            }
                        })
                        .collect()
                };
                let mut subs = if self.fork && list.len() >= FORK_AT && par::are_big(list) {
                    self.fork = false;
                    let mid = list.len() / 2;
                    let mut other = Walker {
                        schema: self.schema,
                        errs: Vec::new(),
                        fork: false,
                        lenient: self.lenient,
                    };
                    let (second, mut first) = par::both(
                        true,
                        || items(&mut other, mid, list.len()),
                        || items(self, 0, mid),
                    );
                    // The second half's errors after the first's, as one walk has them.
                    self.errs.append(&mut other.errs);
                    first.extend(second);
                    first
                } else {
                    items(self, 0, list.len())
                };
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
                // Most fields are members (leaves): room for all, not grown field by field.
                members.reserve_exact(m.len());
                for (k, val) in m {
                    // One lookup of the field for its type and whether it is declared.
                    let field = t.field(k);
                    let ty = field.map_or(t.map.elem, |f| f.ty);
                    let (sub, leaf) = self.node(val, ty, named, depth + 1);
                    let pe = PathElement::Field(k.clone());
                    let inside = !sub.is_empty();
                    let member = owns_field(leaf, val, field.is_some(), named && inside);
                    if inside {
                        children.push((pe.clone(), sub));
                    }
                    if member {
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

/// Whether a map's field is owned itself (a member of the set), beside what is owned inside
/// it: a leaf, a null, an empty map, a field the schema does not declare, or, with `named`, a
/// declared field with something owned inside.
#[inline]
pub(super) fn owns_field(leaf: bool, value: &Value, declared: bool, named_inside: bool) -> bool {
    leaf || value.is_null()
        || value.as_object().is_some_and(crate::value::Map::is_empty)
        || !declared
        || named_inside
}
