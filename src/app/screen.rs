//! What the TUI runs: the loading screen before the run knows what it opens, one object (the
//! panes), or the object list; and the messages of loading, whatever screen is up (the session's
//! reports, the opened screen arriving, a failure).

use std::time::Instant;

use super::list::{self, List};
use super::loading::{self, Loading};
use super::{Command, Message, ModeKind, Model, update as update_model};
use crate::session::progress::Event;

/// What the TUI runs: one object (the panes), or the object list.
#[derive(Debug)]
pub enum App {
    /// Before the run knows what it opens.
    Loading(Box<Loading>),
    One(Box<Model>),
    Many(Box<List>),
}

impl App {
    /// The keymap mode of what is on screen.
    #[must_use]
    pub fn keymap_mode(&self) -> ModeKind {
        match self {
            App::Loading(_) => ModeKind::Loading,
            App::One(m) => m.mode.kind(),
            App::Many(l) => l.keymap_mode(),
        }
    }

    /// Is there work to do while no key is waiting ([`Message::Idle`])?
    #[must_use]
    pub fn has_idle_work(&self) -> bool {
        let model = match self {
            App::Loading(_) => None,
            App::One(m) => Some(&**m),
            App::Many(l) => l.opened(),
        };
        model.is_some_and(Model::has_idle_work)
    }

    /// Apply a message; returns the effects to run.
    pub fn update(&mut self, message: Message) -> Vec<Command> {
        let message = match route(self, message) {
            Ok(commands) => return commands,
            Err(message) => message,
        };
        match self {
            App::Loading(l) => loading::update(l, message),
            App::One(m) => update_model(m, message),
            App::Many(l) => list::update(l, message),
        }
    }

    /// Is the TUI waiting for the session (the runtime then reports the time passing)?
    #[must_use]
    pub fn is_loading(&self) -> bool {
        match self {
            App::Loading(l) => l.failed.is_none(),
            App::One(_) => false,
            App::Many(l) => l.loading.is_some(),
        }
    }
}

/// The messages of loading, whatever screen is up: `Ok` with the effects when `message` was
/// one of them, else `Err` with it.
fn route(app: &mut App, message: Message) -> Result<Vec<Command>, Message> {
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
