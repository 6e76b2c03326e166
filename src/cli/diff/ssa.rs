//! `applyscope diff --server-side`: each live object against what `kubectl apply --server-side`
//! leaves: the object after kubectl's whole sequence (the apply, the `kubectl-last-applied`
//! apply, the csaupgrade of a client-side object and the second apply: `session::ssa`), in
//! the client-side diff's unified format.
//!
//! `kubectl diff --server-side` (1.37, `pkg/cmd/diff/diff.go`) sends one dry-run apply
//! (`InfoObject.Merged`) and diffs its answer; it never runs the ownership upgrade, so on an
//! object made by client-side apply it does not show what the second apply prunes
//! (kubectl#1796). `--as-kubectl-diff` shows exactly that one apply's answer. In either view,
//! where the two differ, stderr carries the plan's `ssa-diff-underreports` warning.
//!
//! As kubectl diff: `metadata.managedFields` is dropped from both sides unless
//! `--show-managed-fields` (`omitManagedFields`), and a Secret's values are masked unless
//! `--show-secrets`. A conflict is the API server's 409, which kubectl diff prints as
//! `Error from server (Conflict): <message>` and exits 2 with (`CheckDiffErr`: exit code + 1;
//! it first retries the dry run 4 times, as for a stale resourceVersion, and warns that the
//! object "keeps changing"). kubectl stops at the first failing object and prints no diff;
//! here, as for the client-side diff, the other objects' diffs are still printed. With one
//! object, the messages are kubectl's lines; with several, each starts with the object.

use crate::value::Value;

use super::{DiffArgs, DiffOutput, ObjectDiff, Options, file_name, render, sides};
use crate::cli::Run;
use crate::cli::how::How;
use crate::cli::objects::{self, Key, Pair};
use crate::cli::plan::ssa::{SsaReport, warning_line};
use crate::engine::plan::Code;
use crate::engine::ssa::checks;
use crate::engine::ssa::kubectl::{Step, StepKind};
use crate::error::Error;
use crate::session::ssa::{CONFLICT_REMEDY, SsaInput, SsaOutcome, SsaPlan, now, plan_server_side};

/// One object, planned: where it came from, its live object, the outcome.
struct Planned {
    key: Key,
    source: String,
    /// kubectl diff's file name for it.
    name: String,
    live: Option<Value>,
    outcome: Result<SsaOutcome, Error>,
}

/// `diff --server-side`: the objects from files (`--live`, `--no-live`) or the cluster.
///
/// # Errors
/// Bad input, cluster errors (exit 2), before any object is diffed.
pub fn run(args: &DiffArgs, how: &How) -> Result<Run, Error> {
    let time = now();
    let planned = if args.live.is_empty() && !args.no_live {
        from_cluster(args, how, &time)?
    } else {
        from_files(args, how, &time)?
    };
    let opts = Options {
        show_secrets: args.show_secrets,
        show_managed_fields: args.show_managed_fields,
    };
    let several = planned.len() > 1;
    let (mut stderr, mut code, mut conflicted) = (Vec::new(), 0, false);
    let mut diffs = Vec::new();
    let mut report = (args.output == DiffOutput::Markdown)
        .then(|| SsaReport::new("diff --server-side", how, args.show_secrets));
    for p in &planned {
        let at = |line: String| {
            if several {
                format!("{}: {line}", p.key)
            } else {
                line
            }
        };
        let mut diff = None;
        match &p.outcome {
            Ok(SsaOutcome::Planned(plan)) => {
                let (d, underreports) = object_diff(p, plan, args.as_kubectl_diff, opts);
                if let Some(w) = underreports {
                    stderr.push(at(warning_line(&w)));
                }
                diff = Some(d);
            }
            Ok(SsaOutcome::Conflicts {
                conflicts,
                warnings,
            }) => {
                stderr.push(at(format!("Error from server (Conflict): {conflicts}")));
                stderr.extend(warnings.iter().map(|w| at(warning_line(w))));
                (code, conflicted) = (2, true);
            }
            Ok(SsaOutcome::Refused(refusal)) => {
                stderr.push(at(refusal.as_kubectl_prints()));
                stderr.extend(refusal.warnings.iter().map(|w| at(warning_line(w))));
                code = 2;
            }
            Err(e) => {
                stderr.push(format!("{}: {e}", p.key));
                code = 2;
            }
        }
        if let Some(report) = &mut report {
            let text = diff
                .as_ref()
                .map(|d| render(std::slice::from_ref(d), false));
            report.add(
                &p.key,
                &p.source,
                p.live.is_some(),
                p.outcome.as_ref(),
                text.as_deref(),
            );
        }
        diffs.extend(diff);
    }
    if conflicted {
        stderr.push(CONFLICT_REMEDY.into());
    }
    let out = match report {
        Some(report) => report.finish(),
        None => render(&diffs, args.color.enabled()),
    };
    if code == 0 && diffs.iter().any(ObjectDiff::differs) {
        code = 1;
    }
    Ok(crate::cli::finish(out, stderr, code))
}

/// The object's diff (the whole command's result, or with `kubectl_view` the first apply's),
/// and the `ssa-diff-underreports` warning when the two results differ.
fn object_diff(
    p: &Planned,
    plan: &SsaPlan,
    kubectl_view: bool,
    opts: Options,
) -> (ObjectDiff, Option<crate::engine::plan::Warning>) {
    let first = first_apply(plan);
    let merged = match first {
        Some(step) if kubectl_view => step.stored(),
        _ => plan.stored_result(),
    };
    let diff = sides(p.name.clone(), p.live.clone(), merged, opts);
    let differ = first.is_some_and(|step| *step.object != *plan.result);
    let warning = differ.then(|| {
        plan.warnings
            .iter()
            .find(|w| w.code == Code::SsaDiffUnderreports)
            .cloned()
            .unwrap_or_else(|| {
                checks::warning(
                    Code::SsaDiffUnderreports,
                    None,
                    None,
                    &[],
                    "`kubectl diff --server-side` sends only the first apply as a dry run: the object kubectl's whole apply leaves differs from it (`applyscope diff --server-side` without --as-kubectl-diff shows the whole apply)".into(),
                )
            })
    });
    (diff, warning)
}

/// The object kubectl diff's one dry-run apply answers: the first apply request's.
fn first_apply(plan: &SsaPlan) -> Option<&Step> {
    plan.steps.iter().find(|s| s.kind == StepKind::Apply)
}

/// The body kubectl sends for an object read from a file: a namespaced object without a
/// namespace gets the one it goes to (`-n`, else `default`), as kubectl's builder sets it.
fn body(pair: &Pair) -> Value {
    let mut body = pair.local.value.clone();
    if pair.key.namespace.is_empty() {
        return body;
    }
    if let Some(meta) = body.get_mut("metadata").and_then(Value::as_object_mut)
        && meta
            .get("namespace")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
    {
        meta.insert("namespace", Value::from(pair.key.namespace.as_str()));
    }
    body
}

fn from_files(args: &DiffArgs, how: &How, time: &str) -> Result<Vec<Planned>, Error> {
    let mut stdin_used = false;
    let locals = objects::read_all(&args.files, args.recursive, &mut stdin_used)?;
    let lives = objects::read_all(&args.live, args.recursive, &mut stdin_used)?;
    let pairs = objects::pair(locals, lives, args.namespace.as_deref())?;
    Ok(pairs
        .into_iter()
        .map(|pair| {
            let body = std::sync::Arc::new(body(&pair));
            let outcome = plan_server_side(&SsaInput {
                local: &body,
                live: pair.live.as_ref().map(|o| &o.value),
                local_name: &pair.local.source,
                live_name: pair.live.as_ref().map_or("", |o| o.source.as_str()),
                manager: &how.manager,
                force: how.force,
                migrate: &[],
                time,
                schema: None,
                resource: None,
            });
            Planned {
                name: file_name(&pair),
                live: pair.live.map(|o| o.value),
                key: pair.key,
                source: pair.local.source,
                outcome,
            }
        })
        .collect())
}

/// No `--live`, no `--no-live`: the live objects (with their managedFields) from the cluster.
#[cfg(feature = "cluster")]
fn from_cluster(args: &DiffArgs, how: &How, time: &str) -> Result<Vec<Planned>, Error> {
    use crate::session::ssa::cluster::{SsaSettings, load_and_plan_server_side};
    let locals = crate::cli::cluster::read_locals(&args.files, args.recursive)?;
    let settings = SsaSettings {
        manager: &how.manager,
        force: how.force,
        migrate: &[],
        time,
    };
    let conn = args.cluster.conn(args.namespace.as_deref());
    let planned = load_and_plan_server_side(locals, &conn, &settings)?;
    Ok(planned
        .objects
        .into_iter()
        .map(|o| Planned {
            name: file_name(&o.pair),
            live: o.loaded.live,
            key: o.pair.key,
            source: o.pair.local.source,
            outcome: o.outcome,
        })
        .collect())
}

#[cfg(not(feature = "cluster"))]
fn from_cluster(_: &DiffArgs, _: &How, _: &str) -> Result<Vec<Planned>, Error> {
    Err(crate::session::cluster::not_built())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::explain::without_managed_fields;
    use crate::json;

    fn planned(first: Value, result: Value) -> (Planned, SsaPlan) {
        let p = Planned {
            key: Key::of(&first),
            source: "local.yaml".into(),
            name: "v1.ConfigMap.default.c".into(),
            live: None,
            outcome: Err(Error::Input(String::new())),
        };
        let plan = SsaPlan {
            patch: std::sync::Arc::new(first.clone()),
            steps: vec![Step::new(
                StepKind::Apply,
                std::sync::Arc::new(first.clone()),
                std::sync::Arc::new(without_managed_fields(&first)),
                first["metadata"]
                    .get("managedFields")
                    .cloned()
                    .map(std::sync::Arc::new),
            )],
            step_changes: vec![Vec::new()],
            result: std::sync::Arc::new(without_managed_fields(&result)),
            managers: crate::engine::ssa::explain::managed_of(&result),
            live: std::sync::Arc::new(Value::Null),
            fields: Vec::new(),
            warnings: Vec::new(),
        };
        (p, plan)
    }

    #[test]
    fn the_two_views_and_the_warning_when_they_differ() {
        let first = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c", "managedFields": [{"manager": "a"}]}, "data": {"a": "1", "b": "2"}});
        let result = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c", "managedFields": [{"manager": "b"}]}, "data": {"a": "1"}});
        let (p, plan) = planned(first.clone(), result);
        let opts = Options::default();
        let (whole, warning) = object_diff(&p, &plan, false, opts);
        assert!(!whole.merged.contains("b: \"2\""), "{}", whole.merged);
        assert!(!whole.merged.contains("managedFields"));
        let (kubectl, _) = object_diff(&p, &plan, true, opts);
        assert!(kubectl.merged.contains("b: \"2\""), "{}", kubectl.merged);
        // No warning from the plan: one with the code all the same.
        let warning = warning.unwrap();
        assert_eq!(warning.code, Code::SsaDiffUnderreports);
        assert!(warning.message.contains("sends only the first apply"));
        // Only the managedFields differ: the views agree, no warning.
        let mut same = first.clone();
        same["metadata"]["managedFields"] = json!([{"manager": "c"}]);
        let (p, plan) = planned(first, same);
        assert!(object_diff(&p, &plan, false, opts).1.is_none());
    }
}
