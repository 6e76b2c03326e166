//! `$setElementOrder/<list>`: a merging list merged, then ordered as the patch lists it, and
//! the patch's items checked against that order (`mergePatchIntoOriginal`,
//! `validatePatchWithSetOrderList`).

use super::lists::{SliceCtx, merge_slice_handler};
use super::{MergeOptions, Object, remove_directives};
use crate::engine::gofmt::{self, GoType};
use crate::engine::smp::order::{normalize_element_order, order_keys, partition_by_present};
use crate::engine::smp::window::Window;
use crate::engine::smp::{
    DELETE, DIRECTIVE_MARKER, Meta, SET_ELEMENT_ORDER_PREFIX, SmpError, extract_key,
    slice_element_type, strategy_of,
};
use crate::value::Value;

/// `mergePatchIntoOriginal`: each `$setElementOrder/<list>` with its list.
pub(super) fn merge_set_element_order(
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
            return Err(crate::engine::smp::bad_arg_type_slice(&order_value));
        };
        let list_key = extract_key(&key, SET_ELEMENT_ORDER_PREFIX)?;
        let original_list = as_list(original.get(list_key))?;
        let patch_list = as_list(patch.get(list_key))?;
        let (sub, patch_meta) = meta.lookup_slice(list_key)?;
        let (_, strategy) = strategy_of(&patch_meta)?;
        let merge_key = patch_meta.merge_key.unwrap_or("");
        // Go panics (a map merge key compared with `==`) are told with the list they are in.
        let in_list = |e: SmpError| e.in_list(list_key, merge_key);
        validate_patch_with_set_order_list(patch_list.unwrap_or(&[]), set_order, merge_key)
            .map_err(in_list)?;
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
        // The reference deletes the list from the patch (`delete(patch, originalKey)`), so the
        // merge of the patch's other keys never sees it again: merged a second time as an empty
        // list, a list of primitives would lose its duplicates (`deduplicateScalars`).
        let patch_list = match patch.shift_remove(list_key) {
            Some(Value::Array(items)) => Some(items),
            _ => None,
        };
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
                merge_slice_handler(o, p, &ctx, Some(&mut window)).map_err(in_list)?
            }
            (None, None) => continue,
        };
        let server_order = window.into_keys();
        let (in_patch, server_only) =
            partition_by_present(merged, &partition_keys, merge_key).map_err(in_list)?;
        let both = normalize_element_order(
            in_patch,
            server_only,
            &patch_order,
            &server_order,
            merge_key,
            is_map,
        )
        .map_err(in_list)?;
        original.insert(list_key.to_owned(), Value::Array(both));
    }
    Ok(())
}

pub(super) fn as_list(v: Option<&Value>) -> Result<Option<&[Value]>, SmpError> {
    match v {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(crate::engine::smp::bad_arg_type_slice(other)),
    }
}

pub(super) fn take_list(map: &mut Object, key: &str) -> Option<Vec<Value>> {
    match map.get_mut(key) {
        Some(Value::Array(items)) => Some(std::mem::take(items)),
        _ => None,
    }
}

/// `validatePatchWithSetOrderList`: the patch list's items appear in the `$setElementOrder`
/// list, in the same relative order.
pub(super) fn validate_patch_with_set_order_list(
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
                return Err(crate::engine::smp::bad_arg_type_map(v));
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
pub(super) fn merge_key_value_equal(
    left: &Value,
    right: &Value,
    merge_key: &str,
) -> Result<bool, SmpError> {
    if merge_key.is_empty() {
        return gofmt::go_eq(left, right).map_err(SmpError::from);
    }
    let Value::Object(l) = left else {
        return Err(crate::engine::smp::bad_arg_type_map(left));
    };
    let Value::Object(r) = right else {
        return Err(crate::engine::smp::bad_arg_type_map(right));
    };
    let lv = l
        .get(merge_key)
        .ok_or_else(|| crate::engine::smp::no_merge_key(l, merge_key))?;
    let rv = r
        .get(merge_key)
        .ok_or_else(|| crate::engine::smp::no_merge_key(r, merge_key))?;
    gofmt::go_eq(lv, rv).map_err(SmpError::from)
}
