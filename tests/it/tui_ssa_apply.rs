//! `P` in the TUI's server-side view (cluster mode), through the real keymap, `update` and the
//! runtime's command runner, against the fake API server whose server-side apply is the SSA
//! engine: the dry run, the confirmation, kubectl's sequence, the object read again and
//! planned again; a conflict is the API server's message and nothing is sent.

#![cfg(feature = "cluster")]

use applyscope::app::Mode;
use serde_json::Value;

use crate::cluster_ssa::{CM, WEB, autoscaled_web, client_side_configmap};
use crate::fakeapi::{FakeApi, lib};
use crate::tui_support::Harness;

const CM_PATH: &str = "/api/v1/namespaces/team/configmaps/test";

#[test]
fn tui_ssa_apply_dry_run_confirm_then_kubectls_sequence() {
    let api = FakeApi::start();
    api.put(client_side_configmap());
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::cluster(api.kubeconfig(dir.path(), "team"), CM, "cm.yaml");
    h.press("S");
    assert_eq!(h.run_commands(), 1, "the server-side plan");
    assert!(h.model.server.is_some(), "{}", h.notice());
    let reads = api.requests().len();

    h.press("P");
    assert_eq!(h.run_commands(), 1, "the dry run");
    let Mode::Confirm(p) = &h.model.mode else {
        panic!("confirm after the dry run: {}", h.notice());
    };
    assert!(p.action.contains("dry run accepted"), "{}", p.action);
    assert!(
        p.action
            .contains("save-last-applied, upgrade-managed-fields, apply-again"),
        "{}",
        p.action
    );
    let screen = h.text();
    assert!(
        screen.contains("apply server-side to the cluster?"),
        "{screen}"
    );
    let writes = api.writes();
    assert_eq!(writes.len(), 1);
    assert_eq!(
        writes[0].query,
        "dryRun=All&fieldManager=kubectl&fieldValidation=Strict&force=false"
    );
    assert_eq!(
        writes[0].content_type.as_deref(),
        Some("application/apply-patch+yaml")
    );

    h.press("y");
    assert_eq!(h.run_commands(), 1, "one report for the whole sequence");
    let writes = api.writes();
    let seen: Vec<&str> = writes.iter().map(|w| w.query.as_str()).collect();
    assert_eq!(
        seen,
        [
            "dryRun=All&fieldManager=kubectl&fieldValidation=Strict&force=false",
            "fieldManager=kubectl&fieldValidation=Strict&force=false",
            "fieldManager=kubectl-last-applied&fieldValidation=Strict",
            "fieldManager=kubectl&fieldValidation=Strict",
            "fieldManager=kubectl&fieldValidation=Strict&force=false",
        ]
    );
    // After the sequence the object is read again.
    let last = api.requests().into_iter().skip(reads).last().unwrap();
    assert_eq!((last.method.as_str(), last.path.as_str()), ("GET", CM_PATH));
    assert!(
        h.notice().starts_with(
            "server-side applied to ConfigMap team/test: apply, save-last-applied, upgrade-managed-fields, apply-again (resourceVersion"
        ),
        "{}",
        h.notice()
    );
    // The live object is the one in the cluster, and the server-side view plans against it:
    // `legacy` is gone, and applying again changes nothing.
    let stored: Value = api.object(CM_PATH).unwrap();
    assert_eq!(stored["data"], serde_json::json!({"key": "value"}));
    let session = h.model.edit.cluster.as_deref().unwrap();
    assert_eq!(session.live.as_ref(), Some(&lib(&stored)));
    let server = h
        .model
        .server
        .as_deref()
        .expect("still the server-side view");
    assert_eq!(server.request.live.as_ref(), Some(&lib(&stored)));
    let plan = server.plan().expect("planned again");
    assert_eq!(
        plan.steps.iter().map(|s| s.kind.name()).collect::<Vec<_>>(),
        ["apply"],
        "nothing left to migrate"
    );
    assert!(
        plan.fields
            .iter()
            .all(|f| f.action == applyscope::session::ssa::Action::Keep
                || f.action == applyscope::session::ssa::Action::Set),
        "{:?}",
        plan.fields
    );
    assert!(matches!(h.model.mode, Mode::Browse));
}

#[test]
fn tui_ssa_apply_conflict_is_the_api_servers_message_and_nothing_is_sent() {
    let api = FakeApi::start();
    api.put(autoscaled_web());
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::cluster(api.kubeconfig(dir.path(), "team"), WEB, "web.yaml");
    h.press("S");
    h.run_commands();
    assert!(h.model.server.is_some());
    h.press("P");
    assert_eq!(h.run_commands(), 1);
    assert!(matches!(h.model.mode, Mode::Browse));
    let n = h.notice();
    assert!(
        n.starts_with("server dry run: the API server refuses the apply: Apply failed with 1 conflict: conflict with \"kube-controller-manager\""),
        "{n}"
    );
    assert!(n.contains(".spec.replicas"), "{n}");
    assert!(n.contains("without --force-conflicts"), "{n}");
    let writes = api.writes();
    assert_eq!(writes.len(), 1, "the dry run only");
    assert!(writes[0].query.starts_with("dryRun=All&"));
    assert_eq!(
        api.object("/apis/apps/v1/namespaces/team/deployments/web")
            .unwrap()["spec"]["replicas"],
        5
    );

    // Client-side (S again): P is the client-side apply's dry run.
    h.press("S");
    assert!(h.model.server.is_none());
    h.press("P");
    h.run_commands();
    let writes = api.writes();
    assert_eq!(
        writes[1].content_type.as_deref(),
        Some("application/strategic-merge-patch+json")
    );
}
