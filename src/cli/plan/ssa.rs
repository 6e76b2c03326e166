//! `applyscope plan --server-side`: what `kubectl apply --server-side` does to the objects read
//! from files or the cluster, as JSON (`patchType`, `patch`, `result`, `steps`, `fields`,
//! `warnings`) or text.

mod how;

pub use how::{How, ModeFlags};

use std::fmt::Write as _;

use crate::value::{Map, Value};

use super::{Format, PlanArgs, no_live_error, objects};
use crate::cli::Run;
use crate::engine::goyaml;
use crate::engine::ssa::kubectl::{LAST_APPLIED_MANAGER, StepKind};
use crate::engine::ssa::managed::ManagerId;
use crate::error::Error;
use crate::session::kuberc::ApplyMode;
use crate::session::objects::Key;
use crate::session::ssa::{Field, SsaInput, SsaOutcome, SsaPlan, now, operation, plan_server_side};

mod markdown;
mod text;
mod warnings;

pub use markdown::SsaReport;
pub(crate) use warnings::warning_line;

use crate::cluster::ssa::{APPLY_PATCH as PATCH_TYPE, JSON_PATCH};
use text::{masks, owner_names, shown_value, text};
use warnings::{refused_lines, warnings_value};

/// `plan --server-side` with `-f LOCAL` and `--live LIVE` or `--no-live`: one object, or many
/// (several files, directories, files of several objects) matched as `plan` matches them.
/// Without `--live` and `--no-live`, the live objects come from the cluster. `stages`: the
/// `APPLYSCOPE_TIMINGS` report of the one-object plan from files.
pub fn run(
    args: &PlanArgs,
    mode: &ApplyMode,
    mut stages: super::stages::Stages,
) -> Result<Run, Error> {
    if args.last_applied.is_some() {
        return Err(Error::Input(
            "plan --server-side uses the live object's last-applied annotation: no --last-applied"
                .into(),
        ));
    }
    let time = now();
    let how = How::of(args, mode);
    if args.save.is_some() {
        return crate::cli::saved::save_server_side(args, &how, &time);
    }
    if args.live.is_empty() && !args.no_live {
        return run_cluster(args, &how, &time);
    }
    let Some((local, live)) = super::single(args) else {
        return run_many(args, &how, &time);
    };
    let show = |p: &std::path::Path| p.display().to_string();
    let (local_name, live_name) = (
        show(local.path),
        live.as_ref().map(|l| show(l.path)).unwrap_or_default(),
    );
    let local_value = local.object()?;
    let live_value = match (live, args.no_live) {
        (Some(file), _) => Some(file.object()?),
        (None, true) => None,
        (None, false) => return Err(no_live_error()),
    };
    stages.end("read");
    let input = SsaInput {
        local: &local_value,
        live: live_value.as_ref(),
        local_name: &local_name,
        live_name: &live_name,
        manager: &how.manager,
        force: how.force,
        migrate: &args.migrate_manager,
        time: &time,
        schema: None,
    };
    if args.output == Format::Markdown {
        let item = (
            Key::of(&local_value),
            local_name.clone(),
            live_value.is_some(),
            plan_server_side(&input),
        );
        return Ok(markdown(args, &how, std::iter::once(item)));
    }
    let outcome = plan_server_side(&input)?;
    stages.end("plan");
    let run = one(args, &how, outcome);
    stages.end("write");
    stages.print();
    run
}

/// `plan --server-side --example NAME`: the example's local and live documents (its live
/// object carries the managedFields).
pub fn run_docs(
    args: &PlanArgs,
    mode: &ApplyMode,
    docs: &crate::session::Docs,
    name: &str,
) -> Result<Run, Error> {
    let time = now();
    let how = How::of(args, mode);
    let (local_name, live_name) = (format!("{name}/local.yaml"), format!("{name}/live.yaml"));
    let input = SsaInput {
        local: &docs.local,
        live: docs.live.as_ref(),
        local_name: &local_name,
        live_name: &live_name,
        manager: &how.manager,
        force: how.force,
        migrate: &args.migrate_manager,
        time: &time,
        schema: None,
    };
    if args.output == Format::Markdown {
        let item = (
            Key::of(&docs.local),
            local_name.clone(),
            docs.live.is_some(),
            plan_server_side(&input),
        );
        return Ok(markdown(args, &how, std::iter::once(item)));
    }
    one(args, &how, plan_server_side(&input)?)
}

/// One object's plan, written in the chosen format (conflicts and refusals on stderr, exit 1).
fn one(args: &PlanArgs, how: &How, outcome: SsaOutcome) -> Result<Run, Error> {
    match outcome {
        SsaOutcome::Conflicts {
            conflicts,
            warnings,
        } => {
            let mut stderr = vec![conflicts.to_string()];
            stderr.extend(warnings.iter().map(warning_line));
            stderr.push(REMEDY.into());
            Ok(Run::Report {
                stdout: String::new(),
                stderr,
                code: 1,
            })
        }
        SsaOutcome::Refused(refusal) => Ok(Run::Report {
            stdout: String::new(),
            stderr: refused_lines(&refusal.message, &refusal.warnings),
            code: 1,
        }),
        SsaOutcome::Planned(plan) => Ok(Run::Print(match args.output {
            Format::Yaml => goyaml::to_yaml(&Value::Object(
                how.with_mode(plan_value(&plan, &how.manager)),
            )),
            // `-o markdown` is written by [`markdown`].
            Format::Json | Format::Markdown => pretty(Value::Object(
                how.with_mode(plan_value(&plan, &how.manager)),
            )),
            Format::Text => format!("{}{}", how.header(), text(&plan, args.show_secrets)),
        })),
    }
}

use crate::session::ssa::CONFLICT_REMEDY as REMEDY;

fn pretty(v: Value) -> String {
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// Many objects: every object's plan in the files' order (`-o json`: `{"objects": [...]}`, each
/// with `object` and `source`); exit 1 when one conflicts, 2 when one cannot be planned, the
/// others still printed.
fn run_many(args: &PlanArgs, how: &How, time: &str) -> Result<Run, Error> {
    let mut stdin_used = false;
    let locals = objects::read_all(&args.local, args.recursive, &mut stdin_used)?;
    let lives = objects::read_all(&args.live, args.recursive, &mut stdin_used)?;
    let pairs = objects::pair(locals, lives, args.namespace.as_deref())?;
    let plan = |pair: &objects::Pair| {
        let input = SsaInput {
            local: &pair.local.value,
            live: pair.live.as_ref().map(|o| &o.value),
            local_name: &pair.local.source,
            live_name: pair.live.as_ref().map_or("", |o| o.source.as_str()),
            manager: &how.manager,
            force: how.force,
            migrate: &args.migrate_manager,
            time,
            schema: None,
        };
        plan_server_side(&input)
    };
    if args.output == Format::Markdown {
        let items = pairs.iter().map(|pair| {
            let live = pair.live.is_some();
            (
                pair.key.clone(),
                pair.local.source.clone(),
                live,
                plan(pair),
            )
        });
        return Ok(markdown(args, how, items));
    }
    let planned = pairs
        .iter()
        .map(|pair| (&pair.key, pair.local.source.as_str(), plan(pair)));
    Ok(many(args, how, planned))
}

/// The live objects from the cluster: one object printed as from files, many as `run_many`.
#[cfg(feature = "cluster")]
fn run_cluster(args: &PlanArgs, how: &How, time: &str) -> Result<Run, Error> {
    use crate::session::ssa::cluster::{SsaSettings, load_and_plan_server_side};
    let locals = crate::cli::cluster::read_locals(&args.local, args.recursive)?;
    let settings = SsaSettings {
        manager: &how.manager,
        force: how.force,
        migrate: &args.migrate_manager,
        time,
    };
    let conn = args.cluster.conn(args.namespace.as_deref());
    let mut planned = load_and_plan_server_side(locals, &conn, &settings)?;
    if args.output == Format::Markdown {
        let items = planned.objects.into_iter().map(|o| {
            let live = o.loaded.live.is_some();
            (o.pair.key, o.pair.local.source, live, o.outcome)
        });
        return Ok(markdown(args, how, items));
    }
    if let [object] = planned.objects.as_mut_slice() {
        let outcome = std::mem::replace(&mut object.outcome, Err(Error::Input(String::new())));
        return one(args, how, outcome?);
    }
    let items = planned
        .objects
        .into_iter()
        .map(|o| (o.pair.key, o.pair.local.source, o.outcome));
    Ok(many(args, how, items))
}

#[cfg(not(feature = "cluster"))]
fn run_cluster(_: &PlanArgs, _: &How, _: &str) -> Result<Run, Error> {
    Err(crate::session::cluster::not_built())
}

/// Many objects' plans: `-o json`: `{"objects": [...]}`, each with `object` and `source`;
/// text: a `== object (source)` heading each.
fn many<K: std::fmt::Display, S: AsRef<str>>(
    args: &PlanArgs,
    how: &How,
    planned: impl Iterator<Item = (K, S, Result<SsaOutcome, Error>)>,
) -> Run {
    let (mut items, mut out, mut stderr, mut code) = (Vec::new(), String::new(), Vec::new(), 0);
    for (key, source, outcome) in planned {
        let source = source.as_ref();
        let mut item = Map::new();
        item.insert("object", Value::from(key.to_string()));
        item.insert("source", Value::from(source));
        let _ = writeln!(out, "== {key} ({source})");
        match outcome {
            Ok(SsaOutcome::Planned(plan)) => {
                item.extend(plan_value(&plan, &how.manager));
                out.push_str(&text(&plan, args.show_secrets));
            }
            Ok(SsaOutcome::Refused(refusal)) => {
                item.insert("refused", Value::from(refusal.message.as_str()));
                item.insert("warnings", warnings_value(&refusal.warnings));
                let _ = writeln!(out, "refused: {}", refusal.message);
                for w in &refusal.warnings {
                    let _ = writeln!(out, "{}", warning_line(w));
                }
                stderr.push(format!("{key}: {}", refusal.message));
                code = code.max(1);
            }
            Ok(SsaOutcome::Conflicts {
                conflicts,
                warnings,
            }) => {
                let message = conflicts.to_string();
                item.insert("conflicts", Value::from(message.as_str()));
                item.insert("warnings", warnings_value(&warnings));
                let _ = writeln!(out, "conflicts: {message}");
                stderr.push(format!("{key}: {message}"));
                code = code.max(1);
            }
            Err(e) => {
                item.insert("error", Value::from(e.to_string()));
                let _ = writeln!(out, "error: {e}");
                stderr.push(format!("{key}: {e}"));
                code = code.max(2);
            }
        }
        items.push(Value::Object(item));
    }
    if code == 1 {
        stderr.push(REMEDY.into());
    }
    let stdout = match args.output {
        Format::Text => format!("{}{out}", how.header()),
        Format::Yaml => {
            let mut m = Map::new();
            m.insert("objects", Value::Array(items));
            goyaml::to_yaml(&Value::Object(how.with_mode(m)))
        }
        _ => {
            let mut m = Map::new();
            m.insert("objects", Value::Array(items));
            pretty(Value::Object(how.with_mode(m)))
        }
    };
    Run::Report {
        stdout,
        stderr,
        code,
    }
}

/// `-o markdown`: the report of every object (`SsaReport`); stderr and the exit status as
/// many objects' `-o text` (1 when one conflicts or is refused, 2 when one cannot be planned).
fn markdown(
    args: &PlanArgs,
    how: &How,
    planned: impl Iterator<Item = (Key, String, bool, Result<SsaOutcome, Error>)>,
) -> Run {
    let mut report = SsaReport::new("plan --server-side", how, args.show_secrets);
    let (mut stderr, mut code, mut conflicted) = (Vec::new(), 0, false);
    for (key, source, live, outcome) in planned {
        report.add(&key, &source, live, outcome.as_ref(), None);
        match outcome {
            Ok(SsaOutcome::Planned(_)) => {}
            Ok(SsaOutcome::Refused(refusal)) => {
                stderr.push(format!("{key}: {}", refusal.message));
                code = code.max(1);
            }
            Ok(SsaOutcome::Conflicts { conflicts, .. }) => {
                stderr.push(format!("{key}: {conflicts}"));
                (code, conflicted) = (code.max(1), true);
            }
            Err(e) => {
                stderr.push(format!("{key}: {e}"));
                code = code.max(2);
            }
        }
    }
    if conflicted {
        stderr.push(REMEDY.into());
    }
    crate::cli::finish(report.finish(), stderr, code)
}

fn owner_value(id: &ManagerId) -> Value {
    let mut m = Map::new();
    m.insert("manager", Value::from(id.manager.as_str()));
    m.insert("operation", Value::from(operation(id)));
    if !id.api_version.is_empty() {
        m.insert("apiVersion", Value::from(id.api_version.as_str()));
    }
    if !id.subresource.is_empty() {
        m.insert("subresource", Value::from(id.subresource.as_str()));
    }
    Value::Object(m)
}

fn owners_value(ids: &[ManagerId]) -> Value {
    Value::Array(ids.iter().map(owner_value).collect())
}

fn field_value(f: &Field) -> Value {
    let mut m = Map::new();
    m.insert("path", Value::from(f.path.as_str()));
    m.insert("action", Value::from(f.action.as_str()));
    if let Some(v) = &f.before {
        m.insert("before", v.clone());
    }
    if let Some(v) = &f.after {
        m.insert("after", v.clone());
    }
    m.insert("ownersBefore", owners_value(&f.owners_before));
    m.insert("ownersAfter", owners_value(&f.owners_after));
    m.insert("rule", Value::from(f.rule.as_str()));
    if f.hidden_from_diff {
        m.insert("hiddenFromDiff", Value::from(true));
    }
    Value::Object(m)
}

/// The request's name, its manager and what it sends.
fn step_head(kind: &StepKind, manager: &str) -> (&'static str, String, &'static str) {
    let (by, patch_type) = match kind {
        StepKind::Apply | StepKind::ApplyAgain => (manager, PATCH_TYPE),
        StepKind::SaveLastApplied => (LAST_APPLIED_MANAGER, PATCH_TYPE),
        StepKind::UpgradeManagedFields { .. } | StepKind::MigrateManagers { .. } => {
            (manager, JSON_PATCH)
        }
    };
    (kind.name(), by.to_owned(), patch_type)
}

fn plan_value(plan: &SsaPlan, manager: &str) -> Map {
    let mut steps = Vec::new();
    for (step, changes) in plan.steps.iter().zip(&plan.step_changes) {
        let (name, by, patch_type) = step_head(&step.kind, manager);
        let mut m = Map::new();
        m.insert("request", Value::from(name));
        m.insert("manager", Value::from(by));
        m.insert("patchType", Value::from(patch_type));
        if let StepKind::UpgradeManagedFields { from } | StepKind::MigrateManagers { from } =
            &step.kind
        {
            m.insert(
                "from",
                Value::Array(from.iter().map(|s| Value::from(s.as_str())).collect()),
            );
        }
        m.insert("body", step.body.clone());
        let changed = changes
            .iter()
            .map(|(path, action)| {
                let mut c = Map::new();
                c.insert("path", Value::from(path.as_str()));
                c.insert("action", Value::from(action.as_str()));
                Value::Object(c)
            })
            .collect();
        m.insert("changed", Value::Array(changed));
        if let Some(mf) = step
            .object
            .get("metadata")
            .and_then(|x| x.get("managedFields"))
        {
            m.insert("managedFields", mf.clone());
        }
        steps.push(Value::Object(m));
    }
    let mut out = Map::new();
    out.insert("patchType", Value::from(PATCH_TYPE));
    out.insert("patch", plan.patch.clone());
    out.insert("result", plan.result.clone());
    out.insert("steps", Value::Array(steps));
    out.insert(
        "fields",
        Value::Array(plan.fields.iter().map(field_value).collect()),
    );
    out.insert("warnings", warnings_value(&plan.warnings));
    out
}
