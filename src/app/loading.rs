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

use super::list::{App, List};
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

/// The messages of loading, whatever screen is up: `Ok` with the effects when `message` was
/// one of them, else `Err` with it.
pub(super) fn route(app: &mut App, message: Message) -> Result<Vec<Command>, Message> {
    match message {
        Message::Opened(parcel) => {
            if let Some(new) = parcel.take() {
                arrive(app, new);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_names_the_oldest_request_and_its_time() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut w = Waiting::since(t0);
        assert_eq!(w.text(), "starting");
        w.record(&Event::Step("reading web.yaml".into()), at(0));
        assert_eq!(w.text(), "reading web.yaml 0 s");
        let sent = |id, what: &str| {
            Event::Request(Activity::Sent {
                id,
                what: what.into(),
            })
        };
        w.record(&sent(1, "discovery apps/v1"), at(100));
        w.record(
            &sent(2, "reading deployments.apps/web from http://k"),
            at(200),
        );
        w.record(&Event::Request(Activity::Ended { id: 1 }), at(300));
        w.tick(at(4300));
        assert_eq!(w.text(), "reading deployments.apps/web from http://k 4 s");
        w.record(&sent(3, "OpenAPI v3 apps/v1"), at(4400));
        w.record(
            &Event::Count {
                done: 412,
                total: 1000,
            },
            at(4500),
        );
        assert_eq!(
            w.text(),
            "412/1000 objects · reading deployments.apps/web from http://k 4 s (+1 more)"
        );
        assert_eq!(w.spinner(), SPINNER[45 % SPINNER.len()]);
        // Time does not go back (reports may be stamped before a tick is handled).
        w.tick(at(10));
        assert_eq!(w.now, Some(at(4500)));
    }

    #[test]
    fn retry_after_a_failure_opens_again_and_quit_quits() {
        let t0 = Instant::now();
        let mut l = Loading::new("web.yaml".into(), Waiting::since(t0));
        assert!(update(&mut l, Message::Retry).is_empty());
        update(&mut l, Message::OpenFailed(Error::Input("boom".into())));
        assert!(l.failed.is_some());
        assert_eq!(update(&mut l, Message::Retry), vec![Command::Open]);
        assert!(l.failed.is_none());
        assert_eq!(update(&mut l, Message::Quit), vec![Command::Quit]);
        assert_eq!(update(&mut l, Message::Back), vec![Command::Quit]);
    }

    #[test]
    fn bad_input_quits_and_a_cluster_failure_waits_for_retry() {
        let loading = || App::Loading(Box::new(Loading::new("x".into(), Waiting::default())));
        let mut app = loading();
        let bad = Error::Input("x.yaml:2:1: bad".into());
        assert_eq!(app.update(Message::OpenFailed(bad)), vec![Command::Quit]);
        let mut app = loading();
        let down = Error::from(crate::cluster::ClusterError::Status {
            code: 500,
            message: "etcd is down".into(),
        })
        .context("x.yaml");
        assert!(app.update(Message::OpenFailed(down)).is_empty());
        assert!(!app.is_loading());
        assert_eq!(app.update(Message::Retry), vec![Command::Open]);
        assert!(app.is_loading());
    }

    #[test]
    fn the_list_opens_on_listing_and_fills_in_under_the_cursor() {
        use crate::session::objects::Key;
        use crate::session::progress::RowHead;
        use crate::session::risk::Summary;
        let t0 = Instant::now();
        let mut app = App::Loading(Box::new(Loading::new("d/".into(), Waiting::since(t0))));
        let report = |event| Message::Report {
            event: Box::new(event),
            at: t0,
        };
        app.update(report(Event::Listing {
            title: "d/ → live/".into(),
            total: 3,
        }));
        let row = |name: &str| {
            let key = Key {
                group: String::new(),
                kind: "ConfigMap".into(),
                namespace: "team".into(),
                name: name.into(),
            };
            report(Event::Row(Box::new(RowHead {
                key,
                source: format!("{name}.yaml"),
                live_source: None,
                summary: Summary::failed("no"),
            })))
        };
        let names = |app: &App| match app {
            App::Many(l) => (
                l.rows
                    .iter()
                    .map(|r| r.key.name.clone())
                    .collect::<Vec<_>>(),
                l.selected_key().map(|k| k.name.clone()),
            ),
            _ => panic!("no list"),
        };
        app.update(row("b"));
        app.update(row("c"));
        assert_eq!(
            names(&app),
            (vec!["b".into(), "c".into()], Some("b".into()))
        );
        // The first row stays selected: the riskiest so far.
        app.update(row("a"));
        assert_eq!(
            names(&app),
            (vec!["a".into(), "b".into(), "c".into()], Some("a".into()))
        );
        // A cursor moved down stays on its row as rows arrive before it.
        app.update(Message::Down);
        app.update(row("0"));
        assert_eq!(
            names(&app),
            (
                vec!["0".into(), "a".into(), "b".into(), "c".into()],
                Some("b".into())
            )
        );
        assert!(app.is_loading());
    }

    #[test]
    fn r_in_the_list_reads_again_only_after_a_failure_and_rows_are_replaced() {
        use crate::session::objects::Key;
        use crate::session::progress::RowHead;
        use crate::session::risk::Summary;
        let key = |name: &str| Key {
            group: String::new(),
            kind: "ConfigMap".into(),
            namespace: "team".into(),
            name: name.into(),
        };
        let head = |name: &str, summary: Summary| RowHead {
            key: key(name),
            source: format!("{name}.yaml"),
            live_source: None,
            summary,
        };
        let mut list = List::loading("d/".into(), Waiting::default());
        list.add_pending(head("a", Summary::failed("etcd is down")));
        list.add_pending(head("b", Summary::failed("also")));
        list.loading = None;
        let mut app = App::Many(Box::new(list));
        assert_eq!(app.update(Message::Retry), vec![Command::Open]);
        assert!(app.is_loading());
        // Loading again: r does nothing more.
        assert!(app.update(Message::Retry).is_empty());
        let App::Many(list) = &mut app else {
            panic!("no list")
        };
        // Read again, a is fine now: its row is replaced, not added.
        let mut ok = Summary::failed("x");
        ok.error = None;
        ok.op = crate::session::risk::Op::Unchanged;
        list.add_pending(head("a", ok));
        let names: Vec<&str> = list.rows.iter().map(|r| r.key.name.as_str()).collect();
        assert_eq!(names, ["b", "a"]);
        list.loading = None;
        // Nothing failed: nothing to read again.
        list.rows.retain(|r| r.key.name == "a");
        assert!(app.update(Message::Retry).is_empty());
        assert!(!app.is_loading());
    }

    #[test]
    fn a_parcel_is_taken_once_and_equal_to_its_clones_only() {
        let p = Parcel::new(5);
        let q = p.clone();
        assert_eq!(p, q);
        assert_ne!(p, Parcel::new(5));
        assert_eq!(q.take(), Some(5));
        assert_eq!(p.take(), None);
    }
}
