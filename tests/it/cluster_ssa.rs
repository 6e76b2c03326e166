//! `plan --server-side` and `apply --server-side` in cluster mode, against the fake API server
//! whose server-side apply is applyscope's SSA engine (`fakeapi/ssa.rs`): the live object's
//! managedFields read from the cluster, conflicts, and every request of kubectl's sequence
//! (method, query, content type, body bytes) with the managedFields it leaves.

#![cfg(feature = "cluster")]

use serde_json::{Value, json};

use crate::fakeapi::ssa::engine;
use crate::fakeapi::{Cluster, FakeApi, go_json, status_body};
use crate::support::{stderr, stdout};

const LA: &str = "kubectl.kubernetes.io/last-applied-configuration";
const CM_PATH: &str = "/api/v1/namespaces/team/configmaps/test";
const DEPLOY_PATH: &str = "/apis/apps/v1/namespaces/team/deployments/web";

/// The server holding `live` (its context's namespace `team`), `local` written to `local.yaml`.
fn setup(live: Value, local: &str) -> Cluster {
    setup_in("team", live, local)
}

/// With `namespace` the context's.
fn setup_in(namespace: &str, live: Value, local: &str) -> Cluster {
    let s = Cluster::serve(FakeApi::start(), namespace, [live]);
    s.write("local.yaml", local);
    s
}

pub const WEB: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: team
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: web:2
";

/// Applied by `kubectl` (server-side) with 2 replicas, then scaled to 5 by an autoscaler.
pub fn autoscaled_web() -> Value {
    let file = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "team"},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "web:2"}]}}}});
    let applied = engine(None, &file, "kubectl", true);
    let mut scaled = applied.clone();
    scaled["spec"]["replicas"] = json!(5);
    engine(Some(&applied), &scaled, "kube-controller-manager", false)
}

#[test]
fn ssa_cluster_plan_conflicts_with_the_autoscaler_and_sends_nothing() {
    let s = setup(autoscaled_web(), WEB);
    let o = s.run(&["plan", "-f", "local.yaml", "--server-side"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "Apply failed with 1 conflict: conflict with \"kube-controller-manager\" using apps/v1: .spec.replicas"
        ),
        "{}",
        stderr(&o)
    );
    let o = s.run(&[
        "plan",
        "-f",
        "local.yaml",
        "--server-side",
        "--force-conflicts",
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(plan["patchType"], "application/apply-patch+yaml");
    assert_eq!(plan["result"]["spec"]["replicas"], 3);
    assert_eq!(
        plan["result"]["spec"]["template"]["spec"]["containers"][0]["image"],
        "web:2"
    );
    let replicas = plan["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == ".spec.replicas")
        .unwrap();
    assert_eq!(replicas["action"], "conflict", "{replicas}");
    assert_eq!(
        replicas["ownersBefore"][0]["manager"],
        "kube-controller-manager"
    );
    assert_eq!(replicas["ownersAfter"][0]["manager"], "kubectl");
    let managers: Vec<&str> = plan["result"]["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["manager"].as_str().unwrap())
        .collect();
    assert_eq!(
        managers,
        ["kubectl"],
        "the autoscaler owned only replicas: its entry goes"
    );
    assert!(s.api.writes().is_empty(), "a plan sends nothing");
    // apply without --yes: the predicted conflict, exit 1, nothing sent.
    let o = s.run(&["apply", "-f", "local.yaml", "--server-side"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Deployment team/web: Apply failed with 1 conflict"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("nothing sent"), "{}", stdout(&o));
    assert!(s.api.writes().is_empty());
    // With --yes the server agrees: the dry run conflicts, nothing more is sent.
    let o = s.run(&["apply", "-f", "local.yaml", "--server-side", "--yes"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("conflict with \"kube-controller-manager\" using apps/v1: .spec.replicas"),
        "{}",
        stderr(&o)
    );
    let writes = s.api.writes();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert_eq!(
        writes[0].query,
        "dryRun=All&fieldManager=kubectl&fieldValidation=Strict&force=false"
    );
    // Forced, it is applied and the autoscaler loses the field.
    let o = s.run(&[
        "apply",
        "-f",
        "local.yaml",
        "--server-side",
        "--yes",
        "--force-conflicts",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let live = s.api.object(DEPLOY_PATH).unwrap();
    assert_eq!(live["spec"]["replicas"], 3);
    let writes = s.api.writes();
    assert_eq!(writes.len(), 3, "{writes:?}");
    assert_eq!(
        writes[2].query,
        "fieldManager=kubectl&fieldValidation=Strict&force=true"
    );
}

pub const CM: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: test
data:
  key: value
";

/// A ConfigMap created by client-side apply with `key` and `legacy` (kubernetes#99003).
pub fn client_side_configmap() -> Value {
    let config = json!({"apiVersion":"v1","data":{"key":"value","legacy":"unused"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"test","namespace":"team"}});
    let mut created = config.clone();
    let mut annotation = go_json(&config);
    annotation.push('\n');
    created["metadata"]["annotations"] = json!({LA: annotation});
    engine(None, &created, "kubectl-client-side-apply", false)
}

fn fields_v1(obj: &Value, manager: &str) -> Option<String> {
    obj["metadata"]["managedFields"]
        .as_array()?
        .iter()
        .find(|e| e["manager"] == manager)
        .map(|e| e["fieldsV1"].to_string())
}

#[test]
fn ssa_cluster_apply_migrates_a_client_side_object_as_kubectl_does() {
    let s = setup(client_side_configmap(), CM);
    // The plan from the cluster: the four requests and the object they leave.
    let o = s.run(&["plan", "-f", "local.yaml", "--server-side", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let names: Vec<&str> = plan["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["request"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "apply",
            "save-last-applied",
            "upgrade-managed-fields",
            "apply-again"
        ]
    );
    assert_eq!(
        plan["patch"]["metadata"]["namespace"], "team",
        "kubectl sends the namespace"
    );
    assert_eq!(plan["result"]["data"], json!({"key": "value"}));

    // Without --yes: the requests, nothing sent.
    let o = s.run(&["apply", "-f", "local.yaml", "--server-side"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    for line in [
        "ConfigMap team/test: would send (apply) PATCH /api/v1/namespaces/team/configmaps/test?fieldManager=kubectl&fieldValidation=Strict&force=false (application/apply-patch+yaml",
        "ConfigMap team/test: would send (save-last-applied) PATCH /api/v1/namespaces/team/configmaps/test?fieldManager=kubectl-last-applied&fieldValidation=Strict (application/apply-patch+yaml",
        "ConfigMap team/test: would send (upgrade-managed-fields) PATCH /api/v1/namespaces/team/configmaps/test?fieldManager=kubectl&fieldValidation=Strict (application/json-patch+json",
        "ConfigMap team/test: would send (apply-again) PATCH",
        "nothing sent",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert!(s.api.writes().is_empty());

    // With --yes: the dry run, then kubectl's four requests, in order.
    let o = s.run(&["apply", "-f", "local.yaml", "--server-side", "--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let writes = s.api.writes();
    let seen: Vec<(&str, &str)> = writes
        .iter()
        .map(|w| (w.query.as_str(), w.content_type.as_deref().unwrap()))
        .collect();
    let apply = "application/apply-patch+yaml";
    assert_eq!(
        seen,
        [
            (
                "dryRun=All&fieldManager=kubectl&fieldValidation=Strict&force=false",
                apply
            ),
            (
                "fieldManager=kubectl&fieldValidation=Strict&force=false",
                apply
            ),
            (
                "fieldManager=kubectl-last-applied&fieldValidation=Strict",
                apply
            ),
            (
                "fieldManager=kubectl&fieldValidation=Strict",
                "application/json-patch+json"
            ),
            (
                "fieldManager=kubectl&fieldValidation=Strict&force=false",
                apply
            ),
        ]
    );
    assert!(
        writes
            .iter()
            .all(|w| w.method == "PATCH" && w.path == CM_PATH)
    );
    let body = "{\"apiVersion\":\"v1\",\"data\":{\"key\":\"value\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"test\",\"namespace\":\"team\"}}\n";
    for i in [0, 1, 4] {
        assert_eq!(writes[i].body_text(), body);
    }
    // The annotation as the API server rewrote it after the first apply (manager `kubectl`:
    // the applied object).
    let annotation = body.to_owned();
    let saved = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"annotations": {LA: annotation}, "name": "test", "namespace": "team"}});
    assert_eq!(writes[2].body_text(), format!("{}\n", go_json(&saved)));
    // The csaupgrade: the client-side entry merged into kubectl's, guarded by the
    // resourceVersion the save-last-applied answer carried.
    let patch = writes[3].body_json();
    assert_eq!(patch[0]["op"], "replace");
    assert_eq!(patch[0]["path"], "/metadata/managedFields");
    assert_eq!(
        patch[1],
        json!({"op": "replace", "path": "/metadata/resourceVersion", "value": "103"})
    );
    let entries = patch[0]["value"].as_array().unwrap();
    assert!(
        entries
            .iter()
            .all(|e| e["manager"] != "kubectl-client-side-apply"),
        "{patch}"
    );
    let kubectl = entries.iter().find(|e| e["manager"] == "kubectl").unwrap();
    assert_eq!(
        kubectl["fieldsV1"].to_string(),
        r#"{"f:data":{".":{},"f:key":{},"f:legacy":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}"#
    );
    // What it leaves: `legacy` pruned by the second apply, as planned.
    let live = s.api.object(CM_PATH).unwrap();
    assert_eq!(live["data"], json!({"key": "value"}));
    assert_eq!(
        fields_v1(&live, "kubectl").unwrap(),
        r#"{"f:data":{"f:key":{}}}"#
    );
    assert_eq!(fields_v1(&live, "kubectl-client-side-apply"), None);
    assert!(fields_v1(&live, "kubectl-last-applied").is_some());
    for manager in ["kubectl", "kubectl-last-applied"] {
        assert_eq!(
            fields_v1(&live, manager),
            fields_v1(&plan["result"], manager),
            "{manager}"
        );
    }
    let text = stdout(&o);
    assert!(
        text.contains("ConfigMap team/test: server dry run accepted"),
        "{text}"
    );
    assert!(
        text.contains("ConfigMap team/test: apply-again: PATCH"),
        "{text}"
    );
    assert!(
        text.contains("ConfigMap team/test: serverside-applied (resourceVersion 105)"),
        "{text}"
    );

    // Applied again: one request (nothing to save or migrate).
    let o = s.run(&["apply", "-f", "local.yaml", "--server-side", "--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(s.api.writes().len(), 7);
}

#[test]
fn ssa_cluster_apply_sends_nothing_after_a_refused_dry_run() {
    let s = setup(client_side_configmap(), CM);
    s.api.fail_next(
        "PATCH",
        CM_PATH,
        422,
        status_body(422, "Invalid", "admission webhook denied the request"),
    );
    let o = s.run(&["apply", "-f", "local.yaml", "--server-side", "--yes"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("server dry run of ConfigMap team/test"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("admission webhook denied the request"),
        "{}",
        stderr(&o)
    );
    let writes = s.api.writes();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert!(writes[0].query.starts_with("dryRun=All&"));
    assert_eq!(
        s.api.object(CM_PATH).unwrap(),
        client_side_configmap_stored(&s)
    );
}

/// The object as the fake holds it (its resourceVersion set by `put`).
fn client_side_configmap_stored(s: &Cluster) -> Value {
    let mut v = client_side_configmap();
    v["metadata"]["resourceVersion"] =
        s.api.object(CM_PATH).unwrap()["metadata"]["resourceVersion"].clone();
    v
}

#[test]
fn ssa_cluster_server_dry_run_only_sends_the_dry_run() {
    let s = setup(client_side_configmap(), CM);
    let o = s.run(&[
        "apply",
        "-f",
        "local.yaml",
        "--server-side",
        "--server-dry-run",
        "--field-manager",
        "ci",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let writes = s.api.writes();
    assert_eq!(writes.len(), 1);
    assert_eq!(
        writes[0].query,
        "dryRun=All&fieldManager=ci&fieldValidation=Strict&force=false"
    );
    assert!(stdout(&o).contains("server dry run only"), "{}", stdout(&o));
}

/// A custom resource whose `spec.items` is a list map keyed by `name` in the cluster's
/// OpenAPI v3 document.
fn widget_v3() -> Value {
    json!({
        "openapi": "3.0.0",
        "paths": {},
        "components": {"schemas": {"com.example.v1.Widget": {
            "type": "object",
            "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Widget"}],
            "properties": {
                "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "spec": {"type": "object", "properties": {"items": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "integer"}}}}}}
            }
        }}}
    })
}

#[test]
fn ssa_cluster_plan_of_a_custom_resource_reads_the_clusters_openapi_v3() {
    let live = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "team"},
        "spec": {"items": [{"name": "b", "size": 2}]}});
    let file = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  items:\n  - {name: a, size: 5}\n";
    // Without the document the list is atomic: the whole list, recorded as the object's
    // before its first apply, conflicts.
    let s = setup(live.clone(), file);
    let o = s.run(&["plan", "-f", "local.yaml", "--server-side"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("conflict with \"before-first-apply\" using example.com/v1: .spec.items"),
        "{}",
        stderr(&o)
    );
    // With it the list merges by name: `a` is added, `b` kept.
    let s = setup(live, file);
    s.api.set_openapi(
        "/openapi/v3",
        json!({"paths": {"apis/example.com/v1": {"serverRelativeURL": "/openapi/v3/apis/example.com/v1?hash=X"}}}),
    );
    s.api
        .set_openapi("/openapi/v3/apis/example.com/v1", widget_v3());
    let o = s.run(&["plan", "-f", "local.yaml", "--server-side", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        plan["result"]["spec"]["items"],
        json!([{"name": "b", "size": 2}, {"name": "a", "size": 5}])
    );
    assert_eq!(plan["warnings"], json!([]), "the kind's schema was found");
    assert!(s.api.writes().is_empty());
}

/// The requests kubectl 1.37.1 was recorded sending for `--server-side` against a server that
/// answers every request with one object made by client-side apply
/// (`tests/cluster-recordings/kubectl-server-side.json`): applyscope, answered the same,
/// sends the same requests after its dry run, byte for byte.
#[test]
fn ssa_cluster_apply_sends_what_kubectl_was_recorded_sending() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let recorded: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/cluster-recordings/kubectl-server-side.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(recorded["kubectl_version"], "v1.37.1");
    for run_ in recorded["runs"].as_array().unwrap() {
        let command = run_["command"].as_str().unwrap();
        let flags: Vec<&str> = command
            .strip_prefix("kubectl apply -f configmap.yaml ")
            .unwrap()
            .split(' ')
            .collect();
        let requests = run_["requests"].as_array().unwrap();
        let s = setup_in(
            "default",
            recorded["answer"].clone(),
            recorded["file"].as_str().unwrap(),
        );
        let path = requests[0]["path"].as_str().unwrap();
        for _ in 0..=requests.len() {
            s.api
                .fail_next("PATCH", path, 200, recorded["answer"].clone());
        }
        let mut args = vec!["apply", "-f", "local.yaml", "--yes"];
        args.extend(flags);
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(0), "{command}: {}", stderr(&o));
        let writes = s.api.writes();
        assert_eq!(writes.len(), requests.len() + 1, "{command}: {writes:?}");
        assert_eq!(
            writes[0].query,
            format!("dryRun=All&{}", requests[0]["query"].as_str().unwrap())
        );
        for (sent, r) in writes[1..].iter().zip(requests) {
            assert_eq!(sent.path, r["path"], "{command}");
            assert_eq!(sent.query, r["query"], "{command}");
            assert_eq!(
                sent.content_type.as_deref(),
                r["content_type"].as_str(),
                "{command}"
            );
            assert_eq!(sent.body_text(), r["body"].as_str().unwrap(), "{command}");
        }
    }
}

#[test]
fn ssa_cluster_plan_and_apply_of_many_objects_and_a_create() {
    // A missing ConfigMap (a create) and the autoscaled Deployment, in one file.
    let s = setup(autoscaled_web(), &format!("{CM}---\n{WEB}"));
    let o = s.run(&["plan", "-f", "local.yaml", "--server-side", "-o", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let plans: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let objects = plans["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["result"]["data"], json!({"key": "value"}));
    assert_eq!(objects[0]["steps"][0]["request"], "apply");
    assert!(
        objects[1]["conflicts"]
            .as_str()
            .unwrap()
            .contains(".spec.replicas"),
        "{plans}"
    );
    assert!(
        stderr(&o).contains(
            "Deployment.apps team/web: Apply failed with 1 conflict: conflict with \"kube-controller-manager\" using apps/v1: .spec.replicas"
        ),
        "{}",
        stderr(&o)
    );
    // Forced: both applied; the ConfigMap created by its apply PATCH (no annotation: one
    // request each).
    let o = s.run(&[
        "apply",
        "-f",
        "local.yaml",
        "--server-side",
        "--force-conflicts",
        "--yes",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let writes = s.api.writes();
    let sent: Vec<(&str, &str)> = writes
        .iter()
        .map(|w| (w.path.as_str(), w.query.as_str()))
        .collect();
    let (dry, real) = (
        "dryRun=All&fieldManager=kubectl&fieldValidation=Strict&force=true",
        "fieldManager=kubectl&fieldValidation=Strict&force=true",
    );
    assert_eq!(
        sent,
        [
            (CM_PATH, dry),
            (DEPLOY_PATH, dry),
            (CM_PATH, real),
            (DEPLOY_PATH, real)
        ]
    );
    let created = s.api.object(CM_PATH).unwrap();
    assert_eq!(created["data"], json!({"key": "value"}));
    assert_eq!(
        fields_v1(&created, "kubectl").unwrap(),
        r#"{"f:data":{"f:key":{}}}"#
    );
}
