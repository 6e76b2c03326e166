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
    let blocks = block_lines(&doc.lines, view.scroll + height);
    for (row, text) in doc.lines.iter().skip(view.scroll).take(height).enumerate() {
        let y = inner.y + 1 + u16::try_from(row).unwrap_or(0);
        let width = inner.width as usize;
        let base = line_style(theme, text);
        let spans = if blocks.get(view.scroll + row).copied().unwrap_or(false) {
            vec![Span::styled(text.as_str(), theme.string.patch(base))]
        } else {
            let lang = if doc.json { Lang::Json } else { Lang::Yaml };
            highlight::spans(theme, lang, text, width, base)
        };
        buf.set_line(inner.x, y, &Line::from(spans), inner.width);
    }
}

/// For the first `upto` lines: is the line inside a YAML block scalar (`key: |` and the more
/// indented lines after it)? Those lines are string content, not YAML to highlight.
fn block_lines(lines: &[String], upto: usize) -> Vec<bool> {
    let mut out = Vec::with_capacity(upto.min(lines.len()));
    // The indentation a block's content must exceed, while in a block.
    let mut parent: Option<usize> = None;
    for line in lines.iter().take(upto) {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(p) = parent {
            if line.trim().is_empty() || indent > p {
                out.push(true);
                continue;
            }
            parent = None;
        }
        out.push(false);
        let t = line.trim_end();
        let header = t.rsplit_once(": ").map_or(t, |(_, v)| v);
        let header = header.strip_prefix("- ").unwrap_or(header);
        if header.starts_with(['|', '>'])
            && header[1..]
                .chars()
                .all(|c| matches!(c, '-' | '+' | '1'..='9'))
        {
            // The content is indented past the key (or the dash of `- |`).
            parent = Some(indent);
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_scalar_lines_are_found() {
        let lines: Vec<String> = [
            "metadata:",
            "  annotations:",
            "    a: |",
            "      {\"x\": 1}",
            "",
            "      more: text",
            "    b: plain",
            "c:",
            "- |-",
            "  item text",
            "- d",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            block_lines(&lines, 100),
            [
                false, false, false, true, true, true, false, false, false, true, false
            ]
        );
        assert_eq!(block_lines(&lines, 4).len(), 4);
    }
}
