//! The confirmation `y` answers (`Mode::Confirm`): the annotation a commit would store and the
//! sizes the server checks, the line diff shown, what `y` does (a file written, a request sent,
//! kubectl's server-side apply). `commit`, `cluster` and `ssa_apply` fill it; `destination`
//! sends `y` to the one that made it.

use std::path::PathBuf;

use crate::engine::plan::{ANNOTATIONS_LIMIT, LAST_APPLIED, annotations_size, encode_annotation};
use crate::engine::{jsonmerge, secret};
use crate::fsutil::FileDigest;
use crate::value::Value;

use super::Model;
use super::ssa_apply::op::SsaApplyOp;

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
    pub server_side: Option<Box<SsaApplyOp>>,
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

/// The confirmation's common part: the annotation, and the diff of the committed and the edited
/// last-applied (what `y` does is left for the caller to say).
#[must_use]
pub fn base(model: &Model) -> CommitPreview {
    let annotation = annotation_preview(model);
    let doc = model.last_applied_doc();
    let committed = model.edit.base(model.plan.last_applied.as_ref());
    let (old, new) = masked_pair(model, committed, &doc);
    let old_yaml = old.as_ref().map_or_else(String::new, jsonmerge::to_yaml);
    let diff = diff_lines(&old_yaml, &jsonmerge::to_yaml(&new));
    CommitPreview {
        annotation,
        diff,
        action: String::new(),
        write: None,
        live_after: None,
        content: None,
        scroll: 0,
        request: None,
        server_side: None,
    }
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

/// An object as YAML for a diff; a Secret's values masked as the panes mask them (`s`
/// reveals): a changed value shows as `***` on both sides.
pub(super) fn shown_yaml(v: Option<&Value>, mask: bool) -> String {
    let Some(v) = v else {
        return String::new();
    };
    if !mask {
        return jsonmerge::to_yaml(v);
    }
    let mut v = v.clone();
    crate::engine::secret::mask_object(&mut v);
    jsonmerge::to_yaml(&v)
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
}
