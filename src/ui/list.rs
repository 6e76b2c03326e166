//! The object list: a header with the totals, one row per object (risk class, what kubectl
//! would do, counts of add/set/clear/delete and warnings, kind, namespace/name, and on wide
//! terminals the error or the warning codes), two detail lines about the selected object, and
//! the status bar. Only the visible rows are drawn. When an object is open its panes are drawn
//! instead.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget as _, Wrap};

use super::{overlay, safe};
use crate::app::list::{List, ListMode, Object, Row};
use crate::app::{Message, ModeKind};
use crate::engine::numfmt;
use crate::engine::plan::Code;
use crate::keymap;
use crate::session::risk::Tally;
use crate::theme::{self, Theme};

/// The narrowest list that shows the plan, kind and note columns (errors, warning codes).
pub const WIDE: u16 = 90;

/// Where the list's parts go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListAreas {
    pub header: Rect,
    /// The table, border included.
    pub table: Rect,
    pub detail: Rect,
    pub status: Rect,
}

/// The layout of the list screen.
#[must_use]
pub fn areas(area: Rect) -> ListAreas {
    let [header, table, detail, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(area);
    ListAreas {
        header,
        table,
        detail,
        status,
    }
}

/// Draw the list, or the opened object.
pub fn render(list: &List, theme: &Theme, area: Rect, buf: &mut Buffer) {
    if let Some(model) = list.opened() {
        super::render(model, theme, area, buf);
        return;
    }
    if super::too_small(area, 9, theme, buf) {
        return;
    }
    let a = areas(area);
    header(list, theme, a.header, buf);
    table(list, theme, a.table, buf);
    detail(list, theme, a.detail, buf);
    status(list, theme, a.status, buf);
    if let ListMode::Help(scroll) = list.mode {
        let body = Rect::new(
            area.x,
            a.table.y,
            area.width,
            a.table.height + a.detail.height,
        );
        overlay::help_from(ModeKind::List, theme, scroll, body, buf);
    }
}

/// The message a click sends: select the row under it (or the opened object's click).
#[must_use]
pub fn click(list: &List, area: Rect, col: u16, row: u16) -> Option<Message> {
    if let Some(model) = list.opened() {
        return super::click(model, area, col, row);
    }
    if list.mode != ListMode::Browse {
        return None;
    }
    let inner = rows_area(areas(area).table);
    let inside = col >= inner.x
        && col < inner.x + inner.width
        && row >= inner.y
        && row < inner.y + inner.height;
    if !inside {
        return None;
    }
    let index = top(list, inner.height) + usize::from(row - inner.y);
    (index < list.rows.len()).then_some(Message::Select {
        pane: 0,
        field: index,
    })
}

/// The rows' area: inside the border, under the column header.
fn rows_area(table: Rect) -> Rect {
    let inner = Block::default().borders(Borders::ALL).inner(table);
    Rect::new(
        inner.x,
        inner.y.saturating_add(1),
        inner.width,
        inner.height.saturating_sub(1),
    )
}

/// The first row shown: the list's scroll, moved if needed so the cursor shows.
fn top(list: &List, height: u16) -> usize {
    let height = usize::from(height).max(1);
    let top = list.top.min(list.cursor);
    if list.cursor >= top + height {
        list.cursor + 1 - height
    } else {
        top
    }
}

fn header(list: &List, theme: &Theme, area: Rect, buf: &mut Buffer) {
    buf.set_style(area, theme.header);
    let tally = Tally::of(list.rows.iter().map(|r| &r.summary));
    let text = format!(
        " applyscope │ {} objects: {} fail, {} create, {} patch, {} unchanged │ {}",
        list.rows.len(),
        tally.fails,
        tally.create,
        tally.patch,
        tally.unchanged,
        safe(&list.title),
    );
    buf.set_stringn(area.x, area.y, text, area.width as usize, theme.header);
}

/// Column widths that depend on the terminal and the rows.
struct Columns {
    count: usize,
    /// The kind column (wide layouts).
    kind: usize,
    /// The name column (wide layouts pad names to it, so the notes line up).
    name: usize,
    wide: bool,
}

impl Columns {
    /// `width`: the table's inside.
    fn of(list: &List, width: u16) -> Columns {
        let wide = width >= WIDE;
        let longest = |f: &dyn Fn(&Row) -> usize| list.rows.iter().map(f).max().unwrap_or(4);
        let count = if wide { 6 } else { 4 };
        let kind =
            longest(&|r| r.key.kind.chars().count()).clamp(4, if width >= 120 { 24 } else { 16 });
        // Names take what the other columns leave, less room for the notes after them; at
        // least 24 characters.
        let before = 2 + RISK + OP + 5 * count + 2 + kind + 1;
        let room = usize::from(width).saturating_sub(before + NOTE_ROOM);
        Columns {
            count,
            kind,
            name: longest(&|r| name(r).chars().count()).clamp(14, room.max(24)),
            wide,
        }
    }
}

/// `s` cut to `width` characters, `…` marking the cut.
fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

const RISK: usize = 8;
const OP: usize = 10;
/// What the name column leaves for a row's note (its error or warning codes) on a wide table.
const NOTE_ROOM: usize = 30;

fn table(list: &List, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(
            " objects, riskiest first (Enter opens, ? help) ",
            theme.title,
        ));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height == 0 {
        return;
    }
    let cols = Columns::of(list, inner.width);
    let names: [&str; 5] = if cols.wide {
        ["add", "set", "clear", "del", "warn"]
    } else {
        ["add", "set", "clr", "del", "!"]
    };
    let mut head = format!("  {:<RISK$}", "risk");
    if cols.wide {
        head.push_str(&format!("{:<OP$}", "plan"));
    }
    for n in names {
        head.push_str(&format!("{n:>w$}", w = cols.count));
    }
    if cols.wide {
        head.push_str(&format!("  {:<k$} namespace/name", "kind", k = cols.kind));
    } else {
        head.push_str("  kind namespace/name");
    }
    buf.set_stringn(inner.x, inner.y, head, inner.width as usize, theme.muted);
    let rows = rows_area(area);
    if list.rows.is_empty() {
        buf.set_stringn(
            rows.x,
            rows.y,
            "  (no objects)",
            rows.width as usize,
            theme.muted,
        );
        return;
    }
    let first = top(list, rows.height);
    for (i, row) in list
        .rows
        .iter()
        .enumerate()
        .skip(first)
        .take(usize::from(rows.height))
    {
        let y = rows.y + u16::try_from(i - first).unwrap_or(0);
        let line = row_line(row, i == list.cursor, &cols, theme);
        let rect = Rect::new(rows.x, y, rows.width, 1);
        buf.set_line(rect.x, rect.y, &line, rect.width);
        if i == list.cursor {
            buf.set_style(rect, theme.selected_row);
        }
    }
}

/// A count: `·` for none, `999`, `12k`, `3M`.
fn compact(n: usize) -> String {
    if n == 0 {
        "·".into()
    } else {
        numfmt::short(n)
    }
}

fn row_line<'a>(row: &'a Row, selected: bool, cols: &Columns, theme: &Theme) -> Line<'a> {
    let s = &row.summary;
    let risk = s.risk();
    let edited = matches!(&row.object, Object::Opened(m) if m.edits_pending());
    let marker = format!(
        "{}{}",
        if selected { '▶' } else { ' ' },
        if edited { theme::EDIT_GLYPH } else { ' ' }
    );
    let mut spans = vec![
        Span::styled(marker, if edited { theme.edited } else { theme.hint_key }),
        Span::styled(format!("{:<RISK$}", risk.label()), theme.risk(risk)),
    ];
    if cols.wide {
        spans.push(Span::raw(format!("{:<OP$}", s.op.name())));
    }
    let counts: [(usize, Style); 5] = [
        (s.add, theme.add),
        (s.set, theme.set),
        (s.clear, theme.clear),
        (s.delete, theme.clear),
        (s.warnings, theme.warning),
    ];
    for (n, style) in counts {
        let style = if n == 0 { theme.muted } else { style };
        spans.push(Span::styled(
            format!("{:>w$}", compact(n), w = cols.count),
            style,
        ));
    }
    let name = safe(&name(row));
    if cols.wide {
        spans.push(Span::raw(format!(
            "  {:<k$} {:<n$}",
            fit(&safe(&row.key.kind), cols.kind),
            fit(&name, cols.name),
            k = cols.kind,
            n = cols.name
        )));
    } else {
        // Narrow: no plan column (the detail line says it); kind and name as they come.
        spans.push(Span::raw(format!("  {} {name}", safe(&row.key.kind))));
    }
    if cols.wide {
        let (note, style) = note(row, theme);
        if !note.is_empty() {
            spans.push(Span::styled(format!("  {}", safe(&note)), style));
        }
    }
    Line::from(spans)
}

/// `namespace/name`, or `name` for cluster-scoped objects.
fn name(row: &Row) -> String {
    if row.key.namespace.is_empty() {
        row.key.name.clone()
    } else {
        format!("{}/{}", row.key.namespace, row.key.name)
    }
}

/// The error, or the warnings' codes.
fn note(row: &Row, theme: &Theme) -> (String, Style) {
    if let Some(e) = error_text(row) {
        return (e.to_owned(), theme.error);
    }
    (
        codes_text(&row.summary.codes),
        theme.risk(row.summary.risk()),
    )
}

/// The row's error without the file name it starts with (the detail line names the files).
fn error_text(row: &Row) -> Option<&str> {
    let e = row.summary.error.as_deref()?;
    let sources = std::iter::once(row.source.as_str()).chain(row.live_source.as_deref());
    Some(
        sources
            .filter_map(|s| e.strip_prefix(s).and_then(|r| r.strip_prefix(": ")))
            .next()
            .unwrap_or(e),
    )
}

fn detail(list: &List, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let Some(row) = list.rows.get(list.cursor) else {
        return;
    };
    let live = row.live_source.as_deref().map_or_else(
        || "no live object (create)".to_owned(),
        |l| format!("live {l}"),
    );
    let first = Line::from(vec![
        Span::styled(format!(" {}", safe(&row.key.to_string())), theme.title),
        Span::raw(format!("  {}", row.summary.op.name())),
        Span::styled(
            format!("  local {} → {}", safe(&row.source), safe(&live)),
            theme.muted,
        ),
    ]);
    buf.set_line(area.x, area.y, &first, area.width);
    let s = &row.summary;
    let risk = s.risk();
    let mut second = vec![Span::styled(
        format!(" {}: ", risk.label()),
        theme.risk(risk),
    )];
    match error_text(row) {
        Some(e) => second.push(Span::styled(safe(e), theme.error)),
        None if !s.codes.is_empty() => {
            second.push(Span::styled(
                format!("{} {}", theme::WARNING_GLYPH, codes_text(&s.codes)),
                theme.risk(risk),
            ));
            second.push(Span::raw(format!(" ({})", risk.meaning())));
        }
        None => second.push(Span::raw(risk.meaning())),
    }
    if matches!(&row.object, Object::Opened(m) if m.edits_pending()) {
        second.push(Span::styled(
            format!("  {} last-applied edited, not committed", theme::EDIT_GLYPH),
            theme.edited,
        ));
    }
    if area.height > 1 {
        let rest = Rect::new(area.x, area.y + 1, area.width, area.height - 1);
        Paragraph::new(Line::from(second))
            .wrap(Wrap { trim: false })
            .render(rest, buf);
    }
}

fn status(list: &List, theme: &Theme, area: Rect, buf: &mut Buffer) {
    buf.set_style(area, theme.status);
    let line = match (&list.notice, &list.loading) {
        (Some(n), _) => Line::from(Span::raw(format!(" {}", safe(n)))),
        (None, Some(waiting)) if list.mode == ListMode::Browse => {
            Line::from(super::loading::status_spans(waiting, ModeKind::List, theme))
        }
        (None, _) => {
            let mode = if list.mode == ListMode::Browse {
                ModeKind::List
            } else {
                ModeKind::Help
            };
            let mut spans = vec![Span::styled(
                format!(
                    " {} {}/{} ",
                    mode.name(),
                    (list.cursor + 1).min(list.rows.len()),
                    list.rows.len()
                ),
                theme.title,
            )];
            for (key, hint) in keymap::hints(mode) {
                spans.push(Span::styled(format!(" {key}"), theme.hint_key));
                spans.push(Span::raw(format!(" {hint}")));
            }
            Line::from(spans)
        }
    };
    buf.set_line(area.x, area.y, &line, area.width);
}

/// Warning codes, comma-separated.
fn codes_text(codes: &[Code]) -> String {
    let names: Vec<&str> = codes.iter().map(|c| c.as_str()).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::list::visible_rows;

    #[test]
    fn counts_stay_narrow() {
        assert_eq!(compact(0), "·");
        assert_eq!(compact(999), "999");
        assert_eq!(compact(12_345), "12k");
        assert_eq!(compact(3_000_000), "3M");
    }

    #[test]
    fn the_layout_leaves_the_rows_the_list_pages_by() {
        for h in [9u16, 20, 30, 50] {
            let a = areas(Rect::new(0, 0, 100, h));
            assert_eq!(usize::from(rows_area(a.table).height), visible_rows(h));
        }
    }
}
