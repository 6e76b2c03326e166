//! Loading, pure: the screen is up before any file or cluster work starts. The runtime runs
//! the session's open on a worker ([`Command::Open`]) and hands `update` what it reports:
//! each step and request ([`Message::Report`], stamped with the time it arrived), the time
//! passing ([`Message::Tick`]), and at the end the screen it opened ([`Message::Opened`]) or
//! why it could not ([`Message::OpenFailed`]).
//!
//! While it waits, [`Waiting`] says what for and for how long (the oldest request out, else
//! the step, and `412/1000 objects`), with a spinner. Before the run knows what it opens, the
//! screen is [`Loading`] (its own keys: quit, and retry after a failure); once it knows it
//! opens the object list, the list is up and fills in as objects are planned
//! (`list::List::add_pending`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::list::{App, List, Object, Row};
use super::{Command, Error, Message};
use crate::cluster::Activity;
use crate::session::objects::Key;
use crate::session::progress::{Event, RowHead};
use crate::session::risk::riskier_first;

/// The spinner's frames, one per tenth of a second.
pub const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// A value handed to `update` once (the screen a worker opened). Messages compare by what they
/// are; a parcel by identity.
pub struct Parcel<T>(Arc<Mutex<Option<T>>>);

impl<T> Parcel<T> {
    #[must_use]
    pub fn new(value: T) -> Parcel<T> {
        Parcel(Arc::new(Mutex::new(Some(value))))
    }

    /// The value, the first time.
    #[must_use]
    pub fn take(&self) -> Option<T> {
        self.0.lock().ok().and_then(|mut v| v.take())
    }
}

impl<T> Clone for Parcel<T> {
    fn clone(&self) -> Parcel<T> {
        Parcel(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Parcel<T> {
    fn eq(&self, other: &Parcel<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Eq for Parcel<T> {}

impl<T> std::fmt::Debug for Parcel<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Parcel(..)")
    }
}

/// What the TUI waits for, from the session's reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Waiting {
    /// What the session does now (`reading web/`), since when.
    pub step: Option<(String, Instant)>,
    /// Requests out, oldest first: id, what, since when.
    pub requests: Vec<(u64, String, Instant)>,
    /// Objects done, of all.
    pub count: Option<(usize, usize)>,
    /// The time now, as the runtime last said.
    pub now: Option<Instant>,
    /// When the wait started (the spinner turns from there).
    pub started: Option<Instant>,
}

impl Waiting {
    /// Waiting since `at`.
    #[must_use]
    pub fn since(at: Instant) -> Waiting {
        Waiting {
            now: Some(at),
            started: Some(at),
            ..Waiting::default()
        }
    }

    /// Take in a report that arrived at `at`.
    pub fn record(&mut self, event: &Event, at: Instant) {
        self.tick(at);
        match event {
            Event::Step(what) => self.step = Some((what.clone(), at)),
            Event::Request(Activity::Sent { id, what }) => {
                self.requests.push((*id, what.clone(), at));
            }
            Event::Request(Activity::Ended { id }) => self.requests.retain(|(i, _, _)| i != id),
            Event::Count { done, total } => self.count = Some((*done, *total)),
            Event::Listing { total, .. } => self.count = Some((0, *total)),
            Event::Row(_) => {}
        }
    }

    /// The time is `now`.
    pub fn tick(&mut self, now: Instant) {
        if self.now.is_none_or(|n| now > n) {
            self.now = Some(now);
        }
        self.started.get_or_insert(now);
    }

    fn elapsed(&self, since: Instant) -> Duration {
        self.now
            .map_or(Duration::ZERO, |n| n.saturating_duration_since(since))
    }

    /// The spinner's frame now.
    #[must_use]
    pub fn spinner(&self) -> char {
        let tenths = self
            .started
            .map_or(0, |s| self.elapsed(s).as_millis() / 100);
        SPINNER[usize::try_from(tenths).unwrap_or(0) % SPINNER.len()]
    }

    /// What it waits for, in words: `412/1000 objects · reading deployments.apps/web from
    /// https://… 4 s (+3 more)`.
    #[must_use]
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        if let Some((done, total)) = self.count {
            parts.push(format!("{done}/{total} objects"));
        }
        if let Some((_, what, since)) = self.requests.first() {
            let more = match self.requests.len() - 1 {
                0 => String::new(),
                n => format!(" (+{n} more)"),
            };
            parts.push(format!("{what} {} s{more}", self.elapsed(*since).as_secs()));
        } else if let Some((what, since)) = &self.step {
            parts.push(format!("{what} {} s", self.elapsed(*since).as_secs()));
        }
        if parts.is_empty() {
            parts.push("starting".into());
        }
        parts.join(" · ")
    }
}

/// The screen before the run knows what it opens: the title, what it waits for, or why it
/// failed.
#[derive(Debug)]
pub struct Loading {
    /// What is being opened (`-f web.yaml`).
    pub title: String,
    pub waiting: Waiting,
    /// The open failed: why (`r` tries again).
    pub failed: Option<Error>,
    /// The terminal's size, as last reported.
    pub size: (u16, u16),
}

impl Loading {
    /// Loading `title`, waiting so far for `waiting`.
    #[must_use]
    pub fn new(title: String, waiting: Waiting) -> Loading {
        Loading {
            title,
            waiting,
            failed: None,
            size: (80, 24),
        }
    }
}

/// The messages of loading, whatever screen is up: `Ok` with the effects when `message` was
/// one of them, else `Err` with it.
pub(super) fn route(app: &mut App, message: Message) -> Result<Vec<Command>, Message> {
    match message {
        Message::Opened(parcel) => {
            if let Some(new) = parcel.take() {
                arrive(app, new);
            }
            if let App::One(model) = app {
                return Ok(super::ssa::start(model));
            }
        }
        Message::OpenFailed(e) => {
            let (title, waiting, size) = match app {
                App::Loading(l) => (l.title.clone(), l.waiting.clone(), l.size),
                App::Many(l) => (
                    l.title.clone(),
                    l.loading.clone().unwrap_or_default(),
                    l.size,
                ),
                App::One(_) => return Ok(Vec::new()),
            };
            // Bad input ends the run at once, as on the command line (the runtime prints it);
            // the cluster's failures wait for `r`.
            let transient = e.is_transient();
            let mut loading = Loading::new(title, waiting);
            loading.size = size;
            loading.failed = Some(e);
            *app = App::Loading(Box::new(loading));
            if !transient {
                return Ok(vec![Command::Quit]);
            }
        }
        Message::Tick(now) => match app {
            App::Loading(l) => l.waiting.tick(now),
            App::Many(l) => {
                if let Some(w) = &mut l.loading {
                    w.tick(now);
                }
            }
            App::One(_) => {}
        },
        Message::Report { event, at } => report(app, *event, at),
        other => return Err(other),
    }
    Ok(Vec::new())
}

/// What the session reported, on the screen that is up: the list opens when the run knows it
/// opens one, and fills in.
fn report(app: &mut App, event: Event, at: Instant) {
    match app {
        App::Loading(l) => {
            l.waiting.record(&event, at);
            if let Event::Listing { title, .. } = event {
                let mut list = List::loading(title, l.waiting.clone());
                list.size = l.size;
                *app = App::Many(Box::new(list));
            }
        }
        App::Many(list) if list.loading.is_some() => match event {
            Event::Row(head) => list.add_pending(*head),
            other => {
                if let Some(w) = &mut list.loading {
                    w.record(&other, at);
                }
            }
        },
        App::Many(_) | App::One(_) => {}
    }
}

/// The screen loading opened replaces the one up, at its size; the list keeps the selected
/// object, one object what it opened with (kubectl diff's note).
fn arrive(app: &mut App, mut new: App) {
    let (width, height) = match app {
        App::Loading(l) => l.size,
        App::One(m) => m.size,
        App::Many(l) => l.size,
    };
    let selected = match app {
        App::Many(l) => l.selected_key().cloned(),
        _ => None,
    };
    let notice = match &new {
        App::One(m) => m.notice.clone(),
        _ => None,
    };
    new.update(Message::Resized { width, height });
    match &mut new {
        App::One(m) if notice.is_some() => m.notice = notice,
        App::Many(l) => {
            if let Some(key) = selected {
                l.select_key(&key);
            }
        }
        _ => {}
    }
    *app = new;
}

/// Apply a message to the loading screen; returns the effects to run. (The messages that
/// replace the screen are the app's: `App::update`.)
pub fn update(loading: &mut Loading, message: Message) -> Vec<Command> {
    match message {
        Message::Tick(now) => loading.waiting.tick(now),
        Message::Report { event, at } => loading.waiting.record(&event, at),
        Message::Resized { width, height } => loading.size = (width, height),
        Message::OpenFailed(e) => loading.failed = Some(e),
        Message::Retry if loading.failed.is_some() => {
            loading.failed = None;
            loading.waiting = Waiting {
                started: loading.waiting.now,
                now: loading.waiting.now,
                ..Waiting::default()
            };
            return vec![Command::Open];
        }
        Message::Quit | Message::Back => return vec![Command::Quit],
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
pub(super) fn retry(list: &mut List) -> Vec<Command> {
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

#[cfg(test)]
mod tests;
