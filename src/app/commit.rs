//! Committing edited last-applied to a file: the confirmation (what is written where), the
//! content written (the live file with only its annotation rewritten, or the document alone),
//! and what the runtime reports back: written, refused because the file changed, failed; and
//! reload. In cluster mode the commit goes to the cluster (`cluster`); `destination` chooses.

use std::path::PathBuf;

use crate::value::{Map, Value};

use super::confirm::{CommitPreview, base};
use super::edit::{TargetKind, Writing, edited_count};
use super::{Command, Mode, Model};
use crate::engine::plan::LAST_APPLIED;
use crate::engine::{gojson, jsonmerge};
use crate::fsutil::FileDigest;
use crate::rewrite;
use crate::session::{Error, Loaded, ReloadRequest};

/// `W` with a file to write: the confirmation; for a live file, once it is read again (its
/// annotation is rewritten in its own text, which the model does not keep: [`target_read`]).
pub(super) fn open(model: &Model) -> (Mode, Vec<Command>) {
    match model.edit.target() {
        Some((path, TargetKind::LiveFile)) => {
            (Mode::Browse, vec![Command::ReadTarget(path.to_owned())])
        }
        _ => (Mode::Confirm(Box::new(preview(model, None))), Vec::new()),
    }
}

/// The runtime read the live file for the confirmation `W` asked for. If it no longer holds
/// what was read (its digest), the commit is refused now, as its write would be.
pub(super) fn target_read(
    model: &mut Model,
    result: Result<Option<Vec<u8>>, Error>,
) -> Vec<Command> {
    match result {
        Ok(bytes) if bytes.as_deref().map(FileDigest::of) != model.edit.target_digest => {
            if let Some((path, _)) = model.edit.target() {
                let path = path.to_owned();
                model.mode = Mode::Refused(Error::Changed { path }.to_string());
            }
        }
        Ok(bytes) => {
            model.mode = Mode::Confirm(Box::new(preview(model, bytes.as_deref())));
        }
        Err(e) => model.notice = Some(format!("cannot commit: {e}")),
    }
    Vec::new()
}

/// The confirmation of a commit to a file; `target`: the live file's bytes as just read, when
/// it is what a commit rewrites.
#[must_use]
pub fn preview(model: &Model, target: Option<&[u8]>) -> CommitPreview {
    let mut p = base(model);
    let doc = model.last_applied_doc();
    let hidden = model.secret && !model.reveal;
    let Some((path, kind)) = model.edit.target() else {
        p.action = "no file to write: a built-in example, or an object read from standard input or from a file of several objects (open one object with -f LOCAL --live LIVE, or pass --write-last-applied PATH)".into();
        return p;
    };
    let path = path.to_owned();
    let text = p.annotation.text.clone().unwrap_or_default();
    match content(model, kind, &doc, &text, target) {
        Ok((content, live_after)) => {
            let bytes = content.len();
            let what = match kind {
                TargetKind::LiveFile => "rewrite the annotation in",
                TargetKind::Document => "write the last-applied document to",
            };
            p.action = if model.edit.options.dry_run {
                format!(
                    "dry run (--dry-run): would {what} {} ({bytes} bytes); nothing is written",
                    path.display()
                )
            } else {
                let keep = match &model.edit.target_digest {
                    Some(_) => format!("the original kept as {}.bak", path.display()),
                    None => "a new file".to_owned(),
                };
                format!(
                    "commit: {what} {} ({bytes} bytes, atomically; {keep})",
                    path.display()
                )
            };
            if model.edit.options.dry_run && !hidden {
                p.content = Some(content.clone());
            }
            p.write = Some((path, content, model.edit.target_digest));
            p.live_after = live_after;
        }
        Err(e) => p.action = format!("cannot write {}: {e}", path.display()),
    }
    p
}

/// The new content of the target, and for a live file the object it reads as.
fn content(
    model: &Model,
    kind: TargetKind,
    doc: &Value,
    annotation: &str,
    target: Option<&[u8]>,
) -> Result<(String, Option<Value>), Error> {
    match kind {
        TargetKind::Document => {
            let json = model
                .edit
                .target()
                .is_some_and(|(p, _)| p.extension().is_some_and(|e| e == "json"));
            let text = if json {
                let mut s = gojson::to_string_pretty(doc)?;
                s.push('\n');
                s
            } else {
                jsonmerge::to_yaml(doc)
            };
            Ok((text, None))
        }
        TargetKind::LiveFile => {
            let bytes = target.ok_or_else(|| Error::Failed("the live file was not read".into()))?;
            let text = std::str::from_utf8(bytes).map_err(|_| Error::Failed("not UTF-8".into()))?;
            let live = model
                .live()
                .ok_or_else(|| Error::Failed("no live object".into()))?;
            let want = with_annotation(live, annotation);
            let content = rewrite::set_annotation(text, annotation, &want)?;
            Ok((content, Some(want)))
        }
    }
}

/// `live` with its last-applied annotation set (`metadata.annotations` created if needed).
fn with_annotation(live: &Value, annotation: &str) -> Value {
    let mut want = live.clone();
    if let Some(metadata) = want.get_mut("metadata").and_then(Value::as_object_mut) {
        let annotations = metadata
            .entry("annotations")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = annotations {
            m.insert(LAST_APPLIED, Value::String(annotation.into()));
        }
    }
    want
}

/// `y` / Enter in a file commit's confirmation: write it (or, with `--dry-run`, say what would
/// be written).
pub(super) fn confirm(model: &mut Model, preview: CommitPreview) -> (Mode, Vec<Command>) {
    let Some((path, content, expected)) = preview.write else {
        model.notice = Some(preview.action);
        return (Mode::Browse, Vec::new());
    };
    if model.edit.options.dry_run {
        model.notice = Some(format!(
            "dry run: nothing written (would write {}, {} bytes)",
            path.display(),
            content.len()
        ));
        return (Mode::Browse, Vec::new());
    }
    model.edit.writing = Some(Writing {
        path: path.clone(),
        content: content.clone(),
        live: preview.live_after,
    });
    model.notice = Some(format!("writing {}…", path.display()));
    (
        Mode::Browse,
        vec![Command::WriteFile {
            path,
            content,
            expected,
        }],
    )
}

/// The runtime's report on a write.
pub(super) fn written(model: &mut Model, result: Result<PathBuf, Error>) {
    let Some(writing) = model.edit.writing.take() else {
        return;
    };
    match result {
        Ok(path) => {
            let had_original = model.edit.target_digest.is_some();
            let count = edited_count(model);
            model.edit.target_digest = Some(FileDigest::of(writing.content.as_bytes()));
            let docs = match writing.live {
                Some(live) => model.docs_with_live(Some(live)),
                None => model.full_docs(),
            };
            let result = model.replan_rebased(docs);
            let backup = if had_original {
                format!("; the original is {}.bak", path.display())
            } else {
                String::new()
            };
            model.notice = Some(match result {
                Ok(()) => format!("wrote {} ({count} committed){backup}", path.display()),
                Err(e) => format!("wrote {}{backup}; but: {e}", path.display()),
            });
        }
        Err(e @ Error::Changed { .. }) => model.mode = Mode::Refused(e.to_string()),
        Err(e) => model.notice = Some(format!("not written: {e}")),
    }
}

impl Model {
    /// Take in what the first load read: the write target's bytes, and the documents (if they
    /// differ from those the model was built from, they are newer).
    ///
    /// # Errors
    /// The plan's error for the newer documents.
    pub fn attach(&mut self, loaded: Loaded) -> Result<(), crate::session::Error> {
        self.edit.target_digest = loaded.target;
        match loaded.docs {
            Some(docs) if !self.holds(&docs) => self.replan_rebased(docs),
            _ => Ok(()),
        }
    }
}

/// `r` after a refusal, `R` any time, without a cluster: read the files again.
pub(super) fn reload(model: &mut Model) -> (Mode, Vec<Command>) {
    let target = model.edit.target().map(|(p, _)| p.to_owned());
    if model.edit.files.is_none() && target.is_none() {
        model.notice = Some(
            "nothing to reload: a built-in example, or an object from standard input or a file of several objects"
                .into(),
        );
        return (Mode::Browse, Vec::new());
    }
    (
        Mode::Browse,
        vec![Command::Reload(ReloadRequest {
            files: model.edit.files.clone(),
            target,
        })],
    )
}

/// The runtime's report on a reload: the documents as now on disk; edits are discarded.
pub(super) fn reloaded(model: &mut Model, result: Result<Box<Loaded>, Error>) {
    let loaded = match result {
        Ok(l) => *l,
        Err(e) => {
            model.notice = Some(format!("reload failed: {e}; nothing changed"));
            return;
        }
    };
    model.edit.target_digest = loaded.target;
    let Some(docs) = loaded.docs else {
        model.notice = Some("re-read the write target; edits kept".into());
        return;
    };
    let discarded = model.edits_pending();
    match model.replan_rebased(docs) {
        Ok(()) => {
            model.edit.undo.clear();
            model.edit.redo.clear();
            model.notice = Some(if discarded {
                "reloaded from disk; your uncommitted edits were discarded".into()
            } else {
                "reloaded from disk".into()
            });
        }
        Err(e) => model.notice = Some(format!("reload: {e}; still showing the old documents")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotation_inserted_where_there_was_none() {
        let live = crate::json!({"metadata": {"name": "x"}});
        let want = with_annotation(&live, "{}\n");
        assert_eq!(want["metadata"]["annotations"][LAST_APPLIED], "{}\n");
    }
}
