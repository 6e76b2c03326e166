//! The object list: the screen the TUI opens on input holding more than one object. One row per
//! object, sorted by risk ([`crate::session::risk`]); `Enter` opens the object's panes (the single-object
//! [`Model`]), `Esc` there returns to the list with the cursor kept.
//!
//! The list sits above the per-object model: [`App`](crate::app::screen::App) is either one object (the screen as it has
//! always been) or a [`List`], which holds each object's plan until it is opened and its
//! [`Model`] once it has been (so edits survive going back to the list). Messages go to the
//! opened object, except `Back` in its panes, which closes it; a row's counts are summed again
//! from the object's current (edited) plan when it closes. The rows keep the order they were
//! sorted in when the list opened, so nothing moves under the cursor.

use super::loading::Waiting;
use super::{Command, EditOptions, Message, ModeKind, Model, Source, update as update_model};
use crate::engine::plan::Plan;
use crate::session::objects::Key;
use crate::session::open::ServerAnswer;
use crate::session::progress::RowHead;
use crate::session::risk::{Summary, riskier_first};
use crate::session::{Docs, Files, Loaded, ReloadRequest};

pub use crate::session::open::Item;

/// What a row opens.
#[derive(Debug)]
pub enum Object {
    /// Planned, not opened yet.
    Planned { docs: Box<Docs>, plan: Box<Plan> },
    /// Opened at least once: its model, with any edits.
    Opened(Box<Model>),
    /// It failed to plan (the row's summary has the message).
    Failed,
    /// Planned while the list loads: it opens once loading ends.
    Pending,
}

/// One row of the list.
#[derive(Debug)]
pub struct Row {
    pub key: Key,
    pub source: String,
    pub live_source: Option<String>,
    pub summary: Summary,
    pub files: Option<Files>,
    pub object: Object,
    /// `kubectl diff`'s server answer, shown as the result when the row opens.
    pub server: Option<Box<ServerAnswer>>,
}

/// What the list shows over its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ListMode {
    #[default]
    Browse,
    /// The help screen, scrolled.
    Help(usize),
}

/// The list screen's state.
#[derive(Debug)]
pub struct List {
    /// What was opened (`-f web/ → live/`).
    pub title: String,
    /// Riskiest first.
    pub rows: Vec<Row>,
    pub cursor: usize,
    /// The first row shown.
    pub top: usize,
    /// The row whose panes are open.
    pub open: Option<usize>,
    pub mode: ListMode,
    pub notice: Option<String>,
    /// The terminal's size, as last reported.
    pub size: (u16, u16),
    /// Given to every opened object.
    pub options: EditOptions,
    /// The opened object waits for its files (the runtime's reload report attaches them).
    attaching: bool,
    /// The list is loading (its rows fill in as objects are planned): what it waits for.
    pub loading: Option<Waiting>,
}

/// Rows of the table at a terminal height: the header, the table's border and column
/// header, the three detail lines and the status bar take 8.
#[must_use]
pub fn visible_rows(height: u16) -> usize {
    usize::from(height.saturating_sub(8)).max(1)
}

impl List {
    /// The list of `items`, sorted riskiest first.
    #[must_use]
    pub fn new(title: String, items: Vec<Item>, options: EditOptions) -> List {
        let mut rows: Vec<Row> = items
            .into_iter()
            .map(|item| {
                let summary = Summary::of_result(&item.plan);
                let object = match item.plan {
                    Ok(plan) => Object::Planned {
                        docs: Box::new(item.docs),
                        plan: Box::new(plan),
                    },
                    Err(_) => Object::Failed,
                };
                Row {
                    key: item.key,
                    source: item.source,
                    live_source: item.live_source,
                    summary,
                    files: item.files,
                    object,
                    server: item.server,
                }
            })
            .collect();
        rows.sort_by(|a, b| riskier_first((&a.summary, &a.key), (&b.summary, &b.key)));
        List {
            title,
            rows,
            cursor: 0,
            top: 0,
            open: None,
            mode: ListMode::Browse,
            notice: None,
            size: (80, 24),
            options,
            attaching: false,
            loading: None,
        }
    }

    /// The list `title` while its objects load: no rows yet.
    #[must_use]
    pub fn loading(title: String, waiting: Waiting) -> List {
        let mut list = List::new(title, Vec::new(), EditOptions::default());
        list.loading = Some(waiting);
        list
    }

    /// The opened object's model.
    #[must_use]
    pub fn opened(&self) -> Option<&Model> {
        match &self.rows.get(self.open?)?.object {
            Object::Opened(m) => Some(m),
            _ => None,
        }
    }

    fn opened_mut(&mut self) -> Option<&mut Model> {
        match &mut self.rows.get_mut(self.open?)?.object {
            Object::Opened(m) => Some(m),
            _ => None,
        }
    }

    /// The keymap mode of what is on screen.
    #[must_use]
    pub fn keymap_mode(&self) -> ModeKind {
        match (self.opened(), self.mode) {
            (Some(m), _) => m.mode.kind(),
            (None, ListMode::Browse) => ModeKind::List,
            (None, ListMode::Help(_)) => ModeKind::Help,
        }
    }

    /// How many rows a page moves.
    #[must_use]
    pub fn page(&self) -> usize {
        visible_rows(self.size.1)
    }

    pub(super) fn move_to(&mut self, row: usize) {
        self.cursor = row.min(self.rows.len().saturating_sub(1));
        self.scroll();
    }

    /// Keep the cursor's row on screen.
    pub(super) fn scroll(&mut self) {
        let page = self.page();
        if self.cursor < self.top {
            self.top = self.cursor;
        } else if self.cursor >= self.top + page {
            self.top = self.cursor + 1 - page;
        }
        let last_top = self.rows.len().saturating_sub(page);
        self.top = self.top.min(last_top);
    }

    /// Open the row under the cursor.
    fn open_row(&mut self) -> Vec<Command> {
        let index = self.cursor;
        let total = self.rows.len();
        let options = self.options.clone();
        let (width, height) = self.size;
        let Some(row) = self.rows.get_mut(index) else {
            return Vec::new();
        };
        if matches!(row.object, Object::Pending) {
            self.notice = Some(format!(
                "{}: planned; it opens when every object is loaded",
                row.key
            ));
            return Vec::new();
        }
        let object = std::mem::replace(&mut row.object, Object::Failed);
        let mut commands = Vec::new();
        row.object = match object {
            Object::Pending => Object::Pending,
            Object::Failed => {
                self.notice = Some(format!(
                    "{} failed to plan: {}",
                    row.key,
                    row.summary.error.as_deref().unwrap_or("")
                ));
                return Vec::new();
            }
            Object::Opened(model) => Object::Opened(model),
            Object::Planned { docs, plan } => {
                let mut title = format!("{}/{total} {} ({})", index + 1, row.key, row.source);
                if let Some(server) = &row.server {
                    title = format!("{title} · {}", server.summary);
                }
                let source = Source {
                    title,
                    about: String::new(),
                    docs: *docs,
                };
                let mut model = Model::with_plan(source, *plan);
                if let Some(server) = &row.server {
                    super::show_server_answer(&mut model, server);
                }
                model.edit.options = options;
                model.edit.files.clone_from(&row.files);
                let target = model.edit.target().map(|(p, _)| p.to_owned());
                if model.edit.files.is_some() || target.is_some() {
                    commands.push(Command::Reload(ReloadRequest {
                        files: model.edit.files.clone(),
                        target,
                    }));
                    self.attaching = true;
                }
                commands.extend(super::ssa::start(&mut model));
                Object::Opened(Box::new(model))
            }
        };
        self.open = Some(index);
        let note = self
            .rows
            .get(index)
            .and_then(|r| r.server.as_ref())
            .map(|s| s.note.clone());
        if let Some(model) = self.opened_mut() {
            update_model(model, Message::Resized { width, height });
            if note.is_some() {
                model.notice = note;
            }
        }
        commands
    }

    /// Back to the list: the row's counts from the object's current plan.
    fn close(&mut self) {
        if let Some(i) = self.open.take()
            && let Some(row) = self.rows.get_mut(i)
            && let Object::Opened(model) = &row.object
        {
            row.summary = Summary::of_plan(&model.plan);
            if model.edits_pending() {
                self.notice = Some(format!(
                    "{}: edits not committed (Enter reopens it)",
                    row.key
                ));
            }
        }
        self.cursor = self.cursor.min(self.rows.len().saturating_sub(1));
        self.scroll();
    }

    /// The runtime's report on reading an opened object's files: attach them, as the
    /// single-object screen does at start. Files that cannot be read leave it read-only.
    fn attach(&mut self, result: Result<Box<Loaded>, crate::session::Error>) {
        self.attaching = false;
        let Some(model) = self.opened_mut() else {
            return;
        };
        let problem = match result {
            Ok(loaded) => model.attach(*loaded).err(),
            Err(e) => Some(e),
        };
        if let Some(why) = problem {
            model.edit.files = None;
            model.edit.options.read_only = true;
            model.notice = Some(format!("{why}: opened read-only"));
        }
    }
}

/// Apply a message to the list (or to the opened object); returns the effects to run.
pub fn update(list: &mut List, message: Message) -> Vec<Command> {
    if message == Message::Idle {
        return match list.opened_mut() {
            Some(model) => update_model(model, message),
            None => Vec::new(),
        };
    }
    list.notice = None;
    if let Message::Resized { width, height } = message {
        list.size = (width, height);
        list.scroll();
        return match list.opened_mut() {
            Some(model) => update_model(model, message),
            None => Vec::new(),
        };
    }
    if list.open.is_some() {
        let message = match message {
            Message::Reloaded(result) if list.attaching => {
                list.attach(result);
                return Vec::new();
            }
            other => other,
        };
        let closing = list
            .opened()
            .is_some_and(|m| m.mode.kind() == ModeKind::Browse && message == Message::Back);
        if closing {
            list.close();
            return Vec::new();
        }
        return match list.opened_mut() {
            Some(model) => update_model(model, message),
            None => Vec::new(),
        };
    }
    match list.mode {
        ListMode::Help(scroll) => {
            list.mode = match message {
                Message::Down => ListMode::Help(scroll + 1),
                Message::Up => ListMode::Help(scroll.saturating_sub(1)),
                Message::Back => ListMode::Browse,
                Message::Quit => return vec![Command::Quit],
                _ => ListMode::Help(scroll),
            };
            Vec::new()
        }
        ListMode::Browse => browse(list, message),
    }
}

fn browse(list: &mut List, message: Message) -> Vec<Command> {
    let page = list.page();
    match message {
        Message::Down => list.move_to(list.cursor + 1),
        Message::Up => list.move_to(list.cursor.saturating_sub(1)),
        Message::PageDown => list.move_to(list.cursor + page),
        Message::PageUp => list.move_to(list.cursor.saturating_sub(page)),
        Message::Top => list.move_to(0),
        Message::Bottom => list.move_to(usize::MAX),
        Message::Select { field, .. } if field < list.rows.len() => list.move_to(field),
        Message::Accept => return list.open_row(),
        Message::OpenHelp => list.mode = ListMode::Help(0),
        Message::Retry => return retry(list),
        Message::Quit => return vec![Command::Quit],
        _ => {}
    }
    Vec::new()
}

impl List {
    /// A row planned while the list loads, put where the risk order puts it (in place of the
    /// object's row when it is read again). A cursor moved down stays on its row; one on the
    /// first row stays there (on the riskiest so far).
    pub fn add_pending(&mut self, head: RowHead) {
        let row = Row {
            key: head.key,
            source: head.source,
            live_source: head.live_source,
            summary: head.summary,
            files: None,
            object: Object::Pending,
            server: None,
        };
        let mut on_it = false;
        if let Some(i) = self.rows.iter().position(|r| r.key == row.key) {
            self.rows.remove(i);
            on_it = i == self.cursor && i > 0;
            if i < self.cursor {
                self.cursor -= 1;
            }
        }
        let at = self.rows.partition_point(|r| {
            riskier_first((&r.summary, &r.key), (&row.summary, &row.key)).is_lt()
        });
        self.rows.insert(at, row);
        if on_it {
            self.cursor = at;
        } else if at <= self.cursor && self.cursor > 0 {
            self.cursor += 1;
        }
        self.cursor = self.cursor.min(self.rows.len().saturating_sub(1));
        self.scroll();
    }

    /// The selected row's object, to find it again in the list that replaces this one.
    #[must_use]
    pub fn selected_key(&self) -> Option<&Key> {
        self.rows.get(self.cursor).map(|r| &r.key)
    }

    /// Select the row of `key`, if there is one.
    pub fn select_key(&mut self, key: &Key) {
        if let Some(i) = self.rows.iter().position(|r| r.key == *key) {
            self.move_to(i);
        }
    }
}

/// `r`: after a failure, read and plan every object again; the rows stay, each replaced as
/// its object is planned again. Refused while an object has edits not committed.
fn retry(list: &mut List) -> Vec<Command> {
    if list.loading.is_some() {
        return Vec::new();
    }
    if !list.rows.iter().any(|r| r.summary.error.is_some()) {
        list.notice = Some("nothing failed: r reads the objects again after a failure".into());
        return Vec::new();
    }
    let edited = list.rows.iter().find(|r| match &r.object {
        Object::Opened(m) => m.edits_pending(),
        _ => false,
    });
    if let Some(row) = edited {
        list.notice = Some(format!(
            "{}: edits not committed; commit or undo them before reading every object again",
            row.key
        ));
        return Vec::new();
    }
    list.loading = Some(Waiting::default());
    vec![Command::Open]
}
