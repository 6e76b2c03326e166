//! `plan --server-side -o markdown` (and `diff --server-side -o markdown`): the client-side
//! report's shape (`super::super::markdown`: a summary table riskiest first, one collapsible
//! section per object) for server-side plans. Each section has the fields with their owners
//! before and after and the rule that decided, the requests kubectl sends, the coded
//! warnings, and for `diff` the unified diff. A Secret's values are masked as in `-o text`
//! unless `--show-secrets`. The output depends only on the inputs (no times: owners are
//! named, not dated).

use std::cmp::Reverse;
use std::fmt::Write as _;

use super::super::markdown::{Frame, code, inline};
use super::fold::{self, Line};
use super::{How, masks, owner_names, shown_value, step_head};
use crate::engine::plan::{PatchType, Warning};
use crate::engine::ssa::kubectl::StepKind;
use crate::engine::ssa::path::path_string;
use crate::error::Error;
use crate::session::objects::Key;
use crate::session::risk::{Op, Summary};
use crate::session::ssa::{Action, Field, SsaOutcome, SsaPlan};

/// The most changed paths listed per request; the rest are counted.
const STEP_PATHS: usize = 10;

/// The report, filled object by object and written whole at the end (the table comes first).
pub struct SsaReport {
    frame: Frame,
    /// The manager, `--force-conflicts` and the mode's source, in one line.
    how: String,
    /// The applier.
    manager: String,
    /// `--show-secrets`.
    reveal: bool,
}

/// The actions in the table's column order.
const ACTIONS: [Action; 5] = [
    Action::Add,
    Action::Set,
    Action::Remove,
    Action::Keep,
    Action::Conflict,
];

impl SsaReport {
    #[must_use]
    pub fn new(command: &'static str, how: &How, reveal: bool) -> SsaReport {
        let mut line = format!("Field manager {}", code(&how.manager));
        if how.force {
            line.push_str(", `--force-conflicts`");
        }
        if let Some(mode) = &how.mode {
            let _ = write!(line, "; mode: {}", inline(&mode.describe()));
        }
        line.push('.');
        SsaReport {
            frame: Frame::new(
                command,
                "apply",
                &["add", "set", "remove", "keep", "conflict"],
            ),
            how: line,
            manager: how.manager.clone(),
            reveal,
        }
    }

    /// Add one object: its key, where it was read, whether it exists (`live`), its outcome
    /// and, for `diff`, its unified diff.
    pub fn add(
        &mut self,
        key: &Key,
        source: &str,
        live: bool,
        outcome: Result<&SsaOutcome, &Error>,
        diff: Option<&str>,
    ) {
        let summary = summary(outcome, live);
        let mut counts = vec![0; ACTIONS.len()];
        if let Ok(SsaOutcome::Planned(plan)) = outcome {
            for f in &plan.fields {
                if let Some(i) = ACTIONS.iter().position(|a| *a == f.action) {
                    counts[i] += 1;
                }
            }
        }
        let mut section = self.frame.open(key, source, &summary);
        match outcome {
            Ok(SsaOutcome::Planned(plan)) => {
                fields(&mut section, plan, self.reveal);
                steps(&mut section, plan, &self.manager);
                warnings(&mut section, &plan.warnings);
            }
            Ok(SsaOutcome::Conflicts {
                conflicts,
                warnings: w,
            }) => {
                let _ = writeln!(
                    section,
                    "**Conflicts:** {}\n",
                    inline(&conflicts.to_string())
                );
                warnings(&mut section, w);
            }
            Ok(SsaOutcome::Refused(refusal)) => {
                let _ = writeln!(
                    section,
                    "**Refused by the API server:** {}\n",
                    inline(&refusal.message)
                );
                warnings(&mut section, &refusal.warnings);
            }
            Err(e) => {
                let _ = writeln!(section, "**Fails:** {}\n", inline(&e.to_string()));
            }
        }
        self.frame.push(key, summary, counts, section, diff);
    }

    /// The whole report.
    #[must_use]
    pub fn finish(self) -> String {
        self.frame.finish(Some(&self.how))
    }
}

/// The object's summary, for the risk class and the order (the client-side list's rules):
/// a conflict, a refusal or an error fails; no live object is a create, no field touched or
/// re-owned is unchanged; removals count as clears, forced conflicts as sets.
fn summary(outcome: Result<&SsaOutcome, &Error>, live: bool) -> Summary {
    let (plan, warnings) = match outcome {
        Err(e) => return Summary::failed(&e.to_string()),
        Ok(SsaOutcome::Conflicts {
            conflicts,
            warnings,
        }) => {
            return with_codes(Summary::failed(&conflicts.to_string()), warnings);
        }
        Ok(SsaOutcome::Refused(r)) => return with_codes(Summary::failed(&r.message), &r.warnings),
        Ok(SsaOutcome::Planned(plan)) => (plan, &plan.warnings),
    };
    let count = |a: Action| plan.fields.iter().filter(|f| f.action == a).count();
    let s = Summary {
        op: if !live {
            Op::Create
        } else if plan.fields.is_empty() {
            Op::Unchanged
        } else {
            Op::Patch(PatchType::Strategic)
        },
        add: count(Action::Add),
        set: count(Action::Set) + count(Action::Conflict),
        clear: count(Action::Remove),
        delete: 0,
        warnings: 0,
        severity: None,
        codes: Vec::new(),
        error: None,
    };
    with_codes(s, warnings)
}

fn with_codes(mut s: Summary, warnings: &[Warning]) -> Summary {
    for w in warnings {
        if !s.codes.contains(&w.code) {
            s.codes.push(w.code);
        }
    }
    s.codes.sort_by_key(|c| Reverse(c.severity()));
    s.warnings = warnings.len();
    s.severity = s.codes.first().map(|c| c.severity());
    s
}

/// Every field the apply touches or re-owns: action, path, values, owners, rule. A subtree
/// kept or removed alike is one row, as in `-o text` ([`fold`]): a migrated object re-owns
/// every field, and a comment of a row per field buries the few that change.
pub(super) fn fields(out: &mut String, plan: &SsaPlan, reveal: bool) {
    if plan.fields.is_empty() {
        out.push_str("Nothing changes.\n\n");
        return;
    }
    let masked = masks(plan, reveal);
    let lines = fold::lines(&plan.fields);
    let rows = fold::written(&lines);
    if rows < plan.fields.len() {
        let _ = writeln!(
            out,
            "{} fields on {rows} rows: a subtree kept or removed alike is one row (`-o json` lists every field).\n",
            plan.fields.len()
        );
    }
    out.push_str(
        "| action | field | live → result | owners before → after | rule |\n|---|---|---|---|---|\n",
    );
    let row = |out: &mut String, f: &Field, field: &str, values: &str| {
        let mut rule = f.rule.to_string();
        if f.hidden_from_diff {
            rule.push_str(" — not shown by `kubectl diff --server-side`");
        }
        let _ = writeln!(
            out,
            "| {} | {field} | {values} | {} → {} | {} |",
            f.action.as_str(),
            inline(&owner_names(&f.owners_before)),
            inline(&owner_names(&f.owners_after)),
            inline(&rule)
        );
    };
    let alike = |n: usize, where_: &str| format!(" ({n} fields {where_}, alike)");
    for (f, line) in plan.fields.iter().zip(&lines) {
        let values = || {
            format!(
                "{} → {}",
                code(&shown_value(f, f.before(plan.objects()), masked)),
                code(&shown_value(f, f.after(plan.objects()), masked))
            )
        };
        match *line {
            Line::Inside => {}
            Line::Own => row(out, f, &code(&f.path()), &values()),
            Line::Fold { depth, count } if depth == f.at.len() => {
                let field = code(&f.path()) + &format!(" (and {} inside, alike)", count - 1);
                row(out, f, &field, &values());
            }
            Line::Fold { depth, count } => {
                let path = path_string(fold::fold_path(f, depth));
                row(out, f, &(code(&path) + &alike(count, "inside")), "…");
            }
            Line::Above { count, like } => {
                let path = f.path();
                row(out, f, &code(&path), &values());
                if let Some(below) = plan.fields.get(like) {
                    row(out, below, &(code(&path) + &alike(count, "below")), "…");
                }
            }
        }
    }
    out.push('\n');
}

/// The requests kubectl sends, in order, each with what it changes.
fn steps(out: &mut String, plan: &SsaPlan, manager: &str) {
    out.push_str("**Requests**\n\n");
    for (i, (step, changes)) in plan.steps.iter().zip(&plan.step_changes).enumerate() {
        let (name, by, patch_type) = step_head(&step.kind, manager);
        let mut line = format!(
            "{}. {} by {} ({})",
            i + 1,
            code(name),
            code(&by),
            code(patch_type)
        );
        let mut clauses = Vec::new();
        if let StepKind::UpgradeManagedFields { from } | StepKind::MigrateManagers { from } =
            &step.kind
        {
            let from: Vec<String> = from.iter().map(|m| code(m)).collect();
            clauses.push(format!(
                "the fields of {} become {}'s",
                from.join(", "),
                code(manager)
            ));
        }
        if changes.is_empty() {
            clauses.push("no value changes".to_owned());
        }
        clauses.extend(
            changes
                .iter()
                .take(STEP_PATHS)
                .map(|(path, action)| format!("{} {}", action.as_str(), code(path))),
        );
        if changes.len() > STEP_PATHS {
            clauses.push(format!("and {} more", changes.len() - STEP_PATHS));
        }
        let _ = write!(line, ": {}", clauses.join(", "));
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
}

/// The coded warnings: code, path, message, the manager that keeps the field, the ways out.
fn warnings(out: &mut String, warnings: &[Warning]) {
    if warnings.is_empty() {
        return;
    }
    out.push_str("**Warnings**\n\n");
    for w in warnings {
        let at = w.path.as_deref().map(|path| format!(" at {}", code(path)));
        let mut tail = Vec::new();
        if let Some(m) = &w.manager {
            tail.push(format!("manager {}", code(m)));
        }
        if !w.way_out.is_empty() {
            let ways: Vec<String> = w.way_out.iter().map(|x| code(x.as_str())).collect();
            tail.push(format!("way out: {}", ways.join(", ")));
        }
        let tail = if tail.is_empty() {
            String::new()
        } else {
            format!(" ({})", tail.join("; "))
        };
        let _ = writeln!(
            out,
            "- {} ({}){}: {}{tail}",
            code(w.code.as_str()),
            w.code.severity().as_str(),
            at.unwrap_or_default(),
            inline(&w.message)
        );
    }
    out.push('\n');
}
