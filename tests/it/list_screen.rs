//! The object list (input holding several objects): key scripts through the real keymap and
//! `update` (no terminal) with the runtime's file commands run as the runtime runs them, the
//! risk order, edits reflected in the rows, snapshots, and a tmux run reading the objects
//! from standard input and the keys from the terminal.

use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::time::{Duration, Instant};

use applyscope::app::list::{ListMode, Object};
use applyscope::app::{App, Command, EditOptions, List, ModeKind};
use applyscope::engine::plan::Code;
use applyscope::keymap::{self, parse_keys};
use applyscope::session::OpenRequest;
use applyscope::session::risk::Risk;
use applyscope::theme::Theme;
use applyscope::ui;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const SHOP: &str = "assets/apps/shop";

pub struct ListHarness {
    pub app: App,
    pub theme: Theme,
    pub size: (u16, u16),
    pub quit: bool,
}

impl ListHarness {
    /// The list of `local` against `live` (relative paths keep snapshots the same everywhere).
    pub fn of(local: &Path, live: &Path) -> ListHarness {
        ListHarness::with(local, live, EditOptions::default())
    }

    /// The list, its objects opened with `options`.
    pub fn with(local: &Path, live: &Path, options: EditOptions) -> ListHarness {
        let request = OpenRequest {
            local: vec![local.to_owned()],
            live: vec![live.to_owned()],
            ..OpenRequest::default()
        };
        let items = applyscope::session::open::items(&request).unwrap();
        let list = List::new(applyscope::session::open::title(&request), items, options);
        let mut h = ListHarness {
            app: App::Many(Box::new(list)),
            theme: Theme::colour(),
            size: (100, 30),
            quit: false,
        };
        h.resize(100, 30);
        h
    }

    pub fn shop() -> ListHarness {
        let root = PathBuf::from(SHOP);
        ListHarness::of(&root.join("local"), &root.join("live"))
    }

    pub fn list(&self) -> &List {
        match &self.app {
            App::Many(l) => l,
            App::One(_) | App::Loading(_) => panic!("not a list"),
        }
    }

    pub fn resize(&mut self, width: u16, height: u16) -> &mut Self {
        self.size = (width, height);
        self.send(applyscope::app::Message::Resized { width, height })
    }

    /// Send a message and run the commands as the runtime does (files are read and written;
    /// the editor is not run).
    pub fn send(&mut self, message: applyscope::app::Message) -> &mut Self {
        let mut queue = std::collections::VecDeque::from([message]);
        while let Some(m) = queue.pop_front() {
            for command in self.app.update(m) {
                match command {
                    Command::Quit => self.quit = true,
                    Command::Edit { .. } => panic!("no editor in these tests"),
                    other => queue.extend(applyscope::tui::Effects::default().perform(&other)),
                }
            }
        }
        self
    }

    pub fn press(&mut self, script: &str) -> &mut Self {
        for key in parse_keys(script).unwrap() {
            let mode = self.app.keymap_mode();
            let message = keymap::resolve(mode, key)
                .unwrap_or_else(|| panic!("{key} is unbound in {mode:?}"));
            self.send(message);
        }
        self
    }

    /// Each row: `risk kind namespace/name`.
    pub fn rows(&self) -> Vec<String> {
        self.list()
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} {} {}/{}",
                    r.summary.risk().label(),
                    r.key.kind,
                    r.key.namespace,
                    r.key.name
                )
            })
            .collect()
    }

    pub fn buffer(&self) -> Buffer {
        let (w, h) = self.size;
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        ui::render_app(&self.app, &self.theme, buf.area, &mut buf);
        buf
    }

    pub fn text(&self) -> String {
        crate::tui_support::screen_text(&self.buffer())
    }
}

#[test]
fn list_is_sorted_riskiest_first() {
    let h = ListHarness::shop();
    assert_eq!(
        h.rows(),
        [
            "error ConfigMap shop/payments",
            "rejects Service shop/web",
            "warning Deployment shop/web",
            "warning Widget shop/gadget",
            "notice ServiceAccount shop/web",
            "removes Deployment shop/api",
            "removes ConfigMap shop/web-config",
            "changes Deployment shop/worker",
            "changes Role shop/web",
            "adds ConfigMap shop/feature-flags",
            "none HorizontalPodAutoscaler shop/web",
            "none Namespace /shop",
            "none RoleBinding shop/web",
        ]
    );
    // The classes never go up the list; within one, more removals come first.
    let risks: Vec<Risk> = h.list().rows.iter().map(|r| r.summary.risk()).collect();
    assert!(risks.windows(2).all(|w| w[0] >= w[1]), "{risks:?}");
    let api = &h.list().rows[5].summary;
    let config = &h.list().rows[6].summary;
    assert!(api.removals() >= config.removals());
    assert_eq!(
        h.list().rows[0]
            .summary
            .error
            .as_deref()
            .map(|e| e.contains("not JSON")),
        Some(true)
    );
    assert_eq!(h.list().rows[1].summary.codes, [Code::ImmutableField]);
}

#[test]
fn list_moves_with_the_keymap_and_scrolls() {
    let mut h = ListHarness::shop();
    h.resize(100, 13); // 5 rows on screen
    assert_eq!(applyscope::app::list::visible_rows(13), 5);
    let at = |h: &ListHarness| (h.list().cursor, h.list().top);
    h.press("j <Down>");
    assert_eq!(at(&h), (2, 0));
    h.press("k <Up> k");
    assert_eq!(at(&h), (0, 0), "stays at the top");
    h.press("<PageDown>");
    assert_eq!(at(&h), (5, 1));
    h.press("<C-d> <C-d>");
    assert_eq!(at(&h), (12, 8), "stops at the last row");
    h.press("<PageUp>");
    assert_eq!(at(&h), (7, 7));
    h.press("<C-u> g");
    assert_eq!(at(&h), (0, 0));
    h.press("G");
    assert_eq!(at(&h), (12, 8));
    h.press("<Home>");
    assert_eq!(at(&h), (0, 0));
    h.press("<End> k");
    assert_eq!(at(&h), (11, 8));
    let text = h.text();
    assert!(text.contains("▶ none"), "{text}");
    h.press("? j k");
    assert_eq!(h.list().mode, ListMode::Help(0));
    assert!(h.text().contains("object list"));
    h.press("<Esc>");
    assert_eq!(h.list().mode, ListMode::Browse);
    h.press("q");
    assert!(h.quit);
}

#[test]
fn enter_opens_the_panes_and_esc_returns_with_the_cursor_kept() {
    let mut h = ListHarness::shop();
    h.press("j j");
    assert_eq!(h.app.keymap_mode(), ModeKind::List);
    h.press("<Enter>");
    assert_eq!(h.app.keymap_mode(), ModeKind::Browse);
    let model = h.list().opened().unwrap();
    assert!(
        model.title.starts_with("3/13 Deployment.apps shop/web"),
        "{}",
        model.title
    );
    assert_eq!(model.size, (100, 30), "the object gets the terminal's size");
    assert!(h.text().contains("last-applied"), "the panes are drawn");
    // Keys of the panes work, overlays close with Esc without leaving the object.
    h.press("j p <Esc> ! <Esc>");
    assert_eq!(h.app.keymap_mode(), ModeKind::Browse);
    h.press("<Esc>");
    assert_eq!(h.app.keymap_mode(), ModeKind::List);
    assert_eq!(h.list().cursor, 2);
    assert!(h.list().open.is_none());
    // Reopening keeps the object's state (the cursor moved by `j` above).
    h.press("<Enter>");
    assert_eq!(h.list().opened().unwrap().cursor, 1);
    // q quits from inside an object too.
    h.press("q");
    assert!(h.quit);
}

#[test]
fn a_failed_row_shows_its_error_and_does_not_open() {
    let mut h = ListHarness::shop();
    h.press("<Enter>");
    assert_eq!(h.app.keymap_mode(), ModeKind::List);
    assert!(matches!(h.list().rows[0].object, Object::Failed));
    let notice = h.list().notice.clone().unwrap();
    assert!(
        notice.contains("failed to plan") && notice.contains("not JSON"),
        "{notice}"
    );
    assert!(h.text().contains("not JSON"));
}

#[test]
fn single_object_esc_still_quits() {
    let mut h = crate::tui_support::Harness::example("nginx-scale-image");
    h.press("<Esc>");
    assert!(h.quit_requested());
}

/// The shop in a temporary directory (commits write there).
fn shop_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for side in ["local", "live"] {
        let to = dir.path().join(side);
        std::fs::create_dir_all(&to).unwrap();
        for entry in std::fs::read_dir(Path::new(SHOP).join(side)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    dir
}

#[test]
fn edits_and_commits_in_an_object_show_in_its_row() {
    let dir = shop_copy();
    let mut h = ListHarness::of(&dir.path().join("local"), &dir.path().join("live"));
    h.press("j j");
    let row = &h.list().rows[2];
    assert_eq!(row.key.name, "web");
    assert_eq!(row.summary.risk(), Risk::Warning);
    assert_eq!(row.summary.codes, [Code::ReplicasRemoved]);
    assert_eq!(row.summary.clear, 1);
    // Hand spec.replicas over (drop it from last-applied): nothing is cleared any more.
    h.press("<Enter> / s p e c . r e p l i c a s <Enter> x <Esc>");
    assert_eq!(h.app.keymap_mode(), ModeKind::List);
    let row = &h.list().rows[2];
    assert_eq!(row.summary.clear, 0, "{:?}", row.summary);
    assert!(row.summary.codes.is_empty(), "{:?}", row.summary.codes);
    assert_eq!(row.summary.risk(), Risk::Changes);
    assert_eq!(h.list().cursor, 2, "the row stays where it was");
    assert!(
        h.list()
            .notice
            .as_deref()
            .unwrap()
            .contains("not committed")
    );
    assert!(h.text().contains("▶*changes"), "{}", h.text());
    // Commit: the live file is rewritten (the object came from a file of its own).
    let live = dir.path().join("live/web-deployment.yaml");
    let before = std::fs::read_to_string(&live).unwrap();
    h.press("<Enter> W y");
    let notice = h.list().opened().unwrap().notice.clone().unwrap();
    assert!(notice.starts_with("wrote"), "{notice}");
    let after = std::fs::read_to_string(&live).unwrap();
    assert_ne!(before, after);
    assert!(!after.contains(r#"\"replicas\":3"#), "{after}");
    assert!(live.with_extension("yaml.bak").exists());
    h.press("<Esc>");
    assert!(!h.text().contains("▶*"), "committed: no edit mark");
}

#[test]
fn objects_from_a_file_of_several_are_not_bound_to_files() {
    let h = ListHarness::shop();
    let role = h.list().rows.iter().find(|r| r.key.kind == "Role").unwrap();
    assert!(role.source.ends_with("rbac.yaml#1"));
    assert!(role.files.is_none());
    let worker = h
        .list()
        .rows
        .iter()
        .find(|r| r.key.name == "worker")
        .unwrap();
    assert!(worker.files.is_some());
}

#[test]
fn mouse_click_selects_a_row() {
    let mut h = ListHarness::shop();
    let area = Rect::new(0, 0, 100, 30);
    // Header, the table's top border, the column header, then the rows.
    let message = ui::click_app(&h.app, area, 10, 3 + 4).unwrap();
    h.send(message);
    assert_eq!(h.list().cursor, 4);
    assert!(ui::click_app(&h.app, area, 10, 0).is_none());
}

#[test]
fn snapshot_the_list() {
    let mut h = ListHarness::shop();
    insta::assert_snapshot!("list_shop_100x30", h.text());
    h.resize(60, 20);
    insta::assert_snapshot!("list_shop_60x20", h.text());
    h.resize(100, 30).press("j j j ?");
    insta::assert_snapshot!("list_shop_help_100x30", h.text());
}

#[test]
fn list_styles_signal_without_colour() {
    let mut h = ListHarness::shop();
    h.resize(100, 12);
    insta::assert_debug_snapshot!("list_styles_100x12", h.buffer());
    h.theme = Theme::monochrome();
    let buf = h.buffer();
    for cell in buf.content() {
        assert!(
            matches!(cell.fg, ratatui::style::Color::Reset),
            "a colour in NO_COLOR: {cell:?}"
        );
    }
    // The risk class is a word, the cursor an arrow: no meaning rests on colour.
    assert!(h.text().contains("▶ error"));
}

#[test]
fn non_terminal_output_is_the_plan_summary() {
    let out = Process::new(env!("CARGO_BIN_EXE_applyscope"))
        .args([
            "-f",
            "assets/apps/shop/local",
            "--live",
            "assets/apps/shop/live",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("summary: 13 objects"), "{stdout}");
    assert_eq!(
        out.status.code(),
        Some(2),
        "the failing object is bad input"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ConfigMap shop/payments"), "{stderr}");
}

#[test]
fn options_for_one_object_are_refused_with_many() {
    let out = Process::new(env!("CARGO_BIN_EXE_applyscope"))
        .args([
            "-f",
            "assets/apps/shop/local",
            "--live",
            "assets/apps/shop/live",
            "--write-last-applied",
            "/tmp/x.yaml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("work with one object"), "{stderr}");
}

/// `cat … | applyscope -f - --live DIR` in tmux: the objects come from standard input, the
/// keys from the terminal.
#[test]
fn smoke_tmux_list_from_stdin() {
    if Process::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_applyscope");
    let root = std::env::current_dir().unwrap().join(SHOP);
    let session = format!("applyscope-list-{}", std::process::id());
    let status_file = std::env::temp_dir().join(format!("{session}.status"));
    let _ = std::fs::remove_file(&status_file);
    let cmd = format!(
        "for f in {root}/local/*.yaml; do echo ---; cat $f; done | {bin} -f - --live {root}/live; echo $? > {status}",
        root = root.display(),
        status = status_file.display()
    );
    let tmux = |args: &[&str]| Process::new("tmux").args(args).output().unwrap();
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "110",
        "-y",
        "30",
        &cmd,
    ]);
    assert!(started.status.success(), "{started:?}");
    let capture = || {
        String::from_utf8_lossy(&tmux(&["capture-pane", "-t", &session, "-p"]).stdout).into_owned()
    };
    let wait_for = |needle: &str| {
        let t = Instant::now();
        loop {
            let screen = capture();
            if screen.contains(needle) {
                return screen;
            }
            if t.elapsed() > Duration::from_secs(20) {
                let _ = tmux(&["kill-session", "-t", &session]);
                panic!("no {needle:?} in:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_for("riskiest first");
    // The rows fill in as objects are planned; keys here count rows of the whole list.
    wait_for("object list 1/13");
    tmux(&["send-keys", "-t", &session, "j", "j", "Enter"]);
    wait_for("3/13 Deployment.apps shop/web");
    tmux(&["send-keys", "-t", &session, "Escape"]);
    // Back on the list: its rows and its title (a capture can fall between the two redraws,
    // so each is waited for).
    wait_for("▶ warning");
    wait_for("objects, riskiest first");
    tmux(&["send-keys", "-t", &session, "q"]);
    let t = Instant::now();
    while !status_file.exists() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "did not quit:\n{}",
            capture()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = std::fs::read_to_string(&status_file).unwrap();
    let _ = tmux(&["kill-session", "-t", &session]);
    let _ = std::fs::remove_file(&status_file);
    assert_eq!(status.trim(), "0");
}

#[test]
fn an_object_not_bound_to_files_says_so_on_reload_and_commit() {
    let mut h = ListHarness::shop();
    let role = h
        .list()
        .rows
        .iter()
        .position(|r| r.key.kind == "Role")
        .unwrap();
    for _ in 0..role {
        h.press("j");
    }
    h.press("<Enter> R");
    let model = h.list().opened().unwrap();
    assert!(model.title.contains("rbac.yaml#1"), "{}", model.title);
    assert!(
        model
            .notice
            .as_deref()
            .unwrap()
            .contains("standard input or a file of several"),
        "{:?}",
        model.notice
    );
    // An edit is possible in memory; the commit explains there is no file.
    h.press("/ r u l e s <Enter> x W");
    let model = h.list().opened().unwrap();
    match &model.mode {
        applyscope::app::Mode::Confirm(p) => {
            assert!(p.write.is_none());
            assert!(p.action.starts_with("no file to write"), "{}", p.action);
        }
        other => panic!("not the confirmation: {other:?} {:?}", model.notice),
    }
}

#[test]
fn an_empty_list_draws_and_ignores_enter() {
    let list = List::new("-".into(), Vec::new(), EditOptions::default());
    let mut h = ListHarness {
        app: App::Many(Box::new(list)),
        theme: Theme::colour(),
        size: (60, 20),
        quit: false,
    };
    h.resize(60, 20).press("j G <Enter> k");
    assert_eq!(h.app.keymap_mode(), ModeKind::List);
    assert!(h.text().contains("(no objects)"), "{}", h.text());
    assert!(h.text().contains("0 objects"));
}

#[test]
fn long_names_take_the_room_the_table_has() {
    let dir = tempfile::tempdir().unwrap();
    let (local, live) = (dir.path().join("local"), dir.path().join("live"));
    std::fs::create_dir_all(&local).unwrap();
    std::fs::create_dir_all(&live).unwrap();
    let long = "backingimagedatasources-controller-settings";
    std::fs::write(
        local.join("objects.yaml"),
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {long}\n  namespace: storage-system\ndata:\n  a: b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: short\n  namespace: storage-system\n"
        ),
    )
    .unwrap();
    std::fs::write(
        live.join("short.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: short\n  namespace: storage-system\n",
    )
    .unwrap();
    let full = format!("storage-system/{long}");
    let mut h = ListHarness::of(&local, &live);
    h.resize(160, 30);
    assert!(h.text().contains(&full), "{}", h.text());
    // A narrower table cuts the name, keeping room for the notes after it.
    h.resize(100, 30);
    let text = h.text();
    assert!(!text.contains(&full), "{text}");
    assert!(text.contains("storage-system/backingi…"), "{text}");
}
