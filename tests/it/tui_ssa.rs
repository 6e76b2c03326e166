//! Server-side apply in the TUI: `S` on a Deployment made by client-side apply whose replicas
//! an autoscaler owns (`assets/ssa/autoscaled/`: the live object's managedFields are what the
//! engine's own requests leave, checked here), the owners column, the why panel, the steps,
//! the conflicts; snapshots of the screens, and the real binary in tmux.

use std::path::PathBuf;

use applyscope::app::{Command, Message, Mode, Model, PaneKind, Source};
use applyscope::engine::goyaml;
use applyscope::engine::ssa::request::Request;
use applyscope::session::Docs;
use applyscope::session::ssa::Action;
use applyscope::value::Value;
use serde_json::json;

use crate::tmux::{Session, quoted};
use crate::tui_support::{Harness, screen_text};

/// The time every server-side plan of these tests is made at.
pub const NOW: &str = "2026-11-25T12:00:00Z";

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/ssa/autoscaled")
}

fn request<'a>(subresource: &'a str, time: &'a str) -> Request<'a> {
    crate::support::embedded_request("apps/v1", "Deployment", subresource, time)
}

fn v(j: &serde_json::Value) -> Value {
    serde_json::from_value(j.clone()).unwrap()
}

fn deployment(image: &str, env: &serde_json::Value) -> serde_json::Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": image, "env": env}]}}}})
}

/// The live object: created by `kubectl apply` (client-side, replicas 2, env A and DEBUG),
/// then scaled to 5 by the autoscaler through `/scale`.
fn live() -> Value {
    let mut created = deployment(
        "nginx:1.27",
        &json!([{"name": "A", "value": "1"}, {"name": "DEBUG", "value": "true"}]),
    );
    created["spec"]["replicas"] = json!(2);
    let annotation = applyscope::engine::gojson::to_string(&v(&created)).unwrap();
    created["metadata"]["annotations"] =
        json!({"kubectl.kubernetes.io/last-applied-configuration": format!("{annotation}\n")});
    let obj = request("", "2026-11-20T08:00:00Z")
        .update(&Value::Null, &v(&created), "kubectl-client-side-apply")
        .unwrap();
    let mut scaled = obj.clone();
    scaled["spec"]["replicas"] = Value::from(5);
    request("scale", "2026-11-21T09:30:00Z")
        .update(&obj, &scaled, "kube-controller-manager")
        .unwrap()
}

/// The file: a new image, DEBUG dropped, replicas left to the autoscaler.
fn local() -> Value {
    v(&deployment(
        "nginx:1.28",
        &json!([{"name": "A", "value": "1"}]),
    ))
}

/// The same file setting replicas: the autoscaler owns them.
fn local_replicas() -> Value {
    let mut d = deployment("nginx:1.28", &json!([{"name": "A", "value": "1"}]));
    d["spec"]["replicas"] = json!(3);
    v(&d)
}

#[test]
fn the_autoscaled_fixture_is_what_the_requests_leave() {
    let files = [
        ("live.yaml", live()),
        ("local.yaml", local()),
        ("local-replicas.yaml", local_replicas()),
    ];
    let update = std::env::var_os("UPDATE_SCREENSHOTS").is_some_and(|v| v == "1");
    for (name, value) in files {
        let path = dir().join(name);
        let text = goyaml::to_yaml(&value);
        if update {
            std::fs::create_dir_all(dir()).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(&path).ok().as_deref(),
            Some(text.as_str()),
            "{} is stale: UPDATE_SCREENSHOTS=1 cargo test --test it tui_ssa",
            path.display()
        );
    }
}

/// A fixture file, as the TUI reads it.
fn read(name: &str) -> Value {
    let text = std::fs::read_to_string(dir().join(name)).unwrap();
    applyscope::document::parse_documents(&text, name)
        .unwrap()
        .remove(0)
        .value
}

fn model(local: &str) -> Model {
    let source = Source {
        title: "deployments/web".into(),
        about: String::new(),
        docs: Docs {
            local: read(local),
            live: Some(read("live.yaml")),
            last_applied: None,
        },
    };
    Model::new(source).unwrap()
}

/// Run the server-side plans the harness's commands ask for, at [`NOW`], as the runtime does.
pub fn run_plans(h: &mut Harness) {
    let commands = std::mem::take(&mut h.commands);
    for c in commands {
        match c {
            Command::PlanServerSide(req) => {
                h.send(Message::ServerSidePlanned(Box::new(req.plan(NOW))));
            }
            other => h.commands.push(other),
        }
    }
}

pub fn autoscaled(width: u16, height: u16) -> Harness {
    let mut h = Harness::of(model("local.yaml"));
    h.resize(width, height);
    h
}

pub fn select(h: &mut Harness, path: &str) {
    h.press("/");
    for c in path.chars() {
        h.send(Message::Type(c));
    }
    h.press("<Enter>");
}

#[test]
fn s_switches_to_the_server_side_plan_and_back() {
    let mut h = autoscaled(140, 40);
    let client = h.text();
    h.press("S");
    assert!(
        matches!(h.commands.as_slice(), [Command::PlanServerSide(r)] if r.manager == "kubectl" && !r.force)
    );
    run_plans(&mut h);
    let plan = h.model.server.as_deref().unwrap().plan().unwrap();
    let action = |p: &str| plan.fields.iter().find(|f| f.path() == p).map(|f| f.action);
    let debug = r#".spec.template.spec.containers[name="web"].env[name="DEBUG"]"#;
    assert_eq!(
        action(debug),
        Some(Action::Remove),
        "pruned by the second apply"
    );
    // The client-side manager owned the image; the annotation still holds the live value, so
    // the API server excuses the conflict (SEMANTICS.md §6).
    let image = plan
        .fields
        .iter()
        .find(|f| f.path() == r#".spec.template.spec.containers[name="web"].image"#)
        .unwrap();
    assert_eq!(image.action, Action::Conflict);
    assert!(image.rule.starts_with("conflict excused"), "{}", image.rule);
    let text = h.text();
    assert!(
        text.contains("server-side (field manager kubectl)"),
        "{text}"
    );
    assert!(text.contains("result: server-side · owners"), "{text}");
    assert!(text.contains("upgrade-managed-fields"), "{text}");
    select(&mut h, "spec.replicas");
    let text = h.text();
    assert!(text.contains("kube-controller-ma… U"), "{text}");
    h.press("S");
    assert!(h.model.server.is_none());
    h.press("o g");
    assert!(!h.model.owners);
    assert_eq!(h.text(), client, "the client-side screen, as before");
}

#[test]
fn the_why_panel_says_the_rule_and_the_owners() {
    let mut h = autoscaled(140, 40);
    h.press("S");
    run_plans(&mut h);
    select(&mut h, "spec.replicas");
    let text = h.text();
    assert!(
        text.contains("owners before: kube-controller-manager (Update /scale, 11-21 09:30)"),
        "{text}"
    );
    select(&mut h, "env[name=DEBUG]");
    let f = h.model.current_ssa_field().unwrap();
    assert_eq!(f.action, Action::Remove);
    let text = h.text();
    assert!(
        text.contains("- remove: pruned by the second apply"),
        "{text}"
    );
    assert!(text.contains("owners after:  nobody"), "{text}");
    // The gutter of the live pane marks the pruned item.
    let live = h
        .model
        .panes
        .iter()
        .position(|p| p.kind == PaneKind::Live)
        .unwrap();
    let (line, exact) = h.model.panes[live]
        .locate(&h.model.plan.tree, h.model.current_path())
        .unwrap();
    assert!(exact);
    assert_eq!(
        h.model.ssa_field_at(live, line).map(|f| f.action),
        Some(Action::Remove)
    );
}

#[test]
fn n_visits_the_server_side_changes() {
    let mut h = autoscaled(140, 40);
    h.press("S");
    run_plans(&mut h);
    let mut seen = Vec::new();
    for _ in 0..4 {
        h.press("n");
        let f = h.model.current_ssa_field().unwrap();
        assert_ne!(f.action, Action::Keep, "{}", f.path());
        seen.push(f.path());
    }
    // The annotation (set), the image (an excused conflict), DEBUG (pruned), and around again.
    assert_eq!(
        seen,
        [
            ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration",
            r#".spec.template.spec.containers[name="web"].env[name="DEBUG"]"#,
            r#".spec.template.spec.containers[name="web"].image"#,
            ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration",
        ]
    );
    h.press("N");
    assert_eq!(
        h.model.current_ssa_field().unwrap().path(),
        r#".spec.template.spec.containers[name="web"].image"#
    );
}

#[test]
fn t_lists_the_steps_of_the_migration() {
    let mut h = autoscaled(140, 40);
    h.press("t");
    assert_eq!(h.model.mode, Mode::Browse, "nothing to list before S");
    h.press("S");
    run_plans(&mut h);
    h.press("t");
    assert_eq!(h.model.mode, Mode::Steps(0));
    let text = h.text();
    for step in [
        "1 apply as kubectl",
        "2 save-last-applied as kubectl-last-applied",
        "3 upgrade-managed-fields as kubectl",
        "4 apply-again as kubectl",
    ] {
        assert!(text.contains(step), "{step}:\n{text}");
    }
    assert!(
        text.contains("- remove .spec.template.spec.containers"),
        "{text}"
    );
    h.press("<Esc>");
    assert_eq!(h.model.mode, Mode::Browse);
}

#[test]
fn a_conflict_keeps_the_live_object_and_is_listed() {
    let mut h = Harness::of(model("local-replicas.yaml"));
    h.resize(140, 40);
    h.press("S");
    run_plans(&mut h);
    assert!(h.model.server.as_deref().unwrap().plan().is_none());
    let text = h.text();
    assert!(text.contains("result: refused"), "{text}");
    h.press("!");
    let text = h.text();
    assert!(
        text.contains(r#"! conflict with "kube-controller-manager" with subresource "scale" using apps/v1: .spec.replicas"#),
        "{text}"
    );
    h.press("<Enter>");
    assert_eq!(h.path(), "spec.replicas");
}

#[test]
fn s_works_in_the_object_lists_opened_object() {
    let mut list =
        crate::list_screen::ListHarness::of(&dir().join("local.yaml"), &dir().join("live.yaml"));
    list.resize(140, 40).press("<Enter> S");
    let opened = list.list().opened().unwrap();
    let server = opened.server.as_deref().unwrap();
    assert!(server.migrates());
    assert!(opened.owners);
    // Back to the list and in again: the object is as it was left.
    list.press("<Esc> <Enter>");
    assert!(list.list().opened().unwrap().server.is_some());
    list.press("S");
    assert!(list.list().opened().unwrap().server.is_none());
}

#[test]
fn s_on_every_example_plans_or_says_why() {
    let mut planned = 0;
    for example in applyscope::examples::EXAMPLES {
        let mut h = Harness::example(example.name);
        h.resize(120, 40).press("S");
        run_plans(&mut h);
        if h.model.server.is_some() {
            planned += 1;
            // Every screen draws, the why panel on each field.
            h.press("o");
            for _ in 0..h.model.nav.len().min(40) {
                h.press("j");
                assert!(h.text().contains("server-side"), "{}", example.name);
            }
            assert!(
                h.model.facts.iter().any(Option::is_some),
                "{}",
                example.name
            );
        } else {
            let notice = h.model.notice.clone().unwrap_or_default();
            assert!(
                notice.starts_with("cannot plan server-side: "),
                "{}: {notice}",
                example.name
            );
        }
    }
    assert!(planned > 20, "only {planned} examples planned server-side");
}

// ---- snapshots --------------------------------------------------------------------------

#[test]
fn snapshots_of_the_server_side_view() {
    for (name, keys, w, h) in [
        ("server_side", "S", 140, 40),
        ("server_side_narrow", "S", 100, 30),
        ("owners", "o", 140, 40),
        ("server_side_steps", "S t", 140, 40),
    ] {
        let mut harness = autoscaled(w, h);
        for key in keys.split(' ') {
            harness.press(key);
            run_plans(&mut harness);
        }
        insta::assert_snapshot!(
            format!("ssa_{name}_{w}x{h}"),
            screen_text(&harness.buffer())
        );
    }
    let mut conflict = Harness::of(model("local-replicas.yaml"));
    conflict.resize(140, 40).press("S");
    run_plans(&mut conflict);
    insta::assert_snapshot!("ssa_conflict_140x40", screen_text(&conflict.buffer()));
    conflict.press("!");
    insta::assert_snapshot!(
        "ssa_conflict_warnings_140x40",
        screen_text(&conflict.buffer())
    );
}

// ---- the real binary ----------------------------------------------------------------------

#[test]
fn tmux_s_switches_the_real_binary_to_server_side() {
    let bin = env!("CARGO_BIN_EXE_applyscope");
    let command = format!(
        "{} -f {} --live {}",
        quoted(std::path::Path::new(bin)),
        quoted(&dir().join("local.yaml")),
        quoted(&dir().join("live.yaml"))
    );
    let Some(session) = Session::start("tmux_s_server_side", &command, 140, 40) else {
        return;
    };
    // The panes, not the loading frame: S waits for the plan.
    session.wait_for("kind: Deployment");
    session.keys(&["S"]);
    let screen = session.wait_for("server-side (field manager kubectl)");
    assert!(screen.contains("kube-controller-ma… U"), "{screen}");
    session.keys(&["S"]);
    session.wait_for("client-side apply (S: server-side)");
    session.keys(&["q"]);
    let (code, stty) = session.exit();
    assert_eq!(code, 0);
    crate::tmux::assert_cooked(&stty);
}
