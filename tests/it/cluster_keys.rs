//! Key scripts of cluster mode through the real keymap, `update` and the runtime's command
//! runner (`tui::Effects`, with the connection the object was read with), against the in-process fake API server: no terminal.

#![cfg(feature = "cluster")]

use applyscope::app::Mode;
use serde_json::{Value, json};

use crate::cluster::{LOCAL, live_web};
use crate::fakeapi::{FakeApi, go_json, status_body};
use crate::tui_support::Harness;

const WEB: &str = "/apis/apps/v1/namespaces/team/deployments/web";
const LA: &str = "kubectl.kubernetes.io/last-applied-configuration";

fn annotation_body(doc: &Value, rv: &str) -> String {
    let mut annotation = go_json(doc);
    annotation.push('\n');
    go_json(&json!({"metadata": {"annotations": {LA: annotation}, "resourceVersion": rv}}))
}

#[test]
fn cluster_keys_drop_replicas_commit_409_reload_commit_again() {
    let api = FakeApi::start();
    api.put(live_web());
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::cluster(api.kubeconfig(dir.path(), "team"), LOCAL, "web.yaml");
    assert!(
        h.model.title.contains("Deployment team/web"),
        "{}",
        h.model.title
    );
    assert!(h.text().contains("schema: embedded 1.36"), "{}", h.text());
    // managedFields are hidden; `m` shows them, and hides them again.
    assert!(
        h.model.live().unwrap()["metadata"]
            .get("managedFields")
            .is_none()
    );
    h.press("m");
    assert!(
        h.model.live().unwrap()["metadata"]
            .get("managedFields")
            .is_some()
    );
    h.press("m");
    assert!(
        h.model.live().unwrap()["metadata"]
            .get("managedFields")
            .is_none()
    );

    // Drop spec.replicas from last-applied (hand it to an autoscaler), commit.
    h.press("/ s p e c . r e p l i c a s <Enter>");
    assert_eq!(h.path(), "spec.replicas");
    h.press("x W");
    assert!(matches!(h.model.mode, Mode::Confirm(_)));
    assert!(h.text().contains("PATCH"), "{}", h.text());

    // Another client scales the Deployment meanwhile: the precondition fails.
    api.change(WEB, |o| o["spec"]["replicas"] = json!(7));
    let new_rv = api.object(WEB).unwrap()["metadata"]["resourceVersion"].clone();
    h.press("y");
    assert_eq!(h.run_commands(), 2, "the PATCH (409), then a GET");
    let writes = api.writes();
    assert_eq!(writes.len(), 1);
    let dropped = json!({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"team"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"web:1","name":"web"}]}}}});
    assert_eq!(writes[0].method, "PATCH");
    assert_eq!(writes[0].path, WEB);
    assert_eq!(
        writes[0].query,
        "fieldManager=kubectl-client-side-apply&fieldValidation=Strict"
    );
    assert_eq!(
        writes[0].content_type.as_deref(),
        Some("application/merge-patch+json")
    );
    assert_eq!(writes[0].body_text(), annotation_body(&dropped, "7"));
    // Reloaded, planned again with the edit kept; what changed is shown; asked again.
    let Mode::Confirm(p) = &h.model.mode else {
        panic!("asked again: {:?} {}", h.model.mode.kind(), h.notice());
    };
    assert!(p.action.starts_with("409 Conflict"), "{}", p.action);
    assert!(
        p.diff.iter().any(|(_, l)| l.contains("replicas: 7")),
        "{:?}",
        p.diff
    );
    assert!(h.model.edits_pending());
    assert_eq!(h.model.live().unwrap()["spec"]["replicas"], 7);

    h.press("y");
    assert_eq!(h.run_commands(), 1);
    let writes = api.writes();
    assert_eq!(writes.len(), 2);
    assert_eq!(
        writes[1].body_text(),
        annotation_body(&dropped, new_rv.as_str().unwrap())
    );
    let after = api.object(WEB).unwrap();
    assert_eq!(after["spec"]["replicas"], 7, "only the annotation changed");
    assert!(
        !after["metadata"]["annotations"][LA]
            .as_str()
            .unwrap()
            .contains("replicas")
    );
    assert!(!h.model.edits_pending());
    assert!(h.notice().starts_with("committed"), "{}", h.notice());
    // Every request: discovery, GET, OpenAPI v3 and v2 (404), PATCH (409), GET, PATCH.
    let seen: Vec<String> = api
        .requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert_eq!(
        seen,
        [
            "GET /apis/apps/v1".to_owned(),
            format!("GET {WEB}"),
            "GET /openapi/v3".into(),
            "GET /openapi/v2".into(),
            format!("PATCH {WEB}"),
            format!("GET {WEB}"),
            format!("PATCH {WEB}"),
        ]
    );
}

#[test]
fn cluster_keys_apply_dry_run_then_confirm() {
    let api = FakeApi::start();
    api.put(live_web());
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::cluster(api.kubeconfig(dir.path(), "team"), LOCAL, "web.yaml");
    h.press("P");
    assert_eq!(h.run_commands(), 1);
    let Mode::Confirm(p) = &h.model.mode else {
        panic!("confirm after the dry run: {}", h.notice());
    };
    assert!(p.action.contains("dry run accepted"), "{}", p.action);
    assert_eq!(api.writes().len(), 1);
    assert!(api.writes()[0].query.starts_with("dryRun=All&"));
    assert_eq!(api.object(WEB).unwrap()["metadata"]["resourceVersion"], "7");
    // The result pane shows the server's answer meanwhile, aligned with the other panes.
    let result_pane = |h: &Harness| {
        h.model
            .panes
            .iter()
            .find(|p| p.kind == applyscope::app::PaneKind::Result)
            .map(|p| (p.server_answer, p.lines.len()))
            .unwrap()
    };
    let (answer, lines) = result_pane(&h);
    assert!(answer && lines > 0);
    h.press("y");
    assert_eq!(h.run_commands(), 1);
    let writes = api.writes();
    assert_eq!(writes.len(), 2);
    assert_eq!(
        writes[1].query,
        "fieldManager=kubectl-client-side-apply&fieldValidation=Strict"
    );
    assert_eq!(
        writes[1].content_type.as_deref(),
        Some("application/strategic-merge-patch+json")
    );
    assert_eq!(writes[0].body, writes[1].body);
    assert!(h.notice().starts_with("applied"), "{}", h.notice());
    // The plan now starts from the applied object: nothing left to do.
    assert!(h.model.plan.patch.is_none());
    assert!(!result_pane(&h).0, "a new plan shows its own result");
    assert_eq!(
        h.model.live().unwrap()["spec"]["template"]["spec"]["containers"][0]["image"],
        "web:2"
    );
}

#[test]
fn cluster_keys_errors_are_notices_and_read_only_refuses() {
    let api = FakeApi::start();
    api.put(live_web());
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::cluster(api.kubeconfig(dir.path(), "team"), LOCAL, "web.yaml");
    api.fail_next(
        "PATCH",
        WEB,
        403,
        status_body(403, "Forbidden", "deployments.apps \"web\" is forbidden"),
    );
    h.press("P");
    h.run_commands();
    assert!(matches!(h.model.mode, Mode::Browse));
    assert!(
        h.notice()
            .contains("403 Forbidden: not allowed to patch deployments.apps \"web\""),
        "{}",
        h.notice()
    );
    // The object was deleted meanwhile: the commit's PATCH answers 404.
    h.press("/ s p e c . r e p l i c a s <Enter> x W y");
    api.fail_next(
        "PATCH",
        WEB,
        404,
        status_body(404, "NotFound", "deployments.apps \"web\" not found"),
    );
    h.run_commands();
    assert!(
        h.notice()
            .starts_with("not committed: 404 Not Found: deployments.apps \"web\""),
        "{}",
        h.notice()
    );
    assert!(h.model.edits_pending(), "the edit is kept");
    h.press("u");
    api.fail_next(
        "GET",
        WEB,
        500,
        status_body(500, "InternalError", "etcd down"),
    );
    h.press("R");
    h.run_commands();
    assert!(
        h.notice().starts_with("reload failed: 500"),
        "{}",
        h.notice()
    );

    h.model.edit.options.read_only = true;
    h.press("P");
    assert!(h.notice().contains("read-only"));
    h.press("/ s p e c . r e p l i c a s <Enter> x");
    assert!(h.notice().contains("read-only"));
    assert_eq!(
        api.writes().len(),
        2,
        "only the refused dry run and the refused commit"
    );
}

#[test]
fn cluster_keys_secret_values_stay_masked_in_the_dry_run_answer() {
    let api = FakeApi::start();
    api.put(
        json!({"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
        "metadata": {"name": "s", "namespace": "team", "resourceVersion": "4"},
        "data": {"password": "b2xkLXNlY3JldA=="}}),
    );
    let dir = tempfile::tempdir().unwrap();
    let local = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"},
        "data": {"password": "bmV3LXNlY3JldA=="}});
    let mut h = Harness::cluster(
        api.kubeconfig(dir.path(), "team"),
        &local.to_string(),
        "s.yaml",
    );
    // The server's dry run answers with an admission-injected label and another value.
    let mut answer: Value = serde_json::to_value(&h.model.plan.result).unwrap();
    answer["metadata"]["labels"] = json!({"injected": "yes"});
    answer["data"]["password"] = json!("c2VydmVyLXZhbHVl");
    api.fail_next("PATCH", "/api/v1/namespaces/team/secrets/s", 200, answer);
    h.press("P");
    assert_eq!(h.run_commands(), 1);
    assert!(matches!(h.model.mode, Mode::Confirm(_)), "{}", h.notice());
    let screen = h.text();
    assert!(screen.contains("+    injected: \"yes\""), "{screen}");
    assert!(!screen.contains("c2VydmVyLXZhbHVl"), "{screen}");
    assert!(!screen.contains("bmV3LXNlY3JldA=="), "{screen}");
    assert!(!screen.contains("b2xkLXNlY3JldA=="), "{screen}");
    assert!(screen.contains("apply to the cluster?"), "{screen}");
    // The request itself carries the value, of course.
    h.press("y");
    h.run_commands();
    assert!(api.writes()[1].body_text().contains("bmV3LXNlY3JldA=="));
}

/// The TUI keeps the connection the object was read with: reloads and commits go through it
/// (no new kubeconfig read, client or TCP connection per request).
#[test]
fn cluster_keys_requests_reuse_the_connection_of_the_open() {
    let api = FakeApi::start();
    api.put(live_web());
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::cluster(api.kubeconfig(dir.path(), "team"), LOCAL, "web.yaml");
    let opened_with = api.connections();
    assert!(opened_with >= 1);
    let gets = |api: &FakeApi| {
        api.requests()
            .iter()
            .filter(|r| r.method == "GET" && r.path == WEB)
            .count()
    };
    let before = gets(&api);
    for _ in 0..3 {
        h.press("R");
        assert_eq!(h.run_commands(), 1);
        assert_eq!(h.notice(), "reloaded from the cluster");
    }
    assert_eq!(gets(&api), before + 3, "each R reads the object again");
    assert_eq!(
        api.connections(),
        opened_with,
        "the reloads went through the connection of the open"
    );
}
