//! The header (what the apply does, counts, the selected path), the tab bar of narrow layouts,
//! and the status bar (search prompt, notices, key hints from the keymap).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::safe;
use crate::app::{Message, Mode, ModeKind, Model, PaneKind};
use crate::engine::plan::{Action, PatchType};
use crate::keymap;
use crate::theme::{self, Theme};

pub fn header(model: &Model, theme: &Theme, area: Rect, buf: &mut Buffer) {
    buf.set_style(area, theme.header);
    let plan = &model.plan;
    let what = match (plan.created(), plan.patch_type) {
        (Some(_), _) => "create",
        (None, Some(PatchType::Strategic)) => "PATCH strategic",
        (None, Some(PatchType::Merge)) => "PATCH merge",
        (None, None) => "unchanged",
    };
    if let Some(server) = model.server.as_deref() {
        let path = model.plan.path(model.current_path()).to_string();
        let text = format!(
            " applyscope │ {} │ server-side apply │{} │ {}",
            safe(&model.title),
            super::ssa::counts(server),
            if path.is_empty() {
                "(object)".to_owned()
            } else {
                safe(&path)
            }
        );
        buf.set_stringn(area.x, area.y, text, area.width as usize, theme.header);
        return;
    }
    let mut counts = String::new();
    for a in Action::ALL
        .iter()
        .filter(|a| a.is_change() || **a == Action::Retain)
    {
        let n = Action::ALL
            .iter()
            .position(|x| x == a)
            .map_or(0, |i| model.counts[i]);
        if n > 0 {
            counts.push_str(&format!(" {}{n}", theme::glyph(*a)));
        }
    }
    if !plan.warnings.is_empty() {
        counts.push_str(&format!(" {}{}", theme::WARNING_GLYPH, plan.warnings.len()));
    }
    let path = model.plan.path(model.current_path()).to_string();
    let text = format!(
        " applyscope │ {} │ {what} │{counts} │ {}",
        safe(&model.title),
        if path.is_empty() {
            "(object)".to_owned()
        } else {
            safe(&path)
        }
    );
    buf.set_stringn(area.x, area.y, text, area.width as usize, theme.header);
}

/// The pane tabs of narrow layouts; each tab's columns.
fn tab_spans(model: &Model) -> Vec<(usize, String)> {
    model
        .panes
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let edited = p.kind == PaneKind::LastApplied && model.edits_pending();
            let mark = if edited {
                format!(" {}", theme::EDIT_GLYPH)
            } else {
                String::new()
            };
            (i, format!(" {}{mark} ", p.kind.name()))
        })
        .collect()
}

pub fn tabs(model: &Model, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let mut spans = Vec::new();
    for (i, label) in tab_spans(model) {
        let style = if i == model.focus {
            theme.header
        } else {
            theme.muted
        };
        spans.push(Span::styled(label, style));
        spans.push(Span::styled("│", theme.border));
    }
    buf.set_line(area.x, area.y, &Line::from(spans), area.width);
}

/// The pane whose tab is at a column.
#[must_use]
pub fn tab_at(model: &Model, area: Rect, col: u16) -> Option<usize> {
    let mut x = area.x;
    for (i, label) in tab_spans(model) {
        let w = u16::try_from(label.chars().count() + 1).unwrap_or(u16::MAX);
        if col >= x && col < x.saturating_add(w) {
            return Some(i);
        }
        x = x.saturating_add(w);
    }
    None
}

pub fn status(model: &Model, theme: &Theme, area: Rect, buf: &mut Buffer) {
    buf.set_style(area, theme.status);
    let line = match (&model.mode, &model.notice) {
        (Mode::Search(s), _) => Line::from(vec![
            Span::styled("/", theme.hint_key),
            Span::raw(safe(&s.query)),
            Span::styled("▏", theme.hint_key),
            Span::styled(
                match s.matches.len() {
                    0 if s.query.is_empty() => "  type to search paths and values".to_owned(),
                    0 => "  no match".to_owned(),
                    n => format!("  match {} of {n}", s.at + 1),
                },
                theme.muted,
            ),
        ]),
        (_, Some(n)) => Line::from(Span::raw(format!(" {}", safe(n)))),
        _ => {
            let mut spans = Vec::new();
            if model.edits_pending() {
                spans.push(Span::styled(
                    format!(
                        " {} {} edited ",
                        theme::EDIT_GLYPH,
                        crate::app::edit::edited_count(model)
                    ),
                    theme.edited,
                ));
                if model.mode.kind() == ModeKind::Browse {
                    for (message, what) in [(Message::Commit, "commit"), (Message::Undo, "undo")] {
                        if let Some(key) = keymap::key_for(ModeKind::Browse, &message) {
                            spans.push(Span::styled(format!(" {key}"), theme.hint_key));
                            spans.push(Span::raw(format!(" {what}")));
                        }
                    }
                    spans.push(Span::raw(" "));
                }
            }
            spans.push(Span::styled(
                format!(" {} ", model.mode.kind().name()),
                theme.title,
            ));
            if let Some(label) = crate::app::ssa_mode::label(model) {
                spans.push(Span::styled(format!(" {label} "), theme.hint_key));
            }
            if let Some(session) = model.edit.cluster.as_deref() {
                spans.push(Span::styled(
                    format!(" schema: {} ", session.source),
                    theme.muted,
                ));
            }
            for (key, hint) in keymap::hints(model.mode.kind()) {
                spans.push(Span::styled(format!(" {key}"), theme.hint_key));
                spans.push(Span::raw(format!(" {hint}")));
            }
            Line::from(spans)
        }
    };
    buf.set_line(area.x, area.y, &line, area.width);
}
