//! Strategic merge patch, as kubernetes/apimachinery `pkg/util/strategicpatch` does it.
//!
//! The merge table kubectl's documentation gives (seeds: "merge patch 计算"), by field kind:
//!
//! | field kind | patch strategy | how it merges | module |
//! |---|---|---|---|
//! | primitive | – | replaced by the patch value; `null` deletes | [`diff`], [`merge`] |
//! | map (object) | – | key by key, recursively | [`diff`], [`merge`] |
//! | map | `retainKeys` | as a map, and keys missing from `$retainKeys` are cleared | [`diff`], [`merge`] |
//! | map | `replace` | replaced whole | [`merge`] |
//! | list | none / `replace` | replaced whole (atomic) | [`diff`] |
//! | list of maps | `merge`, key `K` | items matched by `K`; `$patch: delete` removes one | [`diff`], [`merge`] |
//! | list of primitives | `merge` | merged as a set; `$deleteFromPrimitiveList/<list>` removes | [`diff`], [`merge`] |
//! | any merging list | – | order from `$setElementOrder/<list>` | [`order`] |
//!
//! Three-way (kubectl apply): the patch is the deletions from last-applied to local (additions
//! ignored) merged with the delta from live to local (deletions ignored) — [`three_way`].
//!
//! Everything is a pure function of values; the reference's Go behaviour (its `%v` ordering, its
//! `reflect` type checks, its sort algorithm) is reproduced where it shows in the output.

mod conflict;
mod diff;
mod merge;
mod normalize;
mod order;
mod three_way;
mod window;

use crate::value::{Map, Value};

pub use super::error::SmpError;
use super::schema::{Meta, PatchMeta};
pub use normalize::sort_merge_lists_by_name;
pub use three_way::{ThreeWay, diff3_parts, diff3_patch, three_way_parts};

use super::gofmt::{self, GoType};

pub(crate) const DIRECTIVE_MARKER: &str = "$patch";
pub(crate) const DELETE: &str = "delete";
pub(crate) const REPLACE: &str = "replace";
pub(crate) const MERGE: &str = "merge";
pub(crate) const RETAIN_KEYS_DIRECTIVE: &str = "$retainKeys";
pub(crate) const DELETE_FROM_PRIMITIVE_LIST_PREFIX: &str = "$deleteFromPrimitiveList";
pub(crate) const SET_ELEMENT_ORDER_PREFIX: &str = "$setElementOrder";

/// A two-way strategic merge patch that turns `original` into `modified`
/// (`CreateTwoWayMergePatch`). `$setElementOrder` lists are emitted, as kubectl does.
///
/// # Errors
/// Documents that are not objects, schema lookups that fail where the reference fails, and
/// lists the reference cannot diff (mixed element types, lists of lists, missing merge keys).
pub fn diff2(original: &Value, modified: &Value, meta: Meta<'_>) -> Result<Value, SmpError> {
    let opts = diff::DiffOptions {
        set_element_order: true,
        ..diff::DiffOptions::default()
    };
    let patch = diff::diff_maps(as_map(original)?, as_map(modified)?, meta, opts, 0)?;
    Ok(Value::Object(patch))
}

/// The three-way patch kubectl apply sends (`CreateThreeWayMergePatch`): `original` is the
/// last-applied configuration, `modified` the local file, `current` the live object.
///
/// # Errors
/// As [`diff2`]; with `overwrite == false`, [`SmpError::Conflict`] when the patch changes keys
/// that changed differently from `original` to `current`.
pub fn diff3(
    original: &Value,
    modified: &Value,
    current: &Value,
    meta: Meta<'_>,
    overwrite: bool,
) -> Result<Value, SmpError> {
    three_way::diff3_patch(original, modified, current, meta, overwrite, false)
}

/// `side()` on another thread while `main()` runs on this one when `parallel`, else one after
/// the other.
pub(crate) fn both<A: Send, B>(
    parallel: bool,
    side: impl FnOnce() -> A + Send,
    main: impl FnOnce() -> B,
) -> (A, B) {
    if !parallel {
        let b = main();
        return (side(), b);
    }
    std::thread::scope(|s| {
        let handle = s.spawn(side);
        let b = main();
        let a = handle
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (a, b)
    })
}

/// Apply a strategic merge patch to a document, as the API server does
/// (`StrategicMergePatch`).
///
/// # Errors
/// Malformed directives, merge keys missing, schema lookups failing, as the reference.
pub fn apply(original: Value, patch: Value, meta: Meta<'_>) -> Result<Value, SmpError> {
    let original = into_map(original)?;
    let patch = into_map(patch)?;
    let opts = merge::MergeOptions {
        merge_parallel_list: true,
        ignore_unmatched_nulls: true,
    };
    Ok(Value::Object(merge::merge_map(
        original, patch, meta, opts, 0,
    )?))
}

/// Apply a patch given as JSON text to a document given as JSON text, and write the result as Go
/// writes it (`StrategicMergePatch` on bytes).
///
/// # Errors
/// [`SmpError::BadJsonDoc`] when either text is not a JSON object; otherwise as [`apply`].
pub fn apply_text(original: &str, patch: &str, meta: Meta<'_>) -> Result<String, SmpError> {
    let result = apply(parse_json(original)?, parse_json(patch)?, meta)?;
    super::gojson::to_string(&result).map_err(|e| SmpError::Other(e.to_string()))
}

/// Decode a JSON document as the reference does: an object (or `null`, an empty object);
/// integers that fit int64 stay integers, every other number is a float64.
///
/// # Errors
/// [`SmpError::BadJsonDoc`] when the text is not JSON or not an object.
pub fn parse_json(text: &str) -> Result<Value, SmpError> {
    let mut v: Value = serde_json::from_str(text).map_err(|_| SmpError::BadJsonDoc)?;
    if !(v.is_object() || v.is_null()) {
        return Err(SmpError::BadJsonDoc);
    }
    go_numbers(&mut v, 0)?;
    Ok(v)
}

/// Turn unsigned integers beyond int64 into float64, as Go's int64-or-float64 decoding does.
fn go_numbers(v: &mut Value, depth: usize) -> Result<(), SmpError> {
    check_depth(depth)?;
    match v {
        Value::Number(n) if n.is_u64() && !n.is_i64() => {
            if let Some(f) = n.as_f64().and_then(crate::value::Number::from_f64) {
                *n = f;
            }
        }
        Value::Array(items) => {
            for item in items {
                go_numbers(item, depth + 1)?;
            }
        }
        Value::Object(m) => {
            for item in m.values_mut() {
                go_numbers(item, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Do two patches (or a patch and a change set) touch the same keys with different values
/// (`MergingMapsHaveConflicts`)?
///
/// # Errors
/// Schema lookups that fail, lists the reference cannot compare.
pub fn merging_maps_have_conflicts(
    left: &Value,
    right: &Value,
    meta: Meta<'_>,
) -> Result<bool, SmpError> {
    let (mut left, mut right) = (as_map(left)?.clone(), as_map(right)?.clone());
    conflict::merging_maps_have_conflicts(&mut left, &mut right, meta)
}

static EMPTY: std::sync::LazyLock<Map> = std::sync::LazyLock::new(Map::new);

/// A document as the reference decodes it into `map[string]interface{}`: `null` is an empty map,
/// anything else but an object is invalid.
fn as_map(v: &Value) -> Result<&Map, SmpError> {
    match v {
        Value::Object(m) => Ok(m),
        Value::Null => Ok(&EMPTY),
        _ => Err(SmpError::BadJsonDoc),
    }
}

fn into_map(v: Value) -> Result<Map, SmpError> {
    match v {
        Value::Object(m) => Ok(m),
        Value::Null => Ok(Map::new()),
        _ => Err(SmpError::BadJsonDoc),
    }
}

/// The list strategy of a field, with `retainKeys` split off
/// (`extractRetainKeysPatchStrategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strategy {
    /// No strategy: maps merge key by key, lists are replaced.
    Default,
    Merge,
    Replace,
}

/// `(retainKeys, strategy)` of a field.
pub(crate) fn strategy_of(meta: &PatchMeta<'_>) -> Result<(bool, Strategy), SmpError> {
    let s = meta.strategies;
    let strategy = match (s.merge, s.replace) {
        (true, true) => {
            return Err(SmpError::Other(format!(
                "unexpected patch strategy: [{}]",
                [
                    (s.merge, MERGE),
                    (s.retain_keys, "retainKeys"),
                    (s.replace, REPLACE)
                ]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, n)| *n)
                .collect::<Vec<_>>()
                .join(" ")
            )));
        }
        (true, false) => Strategy::Merge,
        (false, true) => Strategy::Replace,
        (false, false) => Strategy::Default,
    };
    Ok((s.retain_keys, strategy))
}

/// `mergepatch.ErrBadArgType(map[string]interface{}, actual)`.
pub(crate) fn bad_arg_type_map(actual: &Value) -> SmpError {
    SmpError::BadArgType {
        expected: GoType::Map.name(),
        actual: GoType::of(actual).name(),
    }
}

/// `mergepatch.ErrBadArgType([]interface{}, actual)`.
pub(crate) fn bad_arg_type_slice(actual: &Value) -> SmpError {
    SmpError::BadArgType {
        expected: GoType::Slice.name(),
        actual: GoType::of(actual).name(),
    }
}

/// `mergepatch.ErrNoMergeKey(m, key)`.
pub(crate) fn no_merge_key(m: &Map, key: &str) -> SmpError {
    SmpError::NoMergeKey {
        map: gofmt::sprint_map(m),
        key: key.to_owned(),
    }
}

/// The element type of one or more lists (`sliceElementType`): all items must share one Go type
/// that is not a list.
pub(crate) fn slice_element_type(lists: &[&[Value]]) -> Result<GoType, SmpError> {
    let mut prev: Option<GoType> = None;
    for list in lists {
        for v in *list {
            let t = GoType::of(v);
            match prev {
                None => {
                    if t == GoType::Slice {
                        return Err(SmpError::NoListOfLists);
                    }
                    prev = Some(t);
                }
                Some(p) if p != t || t == GoType::Nil => {
                    let all: Vec<Value> = lists.iter().map(|l| Value::Array(l.to_vec())).collect();
                    return Err(SmpError::Other(format!(
                        "list element types are not identical: {}",
                        gofmt::sprint(&Value::Array(all))
                    )));
                }
                Some(_) => {}
            }
        }
    }
    prev.ok_or_else(|| SmpError::Other("no elements in any of the given slices".into()))
}

/// `extractKey`: the list name after a `$deleteFromPrimitiveList/` or `$setElementOrder/` prefix.
pub(crate) fn extract_key<'k>(s: &'k str, prefix: &str) -> Result<&'k str, SmpError> {
    match s.split_once('/') {
        Some((p, rest)) if p == prefix => Ok(rest),
        _ => Err(match prefix {
            DELETE_FROM_PRIMITIVE_LIST_PREFIX => SmpError::BadPatchFormatForPrimitiveList,
            _ => SmpError::BadPatchFormatForSetElementOrderList,
        }),
    }
}

/// Fail when a document nests deeper than [`crate::engine::MAX_DEPTH`].
pub(crate) fn check_depth(depth: usize) -> Result<(), SmpError> {
    if depth > crate::engine::MAX_DEPTH {
        Err(SmpError::TooDeep(crate::engine::MAX_DEPTH))
    } else {
        Ok(())
    }
}
