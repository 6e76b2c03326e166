//! Progress of long session work (reading many files, planning many objects, the requests to
//! the cluster), told as data to whoever shows it: the TUI's status line and object list, the
//! command line's progress on stderr. The session only reports; it draws nothing. A
//! [`Progress`] with no listener ([`Progress::none`]) costs nothing.

use std::sync::Arc;

use crate::cluster::{Activity, Watcher};

use super::objects::Key;
use super::risk::Summary;

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// What the session does now, in words (`reading web/`, `planning`).
    Step(String),
    /// A request to the cluster went out or ended.
    Request(Activity),
    /// The run opens the object list: its title, and how many objects it holds.
    Listing { title: String, total: usize },
    /// `done` of `total` objects are read (from the cluster) or planned.
    Count { done: usize, total: usize },
    /// One object planned, as its row of the list shows it (only to a listener that asked
    /// for rows: [`Progress::with_rows`]).
    Row(Box<RowHead>),
}

/// An object of the list, as soon as it is planned: what its row shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowHead {
    pub key: Key,
    /// The local object's source.
    pub source: String,
    /// The live object's source; `None`: a create.
    pub live_source: Option<String>,
    pub summary: Summary,
}

type Listener = Arc<dyn Fn(Event) + Send + Sync>;

/// Where progress goes (cheap to clone; shared by worker threads).
#[derive(Clone, Default)]
pub struct Progress {
    listener: Option<Listener>,
    rows: bool,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("listening", &self.listener.is_some())
            .field("rows", &self.rows)
            .finish()
    }
}

impl Progress {
    /// Nobody listens.
    #[must_use]
    pub fn none() -> Progress {
        Progress::default()
    }

    /// Tell `listener` (called from whichever thread does the work).
    #[must_use]
    pub fn new(listener: impl Fn(Event) + Send + Sync + 'static) -> Progress {
        Progress {
            listener: Some(Arc::new(listener)),
            rows: false,
        }
    }

    /// The listener also wants each planned object's row ([`Event::Row`]).
    #[must_use]
    pub fn with_rows(mut self) -> Progress {
        self.rows = true;
        self
    }

    /// Does the listener want rows?
    #[must_use]
    pub fn wants_rows(&self) -> bool {
        self.listener.is_some() && self.rows
    }

    /// Tell the listener, if any.
    pub fn report(&self, event: Event) {
        if let Some(l) = &self.listener {
            l(event);
        }
    }

    /// Tell the listener the event `make` makes; nothing is made when nobody listens.
    pub fn report_with(&self, make: impl FnOnce() -> Event) {
        if let Some(l) = &self.listener {
            l(make());
        }
    }

    /// The cluster's watcher that reports its requests here; `None` when nobody listens.
    #[must_use]
    pub fn watcher(&self) -> Option<Watcher> {
        let listener = self.listener.clone()?;
        Some(Arc::new(move |a: Activity| listener(Event::Request(a))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn events_reach_the_listener_and_none_makes_nothing() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let p = Progress::new(move |e| s.lock().unwrap().push(e));
        p.report(Event::Step("reading".into()));
        p.watcher().unwrap()(Activity::Ended { id: 3 });
        assert_eq!(
            *seen.lock().unwrap(),
            [
                Event::Step("reading".into()),
                Event::Request(Activity::Ended { id: 3 })
            ]
        );
        assert!(!p.wants_rows() && p.with_rows().wants_rows());
        let none = Progress::none();
        none.report_with(|| unreachable!("nobody listens"));
        assert!(none.watcher().is_none() && !none.with_rows().wants_rows());
    }
}
