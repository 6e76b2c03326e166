//! `Validate` (`typed/validate.go`): does a value fit its schema? An applied configuration is
//! validated strictly (a repeated list key is an error, kubernetes#113482); live objects allow
//! duplicates.

use std::collections::BTreeSet;

use super::{Part, check_depth, deduce, list_item_element, pick, scalar_error};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Relationship, Schema, TypeRef};
use crate::engine::ssa::typed::TypedError;
use crate::value::Value;

/// `TypedValue.Validate`, with `AllowDuplicates` when `allow_duplicates`.
///
/// # Errors
/// Every mismatch, prefixed with its path.
pub fn validate(
    schema: &Schema,
    tr: TypeRef,
    v: &Value,
    allow_duplicates: bool,
) -> Result<(), TypedError> {
    let mut errs = Vec::new();
    walk(schema, tr, v, allow_duplicates, &String::new, 0, &mut errs);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(TypedError(errs))
    }
}

fn walk(
    schema: &Schema,
    tr: TypeRef,
    v: &Value,
    allow_duplicates: bool,
    at: &dyn Fn() -> String,
    depth: usize,
    errs: &mut Vec<String>,
) {
    let fail = |errs: &mut Vec<String>, msg: String| {
        let at = at();
        if at.is_empty() {
            errs.push(msg);
        } else {
            errs.push(format!("{at}: {msg}"));
        }
    };
    if let Err(e) = check_depth(depth) {
        fail(errs, e);
        return;
    }
    let Some(r) = schema.resolve(tr) else {
        fail(errs, "schema error: no type found matching".to_owned());
        return;
    };
    match pick(&r, deduce(&r, Some(v))) {
        Err(e) => fail(errs, e),
        Ok(Part::Scalar(t)) => {
            if let Some(e) = scalar_error(t, Some(v), "") {
                fail(errs, e);
            }
        }
        Ok(Part::List(t)) => {
            let list = match v {
                Value::Null => return,
                Value::Array(list) => list,
                other => return fail(errs, format!("expected list, got {other}")),
            };
            let mut seen = BTreeSet::new();
            for (i, child) in list.iter().enumerate() {
                let pe = if t.rel == Relationship::Associative {
                    match list_item_element(schema, &t, child) {
                        Ok(pe) => pe,
                        Err(e) => return fail(errs, format!("element {i}: {e}")),
                    }
                } else {
                    PathElement::Index(i64::try_from(i).unwrap_or(i64::MAX))
                };
                if t.rel == Relationship::Associative
                    && !seen.insert(pe.clone())
                    && !allow_duplicates
                {
                    fail(errs, format!("duplicate entries for key {pe}"));
                }
                let here = || format!("{}{pe}", at());
                walk(
                    schema,
                    t.elem,
                    child,
                    allow_duplicates,
                    &here,
                    depth + 1,
                    errs,
                );
            }
        }
        Ok(Part::Map(t)) => {
            let m = match v {
                Value::Null => return,
                Value::Object(m) => m,
                other => return fail(errs, format!("expected map, got {other}")),
            };
            for (k, val) in m {
                let here = || format!("{}.{k}", at());
                let ty = match t.field(k) {
                    Some(f) => f.ty,
                    None if schema.is_empty_ref(t.map.elem) => {
                        errs.push(format!("{}: field not declared in schema", here()));
                        return;
                    }
                    None => t.map.elem,
                };
                walk(schema, ty, val, allow_duplicates, &here, depth + 1, errs);
            }
        }
    }
}
