//! The server-side plan's coded warnings as `-o text` and stderr write them (one line each)
//! and as `-o json|yaml` write them (`code`, `severity`, `path`, `manager`, `wayOut`,
//! `message`).

use std::fmt::Write as _;

use crate::engine::plan::Warning;
use crate::engine::ssa::checks::config::Refusal;

/// A refusal on stderr: the API server's error as kubectl prints it, then each coded warning.
pub(super) fn refused_lines(refusal: &Refusal) -> Vec<String> {
    let mut lines = vec![refusal.as_kubectl_prints()];
    lines.extend(refusal.warnings.iter().map(warning_line));
    lines
}

/// `warning: ssa-duplicate-key (reject): … [manager X; way out: edit-file]`.
pub(crate) fn warning_line(w: &Warning) -> String {
    let mut s = format!(
        "warning: {} ({}): {}",
        w.code,
        w.code.severity().as_str(),
        w.message
    );
    let mut tail = Vec::new();
    if let Some(m) = &w.manager {
        tail.push(format!("manager {m}"));
    }
    if !w.way_out.is_empty() {
        let ways: Vec<&str> = w.way_out.iter().map(|x| x.as_str()).collect();
        tail.push(format!("way out: {}", ways.join(", ")));
    }
    if !tail.is_empty() {
        let _ = write!(s, " [{}]", tail.join("; "));
    }
    s
}
