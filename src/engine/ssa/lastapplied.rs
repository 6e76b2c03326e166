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

/// Whether `obj`'s annotations have the annotation's key (with any value).
#[must_use]
pub fn carries_key(obj: &Value) -> bool {
    obj.get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key(ANNOTATION))
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

/// The live object's last-applied annotation, read and checked: the first half of
/// `allowedConflictsFromLastApplied`, which needs no conflict yet (a request works it out
/// beside its apply), and [`LastApplied::allowed`], the second, for the conflicts found.
pub struct LastApplied {
    last: Value,
    root: TypeRef,
}

/// The annotation of `live` as [`LastApplied`]; `None` when it cannot be used (missing, empty,
/// not JSON, another apiVersion, a kind the schema lacks, duplicate keys in it or in the live
/// object). `live` is at `api_version`; `types` finds the type of the kind the annotation
/// names; `live_strict`: whether `live` validates without duplicate keys
/// ([`typed::validate_live`], which the request ran).
#[must_use]
pub fn last_applied(
    schema: &Schema,
    api_version: &str,
    types: &dyn Fn(&str, &str) -> Option<TypeRef>,
    (live, live_strict): (&Value, bool),
) -> Option<LastApplied> {
    let text = annotation(live)?;
    let last = crate::value::from_str_transient(text).ok()?;
    let version = last.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = last.get("kind").and_then(Value::as_str).unwrap_or("");
    if version != api_version || kind.is_empty() {
        return None;
    }
    let root = types(version, kind)?;
    if !live_strict {
        return None;
    }
    typed::validate(schema, root, &last, false).ok()?;
    Some(LastApplied { last, root })
}

impl LastApplied {
    /// The excusal, asked for `paths` (the conflicts): the annotation's field set and its
    /// comparison with `live`, of both objects cut down to those paths ([`fn@typed::project`]:
    /// a path's membership and comparison read nothing else), not of the whole objects.
    #[must_use]
    pub fn allowed(
        &self,
        schema: &Schema,
        live: &Value,
        paths: &[&[PathElement]],
    ) -> Option<Allowed> {
        let want = Set::from_paths(paths.iter().copied());
        let last = typed::project(schema, self.root, &self.last, &want);
        let live_cut = typed::project(schema, self.root, live, &want);
        let set = typed::to_field_set(schema, self.root, &last).ok()?;
        let cmp = typed::compare(schema, self.root, &last, &live_cut).ok()?;
        let allowed = Allowed { set, cmp };
        // Debug builds ask the whole objects too.
        #[cfg(debug_assertions)]
        {
            let whole = typed::to_field_set(schema, self.root, &self.last)
                .ok()
                .zip(typed::compare(schema, self.root, &self.last, live).ok())
                .map(|(set, cmp)| Allowed { set, cmp });
            for p in paths {
                assert_eq!(
                    whole.as_ref().map(|w| w.has(p)),
                    Some(allowed.has(p)),
                    "the excusal of {p:?} on the cut objects"
                );
            }
        }
        Some(allowed)
    }
}

/// `lastAppliedUpdater`: rewrites the annotation of `object` (if it has one) from `config`;
/// whether that changed it (another text, or deleted).
///
/// The applied configuration is written only as far as the annotations can hold it: a longer
/// one is deleted without being written whole (a big object's would be as big as it).
pub fn update_annotation(object: &mut Value, config: &Value) -> bool {
    update_annotation_reusing(object, config, &mut None)
}

/// [`update_annotation`], the configuration's text (without its newline) taken from `written`
/// when it holds it (written by an earlier call with the same configuration: the text does not
/// depend on the object, only whether it fits), and left there when written here.
pub fn update_annotation_reusing(
    object: &mut Value,
    config: &Value,
    written: &mut Option<String>,
) -> bool {
    match rewrite_of(object, config, written) {
        Some(r) => {
            r.apply_to(object);
            true
        }
        None => false,
    }
}

/// How `lastAppliedUpdater` changes an object's annotation.
#[derive(Debug)]
pub enum Rewrite {
    /// Another text (with its newline).
    Text(String),
    /// Deleted: the configuration does not fit the annotations.
    Delete,
}

impl Rewrite {
    /// Rewrites the annotation of `object`, which has one ([`rewrite_of`] asked it).
    pub fn apply_to(self, object: &mut Value) {
        let Some(annotations) = object
            .get_mut("metadata")
            .and_then(|m| m.get_mut("annotations"))
            .and_then(Value::as_object_mut)
        else {
            return;
        };
        match self {
            Rewrite::Text(text) => {
                annotations.insert(ANNOTATION, Value::from(text));
            }
            Rewrite::Delete => {
                annotations.shift_remove(ANNOTATION);
            }
        }
    }
}

/// What [`update_annotation_reusing`] would change in `object`, read without changing it
/// (`None`: nothing, as when it has no annotation or the text is the same); `written` as
/// there.
pub fn rewrite_of(object: &Value, config: &Value, written: &mut Option<String>) -> Option<Rewrite> {
    annotation(object)?;
    let annotations = object
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object)?;
    // `buildLastApplied`: the configuration without the annotation (copied only when it has
    // it), its annotations read and set again as a map of strings: `annotations: null` is
    // dropped (`GetAnnotations` reads no map, `SetAnnotations(nil)` removes the field).
    let own = config.get("metadata").and_then(|m| m.get("annotations"));
    let applied = if carries_key(config) || own.is_some_and(Value::is_null) {
        let mut applied = config.clone();
        if let Some(meta) = applied.get_mut("metadata").and_then(Value::as_object_mut) {
            match meta.get_mut("annotations").and_then(Value::as_object_mut) {
                Some(a) => {
                    a.shift_remove(ANNOTATION);
                }
                None => {
                    meta.shift_remove("annotations");
                }
            }
        }
        std::borrow::Cow::Owned(applied)
    } else {
        std::borrow::Cow::Borrowed(config)
    };
    // `ValidateAnnotationsSize` of the others and this one, whose text ends with a newline.
    let others = annotations_size(annotations)
        - annotations
            .get(ANNOTATION)
            .map_or(0, |v| ANNOTATION.len() + v.as_str().map_or(0, str::len));
    let room = ANNOTATIONS_SIZE_LIMIT.saturating_sub(others + ANNOTATION.len() + 1);
    let text = match written {
        // The whole text was written once: it is that again, if it fits.
        Some(text) if text.len() <= room => Ok(text.clone()),
        Some(_) => Err(gojson::GoJsonError::TooLong(room)),
        None => gojson::to_string_within(&applied, room).inspect(|text| {
            *written = Some(text.clone());
        }),
    };
    match text {
        Ok(mut text) => {
            text.push('\n');
            let same = annotations
                .get(ANNOTATION)
                .and_then(Value::as_str)
                .is_some_and(|old| old == text);
            (!same).then_some(Rewrite::Text(text))
        }
        Err(gojson::GoJsonError::TooLong(_)) => Some(Rewrite::Delete),
        Err(_) => None,
    }
}

/// The annotation's path: `.metadata.annotations.kubectl.kubernetes.io/last-applied-configuration`.
#[must_use]
pub fn annotation_path() -> [PathElement; 3] {
    [
        PathElement::field("metadata"),
        PathElement::field("annotations"),
        PathElement::field(ANNOTATION),
    ]
}

/// `compared` (the object read against the one an apply left) for that object once
/// [`update_annotation`] rewrote its annotation: the annotation's path compared again, from
/// `read` to `rewritten`; nothing else changed. (A string in a map: modified when both have it
/// and the texts differ, added or removed when one side lacks it.)
#[must_use]
pub fn compared_after_rewrite(
    compared: typed::Comparison,
    read: &Value,
    rewritten: &Value,
) -> typed::Comparison {
    let path = annotation_path();
    let at = Set::from_paths([path.as_slice()]);
    let value = |v: &Value| {
        v.get("metadata")
            .and_then(|m| m.get("annotations"))
            .and_then(|a| a.get(ANNOTATION))
            .cloned()
    };
    let (before, after) = (value(read), value(rewritten));
    let mut out = typed::Comparison {
        removed: compared.removed.difference(&at),
        modified: compared.modified.difference(&at),
        added: compared.added.difference(&at),
    };
    match (before, after) {
        (Some(b), Some(a)) if b != a => out.modified.insert(&path),
        (Some(_), None) => out.removed.insert(&path),
        (None, Some(_)) => out.added.insert(&path),
        _ => {}
    }
    out
}

fn annotations_size(annotations: &Map) -> usize {
    annotations
        .iter()
        .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn with_annotations(annotations: Value) -> Value {
        json!({"apiVersion": "v1", "kind": "ConfigMap",
               "metadata": {"name": "a", "annotations": annotations}})
    }

    fn annotations_of(v: &Value) -> &Map {
        v["metadata"]["annotations"].as_object().unwrap()
    }

    /// The comparison of the object read with the one an apply left, fixed up for the
    /// annotation's rewrite, is the comparison with the rewritten object: rewritten to
    /// another text, to the same, deleted (too large), and on an object read without it.
    #[test]
    fn a_rewrite_fixes_up_the_comparison() {
        let kube = crate::engine::ssa::kubernetes::embedded();
        let root = kube.root_for_gvk("v1", "ConfigMap").unwrap();
        let compare = |a: &Value, b: &Value| typed::compare(&kube.schema, root, a, b).unwrap();
        let config = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "a"}, "data": {"k": "v2"}});
        let big = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "a"}, "data": {"k": "v".repeat(ANNOTATIONS_SIZE_LIMIT)}});
        let left = |ann: Value, data: &str| {
            json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "a", "annotations": ann}, "data": {"k": data}})
        };
        let same_text = gojson::to_string(&config).unwrap() + "\n";
        let cases = [
            (
                left(json!({ANNOTATION: "{}"}), "v"),
                left(json!({ANNOTATION: "{}", "x": "y"}), "v2"),
                &config,
            ),
            (
                left(json!({ANNOTATION: same_text.clone()}), "v"),
                left(json!({ANNOTATION: same_text}), "v2"),
                &config,
            ),
            (
                left(json!({ANNOTATION: "{}"}), "v"),
                left(json!({ANNOTATION: "{}"}), "v2"),
                &big,
            ),
            (
                left(json!({"x": "y"}), "v"),
                left(json!({ANNOTATION: "{}", "x": "y"}), "v2"),
                &config,
            ),
        ];
        let mut changed = 0;
        for (read, merged, applied) in cases {
            let mut object = merged.clone();
            if update_annotation(&mut object, applied) {
                changed += 1;
            }
            let fixed = compared_after_rewrite(compare(&read, &merged), &read, &object);
            assert_eq!(fixed, compare(&read, &object), "{read} {object}");
        }
        assert_eq!(changed, 3);
    }

    /// The annotation becomes the configuration as Go writes it (without the annotation,
    /// newline-terminated), and is deleted when the annotations would pass 256 KiB: at the
    /// limit it stays, one byte past it it goes.
    #[test]
    fn the_annotation_is_rewritten_or_deleted_at_the_size_limit() {
        let live = with_annotations(json!({ANNOTATION: "{}", "other": "x"}));
        let config = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "a", "annotations": {ANNOTATION: "old", "note": "n"}},
            "data": {"k": "v"}});
        let mut out = live.clone();
        assert!(update_annotation(&mut out, &config));
        assert!(
            !update_annotation(&mut out.clone(), &config),
            "the same text again"
        );
        assert_eq!(
            annotations_of(&out)[ANNOTATION],
            r#"{"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"annotations":{"note":"n"},"name":"a"}}"#.to_owned() + "\n"
        );
        assert_eq!(annotations_of(&out)["other"], "x");
        // `annotations: null` in the configuration is no map of strings: dropped, as
        // `SetAnnotations(nil)` drops it.
        let null = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "a", "annotations": null}, "data": {"k": "v"}});
        let mut out = live.clone();
        assert!(update_annotation(&mut out, &null));
        assert_eq!(
            annotations_of(&out)[ANNOTATION],
            r#"{"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"name":"a"}}"#
                .to_owned()
                + "\n"
        );
        // Pad the data so that the annotations come to exactly the limit, then one past.
        let text_of = |pad: usize| {
            let c = json!({"apiVersion": "v1", "data": {"k": "v".repeat(pad)}});
            (gojson::to_string(&c).unwrap().len() + 1, c)
        };
        let (base, _) = text_of(0);
        let fixed = ANNOTATION.len() + "other".len() + 1;
        let pad = ANNOTATIONS_SIZE_LIMIT - fixed - base;
        let (len, fits) = text_of(pad);
        assert_eq!(fixed + len, ANNOTATIONS_SIZE_LIMIT);
        let mut out = live.clone();
        assert!(update_annotation(&mut out, &fits));
        assert_eq!(
            annotations_of(&out)[ANNOTATION].as_str().unwrap().len(),
            len
        );
        let (_, over) = text_of(pad + 1);
        let mut out = live.clone();
        assert!(update_annotation(&mut out, &over));
        assert!(!annotations_of(&out).contains_key(ANNOTATION));
        assert_eq!(annotations_of(&out)["other"], "x");
        // The text written once, reused on objects with more or less room: the same
        // annotations as writing it again, up to the limit and one past it.
        let mut written = None;
        assert!(update_annotation_reusing(
            &mut live.clone(),
            &fits,
            &mut written
        ));
        assert_eq!(written.as_ref().map(|t| t.len() + 1), Some(len));
        for other in ["x", "xy", ""] {
            let live = with_annotations(json!({ANNOTATION: "{}", "other": other}));
            let (mut again, mut fresh) = (live.clone(), live.clone());
            let mut reused = written.clone();
            assert_eq!(
                update_annotation_reusing(&mut again, &fits, &mut reused),
                update_annotation(&mut fresh, &fits)
            );
            assert_eq!(again, fresh, "{other:?}");
            assert_eq!(reused, written);
        }
        // No annotation: nothing to rewrite.
        let plain = with_annotations(json!({"other": "x"}));
        let mut out = plain.clone();
        assert!(!update_annotation(&mut out, &config));
        assert_eq!(out, plain);
    }
}
