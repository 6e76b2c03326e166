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

use super::{Command, Error, Message};
use crate::cluster::Activity;
use crate::session::progress::Event;

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

#[cfg(test)]
mod tests;
