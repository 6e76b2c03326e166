//! Merge: a patch into a document, as the API server applies it, and a patch into a patch, as
//! kubectl combines the two halves of a three-way diff (`mergeMap` and friends).
//!
//! Per key of the patch (seeds' table):
//! - `$patch: replace` / `$patch: delete` on a map → the map is replaced / emptied;
//! - `$retainKeys` → keys of the document missing from the list are cleared;
//! - `$setElementOrder/<list>` → the list is merged, then ordered (see [`super::order`]);
//! - `null` → the key is deleted;
//! - absent from the document, or of another type → the patch value is taken (directives removed);
//! - maps → recurse (`replace` strategy: take the patch map);
//! - lists → `merge` strategy: merge by key / as a set; otherwise take the patch list;
//! - `$deleteFromPrimitiveList/<list>` → those primitives are removed from the list.

use crate::value::{Map, Value};

use super::order::{normalize_element_order, order_keys, partition_by_present};
use super::window::Window;
use super::{
    DELETE, DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, MERGE, Meta, REPLACE,
    RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX, SmpError, Strategy, check_depth, extract_key,
    slice_element_type, strategy_of,
};
use crate::engine::gofmt::{self, FastMap, FastSet, GoType, ScalarKey};

/// How a merge treats directives and nulls (`MergeOptions`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MergeOptions {
    /// Apply the parallel lists (`$deleteFromPrimitiveList`, `$setElementOrder`, `$retainKeys`)
    /// instead of carrying them into the result. True when applying to a document.
    pub merge_parallel_list: bool,
    /// Drop `null`s that match nothing. True when applying to a document.
    pub ignore_unmatched_nulls: bool,
}

type Object = Map;

/// `mergeMap`: merge `patch` into `original`.
pub(crate) fn merge_map(
    mut original: Object,
    mut patch: Object,
    meta: Meta<'_>,
    opts: MergeOptions,
    depth: usize,
) -> Result<Object, SmpError> {
    check_depth(depth)?;
    if let Some(directive) = patch.get(DIRECTIVE_MARKER) {
        return match directive.as_str() {
            Some(REPLACE) => {
                patch.shift_remove(DIRECTIVE_MARKER);
                Ok(patch)
            }
            Some(DELETE) => Ok(Map::new()),
            _ => Err(SmpError::BadPatchType {
                directive: gofmt::sprint(directive),
                map: gofmt::sprint_map(&patch),
            }),
        };
    }
    apply_retain_keys(&mut original, &mut patch, opts)?;
    merge_set_element_order(&mut original, &mut patch, meta, opts, depth)?;

    // Parallel deletion lists go after the lists they delete from, as when `$setElementOrder`
    // (which kubectl always sends) has merged those lists first.
    let (lists, regular): (Vec<_>, Vec<_>) = patch
        .into_iter()
        .partition(|(k, _)| k.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX));
    let mut removed = FastSet::default();
    for (key, patch_value) in regular.into_iter().chain(lists) {
        merge_key_into(
            &mut original,
            &mut removed,
            key,
            patch_value,
            meta,
            opts,
            depth,
        )?;
    }
    if !removed.is_empty() {
        original.retain(|k, _| !removed.contains(k.as_str()));
    }
    Ok(original)
}

/// One key of the patch.
///
/// `removed`: keys a `null` deletes while applying, taken out in one pass at the end of the map
/// (`shift_remove` moves every later entry: 400 nulls in a 100,000-key ConfigMap cost 40 M
/// moves). A key in it is removed at once if another patch key reaches it, so the result is
/// exactly that of removing each at once.
fn merge_key_into(
    original: &mut Object,
    removed: &mut FastSet<crate::value::Str>,
    key: crate::value::Str,
    patch_value: Value,
    meta: Meta<'_>,
    opts: MergeOptions,
    depth: usize,
) -> Result<(), SmpError> {
    let mut key = key;
    let mut is_delete_list = false;
    if key.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX) {
        if !opts.merge_parallel_list {
            original.insert(key, patch_value);
            return Ok(());
        }
        key = extract_key(&key, DELETE_FROM_PRIMITIVE_LIST_PREFIX)?.into();
        is_delete_list = true;
    }
    if removed.remove(key.as_str()) {
        original.shift_remove(&key);
    }
    if patch_value.is_null() {
        if opts.ignore_unmatched_nulls {
            if original.contains_key(&key) {
                removed.insert(key);
            }
            return Ok(());
        }
        original.shift_remove(&key);
    }
    let Some(slot) = original.get_mut(&key) else {
        if !is_delete_list {
            take_patch_value(original, key, patch_value, opts, depth)?;
        }
        return Ok(());
    };
    if GoType::of(slot) != GoType::of(&patch_value) {
        if !is_delete_list {
            take_patch_value(original, key, patch_value, opts, depth)?;
        }
        return Ok(());
    }
    match patch_value {
        Value::Object(patch_map) => {
            let (sub, patch_meta) = meta.lookup_struct(&key)?;
            let (_, strategy) = strategy_of(&patch_meta)?;
            let Value::Object(original_map) = std::mem::take(slot) else {
                return Err(super::bad_arg_type_map(slot));
            };
            *slot = Value::Object(if strategy == Strategy::Replace {
                patch_map
            } else {
                merge_map(original_map, patch_map, sub, opts, depth + 1)?
            });
        }
        Value::Array(patch_list) => {
            let (sub, patch_meta) = meta.lookup_slice(&key)?;
            let (_, strategy) = strategy_of(&patch_meta)?;
            let Value::Array(original_list) = std::mem::take(slot) else {
                return Err(super::bad_arg_type_slice(slot));
            };
            let merge_key = patch_meta.merge_key.unwrap_or("");
            let ctx = SliceCtx {
                meta: sub,
                strategy,
                merge_key,
                is_delete_list,
                opts,
                depth,
            };
            *slot = Value::Array(merge_slice_handler(original_list, patch_list, &ctx, None)?);
        }
        scalar => *slot = scalar,
    }
    Ok(())
}

/// The key is new (or changed type): take the patch value, without directives (and without
/// unmatched nulls when applying).
fn take_patch_value(
    original: &mut Object,
    key: crate::value::Str,
    mut patch_value: Value,
    opts: MergeOptions,
    depth: usize,
) -> Result<(), SmpError> {
    if opts.ignore_unmatched_nulls {
        discard_null_values(&mut patch_value, depth)?;
    }
    match remove_directives(patch_value, depth)? {
        Some(v) => {
            original.insert(key, v);
        }
        None => {
            original.shift_remove(&key);
        }
    }
    Ok(())
}

/// `discardNullValuesFromPatch`: drop `null` map values, recursively.
fn discard_null_values(v: &mut Value, depth: usize) -> Result<(), SmpError> {
    check_depth(depth)?;
    match v {
        Value::Object(m) => {
            m.retain(|_, item| !item.is_null());
            for item in m.values_mut() {
                discard_null_values(item, depth + 1)?;
            }
        }
        Value::Array(items) => {
            for item in items {
                discard_null_values(item, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `removeDirectives`: a map holding `$patch` is dropped (`None`); other maps and lists are
/// cleaned recursively.
pub(crate) fn remove_directives(v: Value, depth: usize) -> Result<Option<Value>, SmpError> {
    check_depth(depth)?;
    Ok(Some(match v {
        Value::Object(m) => {
            if m.contains_key(DIRECTIVE_MARKER) {
                return Ok(None);
            }
            let mut out = Map::with_capacity(m.len());
            for (k, item) in m {
                if let Some(item) = remove_directives(item, depth + 1)? {
                    out.insert(k, item);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                if let Some(item) = remove_directives(item, depth + 1)? {
                    out.push(item);
                }
            }
            Value::Array(out)
        }
        other => other,
    }))
}

/// `applyRetainKeysDirective`.
fn apply_retain_keys(
    original: &mut Object,
    patch: &mut Object,
    opts: MergeOptions,
) -> Result<(), SmpError> {
    let Some(retain) = patch.shift_remove(RETAIN_KEYS_DIRECTIVE) else {
        return Ok(());
    };
    if !opts.merge_parallel_list {
        // Merging two patches: both must agree on the list.
        match original.get(RETAIN_KEYS_DIRECTIVE) {
            Some(existing) if *existing != retain => {
                return Err(SmpError::Other(format!(
                    "{} and {} are not deep equal: this may happen when calculating the 3-way diff patch",
                    gofmt::sprint(existing),
                    gofmt::sprint(&retain)
                )));
            }
            Some(_) => {}
            None => {
                original.insert(RETAIN_KEYS_DIRECTIVE, retain);
            }
        }
        return Ok(());
    }
    let Value::Array(keys) = &retain else {
        return Err(SmpError::BadPatchFormatForRetainKeys);
    };
    let keep: FastSet<ScalarKey<'_>> = keys.iter().filter_map(ScalarKey::of).collect();
    for (k, v) in patch.iter() {
        if v.is_null()
            || k.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX)
            || k.starts_with(SET_ELEMENT_ORDER_PREFIX)
        {
            continue;
        }
        if !keep.contains(&ScalarKey::Str(k)) {
            return Err(SmpError::BadPatchFormatForRetainKeys);
        }
    }
    original.retain(|k, _| keep.contains(&ScalarKey::Str(k)));
    Ok(())
}

/// `mergePatchIntoOriginal`: each `$setElementOrder/<list>` with its list.
fn merge_set_element_order(
    original: &mut Object,
    patch: &mut Object,
    meta: Meta<'_>,
    opts: MergeOptions,
    depth: usize,
) -> Result<(), SmpError> {
    let directives: Vec<crate::value::Str> = patch
        .keys()
        .filter(|k| k.starts_with(SET_ELEMENT_ORDER_PREFIX))
        .cloned()
        .collect();
    for key in directives {
        let Some(order_value) = patch.shift_remove(&key) else {
            continue;
        };
        if !opts.merge_parallel_list {
            match original.get(&key) {
                Some(existing) if *existing != order_value => {
                    return Err(SmpError::BadPatchFormatForSetElementOrderList);
                }
                Some(_) => {}
                None => {
                    original.insert(key.clone(), order_value.clone());
                }
            }
        }
        let Value::Array(set_order) = &order_value else {
            return Err(super::bad_arg_type_slice(&order_value));
        };
        let list_key = extract_key(&key, SET_ELEMENT_ORDER_PREFIX)?;
        let original_list = as_list(original.get(list_key))?;
        let patch_list = as_list(patch.get(list_key))?;
        let (sub, patch_meta) = meta.lookup_slice(list_key)?;
        let (_, strategy) = strategy_of(&patch_meta)?;
        let merge_key = patch_meta.merge_key.unwrap_or("");
        validate_patch_with_set_order_list(patch_list.unwrap_or(&[]), set_order, merge_key)?;
        if original_list.is_none() && patch_list.is_none() {
            continue;
        }
        let element_type =
            slice_element_type(&[original_list.unwrap_or(&[]), patch_list.unwrap_or(&[])])?;
        let is_map = element_type == GoType::Map;
        let mut window = Window::new(order_keys(original_list.unwrap_or(&[]), merge_key, is_map)?);
        let patch_order = order_keys(set_order, merge_key, is_map)?;
        let partition_keys = order_keys(set_order, merge_key, !merge_key.is_empty())?;

        let original_list = take_list(original, list_key);
        let patch_list = take_list(patch, list_key);
        let merged = match (original_list, patch_list) {
            (Some(o), None) => o,
            (None, Some(p)) => match remove_directives(Value::Array(p), depth)? {
                Some(Value::Array(items)) => items,
                _ => continue,
            },
            (Some(o), Some(p)) => {
                let ctx = SliceCtx {
                    meta: sub,
                    strategy,
                    merge_key,
                    is_delete_list: false,
                    opts,
                    depth,
                };
                merge_slice_handler(o, p, &ctx, Some(&mut window))?
            }
            (None, None) => continue,
        };
        let server_order = window.into_keys();
        let (in_patch, server_only) = partition_by_present(merged, &partition_keys, merge_key)?;
        let both = normalize_element_order(
            in_patch,
            server_only,
            &patch_order,
            &server_order,
            merge_key,
            is_map,
        )?;
        original.insert(list_key.to_owned(), Value::Array(both));
    }
    Ok(())
}

fn as_list(v: Option<&Value>) -> Result<Option<&[Value]>, SmpError> {
    match v {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(super::bad_arg_type_slice(other)),
    }
}

fn take_list(map: &mut Object, key: &str) -> Option<Vec<Value>> {
    match map.get_mut(key) {
        Some(Value::Array(items)) => Some(std::mem::take(items)),
        _ => None,
    }
}

/// `validatePatchWithSetOrderList`: the patch list's items appear in the `$setElementOrder`
/// list, in the same relative order.
fn validate_patch_with_set_order_list(
    patch_list: &[Value],
    set_order: &[Value],
    merge_key: &str,
) -> Result<(), SmpError> {
    if set_order.is_empty() || patch_list.is_empty() {
        return Ok(());
    }
    let non_delete: Vec<&Value> = if merge_key.is_empty() {
        patch_list.iter().collect()
    } else {
        let mut kept = Vec::with_capacity(patch_list.len());
        for v in patch_list {
            let Value::Object(m) = v else {
                return Err(super::bad_arg_type_map(v));
            };
            if m.get(DIRECTIVE_MARKER).and_then(Value::as_str) != Some(DELETE) {
                kept.push(v);
            }
        }
        kept
    };
    let (mut p, mut s) = (0, 0);
    while p < non_delete.len() && s < set_order.len() {
        if non_delete[p]
            .as_object()
            .is_some_and(|m| m.contains_key(DIRECTIVE_MARKER))
        {
            p += 1;
            continue;
        }
        if merge_key_value_equal(non_delete[p], &set_order[s], merge_key)? {
            p += 1;
        }
        s += 1;
    }
    if p < non_delete.len() && s >= set_order.len() {
        return Err(SmpError::Other(format!(
            "The order in patch list:\n{}\n doesn't match {SET_ELEMENT_ORDER_PREFIX} list:\n{}\n",
            gofmt::sprint(&Value::Array(patch_list.to_vec())),
            gofmt::sprint(&Value::Array(set_order.to_vec()))
        )));
    }
    Ok(())
}

/// `mergeKeyValueEqual`.
fn merge_key_value_equal(left: &Value, right: &Value, merge_key: &str) -> Result<bool, SmpError> {
    if merge_key.is_empty() {
        return Ok(gofmt::go_eq(left, right));
    }
    let Value::Object(l) = left else {
        return Err(super::bad_arg_type_map(left));
    };
    let Value::Object(r) = right else {
        return Err(super::bad_arg_type_map(right));
    };
    let lv = l
        .get(merge_key)
        .ok_or_else(|| super::no_merge_key(l, merge_key))?;
    let rv = r
        .get(merge_key)
        .ok_or_else(|| super::no_merge_key(r, merge_key))?;
    Ok(gofmt::go_eq(lv, rv))
}

/// What a list merge needs to know about its field.
struct SliceCtx<'m, 's> {
    meta: Meta<'s>,
    strategy: Strategy,
    merge_key: &'m str,
    is_delete_list: bool,
    opts: MergeOptions,
    depth: usize,
}

/// `mergeSliceHandler`: merge lists with the `merge` strategy (and deletion lists); take the
/// patch list otherwise.
fn merge_slice_handler(
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
fn merge_slice(
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
            return Ok(delete_from_slice(original, &patch));
        }
        let server_order = original.clone();
        let patch_order = patch.clone();
        let mut both = original;
        both.extend(patch);
        gofmt::deduplicate_scalars(&mut both);
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
fn merge_slice_with_special_elements(
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
            return Err(super::bad_arg_type_map(&v));
        };
        let Some(directive) = m.get(DIRECTIVE_MARKER) else {
            plain.push(v);
            continue;
        };
        match directive.as_str() {
            Some(DELETE) => {
                let value = m
                    .get(merge_key)
                    .ok_or_else(|| super::no_merge_key(m, merge_key))?;
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

/// Index of the first item that is not a map: the reference fails there when it scans past it.
fn first_non_map(list: &[Value]) -> Option<usize> {
    list.iter().position(|v| !v.is_object())
}

fn not_a_map(index: usize) -> SmpError {
    SmpError::Other(format!("value for key {index} is not a map"))
}

/// `deleteMatchingEntries` for each `$patch: delete` value in turn: remove every map whose merge
/// key equals it. One pass over the list (merge keys read once), whatever the number of
/// directives.
fn delete_matching_entries(
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
fn merge_slice_without_special_elements(
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
    for v in patch {
        let Value::Object(patch_map) = v else {
            return Err(super::bad_arg_type_map(&v));
        };
        let value = patch_map
            .get(merge_key)
            .ok_or_else(|| super::no_merge_key(&patch_map, merge_key))?;
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

/// `deleteFromSlice`: drop the primitives listed in `to_delete`.
fn delete_from_slice(current: Vec<Value>, to_delete: &[Value]) -> Vec<Value> {
    let gone: FastSet<ScalarKey<'_>> = to_delete.iter().filter_map(ScalarKey::of).collect();
    current
        .into_iter()
        .filter(|v| ScalarKey::of(v).is_none_or(|k| !gone.contains(&k)))
        .collect()
}
