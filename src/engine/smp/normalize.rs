//! The reference tests' normaliser (`sortMergeListsByName`): merging lists have no significant
//! order, so to compare documents the tests sort them: primitives deduplicated and sorted, maps
//! sorted by merge key, `$retainKeys` and `$deleteFromPrimitiveList/*` sorted, replace lists and
//! `$setElementOrder/*` untouched.

use crate::value::{Map, Value};

use super::{
    DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, Meta, RETAIN_KEYS_DIRECTIVE,
    SET_ELEMENT_ORDER_PREFIX, SmpError, Strategy, as_map, check_depth, slice_element_type,
    strategy_of,
};
use crate::engine::gofmt::{self, GoType};

/// Sort every merging list of `doc`, recursively.
///
/// # Errors
/// Directive lists that are not lists, failing schema lookups, mixed lists.
pub fn sort_merge_lists_by_name(doc: &Value, meta: Meta<'_>) -> Result<Value, SmpError> {
    Ok(Value::Object(sort_map(as_map(doc)?, meta, 0)?))
}

fn sort_map(s: &Map, meta: Meta<'_>, depth: usize) -> Result<Map, SmpError> {
    check_depth(depth)?;
    let mut out = Map::with_capacity(s.len());
    for (k, v) in s {
        let v = if k == RETAIN_KEYS_DIRECTIVE {
            let Value::Array(items) = v else {
                return Err(SmpError::BadPatchFormatForRetainKeys);
            };
            let mut items = items.clone();
            gofmt::sort_scalars(&mut items);
            Value::Array(items)
        } else if k.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX) {
            let Value::Array(items) = v else {
                return Err(SmpError::BadPatchFormatForPrimitiveList);
            };
            let mut items = items.clone();
            gofmt::sort_scalars(&mut items);
            Value::Array(items)
        } else if k.starts_with(SET_ELEMENT_ORDER_PREFIX) {
            if !v.is_array() {
                return Err(SmpError::BadPatchFormatForSetElementOrderList);
            }
            v.clone()
        } else if k == DIRECTIVE_MARKER {
            v.clone()
        } else {
            match v {
                Value::Object(m) => {
                    let (sub, _) = meta.lookup_struct(k)?;
                    Value::Object(sort_map(m, sub, depth + 1)?)
                }
                Value::Array(items) => {
                    let (sub, patch_meta) = meta.lookup_slice(k)?;
                    let (_, strategy) = strategy_of(&patch_meta)?;
                    if strategy == Strategy::Merge {
                        let merge_key = patch_meta.merge_key.unwrap_or("");
                        Value::Array(sort_array(items, sub, merge_key, depth + 1)?)
                    } else {
                        v.clone()
                    }
                }
                _ => v.clone(),
            }
        };
        out.insert(k.clone(), v);
    }
    Ok(out)
}

fn sort_array(
    s: &[Value],
    meta: Meta<'_>,
    merge_key: &str,
    depth: usize,
) -> Result<Vec<Value>, SmpError> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    if slice_element_type(&[s])? != GoType::Map {
        let mut items = s.to_vec();
        gofmt::deduplicate_scalars(&mut items)?;
        gofmt::sort_scalars(&mut items);
        return Ok(items);
    }
    let mut keyed = Vec::with_capacity(s.len());
    for item in s {
        let Value::Object(m) = item else {
            return Err(super::bad_arg_type_map(item));
        };
        let text = gofmt::sprint(m.get(merge_key).unwrap_or(&Value::Null));
        keyed.push((text, Value::Object(sort_map(m, meta, depth + 1)?)));
    }
    gofmt::go_sort_by_text(&mut keyed, |(t, _)| t);
    Ok(keyed.into_iter().map(|(_, v)| v).collect())
}
