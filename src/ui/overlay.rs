//! Overlays: help (generated from the keymap), the legend, and the warnings list.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget as _, Wrap};

use super::{centred, frame, safe};
use crate::app::{ModeKind, Model};
use crate::engine::plan::Action;
use crate::engine::secret;
use crate::keymap;
use crate::theme::{self, Theme};

/// The help screen: every mode's keys, from the keymap.
pub fn help(theme: &Theme, scroll: usize, area: Rect, buf: &mut Buffer) {
    help_from(ModeKind::Browse, theme, scroll, area, buf);
}

/// The help screen with `first`'s keys first.
pub fn help_from(first: ModeKind, theme: &Theme, scroll: usize, area: Rect, buf: &mut Buffer) {
    let mut lines = Vec::new();
    let others = ModeKind::ALL.into_iter().filter(|m| *m != first);
    for mode in std::iter::once(first).chain(others) {
        let rows = keymap::help_rows(mode);
        if rows.is_empty() {
            continue;
        }
        lines.push(Line::styled(mode.name().to_owned(), theme.title));
        for (keys, what) in rows {
            lines.push(Line::from(vec![
                Span::styled(format!("  {keys:<22}"), theme.hint_key),
                Span::raw(what),
            ]));
        }
    }
    let rect = centred(area, 64, area.height);
    // Where the box is in the list, when it does not show it all.
    let height = usize::from(rect.height.saturating_sub(2));
    let total = lines.len();
    let first = scroll.min(total.saturating_sub(height));
    let title = if total > height {
        let last = (first + height).min(total);
        let more = if last < total { " ↓" } else { "" };
        format!(
            "help: keys (? or Esc closes) · {}–{last} of {total}{more}",
            first + 1
        )
    } else {
        "help: keys (? or Esc closes)".to_owned()
    };
    let inner = frame(theme, &title, rect, buf);
    let first = u16::try_from(first).unwrap_or(0);
    Paragraph::new(lines).scroll((first, 0)).render(inner, buf);
}

/// What the glyphs and colours mean (`server`: the server-side actions first).
pub fn legend(server: bool, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let mut lines = if server {
        super::ssa::legend_lines(theme)
    } else {
        Vec::new()
    };
    for a in Action::ALL.into_iter().filter(|_| !server) {
        lines.push(Line::from(vec![
            Span::styled(
                format!(" {} {:<10}", theme::glyph(a), a.name()),
                theme.action(a),
            ),
            Span::raw(theme::meaning(a)),
        ]));
    }
    lines.push(Line::from(vec![
        Span::styled(
            format!(" {} {:<10}", theme::WARNING_GLYPH, "warning"),
            theme.warning,
        ),
        Span::raw("a warning or conflict at this field (! lists them)"),
    ]));
    lines.push(Line::from(vec![
        Span::styled(format!("   {:<10}", "◂ absent"), theme.absent),
        Span::raw("the path is not in this document: it would be here"),
    ]));
    lines.push(Line::from(vec![
        Span::styled(format!("   {:<10}", secret::MASK), theme.masked),
        Span::raw("a Secret's value, masked (s reveals)"),
    ]));
    lines.push(Line::from(vec![
        Span::styled(format!("   {:<10}", "…"), theme.folded),
        Span::raw("folded (z unfolds)"),
    ]));
    lines.push(Line::from(vec![
        Span::styled(
            format!("   {:<10}", format!("{} edited", theme::EDIT_GLYPH)),
            theme.edited,
        ),
        Span::raw("last-applied edited here, not yet committed (W commits, u undoes)"),
    ]));
    let rect = centred(area, 80, u16::try_from(lines.len() + 2).unwrap_or(u16::MAX));
    let inner = frame(theme, "legend", rect, buf);
    Paragraph::new(lines).render(inner, buf);
}

/// The warnings, the selected one highlighted; Enter jumps to its field.
pub fn warnings(model: &Model, theme: &Theme, selected: usize, area: Rect, buf: &mut Buffer) {
    let mut lines = Vec::new();
    for (i, w) in model.plan.warnings.iter().enumerate() {
        let style = if i == selected {
            theme.selected_row
        } else {
            theme.warning
        };
        lines.push(Line::styled(
            format!(
                "{} {} {}",
                theme::WARNING_GLYPH,
                w.code,
                safe(w.path.as_deref().unwrap_or("(the object)"))
            ),
            style,
        ));
        lines.push(Line::raw(format!(
            "  {}",
            safe(&model.plan.warning_text(w, model.reveal))
        )));
    }
    let rect = centred(area, area.width.saturating_sub(4), area.height);
    let inner = frame(theme, "warnings (Enter jumps to the field)", rect, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}
