//! The workers: the session's open runs on a thread of its own, so the screen is up at once
//! and keys work while files are read and the cluster answers (or does not); so does each
//! request to the cluster (the connection goes with it and comes back with the answer). Their
//! reports and results come back over a channel; the event loop drains it into messages. A
//! worker still waiting when the user quits is abandoned: the process exits without it.

use std::cell::Cell;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

use super::{Effects, app_of};
use crate::app::cluster::{ClusterOp, ClusterReply};
use crate::app::ssa_apply::op::{SsaApplyOp, SsaApplyReply};
use crate::app::{App, Message, Parcel};
use crate::session::Error;
use crate::session::cluster::Connection;
use crate::session::open::{OpenRequest, open_reporting};
use crate::session::progress::{Event, Progress};

/// What a worker sends.
enum Delivery {
    /// A report, and when it was made.
    Report(Event, Instant),
    /// The screen it opened and what runs its commands, or why it could not.
    Done(Box<Result<(App, Effects), Error>>),
    /// A request's answer, and the connection it went through.
    Answer(Box<(Connection, ClusterReply)>),
    /// A server-side apply's answer, and the connection it went through.
    ServerSide(Box<(Connection, SsaApplyReply)>),
}

/// What a run opens, and the channel its workers report on.
pub struct Loader {
    /// `None`: the screen was opened already.
    request: Option<OpenRequest>,
    tx: Sender<Delivery>,
    rx: Receiver<Delivery>,
    /// Requests to the cluster not answered yet.
    out: Cell<usize>,
}

impl Loader {
    /// Workers that open `request`.
    #[must_use]
    pub fn new(request: OpenRequest) -> Loader {
        Loader::with(Some(request))
    }

    /// Workers for a screen opened already (its requests to the cluster).
    #[must_use]
    pub fn opened() -> Loader {
        Loader::with(None)
    }

    fn with(request: Option<OpenRequest>) -> Loader {
        let (tx, rx) = channel();
        Loader {
            request,
            tx,
            rx,
            out: Cell::new(0),
        }
    }

    /// Is a request to the cluster out?
    #[must_use]
    pub fn busy(&self) -> bool {
        self.out.get() > 0
    }

    /// Send a request on a worker, through `connection` (which comes back with the answer).
    pub fn send(&self, op: ClusterOp, mut connection: Connection) {
        self.out.set(self.out.get() + 1);
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            let reply = ClusterReply {
                purpose: op.purpose,
                result: connection.send(&op.conn, &op.request),
            };
            let _ = tx.send(Delivery::Answer(Box::new((connection, reply))));
        });
    }

    /// Send a server-side apply (its dry run, or kubectl's sequence) on a worker, through
    /// `connection` (which comes back with the answer).
    pub fn apply_server_side(&self, op: SsaApplyOp, mut connection: Connection) {
        self.out.set(self.out.get() + 1);
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            let reply = super::apply_server_side(&mut connection, &op);
            let _ = tx.send(Delivery::ServerSide(Box::new((connection, reply))));
        });
    }

    /// What is being opened, for the loading screen's header.
    #[must_use]
    pub fn title(&self) -> String {
        let Some(r) = &self.request else {
            return String::new();
        };
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

    /// Open on a new worker thread (nothing when the screen was opened already).
    pub fn start(&self) {
        let Some(request) = &self.request else {
            return;
        };
        // An object the cluster cannot give is its row's error; the others stay usable.
        let request = OpenRequest {
            fail_alone: true,
            ..request.clone()
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
                Delivery::Answer(answer) => {
                    let (connection, reply) = *answer;
                    effects.connection = connection;
                    self.out.set(self.out.get().saturating_sub(1));
                    Message::ClusterDone(Box::new(reply))
                }
                Delivery::ServerSide(answer) => {
                    let (connection, reply) = *answer;
                    effects.connection = connection;
                    self.out.set(self.out.get().saturating_sub(1));
                    Message::ServerSideApplied(Box::new(reply))
                }
            });
        }
        out
    }
}
