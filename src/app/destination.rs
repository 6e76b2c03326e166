//! Where `W`, `y`, `R` and `P` go: to the files (`commit`), to the cluster (`cluster`), or, in
//! the server-side view, to kubectl's server-side apply (`ssa_apply`). The one place that
//! chooses, so those three never call each other.

use super::edit::refusal;
use super::{Command, CommitPreview, Mode, Model, cluster, commit, ssa_apply};

/// `W`: the confirmation of a commit of the edited last-applied.
pub(super) fn commit(model: &mut Model) -> (Mode, Vec<Command>) {
    if let Some(why) = refusal(model) {
        model.notice = Some(why.replace("editing last-applied", "commit"));
        return (Mode::Browse, Vec::new());
    }
    if !model.edits_pending() {
        model.notice = Some("nothing to commit: last-applied is as committed".into());
        return (Mode::Browse, Vec::new());
    }
    match model.edit.cluster.as_deref() {
        Some(session) => (
            Mode::Confirm(Box::new(cluster::preview(model, session))),
            Vec::new(),
        ),
        None => commit::open(model),
    }
}

/// `y` / Enter in a confirmation: to whoever made it.
pub(super) fn confirm(model: &mut Model, preview: CommitPreview) -> (Mode, Vec<Command>) {
    if let Some(op) = preview.server_side {
        return ssa_apply::confirm(model, *op);
    }
    if let Some((purpose, request)) = preview.request {
        return cluster::confirm(model, purpose, request);
    }
    commit::confirm(model, preview)
}

/// `r` after a refusal, `R` any time: read the object again, from the cluster or the files.
pub(super) fn reload(model: &mut Model) -> (Mode, Vec<Command>) {
    if model.edit.cluster.is_some() {
        cluster::reload(model)
    } else {
        commit::reload(model)
    }
}

/// `P`: the apply, in cluster mode only, with last-applied as committed; the server-side view's
/// or the client-side one's.
pub(super) fn apply(model: &mut Model) -> (Mode, Vec<Command>) {
    let Some(session) = model.edit.cluster.as_deref() else {
        model.notice = Some(
            "P sends the apply to the cluster: open the file without --live (cluster mode)".into(),
        );
        return (Mode::Browse, Vec::new());
    };
    if model.edit.options.read_only {
        model.notice = Some("read-only (--read-only): apply is off".into());
        return (Mode::Browse, Vec::new());
    }
    if model.edits_pending() {
        model.notice = Some(
            "last-applied is edited: commit it (W) or undo it first; apply uses the live annotation"
                .into(),
        );
        return (Mode::Browse, Vec::new());
    }
    if model.server.is_some() {
        let session = session.clone();
        return ssa_apply::apply(model, &session);
    }
    cluster::apply(model)
}
