//! Saved server-side plans on the command line: `plan --server-side --save FILE` (the live
//! objects from the cluster, kubectl's requests as the plan predicts them) and `apply --plan
//! FILE` of such a plan: the files and the live objects read and planned again with the
//! saved settings (refused, exit 1, nothing sent, when anything differs), every object's first
//! request dry-run, then each object's requests ([`send_saved`]: the saved ones, the
//! follow-ups checked against the saved ones as kubectl decides them from the answers).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{refuse, validation_of};
use crate::cli::args::PlanArgs;
use crate::cli::cluster::{ApplyArgs, read_locals};
use crate::cli::how::How;
use crate::cli::{ClusterArgs, Run};
use crate::cluster::{ClusterError, Request, Validation, resource_version};
use crate::engine::ssa::kubectl::StepKind;
use crate::error::Error;
use crate::session::objects::Object;
use crate::session::saved::ssa::{SavedSend, guard_in_body, saved_object, send_saved};
use crate::session::saved::{self, SavedObject, SavedPlan, ServerSide};
use crate::session::ssa::cluster::{SsaPlanned, SsaSettings, load_and_plan_server_side};
use crate::session::ssa::{CONFLICT_REMEDY, SsaOutcome};

fn plan_from_cluster(
    locals: Vec<Object>,
    cluster: &ClusterArgs,
    namespace: Option<&str>,
    how: &ServerSide,
) -> Result<SsaPlanned, Error> {
    let settings = SsaSettings {
        manager: &how.field_manager,
        force: how.force_conflicts,
        migrate: &how.migrate_managers,
        time: &how.time,
    };
    load_and_plan_server_side(locals, &cluster.conn(namespace), &settings)
}

/// Every object as saved, and the objects the API server would refuse (its message).
fn saved_objects(
    planned: &SsaPlanned,
    how: &ServerSide,
    validation: Validation,
) -> Result<(Vec<SavedObject>, Vec<String>), Error> {
    let (mut objects, mut refused) = (Vec::new(), Vec::new());
    for o in &planned.objects {
        let describe = o.loaded.target.describe();
        let message = match &o.outcome {
            Err(e) => return Err(e.clone().context(o.pair.local.source.clone())),
            Ok(SsaOutcome::Planned(plan)) => {
                objects.push(saved_object(o, plan, how, validation)?);
                continue;
            }
            Ok(SsaOutcome::Conflicts { conflicts, .. }) => conflicts.to_string(),
            Ok(SsaOutcome::Refused(refusal)) => refusal.message.clone(),
        };
        refused.push(format!("{describe}: {message}"));
        let t = &o.loaded.target;
        objects.push(SavedObject {
            object: describe,
            api_version: t.api_version.clone(),
            kind: t.kind.clone(),
            namespace: t.namespace.clone(),
            name: t.name.clone(),
            live: o
                .loaded
                .live
                .as_ref()
                .map(crate::session::saved::ssa::live_ref),
            requests: Vec::new(),
        });
    }
    Ok((objects, refused))
}

/// `plan --server-side --save FILE`: the live objects from the cluster.
///
/// # Errors
/// Bad input, cluster errors (exit 2). An object the API server would refuse (a conflict):
/// exit 1, nothing saved.
pub fn save(args: &PlanArgs, how: &How, time: &str) -> Result<Run, Error> {
    let Some(file) = &args.save else {
        return Err(Error::Input("--save needs a FILE".into()));
    };
    if !args.live.is_empty() || args.no_live {
        return Err(Error::Input(
            "--save reads the live objects from the cluster (no --live or --no-live): apply --plan checks them there again".into(),
        ));
    }
    let inputs = saved::digest_inputs(&args.local, args.recursive)?;
    let locals = read_locals(&args.local, args.recursive)?;
    let server_side = ServerSide {
        field_manager: how.manager.clone(),
        force_conflicts: how.force,
        migrate_managers: args.migrate_manager.clone(),
        time: time.to_owned(),
    };
    let planned = plan_from_cluster(
        locals,
        &args.cluster,
        args.namespace.as_deref(),
        &server_side,
    )?;
    let (objects, mut refused) = saved_objects(&planned, &server_side, args.cluster.validate)?;
    if !refused.is_empty() {
        refused.push(CONFLICT_REMEDY.into());
        refused.push(format!(
            "nothing saved to {}: the API server would refuse the apply",
            file.display()
        ));
        return Ok(Run::Report {
            stdout: String::new(),
            stderr: refused,
            code: 1,
        });
    }
    let mode_source = how.mode.as_ref().map_or("flag", |m| m.source.kind());
    super::write_plan(
        args,
        file,
        (saved::SERVER_SIDE, mode_source, Some(server_side)),
        inputs,
        objects,
    )
}

/// `--field-manager` or `--force-conflicts` given to `apply --plan` that the plan contradicts.
fn contradicted(args: &ApplyArgs, how: &ServerSide, path: &Path) -> Result<(), Error> {
    let bad = |flag: String, saved: String| {
        Err(Error::Input(format!(
            "{}: the plan was saved with {saved}: {flag} contradicts it (plan and save again)",
            path.display()
        )))
    };
    if let Some(m) = args
        .field_manager
        .as_deref()
        .filter(|m| *m != how.field_manager)
    {
        return bad(
            format!("--field-manager {m}"),
            format!("--field-manager {}", how.field_manager),
        );
    }
    if let Some(f) = args.force_conflicts.filter(|f| *f != how.force_conflicts) {
        return bad(
            format!("--force-conflicts={f}"),
            format!("--force-conflicts={}", how.force_conflicts),
        );
    }
    Ok(())
}

/// `apply --plan FILE` of a server-side plan.
///
/// # Errors
/// A plan without its settings, flags it contradicts, cluster errors (exit 2).
pub fn apply(args: &ApplyArgs, path: &Path, saved_plan: &SavedPlan) -> Result<Run, Error> {
    let s = &saved_plan.settings;
    let how = s.server_side.as_ref().ok_or_else(|| {
        Error::Input(format!(
            "{}: a server-side plan without its serverSide settings",
            path.display()
        ))
    })?;
    contradicted(args, how, path)?;
    let validation = validation_of(&s.validation).ok_or_else(|| {
        Error::Input(format!("{}: validation {:?}", path.display(), s.validation))
    })?;
    let files: Vec<PathBuf> = s.files.iter().map(PathBuf::from).collect();
    let present: Vec<PathBuf> = files.iter().filter(|f| f.exists()).cloned().collect();
    let inputs = saved::digest_inputs(&present, s.recursive)?;
    let now = read_locals(&present, s.recursive).and_then(|locals| {
        let planned = plan_from_cluster(locals, &args.cluster, s.namespace.as_deref(), how)?;
        let (objects, refused) = saved_objects(&planned, how, validation)?;
        Ok((planned, objects, refused))
    });
    let file_changes = saved::differences(saved_plan, &inputs, &saved_plan.objects);
    let (planned, objects, refused) = match now {
        Ok(now) => now,
        Err(e) if !file_changes.is_empty() => return Ok(refuse(file_changes, Some(e))),
        Err(e) => return Err(e),
    };
    let mut changes = saved::differences(saved_plan, &inputs, &objects);
    changes.extend(
        refused
            .into_iter()
            .map(|r| format!("{r} (the API server would refuse the apply now)")),
    );
    if !changes.is_empty() {
        return Ok(refuse(changes, None));
    }
    let mut sends = Vec::new();
    for o in saved_plan.objects.iter().filter(|o| !o.requests.is_empty()) {
        let p = planned
            .objects
            .iter()
            .find(|p| p.loaded.target.describe() == o.object)
            .ok_or_else(|| Error::Input(format!("{}: not planned again", o.object)))?;
        let applied = match &p.outcome {
            Ok(SsaOutcome::Planned(plan)) => plan
                .steps
                .iter()
                .find(|s| s.kind == StepKind::Apply)
                .map(|s| &*s.object),
            _ => None,
        };
        let send = SavedSend {
            object: &o.object,
            target: &p.loaded.target,
            manager: &how.field_manager,
            validation,
            live_version: o.live.as_ref().map(|l| l.resource_version.as_str()),
            guard_in_body: applied.is_some_and(|a| guard_in_body(&how.field_manager, a)),
            requests: &o.requests,
        };
        // Every saved request is checked before anything is sent.
        send.leading()?;
        sends.push(send);
    }
    let cluster = &planned.cluster;
    let mut transport = |r: &Request| cluster.send(r);
    let mut out = String::new();
    // Every dry run first: nothing is sent for real unless the server accepts them all.
    for send in &sends {
        let Some(dry) = send.dry_run()? else { continue };
        match transport(&dry) {
            Ok(_) => {
                let _ = writeln!(
                    out,
                    "{}: server dry run accepted ({})",
                    send.object,
                    dry.describe()
                );
            }
            Err(e) => return Ok(refused_dry_run(out, send.object, &e)),
        }
    }
    let mut stderr = Vec::new();
    let mut code = 0;
    for send in &sends {
        let applied = send_saved(send, &mut transport)?;
        for s in &applied.sent {
            crate::cli::apply_ssa::sent_line(&mut out, send.object, s);
        }
        if let Some(stop) = applied.stopped {
            stderr.push(stop.message);
            if matches!(stop.error, Some(ClusterError::ApplyConflicts(_))) {
                stderr.push(CONFLICT_REMEDY.into());
            }
            stderr.push("the saved plan was not applied to the end: objects before this one were applied, the ones after it were not sent".into());
            code = match stop.error {
                Some(e) if !e.is_conflict() && !matches!(e, ClusterError::ApplyConflicts(_)) => 2,
                _ => 1,
            };
            break;
        }
        let rv = applied
            .sent
            .iter()
            .rev()
            .find_map(|s| s.answer.as_ref().ok().filter(|_| !s.request.is_dry_run()))
            .and_then(resource_version)
            .unwrap_or("?");
        let _ = writeln!(
            out,
            "{}: serverside-applied (resourceVersion {rv})",
            send.object
        );
    }
    if code == 0 {
        for o in saved_plan.objects.iter().filter(|o| o.requests.is_empty()) {
            let _ = writeln!(out, "{}: unchanged", o.object);
        }
        let _ = writeln!(out, "applied the saved plan {}", path.display());
    }
    Ok(crate::cli::finish(out, stderr, code))
}

/// A dry run the server refused: nothing was sent. A conflict or a changed object: exit 1;
/// anything else: exit 2.
fn refused_dry_run(out: String, object: &str, e: &ClusterError) -> Run {
    let (mut stderr, code) = match e {
        ClusterError::ApplyConflicts(m) => {
            (vec![format!("{object}: {m}"), CONFLICT_REMEDY.into()], 1)
        }
        e if e.is_conflict() => (
            vec![format!(
                "{object}: the live object changed after the check: {e}"
            )],
            1,
        ),
        e => (vec![format!("server dry run of {object}: {e}")], 2),
    };
    stderr.push("nothing was sent".into());
    Run::Report {
        stdout: out,
        stderr,
        code,
    }
}
