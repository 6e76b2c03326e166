//! Editing last-applied in the TUI: drop a field (hand it over to a controller), adopt its live
//! value (take it over), undo and redo. Every edit replaces the model's last-applied document
//! and plans again at once; the document before each edit is kept, so undo and redo are
//! unlimited. Nothing is written until a commit (`commit`).

use crate::fsutil::FileDigest;
use std::path::{Path, PathBuf};

use crate::value::{Map, Value};

use super::Model;
use crate::engine::edit;
use crate::engine::plan::FieldPath;
use crate::session::{EditOptions, Error, Files};

pub use crate::session::files::TargetKind;

/// A write in progress: what was sent to the runtime, for when it reports back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Writing {
    pub path: PathBuf,
    pub content: String,
    /// The live object as the rewritten file reads (live-file target).
    pub live: Option<Value>,
}

/// Edits of last-applied, and where a commit goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditState {
    pub options: EditOptions,
    /// The files the TUI was opened on; `None` for a built-in example.
    pub files: Option<Files>,
    /// The write target's digest when last read or written (`None`: the file does not exist).
    /// A commit writes only if the file still holds those bytes.
    pub target_digest: Option<FileDigest>,
    /// Last-applied as committed (on disk, or as loaded): edits are marked against it.
    pub base: Base,
    /// The documents (`Docs::last_applied`) before each edit, oldest first.
    pub undo: Vec<Option<Value>>,
    /// Undone documents, most recently undone last.
    pub redo: Vec<Option<Value>>,
    pub writing: Option<Writing>,
    /// Cluster mode: the object's session (commits go to the cluster).
    pub cluster: Option<Box<super::cluster::session::ClusterSession>>,
}

/// Last-applied as committed. Until the first edit it is the plan's own last-applied, and no
/// copy of it is kept (a megabyte annotation would be held twice); an edit takes the plan's
/// document over as it was before the edit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Base {
    /// The plan's last-applied: nothing edited since it was committed (or loaded).
    #[default]
    Plan,
    /// The committed document, the plan's last-applied being an edit of it.
    Kept(Option<Value>),
}

impl EditState {
    /// Last-applied as committed, given the plan's (`plan_last_applied`).
    #[must_use]
    pub fn base<'a>(&'a self, plan_last_applied: Option<&'a Value>) -> Option<&'a Value> {
        match &self.base {
            Base::Plan => plan_last_applied,
            Base::Kept(doc) => doc.as_ref(),
        }
    }

    /// Does the plan's last-applied differ from the committed one?
    #[must_use]
    pub fn differs(&self, plan_last_applied: Option<&Value>) -> bool {
        match &self.base {
            Base::Plan => false,
            Base::Kept(doc) => doc.as_ref() != plan_last_applied,
        }
    }

    /// Where a commit writes, if anywhere.
    #[must_use]
    pub fn target(&self) -> Option<(&Path, TargetKind)> {
        crate::session::files::write_target(
            self.files.as_ref(),
            self.options.write_last_applied.as_deref(),
        )
    }
}

impl Model {
    /// Is last-applied edited and not yet committed?
    #[must_use]
    pub fn edits_pending(&self) -> bool {
        self.pending_edits
    }

    /// The last-applied document an edit starts from (`{}` when there is none).
    #[must_use]
    pub fn last_applied_doc(&self) -> Value {
        self.plan
            .last_applied
            .clone()
            .unwrap_or_else(|| Value::Object(Map::new()))
    }
}

/// Why the edit keys do nothing here, if they don't.
pub(super) fn refusal(model: &Model) -> Option<String> {
    if model.edit.options.read_only {
        return Some("read-only (--read-only): editing last-applied is off".into());
    }
    if model.live().is_none() {
        return Some(
            "no live object: the apply creates it, so there is no last-applied to edit".into(),
        );
    }
    None
}

/// The selected field's path, or a notice why there is none to edit.
fn selected_path(model: &Model) -> Result<FieldPath, Error> {
    let field = model
        .current_field()
        .and_then(|f| model.plan.tree.nth(f))
        .ok_or_else(|| Error::Failed("no field selected".into()))?;
    let path = model.plan.tree.field_path(field);
    if path.0.is_empty() {
        return Err(Error::Failed(
            "select a field: the whole object cannot be dropped or adopted (e edits it)".into(),
        ));
    }
    Ok(path)
}

/// `x`: drop the selected field from last-applied.
pub(super) fn drop_field(model: &mut Model) {
    model.notice = Some(try_drop(model).unwrap_or_else(|e| e.to_string()));
}

fn try_drop(model: &mut Model) -> Result<String, Error> {
    if let Some(why) = refusal(model) {
        return Err(Error::Failed(why));
    }
    let path = selected_path(model)?;
    let Some(la) = model.plan.last_applied.as_ref() else {
        return Err(Error::Failed(
            "no last-applied annotation: nothing to drop".into(),
        ));
    };
    let doc = edit::drop(la, &path).map_err(|e| Error::from(e).context("cannot drop"))?;
    apply(model, doc)?;
    let still_in_file = model.in_file(&path);
    Ok(format!(
        "dropped {path} from last-applied (uncommitted); {}{}",
        now(model, &path),
        if still_in_file {
            "; drop it from the file too to keep the live value"
        } else {
            ""
        }
    ))
}

/// `a`: copy the selected field's live value into last-applied.
pub(super) fn adopt_field(model: &mut Model) {
    model.notice = Some(try_adopt(model).unwrap_or_else(|e| e.to_string()));
}

fn try_adopt(model: &mut Model) -> Result<String, Error> {
    if let Some(why) = refusal(model) {
        return Err(Error::Failed(why));
    }
    let path = selected_path(model)?;
    let live = model
        .live()
        .ok_or_else(|| Error::Failed("no live object".into()))?;
    let doc = edit::adopt(&model.last_applied_doc(), live, &path)
        .map_err(|e| Error::from(e).context("cannot adopt"))?;
    apply(model, doc)?;
    Ok(format!(
        "adopted the live {path} into last-applied (uncommitted); {}",
        now(model, &path)
    ))
}

/// What the apply does at a path now, for the notice after an edit.
fn now(model: &Model, path: &FieldPath) -> String {
    model.plan.tree.find(&path.0).map_or_else(
        || "the apply no longer touches it".to_owned(),
        |f| format!("the apply: {}", model.plan.tree.action(f).name()),
    )
}

/// Make `doc` the last-applied document and plan again; remembered for undo.
///
/// # Errors
/// `no change`, or the plan's error (the model is then unchanged).
pub(super) fn apply(model: &mut Model, doc: Value) -> Result<(), Error> {
    if model.plan.last_applied.as_ref() == Some(&doc) {
        return Err(Error::Failed(
            "no change: last-applied already holds that".into(),
        ));
    }
    let before = model.docs.last_applied.clone();
    let mut docs = model.full_docs();
    docs.last_applied = Some(doc);
    model
        .replan(docs)
        .map_err(|e| e.context("the edited last-applied cannot be planned"))?;
    model.edit.undo.push(before);
    model.edit.redo.clear();
    Ok(())
}

/// `u`: back to the document before the last edit.
pub(super) fn undo(model: &mut Model) {
    model.notice = Some(step(model, true));
}

/// `Ctrl-r`: forward to the last undone edit.
pub(super) fn redo(model: &mut Model) {
    model.notice = Some(step(model, false));
}

fn step(model: &mut Model, back: bool) -> String {
    if model.edit.options.read_only {
        return "read-only (--read-only): editing last-applied is off".into();
    }
    let (from, name) = if back {
        (&mut model.edit.undo, "undo")
    } else {
        (&mut model.edit.redo, "redo")
    };
    let Some(doc) = from.pop() else {
        return format!("nothing to {name}");
    };
    let was = model.docs.last_applied.clone();
    let mut docs = model.full_docs();
    docs.last_applied = doc.clone();
    if let Err(e) = model.replan(docs) {
        let from = if back {
            &mut model.edit.undo
        } else {
            &mut model.edit.redo
        };
        from.push(doc);
        return format!("cannot {name}: {e}");
    }
    let (to, left) = if back {
        (&mut model.edit.redo, model.edit.undo.len())
    } else {
        (&mut model.edit.undo, model.edit.redo.len())
    };
    to.push(was);
    let done = if back { "undone" } else { "redone" };
    format!(
        "{done}: {left} more to {name}; {}",
        if model.edits_pending() {
            format!("{} edited (W commits)", edited_count(model))
        } else {
            "last-applied is as committed".into()
        }
    )
}

/// For the why panel: how last-applied was edited at the selected path (or above it).
#[must_use]
pub fn edit_note(model: &Model) -> Option<String> {
    let id = model.current_path();
    let at = model
        .edited
        .iter()
        .copied()
        .find(|e| *e == id || model.plan.tree.is_strict_ancestor(*e, id))?;
    let where_ = if at == id {
        "here".to_owned()
    } else {
        format!("at {}", model.plan.path(at))
    };
    if model.secret && !model.reveal {
        return Some(format!("last-applied edited {where_} (not committed)"));
    }
    let path = model.plan.tree.field_path(at);
    let show = |doc: Option<&Value>| match doc.and_then(|d| path.lookup(d)) {
        None => "absent".to_owned(),
        Some(Value::Object(_)) => "{…}".to_owned(),
        Some(Value::Array(_)) => "[…]".to_owned(),
        Some(v) => super::yaml::scalar(v).0.into_string(),
    };
    Some(format!(
        "last-applied edited {where_} (not committed): was {}, now {}",
        show(model.edit.base(model.plan.last_applied.as_ref())),
        show(model.plan.last_applied.as_ref())
    ))
}

/// `N field(s)`.
#[must_use]
pub fn edited_count(model: &Model) -> String {
    match model.edited.len().max(usize::from(model.edits_pending())) {
        1 => "1 field".into(),
        n => format!("{n} fields"),
    }
}
