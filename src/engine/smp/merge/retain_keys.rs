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
