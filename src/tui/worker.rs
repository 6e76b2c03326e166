//! The loading worker: the session's open runs on a thread of its own, so the screen is up
//! at once and keys work while files are read and the cluster answers (or does not). Its
//! reports and its result come back over a channel; the event loop drains it into messages.
//! A worker still waiting when the user quits is abandoned: the process exits without it.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

use super::{Effects, app_of};
use crate::app::{App, Message, Parcel};
use crate::session::Error;
use crate::session::open::{OpenRequest, open_reporting};
use crate::session::progress::{Event, Progress};

/// What a worker sends.
enum Delivery {
    /// A report, and when it was made.
    Report(Event, Instant),
    /// The screen it opened and what runs its commands, or why it could not.
    Done(Box<Result<(App, Effects), Error>>),
}

/// What a run opens, and the channel its workers report on.
pub struct Loader {
    request: OpenRequest,
    tx: Sender<Delivery>,
    rx: Receiver<Delivery>,
}

impl Loader {
    #[must_use]
    pub fn new(request: OpenRequest) -> Loader {
        let (tx, rx) = channel();
        Loader { request, tx, rx }
    }

    /// What is being opened, for the loading screen's header.
    #[must_use]
    pub fn title(&self) -> String {
        let r = &self.request;
        match (r.example, r.local.is_empty()) {
            (Some(e), _) => format!("example {}", e.name),
            (None, true) => "the built-in example".into(),
            (None, false) => r
                .local
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// Open on a new worker thread.
    pub fn start(&self) {
        // An object the cluster cannot give is its row's error; the others stay usable.
        let request = OpenRequest {
            fail_alone: true,
            ..self.request.clone()
        };
        let tx = self.tx.clone();
        let reports = self.tx.clone();
        let progress = Progress::new(move |event| {
            let _ = reports.send(Delivery::Report(event, Instant::now()));
        })
        .with_rows();
        std::thread::spawn(move || {
            let result = open_reporting(&request, &progress).and_then(app_of);
            // The progress (and so a sender) lives in the opened cluster connection's
            // watcher; the loop stops listening when the screen is up.
            let _ = tx.send(Delivery::Done(Box::new(result)));
        });
    }

    /// What the workers sent since last asked, as messages; a finished open's command runner
    /// replaces `effects`.
    pub fn messages(&self, effects: &mut Effects) -> Vec<Message> {
        let mut out = Vec::new();
        while let Ok(delivery) = self.rx.try_recv() {
            out.push(match delivery {
                Delivery::Report(event, at) => Message::Report {
                    event: Box::new(event),
                    at,
                },
                Delivery::Done(done) => match *done {
                    Ok((app, opened)) => {
                        *effects = opened;
                        Message::Opened(Parcel::new(app))
                    }
                    Err(e) => Message::OpenFailed(e),
                },
            });
        }
        out
    }
}
