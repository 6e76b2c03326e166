//! Conflicts (`MergingMapsHaveConflicts`): do two patches touch the same keys differently?
//! Used by `kubectl apply --overwrite=false`.
//!
//! The reference deduplicates and sorts non-merging primitive lists *in place* while comparing
//! them, so a patch that passes the check is sent with those lists sorted (and a conflict
//! message shows them sorted). Both sides are therefore taken mutably and changed as Go changes
//! them.

use crate::value::{Map, Value};

use super::{DIRECTIVE_MARKER, Meta, RETAIN_KEYS_DIRECTIVE, SmpError, Strategy, check_depth};
use super::{slice_element_type, strategy_of};
use crate::engine::gofmt::{self, FastMap, GoType};

type Object = Map;

pub(super) fn merging_maps_have_conflicts(
    left: &mut Object,
    right: &mut Object,
    meta: Meta<'_>,
) -> Result<bool, SmpError> {
    maps_have_conflicts(left, right, meta, 0)
}

/// `mergingMapFieldsHaveConflicts`.
fn fields_have_conflicts(
    left: &mut Value,
    right: &mut Value,
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
        _ => Ok(*left != *right),
    }
}

/// The map case of `mergingMapFieldsHaveConflicts`: directives first, then key by key.
fn objects_have_conflicts(
    l: &mut Object,
    r: &mut Object,
    meta: Meta<'_>,
    strategy: Strategy,
    depth: usize,
) -> Result<bool, SmpError> {
    let (lm, rm) = (l.get(DIRECTIVE_MARKER), r.get(DIRECTIVE_MARKER));
    match (lm, rm) {
        (None, None) => {}
        // One side replaces or deletes the whole map, or they do different things to it
        // (`leftMarker != rightMarker`: Go's `==`, which panics on two maps).
        (Some(a), Some(b)) => {
            if !gofmt::go_eq(a, b)? {
                return Ok(true);
            }
        }
        _ => return Ok(true),
    }
    if strategy == Strategy::Replace {
        return Ok(false);
    }
    maps_have_conflicts(l, r, meta, depth + 1)
}

/// `mapsHaveConflicts`: keys in both, compared with their field's metadata.
fn maps_have_conflicts(
    left: &mut Object,
    right: &mut Object,
    meta: Meta<'_>,
    depth: usize,
) -> Result<bool, SmpError> {
    check_depth(depth)?;
    for (key, left_value) in left.iter_mut() {
        if key == DIRECTIVE_MARKER || key == RETAIN_KEYS_DIRECTIVE {
            continue;
        }
        let Some(right_value) = right.get_mut(key) else {
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
    left: &mut [Value],
    right: &mut [Value],
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
        let mut r = by_merge_key(right, merge_key)?;
        for (k, lv) in by_merge_key(left, merge_key)? {
            if let Some(rv) = r.get_mut(&k)
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
    let (left_len, right_len) = if element_type == GoType::Map {
        (left.len(), right.len())
    } else {
        (
            dedup_and_sort_in_place(left)?,
            dedup_and_sort_in_place(right)?,
        )
    };
    if left_len > right_len {
        // Go would index past the end of the shorter list here; call it a conflict.
        return Ok(true);
    }
    for i in 0..left_len {
        if fields_have_conflicts(
            &mut left[i],
            &mut right[i],
            meta,
            Strategy::Default,
            "",
            depth + 1,
        )? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `deduplicateAndSortScalars` on a slice header: deduplicates the prefix in place (a later
/// duplicate's slot gets a copy of the current last element; the tail keeps stale values), sorts
/// the deduplicated prefix, and returns its length. Go's `==` on the items cannot panic here
/// (lists of one primitive type), but a panic would be reported.
fn dedup_and_sort_in_place(list: &mut [Value]) -> Result<usize, gofmt::GoPanic> {
    let mut length = list.len();
    let mut i = 0;
    while i + 1 < length {
        let mut j = i + 1;
        while j < length {
            if gofmt::go_eq(&list[i], &list[j])? {
                list[j] = list[length - 1].clone();
                length -= 1;
            } else {
                j += 1;
            }
        }
        i += 1;
    }
    let mut prefix = list[..length].to_vec();
    gofmt::sort_scalars(&mut prefix);
    for (slot, v) in list.iter_mut().zip(prefix) {
        *slot = v;
    }
    Ok(length)
}

/// `sliceOfMapsToMapOfMaps`: items by their merge key (as Go's `%s` tells them apart; a later
/// item with the same key wins).
fn by_merge_key<'v>(
    list: &'v mut [Value],
    merge_key: &str,
) -> Result<FastMap<(GoType, String), &'v mut Object>, SmpError> {
    // Check first (read-only), so the error texts are only built when needed.
    for v in list.iter() {
        let Value::Object(m) = v else {
            return Err(SmpError::Other(format!(
                "invalid element type in merging list:{}",
                gofmt::sprint(&Value::Array(list.to_vec()))
            )));
        };
        if !m.contains_key(merge_key) {
            return Err(SmpError::Other(format!(
                "cannot find merge key `{merge_key}` in merging list element:{}",
                gofmt::sprint_map(m)
            )));
        }
    }
    let mut out = FastMap::with_capacity_and_hasher(list.len(), Default::default());
    for v in list.iter_mut() {
        if let Value::Object(m) = v
            && let Some(key) = m.get(merge_key)
        {
            out.insert((GoType::of(key), gofmt::sprint(key)), m);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn directive_markers_are_compared_with_go_eq() {
        use crate::engine::gofmt::{GoPanic, GoType};
        let mut l = json!({"$patch": {"a": 1}}).as_object().unwrap().clone();
        let mut r = json!({"$patch": {"b": 2}}).as_object().unwrap().clone();
        let got = objects_have_conflicts(&mut l, &mut r, Meta::opaque(), Strategy::Default, 0);
        assert_eq!(got, Err(GoPanic::Uncomparable(GoType::Map).into()));
        let mut r = json!({"$patch": "replace"}).as_object().unwrap().clone();
        let got = objects_have_conflicts(&mut l, &mut r, Meta::opaque(), Strategy::Default, 0);
        assert_eq!(got, Ok(true));
        let mut l = r.clone();
        let got = objects_have_conflicts(&mut l, &mut r, Meta::opaque(), Strategy::Replace, 0);
        assert_eq!(got, Ok(false));
    }

    #[test]
    fn dedup_and_sort_in_place_leaves_go_tail() {
        let mut v = vec![json!("b"), json!("a"), json!("b")];
        let n = dedup_and_sort_in_place(&mut v).unwrap();
        assert_eq!(n, 2);
        assert_eq!(v, vec![json!("a"), json!("b"), json!("b")]);
    }
}
