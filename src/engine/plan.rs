//! The plan: what `kubectl apply` (client-side, 1.37) would send for a local file against a live
//! object, the live object after it, and every field's action and why.
//!
//! The flow is kubectl's (`apply.go`, `patcher.go`): fill in the namespace; encode the new
//! last-applied annotation; no live object → create; else take last-applied from the live
//! annotation, compute the three-way patch (strategic for kinds kubectl knows, JSON merge patch
//! for custom resources), and if it is not `{}`, apply it to the live object.

mod annotation;
mod fields;
mod path;
mod planned;
mod tables;
mod tree;
mod warnings;

use std::borrow::Cow;

use crate::value::Value;
use serde::Serialize;

pub use annotation::{
    ANNOTATIONS_LIMIT, LAST_APPLIED, annotations_size, encode as encode_annotation,
    of as annotation_of,
};
pub use fields::{Action, FieldRef};
pub use path::{FieldPath, PathText, Seg};
pub use planned::Plan;
use planned::Staged;
pub use tables::{Cond, FieldKind, Presence, Reason, Row, Table};
pub use tree::{Doc, ElemStep, Field, FieldId, Fields, PathOf, PathTexts, Tree};
pub use warnings::{Code, Severity, Warning};

use super::jsonmerge::{self, Precondition};
use super::schema::{Meta, Schema};
use super::smp::{self, SmpError, ThreeWay};

/// Which patch kubectl sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PatchType {
    /// `application/strategic-merge-patch+json`: kinds compiled into kubectl.
    #[serde(rename = "application/strategic-merge-patch+json")]
    Strategic,
    /// `application/merge-patch+json`: custom resources.
    #[serde(rename = "application/merge-patch+json")]
    Merge,
}

impl PatchType {
    /// The HTTP content type.
    #[must_use]
    pub fn content_type(self) -> &'static str {
        match self {
            PatchType::Strategic => "application/strategic-merge-patch+json",
            PatchType::Merge => "application/merge-patch+json",
        }
    }
}

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

/// Why there is no plan.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The inputs do not describe one object (exit 2). `about` says which input.
    #[error("{message}")]
    Input { about: InputDoc, message: String },
    /// kubectl apply would fail (exit 1), with kubectl's reason.
    #[error("{0}")]
    Kubectl(String),
    /// `--overwrite=false` and the patch changes what changed since last-applied (exit 1).
    #[error("{0}")]
    Conflict(String),
}

/// Which input a [`PlanError::Input`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputDoc {
    Local,
    Live,
    LastApplied,
}

fn input_error(about: InputDoc, message: impl Into<String>) -> PlanError {
    PlanError::Input {
        about,
        message: message.into(),
    }
}

/// The object's identity, as kubectl names and matches objects.
fn identity(obj: &Value) -> (&str, &str, &str, &str) {
    let r = super::object::ObjectRef::of(obj);
    (r.api_version, r.kind, r.namespace, r.name)
}

/// Groups whose kinds kubectl has no Go types for: they get the JSON merge patch, like custom
/// resources (kubectl's scheme holds k8s.io/api only).
const GROUPS_OUTSIDE_KUBECTL: [&str; 2] = ["apiextensions.k8s.io", "apiregistration.k8s.io"];

/// The strategic merge metadata kubectl would use for an object, or `None` for a JSON merge patch.
/// Those groups are outside kubectl's compiled-in types only: a server's OpenAPI that lists
/// strategic merge patch for them (any schema but the embedded one) is used as kubectl uses it.
#[must_use]
pub fn strategic_root<'s>(schema: &'s Schema, obj: &Value) -> Option<Meta<'s>> {
    let (api_version, kind, _, _) = identity(obj);
    let group = super::object::GroupVersion::parse(api_version).group;
    if GROUPS_OUTSIDE_KUBECTL.contains(&group) && std::ptr::eq(schema, Schema::embedded()) {
        return None;
    }
    schema.root_for_gvk(api_version, kind)
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
    Ok(stage_with(input.local.clone(), input.context(), schema, true)?.into_plan())
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
    Ok(stage_with(local, context, schema, false)?.into_plan())
}

fn stage_with<'a, 's>(
    local: Value,
    input: PlanContext<'a>,
    schema: &'s Schema,
    keep_halves: bool,
) -> Result<Staged<'a, 's>, PlanError> {
    let nulls = Warning::annotations_null(&local);
    let (annotation, modified) = annotation::encode_into(prepare_local(local, &input, schema)?)
        .map_err(|e| input_error(InputDoc::Local, e.to_string()))?;
    // The file's object and kubectl's "modified" differ only in the annotation.
    let local = &modified;
    let meta = strategic_root(schema, local);
    let mode = if meta.is_some() {
        PatchType::Strategic
    } else {
        PatchType::Merge
    };

    let Some(live) = input.live else {
        let mut staged = stage_create(annotation, modified, meta);
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
    let copy = || copy.unwrap_or_else(|| current.as_ref().clone());

    let unchanged = patch.as_object().is_some_and(crate::value::Map::is_empty);
    let result = if unchanged {
        copy()
    } else {
        match meta {
            Some(meta) => smp::apply(copy(), patch.clone(), meta).map_err(|e| {
                PlanError::Kubectl(format!("the server would reject the patch: {e}"))
            })?,
            None => jsonmerge::apply_merge_patch(&current, &patch).map_err(|e| {
                PlanError::Kubectl(format!("the server would reject the patch: {e}"))
            })?,
        }
    };

    Ok(Staged {
        meta,
        mode,
        annotation: unless_held(annotation, &modified),
        modified,
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

/// The patch kubectl sends (strategic for kinds kubectl knows, JSON merge patch for the
/// others), and the three-way's halves when `keep_halves`.
/// How [`three_way`] works.
#[derive(Clone, Copy)]
struct How {
    /// `--overwrite`.
    overwrite: bool,
    /// Keep the halves of a strategic patch.
    keep_halves: bool,
    /// Compute the halves on two threads.
    parallel: bool,
}

fn three_way(
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

/// `annotation`, or nothing when `modified` holds it (as it always does: kubectl sets it).
fn unless_held(annotation: String, modified: &Value) -> String {
    if !annotation.is_empty() && annotation::of(modified) == Some(annotation.as_str()) {
        String::new()
    } else {
        annotation
    }
}

/// The create plan: kubectl POSTs the object with its annotation, explicit nulls pruned.
fn stage_create<'a, 's>(
    annotation: String,
    modified: Value,
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
fn prune_nulls(v: &mut Value, depth: usize) {
    if depth > super::MAX_DEPTH {
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

/// The local object as kubectl sends it: the namespace filled in for namespaced kinds.
fn prepare_local(
    mut local: Value,
    input: &PlanContext<'_>,
    schema: &Schema,
) -> Result<Value, PlanError> {
    let (api_version, kind, namespace, name) = identity(&local);
    if api_version.is_empty() || kind.is_empty() {
        return Err(input_error(
            InputDoc::Local,
            "the object has no apiVersion or kind",
        ));
    }
    if name.is_empty() {
        return Err(input_error(
            InputDoc::Local,
            "the object has no metadata.name",
        ));
    }
    check_string_maps(&local)?;
    let namespaced = match schema.is_namespaced(api_version, kind) {
        Some(n) => n,
        // Unknown kinds (custom resources): namespaced unless the live object says otherwise.
        None => input
            .live
            .as_deref()
            .is_none_or(|live| !identity(live).2.is_empty()),
    };
    if !namespaced {
        // cli-runtime's `FilterNamespace`: a cluster-scoped object loses the file's namespace
        // (kube-prometheus writes one on its ClusterRoles), in what is sent and in last-applied.
        if let Some(metadata) = local.get_mut("metadata").and_then(Value::as_object_mut) {
            metadata.shift_remove("namespace");
        }
        return Ok(local);
    }
    if let Some(flag) = input.namespace
        && !namespace.is_empty()
        && namespace != flag
    {
        return Err(input_error(
            InputDoc::Local,
            format!(
                "the namespace from the provided object {namespace:?} does not match the namespace {flag:?}. \
             You must pass '--namespace={namespace}' to perform this operation."
            ),
        ));
    }
    if namespace.is_empty() {
        let live_namespace = input
            .live
            .as_deref()
            .map(|l| identity(l).2)
            .filter(|n| !n.is_empty());
        let ns = input
            .namespace
            .or(live_namespace)
            .unwrap_or("default")
            .to_owned();
        if let Some(metadata) = local.get_mut("metadata").and_then(Value::as_object_mut) {
            metadata.insert("namespace", Value::String(ns.into()));
        }
    }
    Ok(local)
}

/// kubectl reads labels and annotations as string maps: anything else fails to load.
fn check_string_maps(obj: &Value) -> Result<(), PlanError> {
    for field in ["labels", "annotations"] {
        let Some(map) = obj.get("metadata").and_then(|m| m.get(field)) else {
            continue;
        };
        let Value::Object(map) = map else {
            if map.is_null() {
                continue;
            }
            return Err(input_error(
                InputDoc::Local,
                format!("metadata.{field}: expected a map of strings"),
            ));
        };
        for (k, v) in map {
            if !(v.is_string() || v.is_null()) {
                return Err(input_error(
                    InputDoc::Local,
                    format!(
                        "metadata.{field}.{k}: values must be strings (quote it), found {}; kubectl cannot read this file",
                        match v {
                            Value::Null => "null",
                            Value::Bool(_) => "a boolean",
                            Value::Number(_) => "a number",
                            Value::Array(_) => "a list",
                            _ => "a map",
                        }
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_same_object(local: &Value, live: &Value) -> Result<(), PlanError> {
    let (la, lk, ln, lname) = identity(local);
    let (va, vk, vn, vname) = identity(live);
    let group = |api| super::object::GroupVersion::parse(api).group;
    if lk != vk || group(la) != group(va) || lname != vname || (!vn.is_empty() && ln != vn) {
        let show = |kind: &str, ns: &str, name: &str, api: &str| {
            let kind = if kind.is_empty() { "(no kind)" } else { kind };
            let name = if name.is_empty() { "(no name)" } else { name };
            if ns.is_empty() {
                format!("{kind} {name} ({api})")
            } else {
                format!("{kind} {ns}/{name} ({api})")
            }
        };
        return Err(input_error(
            InputDoc::Live,
            format!(
                "not the same object as the local file: live is {}, local is {}",
                show(vk, vn, vname, va),
                show(lk, ln, lname, la)
            ),
        ));
    }
    Ok(())
}

fn has_annotation_key(obj: &Value) -> bool {
    obj.get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(LAST_APPLIED))
        .is_some()
}

/// The live annotation's JSON (kubectl: `null` means none).
fn parse_annotation(text: &str) -> Result<Value, PlanError> {
    let v = smp::parse_json(text).map_err(|_| {
        let why = match serde_json::from_str::<Value>(text) {
            Err(e) => format!("not JSON (line {}, column {}: {e})", e.line(), e.column()),
            Ok(_) => "JSON but not an object".to_owned(),
        };
        input_error(
            InputDoc::Live,
            format!(
                "metadata.annotations[\"{LAST_APPLIED}\"]: the last-applied annotation is {why}"
            ),
        )
    })?;
    Ok(v)
}

fn kubectl_error(e: &SmpError) -> PlanError {
    PlanError::Kubectl(format!("kubectl apply would fail: {e}"))
}

#[cfg(test)]
mod tests;
