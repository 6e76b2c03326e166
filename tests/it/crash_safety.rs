//! Crash safety of the real binary under tmux: a panic in the TUI restores the terminal (cooked
//! mode, main screen, no mouse reporting); bad input at start is one line and exit 2 without
//! touching the screen; a file broken while the TUI runs gives a message, not a crash.

use std::path::Path;

use crate::tmux::{Session, assert_cooked, quoted};

const BIN: &str = env!("CARGO_BIN_EXE_applyscope");

fn example_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples/nginx-scale-image")
}

#[test]
fn a_panic_in_the_tui_restores_the_terminal() {
    // The panic key exists in debug builds only (`src/tui.rs`), and the binary under test is
    // built with the tests' profile.
    if !cfg!(debug_assertions) {
        eprintln!(
            "SKIPPED: a_panic_in_the_tui_restores_the_terminal (a release build has no panic key)"
        );
        return;
    }
    let Some(tui) = Session::start(
        "panic",
        &format!("APPLYSCOPE_TEST_PANIC_KEY=P {BIN} --example nginx-scale-image"),
        120,
        40,
    ) else {
        return;
    };
    tui.wait_for("last-applied");
    // While it runs: alternate screen and mouse reporting on (so the checks below can fail).
    assert_eq!(tui.modes(), (true, true));
    tui.keys(&["P"]);
    let (status, stty) = tui.exit();
    assert_eq!(status, 101, "{}", tui.screen());
    assert_cooked(&stty);
    assert_eq!(tui.modes(), (false, false), "{}", tui.screen());
    let screen = tui.screen();
    assert!(screen.contains("test panic on key 'P'"), "{screen}");
    assert!(!screen.contains("last-applied"), "{screen}");
}

#[test]
fn bad_input_at_start_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let local = dir.path().join("local.yaml");
    std::fs::write(&local, "a: [1, 2\n").unwrap();
    let live = example_dir().join("live.yaml");
    let Some(tui) = Session::start(
        "badstart",
        &format!("{BIN} -f {} --live {}", quoted(&local), quoted(&live)),
        120,
        40,
    ) else {
        return;
    };
    let (status, stty) = tui.exit();
    assert_eq!(status, 2, "{}", tui.screen());
    assert_cooked(&stty);
    let screen = tui.screen();
    let lines: Vec<&str> = screen.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{screen}");
    assert!(
        lines[0].starts_with("applyscope: ") && lines[0].contains("local.yaml:2:1:"),
        "{screen}"
    );
    assert_eq!(std::fs::read(&local).unwrap(), b"a: [1, 2\n");
}

#[test]
fn a_file_broken_while_the_tui_runs_is_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["local.yaml", "live.yaml"] {
        std::fs::copy(example_dir().join(f), dir.path().join(f)).unwrap();
    }
    let local = dir.path().join("local.yaml");
    let Some(tui) = Session::start(
        "broken",
        &format!(
            "cd {} && {BIN} -f local.yaml --live live.yaml",
            quoted(dir.path())
        ),
        120,
        40,
    ) else {
        return;
    };
    tui.wait_for("last-applied");
    std::fs::write(&local, "kind: [\n").unwrap();
    tui.keys(&["R"]);
    let screen = tui.wait_for("reload failed");
    assert!(screen.contains("local.yaml"), "{screen}");
    // Still running, still showing the old documents.
    assert!(screen.contains("last-applied"), "{screen}");
    assert!(tui.modes().0);
    tui.keys(&["q"]);
    let (status, stty) = tui.exit();
    assert_eq!(status, 0, "{}", tui.screen());
    assert_cooked(&stty);
    assert_eq!(std::fs::read(&local).unwrap(), b"kind: [\n");
}
