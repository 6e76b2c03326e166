//! The TUI follows the apply mode kubectl will use (issue 20): `--server-side[=BOOL]`, else
//! kubectl's kuberc, resolved as `plan` resolves it. Through the command line's parser, the
//! session's open, the loading screen's `update` and the runtime's command runner; and the
//! real binary in tmux for the kuberc at the default place and `KUBECTL_KUBERC=false`.

use std::path::{Path, PathBuf};

use applyscope::app::{App, Command, Loading, Message, Parcel, Waiting};
use applyscope::cli::Cli;
use clap::Parser as _;

use crate::tmux::{Session, quoted};
use crate::tui_support::screen_text;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/ssa/autoscaled")
}

fn kuberc(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kuberc/files")
        .join(name)
}

/// The screen a run with `flags` opens, once its commands ran, and the first commands.
fn opened(flags: &[&str]) -> (App, Vec<Command>) {
    let local = dir().join("local.yaml");
    let live = dir().join("live.yaml");
    let mut args = vec![
        "applyscope".to_owned(),
        "-f".to_owned(),
        local.display().to_string(),
        "--live".to_owned(),
        live.display().to_string(),
    ];
    args.extend(flags.iter().map(|f| (*f).to_owned()));
    let cli = Cli::try_parse_from(args).unwrap();
    let request = cli.open.request().unwrap();
    let open = applyscope::session::open::open(&request).unwrap();
    let (screen, mut effects) = applyscope::tui::app_of(open).unwrap();
    let mut app = App::Loading(Box::new(Loading::new(String::new(), Waiting::default())));
    app.update(Message::Resized {
        width: 140,
        height: 40,
    });
    let first = app.update(Message::Opened(Parcel::new(screen)));
    let mut commands = first.clone();
    while !commands.is_empty() {
        for c in std::mem::take(&mut commands) {
            if let Some(report) = effects.perform(&c) {
                commands.extend(app.update(report));
            }
        }
    }
    (app, first)
}

fn screen(app: &App) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(140, 40)).unwrap();
    let theme = applyscope::theme::Theme::colour();
    terminal
        .draw(|f| applyscope::ui::view_app(app, &theme, f))
        .unwrap();
    screen_text(terminal.backend().buffer())
}

fn model(app: &App) -> &applyscope::app::Model {
    match app {
        App::One(m) => m,
        _ => panic!("one object"),
    }
}

#[test]
fn tui_mode_a_kuberc_with_server_side_opens_the_server_side_view() {
    let path = kuberc("ssa.yaml");
    let (app, first) = opened(&["--kuberc", &path.display().to_string()]);
    assert!(
        matches!(first.as_slice(), [Command::PlanServerSide(_)]),
        "{first:?}"
    );
    let m = model(&app);
    let server = m.server.as_deref().expect("the server-side view");
    assert_eq!(server.request.manager, "kubectl");
    assert!(server.request.live.is_some());
    let text = screen(&app);
    let status = format!(
        "server-side (field manager kubectl; --kuberc {})",
        path.display()
    );
    assert!(text.contains(&status[..60]), "{text}");
    // S still switches to the client-side plan, and the status line says the run's mode.
    let mut app = app;
    app.update(Message::ToggleServerSide);
    assert!(model(&app).server.is_none());
    app.update(Message::Down);
    assert!(
        screen(&app).contains("client-side (S: the run's server-side apply"),
        "{}",
        screen(&app)
    );
}

#[test]
fn tui_mode_the_kuberc_names_the_manager_and_forces() {
    let path = kuberc("manager.yaml");
    let (app, _) = opened(&["--kuberc", &path.display().to_string()]);
    let server = model(&app).server.as_deref().expect("the server-side view");
    assert_eq!(server.request.manager, "helm");
    assert!(server.request.force, "force-conflicts: \"true\"");
    // The autoscaler's replicas: forced, so no conflict.
    assert!(server.plan().is_some());
    // `--field-manager` wins over the kuberc's.
    let (app, _) = opened(&[
        "--kuberc",
        &path.display().to_string(),
        "--field-manager",
        "ops",
    ]);
    assert_eq!(
        model(&app).server.as_deref().unwrap().request.manager,
        "ops"
    );
}

#[test]
fn tui_mode_explicit_flags_win() {
    let path = kuberc("ssa.yaml");
    let (app, first) = opened(&[
        "--kuberc",
        &path.display().to_string(),
        "--server-side=false",
    ]);
    assert!(first.is_empty(), "{first:?}");
    assert!(model(&app).server.is_none());
    assert!(
        screen(&app).contains("client-side (--server-side on the command line)"),
        "{}",
        screen(&app)
    );
    let (app, _) = opened(&["--server-side"]);
    assert!(model(&app).server.is_some());
    // A kuberc kubectl cannot read, named: the run's error.
    let bad = kuberc("notyaml.yaml");
    let cli = Cli::try_parse_from([
        "applyscope",
        "-f",
        &dir().join("local.yaml").display().to_string(),
        "--kuberc",
        &bad.display().to_string(),
    ])
    .unwrap();
    let e = cli.open.request().unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("notyaml.yaml"), "{e}");
}

#[test]
fn tui_mode_the_object_lists_objects_open_in_the_run_s_mode() {
    let cli = Cli::try_parse_from([
        "applyscope",
        "-f",
        &dir().join("local.yaml").display().to_string(),
        "--server-side",
        "--field-manager",
        "ops",
    ])
    .unwrap();
    let options = cli.open.request().unwrap().options;
    let mut list = crate::list_screen::ListHarness::with(
        &dir().join("local.yaml"),
        &dir().join("live.yaml"),
        options,
    );
    list.resize(140, 40).press("<Enter>");
    let opened = list.list().opened().unwrap();
    let server = opened.server.as_deref().expect("the server-side view");
    assert_eq!(server.request.manager, "ops");
    list.press("S");
    assert!(list.list().opened().unwrap().server.is_none());
}

/// The real binary, with a kuberc at the default place (`$HOME/.kube/kuberc`).
fn tmux_run(test: &str, env: &str, home: &Path) -> Option<Session> {
    let bin = env!("CARGO_BIN_EXE_applyscope");
    let command = format!(
        "env -u KUBERC HOME={} {env} {} -f {} --live {}",
        quoted(home),
        quoted(Path::new(bin)),
        quoted(&dir().join("local.yaml")),
        quoted(&dir().join("live.yaml"))
    );
    Session::start(test, &command, 160, 40)
}

#[test]
fn tmux_tui_mode_follows_the_default_kuberc_unless_turned_off() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join(".kube")).unwrap();
    std::fs::copy(kuberc("ssa.yaml"), home.path().join(".kube/kuberc")).unwrap();
    let Some(session) = tmux_run("tui_mode_kuberc", "", home.path()) else {
        return;
    };
    let screen = session.wait_for("server-side (field manager kubectl; default kuberc");
    assert!(screen.contains("result: server-side"), "{screen}");
    session.keys(&["q"]);
    let (code, _) = session.exit();
    assert_eq!(code, 0);

    let Some(session) = tmux_run("tui_mode_off", "KUBECTL_KUBERC=false", home.path()) else {
        return;
    };
    let screen = session.wait_for("kind: Deployment");
    assert!(!screen.contains("server-side"), "{screen}");
    session.keys(&["q"]);
    let (code, _) = session.exit();
    assert_eq!(code, 0);
}

/// Without a terminal the no-command run prints the client-side text plan; when the mode is
/// server-side it says so on stderr (and nothing when it is client-side).
#[test]
fn tui_mode_without_a_terminal_names_a_server_side_mode() {
    let local = dir().join("local.yaml");
    let live = dir().join("live.yaml");
    let (l, v) = (local.to_str().unwrap(), live.to_str().unwrap());
    let cwd = dir();
    let (code, stdout, stderr) =
        crate::support::run_bin(&["-f", l, "--live", v, "--server-side"], None, &cwd);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("mode: server-side"), "{stderr}");
    assert!(
        stderr.contains("this text plan is client-side's"),
        "{stderr}"
    );
    let (code, plain, stderr) = crate::support::run_bin(&["-f", l, "--live", v], None, &cwd);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(stdout, plain);
}
