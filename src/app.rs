//! The TUI's state and logic, Elm-style: a [`Model`], [`Message`]s named by intent, and a pure
//! [`update`] that returns effects as [`Command`]s. No terminal, no files: the runtime
//! (`tui`) feeds messages in and runs the commands; the view (`ui`) only reads the model.

pub mod cluster;
pub mod commit;
mod confirm;
mod destination;
pub mod edit;
pub mod editor;
pub mod keys;
pub mod lines;
pub mod list;
pub mod loading;
mod marks;
mod mode;
mod model;
pub mod patch;
pub mod project;
mod replan;
pub mod screen;
pub mod ssa;
pub mod ssa_apply;
pub mod ssa_mode;
pub mod why;
pub mod yaml;

use std::path::PathBuf;
use std::time::Instant;

pub use crate::session::{Docs, EditOptions, Error, Files, Loaded, ReloadRequest, Source};
pub use confirm::{AnnotationPreview, CommitPreview, DiffTag};
pub use edit::EditState;
pub use editor::EditorSession;
pub use list::List;
pub use loading::{Loading, Parcel, Waiting};
pub use mode::{Mode, ModeKind, PatchView, Search};
pub use model::{Model, Pane, PaneKind};
pub use screen::App;

use crate::fsutil::FileDigest;
use crate::session::progress::Event;

/// What the user (or the runtime) asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Down,
    Up,
    PageDown,
    PageUp,
    Top,
    Bottom,
    NextChange,
    PrevChange,
    NextPane,
    PrevPane,
    ToggleWhy,
    TogglePatch,
    ToggleSecrets,
    Fold,
    OpenSearch,
    OpenWarnings,
    OpenHelp,
    OpenLegend,
    /// A character typed into the search query.
    Type(char),
    Backspace,
    /// Go to the selection (search match, warning).
    Accept,
    /// Close the overlay.
    Back,
    Quit,
    /// Select a pane and a field (mouse click): pane index, field index in the plan.
    Select {
        pane: usize,
        field: usize,
    },
    /// The terminal's size (the runtime reports it).
    Resized {
        width: u16,
        height: u16,
    },
    /// Drop the selected field from last-applied (hand it over).
    DropField,
    /// Copy the selected field's live value into last-applied (take it over).
    AdoptField,
    /// Edit the whole last-applied document in an editor.
    EditLastApplied,
    Undo,
    Redo,
    /// Open the commit confirmation.
    Commit,
    /// Yes (the commit confirmation).
    Confirm,
    /// Show the annotation a commit would store, and its sizes.
    ShowAnnotation,
    /// Read the files again.
    Reload,
    /// The editor closed (the runtime reports it): the saved text, or why it could not run.
    EditorDone(Result<String, Error>),
    /// A write finished (the runtime reports it): the path written, or why not.
    Written(Result<PathBuf, Error>),
    /// A reload finished (the runtime reports it).
    Reloaded(Result<Box<Loaded>, Error>),
    /// The file a commit writes, read for its confirmation (`None`: it does not exist).
    TargetRead(Result<Option<Vec<u8>>, Error>),
    /// Cluster mode: apply (a server dry run, then a confirmation).
    ClusterApply,
    /// Cluster mode: show or hide `metadata.managedFields`.
    ToggleManagedFields,
    /// Cluster mode: a request finished (the runtime reports it).
    ClusterDone(Box<cluster::ClusterReply>),
    /// No key is waiting (the runtime reports it): prepare what a key may soon need (the patch
    /// view's documents, which take a while to write for a big object), changing nothing shown.
    Idle,
    /// Time passes while the TUI waits (the runtime reports it, about ten times a second).
    Tick(Instant),
    /// Loading: what the session reported, stamped with when it arrived.
    Report {
        event: Box<Event>,
        at: Instant,
    },
    /// Loading finished: the screen it opened.
    Opened(Parcel<App>),
    /// Loading failed: why.
    OpenFailed(Error),
    /// Loading failed: try again.
    Retry,
    /// Switch between the client-side and the server-side plan.
    ToggleServerSide,
    /// Show or hide each line's owners.
    ToggleOwners,
    /// kubectl's server-side requests, step by step.
    OpenSteps,
    /// A server-side plan finished (the runtime reports it).
    ServerSidePlanned(Box<Result<crate::session::ssa::SsaOutcome, Error>>),
    /// Cluster mode: a server-side apply (dry run, or kubectl's sequence) finished.
    ServerSideApplied(Box<ssa_apply::op::SsaApplyReply>),
}

/// Effects, run by the runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Quit,
    /// Write `content` to `path` if the file still holds `expected` (`None`: must not exist);
    /// atomically, keeping a `.bak`. Reported back as [`Message::Written`].
    WriteFile {
        path: PathBuf,
        content: String,
        expected: Option<FileDigest>,
    },
    /// Read the file a commit rewrites; reported back as [`Message::TargetRead`].
    ReadTarget(PathBuf),
    /// Run the editor on `text`; reported back as [`Message::EditorDone`].
    Edit {
        text: String,
    },
    /// Read the files again; reported back as [`Message::Reloaded`].
    Reload(ReloadRequest),
    /// Send a request to the cluster; reported back as [`Message::ClusterDone`].
    Cluster(Box<cluster::ClusterOp>),
    /// Open what the run was asked to open (again), on a worker; reported back as
    /// [`Message::Report`]s, then [`Message::Opened`] or [`Message::OpenFailed`].
    Open,
    /// Plan a server-side apply at the current time; reported back as
    /// [`Message::ServerSidePlanned`].
    PlanServerSide(Box<crate::session::ssa::SsaRequest>),
    /// Send a server-side apply through the cluster connection (on a worker); reported back
    /// as [`Message::ServerSideApplied`].
    ServerSideApply(Box<ssa_apply::op::SsaApplyOp>),
}

/// The help screen's last scroll position: its last line at the bottom of the box (the body
/// less the box's borders).
fn help_max_scroll(model: &Model) -> usize {
    let inner = usize::from(model.size.1).saturating_sub(4);
    keys::help_len().saturating_sub(inner)
}

/// `kubectl diff`'s server answer (its MERGED object) in the result pane, in place of the
/// planned result, and what applyscope says about it in the status bar.
pub fn show_server_answer(model: &mut Model, server: &crate::session::open::ServerAnswer) {
    model.show_server_result(&server.answer);
    model.notice = Some(server.note.clone());
}

/// Apply a message to the model; returns the effects to run.
pub fn update(model: &mut Model, message: Message) -> Vec<Command> {
    if message == Message::Idle {
        model.idle();
        return Vec::new();
    }
    model.notice = None;
    let message = match message {
        Message::Resized { width, height } => {
            model.size = (width, height);
            return Vec::new();
        }
        Message::EditorDone(result) => return editor::done(model, result),
        Message::Written(result) => {
            commit::written(model, result);
            return Vec::new();
        }
        Message::Reloaded(result) => {
            commit::reloaded(model, result);
            return Vec::new();
        }
        Message::TargetRead(result) => return commit::target_read(model, result),
        Message::ClusterDone(reply) => return cluster::done(model, *reply),
        Message::ServerSidePlanned(result) => {
            ssa::planned(model, *result);
            return Vec::new();
        }
        Message::ServerSideApplied(reply) => return ssa_apply::done(model, *reply),
        other => other,
    };
    let mode = std::mem::take(&mut model.mode);
    let (mode, commands) = match mode {
        Mode::Browse => browse(model, message),
        Mode::Search(s) => search(model, s, message),
        Mode::Patch(p) => patch_view(model, p, message),
        Mode::Warnings(i) => warnings(model, i, message),
        Mode::Help { scroll, back } => match message {
            Message::Down => (
                Mode::Help {
                    scroll: (scroll + 1).min(help_max_scroll(model)),
                    back,
                },
                Vec::new(),
            ),
            Message::Up => (
                Mode::Help {
                    scroll: scroll.saturating_sub(1),
                    back,
                },
                Vec::new(),
            ),
            Message::Back => (*back, Vec::new()),
            Message::Quit => (*back, vec![Command::Quit]),
            _ => (Mode::Help { scroll, back }, Vec::new()),
        },
        Mode::Legend => match message {
            Message::Back => (Mode::Browse, Vec::new()),
            Message::Quit => (Mode::Browse, vec![Command::Quit]),
            _ => (Mode::Legend, Vec::new()),
        },
        Mode::Confirm(p) => confirm(model, *p, message),
        Mode::Annotation { scroll, preview } => match message {
            Message::Down | Message::Up => {
                let scroll = if message == Message::Down {
                    (scroll + 1).min(preview.rows(model.overlay_width()).saturating_sub(1))
                } else {
                    scroll.saturating_sub(1)
                };
                (Mode::Annotation { scroll, preview }, Vec::new())
            }
            Message::Back => (Mode::Browse, Vec::new()),
            _ => (Mode::Annotation { scroll, preview }, Vec::new()),
        },
        Mode::Refused(why) => match message {
            Message::Reload => destination::reload(model),
            Message::Back => (Mode::Browse, Vec::new()),
            _ => (Mode::Refused(why), Vec::new()),
        },
        // The runtime is running the editor; only its report (above) ends this mode.
        Mode::Editor(s) => (Mode::Editor(s), Vec::new()),
        Mode::Steps(scroll) => match message {
            Message::Down => (Mode::Steps(scroll + 1), Vec::new()),
            Message::Up => (Mode::Steps(scroll.saturating_sub(1)), Vec::new()),
            Message::Back => (Mode::Browse, Vec::new()),
            Message::Quit => (Mode::Browse, vec![Command::Quit]),
            _ => (Mode::Steps(scroll), Vec::new()),
        },
    };
    model.mode = mode;
    commands
}

fn browse(model: &mut Model, message: Message) -> (Mode, Vec<Command>) {
    let page = model.page();
    match message {
        Message::Down => model.move_by(1),
        Message::Up => model.move_by(-1),
        Message::PageDown => model.move_by(page),
        Message::PageUp => model.move_by(-page),
        Message::Top => model.cursor = 0,
        Message::Bottom => model.cursor = model.nav.len().saturating_sub(1),
        Message::NextChange => model.next_change(true),
        Message::PrevChange => model.next_change(false),
        Message::NextPane => model.focus = (model.focus + 1) % model.panes.len(),
        Message::PrevPane => {
            model.focus = (model.focus + model.panes.len() - 1) % model.panes.len();
        }
        Message::ToggleWhy => model.why = !model.why,
        Message::ToggleSecrets => {
            model.reveal = !model.reveal;
            model.patches = None;
            model.notice = Some(if model.reveal {
                "secrets revealed".into()
            } else {
                "secrets masked".into()
            });
        }
        Message::Fold => model.toggle_fold(),
        Message::TogglePatch => {
            model.ensure_patches();
            return (Mode::Patch(PatchView::default()), Vec::new());
        }
        Message::OpenWarnings => {
            if model.warning_count() == 0 {
                model.notice = Some("no warnings".into());
            } else {
                return (Mode::Warnings(0), Vec::new());
            }
        }
        Message::OpenSearch => {
            return (
                Mode::Search(Search {
                    origin: model.cursor,
                    ..Search::default()
                }),
                Vec::new(),
            );
        }
        Message::OpenHelp => {
            return (
                Mode::Help {
                    scroll: 0,
                    back: Box::new(Mode::Browse),
                },
                Vec::new(),
            );
        }
        Message::OpenLegend => return (Mode::Legend, Vec::new()),
        Message::DropField => edit::drop_field(model),
        Message::AdoptField => edit::adopt_field(model),
        Message::Undo => edit::undo(model),
        Message::Redo => edit::redo(model),
        Message::EditLastApplied => return editor::open(model),
        Message::Commit => return destination::commit(model),
        Message::Reload => return destination::reload(model),
        Message::ClusterApply => return destination::apply(model),
        Message::ToggleManagedFields => cluster::toggle_managed_fields(model),
        Message::ToggleServerSide => return (Mode::Browse, ssa::toggle(model)),
        Message::ToggleOwners => ssa::toggle_owners(model),
        Message::OpenSteps => return (ssa::open_steps(model), Vec::new()),
        Message::ShowAnnotation => {
            let preview = Box::new(confirm::annotation_preview(model));
            return (Mode::Annotation { scroll: 0, preview }, Vec::new());
        }
        Message::Select { pane, field } => {
            if pane < model.panes.len() {
                model.focus = pane;
            }
            model.select_field(field);
        }
        // `Back` returns to the object list; with one object there is nothing to go back to.
        Message::Quit | Message::Back => return (Mode::Browse, vec![Command::Quit]),
        _ => {}
    }
    (Mode::Browse, Vec::new())
}

fn search(model: &mut Model, mut s: Search, message: Message) -> (Mode, Vec<Command>) {
    match message {
        Message::Type(c) => {
            s.query.push(c);
            model.run_search(&mut s);
        }
        Message::Backspace => {
            s.query.pop();
            model.run_search(&mut s);
        }
        Message::Down | Message::Up if !s.matches.is_empty() => {
            let n = s.matches.len();
            s.at = if message == Message::Down {
                (s.at + 1) % n
            } else {
                (s.at + n - 1) % n
            };
            model.select_field(s.matches[s.at]);
        }
        Message::Accept => {
            model.notice = Some(match s.matches.len() {
                0 => format!("no match for {:?}", s.query),
                n => format!("match {} of {n} for {:?}", s.at + 1, s.query),
            });
            return (Mode::Browse, Vec::new());
        }
        Message::Back => {
            model.cursor = s.origin;
            return (Mode::Browse, Vec::new());
        }
        Message::Quit => return (Mode::Browse, vec![Command::Quit]),
        _ => {}
    }
    (Mode::Search(s), Vec::new())
}

fn patch_view(model: &mut Model, mut p: PatchView, message: Message) -> (Mode, Vec<Command>) {
    model.ensure_patches();
    let tabs = model.patches.as_ref().map_or(1, Vec::len).max(1);
    let len = model
        .patches
        .as_ref()
        .and_then(|d| d.get(p.tab))
        .map_or(0, |d| d.lines.len());
    let page = model.page();
    let scroll_by = |p: &mut PatchView, by: isize| {
        p.scroll = p
            .scroll
            .saturating_add_signed(by)
            .min(len.saturating_sub(1));
    };
    match message {
        Message::NextPane => {
            p = PatchView {
                tab: (p.tab + 1) % tabs,
                scroll: 0,
            }
        }
        Message::PrevPane => {
            p = PatchView {
                tab: (p.tab + tabs - 1) % tabs,
                scroll: 0,
            }
        }
        Message::Down => scroll_by(&mut p, 1),
        Message::Up => scroll_by(&mut p, -1),
        Message::PageDown => scroll_by(&mut p, page),
        Message::PageUp => scroll_by(&mut p, -page),
        Message::Top => p.scroll = 0,
        Message::Bottom => p.scroll = len.saturating_sub(1),
        Message::Back => return (Mode::Browse, Vec::new()),
        Message::OpenHelp => {
            return (
                Mode::Help {
                    scroll: 0,
                    back: Box::new(Mode::Patch(p)),
                },
                Vec::new(),
            );
        }
        Message::Quit => return (Mode::Browse, vec![Command::Quit]),
        _ => {}
    }
    model.ensure_patch_tab(p.tab);
    (Mode::Patch(p), Vec::new())
}

fn warnings(model: &mut Model, selected: usize, message: Message) -> (Mode, Vec<Command>) {
    let n = model.warning_count().max(1);
    match message {
        Message::Down => return (Mode::Warnings((selected + 1) % n), Vec::new()),
        Message::Up => return (Mode::Warnings((selected + n - 1) % n), Vec::new()),
        Message::Accept => {
            let field = if model.server.is_some() {
                model.ssa_warning_field(selected)
            } else {
                model.warning_field(selected)
            };
            match field {
                Some(field) => {
                    model.select_field(field);
                    model.why = true;
                }
                None => model.notice = Some("this warning concerns the whole object".into()),
            }
            return (Mode::Browse, Vec::new());
        }
        Message::Back => return (Mode::Browse, Vec::new()),
        Message::Quit => return (Mode::Browse, vec![Command::Quit]),
        _ => {}
    }
    (Mode::Warnings(selected), Vec::new())
}

fn confirm(model: &mut Model, mut p: CommitPreview, message: Message) -> (Mode, Vec<Command>) {
    match message {
        Message::Confirm => return destination::confirm(model, p),
        Message::Back => return (Mode::Browse, Vec::new()),
        Message::Down => p.scroll += 1,
        Message::Up => p.scroll = p.scroll.saturating_sub(1),
        Message::PageDown => p.scroll += model.page().unsigned_abs(),
        Message::PageUp => p.scroll = p.scroll.saturating_sub(model.page().unsigned_abs()),
        Message::Top => p.scroll = 0,
        _ => {}
    }
    p.scroll = p
        .scroll
        .min(p.rows(model.overlay_width()).saturating_sub(1));
    (Mode::Confirm(Box::new(p)), Vec::new())
}
