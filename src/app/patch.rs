//! The patch view's documents: the patch kubectl sends, an RFC 6902 JSON Patch from live to
//! the result, and the two halves of the three-way strategic merge patch. The JSON Patch, as
//! long as the object and seldom read, is written only when its tab is first shown
//! ([`json_patch_doc`]).

use crate::value::Value;

use super::yaml::escape;
use crate::engine::jsonmerge::to_yaml;
use crate::engine::jsonpatch::diff_json_patch;
use crate::engine::plan::{PatchType, Plan};
use crate::engine::secret;
use crate::engine::smp::ThreeWay;

/// One tab of the patch view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchDoc {
    /// The tab's name.
    pub tab: &'static str,
    /// What this document is.
    pub title: String,
    /// Lines, escaped.
    pub lines: Vec<String>,
    /// JSON lines (else YAML), for the highlighter.
    pub json: bool,
    /// Not written yet: its lines are made when its tab is first shown.
    pub pending: bool,
}

/// Every tab of the patch view, with Secret values masked unless `reveal`; the JSON Patch's
/// tab is [`PatchDoc::pending`]. `halves`: the three-way's, if it has them
/// (`engine::plan::halves`: a plan keeps none).
#[must_use]
pub fn patch_docs(
    plan: &Plan,
    halves: Option<&ThreeWay>,
    secret: bool,
    reveal: bool,
) -> Vec<PatchDoc> {
    let mask = secret && !reveal;
    // Copied only to be masked: a document shown as it is is written from the plan's own.
    let yaml = |v: &Value| -> Vec<String> {
        let text = if mask {
            let mut v = v.clone();
            secret::mask_object(&mut v);
            to_yaml(&v)
        } else {
            to_yaml(v)
        };
        text.lines().map(escape).collect()
    };
    let sent = match (plan.created(), &plan.patch, plan.patch_type) {
        (Some(created), _, _) => PatchDoc {
            tab: "patch",
            title: "create: kubectl POSTs the whole object (explicit nulls pruned)".into(),
            lines: yaml(created),
            json: false,
            pending: false,
        },
        (None, Some(patch), Some(t)) => PatchDoc {
            tab: "patch",
            title: match t {
                PatchType::Strategic => {
                    "strategic merge patch (application/strategic-merge-patch+json), with its directives".into()
                }
                PatchType::Merge => {
                    "JSON merge patch (application/merge-patch+json): kubectl's patch for a custom resource".into()
                }
            },
            lines: yaml(patch),
            json: false,
            pending: false,
        },
        _ => PatchDoc {
            tab: "patch",
            title: "unchanged: the patch is {} and kubectl sends nothing".into(),
            lines: vec!["{}".into()],
            json: false,
            pending: false,
        },
    };
    let json = PatchDoc {
        lines: Vec::new(),
        pending: true,
        ..json_patch_doc(None, &Value::Null, false)
    };
    let (deletions, delta) = match halves {
        Some(h) => (
            PatchDoc {
                tab: "deletions",
                title: "deletions: last-applied → local, additions and changes ignored".into(),
                lines: yaml(&h.deletions),
                json: false,
                pending: false,
            },
            PatchDoc {
                tab: "delta",
                title: "delta: live → local, deletions ignored; the patch is the delta merged into the deletions".into(),
                lines: yaml(&h.delta),
                json: false,
                pending: false,
            },
        ),
        None => {
            let why = if plan.created().is_some() {
                "a create sends the whole object: there is no three-way merge"
            } else if plan.patch_type == Some(PatchType::Merge) {
                "a JSON merge patch (custom resource) is computed in one step: no halves"
            } else {
                "no three-way strategic merge patch was computed"
            };
            let doc = |tab| PatchDoc {
                tab,
                title: why.into(),
                lines: vec![format!("({why})")],
                json: false,
                pending: false,
            };
            (doc("deletions"), doc("delta"))
        }
    };
    vec![sent, json, deletions, delta]
}

/// The JSON Patch's tab: the RFC 6902 operations from `live` (none: an empty object) to
/// `result`, Secret values masked when `mask`.
#[must_use]
pub fn json_patch_doc(live: Option<&Value>, result: &Value, mask: bool) -> PatchDoc {
    let empty = Value::Object(crate::value::Map::new());
    let ops = diff_json_patch(live.unwrap_or(&empty), result);
    PatchDoc {
        tab: "json patch",
        title:
            "RFC 6902 JSON Patch from live to the result (for reading: kubectl does not send it)"
                .into(),
        lines: json_patch_lines(&ops, mask),
        json: true,
        pending: false,
    }
}

fn json_patch_lines(ops: &Value, mask: bool) -> Vec<String> {
    let Some(items) = ops.as_array() else {
        return vec![escape(&ops.to_string())];
    };
    if items.is_empty() {
        return vec!["[]".into()];
    }
    let mut out = vec!["[".to_owned()];
    for (i, op) in items.iter().enumerate() {
        let mut op = op.clone();
        if mask {
            // The path's keys (a JSON Pointer's tokens, unescaped).
            let keys: Vec<String> = op
                .get("path")
                .and_then(Value::as_str)
                .unwrap_or("")
                .split('/')
                .skip(1)
                .map(|t| t.replace("~1", "/").replace("~0", "~"))
                .collect();
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            if let Some(v) = op.get_mut("value") {
                secret::mask_at(v, &keys);
            }
        }
        let comma = if i + 1 < items.len() { "," } else { "" };
        out.push(format!("  {}{comma}", escape(&op.to_string())));
    }
    out.push("]".into());
    out
}
