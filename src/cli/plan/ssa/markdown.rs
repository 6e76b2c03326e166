//! `plan --server-side -o markdown` (and `diff --server-side -o markdown`): the client-side
//! report's shape (`super::super::markdown`: a summary table riskiest first, one collapsible
//! section per object) for server-side plans. Each section has the fields with their owners
//! before and after and the rule that decided, the requests kubectl sends, the coded
//! warnings, and for `diff` the unified diff. A Secret's values are masked as in `-o text`
//! unless `--show-secrets`. The output depends only on the inputs (no times: owners are
//! named, not dated).

use std::cmp::Reverse;
use std::fmt::Write as _;

use super::super::markdown::{code, fence_for, html, inline};
use super::{How, masks, owner_names, shown_value, step_head};
use crate::engine::plan::{PatchType, Warning};
use crate::engine::ssa::kubectl::StepKind;
use crate::error::Error;
use crate::session::objects::Key;
use crate::session::risk::{Op, Summary, riskier_first};
use crate::session::ssa::{Action, SsaOutcome, SsaPlan};

/// The most changed paths listed per request; the rest are counted.
const STEP_PATHS: usize = 10;

/// One object's part: its summary (for the order), its counts and its section.
struct Entry {
    key: Key,
    summary: Summary,
    counts: [usize; 5],
    section: String,
}

/// The report, filled object by object and written whole at the end (the table comes first).
pub struct SsaReport {
    /// `plan --server-side` or `diff --server-side`: named in the heading.
    command: &'static str,
    /// The manager, `--force-conflicts` and the mode's source, in one line.
    how: String,
    /// The applier.
    manager: String,
    /// `--show-secrets`.
    reveal: bool,
    entries: Vec<Entry>,
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
            command,
            how: line,
            manager: how.manager.clone(),
            reveal,
            entries: Vec::new(),
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
        let mut counts = [0; 5];
        if let Ok(SsaOutcome::Planned(plan)) = outcome {
            for f in &plan.fields {
                if let Some(i) = ACTIONS.iter().position(|a| *a == f.action) {
                    counts[i] += 1;
                }
            }
        }
        let mut section = String::new();
        let title = format!("{key} · {} · {}", summary.risk().label(), op(&summary));
        let _ = writeln!(section, "<details><summary>{}</summary>\n", html(&title));
        let _ = writeln!(section, "From {}.\n", code(source));
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
        if let Some(diff) = diff.filter(|d| !d.is_empty()) {
            let fence = fence_for(diff);
            let _ = writeln!(section, "{fence}diff\n{diff}{fence}\n");
        }
        section.push_str("</details>\n");
        self.entries.push(Entry {
            key: key.clone(),
            summary,
            counts,
            section,
        });
    }

    /// The whole report.
    #[must_use]
    pub fn finish(mut self) -> String {
        self.entries
            .sort_by(|a, b| riskier_first((&a.summary, &a.key), (&b.summary, &b.key)));
        let n = |o: Op| self.entries.iter().filter(|e| e.summary.op == o).count();
        let mut out = format!(
            "### applyscope {}: {} object{}\n\n{}\n\n{} create, {} apply, {} unchanged, {} fail; riskiest first.\n\n",
            self.command,
            self.entries.len(),
            if self.entries.len() == 1 { "" } else { "s" },
            self.how,
            n(Op::Create),
            n(Op::Patch(PatchType::Strategic)),
            n(Op::Unchanged),
            n(Op::Fails),
        );
        out.push_str(
            "| risk | action | add | set | remove | keep | conflict | warnings | object |\n",
        );
        out.push_str("|---|---|--:|--:|--:|--:|--:|---|---|\n");
        for e in &self.entries {
            let s = &e.summary;
            let codes: Vec<String> = s.codes.iter().map(|c| code(c.as_str())).collect();
            let [add, set, remove, keep, conflict] = e.counts;
            let _ = writeln!(
                out,
                "| {} | {} | {add} | {set} | {remove} | {keep} | {conflict} | {} | {} |",
                s.risk().label(),
                op(s),
                if codes.is_empty() {
                    "-".to_owned()
                } else {
                    codes.join(" ")
                },
                code(&e.key.to_string())
            );
        }
        out.push('\n');
        for e in &self.entries {
            out.push_str(&e.section);
            out.push('\n');
        }
        out
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

fn op(s: &Summary) -> &'static str {
    match s.op {
        Op::Create => "create",
        Op::Patch(_) => "apply",
        Op::Unchanged => "unchanged",
        Op::Fails => "fails",
    }
}

/// Every field the apply touches or re-owns: action, path, values, owners, rule.
fn fields(out: &mut String, plan: &SsaPlan, reveal: bool) {
    if plan.fields.is_empty() {
        out.push_str("Nothing changes.\n\n");
        return;
    }
    let masked = masks(plan, reveal);
    out.push_str(
        "| action | field | live → result | owners before → after | rule |\n|---|---|---|---|---|\n",
    );
    for f in &plan.fields {
        let mut rule = f.rule.clone();
        if f.hidden_from_diff {
            rule.push_str(" — not shown by `kubectl diff --server-side`");
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} → {} | {} → {} | {} |",
            f.action.as_str(),
            code(&f.path),
            code(&shown_value(f, f.before.as_ref(), masked)),
            code(&shown_value(f, f.after.as_ref(), masked)),
            inline(&owner_names(&f.owners_before)),
            inline(&owner_names(&f.owners_after)),
            inline(&rule)
        );
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
