//! The why panel: the selected field's action, its merge table with the deciding row, the list
//! strategy and merge key, the directive and note, and the patch fragment at the field.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget as _, Wrap};

use super::{WIDE, safe};
use crate::app::{Model, why};
use crate::theme::{self, Theme};

pub fn render(model: &Model, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let Some(field) = model.current_field().and_then(|f| model.plan.nth_field(f)) else {
        Paragraph::new("no fields")
            .block(Block::default().borders(Borders::ALL).title(" why "))
            .render(area, buf);
        return;
    };
    let path = safe(&model.plan.path(field.id).to_string());
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(format!(" why: {path} "), theme.title));
    let inner = block.inner(area);
    block.render(area, buf);
    let (left, right) = if area.width >= WIDE {
        let [l, r] = Layout::horizontal([Constraint::Percentage(62), Constraint::Percentage(38)])
            .areas(inner);
        (l, Some(r))
    } else {
        (inner, None)
    };

    let r = &field.reason;
    let a = field.action;
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{} {}", theme::glyph(a), a.name()), theme.action(a)),
        Span::raw(": "),
        Span::raw(r.row().action),
    ])];
    let mut facts = format!("kind: {}", r.kind);
    if let Some(k) = r.merge_key() {
        facts.push_str(&format!(" · merge key: {k}"));
    }
    if let Some(d) = &r.directive {
        facts.push_str(&format!(" · directive: {d}"));
    }
    lines.push(Line::styled(safe(&facts), theme.muted));
    if let Some(n) = &r.note {
        lines.push(Line::styled(format!("note: {}", safe(n)), theme.directive));
    }
    if let Some(w) = model
        .current_field()
        .and_then(|f| model.field_warning(f))
        .and_then(|w| model.plan.warnings.get(w))
    {
        lines.push(Line::styled(
            format!(
                "{} {}",
                theme::WARNING_GLYPH,
                safe(&model.plan.warning_text(w, model.reveal))
            ),
            theme.warning,
        ));
    }
    if model.owners {
        lines.push(Line::styled(
            format!(
                "owners (live): {}",
                safe(&super::ssa::owners_long(
                    model.current_owners(crate::app::PaneKind::Live)
                ))
            ),
            theme.muted,
        ));
    }
    if let Some(note) = crate::app::edit::edit_note(model) {
        lines.push(Line::styled(
            format!("{} {}", theme::EDIT_GLYPH, safe(&note)),
            theme.edited,
        ));
    }
    let (title, rows) = (r.table().title(), r.table().rows());
    let decided = r.row_index();
    // The whole table under the facts when it fits; else, right under the action line, the
    // deciding row alone: a short panel still shows which row applied.
    let full = 2 + rows.len();
    let compact = wrapped_rows(&lines, left.width) + full > left.height as usize;
    let mut table = Vec::with_capacity(full);
    if compact {
        table.push(Line::styled(
            format!("  {title}: row {} of {}", decided + 1, rows.len()),
            theme.muted,
        ));
    } else {
        table.push(Line::styled(
            format!("  merge table for {title}:"),
            theme.muted,
        ));
        table.push(Line::styled(
            if left.width >= 76 {
                "  file │ live │ last │ action   (in the file? in live? in last-applied?)"
            } else {
                "  file │ live │ last │ action"
            },
            theme.muted,
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let on = decided == i;
        if compact && !on {
            continue;
        }
        let text = format!(
            "{} {:<4} │ {:<4} │ {:<4} │ {}",
            if on { "▶" } else { " " },
            row.in_config.label(),
            row.in_live.label(),
            row.in_last_applied.label(),
            row.action
        );
        table.push(if on {
            Line::styled(text, theme.selected_row)
        } else {
            Line::raw(text)
        });
    }
    if compact {
        lines.splice(1..1, table);
    } else {
        lines.extend(table);
    }
    let fragment = fragment_lines(model, &field, theme);
    match right {
        Some(right) => {
            Paragraph::new(lines).render(left, buf);
            Paragraph::new(fragment)
                .block(
                    Block::default()
                        .borders(Borders::LEFT)
                        .border_style(theme.border),
                )
                .render(right, buf);
        }
        None => {
            lines.extend(fragment);
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .render(left, buf);
        }
    }
}

/// Rows `lines` take when wrapped at `width`.
fn wrapped_rows(lines: &[Line<'_>], width: u16) -> usize {
    let width = usize::from(width.max(1));
    lines.iter().map(|l| l.width().div_ceil(width).max(1)).sum()
}

fn fragment_lines<'a>(
    model: &Model,
    field: &crate::engine::plan::Field<'_, '_>,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let mask = model.secret && !model.reveal;
    let mut out = vec![Line::styled("patch at this field:", theme.muted)];
    match why::patch_fragment(&model.plan, field, mask, 40) {
        Ok(lines) => out.extend(lines.into_iter().map(|l| {
            if l.contains('$') {
                Line::styled(l, theme.directive)
            } else {
                Line::raw(l)
            }
        })),
        Err(why) => out.push(Line::styled(why, theme.muted)),
    }
    out
}
