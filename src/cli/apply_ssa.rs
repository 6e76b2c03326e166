//! `applyscope apply --server-side`: what `kubectl apply --server-side` sends, object by object.
//! Without `--yes`: the requests the plan predicts, printed, nothing sent (a predicted conflict
//! exits 1 with the API server's message). With `--yes`: a server dry run of every object's
//! apply first (`dryRun=All`); nothing is sent for real unless the server accepts them all;
//! then each object's sequence ([`crate::session::ssa::apply::send_server_side`]). A conflict
//! the server reports exits 1 with its message; other errors exit 2.

use crate::cli::Run;
use crate::cli::cluster::ApplyArgs;
use crate::cli::how::How;
use crate::error::Error;

#[cfg(not(feature = "cluster"))]
/// # Errors
/// Always: not built.
pub fn run(_: &ApplyArgs, _: &How) -> Result<Run, Error> {
    Err(crate::session::cluster::not_built())
}

#[cfg(feature = "cluster")]
/// `applyscope apply --server-side`.
///
/// # Errors
/// Bad input, objects that cannot be planned, cluster errors (exit 2).
pub fn run(args: &ApplyArgs, how: &How) -> Result<Run, Error> {
    use crate::cli::cluster::{read_locals, show_request};
    use crate::cluster::{ClusterError, resource_version, without_managed_fields};
    use crate::engine::jsonmerge;
    use crate::session::ssa::SsaOutcome;
    use crate::session::ssa::apply::{SsaSend, apply_plan_requests, dry_run, send_server_side};
    use crate::session::ssa::cluster::{SsaSettings, load_and_plan_server_side};
    use crate::session::ssa::{CONFLICT_REMEDY as REMEDY, now};
    use std::fmt::Write as _;

    let locals = read_locals(&args.local, args.recursive)?;
    let time = now();
    let settings = SsaSettings {
        manager: &how.manager,
        force: how.force,
        migrate: &[],
        time: &time,
    };
    let conn = args.cluster.conn(args.namespace.as_deref());
    let planned = load_and_plan_server_side(locals, &conn, &settings)?;
    let cluster = &planned.cluster;
    let mut transport = |r: &crate::cluster::Request| cluster.send(r);
    let mut out = String::new();
    let mut conflicts = Vec::new();
    let mut sends = Vec::new();
    for o in &planned.objects {
        let describe = o.loaded.target.describe();
        let send = SsaSend {
            target: &o.loaded.target,
            body: &o.body,
            manager: &how.manager,
            force: how.force,
            validation: args.cluster.validate,
        };
        match &o.outcome {
            Err(e) => return Err(e.clone().context(o.pair.local.source.clone())),
            Ok(SsaOutcome::Conflicts { conflicts: c, .. }) => {
                conflicts.push(format!("{describe}: {c}"));
            }
            Ok(SsaOutcome::Refused(refusal)) => {
                conflicts.push(format!("{describe}: {}", refusal.message));
            }
            Ok(SsaOutcome::Planned(plan)) if !args.yes && !args.server_dry_run => {
                let requests = apply_plan_requests(&send, plan, o.loaded.live.as_ref())
                    .map_err(|e| crate::session::cluster::error(&e))?;
                for r in requests {
                    let _ = write!(out, "{describe}: would send ({}) ", r.step.name());
                    out.push_str(&show_request(&r.request));
                }
            }
            Ok(SsaOutcome::Planned(_)) => {}
        }
        sends.push((describe, send));
    }
    let conflicted = |out: String, mut stderr: Vec<String>| {
        stderr.push(REMEDY.into());
        Ok(Run::Report {
            stdout: out,
            stderr,
            code: 1,
        })
    };
    if !args.yes && !args.server_dry_run {
        out.push_str(
            "nothing sent: pass --yes to send (after a server dry run), or --server-dry-run\n",
        );
        if !conflicts.is_empty() {
            return conflicted(out, conflicts);
        }
        return Ok(Run::Print(out));
    }
    // Every dry run first: nothing is sent for real unless the server accepts them all.
    for (describe, send) in &sends {
        match dry_run(send, &mut transport) {
            Ok((request, answer)) => {
                let _ = writeln!(
                    out,
                    "{describe}: server dry run accepted ({})",
                    request.describe()
                );
                if args.server_dry_run {
                    out.push_str(&jsonmerge::to_yaml(&without_managed_fields(&answer)));
                }
            }
            Err(ClusterError::ApplyConflicts(m)) => {
                return conflicted(out, vec![format!("{describe}: {m}")]);
            }
            Err(e) => {
                return Err(Error::Input(format!("server dry run of {describe}: {e}")));
            }
        }
    }
    if args.server_dry_run {
        out.push_str("server dry run only: nothing was changed\n");
        return Ok(Run::Print(out));
    }
    let mut warnings = Vec::new();
    for (describe, send) in &sends {
        let applied = match send_server_side(send, &mut transport) {
            Ok(applied) => applied,
            Err(ClusterError::ApplyConflicts(m)) => {
                return conflicted(
                    out,
                    vec![format!("{describe}: {m} (objects before it were applied)")],
                );
            }
            Err(e) => {
                return Err(Error::Input(format!(
                    "{describe}: {e} (objects before it were applied)"
                )));
            }
        };
        for s in &applied.sent {
            sent_line(&mut out, describe, s);
        }
        warnings.extend(
            applied
                .warnings
                .iter()
                .map(|w| format!("Warning: {describe}: {w}")),
        );
        let rv = applied.object().and_then(resource_version).unwrap_or("?");
        let _ = writeln!(out, "{describe}: serverside-applied (resourceVersion {rv})");
    }
    Ok(crate::cli::finish(out, warnings, 0))
}

/// The line of one request of kubectl's sequence, sent: the object, the step (a guard's
/// server dry run named so), the request, and the resourceVersion it left or why it failed.
#[cfg(feature = "cluster")]
pub(super) fn sent_line(out: &mut String, object: &str, s: &crate::session::ssa::apply::Sent) {
    use crate::engine::ssa::kubectl::StepKind;
    use std::fmt::Write as _;
    let what = s.step.as_ref().map_or("read again", StepKind::name);
    let guard = if s.request.is_dry_run() {
        ": the guard, a server dry run"
    } else {
        ""
    };
    let result = match &s.answer {
        Ok(answer) => format!(
            "resourceVersion {}",
            crate::cluster::resource_version(answer).unwrap_or("?")
        ),
        Err(e) => format!("failed: {e}"),
    };
    let _ = writeln!(
        out,
        "{object}: {what}{guard}: {} ({result})",
        s.request.describe()
    );
}
