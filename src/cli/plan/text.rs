//! `plan -o text`: the readable table (path, action, old → new, reason), then the warnings.

use std::fmt::Write as _;

use crate::value::Value;

use crate::engine::gojson;
use crate::engine::plan::{Action, Field, LAST_APPLIED, PathTexts, Plan, Seg};
use crate::engine::secret::{self, Side};

fn short(v: Option<&Value>) -> String {
    match v {
        None => "-".into(),
        Some(Value::String(s)) => {
            let s: String = s.chars().flat_map(char::escape_default).collect();
            if s.chars().count() > 40 {
                format!("\"{}…\"", s.chars().take(39).collect::<String>())
            } else {
                format!("\"{s}\"")
            }
        }
        Some(other) => gojson::to_string_cut(other, 40),
    }
}

fn action_index(a: Action) -> usize {
    Action::ALL.iter().position(|x| *x == a).unwrap_or(0)
}

/// The table: the counts of every action, then every field that is not `unchanged`. A
/// Secret's values are masked, as `diff` masks them (`-o json|yaml` are exact).
#[must_use]
pub fn text(p: &Plan) -> String {
    text_with(p, false)
}

/// A field's old and new values as shown: a Secret's masked as kubectl's diff masks them, the
/// annotation's copy of them too.
pub(super) fn change(p: &Plan, f: &Field<'_, '_>, reveal: bool) -> (String, String) {
    if reveal || !p.holds_secret_values(f.id) {
        return (short(f.live), short(f.result));
    }
    // The annotation's copy is masked where it holds the values; anything else is a value.
    let annotation = matches!(p.tree.step(f.id), Some(Seg::Key(k)) if &**k == LAST_APPLIED);
    let shown = |v: Option<&Value>, other: Option<&Value>, side: Side| match v {
        None => "-".to_owned(),
        Some(Value::String(s)) if annotation => short(Some(&Value::String(
            secret::mask_annotation(s).as_ref().into(),
        ))),
        Some(v) => secret::mask_text(v, other, side).to_owned(),
    };
    (
        shown(f.live, f.result, Side::Before),
        shown(f.result, f.live, Side::After),
    )
}

/// [`text`], with a Secret's values shown in clear when `reveal` (`--show-secrets`).
#[must_use]
pub fn text_with(p: &Plan, reveal: bool) -> String {
    let mut counts = [0usize; Action::ALL.len()];
    let mut paths = PathTexts::default();
    // The shown fields' paths, and the widest (up to 70 characters).
    let mut shown = Vec::new();
    for f in p.fields() {
        counts[action_index(f.action)] += 1;
        if f.action != Action::Unchanged {
            shown.push((f, paths.next(&p.tree, f.id).to_owned()));
        } else {
            paths.next(&p.tree, f.id);
        }
    }
    let mut out = String::new();
    let what = match (p.created().is_some(), p.patch_type) {
        (true, _) => "create (POST): the object does not exist".to_owned(),
        (false, Some(t)) => format!("PATCH {}", t.content_type()),
        (false, None) => "unchanged: kubectl would send nothing".to_owned(),
    };
    let _ = writeln!(out, "plan: {what}");
    let count = |a: Action| counts.get(action_index(a)).copied().unwrap_or(0);
    let counts: Vec<String> = Action::ALL
        .iter()
        .filter(|a| **a != Action::Unchanged)
        .map(|a| format!("{} {}", count(*a), a.name()))
        .collect();
    let _ = writeln!(out, "fields: {}", counts.join(", "));
    let _ = writeln!(out);
    let width = shown
        .iter()
        .map(|(_, path)| path.chars().count())
        .max()
        .unwrap_or(4)
        .min(70);
    for (f, path) in &shown {
        let change = if f.live.is_some() || f.result.is_some() {
            let (before, after) = change(p, f, reveal);
            format!("  {before} → {after}")
        } else {
            String::new()
        };
        let mut why = format!("{} [{}]", f.reason.row().action, f.reason.kind);
        if let Some(d) = &f.reason.directive {
            let _ = write!(why, " via {d}");
        }
        if let Some(n) = &f.reason.note {
            let _ = write!(why, "; {n}");
        }
        let _ = writeln!(
            out,
            "{:<9} {:<width$}{change}\n          why: {why}",
            f.action.name(),
            path
        );
    }
    if !p.warnings.is_empty() {
        let _ = writeln!(out, "\nwarnings:");
        for w in &p.warnings {
            let _ = writeln!(
                out,
                "! {} {}: {}",
                w.code,
                w.path.as_deref().unwrap_or("-"),
                p.warning_text(w, reveal)
            );
        }
    }
    out
}
