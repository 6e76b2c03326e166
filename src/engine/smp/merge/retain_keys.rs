//! `$retainKeys` on a map (the retainKeys table): keys of the document missing from the list
//! are cleared before the patch merges in.

use super::{MergeOptions, Object};
use crate::engine::gofmt::{self, FastSet, ScalarKey};
use crate::engine::smp::{
    DELETE_FROM_PRIMITIVE_LIST_PREFIX, RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX, SmpError,
};
use crate::value::Value;

/// `applyRetainKeysDirective`.
pub(super) fn apply_retain_keys(
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
    // A Go map of the keys: hashing a map or a list item panics.
    let mut keep: FastSet<ScalarKey<'_>> =
        FastSet::with_capacity_and_hasher(keys.len(), Default::default());
    for k in keys {
        keep.insert(gofmt::go_hash_key(k)?);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gofmt::{GoPanic, GoType};
    use crate::json;

    #[test]
    fn retain_keys_are_hashed_like_a_go_map() {
        let opts = MergeOptions {
            merge_parallel_list: true,
            ignore_unmatched_nulls: true,
        };
        let map = |v: Value| v.as_object().cloned().unwrap_or_default();
        let mut original = map(json!({"a": 1, "b": 2}));
        let mut patch = map(json!({"$retainKeys": ["a"], "a": 3}));
        apply_retain_keys(&mut original, &mut patch, opts).unwrap();
        assert_eq!(Value::Object(original), json!({"a": 1}));
        let mut original = map(json!({"a": 1}));
        let mut patch = map(json!({"$retainKeys": ["a", {"b": 1}]}));
        assert_eq!(
            apply_retain_keys(&mut original, &mut patch, opts),
            Err(GoPanic::Unhashable(GoType::Map).into())
        );
    }
}
