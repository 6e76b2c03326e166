//! `-o markdown` (`plan` and `diff`): a report to post as a pull-request comment. A summary
//! table riskiest first (the object list's order, `session::risk`), then one collapsible
//! section per object with the fields that change, the warnings and (for `diff`) the unified
//! diff. A Secret's values are masked as in `-o text`. The output depends only on the inputs:
//! no times, no temporary paths.

mod frame;

use std::fmt::Write as _;

pub(super) use frame::Frame;

use super::text::change;
use crate::engine::plan::{Action, LAST_APPLIED, PathTexts, Plan, Seg};
use crate::error::Error;
use crate::session::objects::Key;
use crate::session::risk::Summary;

/// The report, filled object by object and written whole at the end (the table comes first).
pub struct Report {
    frame: Frame,
    /// `--show-secrets`.
    reveal: bool,
}

impl Report {
    /// `command` (`plan` or `diff`) is named in the heading.
    #[must_use]
    pub fn new(command: &'static str, reveal: bool) -> Report {
        Report {
            frame: Frame::new(command, "patch", &["add", "set", "clear", "delete"]),
            reveal,
        }
    }

    /// Add one object (its key, and where it was read), its plan (or why it has none) and, for
    /// `diff`, its unified diff.
    pub fn add(
        &mut self,
        key: &Key,
        source: &str,
        plan: Result<&Plan, &Error>,
        diff: Option<&str>,
    ) {
        let summary = match plan {
            Ok(p) => Summary::of_plan(p),
            Err(e) => Summary::failed(&e.to_string()),
        };
        let mut section = self.frame.open(key, source, &summary);
        match plan {
            Ok(p) => fields(&mut section, p, self.reveal),
            Err(e) => {
                let _ = writeln!(section, "**Fails:** {}\n", inline(&e.to_string()));
            }
        }
        let counts = vec![summary.add, summary.set, summary.clear, summary.delete];
        self.frame.push(key, summary, counts, section, diff);
    }

    /// The whole report.
    #[must_use]
    pub fn finish(self) -> String {
        self.frame.finish(None)
    }
}

/// The fields that change (values, and maps or elements added or removed whole, not their
/// parts again), then the warnings.
fn fields(out: &mut String, p: &Plan, reveal: bool) {
    let mut paths = PathTexts::default();
    let mut rows = Vec::new();
    for f in p.fields() {
        let path = paths.next(&p.tree, f.id).to_owned();
        let whole = matches!(f.action, Action::Add | Action::Clear | Action::Delete);
        let inside_same = p
            .tree
            .parent(f.id)
            .is_some_and(|parent| p.tree.action(parent) == f.action);
        // The annotation changes on every apply that changes anything: it is not news here.
        let annotation = p
            .tree
            .step(f.id)
            .is_some_and(|s| matches!(s, Seg::Key(k) if &**k == LAST_APPLIED));
        let shown = match f.action {
            Action::Unchanged | Action::Retain | Action::Keep => false,
            _ if annotation => false,
            _ if whole && inside_same => false,
            _ => whole || f.live.is_some() || f.result.is_some(),
        };
        if shown {
            let (before, after) = change(p, &f, reveal);
            rows.push(format!(
                "| {} | {} | {} → {} | {} |",
                f.action.name(),
                code(&path),
                code(&before),
                code(&after),
                inline(f.reason.row().action)
            ));
        }
    }
    if rows.is_empty() {
        out.push_str("Nothing changes.\n\n");
    } else {
        out.push_str("| action | field | live → result | why |\n|---|---|---|---|\n");
        for row in rows {
            out.push_str(&row);
            out.push('\n');
        }
        out.push('\n');
    }
    if !p.warnings.is_empty() {
        out.push_str("**Warnings**\n\n");
        for w in &p.warnings {
            let at = w.path.as_deref().map(|path| format!(" at {}", code(path)));
            let _ = writeln!(
                out,
                "- {}{}: {}",
                code(w.code.as_str()),
                at.unwrap_or_default(),
                inline(&p.warning_text(w, reveal))
            );
        }
        out.push('\n');
    }
}

/// Text as an inline code span that survives a table cell: a fence longer than any run of
/// backticks inside, `|` escaped, line breaks as spaces.
pub(super) fn code(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ").replace('|', "\\|");
    let longest = longest_run(&text, '`');
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Prose in a table cell or list item: one line, `|` and markup characters escaped.
pub(super) fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '|' | '*' | '_' | '<' | '>' | '[' | ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Text inside HTML (`<summary>`).
pub(super) fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A code block fence longer than any run of backticks in `text`.
pub(super) fn fence_for(text: &str) -> String {
    "`".repeat(longest_run(text, '`').max(2) + 1)
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_survive_backticks_and_pipes() {
        assert_eq!(code("a.b"), "`a.b`");
        assert_eq!(code("x|y"), "`x\\|y`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`a"), "`` `a ``");
        assert_eq!(fence_for("```x"), "````");
        assert_eq!(inline("a | *b*"), "a \\| \\*b\\*");
        assert_eq!(html("<b>&"), "&lt;b&gt;&amp;");
    }
}
