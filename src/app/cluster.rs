//! The TUI in cluster mode, pure: the session (where the object lives, the patch metadata
//! source, the live object as served), the requests `update` asks the runtime to send
//! ([`Command::Cluster`]), and what it does with the answers ([`Message::ClusterDone`](crate::app::Message::ClusterDone)):
//!
//! - `W` then `y`: the edited last-applied as a JSON merge patch of the annotation alone,
//!   guarded by the loaded resourceVersion. A 409 reloads the object, plans again with the
//!   edits kept, shows what changed on the server and asks again.
//! - `P`: the apply. A server dry run first; its answer (and how it differs from the planned
//!   result) is shown for confirmation; `y` sends the real request. (In the server-side view,
//!   `kubectl apply --server-side`'s requests: `ssa_apply`; `destination` chooses.)
//! - `R` reads the object again; `m` shows or hides `metadata.managedFields`.

use crate::value::Value;

pub mod session;

use super::confirm::{CommitPreview, DiffTag, base, diff_lines, shown_yaml};
use super::edit::EditState;
use super::{Command, Mode, Model, Source};
use crate::cluster::{self, ClusterError, Conn, Purpose, Request};
use crate::engine::plan::Plan;
use crate::engine::schema::Schema;
use crate::engine::smp::ThreeWay;
use crate::session::plan::{DocNames, compute_chosen, compute_sharing};
use crate::session::{Docs, Error};
use session::ClusterSession;

/// A request for the runtime, with what it is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterOp {
    pub conn: Conn,
    /// `None`: read the object again (a GET).
    pub purpose: Option<Purpose>,
    pub request: Request,
}

/// The runtime's answer to a [`ClusterOp`]: the object (`None`: a GET found nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterReply {
    pub purpose: Option<Purpose>,
    pub result: Result<Option<Value>, ClusterError>,
}

/// Plan documents as the model's session says: the server's metadata in cluster mode.
///
/// # Errors
/// The plan's error.
/// Without a cluster the live object is moved into the plan ([`compute_sharing`]).
pub(super) fn compute_plan(edit: &EditState, docs: &mut Docs) -> Result<Plan, Error> {
    match &edit.cluster {
        None => compute_sharing(docs),
        Some(s) => compute_chosen(
            &s.choice,
            docs,
            s.namespace.as_deref(),
            true,
            &DocNames::default(),
        )
        .map(|(p, _)| p),
    }
}

/// The halves of the plan's three-way strategic merge patch, found with the metadata it was
/// planned with: the session's in cluster mode, the embedded schema otherwise or when the
/// session's has none for the kind (as [`compute_chosen`] falls back).
pub(super) fn halves(edit: &EditState, plan: &Plan) -> Option<ThreeWay> {
    edit.cluster
        .as_deref()
        .and_then(|s| crate::engine::plan::halves(plan, s.choice.schema()))
        .or_else(|| crate::engine::plan::halves(plan, Schema::embedded()))
}

impl Model {
    /// The model of an object loaded from the cluster: its documents (the live object as
    /// [`ClusterSession::shown_live`] shows it), planned with the session's metadata.
    #[must_use]
    pub fn from_cluster(source: Source, plan: Plan, session: ClusterSession) -> Model {
        let mut model = Model::with_plan(source, plan);
        model.edit.cluster = Some(Box::new(session));
        model
    }
}

fn op(session: &ClusterSession, purpose: Option<Purpose>, request: Request) -> Command {
    Command::Cluster(Box::new(ClusterOp {
        conn: session.conn.clone(),
        purpose,
        request,
    }))
}

/// `W`'s confirmation in cluster mode: what `y` sends.
pub(super) fn preview(model: &Model, session: &ClusterSession) -> CommitPreview {
    let mut p = base(model);
    let rv = session
        .live
        .as_ref()
        .and_then(cluster::resource_version)
        .unwrap_or("");
    let request = cluster::annotation_patch(
        &session.target,
        rv,
        p.annotation.text.as_deref(),
        session.conn.validation,
    );
    match request {
        Ok(r) => {
            p.action = if model.edit.options.dry_run {
                format!(
                    "dry run (--dry-run): would send {}; nothing is sent",
                    r.describe()
                )
            } else {
                format!(
                    "send {} : the last-applied annotation only, if resourceVersion is still {rv}",
                    r.describe()
                )
            };
            p.request = Some((Purpose::Annotation, r));
        }
        Err(e) => p.action = format!("cannot build the request: {e}"),
    }
    p
}

/// `y` on a cluster confirmation: send it (or, with `--dry-run`, say what would be sent).
pub(super) fn confirm(
    model: &mut Model,
    purpose: Purpose,
    request: Request,
) -> (Mode, Vec<Command>) {
    let Some(session) = model.edit.cluster.as_deref() else {
        return (Mode::Browse, Vec::new());
    };
    if model.edit.options.dry_run {
        model.notice = Some(format!(
            "dry run: nothing sent (would send {})",
            request.describe()
        ));
        return (Mode::Browse, Vec::new());
    }
    model.notice = Some(format!("sending {}…", request.describe()));
    let command = op(session, Some(purpose), request);
    (Mode::Browse, vec![command])
}

/// `R` in cluster mode: GET the object again.
pub(super) fn reload(model: &mut Model) -> (Mode, Vec<Command>) {
    let Some(session) = model.edit.cluster.as_deref() else {
        return (Mode::Browse, Vec::new());
    };
    model.notice = Some(format!(
        "reading {} from the cluster…",
        session.target.describe()
    ));
    let command = op(session, None, cluster::get(&session.target));
    (Mode::Browse, vec![command])
}

/// `P` in the client-side view: the apply, starting with the server's dry run.
pub(super) fn apply(model: &mut Model) -> (Mode, Vec<Command>) {
    let Some(session) = model.edit.cluster.as_deref() else {
        return (Mode::Browse, Vec::new());
    };
    match cluster::apply_request(&session.target, &model.plan, session.conn.validation, true) {
        Ok(Some(dry)) => {
            model.notice = Some(format!("server dry run: {}…", dry.describe()));
            let command = op(session, Some(Purpose::DryRun), dry);
            (Mode::Browse, vec![command])
        }
        Ok(None) => {
            model.notice = Some("nothing to apply: the object is unchanged".into());
            (Mode::Browse, Vec::new())
        }
        Err(e) => {
            model.notice = Some(format!("cannot build the request: {e}"));
            (Mode::Browse, Vec::new())
        }
    }
}

/// `m`: show or hide `metadata.managedFields`.
pub(super) fn toggle_managed_fields(model: &mut Model) {
    let Some(session) = model.edit.cluster.as_deref_mut() else {
        model.notice = Some("managedFields come with live objects read from a cluster".into());
        return;
    };
    session.show_managed = !session.show_managed;
    let shown = session.show_managed;
    let live = session.shown_live();
    let docs = model.docs_with_live(live);
    model.notice = Some(match model.replan(docs) {
        Ok(()) if shown => "managedFields shown".into(),
        Ok(()) => "managedFields hidden".into(),
        Err(e) => format!("cannot show managedFields: {e}"),
    });
}

/// The runtime's answer.
pub(super) fn done(model: &mut Model, reply: ClusterReply) -> Vec<Command> {
    let Some(session) = model.edit.cluster.as_deref() else {
        return Vec::new();
    };
    let describe = session.target.describe();
    match (reply.purpose, reply.result) {
        (Some(Purpose::Annotation), Ok(obj)) => {
            let count = super::edit::edited_count(model);
            let rv = obj
                .as_ref()
                .and_then(cluster::resource_version)
                .unwrap_or("?")
                .to_owned();
            model.notice = Some(match take_live(model, obj) {
                Ok(()) => format!(
                    "committed {count} to {describe}: last-applied annotation patched (resourceVersion {rv})"
                ),
                Err(e) => format!("committed (resourceVersion {rv}); but: {e}"),
            });
            Vec::new()
        }
        (Some(Purpose::Annotation), Err(e)) if e.is_conflict() => {
            if let Some(s) = model.edit.cluster.as_deref_mut() {
                s.after_conflict = true;
            }
            model.notice = Some(format!("{e}; reading it again…"));
            let (_, commands) = reload(model);
            model.notice = Some(format!("{e}; reading it again…"));
            commands
        }
        (Some(Purpose::Annotation), Err(e)) => {
            model.notice = Some(format!("not committed: {e}"));
            Vec::new()
        }
        (Some(Purpose::DryRun), Ok(answer)) => {
            dry_run_answered(model, answer);
            Vec::new()
        }
        (Some(Purpose::DryRun), Err(e)) => {
            model.notice = Some(format!("server dry run refused: {e}; nothing sent"));
            Vec::new()
        }
        (Some(Purpose::Apply), Ok(obj)) => {
            let rv = obj
                .as_ref()
                .and_then(cluster::resource_version)
                .unwrap_or("?")
                .to_owned();
            model.notice = Some(match take_live(model, obj) {
                Ok(()) => format!("applied to {describe} (resourceVersion {rv})"),
                Err(e) => format!("applied (resourceVersion {rv}); but: {e}"),
            });
            Vec::new()
        }
        (Some(Purpose::Apply), Err(e)) => {
            model.notice = Some(format!("not applied: {e}"));
            Vec::new()
        }
        (None, Ok(obj)) => {
            reloaded(model, obj);
            Vec::new()
        }
        (None, Err(e)) => {
            if let Some(s) = model.edit.cluster.as_deref_mut() {
                s.after_conflict = false;
            }
            model.notice = Some(format!("reload failed: {e}; nothing changed"));
            Vec::new()
        }
    }
}

/// The object as the server now holds it becomes live; last-applied is its annotation.
pub(super) fn take_live(model: &mut Model, obj: Option<Value>) -> Result<(), Error> {
    let Some(session) = model.edit.cluster.as_deref_mut() else {
        return Ok(());
    };
    session.live = obj;
    let live = session.shown_live();
    let mut docs = model.docs_with_live(live);
    docs.last_applied = None;
    model.replan_rebased(docs)?;
    model.edit.undo.clear();
    model.edit.redo.clear();
    Ok(())
}

/// A reload's answer. After a 409: keep the edits, plan against the new object, show what
/// changed and ask again.
fn reloaded(model: &mut Model, obj: Option<Value>) {
    let Some(session) = model.edit.cluster.as_deref_mut() else {
        return;
    };
    let after_conflict = std::mem::take(&mut session.after_conflict);
    let before = model.live().cloned();
    let edited = model.edits_pending().then(|| model.last_applied_doc());
    if let Err(e) = take_live(model, obj) {
        model.notice = Some(format!("reloaded, but: {e}"));
        return;
    }
    let mask = model.secret && !model.reveal;
    let changed = diff_lines(
        &shown_yaml(before.as_ref(), mask),
        &shown_yaml(model.live(), mask),
    );
    let Some(edited) = edited else {
        model.notice = Some("reloaded from the cluster".into());
        return;
    };
    if !after_conflict {
        model.notice =
            Some("reloaded from the cluster; your uncommitted edits were discarded".into());
        return;
    }
    let mut docs = model.full_docs();
    docs.last_applied = Some(edited);
    if let Err(e) = model.replan(docs) {
        model.notice = Some(format!("reloaded; your edits no longer plan: {e}"));
        return;
    }
    if !model.edits_pending() {
        model.notice = Some("reloaded: the object changed, and now already holds your edit".into());
        return;
    }
    let Some(session) = model.edit.cluster.as_deref() else {
        return;
    };
    let mut p = preview(model, session);
    let mut diff = vec![(
        DiffTag::Hunk,
        "the object changed on the server since it was read:".to_owned(),
    )];
    diff.extend(changed);
    diff.push((
        DiffTag::Hunk,
        "your last-applied edit, against the object as it is now:".to_owned(),
    ));
    diff.extend(p.diff);
    p.diff = diff;
    p.action = format!("409 Conflict: reloaded and planned again. {}", p.action);
    model.mode = Mode::Confirm(Box::new(p));
}

/// The dry run's answer: shown for confirmation, with how it differs from the planned result.
fn dry_run_answered(model: &mut Model, answer: Option<Value>) {
    let Some(session) = model.edit.cluster.as_deref() else {
        return;
    };
    let real = match cluster::apply_request(
        &session.target,
        &model.plan,
        session.conn.validation,
        false,
    ) {
        Ok(Some(r)) => r,
        Ok(None) => {
            model.notice = Some("nothing to apply".into());
            return;
        }
        Err(e) => {
            model.notice = Some(format!("cannot build the request: {e}"));
            return;
        }
    };
    let mask = model.secret && !model.reveal;
    let strip = |v: &Value| {
        let mut v = cluster::without_managed_fields(v);
        if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            m.remove("resourceVersion");
        }
        v
    };
    let planned = shown_yaml(Some(&strip(&model.plan.result)), mask);
    let answer = answer.map(|a| strip(&a));
    let server = shown_yaml(answer.as_ref(), mask);
    if let Some(a) = &answer {
        model.show_server_result(a);
    }
    let mut diff = diff_lines(&planned, &server);
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
            "server dry run: planned result (-) → the server's answer (+: defaults, admission)"
                .to_owned(),
        ),
    );
    let mut p = base(model);
    p.diff = diff;
    p.content = None;
    p.write = None;
    p.action = format!(
        "the server's dry run accepted it. y sends {}",
        real.describe()
    );
    p.request = Some((Purpose::Apply, real));
    model.mode = Mode::Confirm(Box::new(p));
}
