//! Committing edited last-applied: the annotation preview (kubectl's bytes, their size and the
//! whole annotations map's against the server's limit), the confirmation with the diff, the
//! content written (the live file with only its annotation rewritten, or the document alone),
//! and what the runtime reports back: written, refused because the file changed, failed; and
//! reload.

use std::path::PathBuf;

use crate::value::{Map, Value};

use super::edit::{TargetKind, Writing, edited_count, refusal};
use super::{Command, Mode, Model};
use crate::engine::plan::{ANNOTATIONS_LIMIT, LAST_APPLIED, annotations_size, encode_annotation};
use crate::engine::{gojson, jsonmerge, secret};
use crate::fsutil::FileDigest;
use crate::rewrite;
use crate::session::{Error, Loaded, ReloadRequest};

/// The annotation a commit would store, and the sizes the server checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotationPreview {
    /// `None`: there is no last-applied annotation.
    pub text: Option<String>,
    /// The text shown: `text`, with a Secret's values masked until revealed.
    pub shown: String,
    pub masked: bool,
    /// The annotation's size in bytes.
    pub bytes: usize,
    /// The whole annotations map (every key and value) with it.
    pub map_bytes: usize,
    /// The annotation the next apply stores (the file's configuration), in bytes.
    pub next_apply_bytes: usize,
}

impl AnnotationPreview {
    #[must_use]
    pub fn over_limit(&self) -> bool {
        self.map_bytes > ANNOTATIONS_LIMIT
    }
}

/// One line of the last-applied diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffTag {
    Hunk,
    Same,
    Old,
    New,
}

/// The commit confirmation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitPreview {
    pub annotation: AnnotationPreview,
    /// The line diff of the committed and the edited last-applied, as YAML.
    pub diff: Vec<(DiffTag, String)>,
    /// What `y` does, in words.
    pub action: String,
    /// The write `y` sends, and the digest the file must still have (`None`: it must not
    /// exist); `None`: nothing to write (why is in `action`).
    pub write: Option<(PathBuf, String, Option<FileDigest>)>,
    /// The live object as the rewritten file reads.
    pub live_after: Option<Value>,
    /// The content written, for a dry run (`None` when hidden or not a dry run).
    pub content: Option<String>,
    pub scroll: usize,
    /// Cluster mode: the request `y` sends, and what for.
    pub request: Option<(crate::cluster::Purpose, crate::cluster::Request)>,
    /// Cluster mode, server-side view: kubectl's server-side apply `y` sends (its first
    /// request is `request`).
    pub server_side: Option<Box<super::ssa_apply::SsaApplyOp>>,
}

/// Rows a text takes wrapped at `width` columns (at least one).
fn rows(text: &str, width: usize) -> usize {
    text.chars().count().max(1).div_ceil(width.max(1))
}

impl CommitPreview {
    /// About how many rows the confirmation takes at a width (the scroll limit).
    #[must_use]
    pub fn rows(&self, width: usize) -> usize {
        let diff: usize = self.diff.iter().map(|(_, l)| rows(l, width)).sum();
        let content: usize = self
            .content
            .as_ref()
            .map_or(0, |c| c.lines().map(|l| rows(l, width)).sum::<usize>() + 2);
        8 + rows(&self.action, width) + diff + content
    }
}

impl AnnotationPreview {
    /// About how many rows the preview takes at a width (the scroll limit).
    #[must_use]
    pub fn rows(&self, width: usize) -> usize {
        8 + rows(&self.shown, width)
    }
}

/// The preview of the current last-applied document's annotation.
#[must_use]
pub fn annotation_preview(model: &Model) -> AnnotationPreview {
    let text = model
        .plan
        .last_applied
        .as_ref()
        .map(|doc| encode_annotation(doc).unwrap_or_default());
    let masked = model.secret && !model.reveal && text.is_some();
    let shown = match &text {
        Some(t) if masked => secret::mask_annotation(t).into_owned(),
        Some(t) => t.clone(),
        None => String::new(),
    };
    let others = model
        .live()
        .map_or(0, |l| annotations_size(l, Some(LAST_APPLIED)));
    let bytes = text.as_ref().map_or(0, String::len);
    let map_bytes = others + text.as_ref().map_or(0, |t| LAST_APPLIED.len() + t.len());
    AnnotationPreview {
        shown,
        masked,
        bytes,
        map_bytes,
        next_apply_bytes: model.plan.annotation().len(),
        text,
    }
}

/// `W`: open the confirmation; for a live file, once it is read again (its annotation is
/// rewritten in its own text, which the model does not keep: [`target_read`]).
pub(super) fn open(model: &mut Model) -> (Mode, Vec<Command>) {
    if let Some(why) = refusal(model) {
        model.notice = Some(why.replace("editing last-applied", "commit"));
        return (Mode::Browse, Vec::new());
    }
    if !model.edits_pending() {
        model.notice = Some("nothing to commit: last-applied is as committed".into());
        return (Mode::Browse, Vec::new());
    }
    match model.edit.target() {
        Some((path, TargetKind::LiveFile)) if model.edit.cluster.is_none() => {
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

/// The confirmation's contents; `target`: the live file's bytes as just read, when it is
/// what a commit rewrites.
#[must_use]
pub fn preview(model: &Model, target: Option<&[u8]>) -> CommitPreview {
    let annotation = annotation_preview(model);
    let doc = model.last_applied_doc();
    let base = model.edit.base(model.plan.last_applied.as_ref());
    let (old, new) = masked_pair(model, base, &doc);
    let old_yaml = old.as_ref().map_or_else(String::new, jsonmerge::to_yaml);
    let diff = diff_lines(&old_yaml, &jsonmerge::to_yaml(&new));
    let hidden = model.secret && !model.reveal;
    let mut p = CommitPreview {
        annotation,
        diff,
        action: String::new(),
        write: None,
        live_after: None,
        content: None,
        scroll: 0,
        request: None,
        server_side: None,
    };
    if let Some(session) = model.edit.cluster.as_deref() {
        super::cluster::fill_preview(model, session, &mut p);
        return p;
    }
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

/// The two documents to diff, a Secret's values masked as the panes mask them.
fn masked_pair(model: &Model, old: Option<&Value>, new: &Value) -> (Option<Value>, Value) {
    let (mut old, mut new) = (old.cloned(), new.clone());
    if !model.secret || model.reveal {
        return (old, new);
    }
    secret::mask_pair(old.as_mut(), Some(&mut new), &secret::FIELDS);
    (old, new)
}

/// A unified line diff (3 lines of context).
#[must_use]
pub fn diff_lines(old: &str, new: &str) -> Vec<(DiffTag, String)> {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut out = Vec::new();
    for group in diff.grouped_ops(3) {
        out.push((
            DiffTag::Hunk,
            similar::udiff::UnifiedHunkHeader::new(&group).to_string(),
        ));
        for op in &group {
            for change in diff.iter_changes(op) {
                let tag = match change.tag() {
                    similar::ChangeTag::Equal => DiffTag::Same,
                    similar::ChangeTag::Delete => DiffTag::Old,
                    similar::ChangeTag::Insert => DiffTag::New,
                };
                let text = change.value().trim_end_matches('\n').to_owned();
                out.push((tag, text));
            }
        }
    }
    out
}

/// `y` / Enter in the confirmation.
pub(super) fn confirm(model: &mut Model, preview: CommitPreview) -> (Mode, Vec<Command>) {
    if let Some(op) = preview.server_side {
        return super::ssa_apply::confirm(model, *op);
    }
    if let Some((purpose, request)) = preview.request {
        return super::cluster::confirm(model, purpose, request);
    }
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

/// `r` after a refusal, `R` any time: read the files again.
pub(super) fn reload(model: &mut Model) -> (Mode, Vec<Command>) {
    if model.edit.cluster.is_some() {
        return super::cluster::reload(model);
    }
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
    fn diff_has_hunks_and_tags() {
        let d = diff_lines("a: 1\nb: 2\nc: 3\n", "a: 1\nc: 3\nd: 4\n");
        assert_eq!(d[0].0, DiffTag::Hunk);
        assert!(d.contains(&(DiffTag::Old, "b: 2".into())));
        assert!(d.contains(&(DiffTag::New, "d: 4".into())));
        assert!(d.contains(&(DiffTag::Same, "a: 1".into())));
    }

    #[test]
    fn annotation_inserted_where_there_was_none() {
        let live = crate::json!({"metadata": {"name": "x"}});
        let want = with_annotation(&live, "{}\n");
        assert_eq!(want["metadata"]["annotations"][LAST_APPLIED], "{}\n");
    }
}
