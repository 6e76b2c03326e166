//! Typed operations on values (`typed/`): each walks a value (or two) along a schema.
//!
//! | operation | module | used for |
//! | --- | --- | --- |
//! | `ToFieldSet` | [`mod@toset`] | what an applier of a config owns |
//! | `Merge` | [`mod@merge`] | live ⊕ config, the merge half of apply |
//! | `Compare` | [`mod@compare`] | removed / modified / added paths, what conflicts come from |
//! | `RemoveItems`, `ExtractItems` | [`mod@remove`] | prune; extract what a manager owns |
//! | `ToFieldSet` of `RemoveItems`, unbuilt | [`mod@after`] | prune's middle step, without copying the object |
//! | `Validate` | [`mod@validate`] | reject an applied config with duplicate keys, undeclared fields |
//! | `ReconcileFieldSetWithSchema` | [`mod@reconcile`] | owners after a field turned atomic/granular |
//!
//! Shared rules (`typed/helpers.go`): a value picks the part of its type's atom matching its own
//! kind (`deduce`); a map part wins over a scalar part over a list part (`pick`); a list item
//! is named by its key fields (missing ones take the schema default) or, in a set, by itself.

pub mod after;
pub mod compare;
pub mod gone;
pub mod merge;
pub mod project;
pub mod reconcile;
pub mod remove;
#[cfg(test)]
pub(crate) mod samples;
pub mod toset;
pub mod validate;

pub use after::field_set_after_remove;
pub use compare::{Comparison, compare, compare_within, remove_items_compared};
pub use gone::prune_gone;
pub use merge::{merge, merge_compared};
pub use project::project;
pub use reconcile::reconcile_field_set;
pub use remove::{extract_items, extract_items_with_keys, remove_items, remove_items_owned};
pub use toset::{to_field_set, to_field_set_named};
pub use validate::{Problem, ProblemKind, problems, validate, validate_live, validate_owned};

use super::path::PathElement;
use super::schema::Schema;
use super::schema::{ListView, MapView, Relationship, Resolved, Scalar, TypeRef};
use crate::engine::MAX_DEPTH;
use crate::engine::gofmt::{self, GoType};
use crate::value::Value;

/// A typed operation failed (`typed.ValidationErrors`); one line per error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct TypedError(pub Vec<String>);

/// A null to stand for a duplicated list item (the reference merges duplicates as null).
pub(super) static NULL: Value = Value::Null;

/// Which parts of an atom apply to a value (`deduceAtom`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    scalar: bool,
    list: bool,
    map: bool,
}

pub(crate) fn deduce(r: &Resolved<'_>, v: Option<&Value>) -> Parts {
    let full = Parts {
        scalar: r.scalar().is_some(),
        list: r.list().is_some(),
        map: r.map().is_some(),
    };
    let only = |scalar, list, map| Parts { scalar, list, map };
    match v {
        Some(Value::Number(_) | Value::String(_) | Value::Bool(_)) if full.scalar => {
            only(true, false, false)
        }
        Some(Value::Array(_)) if full.list => only(false, true, false),
        Some(Value::Object(_)) if full.map => only(false, false, true),
        _ => full,
    }
}

/// The part handled (`handleAtom`).
pub(crate) enum Part<'s> {
    Map(MapView<'s>),
    Scalar(Scalar),
    List(ListView<'s>),
}

pub(crate) fn pick<'s>(r: &Resolved<'s>, parts: Parts) -> Result<Part<'s>, String> {
    if parts.map
        && let Some(m) = r.map()
    {
        return Ok(Part::Map(m));
    }
    if parts.scalar
        && let Some(s) = r.scalar()
    {
        return Ok(Part::Scalar(s));
    }
    if parts.list
        && let Some(l) = r.list()
    {
        return Ok(Part::List(l));
    }
    Err("schema error: invalid atom".to_owned())
}

/// `validateScalar`: `None` when the value fits.
pub(crate) fn scalar_error(t: Scalar, v: Option<&Value>, prefix: &str) -> Option<String> {
    let v = v?;
    let ok = match v {
        Value::Null => true,
        Value::Number(_) => matches!(t, Scalar::Numeric | Scalar::Untyped),
        Value::String(_) => matches!(t, Scalar::String | Scalar::Untyped),
        Value::Bool(_) => matches!(t, Scalar::Boolean | Scalar::Untyped),
        Value::Array(_) | Value::Object(_) => false,
    } && t != Scalar::Unknown;
    if ok {
        return None;
    }
    // `validateScalar`'s verbs: `%T` of the value, `%#v` and `%v` of its `value.Value`.
    Some(match t {
        Scalar::Numeric => format!(
            "{prefix}expected numeric (int or float), got {}",
            match v {
                Value::Null => "<nil>",
                v => GoType::of(v).name(),
            }
        ),
        Scalar::String => format!("{prefix}expected string, got {}", smd_sharp_v(v)),
        Scalar::Boolean => format!("{prefix}expected boolean, got {}", smd_v(v)),
        Scalar::Untyped => format!("{prefix}expected any scalar, got {}", smd_v(v)),
        Scalar::Unknown => format!("{prefix}expected a scalar type the schema names, got {v}"),
    })
}

/// Go's `%v` of a structured-merge-diff `value.Value` read from unstructured data (a
/// `*valueUnstructured`), as its messages print it: `&{map[a:1]}`.
pub(crate) fn smd_v(v: &Value) -> String {
    format!("&{{{}}}", gofmt::sprint(v))
}

/// Go's `%#v` of it: `&value.valueUnstructured{Value:map[string]interface {}{"a":1}}`.
fn smd_sharp_v(v: &Value) -> String {
    let mut out = String::from("&value.valueUnstructured{Value:");
    write_sharp_v(v, &mut out, 0);
    out.push('}');
    out
}

/// `%#v` of an unstructured Go value: Go syntax, map keys sorted.
fn write_sharp_v(v: &Value, out: &mut String, depth: usize) {
    if depth > crate::engine::MAX_DEPTH {
        out.push_str("...");
        return;
    }
    match v {
        Value::Null => out.push_str("interface {}(nil)"),
        Value::String(s) => out.push_str(&crate::engine::schema::go_quote(s)),
        Value::Array(items) => {
            out.push_str("[]interface {}{");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_sharp_v(item, out, depth + 1);
            }
            out.push('}');
        }
        Value::Object(map) => {
            out.push_str("map[string]interface {}{");
            let mut keys: Vec<_> = map.iter().collect();
            keys.sort_by(|a, b| a.0.cmp(b.0));
            for (i, (k, item)) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&crate::engine::schema::go_quote(k));
                out.push(':');
                write_sharp_v(item, out, depth + 1);
            }
            out.push('}');
        }
        // Numbers and booleans print as `%v` does.
        scalar => out.push_str(&gofmt::sprint(scalar)),
    }
}

/// The path element naming a list item (`listItemToPathElement`).
pub(crate) fn list_item_element(
    schema: &Schema,
    list: &ListView<'_>,
    child: &Value,
) -> Result<PathElement, String> {
    if list.rel != Relationship::Associative {
        return Err("invalid indexing of non-associative list".to_owned());
    }
    if list.keys.is_empty() {
        return match child {
            Value::Object(_) => {
                Err("associative list without keys has an element that's a map type".to_owned())
            }
            Value::Array(_) => {
                Err("not supported: associative list with lists as elements".to_owned())
            }
            Value::Null => Err(
                "associative list without keys has an element that's an explicit null".to_owned(),
            ),
            _ => Ok(PathElement::Value(child.clone())),
        };
    }
    let m = match child {
        Value::Null => {
            return Err("associative list with keys may not have a null element".to_owned());
        }
        Value::Object(m) => m,
        _ => return Err("associative list with keys may not have non-map elements".to_owned()),
    };
    // One key field present, the usual case: no vector.
    if let [name] = list.keys
        && let Some(v) = m.get(name)
    {
        return Ok(PathElement::key_of_one((name.clone(), v.clone())));
    }
    let mut fields = Vec::with_capacity(list.keys.len());
    for name in list.keys {
        if let Some(v) = m.get(name) {
            fields.push((name.clone(), v.clone()));
            continue;
        }
        let Some(elem) = schema.resolve(list.elem) else {
            return Err(format!(
                "couldn't find default value for {name}: invalid elementType for list"
            ));
        };
        let Some(map) = elem.map() else {
            return Err(format!(
                "couldn't find default value for {name}: associative list may not have non-map types"
            ));
        };
        if let Some(def) = map.field(name).and_then(|f| f.default.as_ref())
            && !def.is_null()
        {
            fields.push((name.clone(), def.clone()));
        }
    }
    if fields.is_empty() {
        let keys: Vec<String> = list.keys.iter().map(|k| format!("{k:?}")).collect();
        return Err(format!(
            "associative list with keys has an element that omits all key fields [{}] (and doesn't have default values for any key fields)",
            keys.join(" ")
        ));
    }
    Ok(PathElement::key(fields))
}

/// The list at `path` in a value of type `root` (`None` where the schema names no list there):
/// a field's type down a map, the element type down a list.
pub(crate) fn list_at<'s>(
    schema: &'s Schema,
    root: TypeRef,
    path: &[PathElement],
) -> Option<ListView<'s>> {
    let mut tr = root;
    for pe in path {
        let r = schema.resolve(tr)?;
        tr = match pe {
            PathElement::Field(name) => r.map()?.field_type(name),
            PathElement::Key(_) | PathElement::Value(_) | PathElement::Index(_) => r.list()?.elem,
        };
    }
    schema.resolve(tr)?.list()
}

/// A list's elements sorted once: the positions in the elements' order (equal ones
/// neighbours, in the list's order), and which elements are repeated.
pub(crate) fn sorted_elements(pes: &[PathElement]) -> (Vec<usize>, Vec<bool>) {
    let mut order: Vec<usize> = (0..pes.len()).collect();
    order.sort_by(|&a, &b| pes[a].cmp(&pes[b]));
    let mut repeated = vec![false; pes.len()];
    for w in order.windows(2) {
        if pes[w[0]] == pes[w[1]] {
            repeated[w[0]] = true;
            repeated[w[1]] = true;
        }
    }
    (order, repeated)
}

/// Guards recursion.
pub(crate) fn check_depth(depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        Err(format!("value nests deeper than {MAX_DEPTH} levels"))
    } else {
        Ok(())
    }
}

/// A type the schema lacks, as the reference says it.
pub(crate) const NO_TYPE: &str = "schema error: no type found matching";

/// A walk's step into a node of type `tr`: the depth checked and the type resolved, or the
/// error pushed and `None`.
pub(crate) fn enter<'s>(
    schema: &'s Schema,
    tr: TypeRef,
    depth: usize,
    errs: &mut Vec<String>,
) -> Option<Resolved<'s>> {
    if let Err(e) = check_depth(depth) {
        errs.push(e);
        return None;
    }
    let resolved = schema.resolve(tr);
    if resolved.is_none() {
        errs.push(NO_TYPE.to_owned());
    }
    resolved
}
