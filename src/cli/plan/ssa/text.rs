//! `plan --server-side -o text`: the requests, the counts, one line per field with its values
//! and owners (a subtree kept or removed alike on one line, [`super::fold`]), the warnings;
//! and the value and owner cells `-o markdown` shares.

use std::fmt::Write as _;

use super::fold::{self, Line};
use super::step_head;
use super::warnings::warning_line;
use crate::engine::gojson;
use crate::engine::secret;
use crate::engine::ssa::managed::ManagerId;
use crate::engine::ssa::path::PathElement;
use crate::session::ssa::{Action, Field, SsaPlan, operation};
use crate::value::Value;

fn short(v: Option<&Value>) -> String {
    let Some(v) = v else {
        return "-".into();
    };
    gojson::to_string_cut(v, 40)
}

pub(super) fn owner_names(ids: &[ManagerId]) -> String {
    if ids.is_empty() {
        return "nobody".into();
    }
    ids.iter()
        .map(|id| {
            let mut s = format!("{} ({}", id.manager, operation(id));
            if !id.subresource.is_empty() {
                let _ = write!(s, ", {}", id.subresource);
            }
            s.push(')');
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A removal `kubectl diff --server-side` does not show, said at the end of its line.
fn hidden(f: &Field) -> &'static str {
    if f.hidden_from_diff {
        "  [not shown by kubectl diff --server-side]"
    } else {
        ""
    }
}

/// Whether `-o text` and `-o markdown` mask the plan's values: a Secret's (as kubectl masks
/// them, [`secret::is_secret`]), unless `reveal`.
pub(super) fn masks(plan: &SsaPlan, reveal: bool) -> bool {
    !reveal && secret::is_secret(&plan.patch)
}

/// A field's value as `-o text` and `-o markdown` show it: short, and `***` where a masked
/// Secret's value would show ([`secret::shows_values`]: `data`, `stringData`, the last-applied
/// annotation).
pub(super) fn shown_value(f: &Field, v: Option<&Value>, masked: bool) -> String {
    let hidden = masked && {
        let keys: Vec<&str> = f.at.iter().map_while(PathElement::as_field).collect();
        secret::shows_values(&keys)
    };
    match v {
        Some(_) if hidden => secret::MASK.to_owned(),
        v => short(v),
    }
}

/// `-o text`: the requests, the counts, one line per field with its owners (a subtree whose
/// fields are all kept, or all removed, alike on one line that counts them), the warnings. A
/// Secret's values (`data`, `stringData`, the last-applied annotation) are masked, as `plan`
/// masks them, unless `reveal`.
pub(super) fn text(plan: &SsaPlan, reveal: bool) -> String {
    let mut out = String::new();
    let secret = masks(plan, reveal);
    let masked = |f: &Field, v: Option<&Value>| shown_value(f, v, secret);
    let requests: Vec<&str> = plan
        .steps
        .iter()
        .map(|s| step_head(&s.kind, "").0)
        .collect();
    let _ = writeln!(out, "server-side apply: {}", requests.join(" → "));
    let count = |a: Action| plan.fields.iter().filter(|f| f.action == a).count();
    let _ = writeln!(
        out,
        "{} add, {} set, {} remove, {} keep, {} conflict",
        count(Action::Add),
        count(Action::Set),
        count(Action::Remove),
        count(Action::Keep),
        count(Action::Conflict)
    );
    let lines = fold::lines(&plan.fields);
    let written = fold::written(&lines);
    if written < plan.fields.len() {
        let _ = writeln!(
            out,
            "{} fields on {} lines: a subtree kept or removed alike is one line (-o json lists every field)",
            plan.fields.len(),
            written
        );
    }
    let folded = |out: &mut String, f: &Field, path: &str, count: usize, where_: &str| {
        let _ = writeln!(
            out,
            "{:<8} {path}  [{count} fields {where_}, alike]  owners: {} → {}  ({}){}",
            f.action.as_str(),
            owner_names(&f.owners_before),
            owner_names(&f.owners_after),
            f.rule,
            hidden(f)
        );
    };
    for (f, line) in plan.fields.iter().zip(&lines) {
        let (path, values) = match *line {
            Line::Inside => continue,
            Line::Own | Line::Above { .. } => (f.path(), None),
            Line::Fold { depth, count } if depth == f.at.len() => (
                f.path(),
                Some(format!("  [and {} inside, alike]", count - 1)),
            ),
            Line::Fold { depth, count } => {
                let path = crate::engine::ssa::path::path_string(fold::fold_path(f, depth));
                folded(&mut out, f, &path, count, "inside");
                continue;
            }
        };
        let _ = writeln!(
            out,
            "{:<8} {path}  {} → {}{}  owners: {} → {}  ({}){}",
            f.action.as_str(),
            masked(f, f.before(plan.objects())),
            masked(f, f.after(plan.objects())),
            values.unwrap_or_default(),
            owner_names(&f.owners_before),
            owner_names(&f.owners_after),
            f.rule,
            hidden(f)
        );
        if let Line::Above { count, like } = *line
            && let Some(below) = plan.fields.get(like)
        {
            folded(&mut out, below, &path, count, "below");
        }
    }
    for w in &plan.warnings {
        let _ = writeln!(out, "{}", warning_line(w));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::plan::ssa::reference::{plan_value, pretty};
    use crate::session::ssa::{SsaInput, SsaOutcome, plan_server_side};

    fn planned(local: &str) -> SsaPlan {
        let local: std::sync::Arc<Value> =
            std::sync::Arc::new(serde_json::from_str(local).unwrap());
        let input = SsaInput {
            local: &local,
            live: None,
            local_name: "local.yaml",
            live_name: "",
            manager: "kubectl",
            force: false,
            migrate: &[],
            time: "2026-11-25T10:00:00Z",
            schema: None,
            resource: None,
        };
        match plan_server_side(&input).unwrap() {
            SsaOutcome::Planned(p) => *p,
            SsaOutcome::Conflicts { conflicts, .. } => panic!("{conflicts}"),
            SsaOutcome::Refused(r) => panic!("{}", r.message),
        }
    }

    #[test]
    fn a_secrets_values_are_masked_in_text_unless_revealed() {
        let p = planned(
            r#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"stringData":{"pw":"hunter2"}}"#,
        );
        let masked = text(&p, false);
        assert!(
            masked.contains("add      .stringData.pw  - → ***  owners: nobody → kubectl (Apply)"),
            "{masked}"
        );
        assert!(!masked.contains("hunter2"));
        assert!(text(&p, true).contains("\"hunter2\""));
        let json = pretty(Value::Object(plan_value(&p, "kubectl")));
        assert!(json.contains("hunter2"), "-o json is exact");
    }
}
