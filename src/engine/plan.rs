//! The plan: what `kubectl apply` (client-side, 1.37) would send for a local file against a live
//! object, the live object after it, and every field's action and why.
//!
//! The flow is kubectl's (`apply.go`, `patcher.go`): fill in the namespace; encode the new
//! last-applied annotation; no live object → create; else take last-applied from the live
//! annotation, compute the three-way patch (strategic for kinds kubectl knows, JSON merge patch
//! for custom resources), and if it is not `{}`, apply it to the live object.
//!
//! | file | owns |
//! |---|---|
//! | `plan.rs` | the inputs ([`PlanInput`], [`PlanContext`]) and the flow above |
//! | `plan/patch_type.rs` | strategic or JSON merge patch for an object |
//! | `plan/checks.rs` | the inputs as kubectl prepares and checks them |
//! | `plan/three_way.rs` | the three-way patch and the `--overwrite=false` conflict |
//! | `plan/create.rs` | the create plan (no live object) |
//! | `plan/error.rs` | [`PlanError`] |
//! | `plan/annotation.rs` | the last-applied annotation |
//! | `plan/action.rs` | what happens to a field ([`Action`]) |
//! | `plan/fields.rs` | every field's action and why |
//! | `plan/tree.rs`, `plan/path.rs` | the plan tree and field paths |
//! | `plan/tables.rs` | kubectl's merge tables as data |
//! | `plan/warnings.rs` | warnings |
//! | `plan/planned.rs` | the staged plan and [`Plan`] |

mod action;
pub(crate) mod annotation;
mod checks;
mod create;
mod error;
mod fields;
mod patch_type;
pub(crate) mod path;
mod planned;
mod tables;
mod three_way;
mod tree;
pub(crate) mod warnings;

use std::borrow::Cow;

use crate::value::Value;

pub use action::Action;
pub use annotation::{
    ANNOTATIONS_LIMIT, LAST_APPLIED, annotations_size, encode as encode_annotation,
    of as annotation_of,
};
pub use checks::kubectl_namespace;
use checks::{check_same_object, has_annotation_key, parse_annotation, prepare_local};
use create::stage_create;
pub use error::{InputDoc, PlanError};
use error::{input_error, kubectl_error, server_error};
pub use patch_type::{PatchType, strategic_root};
pub use path::{FieldPath, PathText, Seg};
pub use planned::Plan;
use planned::Staged;
pub use tables::{Cond, FieldKind, Presence, Reason, Row, Table};
pub use three_way::halves;
use three_way::{How, three_way};
pub use tree::{Doc, ElemStep, Field, FieldId, Fields, PathOf, PathTexts, Tree};
pub use warnings::{Code, FieldRef, Severity, Warning, WayOut};

use super::jsonmerge;
use super::schema::Schema;
use super::smp;

/// Where last-applied comes from.
#[derive(Clone, Copy, Debug)]
pub enum LastApplied<'a> {
    /// The live object's annotation (kubectl's behaviour).
    FromLive,
    /// Given explicitly: the plan is the one kubectl would make if the live annotation held it.
    Given(&'a Value),
}

/// What to plan.
#[derive(Clone, Copy, Debug)]
pub struct PlanInput<'a> {
    /// The local file's object.
    pub local: &'a Value,
    /// The live object; `None` when it does not exist (create).
    pub live: Option<&'a Value>,
    pub last_applied: LastApplied<'a>,
    /// `-n`: the namespace to use when the file names none.
    pub namespace: Option<&'a str>,
    /// `--overwrite` (default true).
    pub overwrite: bool,
}

/// The object's identity, as kubectl names and matches objects.
fn identity(obj: &Value) -> (&str, &str, &str, &str) {
    let r = super::object::ObjectRef::of(obj);
    (r.api_version, r.kind, r.namespace, r.name)
}

/// What to plan, but the local object: [`PlanInput`] without it, for [`plan_owned`].
#[derive(Debug)]
pub struct PlanContext<'a> {
    /// The live object; `None` when it does not exist (create).
    pub live: Option<Cow<'a, Value>>,
    pub last_applied: LastApplied<'a>,
    /// `-n`: the namespace to use when the file names none.
    pub namespace: Option<&'a str>,
    /// `--overwrite` (default true).
    pub overwrite: bool,
    /// The live annotation already read ([`LiveLastApplied::read`] of `live`), for
    /// [`LastApplied::FromLive`]; `None`: the plan reads it.
    pub live_last_applied: Option<LiveLastApplied>,
}

impl<'a> PlanInput<'a> {
    /// The input but the local object.
    #[must_use]
    pub fn context(&self) -> PlanContext<'a> {
        PlanContext {
            live: self.live.map(Cow::Borrowed),
            last_applied: self.last_applied,
            namespace: self.namespace,
            overwrite: self.overwrite,
            live_last_applied: None,
        }
    }
}

/// The last-applied configuration in a live object's annotation, parsed ahead of the plan (a
/// large one takes a quarter of a second: a caller can read it while it reads the local file).
/// Its errors are reported where the plan would report them.
#[derive(Debug)]
pub struct LiveLastApplied(Result<Option<Value>, PlanError>);

impl LiveLastApplied {
    /// Parse the annotation of `live`, as the plan would. (The value's objects and arrays are
    /// sized exactly as they are read: see `crate::value`'s reader.)
    #[must_use]
    pub fn read(live: &Value) -> LiveLastApplied {
        LiveLastApplied(match annotation::of(live) {
            None | Some("") => Ok(None),
            Some(text) => parse_annotation(text).map(Some),
        })
    }
}

/// The fewest bytes of annotation a field takes (`"k":1,`): room is made for the annotation's
/// length over this many fields (room not used costs no memory: the pages are never touched).
const FIELD_BYTES: usize = 16;

/// Documents whose new annotation is at least this long (about the local object's size) are
/// planned on two threads where the work splits; below it a thread costs more than it saves.
const PARALLEL_FROM: usize = 1 << 20;

/// Plan one object.
///
/// # Errors
/// [`PlanError`]: input mismatches, kubectl failures, `--overwrite=false` conflicts.
pub fn plan(input: &PlanInput<'_>, schema: &Schema) -> Result<Plan, PlanError> {
    let staged = stage_with(
        input.local.clone(),
        input.context(),
        schema,
        true,
        &mut |_| {},
    )?;
    Ok(staged.into_plan())
}

/// Plan one object, taking the local object and the live one (they become the plan's
/// documents: no copy is made of what the context owns). The three-way patch's halves are not
/// kept ([`Plan::halves`] is `None`).
///
/// # Errors
/// As [`plan`].
pub fn plan_owned(
    local: Value,
    context: PlanContext<'_>,
    schema: &Schema,
) -> Result<Plan, PlanError> {
    plan_owned_staged(local, context, schema, &mut |_| {})
}

/// [`plan_owned`], telling `stage_done` the name of each stage as it ends, so a front end can
/// time them (the engine has no clock): [`STAGES`], in that order (a create has no three-way
/// diff and no apply).
///
/// # Errors
/// As [`plan`].
pub fn plan_owned_staged(
    local: Value,
    context: PlanContext<'_>,
    schema: &Schema,
    stage_done: &mut dyn FnMut(&'static str),
) -> Result<Plan, PlanError> {
    let plan = stage_with(local, context, schema, false, stage_done)?.into_plan();
    stage_done(STAGES[3]);
    Ok(plan)
}

/// The stages of a plan: kubectl's modified object and its annotation, the three-way diff
/// (beside the copy of live it is applied to), the apply, and the walk of every field into the
/// plan's tree with the lints beside it (one stage: they run at once).
pub const STAGES: [&str; 4] = ["annotation", "three-way", "apply", "walk+lints"];

fn stage_with<'a, 's>(
    local: Value,
    input: PlanContext<'a>,
    schema: &'s Schema,
    keep_halves: bool,
    stage_done: &mut dyn FnMut(&'static str),
) -> Result<Staged<'a, 's>, PlanError> {
    let nulls = Warning::annotations_null(&local);
    // What kubectl changes of the file's object is in `metadata`: the plan keeps the file's.
    let file_metadata = local.get("metadata").cloned();
    let (annotation, modified) = annotation::encode_into(prepare_local(local, &input, schema)?)
        .map_err(|e| input_error(InputDoc::Local, e.to_string()))?;
    stage_done(STAGES[0]);
    // The file's object and kubectl's "modified" differ only in the annotation.
    let local = &modified;
    let meta = strategic_root(schema, local);
    let mode = if meta.is_some() {
        PatchType::Strategic
    } else {
        PatchType::Merge
    };

    let Some(live) = input.live else {
        let mut staged = stage_create(annotation, modified, file_metadata, meta);
        staged.before.extend(nulls);
        return Ok(staged);
    };
    check_same_object(local, &live)?;

    let mut before = Vec::new();
    // The live object as kubectl patches it: copied only when the annotation is replaced.
    let mut current = live;
    let original: Option<Value> = match input.last_applied {
        LastApplied::Given(doc) => {
            // As kubectl recorded it when it applied: with the namespace it applied to.
            let mut doc = doc.clone();
            let (_, _, local_ns, _) = identity(local);
            if !local_ns.is_empty()
                && identity(&doc).2.is_empty()
                && let Some(metadata) = doc.get_mut("metadata").and_then(Value::as_object_mut)
            {
                metadata.insert("namespace", Value::String(local_ns.into()));
            }
            let text = annotation::encode(&doc)
                .map_err(|e| input_error(InputDoc::LastApplied, e.to_string()))?;
            current = Cow::Owned(annotation::with_annotation(&current, &text));
            Some(doc)
        }
        LastApplied::FromLive => match annotation::of(&current) {
            None => {
                if !has_annotation_key(&current) {
                    before.push(Warning::missing_annotation(&current));
                }
                None
            }
            Some("") => None,
            Some(text) => match input.live_last_applied {
                Some(LiveLastApplied(Ok(Some(doc)))) => Some(doc),
                Some(LiveLastApplied(Err(e))) => return Err(e),
                _ => Some(parse_annotation(text)?),
            },
        },
    };
    before.extend(nulls);
    let empty = Value::Object(crate::value::Map::new());
    let original_doc = original.as_ref().unwrap_or(&empty);

    // A strategic patch is applied to a copy of live: made beside the three-way diff.
    let how = How {
        overwrite: input.overwrite,
        keep_halves,
        parallel: annotation.len() >= PARALLEL_FROM,
    };
    let (copy, patch) = smp::both(
        how.parallel,
        || meta.map(|_| current.as_ref().clone()),
        || three_way(original_doc, &modified, &current, meta, how),
    );
    let (patch, halves) = patch?;
    stage_done(STAGES[1]);
    let copy = || copy.unwrap_or_else(|| current.as_ref().clone());

    let unchanged = patch.as_object().is_some_and(crate::value::Map::is_empty);
    let result = if unchanged {
        copy()
    } else {
        match meta {
            Some(meta) => smp::apply(copy(), patch.clone(), meta)
                .map_err(|e| server_error(&e, e.go_panic_line()))?,
            None => jsonmerge::apply_merge_patch(&current, &patch)
                .map_err(|e| server_error(&e, None))?,
        }
    };
    stage_done(STAGES[2]);

    Ok(Staged {
        meta,
        mode,
        annotation: unless_held(annotation, &modified),
        modified,
        file_metadata,
        live: Some(current),
        last_applied: original,
        patch_type: (!unchanged).then_some(mode),
        patch: (!unchanged).then_some(patch),
        result,
        create: false,
        halves,
        before,
    })
}

/// `annotation`, or nothing when `modified` holds it (as it always does: kubectl sets it).
fn unless_held(annotation: String, modified: &Value) -> String {
    if !annotation.is_empty() && annotation::of(modified) == Some(annotation.as_str()) {
        String::new()
    } else {
        annotation
    }
}

#[cfg(test)]
mod tests;
