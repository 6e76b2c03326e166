//! The loading screen (before the run knows what it opens): the header with what is being
//! opened, a box saying what the TUI waits for (every request out, and for how long) or why
//! it failed, and the status bar with the spinner and the keys that work then. The object
//! list, while it fills in, shows the same status ([`status_spans`]).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget as _, Wrap};

use super::safe;
use crate::app::{Loading, Message, ModeKind, Waiting};
use crate::keymap;
use crate::theme::Theme;

/// Draw the loading screen.
pub fn render(loading: &Loading, theme: &Theme, area: Rect, buf: &mut Buffer) {
    if super::too_small(area, 5, theme, buf) {
        return;
    }
    let [header, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(area);
    buf.set_style(header, theme.header);
    buf.set_stringn(
        header.x,
        header.y,
        format!(" applyscope │ {}", safe(&loading.title)),
        header.width as usize,
        theme.header,
    );
    let (title, lines) = match &loading.failed {
        Some(e) => (" failed ", failed_lines(e, theme)),
        None => (" loading ", waiting_lines(&loading.waiting, theme)),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title));
    Paragraph::new(lines)
        .block(block)
        .wrap(Wrap { trim: false })
        .render(body, buf);
    buf.set_style(status, theme.status);
    let spans = match &loading.failed {
        Some(_) => {
            let mut spans = vec![Span::styled(" failed ", theme.error)];
            for message in [Message::Retry, Message::Quit] {
                if let Some(key) = keymap::key_for(ModeKind::Loading, &message) {
                    let what = if message == Message::Retry {
                        "retry"
                    } else {
                        "quit"
                    };
                    spans.push(Span::styled(format!(" {key}"), theme.hint_key));
                    spans.push(Span::raw(format!(" {what}")));
                }
            }
            spans
        }
        None => status_spans(&loading.waiting, ModeKind::Loading, theme),
    };
    buf.set_line(status.x, status.y, &Line::from(spans), status.width);
}

/// Every request out, oldest first, with how long it has waited; else the step.
fn waiting_lines(waiting: &Waiting, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(Span::styled(
        format!("{} {}", waiting.spinner(), safe(&waiting.text())),
        theme.title,
    ))];
    if waiting.requests.len() > 1 {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled("waiting for:", theme.muted)));
        for (_, what, since) in &waiting.requests {
            let secs = waiting
                .now
                .map_or(0, |n| n.saturating_duration_since(*since).as_secs());
            lines.push(Line::from(format!("  {} {secs} s", safe(what))));
        }
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "q, Esc or C-c quit at any moment",
        theme.muted,
    )));
    lines
}

fn failed_lines(e: &crate::app::Error, theme: &Theme) -> Vec<Line<'static>> {
    let retry = keymap::key_for(ModeKind::Loading, &Message::Retry).unwrap_or_default();
    let quit = keymap::key_for(ModeKind::Loading, &Message::Quit).unwrap_or_default();
    vec![
        Line::from(Span::styled(safe(&e.to_string()), theme.error)),
        Line::from(""),
        Line::from(Span::styled(
            format!("{retry} tries again · {quit} quits (and prints the error)"),
            theme.muted,
        )),
    ]
}

/// The status bar while waiting: the spinner, what for and how long, then the keys of `mode`.
#[must_use]
pub fn status_spans(waiting: &Waiting, mode: ModeKind, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = vec![Span::styled(
        format!(" {} {} ", waiting.spinner(), safe(&waiting.text())),
        theme.title,
    )];
    spans.extend(hints(mode, theme));
    spans
}

/// The key hints of `mode` (retrying only once there is a failure).
fn hints(mode: ModeKind, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let retry = keymap::key_for(ModeKind::Loading, &Message::Retry);
    for (key, hint) in keymap::hints(mode) {
        if mode == ModeKind::Loading && Some(&key) == retry.as_ref() && hint == "retry" {
            continue;
        }
        spans.push(Span::styled(format!(" {key}"), theme.hint_key));
        spans.push(Span::raw(format!(" {hint}")));
    }
    spans
}
