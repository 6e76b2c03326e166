//! One document pane: YAML lines with an action gutter, the selected path highlighted and
//! scrolled into view, or the place it would be when the document lacks it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget as _};

use crate::app::lines::DocLine;
use crate::app::yaml::Word;
use crate::app::{Model, Pane, PaneKind};
use crate::theme::{self, Theme, Tok};

/// The marker on the line where an absent path would be.
pub const ABSENT: &str = " ◂ absent here";

/// The area inside a pane's border.
#[must_use]
pub fn inner(rect: Rect) -> Rect {
    Block::default().borders(Borders::ALL).inner(rect)
}

/// The selected line of a pane (if any) and whether it shows the path itself.
fn target(model: &Model, pane: &Pane) -> Option<(u32, bool)> {
    pane.locate(&model.plan.tree, model.current_path())
}

/// The first visible line shown, so that the selected line sits a third of the way down.
#[must_use]
pub fn top(model: &Model, pane: &Pane, height: usize) -> usize {
    let Some((line, _)) = target(model, pane) else {
        return 0;
    };
    let pos = pane.visible.before(line);
    pos.saturating_sub(height / 3)
        .min(pane.visible.len().saturating_sub(height))
}

/// The plan field shown on a row of a pane.
#[must_use]
pub fn field_at_row(model: &Model, pane: usize, inner: Rect, row: u16) -> Option<usize> {
    let pane = model.panes.get(pane)?;
    let idx = top(model, pane, inner.height as usize) + row as usize;
    let line = pane.lines.get(pane.visible.get(idx)? as usize)?;
    model.field_of_path(line.path)
}

pub fn render(model: &Model, theme: &Theme, index: usize, rect: Rect, buf: &mut Buffer) {
    let Some(pane) = model.panes.get(index) else {
        return;
    };
    let focused = index == model.focus;
    let border = if focused {
        theme.border_focus
    } else {
        theme.border
    };
    let edited = pane.kind == PaneKind::LastApplied && model.edits_pending();
    let owners = model.owners
        && matches!(pane.kind, PaneKind::Live | PaneKind::Result)
        && model.facts.get(index).is_some_and(Option::is_some);
    let title = if edited {
        format!(" {} {} edited ", pane.kind.name(), theme::EDIT_GLYPH)
    } else if pane.server_answer {
        format!(" {}: server dry run ", pane.kind.name())
    } else if let (PaneKind::Result, Some(server)) = (pane.kind, model.server.as_deref()) {
        let what = if server.plan().is_some() {
            "server-side"
        } else {
            "refused"
        };
        format!(
            " {}: {what}{} ",
            pane.kind.name(),
            if owners { " · owners" } else { "" }
        )
    } else if owners {
        format!(" {} · owners ", pane.kind.name())
    } else {
        format!(" {} ", pane.kind.name())
    };
    let title_style = match (edited, focused) {
        (true, _) => theme.edited,
        (false, true) => theme.title,
        (false, false) => theme.muted,
    };
    Block::default()
        .borders(Borders::ALL)
        .border_style(border)
        .title(Span::styled(title, title_style))
        .render(rect, buf);
    let area = inner(rect);
    if area.height == 0 || area.width == 0 {
        return;
    }
    if !pane.present {
        buf.set_stringn(
            area.x,
            area.y,
            pane.kind.absent(),
            area.width as usize,
            theme.muted,
        );
        return;
    }
    let height = area.height as usize;
    let selected = target(model, pane);
    // The last-applied pane gets a column of edit marks while edits are not committed.
    let marks = pane.kind == PaneKind::LastApplied && model.edits_pending();
    let first = top(model, pane, height);
    let column = if owners { owners_width(area.width) } else { 0 };
    let text_width = area.width.saturating_sub(column);
    let server = model.server.is_some();
    for (row, li) in pane.visible.from(first).take(height).enumerate() {
        let Some(line) = pane.lines.get(li as usize) else {
            continue;
        };
        let y = area.y + u16::try_from(row).unwrap_or(0);
        let mut spans = Vec::with_capacity(8);
        if marks {
            spans.push(if model.edit_lines.contains(&li) {
                Span::styled(theme::EDIT_GLYPH.to_string(), theme.edited)
            } else {
                Span::raw(" ")
            });
        }
        let action = if server {
            Shown::Server(model.ssa_field_at(index, li).map(|f| f.action))
        } else {
            let (action, warned) = model
                .action_at(line.path)
                .unwrap_or((crate::engine::plan::Action::Unchanged, false));
            Shown::Client(action, warned)
        };
        spans.extend(gutter(theme, action));
        spans.extend(body(model, theme, pane, li as usize, line, action));
        let is_selected = selected.is_some_and(|(l, _)| l == li);
        if is_selected && selected.is_some_and(|(_, exact)| !exact) {
            spans.push(Span::styled(ABSENT, theme.absent));
        }
        let row_rect = Rect::new(area.x, y, area.width, 1);
        let owned = if column > 0 {
            model.owners_at(index, li)
        } else {
            &[]
        };
        // A line with owners gives the column its room; the others keep the whole width.
        let width = if owned.is_empty() {
            area.width
        } else {
            text_width
        };
        buf.set_line(area.x, y, &Line::from(spans), width);
        if !owned.is_empty() {
            let text = super::ssa::owners_text(owned, column - 1);
            let x = area.x + text_width + 1;
            buf.set_stringn(x, y, text, usize::from(column - 1), theme.muted);
        }
        if is_selected {
            buf.set_style(row_rect, theme.cursor);
        }
    }
}

/// What the gutter shows: the client-side plan's action and whether the field has a warning,
/// or the server-side plan's action (none: the line shows no field of it).
#[derive(Clone, Copy)]
enum Shown {
    Client(crate::engine::plan::Action, bool),
    Server(Option<crate::session::ssa::Action>),
}

/// Columns of the owners column in a pane `width` wide (its leading space included).
fn owners_width(width: u16) -> u16 {
    (width / 2).clamp(12, 36).min(width / 2)
}

/// The action glyph and the warning glyph.
fn gutter<'a>(theme: &Theme, shown: Shown) -> Vec<Span<'a>> {
    match shown {
        Shown::Client(action, warned) => {
            let warn = if warned {
                Span::styled(theme::WARNING_GLYPH.to_string(), theme.warning)
            } else {
                Span::raw(" ")
            };
            vec![
                Span::styled(theme::glyph(action).to_string(), theme.action(action)),
                warn,
            ]
        }
        Shown::Server(action) => vec![
            match action {
                Some(a) => Span::styled(theme::ssa_glyph(a).to_string(), theme.ssa_action(a)),
                None => Span::raw(" "),
            },
            Span::raw(" "),
        ],
    }
}

/// Line `li` of `pane` (`line`), its text written from the pane's (the key from its node).
fn body<'a>(
    model: &Model,
    theme: &Theme,
    pane: &'a Pane,
    li: usize,
    line: &DocLine,
    shown: Shown,
) -> Vec<Span<'a>> {
    let change = match shown {
        Shown::Client(action, _) => action.is_change().then(|| theme.action(action)),
        Shown::Server(Some(a)) => {
            (a != crate::session::ssa::Action::Keep).then(|| theme.ssa_action(a))
        }
        Shown::Server(None) => None,
    };
    let mut spans = vec![Span::raw(" ".repeat(line.indent as usize))];
    if line.dash() {
        spans.push(Span::styled("- ", theme.punct));
    }
    if let Some(k) = pane.lines.key(li, &model.plan.tree) {
        let key_style = match change {
            Some(style) => theme.key.patch(style),
            None => theme.key,
        };
        spans.push(Span::styled(String::from(k), key_style));
        spans.push(Span::styled(":", theme.punct));
        if line.has_value() {
            spans.push(Span::raw(" "));
        }
    }
    let lines = &pane.lines;
    match (lines.masked(li), model.reveal, lines.words(li)) {
        (Some(m), false, _) => spans.push(Span::styled(m, theme.masked)),
        (_, _, Some(words)) => {
            for w in words {
                spans.push(match w {
                    Word::Same(t) => Span::styled(t.as_str(), theme.string),
                    Word::Old(t) => Span::styled(format!("[-{t}-]"), theme.word_delete),
                    Word::New(t) => Span::styled(format!("{{+{t}+}}"), theme.word_insert),
                });
            }
        }
        _ => {
            if let Some(v) = lines.value(li, &model.plan.tree, model.lines_doc(lines)) {
                spans.push(Span::styled(v, value_style(theme, line.tok)));
            }
        }
    }
    let folded = model.folded.contains(&line.path) && (line.has_key() || line.dash());
    if folded {
        spans.push(Span::styled(" …", theme.folded));
    }
    spans
}

fn value_style(theme: &Theme, tok: Tok) -> Style {
    theme.token(tok)
}
