//! `e`: edit the whole last-applied document in `$KUBE_EDITOR`, `$EDITOR` or `vi`, as `kubectl
//! apply edit-last-applied` does: YAML under a comment header; an empty file or no change
//! cancels; invalid content reopens the editor with the error on top, as comments; saving the
//! same invalid content again cancels. The runtime only runs the editor (`Command::Edit`) and
//! reports `Message::EditorDone`; every decision is here, pure.

use crate::value::Value;

use super::edit::{self, edited_count, refusal};
use super::{Command, Error, Mode, Model};
use crate::document;
use crate::engine::jsonmerge;

/// kubectl's header for `apply edit-last-applied`.
pub const HEADER: &str = "# Please edit the 'last-applied-configuration' annotations below.\n# Lines beginning with a '#' will be ignored, and an empty file will abort the edit.\n#\n";

/// An editor session, while the editor is open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorSession {
    /// The document as first shown, comments stripped: saved unchanged, the edit is cancelled.
    pub original: String,
    /// The last saved text that was invalid, comments stripped: saved again, the edit is
    /// cancelled.
    pub rejected: Option<String>,
}

/// `e`: open the editor on the last-applied document.
pub(super) fn open(model: &mut Model) -> (Mode, Vec<Command>) {
    if let Some(why) = refusal(model) {
        model.notice = Some(why);
        return (Mode::Browse, Vec::new());
    }
    let body = jsonmerge::to_yaml(&model.last_applied_doc());
    let session = EditorSession {
        original: strip_comments(&body),
        rejected: None,
    };
    (
        Mode::Editor(Box::new(session)),
        vec![Command::Edit {
            text: format!("{HEADER}{body}"),
        }],
    )
}

/// The editor closed: `result` is the saved text, or why the editor could not run.
pub(super) fn done(model: &mut Model, result: Result<String, Error>) -> Vec<Command> {
    let session = match std::mem::take(&mut model.mode) {
        Mode::Editor(s) => s,
        other => {
            // Not waiting for an editor: a stray report.
            model.mode = other;
            return Vec::new();
        }
    };
    let text = match result {
        Ok(t) => t,
        Err(e) => {
            model.notice = Some(format!("editor: {e}; nothing changed"));
            return Vec::new();
        }
    };
    let stripped = strip_comments(&text);
    if session.rejected.as_deref() == Some(stripped.as_str()) {
        model.notice = Some("edit cancelled: no valid changes were saved".into());
        return Vec::new();
    }
    if !has_lines(&text) {
        model.notice = Some("edit cancelled: the saved file was empty".into());
        return Vec::new();
    }
    if stripped == session.original {
        model.notice = Some("edit cancelled: no changes made".into());
        return Vec::new();
    }
    let doc = match parse(&text) {
        Ok(d) => d,
        Err(reason) => return reopen(model, *session, &stripped, &reason.to_string()),
    };
    if model.plan.last_applied.as_ref() == Some(&doc) {
        model.notice = Some("edit cancelled: no changes made".into());
        return Vec::new();
    }
    match edit::apply(model, doc) {
        Ok(()) => {
            model.notice = Some(format!(
                "edited last-applied (not written yet): {} edited; W commits, u undoes",
                edited_count(model)
            ));
            Vec::new()
        }
        Err(e) => reopen(
            model,
            *session,
            &stripped,
            &format!("The edited last-applied is not valid: {e}"),
        ),
    }
}

/// Open the editor again on what was saved, with the reason on top.
fn reopen(
    model: &mut Model,
    mut session: EditorSession,
    stripped: &str,
    reason: &str,
) -> Vec<Command> {
    let mut text = HEADER.to_owned();
    text.push_str("# ");
    text.push_str(&reason.replace('\n', "\n# "));
    text.push_str("\n#\n");
    text.push_str(stripped);
    session.rejected = Some(stripped.to_owned());
    model.mode = Mode::Editor(Box::new(session));
    model.notice = Some(format!("the edited last-applied is not valid: {reason}"));
    vec![Command::Edit { text }]
}

/// The saved text as one object.
fn parse(text: &str) -> Result<Value, Error> {
    let mut docs = document::parse_documents(text, "edited last-applied")
        .map_err(|e| Error::Input(format!("The edited file had a syntax error: {e}")))?;
    let v = match docs.len() {
        1 => docs.remove(0).value,
        n => {
            return Err(Error::Input(format!(
                "The edited file is not valid: expected one document, found {n}"
            )));
        }
    };
    if v.is_object() {
        Ok(v)
    } else {
        Err(Error::Input(format!(
            "The edited file is not valid: expected an object at the top level, found {}",
            crate::session::input::kind_name(&v)
        )))
    }
}

/// The text without its comment lines (kubectl's `ManualStrip`).
#[must_use]
pub fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if !line.trim_start().starts_with('#') {
            out.push_str(line);
        }
    }
    out
}

/// Does the text have a line that is neither blank nor a comment (kubectl's `hasLines`)?
#[must_use]
pub fn has_lines(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blank_files() {
        assert_eq!(strip_comments("# a\nb: 1\n  # c\nd: 2"), "b: 1\nd: 2");
        assert!(!has_lines("# only\n\n   \n# comments\n"));
        assert!(has_lines("# x\na: 1\n"));
    }

    #[test]
    fn parse_wants_one_object() {
        assert!(parse("a: 1\n").is_ok());
        let reason = |text: &str| parse(text).unwrap_err().to_string();
        assert!(reason("- a\n").contains("a list"));
        assert!(reason("a: [\n").contains("syntax error"));
        assert!(reason("a: 1\n---\nb: 2\n").contains("found 2"));
    }
}
