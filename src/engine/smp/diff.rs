//! Diff: the patch that turns one document into another (`diffMaps` and friends).
//!
//! Per field of the modified document (seeds' table):
//! - absent before → added to the patch whole;
//! - present in both, different Go types → replaced whole;
//! - maps → recurse (or replace whole with the `replace` strategy; collect `$retainKeys` with
//!   `retainKeys`);
//! - lists with `merge` → items matched by merge key (maps) or as a set (primitives), with
//!   `$patch: delete` items, `$deleteFromPrimitiveList/<list>` and `$setElementOrder/<list>`;
//! - other lists and primitives → replaced when not equal.
//!
//! and per field only in the original: `null` (delete).

use crate::value::{Map, Value};

use super::order::{normalize_slice_order, order_keys};
use super::{
    DELETE, DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, Meta, RETAIN_KEYS_DIRECTIVE,
    SET_ELEMENT_ORDER_PREFIX, SmpError, Strategy, check_depth, slice_element_type, strategy_of,
};
use crate::engine::gofmt::{self, GoType};

/// What the diff keeps (`DiffOptions`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DiffOptions {
    /// Emit `$setElementOrder/<list>` for merging lists.
    pub set_element_order: bool,
    /// Keep only deletions (kubectl's "deletions" half: last-applied → local).
    pub ignore_changes_and_additions: bool,
    /// Keep only changes and additions (kubectl's "delta" half: live → local).
    pub ignore_deletions: bool,
    /// Emit `$retainKeys` (the field has the `retainKeys` strategy).
    pub build_retain_keys_directive: bool,
}

/// `diffMaps`: the patch from `original` to `modified`.
pub(crate) fn diff_maps(
    original: &Map,
    modified: &Map,
    meta: Meta<'_>,
    opts: DiffOptions,
    depth: usize,
) -> Result<Map, SmpError> {
    check_depth(depth)?;
    let mut patch = Map::new();
    let mut retain_keys: Vec<Value> = Vec::new();

    for (key, modified_value) in modified {
        if opts.build_retain_keys_directive && !modified_value.is_null() {
            retain_keys.push(Value::String(key.clone()));
        }
        let Some(original_value) = original.get(key) else {
            if !opts.ignore_changes_and_additions {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        };
        if key == DIRECTIVE_MARKER {
            let (Value::String(o), Value::String(m)) = (original_value, modified_value) else {
                return Err(SmpError::Other(format!(
                    "invalid value for special key: {DIRECTIVE_MARKER}"
                )));
            };
            if o != m {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        }
        if GoType::of(original_value) != GoType::of(modified_value) {
            if !opts.ignore_changes_and_additions {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        }
        match (original_value, modified_value) {
            (Value::Object(o), Value::Object(m)) => {
                handle_map_diff(key, o, m, &mut patch, meta, opts, depth)?;
            }
            (Value::Array(o), Value::Array(m)) => {
                handle_slice_diff(key, o, m, &mut patch, meta, opts, depth)?;
            }
            _ => replace_if_not_equal(key, original_value, modified_value, &mut patch, opts),
        }
    }

    if !opts.ignore_deletions {
        for key in original.keys() {
            if !modified.contains_key(key) {
                patch.insert(key.clone(), Value::Null);
            }
        }
    }
    if !retain_keys.is_empty()
        && (!patch.is_empty() || has_additional_new_field(original, modified))
    {
        gofmt::sort_scalars(&mut retain_keys);
        patch.insert(RETAIN_KEYS_DIRECTIVE, Value::Array(retain_keys));
    }
    Ok(patch)
}

/// `hasAdditionalNewField`: does `original` hold a non-null key that `modified` lacks?
fn has_additional_new_field(original: &Map, modified: &Map) -> bool {
    original
        .iter()
        .any(|(k, v)| !v.is_null() && !modified.contains_key(k))
}

fn replace_if_not_equal(
    key: &str,
    original: &Value,
    modified: &Value,
    patch: &mut Map,
    opts: DiffOptions,
) {
    if !opts.ignore_changes_and_additions && original != modified {
        patch.insert(key.to_owned(), modified.clone());
    }
}

/// `handleMapDiff`: a map field present in both.
fn handle_map_diff(
    key: &str,
    original: &Map,
    modified: &Map,
    patch: &mut Map,
    meta: Meta<'_>,
    mut opts: DiffOptions,
    depth: usize,
) -> Result<(), SmpError> {
    let (sub, patch_meta) = match meta.lookup_struct(key) {
        Ok(found) => found,
        // Without metadata, identical values still need no patch.
        Err(_) if original == modified => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let (retain_keys, strategy) = strategy_of(&patch_meta)?;
    opts.build_retain_keys_directive = retain_keys;
    if strategy == Strategy::Replace {
        if !opts.ignore_changes_and_additions {
            patch.insert(key.to_owned(), Value::Object(modified.clone()));
        }
        return Ok(());
    }
    let value = diff_maps(original, modified, sub, opts, depth + 1)?;
    if !value.is_empty() {
        patch.insert(key.to_owned(), Value::Object(value));
    }
    Ok(())
}

/// `handleSliceDiff`: a list field present in both.
fn handle_slice_diff(
    key: &str,
    original: &[Value],
    modified: &[Value],
    patch: &mut Map,
    meta: Meta<'_>,
    mut opts: DiffOptions,
    depth: usize,
) -> Result<(), SmpError> {
    let (sub, patch_meta) = match meta.lookup_slice(key) {
        Ok(found) => found,
        Err(_) if original == modified => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let (retain_keys, strategy) = strategy_of(&patch_meta)?;
    if strategy != Strategy::Merge {
        if !opts.ignore_changes_and_additions && original != modified {
            patch.insert(key.to_owned(), Value::Array(modified.to_vec()));
        }
        return Ok(());
    }
    opts.build_retain_keys_directive = retain_keys;
    let merge_key = patch_meta.merge_key.unwrap_or("");
    let lists = diff_lists(original, modified, sub, merge_key, opts, depth)
        .map_err(|e| e.in_list(key, merge_key))?;
    if !lists.patch.is_empty() {
        patch.insert(key.to_owned(), Value::Array(lists.patch));
    }
    if !lists.delete.is_empty() {
        patch.insert(
            format!("{DELETE_FROM_PRIMITIVE_LIST_PREFIX}/{key}"),
            Value::Array(lists.delete),
        );
    }
    if !lists.set_order.is_empty() {
        patch.insert(
            format!("{SET_ELEMENT_ORDER_PREFIX}/{key}"),
            Value::Array(lists.set_order),
        );
    }
    Ok(())
}

/// The three parallel lists a merging list diff produces.
#[derive(Default)]
struct ListDiff {
    patch: Vec<Value>,
    delete: Vec<Value>,
    set_order: Vec<Value>,
}

/// `diffLists`: a merging list.
fn diff_lists(
    original: &[Value],
    modified: &[Value],
    meta: Meta<'_>,
    merge_key: &str,
    opts: DiffOptions,
    depth: usize,
) -> Result<ListDiff, SmpError> {
    if original.is_empty() {
        if modified.is_empty() || opts.ignore_changes_and_additions {
            return Ok(ListDiff::default());
        }
        return Ok(ListDiff {
            patch: modified.to_vec(),
            ..ListDiff::default()
        });
    }
    match slice_element_type(&[original, modified])? {
        GoType::Map => {
            let (patch, deletions) =
                diff_lists_of_maps(original, modified, meta, merge_key, opts, depth)?;
            let keys = order_keys(modified, merge_key, true)?;
            let mut patch = normalize_slice_order(patch, &keys, merge_key, true)?;
            let order_same = is_order_same(original, modified, merge_key)?;
            patch.extend(deletions);
            let mut set_order = Vec::new();
            if opts.set_element_order
                && ((!opts.ignore_changes_and_additions && (!patch.is_empty() || !order_same))
                    || (!opts.ignore_deletions && !patch.is_empty()))
            {
                set_order = keys
                    .into_iter()
                    .map(|k| {
                        let mut m = Map::new();
                        m.insert(merge_key.to_owned(), k);
                        Value::Object(m)
                    })
                    .collect();
            }
            Ok(ListDiff {
                patch,
                delete: Vec::new(),
                set_order,
            })
        }
        GoType::Slice => Err(SmpError::NoListOfLists),
        _ => {
            let (patch, delete) = diff_lists_of_scalars(original, modified, opts)?;
            let patch = normalize_slice_order(patch, modified, merge_key, false)?;
            // The reference sorts `original` in place while diffing (`sortScalars` on the
            // caller's slice), so the order check sees it sorted: a live list that differs from
            // the file only in order needs no `$setElementOrder` (oracle case 86).
            let mut original_sorted = original.to_vec();
            gofmt::sort_scalars(&mut original_sorted);
            let mut set_order = Vec::new();
            if opts.set_element_order
                && ((!opts.ignore_deletions && !delete.is_empty())
                    || (!opts.ignore_changes_and_additions && original_sorted != modified))
            {
                set_order = modified.to_vec();
            }
            Ok(ListDiff {
                patch,
                delete,
                set_order,
            })
        }
    }
}

/// `isOrderSame`: do both lists hold the same merge keys in the same order? Compared pair by
/// pair with Go's `==`, which panics on two map (or two list) values.
fn is_order_same(
    original: &[Value],
    modified: &[Value],
    merge_key: &str,
) -> Result<bool, SmpError> {
    if original.len() != modified.len() {
        return Ok(false);
    }
    for (o, m) in original.iter().zip(modified) {
        let (Value::Object(o), Value::Object(m)) = (o, m) else {
            return Err(super::bad_arg_type_map(if o.is_object() { m } else { o }));
        };
        let lo = o
            .get(merge_key)
            .ok_or_else(|| super::no_merge_key(o, merge_key))?;
        let lm = m
            .get(merge_key)
            .ok_or_else(|| super::no_merge_key(m, merge_key))?;
        if !gofmt::go_eq(lo, lm)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `diffListsOfScalars`: additions and (deduplicated) deletions of a primitive set.
fn diff_lists_of_scalars(
    original: &[Value],
    modified: &[Value],
    opts: DiffOptions,
) -> Result<(Vec<Value>, Vec<Value>), SmpError> {
    let text = |v| gofmt::sprint_cow(v);
    let mut o: Vec<(std::borrow::Cow<'_, str>, &Value)> =
        original.iter().map(|v| (text(v), v)).collect();
    let mut m: Vec<(std::borrow::Cow<'_, str>, &Value)> =
        modified.iter().map(|v| (text(v), v)).collect();
    gofmt::go_sort_by_text(&mut o, |(t, _)| t);
    gofmt::go_sort_by_text(&mut m, |(t, _)| t);
    let (mut add, mut delete) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < o.len() || j < m.len() {
        let ord = match (o.get(i), m.get(j)) {
            (Some(a), Some(b)) => gofmt::cmp_text(&a.0, &b.0),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, _) => std::cmp::Ordering::Greater,
        };
        match ord {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                if !opts.ignore_deletions {
                    delete.push(o[i].1.clone());
                }
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                if !opts.ignore_changes_and_additions {
                    add.push(m[j].1.clone());
                }
                j += 1;
            }
        }
    }
    gofmt::deduplicate_scalars(&mut delete)?;
    Ok((add, delete))
}

/// `diffListsOfMaps`: walk both lists sorted by merge key; matching items recurse, others are
/// added or get a `$patch: delete` directive.
fn diff_lists_of_maps(
    original: &[Value],
    modified: &[Value],
    meta: Meta<'_>,
    merge_key: &str,
    opts: DiffOptions,
    depth: usize,
) -> Result<(Vec<Value>, Vec<Value>), SmpError> {
    let o = sorted_by_merge_key(original, merge_key)?;
    let m = sorted_by_merge_key(modified, merge_key)?;
    let mut patch = Vec::with_capacity(modified.len());
    let mut deletions = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < o.len() || j < m.len() {
        let ord = match (o.get(i), m.get(j)) {
            (Some(a), Some(b)) => gofmt::cmp_text(&a.0, &b.0),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, _) => std::cmp::Ordering::Greater,
        };
        match ord {
            std::cmp::Ordering::Equal => {
                let (_, om, _) = &o[i];
                let (_, mm, mk) = &m[j];
                let mut value = diff_maps(om, mm, meta, opts, depth + 1)?;
                if !value.is_empty() {
                    value.insert(merge_key.to_owned(), (*mk).clone());
                    patch.push(Value::Object(value));
                }
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Greater => {
                if !opts.ignore_changes_and_additions {
                    patch.push(Value::Object(m[j].1.clone()));
                }
                j += 1;
            }
            std::cmp::Ordering::Less => {
                if !opts.ignore_deletions {
                    let mut directive = Map::new();
                    directive.insert(merge_key.to_owned(), o[i].2.clone());
                    directive.insert(DIRECTIVE_MARKER, Value::String(DELETE.into()));
                    deletions.push(Value::Object(directive));
                }
                i += 1;
            }
        }
    }
    Ok((patch, deletions))
}

/// A list item with its merge key's `%v` text and value.
type Keyed<'v> = (std::borrow::Cow<'v, str>, &'v Map, &'v Value);

/// Items of a list of maps with their merge key's `%v` text and value, sorted as the reference
/// sorts them (`sortMergeListsByNameArray` without recursion).
fn sorted_by_merge_key<'v>(list: &'v [Value], merge_key: &str) -> Result<Vec<Keyed<'v>>, SmpError> {
    if list.is_empty() {
        return Ok(Vec::new());
    }
    slice_element_type(&[list])?;
    let mut items = Vec::with_capacity(list.len());
    for v in list {
        let Value::Object(m) = v else {
            return Err(super::bad_arg_type_map(v));
        };
        let key = m
            .get(merge_key)
            .ok_or_else(|| super::no_merge_key(m, merge_key))?;
        items.push((gofmt::sprint_cow(key), m, key));
    }
    gofmt::go_sort_by_text(&mut items, |(t, _, _)| t);
    Ok(items)
}
