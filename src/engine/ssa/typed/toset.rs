//! `ToFieldSet` (`typed/tofieldset.go`): the paths an applier of a value owns.
//!
//! | value | owned |
//! | --- | --- |
//! | scalar | the field |
//! | atomic list/map/struct | the field, nothing below |
//! | associative list item | the item (`k:`/`v:`) and its fields; a repeated key only as the item |
//! | map key, or a struct field whose value is `null` or `{}` | the key/field itself |
//! | struct field with content | only what is inside |

use std::collections::BTreeSet;

use super::{Part, check_depth, deduce, list_item_element, pick};
use crate::engine::ssa::path::{Path, PathElement};
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
        set: Set::new(),
        path: Vec::new(),
        errs: Vec::new(),
    };
    w.walk(v, tr, 0);
    if w.errs.is_empty() {
        Ok(w.set)
    } else {
        Err(TypedError(w.errs))
    }
}

struct Walker<'s> {
    schema: &'s Schema,
    set: Set,
    path: Path,
    errs: Vec<String>,
}

impl Walker<'_> {
    fn walk(&mut self, v: &Value, tr: TypeRef, depth: usize) {
        if let Err(e) = check_depth(depth) {
            self.errs.push(e);
            return;
        }
        let Some(r) = self.schema.resolve(tr) else {
            self.errs
                .push("schema error: no type found matching".to_owned());
            return;
        };
        match pick(&r, deduce(&r, Some(v))) {
            Err(e) => self.errs.push(e),
            Ok(Part::Scalar(_)) => self.set.insert(&self.path),
            Ok(Part::List(t)) => {
                if t.rel == Relationship::Atomic {
                    self.set.insert(&self.path);
                    return;
                }
                let Some(list) = v.as_array() else {
                    return;
                };
                let mut pes = Vec::with_capacity(list.len());
                for child in list {
                    match list_item_element(self.schema, &t, child) {
                        Ok(pe) => pes.push(pe),
                        Err(e) => {
                            self.errs.push(e);
                            return;
                        }
                    }
                }
                let mut seen = BTreeSet::new();
                let mut duplicates = BTreeSet::new();
                for pe in &pes {
                    if !seen.insert(pe) && duplicates.insert(pe) {
                        self.insert_child(pe);
                    }
                }
                for (pe, child) in pes.iter().zip(list) {
                    if duplicates.contains(pe) {
                        continue;
                    }
                    self.path.push(pe.clone());
                    self.walk(child, t.elem, depth + 1);
                    self.set.insert(&self.path);
                    self.path.pop();
                }
            }
            Ok(Part::Map(t)) => {
                if t.rel == Relationship::Atomic {
                    self.set.insert(&self.path);
                    return;
                }
                let Some(m) = v.as_object() else {
                    return;
                };
                for (k, val) in m {
                    self.path.push(PathElement::Field(k.clone()));
                    self.walk(val, t.field_type(k), depth + 1);
                    let empty_map = val.as_object().is_some_and(|m| m.is_empty());
                    if val.is_null() || empty_map || t.field(k).is_none() {
                        self.set.insert(&self.path);
                    }
                    self.path.pop();
                }
            }
        }
    }

    fn insert_child(&mut self, pe: &PathElement) {
        self.path.push(pe.clone());
        self.set.insert(&self.path);
        self.path.pop();
    }
}
