//! Driving the real binary in a detached tmux session: start a shell command, send keys, read
//! the screen, wait for the command's exit status. The session is killed when dropped.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long any wait may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(20);

pub struct Session {
    name: String,
    /// Where the shell writes the command's exit status.
    status: PathBuf,
    /// Where the shell writes `stty -a` after the command (is the terminal restored?).
    stty: PathBuf,
    _dir: tempfile::TempDir,
}

fn tmux(args: &[&str]) -> std::process::Output {
    Command::new("tmux").args(args).output().unwrap()
}

impl Session {
    /// Start `command` (a shell command line) in a `width`x`height` session; `None` after
    /// printing `SKIPPED: <test>` when tmux is not installed.
    pub fn start(test: &str, command: &str, width: u16, height: u16) -> Option<Session> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("SKIPPED: {test}: tmux is not installed");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let status = dir.path().join("status");
        let stty = dir.path().join("stty");
        let name = format!("applyscope-{test}-{}", std::process::id());
        // The shell stays open after the command, so its last screen can be read.
        let line = format!(
            "{command}; echo $? > {s}.tmp; stty -a > {t}; mv {s}.tmp {s}; sleep 60",
            s = status.display(),
            t = stty.display()
        );
        let (w, h) = (width.to_string(), height.to_string());
        // The tests share tmux's default server. When another test's last session ends just
        // then, its server is shutting down and refuses us ("server exited unexpectedly"):
        // starting again brings up a new one.
        let start = || tmux(&["new-session", "-d", "-s", &name, "-x", &w, "-y", &h, &line]);
        let mut started = start();
        for _ in 0..5 {
            if started.status.success() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
            started = start();
        }
        assert!(started.status.success(), "{started:?}");
        Some(Session {
            name,
            status,
            stty,
            _dir: dir,
        })
    }

    /// The visible screen, as text.
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&tmux(&["capture-pane", "-t", &self.name, "-p"]).stdout)
            .into_owned()
    }

    /// Wait until the screen shows `needle`; the screen then.
    pub fn wait_for(&self, needle: &str) -> String {
        let t = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return self.settled(screen, needle);
            }
            assert!(t.elapsed() < PATIENCE, "no {needle:?} in:\n{screen}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A frame reaches the terminal in several writes, so a capture can hold half of one: the
    /// screen once two captures 50 ms apart agree, or the last that still shows `needle` when
    /// the screen keeps changing (a clock) for a second.
    fn settled(&self, mut screen: String, needle: &str) -> String {
        let t = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(50));
            let again = self.screen();
            if !again.contains(needle) {
                return screen;
            }
            if again == screen || t.elapsed() > Duration::from_secs(1) {
                return again;
            }
            screen = again;
        }
    }

    /// Send keys (tmux key names: `j`, `Escape`, `C-r`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.name];
        args.extend_from_slice(keys);
        assert!(tmux(&args).status.success());
    }

    /// tmux's view of the pane's terminal modes: `(alternate screen, any mouse reporting)`.
    pub fn modes(&self) -> (bool, bool) {
        let out = tmux(&[
            "display-message",
            "-p",
            "-t",
            &self.name,
            "#{alternate_on} #{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}",
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        let mut parts = text.split_whitespace();
        let alternate = parts.next() == Some("1");
        let mouse = parts.next().is_some_and(|m| m.contains('1'));
        (alternate, mouse)
    }

    /// Wait for the command to exit: its status and the terminal's `stty -a` afterwards.
    pub fn exit(&self) -> (i32, String) {
        let t = Instant::now();
        while !self.status.exists() {
            assert!(t.elapsed() < PATIENCE, "did not exit:\n{}", self.screen());
            std::thread::sleep(Duration::from_millis(100));
        }
        let status = std::fs::read_to_string(&self.status).unwrap();
        let stty = std::fs::read_to_string(&self.stty).unwrap_or_default();
        (status.trim().parse().unwrap(), stty)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = tmux(&["kill-session", "-t", &self.name]);
    }
}

/// Cooked mode again: canonical input and echo on (what a raw-mode TUI must restore).
pub fn assert_cooked(stty: &str) {
    assert!(
        stty.contains(" icanon") && stty.contains(" echo") && !stty.contains("-icanon"),
        "terminal not restored: {stty}"
    );
}

/// A shell-quoted path.
pub fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}
