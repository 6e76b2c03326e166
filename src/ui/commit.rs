//! The overlays of editing last-applied: the commit confirmation (what `y` writes, the sizes,
//! the diff), the annotation preview, and the refusal of a write whose file changed on disk.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget as _, Wrap};

use super::safe;
use super::{centred, frame};
use crate::app::{AnnotationPreview, CommitPreview, DiffTag, Message, ModeKind, Model};
use crate::engine::numfmt::thousands;
use crate::engine::plan::ANNOTATIONS_LIMIT;
use crate::keymap;
use crate::theme::{self, Theme};

/// The size lines, with the warning past the server's limit.
fn sizes<'a>(p: &AnnotationPreview, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = vec![Line::raw(if p.text.is_some() {
        format!(
            "annotation: {} bytes · annotations map: {} of {} bytes",
            thousands(p.bytes),
            thousands(p.map_bytes),
            thousands(ANNOTATIONS_LIMIT)
        )
    } else {
        format!(
            "no last-applied annotation · annotations map: {} of {} bytes",
            thousands(p.map_bytes),
            thousands(ANNOTATIONS_LIMIT)
        )
    })];
    if p.over_limit() {
        lines.push(Line::styled(
            format!(
                "{} the annotations map is over the server's {}-byte limit: the object would be rejected",
                theme::WARNING_GLYPH,
                thousands(ANNOTATIONS_LIMIT)
            ),
            theme.warning,
        ));
    }
    lines
}

fn key(message: &Message, mode: ModeKind) -> String {
    keymap::key_for(mode, message).unwrap_or_default()
}

/// The lines of the confirmation (its height decides the scroll limit).
#[must_use]
pub fn confirm_lines<'a>(model: &Model, p: &CommitPreview, theme: &Theme) -> Vec<Line<'a>> {
    let can_write = p.write.is_some() || p.request.is_some();
    let mut lines = vec![Line::styled(
        safe(&p.action),
        if can_write {
            theme.title
        } else {
            theme.warning
        },
    )];
    if matches!(p.request, Some((crate::cluster::Purpose::Apply, _))) {
        // The apply after a server dry run: the diff is the planned result → the answer.
        lines.push(Line::raw(""));
        lines.extend(
            p.diff
                .iter()
                .map(|(tag, text)| diff_line(*tag, text, theme)),
        );
        return lines;
    }
    lines.extend(sizes(&p.annotation, theme));
    lines.push(Line::raw(format!(
        "{} edited; the panes show the next apply with this last-applied",
        crate::app::edit::edited_count(model)
    )));
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "last-applied: committed (-) → edited (+)",
        theme.title,
    ));
    if p.annotation.masked {
        lines.push(Line::styled(
            "a Secret: values masked (s reveals)",
            theme.muted,
        ));
    }
    for (tag, text) in &p.diff {
        lines.push(diff_line(*tag, text, theme));
    }
    if let Some(content) = &p.content {
        lines.push(Line::raw(""));
        lines.push(Line::styled("what would be written:", theme.title));
        lines.extend(content.lines().map(|l| Line::raw(safe(l))));
    }
    lines
}

/// A box's text, word-wrapped as it is drawn.
fn wrapped(lines: Vec<Line<'_>>) -> Paragraph<'_> {
    Paragraph::new(lines).wrap(Wrap { trim: false })
}

/// A box as tall as its wrapped text needs (counted by ratatui's own wrapping), at most the
/// area.
fn fitted(area: Rect, width: u16, text: &Paragraph<'_>) -> Rect {
    let h = u16::try_from(text.line_count(width.saturating_sub(2)) + 2).unwrap_or(u16::MAX);
    centred(area, width, h)
}

/// The scroll offset, so the last row can reach the bottom and no further.
fn clamp(scroll: usize, text: &Paragraph<'_>, inner: Rect) -> u16 {
    let max = text
        .line_count(inner.width)
        .saturating_sub(usize::from(inner.height));
    u16::try_from(scroll.min(max)).unwrap_or(u16::MAX)
}

/// One line of a diff, styled by its tag.
fn diff_line<'a>(tag: DiffTag, text: &str, theme: &Theme) -> Line<'a> {
    let text = safe(text);
    match tag {
        DiffTag::Hunk => Line::styled(text, theme.directive),
        DiffTag::Old => Line::styled(format!("-{text}"), theme.clear),
        DiffTag::New => Line::styled(format!("+{text}"), theme.add),
        DiffTag::Same => Line::raw(format!(" {text}")),
    }
}

pub fn confirm(model: &Model, p: &CommitPreview, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let text = wrapped(confirm_lines(model, p, theme));
    let rect = fitted(area, area.width.saturating_sub(4), &text);
    let yes = key(&Message::Confirm, ModeKind::Confirm);
    let no = key(&Message::Back, ModeKind::Confirm);
    let cluster = match &p.request {
        Some((crate::cluster::Purpose::Apply, _)) if p.server_side.is_some() => {
            Some("apply server-side to the cluster")
        }
        Some((crate::cluster::Purpose::Apply, _)) => Some("apply to the cluster"),
        Some(_) => Some("commit last-applied to the cluster"),
        None => None,
    };
    let title = match (&p.write, model.edit.options.dry_run) {
        _ if let Some(what) = cluster => format!("{what}? ({yes} sends, {no} cancels)"),
        (Some(_), false) => format!("commit last-applied? ({yes} writes, {no} cancels)"),
        (Some(_), true) => format!("commit last-applied: dry run ({no} closes)"),
        (None, _) => format!("commit last-applied: nothing to write ({no} closes)"),
    };
    let inner = frame(theme, &title, rect, buf);
    let scroll = clamp(p.scroll, &text, inner);
    text.scroll((scroll, 0)).render(inner, buf);
}

pub fn annotation(
    model: &Model,
    p: &AnnotationPreview,
    scroll: usize,
    theme: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let mut lines = Vec::new();
    if model.edits_pending() {
        lines.push(Line::styled(
            format!(
                "{} edited, not committed ({} commits)",
                theme::EDIT_GLYPH,
                key(&Message::Commit, ModeKind::Browse)
            ),
            theme.edited,
        ));
    }
    lines.extend(sizes(p, theme));
    lines.push(Line::raw(format!(
        "the next apply replaces it with the file's configuration: {} bytes",
        thousands(p.next_apply_bytes)
    )));
    lines.push(Line::raw(""));
    match &p.text {
        Some(_) => {
            lines.push(Line::styled(
                "kubectl.kubernetes.io/last-applied-configuration, byte for byte (then a newline):",
                theme.title,
            ));
            if p.masked {
                lines.push(Line::styled(
                    "a Secret: values masked here (s reveals); the sizes are the real ones",
                    theme.muted,
                ));
            }
            lines.push(Line::styled(
                safe(p.shown.trim_end_matches('\n')),
                theme.string,
            ));
        }
        None => lines.push(Line::styled(
            "(none: the live object has no last-applied annotation)",
            theme.muted,
        )),
    }
    let text = wrapped(lines);
    let rect = fitted(area, area.width.saturating_sub(4), &text);
    let close = key(&Message::Back, ModeKind::Annotation);
    let inner = frame(theme, &format!("annotation ({close} closes)"), rect, buf);
    let scroll = clamp(scroll, &text, inner);
    text.scroll((scroll, 0)).render(inner, buf);
}

pub fn refused(message: &str, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let reload = key(&Message::Reload, ModeKind::Refused);
    let back = key(&Message::Back, ModeKind::Refused);
    let lines = vec![
        Line::styled(safe(message), theme.warning),
        Line::raw(""),
        Line::from(vec![
            Span::styled(format!("{reload} "), theme.hint_key),
            Span::raw("reload the files as they are now (your uncommitted edits are discarded)"),
        ]),
        Line::from(vec![
            Span::styled(format!("{back} "), theme.hint_key),
            Span::raw("keep your edits (commit again later, or write elsewhere)"),
        ]),
    ];
    let rect = centred(area, area.width.saturating_sub(8).min(90), 9);
    let inner = frame(theme, "commit refused", rect, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Word wrapping moves a word that does not fit to the next row, so a box sized by
    /// characters ÷ width is too short for text of long words: the last line was cut off.
    #[test]
    fn a_box_is_as_tall_as_its_wrapped_text() {
        // 32 columns: 2 rows of 18 by count, but each 10-letter word takes a row of its own.
        let words = "abcdefghij ".repeat(3);
        let text = wrapped(vec![
            Line::raw(words.trim_end().to_owned()),
            Line::raw("end"),
        ]);
        let area = Rect::new(0, 0, 40, 30);
        let rect = fitted(area, 20, &text);
        let inner = Rect::new(rect.x + 1, rect.y + 1, rect.width - 2, rect.height - 2);
        let mut buf = Buffer::empty(area);
        text.clone().render(inner, &mut buf);
        let row = |y: u16| -> String { (0..40).map(|x| buf[(x, y)].symbol()).collect() };
        let last = inner.y + inner.height - 1;
        assert_eq!(row(last).trim(), "end");
        assert_eq!(inner.height, 4);
        // Nothing to scroll: it all fits.
        assert_eq!(clamp(3, &text, inner), 0);
    }
}
