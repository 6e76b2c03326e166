//! The TUI is up at once and can always be left; long command-line work shows progress on a
//! terminal only. The real binary in tmux, against the in-process fake API server (a GET that
//! never answers, a 500 then success, 1,000 objects) and 1,000 files. Behaviour tests with
//! generous limits, not benchmarks: each prints the times it measured.

#![cfg(feature = "cluster")]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::cluster::{LOCAL, live_web};
use crate::fakeapi::{FakeApi, status_body};
use crate::tmux::{Session, assert_cooked, quoted};

const WEB: &str = "/apis/apps/v1/namespaces/team/deployments/web";
/// "Within 1 s" in the issue; the machine is shared, so a test fails only past this.
const GENEROUS: Duration = Duration::from_secs(5);

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_applyscope")
}

/// The command line of the binary with no ambient kubeconfig.
fn command(args: &str) -> String {
    format!("env -u KUBECONFIG HOME=/nonexistent {} {args}", bin())
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Wait until the screen shows `needle`; the time it took and the screen.
fn timed(tui: &Session, since: Instant, needle: &str) -> (Duration, String) {
    let screen = tui.wait_for(needle);
    (since.elapsed(), screen)
}

#[test]
fn loading_a_get_that_never_answers_is_named_and_q_leaves_at_once() {
    let api = FakeApi::start();
    api.put(live_web());
    api.hang_next("GET", WEB, 3600);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.kubeconfig(dir.path(), "team");
    let local = write(dir.path(), "web.yaml", LOCAL);
    let start = Instant::now();
    let Some(tui) = Session::start(
        "loading-hang",
        &command(&format!(
            "-f {} --kubeconfig {}",
            quoted(&local),
            quoted(&kubeconfig)
        )),
        120,
        30,
    ) else {
        return;
    };
    let (first, screen) = timed(
        &tui,
        start,
        "reading deployments.apps/web from http://127.0.0.1",
    );
    eprintln!("first frame naming the GET after {first:?}");
    assert!(first < GENEROUS, "{first:?}\n{screen}");
    assert!(screen.contains("web.yaml"), "{screen}");
    assert!(screen.contains("loading"), "{screen}");
    // The seconds count up while it waits.
    tui.wait_for(" 2 s");
    let asked = Instant::now();
    tui.keys(&["q"]);
    let (status, stty) = tui.exit();
    let left = asked.elapsed();
    eprintln!("q ended the program after {left:?}");
    assert!(left < GENEROUS, "{left:?}");
    assert_eq!(status, 0);
    assert_cooked(&stty);
    assert_eq!(tui.modes(), (false, false));
}

#[test]
fn loading_esc_and_ctrl_c_leave_too() {
    for (name, key) in [("loading-esc", "Escape"), ("loading-ctrlc", "C-c")] {
        let api = FakeApi::start();
        api.hang_next("GET", WEB, 3600);
        let dir = tempfile::tempdir().unwrap();
        let kubeconfig = api.kubeconfig(dir.path(), "team");
        let local = write(dir.path(), "web.yaml", LOCAL);
        let Some(tui) = Session::start(
            name,
            &command(&format!(
                "-f {} --kubeconfig {}",
                quoted(&local),
                quoted(&kubeconfig)
            )),
            120,
            30,
        ) else {
            return;
        };
        tui.wait_for("reading deployments.apps/web");
        tui.keys(&[key]);
        let (status, stty) = tui.exit();
        assert_eq!(status, 0, "{key}");
        assert_cooked(&stty);
    }
}

#[test]
fn loading_a_500_shows_the_servers_message_and_r_retries() {
    let api = FakeApi::start();
    api.put(live_web());
    api.fail_next(
        "GET",
        WEB,
        500,
        status_body(500, "InternalError", "etcd cluster is unavailable"),
    );
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.kubeconfig(dir.path(), "team");
    let local = write(dir.path(), "web.yaml", LOCAL);
    let Some(tui) = Session::start(
        "loading-500",
        &command(&format!(
            "-f {} --kubeconfig {}",
            quoted(&local),
            quoted(&kubeconfig)
        )),
        120,
        30,
    ) else {
        return;
    };
    let screen = tui.wait_for("etcd cluster is unavailable");
    assert!(screen.contains("failed"), "{screen}");
    assert!(screen.contains("r retry"), "{screen}");
    // The server answers now (the 500 was for one request): r reads it again.
    tui.keys(&["r"]);
    let screen = tui.wait_for("Deployment team/web");
    assert!(screen.contains("┌ result"), "{screen}");
    let gets = api
        .requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path == WEB)
        .count();
    assert_eq!(gets, 2);
    tui.keys(&["q"]);
    let (status, stty) = tui.exit();
    assert_eq!(status, 0);
    assert_cooked(&stty);
}

#[test]
fn loading_quit_after_a_failure_prints_the_error_and_exits_2() {
    let api = FakeApi::start();
    api.fail_next(
        "GET",
        WEB,
        500,
        status_body(500, "InternalError", "etcd cluster is unavailable"),
    );
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.kubeconfig(dir.path(), "team");
    let local = write(dir.path(), "web.yaml", LOCAL);
    let err = dir.path().join("stderr");
    let Some(tui) = Session::start(
        "loading-500-quit",
        &format!(
            "{} 2> {}",
            command(&format!(
                "-f {} --kubeconfig {}",
                quoted(&local),
                quoted(&kubeconfig)
            )),
            quoted(&err)
        ),
        120,
        30,
    ) else {
        return;
    };
    tui.wait_for("etcd cluster is unavailable");
    tui.keys(&["q"]);
    let (status, stty) = tui.exit();
    assert_eq!(status, 2);
    assert_cooked(&stty);
    let err = std::fs::read_to_string(err).unwrap();
    assert!(err.starts_with("applyscope: "), "{err}");
    assert!(err.contains("web.yaml: 500"), "{err}");
    assert!(err.contains("etcd cluster is unavailable"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `n` ConfigMaps, one file each, in `dir/local` (and their live objects in `dir/live`).
fn config_maps(dir: &Path, n: usize) -> (PathBuf, PathBuf) {
    let (local, live) = (dir.join("local"), dir.join("live"));
    std::fs::create_dir_all(&local).unwrap();
    std::fs::create_dir_all(&live).unwrap();
    for i in 0..n {
        let doc = |v: &str| {
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm{i:04}\n  namespace: team\ndata:\n  a: \"{v}\"\n"
            )
        };
        std::fs::write(local.join(format!("cm{i:04}.yaml")), doc("2")).unwrap();
        std::fs::write(live.join(format!("cm{i:04}.yaml")), doc("1")).unwrap();
    }
    (local, live)
}

#[test]
fn loading_a_thousand_files_is_up_at_once_and_fills_in() {
    let dir = tempfile::tempdir().unwrap();
    let (local, live) = config_maps(dir.path(), 1000);
    let start = Instant::now();
    let Some(tui) = Session::start(
        "loading-files",
        &command(&format!("-f {} --live {}", quoted(&local), quoted(&live))),
        120,
        30,
    ) else {
        return;
    };
    let (first, screen) = timed(&tui, start, "applyscope │");
    eprintln!("first frame after {first:?}");
    assert!(first < GENEROUS, "{first:?}\n{screen}");
    let (all, screen) = timed(&tui, start, "object list 1/1000");
    eprintln!("1,000 rows after {all:?}");
    assert!(screen.contains("1000 objects"), "{screen}");
    assert!(screen.contains("team/cm0000"), "{screen}");
    tui.keys(&["q"]);
    assert_eq!(tui.exit().0, 0);
}

#[test]
fn loading_a_thousand_live_objects_fills_in_while_one_get_hangs() {
    let api = FakeApi::start();
    let dir = tempfile::tempdir().unwrap();
    let (local, _) = config_maps(dir.path(), 1000);
    for i in 0..1000 {
        api.put(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": format!("cm{i:04}"), "namespace": "team"}, "data": {"a": "1"}}));
    }
    // Objects load in order, a few at once: those before cm0300 are planned and shown while
    // its GET hangs.
    api.hang_next("GET", "/api/v1/namespaces/team/configmaps/cm0300", 3600);
    let kubeconfig = api.kubeconfig(dir.path(), "team");
    let start = Instant::now();
    let Some(tui) = Session::start(
        "loading-cluster-many",
        &command(&format!(
            "-f {} --kubeconfig {}",
            quoted(&local),
            quoted(&kubeconfig)
        )),
        140,
        30,
    ) else {
        return;
    };
    let (first, screen) = timed(&tui, start, "applyscope │");
    eprintln!("first frame after {first:?}");
    assert!(first < GENEROUS, "{first:?}\n{screen}");
    let screen = tui.wait_for("300/1000 objects · reading configmaps/cm0300 from http://127.0.0.1");
    eprintln!(
        "rows filled in up to the hanging GET after {:?}",
        start.elapsed()
    );
    assert!(screen.contains("300 objects"), "{screen}");
    assert!(screen.contains("team/cm0000"), "{screen}");
    // The rows are usable: the cursor moves; a row opens only once all are loaded.
    tui.keys(&["j"]);
    tui.wait_for("▶");
    tui.keys(&["Enter"]);
    tui.wait_for("it opens when every object is loaded");
    let asked = Instant::now();
    tui.keys(&["q"]);
    let (status, stty) = tui.exit();
    assert!(asked.elapsed() < GENEROUS, "{:?}", asked.elapsed());
    assert_eq!(status, 0);
    assert_cooked(&stty);
}

/// `plan` over a slow cluster: progress on the terminal's stderr, none with `--quiet`, none
/// when stderr is not a terminal; stdout the same bytes every way.
#[test]
fn loading_cli_progress_shows_on_a_terminal_only() {
    let api = FakeApi::start();
    let dir = tempfile::tempdir().unwrap();
    let (local, _) = config_maps(dir.path(), 3);
    for i in 0..3 {
        api.put(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": format!("cm{i:04}"), "namespace": "team"}, "data": {"a": "1"}}));
    }
    let kubeconfig = api.kubeconfig(dir.path(), "team");
    let args = |extra: &str| {
        format!(
            "plan -f {} --kubeconfig {} -o json{extra}",
            quoted(&local),
            quoted(&kubeconfig)
        )
    };
    // Piped: stdout and stderr captured, no terminal.
    let piped = Command::new("sh")
        .arg("-c")
        .arg(command(&args("")))
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    assert!(!piped.stdout.is_empty());

    let cm1 = "/api/v1/namespaces/team/configmaps/cm0001";
    for (name, extra, shown) in [
        ("progress", "", true),
        ("progress-quiet", " --quiet", false),
    ] {
        api.hang_next("GET", cm1, 3);
        let out = dir.path().join(format!("{name}.out"));
        let Some(tui) = Session::start(
            name,
            &format!("{} > {}", command(&args(extra)), quoted(&out)),
            160,
            10,
        ) else {
            return;
        };
        if shown {
            let screen = tui.wait_for("reading configmaps/cm0001 from http://127.0.0.1");
            assert!(screen.contains("/3 objects"), "{screen}");
        } else {
            std::thread::sleep(Duration::from_secs(1));
            let screen = tui.screen();
            assert!(screen.trim().is_empty(), "{screen}");
        }
        assert_eq!(tui.exit().0, 0);
        // Cleared when done; stdout is what the pipe got.
        assert!(!tui.screen().contains("objects"), "{}", tui.screen());
        assert_eq!(std::fs::read(&out).unwrap(), piped.stdout, "{name}");
    }
}

/// Several objects from the cluster: one GET answered 500 is that object's row (the server's
/// message), the others open; `r` reads them again and the row is planned.
#[test]
fn loading_a_failed_object_is_its_row_and_r_reads_it_again() {
    let api = FakeApi::start();
    let dir = tempfile::tempdir().unwrap();
    let (local, _) = config_maps(dir.path(), 3);
    for i in 0..3 {
        api.put(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": format!("cm{i:04}"), "namespace": "team"}, "data": {"a": "1"}}));
    }
    let cm1 = "/api/v1/namespaces/team/configmaps/cm0001";
    api.fail_next(
        "GET",
        cm1,
        500,
        status_body(500, "InternalError", "etcd cluster is unavailable"),
    );
    let kubeconfig = api.kubeconfig(dir.path(), "team");
    let Some(tui) = Session::start(
        "loading-row-retry",
        &command(&format!(
            "-f {} --kubeconfig {}",
            quoted(&local),
            quoted(&kubeconfig)
        )),
        160,
        30,
    ) else {
        return;
    };
    let screen = tui.wait_for("object list 1/3");
    assert!(
        screen.contains("3 objects: 1 fail, 0 create, 2 patch"),
        "{screen}"
    );
    assert!(screen.contains("etcd cluster is unavailable"), "{screen}");
    // The failed row sorts first; the next one opens.
    tui.keys(&["j", "Enter"]);
    tui.wait_for("┌ result");
    tui.keys(&["Escape"]);
    tui.wait_for("object list 2/3");
    tui.keys(&["r"]);
    let screen = tui.wait_for("3 objects: 0 fail, 0 create, 3 patch");
    assert!(!screen.contains("etcd cluster is unavailable"), "{screen}");
    let gets = api
        .requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path == cm1)
        .count();
    assert_eq!(gets, 2);
    tui.keys(&["q"]);
    let (status, stty) = tui.exit();
    assert_eq!(status, 0);
    assert_cooked(&stty);
}

/// A request sent from the screen (the apply's server dry run) that never answers: the screen
/// says what was sent, other keys wait, and `q` still leaves at once.
#[test]
fn loading_q_leaves_while_a_sent_request_hangs() {
    let api = FakeApi::start();
    api.put(live_web());
    api.hang_next("PATCH", WEB, 3600);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.kubeconfig(dir.path(), "team");
    let local = write(dir.path(), "web.yaml", LOCAL);
    let Some(tui) = Session::start(
        "loading-sent-hang",
        &command(&format!(
            "-f {} --kubeconfig {}",
            quoted(&local),
            quoted(&kubeconfig)
        )),
        140,
        30,
    ) else {
        return;
    };
    tui.wait_for("┌ result");
    tui.keys(&["P"]);
    tui.wait_for("server dry run: PATCH");
    // Other keys wait for the answer; the help does not open.
    tui.keys(&["?"]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!tui.screen().contains("help: keys"), "{}", tui.screen());
    let asked = Instant::now();
    tui.keys(&["q"]);
    let (status, stty) = tui.exit();
    let left = asked.elapsed();
    eprintln!("q ended the program mid-request after {left:?}");
    assert!(left < GENEROUS, "{left:?}");
    assert_eq!(status, 0);
    assert_cooked(&stty);
}

/// The apply from the screen, end to end: the dry run and the PATCH go out on workers and their
/// answers come back to the screen.
#[test]
fn loading_the_apply_from_the_screen_answers_through_workers() {
    let api = FakeApi::start();
    api.put(live_web());
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.kubeconfig(dir.path(), "team");
    let local = write(dir.path(), "web.yaml", LOCAL);
    let Some(tui) = Session::start(
        "loading-apply",
        &command(&format!(
            "-f {} --kubeconfig {}",
            quoted(&local),
            quoted(&kubeconfig)
        )),
        140,
        30,
    ) else {
        return;
    };
    tui.wait_for("┌ result");
    tui.keys(&["P"]);
    tui.wait_for("the server's dry run accepted it");
    tui.keys(&["y"]);
    tui.wait_for("applied to Deployment team/web");
    let patches = api.writes().iter().filter(|r| r.method == "PATCH").count();
    assert_eq!(patches, 2);
    assert_eq!(
        api.object(WEB).unwrap()["spec"]["template"]["spec"]["containers"][0]["image"],
        "web:2"
    );
    tui.keys(&["q"]);
    assert_eq!(tui.exit().0, 0);
}
