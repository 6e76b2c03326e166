//! Warnings: what an operator should know before applying.
//!
//! - `missing-annotation`: the live object has no last-applied annotation (kubectl's warning);
//!   the merge is two-way, nothing is deleted.
//! - `clear-changed-live`: a field leaves the file and is cleared, but its live value differs
//!   from last-applied: someone changed it since the last apply.
//! - `list-items-lost`: a list is replaced whole and live-only items disappear.
//! - `union-two-members`: a one-of (probe handler, volume source) ends up with two members,
//!   which the server rejects.

use crate::value::Value;
use serde::Serialize;

use super::action::Action;
use super::path::{PathText, Seg};
use super::tables::Reason;
use super::tree::FieldId;
use crate::engine::gofmt;

mod code;
pub use code::{Code, Severity, WayOut};

/// One field as the walk finds it, borrowed: its path from the walk, its values from the
/// documents (what the warnings look at). `'p`: the walk's path; `'v`: the documents.
#[derive(Debug)]
pub struct FieldRef<'p, 'v> {
    /// The field's node in the plan's tree.
    pub id: FieldId,
    pub path: &'p [Seg],
    pub action: Action,
    pub reason: Reason,
    /// The live value (primitives and whole lists only).
    pub live: Option<&'v Value>,
    /// The value after the apply (primitives and whole lists only).
    pub result: Option<&'v Value>,
    /// The last-applied value (whole lists replaced as one only).
    pub last_applied: Option<&'v Value>,
}

/// The documents' values at a field, for the warnings: they need not look its path up from the
/// root (that scans every merge-keyed list on the way, once per field, which is quadratic when
/// many fields are cleared or hold unions).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Values<'v> {
    pub last_applied: Option<&'v Value>,
    pub live: Option<&'v Value>,
    pub result: Option<&'v Value>,
}

/// One warning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub code: Code,
    /// The field it concerns (`null` for the whole object).
    pub path: Option<String>,
    /// The plan's field it concerns, when it is one (see [`super::Plan::warning_field`]).
    #[serde(skip)]
    pub field: Option<FieldId>,
    pub message: String,
    /// The manager that keeps the offending field (server-side checks; `None` elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manager: Option<String>,
    /// The ways out, in the order to try them (server-side checks; empty elsewhere).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub way_out: Vec<WayOut>,
}

impl Warning {
    /// kubectl's warning for a live object without the annotation.
    #[must_use]
    pub fn missing_annotation(live: &Value) -> Warning {
        Warning {
            manager: None,
            way_out: Vec::new(),
            field: None,
            code: Code::MissingAnnotation,
            path: None,
            message: format!(
                "Warning: resource {} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.",
                object_name(live)
            ),
        }
    }
}

impl Warning {
    /// One warning per top-level annotation the file gives no value (null): kubectl reads the
    /// annotations as a map of strings, so it sends `""` where a null elsewhere would delete.
    #[must_use]
    pub fn annotations_null(local: &Value) -> Vec<Warning> {
        let Some(annotations) = local
            .get("metadata")
            .and_then(|m| m.get("annotations"))
            .and_then(Value::as_object)
        else {
            return Vec::new();
        };
        annotations
            .iter()
            .filter(|(_, v)| v.is_null())
            .map(|(key, _)| Warning {
                manager: None,
                way_out: Vec::new(),
                field: None,
                code: Code::AnnotationNullIsEmpty,
                path: Some(
                    super::FieldPath(vec![
                        super::Seg::Key("metadata".into()),
                        super::Seg::Key("annotations".into()),
                        super::Seg::Key(key.as_str().into()),
                    ])
                    .to_string(),
                ),
                message: format!(
                    "the file gives the annotation {key:?} no value (null), and kubectl reads annotations as a map of strings: it sends the empty string \"\", so the annotation is set to \"\", not deleted (a null anywhere else deletes the field). To delete it, remove the key from the file; to mean empty, write \"\"."
                ),
            })
            .collect()
    }
}

/// `info.ObjectName()`: `deployments/nginx`, `configmaps/x` (the mapping's resource, without
/// its group).
fn object_name(obj: &Value) -> String {
    let object = crate::engine::object::ObjectRef::of(obj);
    format!(
        "{}/{}",
        crate::engine::lock::resource_of(&object, None),
        object.name
    )
}

/// The one-of a map at a field of this name holds, if any: its members and the rule, from
/// the API server's validation rules ([`crate::engine::validation`]).
fn union_of(parent: &str) -> Option<(Vec<&'static str>, &'static str)> {
    use crate::engine::validation::{
        HOOK_HANDLERS, HOOKS, PROBE_HANDLERS, PROBES, Rule, VOLUME_SOURCES,
    };
    if PROBES.contains(&parent) {
        Some((PROBE_HANDLERS.to_vec(), Rule::Union.text(false)))
    } else if HOOKS.contains(&parent) {
        Some((HOOK_HANDLERS.to_vec(), Rule::Union.text(false)))
    } else if parent == "volumes" {
        let sources = VOLUME_SOURCES.iter().map(|(m, _)| *m).collect();
        Some((sources, Rule::Union.text(true)))
    } else {
        None
    }
}

fn clears_from_last_applied(f: &FieldRef<'_, '_>) -> bool {
    let at = f.reason.presence();
    f.action == Action::Clear && at.in_last_applied && !at.in_config
}

/// The warnings a plan's fields call for, gathered field by field as the walk finds them
/// ([`super::fields::walk`]); [`Collector::finish`] gives them in order: each field's
/// `clear-changed-live` and `list-items-lost`, in field order, then the `union-two-members`.
pub(crate) struct Collector {
    /// Whether there is a result document (a one-of is judged on it).
    has_result: bool,
    fields: Vec<Warning>,
    unions: Vec<Warning>,
}

impl Collector {
    pub(crate) fn new(has_result: bool) -> Collector {
        Collector {
            has_result,
            fields: Vec::new(),
            unions: Vec::new(),
        }
    }

    /// Look at one field; `values`: the documents' values there, when the walk has them at hand
    /// (the warnings that compare documents are only given where it does).
    pub(crate) fn field(&mut self, f: &FieldRef<'_, '_>, values: Option<&Values<'_>>) {
        // The path's text only for a warning: formatting 500,000 paths to emit none cost 5 %.
        let text = || PathText(f.path).to_string();
        if clears_from_last_applied(f)
            && let Some(at) = values
            && let (Some(l), Some(v)) = (at.last_applied, at.live)
            && l != v
        {
            let path = text();
            self.fields.push(Warning {
                manager: None,
                way_out: Vec::new(),
                field: Some(f.id),
                code: Code::ClearChangedLive,
                path: Some(path.clone()),
                message: clear_changed_live_message(&path, &short(v), &short(l)),
            });
        }
        if f.reason.kind.is_replaced_list() && f.reason.presence().in_live {
            let live = f.live.and_then(Value::as_array);
            let result = f.result.and_then(Value::as_array);
            // The field's own last-applied value: no lookup from the root (linear overall).
            let last_applied = f.last_applied.and_then(Value::as_array);
            let contains =
                |list: Option<&Vec<Value>>, item: &Value| list.is_some_and(|l| l.contains(item));
            if let (Some(live), Some(_)) = (live, result) {
                // Live-only: not in last-applied (someone else added it) and gone after the apply.
                let lost: Vec<String> = live
                    .iter()
                    .filter(|item| !contains(result, item) && !contains(last_applied, item))
                    .map(short)
                    .collect();
                if !lost.is_empty() {
                    let path = text();
                    self.fields.push(Warning {
                        manager: None,
                        way_out: Vec::new(),
                        field: Some(f.id),
                        code: Code::ListItemsLost,
                        path: Some(path.clone()),
                        message: format!(
                            "{path} is replaced whole ({}); live-only items will be lost: {}. Add them to the file to keep them",
                            f.reason.kind,
                            lost.join(", ")
                        ),
                    });
                }
            }
        }
        if self.has_result
            && let Some(at) = values
        {
            self.union(f, at);
        }
    }

    /// A map that ends up holding two members of a one-of.
    fn union(&mut self, f: &FieldRef<'_, '_>, at: &Values<'_>) {
        let Some(parent) = parent_name(f) else {
            return;
        };
        let Some((members, rule)) = union_of(parent) else {
            return;
        };
        let Some(Value::Object(m)) = at.result else {
            return;
        };
        let present: Vec<&str> = members
            .iter()
            .copied()
            .filter(|k| m.contains_key(k))
            .collect();
        let live_count = at.live.and_then(Value::as_object).map_or(0, |lm| {
            members.iter().filter(|k| lm.contains_key(k)).count()
        });
        if present.len() > 1 && live_count <= 1 {
            let path = PathText(f.path).to_string();
            self.unions.push(Warning {
                manager: None,
                way_out: Vec::new(),
                field: Some(f.id),
                code: Code::UnionTwoMembers,
                path: Some(path.clone()),
                message: format!(
                    "{path} will hold {} at once and the server will reject it ({rule}): with no last-applied entry for the old one, nothing deletes it. Set the old one to null in the file for this apply",
                    present.join(" and ")
                ),
            });
        }
    }

    /// The warnings, in order.
    pub(crate) fn finish(mut self) -> Vec<Warning> {
        self.fields.append(&mut self.unions);
        self.fields
    }
}

/// The field name that makes a path a union holder: the key itself (`livenessProbe`) or, for a
/// list element, the list's name (`volumes`).
fn parent_name<'a>(f: &FieldRef<'a, '_>) -> Option<&'a str> {
    match f.path.last()? {
        Seg::Key(k) => Some(k),
        Seg::Merge { .. } | Seg::Index(_) => match f.path.get(f.path.len().checked_sub(2)?)? {
            Seg::Key(k) => Some(k),
            _ => None,
        },
        Seg::Item(_) => None,
    }
}

/// The `clear-changed-live` message, with the two values as they are to be shown.
fn clear_changed_live_message(path: &str, live: &str, last_applied: &str) -> String {
    format!(
        "{path} will be cleared, but its live value ({live}) differs from last-applied ({last_applied}): someone changed it since the last apply"
    )
}

impl Warning {
    /// The message as a person reads it: a warning that quotes a Secret's values (`secret`:
    /// the field is under a Secret's `data`/`stringData`) shows them masked, as `diff` does.
    /// `-o json|yaml` write [`Warning::message`] as it is.
    #[must_use]
    pub fn shown(&self, secret: bool) -> std::borrow::Cow<'_, str> {
        match (&self.path, self.code) {
            (Some(path), Code::ClearChangedLive) if secret => {
                use crate::engine::secret::MASK;
                std::borrow::Cow::Owned(clear_changed_live_message(path, MASK, MASK))
            }
            _ => std::borrow::Cow::Borrowed(&self.message),
        }
    }
}

fn short(v: &Value) -> String {
    let s = match v {
        Value::String(s) => format!("{s:?}"),
        other => gofmt::sprint(other),
    };
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(59).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod code_tests {
    use super::Code;

    /// The outputs' name is serde's kebab-case name.
    #[test]
    fn a_code_is_written_as_its_kebab_case_name() {
        for code in Code::ALL {
            assert_eq!(
                crate::value::to_value(code).ok(),
                Some(crate::value::Value::String(code.as_str().into()))
            );
        }
    }
}

#[cfg(test)]
mod shown_tests {
    use super::*;

    #[test]
    fn a_warning_quoting_a_secret_value_is_shown_masked() {
        let w = Warning {
            manager: None,
            way_out: Vec::new(),
            code: Code::ClearChangedLive,
            path: Some("data.token".into()),
            field: None,
            message: clear_changed_live_message("data.token", "\"c2VjcmV0\"", "\"b2xk\""),
        };
        assert!(w.message.contains("c2VjcmV0"));
        let masked = w.shown(true);
        assert!(
            !masked.contains("c2VjcmV0") && !masked.contains("b2xk"),
            "{masked}"
        );
        assert!(masked.contains("live value (***) differs from last-applied (***)"));
        assert_eq!(w.shown(false), w.message);
    }
}
