//! The `kubectl` manager's bridge from client-side apply (apimachinery
//! `lastappliedmanager.go`, `lastappliedupdater.go`).
//!
//! - **Conflict excusal**: when an apply by `kubectl` conflicts, the fields whose value in the
//!   last-applied annotation still equals the live value are excused (the user set them with
//!   client-side apply); if every conflict is excused the apply is redone forced, otherwise
//!   only the other conflicts are reported. Any problem with the annotation (missing, empty,
//!   not JSON, another apiVersion, a kind the schema lacks, duplicate keys), or duplicate keys
//!   in the live object, excuses nothing.
//! - **Annotation rewrite**: after a successful apply by `kubectl`, an object that carries the
//!   annotation gets it rewritten as the applied configuration (without the annotation),
//!   written by Go's `json.Encoder`; deleted instead when the annotations would exceed 256 KiB.

use super::path::PathElement;
use super::schema::{Schema, TypeRef};
use super::set::Set;
use super::typed;
use crate::engine::gojson;
use crate::value::{Map, Value};

/// The annotation client-side apply keeps.
pub const ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// `TotalAnnotationSizeLimitB`.
pub const ANNOTATIONS_SIZE_LIMIT: usize = 256 * 1024;

fn annotation(obj: &Value) -> Option<&str> {
    obj.get("metadata")?
        .get("annotations")?
        .get(ANNOTATION)?
        .as_str()
        .filter(|s| !s.is_empty())
}

/// Whether `obj` carries a (non-empty) last-applied annotation.
#[must_use]
pub fn has_annotation(obj: &Value) -> bool {
    annotation(obj).is_some()
}

/// The conflicts the last-applied annotation excuses: its fields whose value is still live
/// (`allowedConflictsFromLastApplied`: the annotation's field set minus what its comparison
/// with the live object modified, added or removed, asked path by path instead of built).
pub struct Allowed {
    set: Set,
    cmp: typed::Comparison,
}

impl Allowed {
    /// Is the conflict at `path` excused? (A difference of sets drops members only, so a path
    /// is in `set − a − b − c` when it is in `set` and in none of the others.)
    #[must_use]
    pub fn has(&self, path: &[PathElement]) -> bool {
        self.set.has(path)
            && !self.cmp.modified.has(path)
            && !self.cmp.added.has(path)
            && !self.cmp.removed.has(path)
    }
}

/// `allowedConflictsFromLastApplied`: the last-applied fields whose value is still live;
/// `None` when the annotation cannot be used. `live` is of type `live_root` at `api_version`;
/// `types` finds the type of the kind the annotation names.
#[must_use]
pub fn allowed_conflicts(
    schema: &Schema,
    live_root: TypeRef,
    api_version: &str,
    types: &dyn Fn(&str, &str) -> Option<TypeRef>,
    live: &Value,
) -> Option<Allowed> {
    let text = annotation(live)?;
    let last: Value = serde_json::from_str(text).ok()?;
    let version = last.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = last.get("kind").and_then(Value::as_str).unwrap_or("");
    if version != api_version || kind.is_empty() {
        return None;
    }
    let root = types(version, kind)?;
    typed::validate(schema, live_root, live, false).ok()?;
    typed::validate(schema, root, &last, false).ok()?;
    let set = typed::to_field_set(schema, root, &last).ok()?;
    let cmp = typed::compare(schema, root, &last, live).ok()?;
    Some(Allowed { set, cmp })
}

/// `lastAppliedUpdater`: rewrites the annotation of `object` (if it has one) from `config`.
#[must_use]
pub fn update_annotation(mut object: Value, config: &Value) -> Value {
    if annotation(&object).is_none() {
        return object;
    }
    let mut applied = config.clone();
    if let Some(annotations) = applied
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(Value::as_object_mut)
    {
        annotations.shift_remove(ANNOTATION);
    }
    let Ok(mut text) = gojson::to_string(&applied) else {
        return object;
    };
    text.push('\n');
    let Some(annotations) = object
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(Value::as_object_mut)
    else {
        return object;
    };
    annotations.insert(ANNOTATION, Value::from(text));
    if annotations_size(annotations) > ANNOTATIONS_SIZE_LIMIT {
        annotations.shift_remove(ANNOTATION);
    }
    object
}

fn annotations_size(annotations: &Map) -> usize {
    annotations
        .iter()
        .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
        .sum()
}
