//! The create plan: no live object, so kubectl POSTs the object with its annotation, explicit
//! nulls pruned.

use super::{PatchType, Staged, unless_held};
use crate::engine::schema::Meta;
use crate::value::Value;

/// The create plan: kubectl POSTs the object with its annotation, explicit nulls pruned.
pub(super) fn stage_create<'a, 's>(
    annotation: String,
    modified: Value,
    file_metadata: Option<Value>,
    meta: Option<Meta<'s>>,
) -> Staged<'a, 's> {
    let mut created = modified.clone();
    prune_nulls(&mut created, 0);
    let mode = if meta.is_some() {
        PatchType::Strategic
    } else {
        PatchType::Merge
    };
    Staged {
        meta,
        mode,
        annotation: unless_held(annotation, &modified),
        modified,
        file_metadata,
        live: None,
        last_applied: None,
        patch_type: None,
        patch: None,
        result: created,
        create: true,
        halves: None,
        before: Vec::new(),
    }
}

/// kubectl's `pruneNullsFromMap` on a create.
pub(super) fn prune_nulls(v: &mut Value, depth: usize) {
    if depth > crate::engine::MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            m.retain(|_, item| !item.is_null());
            for item in m.values_mut() {
                prune_nulls(item, depth + 1);
            }
        }
        Value::Array(items) => {
            for item in items {
                prune_nulls(item, depth + 1);
            }
        }
        _ => {}
    }
}
