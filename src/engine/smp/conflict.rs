//! Conflicts (`MergingMapsHaveConflicts`): do two patches touch the same keys differently?
//! Used by `kubectl apply --overwrite=false`.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{DIRECTIVE_MARKER, Meta, RETAIN_KEYS_DIRECTIVE, SmpError, Strategy, check_depth};
use super::{slice_element_type, strategy_of};
use crate::engine::gofmt::{self, GoType};

type Object = Map<String, Value>;

pub(super) fn merging_maps_have_conflicts(
    left: &Object,
    right: &Object,
    meta: Meta<'_>,
) -> Result<bool, SmpError> {
    maps_have_conflicts(left, right, meta, 0)
}

/// `mergingMapFieldsHaveConflicts`.
fn fields_have_conflicts(
    left: &Value,
    right: &Value,
    meta: Meta<'_>,
    strategy: Strategy,
    merge_key: &str,
    depth: usize,
) -> Result<bool, SmpError> {
    check_depth(depth)?;
    match left {
        Value::Object(l) => {
            let Value::Object(r) = right else {
                return Ok(true);
            };
            objects_have_conflicts(l, r, meta, strategy, depth)
        }
        Value::Array(l) => {
            let Value::Array(r) = right else {
                return Ok(true);
            };
            slices_have_conflicts(l, r, meta, strategy, merge_key, depth + 1)
        }
        _ => Ok(left != right),
    }
}

/// The map case of `mergingMapFieldsHaveConflicts`: directives first, then key by key.
fn objects_have_conflicts(
    l: &Object,
    r: &Object,
    meta: Meta<'_>,
    strategy: Strategy,
    depth: usize,
) -> Result<bool, SmpError> {
    let (lm, rm) = (l.get(DIRECTIVE_MARKER), r.get(DIRECTIVE_MARKER));
    if lm.is_some() || rm.is_some() {
        // One side replaces or deletes the whole map, or they do different things to it.
        if !matches!((lm, rm), (Some(a), Some(b)) if gofmt::go_eq(a, b)) {
            return Ok(true);
        }
    }
    if strategy == Strategy::Replace {
        return Ok(false);
    }
    maps_have_conflicts(l, r, meta, depth + 1)
}

/// `mapsHaveConflicts`: keys in both, compared with their field's metadata.
fn maps_have_conflicts(
    left: &Object,
    right: &Object,
    meta: Meta<'_>,
    depth: usize,
) -> Result<bool, SmpError> {
    check_depth(depth)?;
    for (key, left_value) in left {
        if key == DIRECTIVE_MARKER || key == RETAIN_KEYS_DIRECTIVE {
            continue;
        }
        let Some(right_value) = right.get(key) else {
            continue;
        };
        let (sub, patch_meta) = match left_value {
            Value::Array(_) => meta.lookup_slice(key)?,
            Value::Object(_) => meta.lookup_struct(key)?,
            _ => (Meta::opaque(), Default::default()),
        };
        let (_, strategy) = strategy_of(&patch_meta)?;
        let merge_key = patch_meta.merge_key.unwrap_or("");
        if fields_have_conflicts(left_value, right_value, sub, strategy, merge_key, depth + 1)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `slicesHaveConflicts`.
fn slices_have_conflicts(
    left: &[Value],
    right: &[Value],
    meta: Meta<'_>,
    strategy: Strategy,
    merge_key: &str,
    depth: usize,
) -> Result<bool, SmpError> {
    let element_type = slice_element_type(&[left, right])?;
    if strategy == Strategy::Merge {
        // Merging lists of primitives have no conflicts by definition.
        if element_type != GoType::Map {
            return Ok(false);
        }
        let l = by_merge_key(left, merge_key)?;
        let r = by_merge_key(right, merge_key)?;
        for (k, lv) in &l {
            if let Some(rv) = r.get(k)
                && objects_have_conflicts(lv, rv, meta, Strategy::Default, depth + 1)?
            {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    if left.len() != right.len() {
        return Ok(true);
    }
    let (mut l, mut r) = (left.to_vec(), right.to_vec());
    if element_type != GoType::Map {
        gofmt::deduplicate_scalars(&mut l);
        gofmt::sort_scalars(&mut l);
        gofmt::deduplicate_scalars(&mut r);
        gofmt::sort_scalars(&mut r);
    }
    for (a, b) in l.iter().zip(&r) {
        if fields_have_conflicts(a, b, meta, Strategy::Default, "", depth + 1)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `sliceOfMapsToMapOfMaps`: items by their merge key (as Go's `%s` tells them apart).
fn by_merge_key<'v>(
    list: &'v [Value],
    merge_key: &str,
) -> Result<HashMap<(GoType, String), &'v Object>, SmpError> {
    let mut out = HashMap::with_capacity(list.len());
    for v in list {
        let Value::Object(m) = v else {
            return Err(SmpError::Other(format!(
                "invalid element type in merging list:{}",
                gofmt::sprint(&Value::Array(list.to_vec()))
            )));
        };
        let Some(key) = m.get(merge_key) else {
            return Err(SmpError::Other(format!(
                "cannot find merge key `{merge_key}` in merging list element:{}",
                gofmt::sprint_map(m)
            )));
        };
        out.insert((GoType::of(key), gofmt::sprint(key)), m);
    }
    Ok(out)
}
