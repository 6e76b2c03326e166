//! Three-way: the patch kubectl apply sends (`CreateThreeWayMergePatch`).
//!
//! The patch is the delta from live to local without deletions, merged with the deletions from
//! last-applied to local without additions. With `overwrite=false`, the patch must not touch a
//! key that was changed differently from last-applied to live.

use crate::value::{Map, Value};

use super::conflict::merging_maps_have_conflicts;
use super::diff::{DiffOptions, diff_maps};
use super::merge::{MergeOptions, merge_map};
use super::{Meta, SmpError, as_map};

/// The two halves kubectl merges, and the result (for teaching: where each line came from).
#[derive(Clone, Debug, PartialEq)]
pub struct ThreeWay {
    /// Deletions: last-applied → local, changes and additions ignored.
    pub deletions: Value,
    /// Delta: live → local, deletions ignored.
    pub delta: Value,
    /// The patch: the delta merged into the deletions.
    pub patch: Value,
}

/// Compute both halves and the patch, without the conflict check.
///
/// # Errors
/// As [`super::diff2`].
pub fn three_way_parts(
    original: &Value,
    modified: &Value,
    current: &Value,
    meta: Meta<'_>,
) -> Result<ThreeWay, SmpError> {
    let (deletions, delta) = halves(original, modified, current, meta, false)?;
    let patch = merge_map(
        deletions.clone(),
        delta.clone(),
        meta,
        MergeOptions::default(),
        0,
    )?;
    Ok(ThreeWay {
        deletions: Value::Object(deletions),
        delta: Value::Object(delta),
        patch: Value::Object(patch),
    })
}

type Object = Map;

/// The two halves: deletions (last-applied → local) and delta (live → local).
fn halves(
    original: &Value,
    modified: &Value,
    current: &Value,
    meta: Meta<'_>,
    parallel: bool,
) -> Result<(Object, Object), SmpError> {
    let (original, modified, current) = (as_map(original)?, as_map(modified)?, as_map(current)?);
    let delta_opts = DiffOptions {
        ignore_deletions: true,
        set_element_order: true,
        ..DiffOptions::default()
    };
    let deletions_opts = DiffOptions {
        set_element_order: true,
        ignore_changes_and_additions: true,
        ..DiffOptions::default()
    };
    let (deletions, delta) = super::both(
        parallel,
        || diff_maps(original, modified, meta, deletions_opts, 0),
        || diff_maps(current, modified, meta, delta_opts, 0),
    );
    // The delta's error first, as when it was computed first.
    let delta = delta?;
    Ok((deletions?, delta))
}

/// The three-way patch with both halves, checked for conflicts when `overwrite` is false.
///
/// # Errors
/// As [`super::diff3`].
pub fn diff3_parts(
    original: &Value,
    modified: &Value,
    current: &Value,
    meta: Meta<'_>,
    overwrite: bool,
) -> Result<ThreeWay, SmpError> {
    let mut parts = three_way_parts(original, modified, current, meta)?;
    let Value::Object(patch) = &mut parts.patch else {
        return Ok(parts);
    };
    check_conflicts(original, current, patch, meta, overwrite)?;
    Ok(parts)
}

/// The three-way patch alone (no copies of the halves), checked as [`diff3_parts`] checks it:
/// [`super::diff3`], with the two halves computed side by side on two threads when `parallel`
/// (for large documents: a thread costs more than a small diff).
///
/// # Errors
/// As [`super::diff3`].
pub fn diff3_patch(
    original: &Value,
    modified: &Value,
    current: &Value,
    meta: Meta<'_>,
    overwrite: bool,
    parallel: bool,
) -> Result<Value, SmpError> {
    let (deletions, delta) = halves(original, modified, current, meta, parallel)?;
    let mut patch = merge_map(deletions, delta, meta, MergeOptions::default(), 0)?;
    check_conflicts(original, current, &mut patch, meta, overwrite)?;
    Ok(Value::Object(patch))
}

/// With `overwrite` false: [`SmpError::Conflict`] when the patch changes keys that changed
/// differently from last-applied to live.
fn check_conflicts(
    original: &Value,
    current: &Value,
    patch: &mut Map,
    meta: Meta<'_>,
    overwrite: bool,
) -> Result<(), SmpError> {
    if overwrite {
        return Ok(());
    }
    let mut changed = diff_maps(
        as_map(original)?,
        as_map(current)?,
        meta,
        DiffOptions::default(),
        0,
    )?;
    // The check may sort lists of the patch in place, as the reference's does.
    if merging_maps_have_conflicts(patch, &mut changed, meta)? {
        return Err(SmpError::Conflict {
            patch: conflict_text(&Value::Object(patch.clone())),
            changed: conflict_text(&Value::Object(changed)),
        });
    }
    Ok(())
}

/// How a side of a conflict is shown in the message: YAML, as kubectl prints it.
fn conflict_text(v: &Value) -> String {
    crate::engine::jsonmerge::to_yaml(v)
}
