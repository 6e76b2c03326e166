//! The patch view: tabs for the patch kubectl sends, the RFC 6902 JSON Patch, and the two
//! halves of the three-way merge.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget as _};

use crate::app::{Model, PatchView};
use crate::theme::Theme;
use crate::ui::highlight::{self, Lang};

pub fn render(model: &Model, theme: &Theme, view: PatchView, area: Rect, buf: &mut Buffer) {
    let docs = model.patches.as_deref().unwrap_or(&[]);
    let mut tabs = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        let style = if i == view.tab {
            theme.header
        } else {
            theme.muted
        };
        tabs.push(Span::styled(format!(" {} ", d.tab), style));
        tabs.push(Span::styled("│", theme.border));
    }
    let Some(doc) = docs.get(view.tab) else {
        return;
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focus)
        .title(Line::from(tabs));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height == 0 {
        return;
    }
    buf.set_stringn(
        inner.x,
        inner.y,
        &doc.title,
        inner.width as usize,
        theme.muted,
    );
    let height = inner.height.saturating_sub(1) as usize;
    for (row, text) in doc.lines.iter().skip(view.scroll).take(height).enumerate() {
        let y = inner.y + 1 + u16::try_from(row).unwrap_or(0);
        let lang = if doc.json { Lang::Json } else { Lang::Yaml };
        let width = inner.width as usize;
        let spans = highlight::spans(theme, lang, text, width, line_style(theme, text));
        buf.set_line(inner.x, y, &Line::from(spans), inner.width);
    }
}

/// JSON Patch operations take their action's colour over the syntax colours.
fn line_style(theme: &Theme, text: &str) -> Style {
    if text.contains("\"op\":\"add\"") {
        theme.add
    } else if text.contains("\"op\":\"remove\"") {
        theme.clear
    } else if text.contains("\"op\":\"replace\"") {
        theme.set
    } else {
        Style::new()
    }
}
