//! The view: draws the model, reads it only. Layout, panes, the why panel, the patch view,
//! warnings, help, legend, the commit and annotation overlays, and the status bar.
//!
//! Wide terminals (at least [`WIDE`] columns) show the four panes side by side; narrower ones
//! show the focused pane under a tab bar. Only visible lines are drawn.

mod commit;
pub mod highlight;
pub mod list;
mod loading;
mod overlay;
mod pane;
mod patch;
mod ssa;
mod status;
mod why;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear, Widget as _};

use crate::app::{App, Message, Mode, Model, PaneKind};
use crate::theme::Theme;

/// The narrowest terminal that shows the four panes side by side.
pub const WIDE: u16 = 120;

/// Where everything goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Areas {
    pub header: Rect,
    /// The tab bar (narrow layouts).
    pub tabs: Option<Rect>,
    /// Each shown pane with its rectangle (borders included).
    pub panes: Vec<(usize, Rect)>,
    pub why: Option<Rect>,
    /// Panes and why panel together (the patch view and overlays use it).
    pub body: Rect,
    pub status: Rect,
}

/// The layout of a screen: a pure function of the model and the size.
#[must_use]
pub fn areas(model: &Model, area: Rect) -> Areas {
    let [header, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let wide = area.width >= WIDE;
    let (panes_area, why) = if model.why {
        let h = if wide {
            (body.height / 2).min(12)
        } else {
            (body.height * 2 / 5).min(10)
        };
        let [p, w] = Layout::vertical([Constraint::Min(1), Constraint::Length(h)]).areas(body);
        (p, Some(w))
    } else {
        (body, None)
    };
    let (tabs, panes) = if wide {
        let n = u32::try_from(model.panes.len()).unwrap_or(1).max(1);
        // The owners column takes room in the live and result panes: they get twice the width.
        let weight = |kind: PaneKind| match kind {
            PaneKind::Live | PaneKind::Result if model.owners => 2,
            _ => 1,
        };
        let total: u32 = model
            .panes
            .iter()
            .map(|p| weight(p.kind))
            .sum::<u32>()
            .max(n);
        let constraints: Vec<Constraint> = if model.owners {
            model
                .panes
                .iter()
                .map(|p| Constraint::Ratio(weight(p.kind), total))
                .collect()
        } else {
            vec![Constraint::Ratio(1, n); n as usize]
        };
        let rects = Layout::horizontal(constraints).split(panes_area);
        (None, rects.iter().copied().enumerate().collect())
    } else {
        let [t, p] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(panes_area);
        (Some(t), vec![(model.focus, p)])
    };
    Areas {
        header,
        tabs,
        panes,
        why,
        body,
        status,
    }
}

/// Draw what the TUI runs: one object's panes, or the object list.
pub fn view_app(app: &App, theme: &Theme, frame: &mut Frame) {
    let area = frame.area();
    render_app(app, theme, area, frame.buffer_mut());
}

/// Draw what the TUI runs into a buffer.
pub fn render_app(app: &App, theme: &Theme, area: Rect, buf: &mut Buffer) {
    match app {
        App::Loading(l) => loading::render(l, theme, area, buf),
        App::One(model) => render(model, theme, area, buf),
        App::Many(l) => list::render(l, theme, area, buf),
    }
}

/// The message a mouse click sends, for what the TUI runs.
#[must_use]
pub fn click_app(app: &App, area: Rect, col: u16, row: u16) -> Option<Message> {
    match app {
        App::Loading(_) => None,
        App::One(model) => click(model, area, col, row),
        App::Many(l) => list::click(l, area, col, row),
    }
}

/// Draw the model.
pub fn view(model: &Model, theme: &Theme, frame: &mut Frame) {
    let area = frame.area();
    render(model, theme, area, frame.buffer_mut());
}

/// Below 20 columns or `min_height` rows, say so instead of drawing (and return true).
fn too_small(area: Rect, min_height: u16, theme: &Theme, buf: &mut Buffer) -> bool {
    let small = area.width < 20 || area.height < min_height;
    if small {
        buf.set_stringn(
            area.x,
            area.y,
            "applyscope: window too small",
            area.width as usize,
            theme.error,
        );
    }
    small
}

/// Draw the model into a buffer (tests and screenshots use this directly).
pub fn render(model: &Model, theme: &Theme, area: Rect, buf: &mut Buffer) {
    if too_small(area, 6, theme, buf) {
        return;
    }
    let a = areas(model, area);
    status::header(model, theme, a.header, buf);
    if let Mode::Patch(p) = &model.mode {
        patch::render(model, theme, *p, a.body, buf);
    } else {
        if let Some(tabs) = a.tabs {
            status::tabs(model, theme, tabs, buf);
        }
        for (i, rect) in &a.panes {
            pane::render(model, theme, *i, *rect, buf);
        }
        if let Some(w) = a.why {
            match model.server.as_deref() {
                Some(server) => ssa::why(model, server, theme, w, buf),
                None => why::render(model, theme, w, buf),
            }
        }
    }
    match &model.mode {
        Mode::Help { scroll, .. } => overlay::help(theme, *scroll, a.body, buf),
        Mode::Legend => overlay::legend(model.server.is_some(), theme, a.body, buf),
        Mode::Warnings(selected) => match model.server.as_deref() {
            Some(server) => ssa::warnings(server, theme, *selected, a.body, buf),
            None => overlay::warnings(model, theme, *selected, a.body, buf),
        },
        Mode::Steps(scroll) => ssa::steps(model, theme, *scroll, a.body, buf),
        Mode::Confirm(p) => commit::confirm(model, p, theme, a.body, buf),
        Mode::Annotation { scroll, preview } => {
            commit::annotation(model, preview, *scroll, theme, a.body, buf);
        }
        Mode::Refused(message) => commit::refused(message, theme, a.body, buf),
        _ => {}
    }
    status::status(model, theme, a.status, buf);
}

/// The message a mouse click at a cell sends: select the pane and the field on that line.
#[must_use]
pub fn click(model: &Model, area: Rect, col: u16, row: u16) -> Option<Message> {
    if !matches!(model.mode, Mode::Browse) {
        return None;
    }
    let a = areas(model, area);
    if let Some(t) = a.tabs
        && row == t.y
    {
        let pane = status::tab_at(model, t, col)?;
        return Some(Message::Select {
            pane,
            field: model.current_field()?,
        });
    }
    a.panes.iter().find_map(|(i, rect)| {
        let inner = pane::inner(*rect);
        let inside = col >= inner.x
            && col < inner.x + inner.width
            && row >= inner.y
            && row < inner.y + inner.height;
        if !inside {
            return None;
        }
        let field = pane::field_at_row(model, *i, inner, row - inner.y)?;
        Some(Message::Select { pane: *i, field })
    })
}

/// Text from a document, made safe for the terminal.
fn safe(s: &str) -> String {
    crate::app::yaml::escape(s)
}

/// A box inside `area`, at most `w` x `h`, centred.
fn centred(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// A cleared box with a border and a title; the area inside it.
fn frame(theme: &Theme, title: &str, rect: Rect, buf: &mut Buffer) -> Rect {
    Clear.render(rect, buf);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focus)
        .title(Span::styled(format!(" {title} "), theme.title));
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}
