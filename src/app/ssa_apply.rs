//! `P` in the server-side view (cluster mode), pure: what `kubectl apply --server-side` sends,
//! as `applyscope apply --server-side --yes` sends it (`session::ssa::apply`).
//!
//! 1. `P` asks the runtime for the server dry run of the first apply
//!    ([`Command::ServerSideApply`] with `dry_run`); the answer, against the planned result,
//!    is shown for confirmation. A conflict is the API server's message: nothing is sent (the
//!    TUI applies without `--force-conflicts`).
//! 2. `y` asks the runtime for kubectl's whole sequence (the apply, and the follow-ups kubectl
//!    decides from each answer), then a read of the object and a server-side plan of it again
//!    ([`SsaApplyOp::run`], with the connection the object was read with, on a worker).
//! 3. The answer ([`Message::ServerSideApplied`](crate::app::Message::ServerSideApplied)): the object as read becomes live, and the
//!    server-side view shows the plan against it.

pub mod op;

use super::cluster::session::ClusterSession;
use super::cluster::take_live;
use super::confirm::{DiffTag, base, diff_lines, shown_yaml};
use super::{Command, Mode, Model};
use crate::cluster::{self, ClusterError, Purpose};
use crate::session::ssa::apply::apply_plan_requests;
use crate::session::ssa::cluster::apply_body;
use crate::value::Value;
use op::{SsaApplyOp, SsaApplyReply};

/// What the TUI says when the API server refuses the apply for conflicts.
pub const NO_FORCE: &str = "nothing sent: the TUI applies without --force-conflicts (hand the fields over, drop them from the file, or run `applyscope apply --server-side --force-conflicts`)";

/// The apply of the server-side view's plan (none when the view is off).
fn op_of(model: &Model, session: &ClusterSession, dry_run: bool) -> Option<SsaApplyOp> {
    let server = model.server.as_deref()?;
    Some(SsaApplyOp {
        conn: session.conn.clone(),
        target: session.target.clone(),
        body: apply_body(&model.plan.local(), &session.target),
        manager: server.request.manager.clone(),
        force: server.request.force,
        validation: session.conn.validation,
        dry_run,
        replan: server.request.clone(),
    })
}

/// `P` with the server-side view on: the server dry run first.
pub(super) fn apply(model: &mut Model, session: &ClusterSession) -> (Mode, Vec<Command>) {
    let Some(op) = op_of(model, session, true) else {
        return (Mode::Browse, Vec::new());
    };
    model.notice = Some(format!(
        "server dry run of the server-side apply (field manager {})…",
        op.manager
    ));
    (Mode::Browse, vec![Command::ServerSideApply(Box::new(op))])
}

/// The runtime's answer (no further commands).
pub(super) fn done(model: &mut Model, reply: SsaApplyReply) -> Vec<Command> {
    answered(model, reply);
    Vec::new()
}

fn answered(model: &mut Model, reply: SsaApplyReply) {
    let Some(session) = model.edit.cluster.as_deref() else {
        return;
    };
    let describe = session.target.describe();
    match reply {
        SsaApplyReply::DryRun(Ok(answer)) => dry_run_answered(model, answer),
        SsaApplyReply::DryRun(Err(ClusterError::ApplyConflicts(m))) => {
            model.notice = Some(format!(
                "server dry run: the API server refuses the apply: {m}; {NO_FORCE}"
            ));
        }
        SsaApplyReply::DryRun(Err(e)) => {
            model.notice = Some(format!("server dry run refused: {e}; nothing sent"));
        }
        SsaApplyReply::Applied {
            applied: Err(ClusterError::ApplyConflicts(m)),
            ..
        } => {
            model.notice = Some(format!(
                "not applied: the API server refuses the apply: {m}; {NO_FORCE}"
            ));
        }
        SsaApplyReply::Applied {
            applied: Err(e), ..
        } => model.notice = Some(format!("not applied: {e}")),
        SsaApplyReply::Applied {
            applied: Ok(applied),
            live,
            replanned,
        } => {
            let steps: Vec<&str> = applied
                .sent
                .iter()
                .map(|s| s.step.as_ref().map_or("read again", |k| k.name()))
                .collect();
            let rv = applied
                .object()
                .and_then(cluster::resource_version)
                .unwrap_or("?")
                .to_owned();
            let mut said = format!(
                "server-side applied to {describe}: {} (resourceVersion {rv})",
                steps.join(", ")
            );
            for w in &applied.warnings {
                said.push_str(&format!("; Warning: {w}"));
            }
            let after = match live {
                Some(Ok(obj)) => match take_live(model, obj) {
                    Ok(()) => match replanned {
                        Some(Ok(outcome)) => {
                            super::ssa::planned(model, Ok(outcome));
                            None
                        }
                        Some(Err(e)) => Some(format!("cannot plan server-side again: {e}")),
                        None => Some("not planned again".to_owned()),
                    },
                    Err(e) => Some(e.to_string()),
                },
                Some(Err(e)) => Some(format!("reading it again failed: {e} (R reads it)")),
                None => None,
            };
            model.notice = Some(match after {
                None => said,
                Some(but) => format!("{said}; but: {but}"),
            });
        }
    }
}

/// The dry run's answer against the server-side plan's result, for confirmation.
fn dry_run_answered(model: &mut Model, answer: Value) {
    let (Some(session), Some(server)) = (model.edit.cluster.as_deref(), model.server.as_deref())
    else {
        return;
    };
    let Some(op) = op_of(model, session, false) else {
        return;
    };
    let send = op.send();
    let planned = server.plan();
    let steps = planned.and_then(|p| {
        apply_plan_requests(&send, p, server.request.live.as_ref())
            .ok()
            .filter(|r| !r.is_empty())
    });
    let first = match steps.as_ref().and_then(|s| s.first()) {
        Some(r) => r.request.clone(),
        None => match crate::cluster::ssa::apply_patch(
            &op.target,
            &op.body,
            &op.manager,
            Some(op.force),
            op.validation,
            false,
        ) {
            Ok(r) => r,
            Err(e) => {
                model.notice = Some(format!("cannot build the request: {e}"));
                return;
            }
        },
    };
    let names: Vec<&str> = steps.iter().flatten().map(|r| r.step.name()).collect();
    let mask = model.secret && !model.reveal;
    let strip = |v: &Value| {
        let mut v = cluster::without_managed_fields(v);
        if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            m.remove("resourceVersion");
        }
        v
    };
    let planned_yaml = shown_yaml(planned.map(|p| strip(&p.result)).as_ref(), mask);
    let answer = strip(&answer);
    let mut diff = diff_lines(&planned_yaml, &shown_yaml(Some(&answer), mask));
    if diff.is_empty() {
        diff.push((
            DiffTag::Same,
            "(the server's answer is the planned result)".to_owned(),
        ));
    }
    diff.insert(
        0,
        (
            DiffTag::Hunk,
            "server dry run of the first apply: planned server-side result (-) → the server's answer (+)"
                .to_owned(),
        ),
    );
    let planned_steps = if names.is_empty() {
        String::new()
    } else {
        format!(" (kubectl's requests, as planned: {})", names.join(", "))
    };
    let mut p = base(model);
    p.diff = diff;
    p.content = None;
    p.write = None;
    p.action = format!(
        "the server's dry run accepted it. y sends kubectl's server-side apply as {}: {}{planned_steps}",
        op.manager,
        first.describe()
    );
    p.request = Some((Purpose::Apply, first));
    p.server_side = Some(Box::new(op));
    model.mode = Mode::Confirm(Box::new(p));
}

/// `y` on the server-side confirmation: send kubectl's sequence (or, with `--dry-run`, say
/// what would be sent).
pub(super) fn confirm(model: &mut Model, op: SsaApplyOp) -> (Mode, Vec<Command>) {
    if model.edit.options.dry_run {
        model.notice = Some(format!(
            "dry run: nothing sent (would send kubectl's server-side apply of {})",
            op.target.describe()
        ));
        return (Mode::Browse, Vec::new());
    }
    model.notice = Some(format!(
        "sending the server-side apply of {} (field manager {})…",
        op.target.describe(),
        op.manager
    ));
    (Mode::Browse, vec![Command::ServerSideApply(Box::new(op))])
}
