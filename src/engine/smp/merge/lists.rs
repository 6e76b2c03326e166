//! Merging lists (the list tables): `merge` strategy lists of maps by their merge key, lists of
//! primitives as sets, `$patch: delete`/`replace`/`merge` elements, and
//! `$deleteFromPrimitiveList/<list>`; any other list takes the patch list.

use super::{MergeOptions, merge_map};
use crate::engine::gofmt::{self, FastMap, FastSet, GoType, ScalarKey};
use crate::engine::smp::order::{normalize_element_order, order_keys, partition_by_present};
use crate::engine::smp::window::Window;
use crate::engine::smp::{
    DELETE, DIRECTIVE_MARKER, MERGE, Meta, REPLACE, SmpError, Strategy, slice_element_type,
};
use crate::value::Value;

/// What a list merge needs to know about its field.
pub(super) struct SliceCtx<'m, 's> {
    pub(super) meta: Meta<'s>,
    pub(super) strategy: Strategy,
    pub(super) merge_key: &'m str,
    pub(super) is_delete_list: bool,
    pub(super) opts: MergeOptions,
    pub(super) depth: usize,
}

/// `mergeSliceHandler`: merge lists with the `merge` strategy (and deletion lists); take the
/// patch list otherwise.
pub(super) fn merge_slice_handler(
    original: Vec<Value>,
    patch: Vec<Value>,
    ctx: &SliceCtx<'_, '_>,
    window: Option<&mut Window>,
) -> Result<Vec<Value>, SmpError> {
    if ctx.strategy == Strategy::Merge || ctx.is_delete_list {
        merge_slice(original, patch, ctx, window)
    } else {
        Ok(patch)
    }
}

/// `mergeSlice`.
pub(super) fn merge_slice(
    original: Vec<Value>,
    patch: Vec<Value>,
    ctx: &SliceCtx<'_, '_>,
    mut window: Option<&mut Window>,
) -> Result<Vec<Value>, SmpError> {
    if original.is_empty() && patch.is_empty() {
        return Ok(original);
    }
    let is_map = slice_element_type(&[&original, &patch])? == GoType::Map;
    let merge_key = ctx.merge_key;
    let (server_order, patch_order, merged) = if is_map {
        if merge_key.is_empty() {
            // The reference names the Go kind of the element type here: a struct.
            return Err(SmpError::Other(
                "cannot merge lists without merge key for struct".into(),
            ));
        }
        let (original, patch) =
            merge_slice_with_special_elements(original, patch, merge_key, window.as_deref_mut())?;
        let server_order = order_keys(&original, merge_key, true)?;
        let patch_order = order_keys(&patch, merge_key, true)?;
        let merged = merge_slice_without_special_elements(original, patch, ctx, window)?;
        (server_order, patch_order, merged)
    } else {
        if ctx.opts.merge_parallel_list && ctx.is_delete_list {
            return delete_from_slice(original, &patch).map_err(SmpError::from);
        }
        // `both := append(original, patch...)` may fill `original`'s spare capacity, and then
        // `deduplicateScalars` writes into the array `original` still reads: the order the
        // merged list gets from it (live-only items among the new ones) sees those writes.
        let mut own = None;
        let window = match window {
            Some(w) => w,
            None => own.insert(Window::new(original.clone())),
        };
        window.append_dedup_scalars(&patch)?;
        let server_order = window.keys().to_vec();
        let patch_order = patch.clone();
        let mut both = original;
        both.extend(patch);
        gofmt::deduplicate_scalars(&mut both)?;
        (server_order, patch_order, both)
    };
    let partition_keys = if !merge_key.is_empty() && !is_map {
        order_keys(&patch_order, merge_key, true)?
    } else {
        patch_order.clone()
    };
    let (in_patch, server_only) = partition_by_present(merged, &partition_keys, merge_key)?;
    normalize_element_order(
        in_patch,
        server_only,
        &patch_order,
        &server_order,
        merge_key,
        is_map,
    )
}

/// `mergeSliceWithSpecialElements`: apply `$patch: delete` items, note `$patch: replace`.
pub(super) fn merge_slice_with_special_elements(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
    mut window: Option<&mut Window>,
) -> Result<(Vec<Value>, Vec<Value>), SmpError> {
    let mut plain = Vec::with_capacity(patch.len());
    let mut replace = false;
    let mut deletes: Vec<Value> = Vec::new();
    for v in patch {
        let Value::Object(m) = &v else {
            return Err(crate::engine::smp::bad_arg_type_map(&v));
        };
        let Some(directive) = m.get(DIRECTIVE_MARKER) else {
            plain.push(v);
            continue;
        };
        match directive.as_str() {
            Some(DELETE) => {
                let value = m
                    .get(merge_key)
                    .ok_or_else(|| crate::engine::smp::no_merge_key(m, merge_key))?;
                delete_scan_stops(&original, merge_key, value)?;
                deletes.push(value.clone());
            }
            Some(REPLACE) => replace = true,
            Some(MERGE) => {
                return Err(SmpError::Other(
                    "merging lists cannot yet be specified in the patch".into(),
                ));
            }
            _ => {
                return Err(SmpError::BadPatchType {
                    directive: gofmt::sprint(directive),
                    map: gofmt::sprint_map(m),
                });
            }
        }
    }
    if !deletes.is_empty() {
        original = delete_matching_entries(original, merge_key, &deletes, window.as_deref_mut())?;
    }
    if replace {
        if let Some(w) = window {
            w.detach();
        }
        Ok((plain, Vec::new()))
    } else {
        Ok((original, plain))
    }
}

/// Where the reference's `deleteMatchingEntries` for `value` stops with an error before deleting
/// anything it would not delete anyway: its scan (`findMapInSliceBasedOnKeyValue`) fails at the
/// first item that is not a map, and panics at the first merge key it cannot compare with
/// `value` (a map against a map). Deletions never remove either kind of item, so the list as it
/// is tells.
fn delete_scan_stops(original: &[Value], merge_key: &str, value: &Value) -> Result<(), SmpError> {
    let non_map = first_non_map(original);
    let scanned = &original[..non_map.unwrap_or(original.len())];
    if let Some(panic) = gofmt::scan_panic(value, scanned.iter().filter_map(|v| v.get(merge_key))) {
        return Err(panic.into());
    }
    match non_map {
        Some(i) => Err(not_a_map(i)),
        None => Ok(()),
    }
}

/// Index of the first item that is not a map: the reference fails there when it scans past it.
pub(super) fn first_non_map(list: &[Value]) -> Option<usize> {
    list.iter().position(|v| !v.is_object())
}

pub(super) fn not_a_map(index: usize) -> SmpError {
    SmpError::Other(format!("value for key {index} is not a map"))
}

/// `deleteMatchingEntries` for each `$patch: delete` value in turn: remove every map whose merge
/// key equals it. One pass over the list (merge keys read once), whatever the number of
/// directives.
pub(super) fn delete_matching_entries(
    original: Vec<Value>,
    merge_key: &str,
    values: &[Value],
    window: Option<&mut Window>,
) -> Result<Vec<Value>, SmpError> {
    if let Some(i) = first_non_map(&original) {
        return Err(not_a_map(i));
    }
    let gone: FastSet<ScalarKey<'_>> = values.iter().filter_map(ScalarKey::of).collect();
    let keys: Vec<Option<ScalarKey<'_>>> = original
        .iter()
        .map(|v| v.get(merge_key).and_then(ScalarKey::of))
        .collect();
    if let Some(w) = window {
        // Replay the reference's removals one directive at a time: each removal shifts the rest
        // of the array left by one, in place.
        let mut current = keys.clone();
        for value in values.iter().filter_map(ScalarKey::of) {
            let mut pos = 0;
            current.retain(|k| {
                if *k == Some(value) {
                    w.remove(pos);
                    false
                } else {
                    pos += 1;
                    true
                }
            });
        }
    }
    let keep: Vec<bool> = keys
        .iter()
        .map(|k| k.is_none_or(|k| !gone.contains(&k)))
        .collect();
    Ok(original
        .into_iter()
        .zip(keep)
        .filter_map(|(v, keep)| keep.then_some(v))
        .collect())
}

/// A scalar key that owns its text, for indexes over lists that grow while indexed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum OwnedKey {
    Nil,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(String),
}

impl OwnedKey {
    fn of(v: &Value) -> Option<OwnedKey> {
        Some(match ScalarKey::of(v)? {
            ScalarKey::Nil => OwnedKey::Nil,
            ScalarKey::Bool(b) => OwnedKey::Bool(b),
            ScalarKey::Int(i) => OwnedKey::Int(i),
            ScalarKey::Float(f) => OwnedKey::Float(f),
            ScalarKey::Str(s) => OwnedKey::Str(s.to_owned()),
        })
    }
}

/// `mergeSliceWithoutSpecialElements`: each patch item merges into the first original item with
/// the same merge key, or is appended. Indexed, so linear in the list sizes.
pub(super) fn merge_slice_without_special_elements(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    ctx: &SliceCtx<'_, '_>,
    mut window: Option<&mut Window>,
) -> Result<Vec<Value>, SmpError> {
    let merge_key = ctx.merge_key;
    let non_map = first_non_map(&original);
    let scan_end = non_map.unwrap_or(original.len());
    let mut index: FastMap<OwnedKey, usize> =
        FastMap::with_capacity_and_hasher(original.len(), Default::default());
    for (i, v) in original[..scan_end].iter().enumerate() {
        if let Some(k) = v.get(merge_key).and_then(OwnedKey::of) {
            index.entry(k).or_insert(i);
        }
    }
    // Merge keys Go's `==` cannot compare (maps, lists) already in the scanned part: a patch
    // item whose key has the same type panics in the scan for it.
    let mut uncomparable: FastSet<GoType> = original[..scan_end]
        .iter()
        .filter_map(|v| v.get(merge_key).map(GoType::of))
        .filter(|t| !t.is_comparable())
        .collect();
    for v in patch {
        let Value::Object(patch_map) = v else {
            return Err(crate::engine::smp::bad_arg_type_map(&v));
        };
        let value = patch_map
            .get(merge_key)
            .ok_or_else(|| crate::engine::smp::no_merge_key(&patch_map, merge_key))?;
        let value_type = GoType::of(value);
        if !value_type.is_comparable() {
            if uncomparable.contains(&value_type) {
                return Err(gofmt::GoPanic::Uncomparable(value_type).into());
            }
            if let Some(nm) = non_map {
                return Err(not_a_map(nm));
            }
            uncomparable.insert(value_type);
        }
        let key = OwnedKey::of(value);
        let found = key.as_ref().and_then(|k| index.get(k).copied());
        match found {
            Some(i) if non_map.is_none_or(|nm| i < nm) => {
                let Value::Object(target) = std::mem::take(&mut original[i]) else {
                    return Err(not_a_map(i));
                };
                original[i] = Value::Object(merge_map(
                    target,
                    patch_map,
                    ctx.meta,
                    ctx.opts,
                    ctx.depth + 1,
                )?);
            }
            _ => {
                if let Some(nm) = non_map {
                    return Err(not_a_map(nm));
                }
                if let Some(k) = key {
                    index.entry(k).or_insert(original.len());
                }
                if let Some(w) = window.as_deref_mut() {
                    w.push(value.clone());
                }
                original.push(Value::Object(patch_map));
            }
        }
    }
    Ok(original)
}

/// `deleteFromSlice`: drop the primitives listed in `to_delete` (kept in a Go map: hashing a
/// map or a list panics).
pub(super) fn delete_from_slice(
    current: Vec<Value>,
    to_delete: &[Value],
) -> Result<Vec<Value>, gofmt::GoPanic> {
    let mut gone: FastSet<ScalarKey<'_>> =
        FastSet::with_capacity_and_hasher(to_delete.len(), Default::default());
    for v in to_delete {
        gone.insert(gofmt::go_hash_key(v)?);
    }
    let mut kept = Vec::with_capacity(current.len());
    for v in current {
        if !gone.contains(&gofmt::go_hash_key(&v)?) {
            kept.push(v);
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gofmt::GoPanic;
    use crate::json;

    const MAP_PANIC: GoPanic = GoPanic::Uncomparable(GoType::Map);

    fn ctx() -> SliceCtx<'static, 'static> {
        SliceCtx {
            meta: Meta::opaque(),
            strategy: Strategy::Merge,
            merge_key: "name",
            is_delete_list: false,
            opts: MergeOptions::default(),
            depth: 0,
        }
    }

    #[test]
    fn delete_directive_with_a_map_key_panics_on_a_map_key() {
        let original = vec![json!({"name": "a"}), json!({"name": {"v": 1}})];
        let patch = vec![json!({"name": {"v": 2}, "$patch": "delete"})];
        let got = merge_slice_with_special_elements(original.clone(), patch.clone(), "name", None);
        assert_eq!(got, Err(MAP_PANIC.into()));
        // Only string keys to scan: nothing matches, nothing is deleted.
        let got = merge_slice_with_special_elements(original[..1].to_vec(), patch, "name", None);
        assert_eq!(got, Ok((original[..1].to_vec(), Vec::new())));
        // A non-map item before any map key: the scan's error comes first.
        let original = vec![json!("x"), json!({"name": {"v": 1}})];
        let patch = vec![json!({"name": {"v": 2}, "$patch": "delete"})];
        let got = merge_slice_with_special_elements(original, patch, "name", None);
        assert_eq!(got, Err(not_a_map(0)));
    }

    #[test]
    fn second_map_key_from_the_patch_panics_on_the_first_one_appended() {
        let original = vec![json!({"name": "a"})];
        let one = vec![json!({"name": {"v": 1}})];
        let got = merge_slice_without_special_elements(original.clone(), one.clone(), &ctx(), None);
        assert_eq!(got, Ok(vec![original[0].clone(), one[0].clone()]));
        let two = vec![json!({"name": {"v": 1}}), json!({"name": {"v": 2}})];
        let got = merge_slice_without_special_elements(original, two, &ctx(), None);
        assert_eq!(got, Err(MAP_PANIC.into()));
        // A list key never meets a map key.
        let mixed = vec![json!({"name": {"v": 1}}), json!({"name": [1]})];
        let got = merge_slice_without_special_elements(Vec::new(), mixed, &ctx(), None);
        assert!(got.is_ok());
    }

    #[test]
    fn delete_from_slice_hashes_like_a_go_map() {
        let got = delete_from_slice(vec![json!("a"), json!("b")], &[json!("a")]);
        assert_eq!(got, Ok(vec![json!("b")]));
        let got = delete_from_slice(vec![json!("a")], &[json!({"v": 1})]);
        assert_eq!(got, Err(GoPanic::Unhashable(GoType::Map)));
    }
}
