//! The runtime: the only part of the TUI that touches the terminal, files and the cluster. It
//! builds the screen from what the session opened ([`run`]), sets the terminal up
//! (`ratatui::init`, whose panic hook restores it), reads events, keeps key presses only,
//! turns keys into messages through the keymap and mouse events into messages through the
//! layout, runs `update`, and runs the commands it returns ([`Effects`]): quit, write a file
//! (guarded, atomic), read the files again (as the session reads them), send a request to the
//! cluster, and run the editor (the TUI is suspended meanwhile). Each command's result goes
//! back to `update` as a message. In cluster mode it keeps the one connection the object was
//! read with, and sends every request through it.
//!
//! A run from the command line ([`run_request`]) draws its first frame before any file or
//! cluster work starts: the session's open runs on a worker (`worker`), whose reports arrive as
//! messages while keys keep working; the time passing is reported ([`Message::Tick`]) while the
//! screen waits. Requests to the cluster run on workers too (the connection goes with each);
//! while one is out, only the keys that leave work.

mod worker;

use std::collections::VecDeque;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, MouseButton, MouseEventKind,
};
use ratatui::crossterm::terminal::{
    BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen, enable_raw_mode,
};
use ratatui::crossterm::{execute, queue};
use ratatui::layout::Rect;

use crate::app::cluster::ClusterReply;
use crate::app::cluster::session::ClusterSession;
use crate::app::{App, Command, List, Loading, Message, Model, Waiting};
use crate::fsutil::{self, FileDigest};
use crate::keymap::{self, Key};
use crate::session::cluster::{Connection, Opened};
use crate::session::files::load;
use crate::session::open::{One, Open};
use crate::session::{Error, OpenRequest};
use crate::theme::Theme;
use crate::ui;
pub use worker::Loader;

/// Restores the terminal when dropped (normal return and errors; panics go through the hook).
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = execute!(io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

/// What runs the commands that need no terminal (a write, a reload, a cluster request), with
/// the cluster connection kept for the run.
#[derive(Debug, Default)]
pub struct Effects {
    connection: Connection,
}

impl Effects {
    /// Commands sent to the cluster go through `connection`.
    #[must_use]
    pub fn new(connection: Connection) -> Effects {
        Effects { connection }
    }

    /// Run a command that needs no terminal and return its report. `Quit` and `Edit` need the
    /// terminal: `None`.
    pub fn perform(&mut self, command: &Command) -> Option<Message> {
        match command {
            Command::WriteFile {
                path,
                content,
                expected,
            } => Some(Message::Written(write(path, content, expected.as_ref()))),
            Command::ReadTarget(path) => Some(Message::TargetRead(read_target(path))),
            Command::Reload(request) => Some(Message::Reloaded(load(request).map(Box::new))),
            Command::Cluster(op) => Some(Message::ClusterDone(Box::new(ClusterReply {
                purpose: op.purpose,
                result: self.connection.send(&op.conn, &op.request),
            }))),
            Command::PlanServerSide(request) => Some(Message::ServerSidePlanned(Box::new(
                request.plan(&crate::session::ssa::now()),
            ))),
            Command::ServerSideApply(op) => Some(Message::ServerSideApplied(Box::new(
                apply_server_side(&mut self.connection, op),
            ))),
            Command::Quit | Command::Edit { .. } | Command::Open => None,
        }
    }
}

/// Send a server-side apply through `connection` (a plan again at the time it ends).
pub(crate) fn apply_server_side(
    connection: &mut Connection,
    op: &crate::app::ssa_apply::op::SsaApplyOp,
) -> crate::app::ssa_apply::op::SsaApplyReply {
    let mut transport = |r: &crate::cluster::Request| connection.send(&op.conn, r);
    op.run(&mut transport, &crate::session::ssa::now)
}

fn write(path: &Path, content: &str, expected: Option<&FileDigest>) -> Result<PathBuf, Error> {
    fsutil::write_guarded_digest(path, content.as_bytes(), expected)?;
    Ok(path.to_owned())
}

/// The file a commit rewrites, as it is now (`None`: it does not exist).
fn read_target(path: &Path) -> Result<Option<Vec<u8>>, Error> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Read {
            path: path.to_owned(),
            source: Arc::new(source),
        }),
    }
}

/// Run the TUI on what the session opened until the user quits, in the theme `NO_COLOR` asks
/// for.
///
/// # Errors
/// [`Error`] when the files of one object cannot be read again; [`Error::Terminal`] on a
/// terminal error.
pub fn run(open: Open) -> Result<(), Error> {
    let (app, effects) = app_of(open)?;
    run_app(app, &theme(), effects, &Loader::opened())
        .map(|_| ())
        .map_err(|e| Error::Terminal(Arc::new(e)))
}

/// Run the TUI on what `request` asks to open: the screen is up at once and says what it
/// waits for while a worker reads and plans; keys work throughout.
///
/// # Errors
/// The open's error when the user quits after it failed; [`Error::Terminal`] on a terminal
/// error.
pub fn run_request(request: OpenRequest) -> Result<(), Error> {
    let loader = Loader::new(request);
    let loading = Loading::new(loader.title(), Waiting::since(Instant::now()));
    let app = App::Loading(Box::new(loading));
    let last = run_app(app, &theme(), Effects::default(), &loader)
        .map_err(|e| Error::Terminal(Arc::new(e)))?;
    match last {
        App::Loading(l) => l.failed.map_or(Ok(()), Err),
        _ => Ok(()),
    }
}

/// The theme `NO_COLOR` asks for.
fn theme() -> Theme {
    let no_color = std::env::var("NO_COLOR").ok();
    Theme::from_no_color(no_color.as_deref())
}

/// The screen of what the session opened, and what runs its commands.
///
/// # Errors
/// [`Error`] when the files of one object cannot be read again.
pub fn app_of(open: Open) -> Result<(App, Effects), Error> {
    match open {
        Open::One(one) => {
            let One {
                source,
                plan,
                files,
                target,
                cluster,
                options,
                server,
                ..
            } = *one;
            let Some(opened) = cluster else {
                // The session read the files once: what is shown, and the bytes a commit checks.
                let mut model = Model::with_plan(source, plan);
                model.edit.options = options;
                model.edit.files = files;
                model.edit.target_digest = target;
                if let Some(server) = &server {
                    crate::app::show_server_answer(&mut model, server);
                }
                return Ok((App::One(Box::new(model)), Effects::default()));
            };
            let Opened {
                connection,
                conn,
                server,
                loaded,
                used,
            } = *opened;
            let session = ClusterSession::new(conn, server, loaded, used);
            let mut model = Model::from_cluster(source, plan, session);
            model.edit.options = options;
            Ok((App::One(Box::new(model)), Effects::new(connection)))
        }
        Open::Many(many) => {
            let title = many.title.clone();
            let options = many.options.clone();
            let list = List::new(title, many.items(), options);
            Ok((App::Many(Box::new(list)), Effects::default()))
        }
    }
}

/// Run the TUI on one object or the object list until the user quits; `loader` starts its
/// open (if any) once the first frame is drawn, and sends the requests to the cluster. Keys come from the terminal even when standard
/// input is a pipe (`kustomize build | applyscope -f -`): crossterm reads `/dev/tty` when
/// standard input is not a terminal. Returns the screen as it was at the end.
///
/// # Errors
/// Terminal I/O errors.
pub fn run_app(app: App, theme: &Theme, mut effects: Effects, loader: &Loader) -> io::Result<App> {
    // Installed before ratatui's hook, so it runs after ratatui has restored the terminal.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(io::stdout(), DisableMouseCapture);
        previous(info);
    }));
    let mut terminal = ratatui::init();
    let _restore = Restore;
    execute!(io::stdout(), EnableMouseCapture)?;
    event_loop(&mut terminal, app, theme, &mut effects, loader)
}

/// How often the screen says the time while it waits.
const TICK: Duration = Duration::from_millis(100);

fn event_loop(
    terminal: &mut DefaultTerminal,
    mut app: App,
    theme: &Theme,
    effects: &mut Effects,
    loader: &Loader,
) -> io::Result<App> {
    let size = terminal.size()?;
    let mut area = Rect::new(0, 0, size.width, size.height);
    // What the model opened with (kubectl diff's note) stays past this first report.
    let opened_with = match &app {
        App::One(model) => model.notice.clone(),
        App::Many(_) | App::Loading(_) => None,
    };
    app.update(Message::Resized {
        width: size.width,
        height: size.height,
    });
    if let (App::One(model), Some(notice)) = (&mut app, opened_with) {
        model.notice = Some(notice);
    }
    let mut first = true;
    loop {
        // One frame reaches the terminal in several writes: a terminal that knows synchronized
        // output shows it whole; others ignore the two sequences.
        queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
        terminal.draw(|frame| ui::view_app(&app, theme, frame))?;
        execute!(terminal.backend_mut(), EndSynchronizedUpdate)?;
        if std::mem::take(&mut first) {
            loader.start();
        }
        // While the user reads the screen, prepare what the next keys may need.
        while app.has_idle_work() && !event::poll(Duration::ZERO)? {
            app.update(Message::Idle);
        }
        // While the screen waits, the time passing is news; else only events are.
        let waiting = app.is_loading() || loader.busy();
        let message = if !waiting || event::poll(TICK)? {
            message_of(&event::read()?, &app, &mut area)
        } else {
            Some(Message::Tick(Instant::now()))
        };
        // While a request is out, only leaving works (the screen says what was sent).
        let message = message.filter(|m| {
            !loader.busy()
                || matches!(
                    m,
                    Message::Quit | Message::Back | Message::Resized { .. } | Message::Tick(_)
                )
        });
        let mut queue: VecDeque<Message> = message.into_iter().collect();
        queue.extend(loader.messages(effects));
        while let Some(message) = queue.pop_front() {
            for command in app.update(message) {
                match command {
                    Command::Quit => return Ok(app),
                    Command::Open => loader.start(),
                    Command::Edit { text } => {
                        queue.push_back(Message::EditorDone(edit_suspended(terminal, &text)?));
                    }
                    Command::Cluster(op) => {
                        // "sending…" shows while the request runs, on a worker with the
                        // connection; keys that leave still work.
                        let connection = std::mem::take(&mut effects.connection);
                        loader.send(*op, connection);
                    }
                    Command::ServerSideApply(op) => {
                        let connection = std::mem::take(&mut effects.connection);
                        loader.apply_server_side(*op, connection);
                    }
                    other => queue.extend(effects.perform(&other)),
                }
            }
        }
    }
}

/// The message of a terminal event, if any (`area`: the screen, kept up to date).
fn message_of(event: &Event, app: &App, area: &mut Rect) -> Option<Message> {
    match event {
        Event::Key(key) if key.is_press() => {
            #[cfg(debug_assertions)]
            panic_on_test_key(key);
            keymap::resolve(app.keymap_mode(), Key::from_event(key))
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(Message::Down),
            MouseEventKind::ScrollUp => Some(Message::Up),
            MouseEventKind::Down(MouseButton::Left) => ui::click_app(app, *area, m.column, m.row),
            _ => None,
        },
        Event::Resize(width, height) => {
            *area = Rect::new(0, 0, *width, *height);
            Some(Message::Resized {
                width: *width,
                height: *height,
            })
        }
        _ => None,
    }
}

/// Debug builds only: `APPLYSCOPE_TEST_PANIC_KEY=c` makes key `c` panic, so a test can check
/// (under tmux) that a panic anywhere in the event loop restores the terminal.
#[cfg(debug_assertions)]
fn panic_on_test_key(key: &event::KeyEvent) {
    if let (Some(wanted), event::KeyCode::Char(c)) =
        (std::env::var_os("APPLYSCOPE_TEST_PANIC_KEY"), key.code)
        && wanted.to_str().and_then(|w| w.chars().next()) == Some(c)
    {
        panic!("test panic on key {c:?} (APPLYSCOPE_TEST_PANIC_KEY)");
    }
}

/// Leave the TUI, run the editor on `text`, come back. The outer error is the terminal's;
/// the inner one is the editor's (reported to `update`).
fn edit_suspended(terminal: &mut DefaultTerminal, text: &str) -> io::Result<Result<String, Error>> {
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    let result = run_editor(text);
    // ratatui::init's terminal steps, without installing its panic hook again.
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    terminal.clear()?;
    Ok(result)
}

/// The editor kubectl would use: `$KUBE_EDITOR`, else `$EDITOR`, else `vi`.
#[must_use]
pub fn editor_command() -> String {
    ["KUBE_EDITOR", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".into())
}

/// Write `text` to a private temp file, run the editor on it, read it back, remove it.
///
/// # Errors
/// The editor could not run or failed; the temp file could not be written or read.
pub fn run_editor(text: &str) -> Result<String, Error> {
    // Removed when dropped, whatever happens (the document may hold a Secret's data; the file
    // is created readable by its owner only).
    let file = temp_file(text).map_err(|e| Error::TempFile(Arc::new(e)))?;
    let path = file.path();
    let editor = editor_command();
    // As kubectl: a command with spaces (`code --wait`) goes through the shell.
    let mut command = if editor.contains(' ') {
        let mut c = std::process::Command::new("sh");
        c.arg("-c").arg(shell_line(&editor, path)?);
        c
    } else {
        let mut c = std::process::Command::new(&editor);
        c.arg(path);
        c
    };
    // With the documents piped in (`-f -`), standard input is spent: the editor reads the
    // terminal, as the TUI does.
    if !io::IsTerminal::is_terminal(&io::stdin())
        && let Ok(tty) = std::fs::File::open("/dev/tty")
    {
        command.stdin(tty);
    }
    let status = command.status().map_err(|e| Error::EditorStart {
        editor: editor.clone(),
        source: Arc::new(e),
    })?;
    if !status.success() {
        return Err(Error::EditorExit { editor, status });
    }
    std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
}

fn temp_file(text: &str) -> io::Result<tempfile::NamedTempFile> {
    use std::io::Write as _;
    let mut file = tempfile::Builder::new()
        .prefix("applyscope-edit-")
        .suffix(".yaml")
        .tempfile()?;
    file.write_all(text.as_bytes())?;
    file.as_file().sync_all()?;
    Ok(file)
}

/// The shell command line that runs `editor` on `path` (the path quoted for the shell).
fn shell_line(editor: &str, path: &Path) -> Result<String, Error> {
    let path = path.to_string_lossy();
    // A path the shell cannot be given (a NUL byte): the message names it.
    let quoted = shlex::try_quote(&path).map_err(|e| Error::Failed(format!("{path}: {e}")))?;
    Ok(format!("{editor} {quoted}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_is_quoted_for_the_shell() {
        let line = shell_line("code --wait", Path::new("/tmp/it's a b.yaml")).unwrap();
        assert_eq!(
            shlex::split(&line).unwrap(),
            ["code", "--wait", "/tmp/it's a b.yaml"]
        );
    }

    #[test]
    fn the_temp_file_is_private_and_removed() {
        let file = temp_file("a: 1\n").unwrap();
        let path = file.path().to_owned();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 1\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        drop(file);
        assert!(!path.exists());
    }
}
