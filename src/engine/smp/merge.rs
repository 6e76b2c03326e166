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
//!
//! | file | owns |
//! |---|---|
//! | `merge.rs` | maps key by key, `$patch` on a map, nulls, directives removed from taken values |
//! | `merge/retain_keys.rs` | `$retainKeys` |
//! | `merge/element_order.rs` | `$setElementOrder/<list>` |
//! | `merge/lists.rs` | lists: by merge key, as sets, `$patch` elements, `$deleteFromPrimitiveList` |

mod element_order;
mod lists;
mod retain_keys;

use crate::value::{Map, Value};

use super::{
    DELETE, DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, Meta, REPLACE, SmpError, Strategy,
    check_depth, extract_key, strategy_of,
};
use crate::engine::gofmt::{self, FastSet, GoType};
use element_order::merge_set_element_order;
use lists::{SliceCtx, merge_slice_handler};
use retain_keys::apply_retain_keys;

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
            *slot = Value::Array(
                merge_slice_handler(original_list, patch_list, &ctx, None)
                    .map_err(|e| e.in_list(&key, merge_key))?,
            );
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
