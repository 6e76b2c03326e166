//! The three-way patch: strategic (`smp`) or JSON merge patch (`jsonmerge`), with the
//! `--overwrite=false` conflict worded as kubectl words it.

use super::{PlanError, kubectl_error};
use crate::engine::jsonmerge::{self, Precondition};
use crate::engine::schema::Meta;
use crate::engine::smp::{self, SmpError, ThreeWay};
use crate::value::Value;

/// The patch kubectl sends (strategic for kinds kubectl knows, JSON merge patch for the
/// others), and the three-way's halves when `keep_halves`.
/// How [`three_way`] works.
#[derive(Clone, Copy)]
pub(super) struct How {
    /// `--overwrite`.
    pub(super) overwrite: bool,
    /// Keep the halves of a strategic patch.
    pub(super) keep_halves: bool,
    /// Compute the halves on two threads.
    pub(super) parallel: bool,
}

pub(super) fn three_way(
    original: &Value,
    modified: &Value,
    current: &Value,
    meta: Option<Meta<'_>>,
    how: How,
) -> Result<(Value, Option<ThreeWay>), PlanError> {
    let How {
        overwrite,
        keep_halves,
        parallel,
    } = how;
    match meta {
        Some(meta) => {
            let conflict = |e| match e {
                SmpError::Conflict { .. } => PlanError::Conflict(format!(
                    "conflict: {e}(kubectl --overwrite=false refuses any apply that changes something: \
                     the new last-applied annotation itself differs from the live one)"
                )),
                other => kubectl_error(&other),
            };
            if keep_halves {
                let halves = smp::diff3_parts(original, modified, current, meta, overwrite)
                    .map_err(conflict)?;
                Ok((halves.patch.clone(), Some(halves)))
            } else {
                let patch =
                    smp::diff3_patch(original, modified, current, meta, overwrite, parallel)
                        .map_err(conflict)?;
                Ok((patch, None))
            }
        }
        None => {
            let patch = jsonmerge::create_three_way_json_merge_patch(
                original,
                modified,
                current,
                &Precondition::kubectl_apply(),
            )
            .map_err(|e| PlanError::Kubectl(e.to_string()))?;
            Ok((patch, None))
        }
    }
}

/// The halves of a plan's three-way strategic merge patch, found again from the plan's own
/// documents (a plan made with [`super::plan_owned`] keeps none): `None` for a create, a JSON
/// merge patch (no halves), or a kind `schema` has no strategy for.
#[must_use]
pub fn halves(plan: &super::Plan, schema: &crate::engine::schema::Schema) -> Option<ThreeWay> {
    let current = plan.live.as_ref()?;
    let meta = super::strategic_root(schema, &plan.modified)?;
    let empty = Value::Object(crate::value::Map::new());
    let original = plan.last_applied.as_ref().unwrap_or(&empty);
    // `--overwrite` matters only to refuse: the plan, made, was not refused.
    smp::diff3_parts(original, &plan.modified, current, meta, true).ok()
}
