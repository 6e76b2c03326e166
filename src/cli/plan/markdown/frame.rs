//! The frame the client-side and the server-side reports share: a heading with the objects'
//! tally, the summary table riskiest first (risk, action, the report's count columns,
//! warnings, object), then each object's collapsible section, opened and closed alike.

use std::fmt::Write as _;

use super::{code, fence_for, html};
use crate::session::objects::Key;
use crate::session::risk::{Op, Summary, Tally, riskier_first};

/// One object's part: its summary (for the order and the risk), its counts (one per count
/// column) and its section.
struct Entry {
    key: Key,
    summary: Summary,
    counts: Vec<usize>,
    section: String,
}

/// The report's frame, filled object by object and written whole at the end (the table comes
/// first).
pub(in crate::cli::plan) struct Frame {
    /// `plan`, `diff --server-side`, …: named in the heading.
    command: &'static str,
    /// What the action column and the tally call a patch (`patch`, or `apply`).
    patch: &'static str,
    /// The count columns' heads.
    columns: &'static [&'static str],
    entries: Vec<Entry>,
}

impl Frame {
    pub(in crate::cli::plan) fn new(
        command: &'static str,
        patch: &'static str,
        columns: &'static [&'static str],
    ) -> Frame {
        Frame {
            command,
            patch,
            columns,
            entries: Vec::new(),
        }
    }

    /// A section's first lines: its title (object, risk, action) and where it was read.
    pub(in crate::cli::plan) fn open(&self, key: &Key, source: &str, summary: &Summary) -> String {
        let mut section = String::new();
        let title = format!("{key} · {} · {}", summary.risk().label(), self.op(summary));
        let _ = writeln!(section, "<details><summary>{}</summary>\n", html(&title));
        let _ = writeln!(section, "From {}.\n", code(source));
        section
    }

    /// Closes `section` (after `diff`'s unified diff, if any) and adds the object.
    pub(in crate::cli::plan) fn push(
        &mut self,
        key: &Key,
        summary: Summary,
        counts: Vec<usize>,
        mut section: String,
        diff: Option<&str>,
    ) {
        if let Some(diff) = diff.filter(|d| !d.is_empty()) {
            let fence = fence_for(diff);
            let _ = writeln!(section, "{fence}diff\n{diff}{fence}\n");
        }
        section.push_str("</details>\n");
        self.entries.push(Entry {
            key: key.clone(),
            summary,
            counts,
            section,
        });
    }

    /// The whole report, `intro` (a line) under the heading.
    pub(in crate::cli::plan) fn finish(mut self, intro: Option<&str>) -> String {
        self.entries
            .sort_by(|a, b| riskier_first((&a.summary, &a.key), (&b.summary, &b.key)));
        let tally = Tally::of(self.entries.iter().map(|e| &e.summary));
        let n = self.entries.len();
        let mut out = format!(
            "### applyscope {}: {n} object{}\n\n",
            self.command,
            if n == 1 { "" } else { "s" }
        );
        if let Some(intro) = intro {
            let _ = write!(out, "{intro}\n\n");
        }
        let _ = write!(
            out,
            "{} create, {} {}, {} unchanged, {} fail; riskiest first.\n\n",
            tally.create, tally.patch, self.patch, tally.unchanged, tally.fails
        );
        out.push_str("| risk | action |");
        for c in self.columns {
            let _ = write!(out, " {c} |");
        }
        out.push_str(" warnings | object |\n|---|---|");
        for _ in self.columns {
            out.push_str("--:|");
        }
        out.push_str("---|---|\n");
        for e in &self.entries {
            let s = &e.summary;
            let _ = write!(out, "| {} | {} |", s.risk().label(), self.op(s));
            for c in &e.counts {
                let _ = write!(out, " {c} |");
            }
            let codes: Vec<String> = s.codes.iter().map(|c| code(c.as_str())).collect();
            let codes = if codes.is_empty() {
                "-".to_owned()
            } else {
                codes.join(" ")
            };
            let _ = writeln!(out, " {codes} | {} |", code(&e.key.to_string()));
        }
        out.push('\n');
        for e in &self.entries {
            out.push_str(&e.section);
            out.push('\n');
        }
        out
    }

    fn op(&self, s: &Summary) -> &'static str {
        match s.op {
            Op::Create => "create",
            Op::Patch(_) => self.patch,
            Op::Unchanged => "unchanged",
            Op::Fails => "fails",
        }
    }
}
