//! `applyscope plan --server-side`: what `kubectl apply --server-side` does to the objects read
//! from files or the cluster, as JSON (`patchType`, `patch`, `result`, `steps`, `fields`,
//! `warnings`) or text.

use super::{Format, PlanArgs, no_live_error, objects};
use crate::cli::Run;
use crate::cli::how::How;
use crate::engine::ssa::kubectl::{LAST_APPLIED_MANAGER, StepKind};
use crate::error::Error;
use crate::session::kuberc::ApplyMode;
use crate::session::objects::Key;
use crate::session::parallel::chunked_map;
use crate::session::ssa::{SsaInput, SsaOutcome, kubectl_body, now, plan_server_side};

mod fold;
mod many;
mod markdown;
mod pieces;
mod pretty;
#[cfg(test)]
mod reference;
mod text;
mod warnings;
mod write;
#[cfg(test)]
mod write_tests;
mod yaml;

pub use markdown::SsaReport;
pub(crate) use warnings::warning_line;

use crate::cluster::ssa::{APPLY_PATCH as PATCH_TYPE, JSON_PATCH};
use many::{CHUNK, Layout, json_many, text_many, yaml_many};
use text::{masks, owner_names, shown_value, text};
use warnings::refused_lines;
use write::{Item, Tally, json_one};
use yaml::yaml_one;

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
    let how = args.how(mode);
    if args.save.is_some() {
        return crate::cli::saved::save_server_side(args, &how, &time);
    }
    if args.live.is_empty() && !args.no_live {
        return run_cluster(args, &how, &time);
    }
    // The engine reads the last-applied annotation itself (`engine::ssa::lastapplied`).
    let Some((local, live)) = super::single(args, false) else {
        let run = run_many(args, &how, &time, &mut stages);
        stages.print();
        return run;
    };
    let show = |p: &std::path::Path| p.display().to_string();
    let (local_name, live_name) = (
        show(local.path),
        live.as_ref().map(|l| show(l.path)).unwrap_or_default(),
    );
    let live_value = match (live, args.no_live) {
        (Some(file), _) => Some(file.object()?),
        (None, true) => None,
        (None, false) => return Err(no_live_error()),
    };
    let local_value = std::sync::Arc::new(kubectl_body(
        local.object()?,
        live_value.as_ref(),
        args.namespace.as_deref(),
        &local_name,
    )?);
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
        resource: None,
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
    // As the plan's ([`one`]): the inputs' memory is left to the system, not freed a node at
    // a time (about 0.2 s at 1,000 containers × 100 env vars).
    std::mem::forget((local_value, live_value));
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
    let how = args.how(mode);
    let (local_name, live_name) = (format!("{name}/local.yaml"), format!("{name}/live.yaml"));
    let local = std::sync::Arc::new(kubectl_body(
        docs.local.clone(),
        docs.live.as_ref(),
        args.namespace.as_deref(),
        &local_name,
    )?);
    let input = SsaInput {
        local: &local,
        live: docs.live.as_ref(),
        local_name: &local_name,
        live_name: &live_name,
        manager: &how.manager,
        force: how.force,
        migrate: &args.migrate_manager,
        time: &time,
        schema: None,
        resource: None,
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
            stderr: refused_lines(&refusal),
            code: 1,
        }),
        SsaOutcome::Planned(plan) if args.output == Format::Text => {
            let printed = format!("{}{}", how.header(), text(&plan, args.show_secrets));
            // The process ends once this is printed: leave the memory to the system (freeing
            // a big plan takes tens of milliseconds).
            std::mem::forget(plan);
            Ok(Run::Print(printed))
        }
        SsaOutcome::Planned(plan) => {
            let mode = how.mode_value();
            // Straight to standard output: the text (340 MB of JSON at 1,000 containers × 100
            // env vars) is never held whole, nor the plan copied into one value.
            let mut stdout = std::io::stdout().lock();
            let written = match args.output {
                Format::Yaml => yaml_one(mode.as_ref(), &plan, &how.manager, &mut stdout),
                // `-o markdown` is written by [`markdown`], `-o text` above.
                _ => json_one(mode.as_ref(), &plan, &how.manager, &mut stdout),
            };
            // The process ends once this is printed: leave the memory to the system.
            std::mem::forget(plan);
            written.map_err(Error::output)?;
            Ok(Run::Print(String::new()))
        }
    }
}

use crate::session::ssa::CONFLICT_REMEDY as REMEDY;

/// Many objects: every object's plan in the files' order (`-o json`: `{"objects": [...]}`, each
/// with `object` and `source`); exit 1 when one conflicts, 2 when one cannot be planned, the
/// others still printed.
fn run_many(
    args: &PlanArgs,
    how: &How,
    time: &str,
    stages: &mut super::stages::Stages,
) -> Result<Run, Error> {
    let mut stdin_used = false;
    let locals = objects::read_all(&args.local, args.recursive, &mut stdin_used)?;
    let lives = objects::read_all(&args.live, args.recursive, &mut stdin_used)?;
    let pairs = objects::pair(locals, lives, args.namespace.as_deref())?;
    stages.end("read");
    let plan = |pair: &objects::Pair| {
        let live = pair.live.as_ref().map(|o| &o.value);
        let local = std::sync::Arc::new(kubectl_body(
            pair.local.value.clone(),
            live,
            args.namespace.as_deref(),
            &pair.local.source,
        )?);
        let input = SsaInput {
            local: &local,
            live,
            local_name: &pair.local.source,
            live_name: pair.live.as_ref().map_or("", |o| o.source.as_str()),
            manager: &how.manager,
            force: how.force,
            migrate: &args.migrate_manager,
            time,
            schema: None,
            resource: None,
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
        let run = markdown(args, how, items);
        stages.end("plan+write");
        return Ok(run);
    }
    // Planned a chunk at a time on every core, written in order as they come.
    let planned = chunked_map(&pairs, CHUNK, |pair| {
        (&pair.key, pair.local.source.as_str(), plan(pair))
    });
    let run = many(args, how, planned);
    stages.end("plan+write");
    Ok(run)
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

/// Many objects' plans: `-o json|yaml`: `{"objects": [...]}`, each with `object` and
/// `source`, written to stdout as each object is planned; text: a `== object (source)`
/// heading each.
fn many<K: std::fmt::Display, S: AsRef<str>>(
    args: &PlanArgs,
    how: &How,
    planned: impl Iterator<Item = (K, S, Result<SsaOutcome, Error>)>,
) -> Run {
    let items = planned
        .map(|(key, source, outcome)| Item::new(key.to_string(), source.as_ref().into(), outcome));
    let mut tally = Tally::default();
    let mut stdout = std::io::stdout().lock();
    if args.output == Format::Text {
        let header = how.header();
        let broken = text_many(
            &header,
            items,
            args.show_secrets,
            CHUNK,
            &mut tally,
            &mut stdout,
        );
        return tally.run(broken);
    }
    let mode = how.mode_value();
    let layout = Layout {
        mode: mode.as_ref(),
        manager: &how.manager,
        chunk: CHUNK,
    };
    // `-o markdown` is written by [`markdown`], `-o text` above.
    let write = match args.output {
        Format::Yaml => yaml_many,
        _ => json_many,
    };
    let broken = write(&layout, items, &mut tally, &mut stdout);
    tally.run(broken)
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
