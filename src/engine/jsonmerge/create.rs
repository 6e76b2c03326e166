//! Two-way merge patch as evanphx/json-patch v4 `CreateMergePatch` builds it.
//!
//! evanphx decodes both documents with Go's plain `encoding/json`, so every number is a
//! float64: `1` and `1.0` compare equal, and integers beyond 2^53 lose precision. Lists are
//! atomic (replaced whole when they differ), deleted keys become `null`, nested objects recurse
//! and an unchanged object is left out, so identical documents give `{}`.

use crate::value::{Map, Number, Value};

use super::JsonMergeError;
use crate::engine::MAX_DEPTH;
use crate::engine::gojson::write_float;

/// The Go dynamic type a decoded value has in evanphx (all numbers are float64).
#[derive(PartialEq, Eq, Clone, Copy)]
enum GoKind {
    Nil,
    Bool,
    Float64,
    String,
    Slice,
    Map,
}

fn go_kind(v: &Value) -> GoKind {
    match v {
        Value::Null => GoKind::Nil,
        Value::Bool(_) => GoKind::Bool,
        Value::Number(_) => GoKind::Float64,
        Value::String(_) => GoKind::String,
        Value::Array(_) => GoKind::Slice,
        Value::Object(_) => GoKind::Map,
    }
}

/// `jsonpatch.CreateMergePatch(original, modified)` (evanphx/json-patch v4).
///
/// Two objects give an object patch (`null` counts as an empty object, as Go decodes `null`
/// into a nil map). Two arrays give an array of object patches, pairwise (same length
/// required). Numbers in the patch are what Go would print for them as float64, read back
/// as int64 when the text is an integer (so `1.0` becomes `1`).
///
/// Errors: `Invalid JSON Document` (a scalar document or element, arrays of different
/// length), `Mismatched JSON Documents` (one array, one not), or the depth limit.
pub fn create_merge_patch(original: &Value, modified: &Value) -> Result<Value, JsonMergeError> {
    match (original, modified) {
        (Value::Array(originals), Value::Array(modifieds)) => {
            if originals.len() != modifieds.len() {
                return Err(JsonMergeError::BadJsonDoc);
            }
            let patches = originals
                .iter()
                .zip(modifieds)
                .map(|(o, m)| object_merge_patch(o, m))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Array(patches))
        }
        (Value::Array(_), _) | (_, Value::Array(_)) => Err(JsonMergeError::MismatchedDocuments),
        _ => object_merge_patch(original, modified),
    }
}

fn object_merge_patch(original: &Value, modified: &Value) -> Result<Value, JsonMergeError> {
    let empty = Map::new();
    let diff = get_diff(
        as_go_map(original, &empty)?,
        as_go_map(modified, &empty)?,
        0,
    )?;
    through_float64(&Value::Object(diff), 0)
}

/// The document as Go decodes it into a `map[string]interface{}` (`null` gives a nil map).
fn as_go_map<'a>(v: &'a Value, empty: &'a Map) -> Result<&'a Map, JsonMergeError> {
    match v {
        Value::Object(map) => Ok(map),
        Value::Null => Ok(empty),
        _ => Err(JsonMergeError::BadJsonDoc),
    }
}

/// evanphx `getDiff`: what turns `a` into `b`.
fn get_diff(a: &Map, b: &Map, depth: usize) -> Result<Map, JsonMergeError> {
    check_depth(depth)?;
    let mut into = Map::new();
    for (key, bv) in b {
        let Some(av) = a.get(key) else {
            // Added.
            into.insert(key.clone(), bv.clone());
            continue;
        };
        match (av, bv) {
            (Value::Object(am), Value::Object(bm)) => {
                let sub = get_diff(am, bm, depth + 1)?;
                if !sub.is_empty() {
                    into.insert(key.clone(), Value::Object(sub));
                }
            }
            (Value::Null, Value::Null) => {}
            // Type changed, or same type but a different value: replace whole.
            _ if !matches_value(av, bv, depth + 1)? => {
                into.insert(key.clone(), bv.clone());
            }
            _ => {}
        }
    }
    for key in a.keys() {
        if !b.contains_key(key) {
            into.insert(key.clone(), Value::Null);
        }
    }
    Ok(into)
}

/// evanphx `matchesValue`: same Go type and equal; numbers compare as float64.
fn matches_value(a: &Value, b: &Value, depth: usize) -> Result<bool, JsonMergeError> {
    if go_kind(a) != go_kind(b) {
        return Ok(false);
    }
    if matches!(a, Value::Array(_) | Value::Object(_)) {
        check_depth(depth)?;
    }
    Ok(match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Object(am), Value::Object(bm)) => {
            if am.len() != bm.len() {
                return Ok(false);
            }
            for (key, bv) in bm {
                let Some(av) = am.get(key) else {
                    return Ok(false);
                };
                if !matches_value(av, bv, depth + 1)? {
                    return Ok(false);
                }
            }
            true
        }
        (Value::Array(aa), Value::Array(ba)) => {
            if aa.len() != ba.len() {
                return Ok(false);
            }
            for (x, y) in aa.iter().zip(ba) {
                if !matches_value(x, y, depth + 1)? {
                    return Ok(false);
                }
            }
            true
        }
        _ => a == b,
    })
}

/// Every number as it comes out of a Go float64 round trip: formatted by `encoding/json`,
/// then decoded by apimachinery's `json.Unmarshal` (int64 when the text is an integer that
/// fits, else float64).
pub(super) fn through_float64(v: &Value, depth: usize) -> Result<Value, JsonMergeError> {
    match v {
        Value::Number(n) => Ok(number_through_float64(n)),
        Value::Array(items) => {
            check_depth(depth)?;
            items
                .iter()
                .map(|item| through_float64(item, depth + 1))
                .collect::<Result<_, _>>()
                .map(Value::Array)
        }
        Value::Object(map) => {
            check_depth(depth)?;
            let mut out = Map::new();
            for (key, item) in map {
                out.insert(key.clone(), through_float64(item, depth + 1)?);
            }
            Ok(Value::Object(out))
        }
        _ => Ok(v.clone()),
    }
}

/// A container at `depth` (the root is 0) must sit inside fewer than [`MAX_DEPTH`] others.
pub(super) fn check_depth(depth: usize) -> Result<(), JsonMergeError> {
    if depth >= MAX_DEPTH {
        Err(JsonMergeError::TooDeep)
    } else {
        Ok(())
    }
}

fn number_through_float64(n: &Number) -> Value {
    let Some(f) = n.as_f64() else {
        return Value::Number(n.clone());
    };
    let mut text = String::new();
    if write_float(f, &mut text).is_err() {
        return Value::Number(n.clone());
    }
    match text.parse::<i64>() {
        Ok(i) => Value::from(i),
        Err(_) => Number::from_f64(f).map_or(Value::Null, Value::Number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn diff(a: Value, b: Value) -> Value {
        create_merge_patch(&a, &b).unwrap()
    }

    #[test]
    fn identical_documents_give_empty_patch() {
        assert_eq!(
            diff(json!({"a": {"b": [1, 2]}}), json!({"a": {"b": [1, 2]}})),
            json!({})
        );
        assert_eq!(diff(json!(null), json!({})), json!({}));
    }

    #[test]
    fn deletions_are_null_and_additions_whole() {
        assert_eq!(
            diff(
                json!({"a": 1, "b": {"c": 1, "d": 2}}),
                json!({"b": {"c": 1}, "e": {"f": null}})
            ),
            json!({"a": null, "b": {"d": null}, "e": {"f": null}})
        );
    }

    #[test]
    fn lists_are_atomic() {
        assert_eq!(
            diff(json!({"l": [1, 2]}), json!({"l": [1, 3]})),
            json!({"l": [1, 3]})
        );
        assert_eq!(
            diff(json!({"l": [{"a": 1}]}), json!({"l": [{"a": 1}]})),
            json!({})
        );
    }

    #[test]
    fn type_change_replaces_whole() {
        assert_eq!(
            diff(json!({"a": {"b": 1}}), json!({"a": [1]})),
            json!({"a": [1]})
        );
        assert_eq!(
            diff(json!({"a": null}), json!({"a": {"b": null}})),
            json!({"a": {"b": null}})
        );
        assert_eq!(
            diff(json!({"a": 1}), json!({"a": null})),
            json!({"a": null})
        );
    }

    #[test]
    fn numbers_compare_as_float64() {
        assert_eq!(diff(json!({"a": 1}), json!({"a": 1.0})), json!({}));
        assert_eq!(
            diff(
                json!({"a": 9007199254740992_i64}),
                json!({"a": 9007199254740993_i64})
            ),
            json!({})
        );
    }

    #[test]
    fn numbers_come_out_as_go_prints_float64() {
        assert_eq!(
            diff(json!({}), json!({"a": 2.0, "b": 1.5, "c": 1e21})),
            json!({"a": 2, "b": 1.5, "c": 1e21})
        );
        assert_eq!(
            diff(json!({}), json!({"a": i64::MAX})),
            json!({"a": 9223372036854775807.0})
        );
    }

    #[test]
    fn arrays_of_documents_pairwise() {
        assert_eq!(
            diff(json!([{"a": 1}, null]), json!([{"a": 2}, {}])),
            json!([{"a": 2}, {}])
        );
        assert_eq!(
            create_merge_patch(&json!([{}]), &json!([])),
            Err(JsonMergeError::BadJsonDoc)
        );
        assert_eq!(
            create_merge_patch(&json!([1]), &json!([1])),
            Err(JsonMergeError::BadJsonDoc)
        );
    }

    #[test]
    fn mismatched_or_scalar_documents_are_errors() {
        assert_eq!(
            create_merge_patch(&json!([]), &json!({})),
            Err(JsonMergeError::MismatchedDocuments)
        );
        assert_eq!(
            create_merge_patch(&json!("x"), &json!({})),
            Err(JsonMergeError::BadJsonDoc)
        );
    }
}
