//! `applyscope plan --server-side` on files, in situations built here with the engine's own
//! requests (the live objects carry the managedFields the API server would have stored), each
//! checked against the rules of SEMANTICS.md (§3 one apply, §4 conflicts, §6 kubectl's sequence).

use std::path::Path;

use applyscope::engine::ssa::request::Request;
use applyscope::value::Value;
use serde_json::{Value as Json, json};

use super::support::run_bin;

const TIME: &str = "2026-11-25T10:00:00Z";

fn request<'a>(api_version: &'a str, kind: &str, subresource: &'a str) -> Request<'a> {
    crate::support::embedded_request(api_version, kind, subresource, TIME)
}

fn v(j: &Json) -> Value {
    serde_json::from_value(j.clone()).unwrap()
}

fn deployment(replicas: i64, env: &Json, labels: &Json) -> Json {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "labels": labels},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.27", "env": env}]}}}})
}

/// Writes the files and runs `plan --server-side -f local.json --live live.json` with `extra`.
fn plan(local: &Json, live: &Value, extra: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "local.json",
        &serde_json::to_string(local).unwrap(),
    );
    write(
        dir.path(),
        "live.json",
        &serde_json::to_string(live).unwrap(),
    );
    let mut args: Vec<&str> = "plan --server-side -f local.json --live live.json"
        .split(' ')
        .collect();
    args.extend_from_slice(extra);
    run_bin(&args, None, dir.path())
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn json_plan(local: &Json, live: &Value, extra: &[&str]) -> Json {
    let mut args = vec!["-o", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = plan(local, live, &args);
    assert_eq!(code, 0, "stderr: {err}");
    serde_json::from_str(&out).unwrap()
}

fn field<'a>(plan: &'a Json, path: &str) -> Option<&'a Json> {
    plan["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path)
}

fn managers(owners: &Json) -> Vec<&str> {
    owners
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["manager"].as_str().unwrap())
        .collect()
}

fn entry<'a>(obj: &'a Json, manager: &str, operation: &str) -> Option<&'a Json> {
    obj["metadata"]["managedFields"]
        .as_array()?
        .iter()
        .find(|e| e["manager"] == manager && e["operation"] == operation)
}

/// An autoscaler (`kube-controller-manager` on `/scale`) took `spec.replicas`: applying another
/// value conflicts (§4), with the API server's message, exit 1; `--force-conflicts` moves the
/// field to the applier and out of the autoscaler's entry.
fn autoscaled(subresource: &str) -> (Json, Value) {
    let file = deployment(
        2,
        &json!([{"name": "A", "value": "1"}]),
        &json!({"app": "web"}),
    );
    let req = request("apps/v1", "Deployment", "");
    let live = req
        .apply(&Value::Null, &v(&file), "kubectl", false)
        .unwrap();
    let mut scaled = live.clone();
    scaled["spec"]["replicas"] = Value::from(5);
    let live = request("apps/v1", "Deployment", subresource)
        .update(&live, &scaled, "kube-controller-manager")
        .unwrap();
    let mut next = file;
    next["spec"]["replicas"] = json!(3);
    (next, live)
}

#[test]
fn an_autoscaler_on_scale_owns_replicas_conflict() {
    let (file, live) = autoscaled("scale");
    let (code, out, err) = plan(&file, &live, &["-o", "json"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty());
    assert!(
        err.contains(
            "Apply failed with 1 conflict: conflict with \"kube-controller-manager\" with subresource \"scale\" using apps/v1: .spec.replicas"
        ),
        "{err}"
    );
}

#[test]
fn an_autoscaler_on_the_main_endpoint_conflicts_and_force_moves_ownership() {
    let (file, live) = autoscaled("");
    let (code, _, err) = plan(&file, &live, &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "Apply failed with 1 conflict: conflict with \"kube-controller-manager\" using apps/v1: .spec.replicas"
        ),
        "{err}"
    );
    let p = json_plan(&file, &live, &["--force-conflicts"]);
    let f = field(&p, ".spec.replicas").unwrap();
    assert_eq!(f["action"], "conflict");
    assert_eq!(f["before"], 5);
    assert_eq!(f["after"], 3);
    assert!(managers(&f["ownersBefore"]).contains(&"kube-controller-manager"));
    assert_eq!(managers(&f["ownersAfter"]), ["kubectl"]);
    assert_eq!(p["result"]["spec"]["replicas"], 3);
    assert!(entry(&p["result"], "kube-controller-manager", "Update").is_none());
    assert_eq!(p["patchType"], "application/apply-patch+yaml");
    assert_eq!(p["patch"], file);
    // The same value as the autoscaler's is no conflict: the field is shared (§3).
    let mut same = file.clone();
    same["spec"]["replicas"] = json!(5);
    let p = json_plan(&same, &live, &[]);
    let f = field(&p, ".spec.replicas").unwrap();
    assert_eq!(f["action"], "keep");
    assert_eq!(
        managers(&f["ownersAfter"]),
        ["kube-controller-manager", "kubectl"]
    );
}

/// Another applier (`ci-bot`) owns an env var the file changes: a conflict with an Apply
/// owner prints without `using` (§4).
#[test]
fn another_applier_owns_an_env_var() {
    let file = deployment(
        2,
        &json!([{"name": "A", "value": "1"}]),
        &json!({"app": "web"}),
    );
    let req = request("apps/v1", "Deployment", "");
    let live = req
        .apply(&Value::Null, &v(&file), "kubectl", false)
        .unwrap();
    let bot = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"template": {"spec": {"containers": [{"name": "web",
            "env": [{"name": "B", "value": "1"}]}]}}}});
    let live = req.apply(&live, &v(&bot), "ci-bot", false).unwrap();
    let next = deployment(
        2,
        &json!([{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]),
        &json!({"app": "web"}),
    );
    let (code, _, err) = plan(&next, &live, &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "Apply failed with 1 conflict: conflict with \"ci-bot\": .spec.template.spec.containers[name=\"web\"].env[name=\"B\"].value"
        ),
        "{err}"
    );
    // Leaving B out: it stays, still ci-bot's.
    let p = json_plan(&file, &live, &[]);
    let env = &p["result"]["spec"]["template"]["spec"]["containers"][0]["env"];
    assert_eq!(env.as_array().unwrap().len(), 2);
}

/// A label the applier owned and the file dropped is pruned (§3 step 3); one another manager
/// also owns is kept, and is that manager's alone afterwards.
#[test]
fn pruned_when_you_owned_it_kept_when_shared() {
    let file = deployment(
        2,
        &json!([{"name": "A", "value": "1"}, {"name": "OLD", "value": "x"}]),
        &json!({"app": "web", "tier": "front", "team": "x"}),
    );
    let req = request("apps/v1", "Deployment", "");
    let live = req
        .apply(&Value::Null, &v(&file), "kubectl", false)
        .unwrap();
    let other = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "labels": {"team": "x"}}});
    let live = req.apply(&live, &v(&other), "ci-bot", false).unwrap();
    let next = deployment(
        2,
        &json!([{"name": "A", "value": "1"}]),
        &json!({"app": "web"}),
    );
    let p = json_plan(&next, &live, &[]);
    let tier = field(&p, ".metadata.labels.tier").unwrap();
    assert_eq!(tier["action"], "remove");
    assert_eq!(tier["before"], "front");
    assert!(tier.get("after").is_none());
    assert_eq!(managers(&tier["ownersBefore"]), ["kubectl"]);
    assert!(tier["rule"].as_str().unwrap().starts_with("pruned"));
    // An env var dropped: the item is pruned whole, and said once.
    let old = ".spec.template.spec.containers[name=\"web\"].env[name=\"OLD\"]";
    assert_eq!(field(&p, old).unwrap()["action"], "remove");
    assert!(field(&p, &format!("{old}.value")).is_none());
    let team = field(&p, ".metadata.labels.team").unwrap();
    assert_eq!(team["action"], "keep");
    assert_eq!(managers(&team["ownersBefore"]), ["ci-bot", "kubectl"]);
    assert_eq!(managers(&team["ownersAfter"]), ["ci-bot"]);
    assert_eq!(
        p["result"]["metadata"]["labels"],
        json!({"app": "web", "team": "x"})
    );
    assert_eq!(
        entry(&p["result"], "kubectl", "Apply").unwrap()["fieldsV1"]["f:metadata"],
        json!({"f:labels": {"f:app": {}}})
    );
    // -o text: one line per field that changes, with its owners.
    let (code, text, _) = plan(&next, &live, &[]);
    assert_eq!(code, 0);
    assert!(
        text.lines().any(|l| l.starts_with("remove")
            && l.contains(".metadata.labels.tier")
            && l.contains("kubectl (Apply) → nobody")),
        "{text}"
    );
}

/// A hand edit (`kubectl edit`, an Update) of a field the file does not set is kept, and
/// listed nowhere: the applier never owned it.
#[test]
fn a_hand_edit_is_kept() {
    let file = deployment(
        2,
        &json!([{"name": "A", "value": "1"}]),
        &json!({"app": "web"}),
    );
    let req = request("apps/v1", "Deployment", "");
    let live = req
        .apply(&Value::Null, &v(&file), "kubectl", false)
        .unwrap();
    let mut edited = live.clone();
    edited["metadata"]["labels"]["debug"] = Value::from("true");
    let live = req.update(&live, &edited, "kubectl-edit").unwrap();
    let mut next = file;
    next["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.28");
    let p = json_plan(&next, &live, &[]);
    assert_eq!(p["result"]["metadata"]["labels"]["debug"], "true");
    assert!(field(&p, ".metadata.labels.debug").is_none());
    let image = field(&p, ".spec.template.spec.containers[name=\"web\"].image").unwrap();
    assert_eq!(image["action"], "set");
    assert!(entry(&p["result"], "kubectl-edit", "Update").is_some());
}

/// kubernetes#99003 (§6's worked example): an object made by client-side apply; the first
/// server-side apply keeps what the file dropped, the csaupgrade moves the client-side
/// manager's fields to `kubectl`, and the second apply prunes it.
#[test]
fn the_migration_from_client_side_apply() {
    let annotation = r#"{"apiVersion":"v1","data":{"key":"value","legacy":"unused"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"test","namespace":"default"}}"#;
    let created = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test", "namespace": "default", "annotations": {
            "kubectl.kubernetes.io/last-applied-configuration": format!("{annotation}\n")}},
        "data": {"key": "value", "legacy": "unused"}});
    let req = request("v1", "ConfigMap", "");
    let live = req
        .update(&Value::Null, &v(&created), "kubectl-client-side-apply")
        .unwrap();
    let file = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test", "namespace": "default"}, "data": {"key": "value"}});
    let p = json_plan(&file, &live, &[]);
    let requests: Vec<&str> = p["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["request"].as_str().unwrap())
        .collect();
    assert_eq!(
        requests,
        [
            "apply",
            "save-last-applied",
            "upgrade-managed-fields",
            "apply-again"
        ]
    );
    // The first apply keeps `legacy` (kubectl did not own it yet); only the annotation changes.
    assert_eq!(
        p["steps"][0]["changed"],
        json!([{"path": ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration", "action": "set"}])
    );
    let first = json!({"metadata": {"managedFields": p["steps"][0]["managedFields"]}});
    assert_eq!(
        entry(&first, "kubectl", "Apply").unwrap()["fieldsV1"],
        json!({"f:data": {"f:key": {}}})
    );
    assert_eq!(
        entry(&first, "kubectl-client-side-apply", "Update").unwrap()["fieldsV1"]["f:data"],
        json!({".": {}, "f:key": {}, "f:legacy": {}})
    );
    assert_eq!(
        p["steps"][3]["changed"],
        json!([{"path": ".data.legacy", "action": "remove"}])
    );
    let legacy = field(&p, ".data.legacy").unwrap();
    assert_eq!(legacy["action"], "remove");
    assert!(legacy["rule"].as_str().unwrap().contains("99003"));
    assert_eq!(
        managers(&legacy["ownersBefore"]),
        ["kubectl-client-side-apply"]
    );
    assert_eq!(p["result"]["data"], json!({"key": "value"}));
    assert_eq!(
        entry(&p["result"], "kubectl", "Apply").unwrap()["fieldsV1"],
        json!({"f:data": {"f:key": {}}})
    );
    assert!(entry(&p["result"], "kubectl-client-side-apply", "Update").is_none());
    assert!(entry(&p["result"], "kubectl-last-applied", "Apply").is_some());
    assert!(
        p["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["code"] == "csa-upgrade" && w["message"].as_str().unwrap().contains("99003"))
    );
}

/// Bad managedFields: one line naming the file and the entry, exit 2, nothing on stdout.
#[test]
fn bad_managed_fields_are_refused() {
    let file = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test"}, "data": {"key": "value"}});
    let entry = |op: &str, fields: Json| {
        json!({"manager": "x", "operation": op, "apiVersion": "v1",
            "fieldsType": "FieldsV1", "fieldsV1": fields})
    };
    let ok = entry("Update", json!({"f:data": {}}));
    for (managed, says) in [
        (
            json!([entry("Patch", json!({}))]),
            "managedFields entry 0 (manager \"x\"): operation",
        ),
        (json!({"a": 1}), "metadata.managedFields must be a list"),
        (
            json!([entry("Update", json!({"k:{oops": {}}))]),
            "managedFields entry 0 (manager \"x\"): ",
        ),
        (
            json!([ok, ok]),
            "managedFields entries 0 and 1 are the same manager",
        ),
    ] {
        let mut live = file.clone();
        live["metadata"]["managedFields"] = managed;
        let (code, out, err) = plan(&file, &v(&live), &[]);
        assert_eq!(code, 2, "{err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("live.json: {says}")), "{err}");
    }
}

/// A create: every field the file sets is added, and owned by the applier.
#[test]
fn a_create_adds_every_field() {
    let file = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test"}, "data": {"key": "value"}});
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "local.json", &file.to_string());
    let args = "plan --server-side --field-manager ci -f local.json --no-live -o json";
    let args: Vec<&str> = args.split(' ').collect();
    let (code, out, err) = run_bin(&args, None, dir.path());
    assert_eq!(code, 0, "{err}");
    let p: Json = serde_json::from_str(&out).unwrap();
    let key = field(&p, ".data.key").unwrap();
    assert_eq!(key["action"], "add");
    assert_eq!(managers(&key["ownersAfter"]), ["ci"]);
    assert_eq!(
        entry(&p["result"], "ci", "Apply").unwrap()["fieldsV1"],
        json!({"f:data": {"f:key": {}}})
    );
}

/// Many objects, matched as `plan` matches them: each planned; the one that conflicts is
/// reported on stderr by name, exit 1, the other still planned.
#[test]
fn many_objects_each_planned() {
    let (scaled_file, scaled_live) = autoscaled("scale");
    let config = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "settings", "namespace": "default"}, "data": {"a": "1"}});
    let config_live = request("v1", "ConfigMap", "")
        .apply(&Value::Null, &v(&config), "kubectl", false)
        .unwrap();
    let mut next_config = config.clone();
    next_config["data"]["a"] = json!("2");
    let dir = tempfile::tempdir().unwrap();
    let docs = |a: &str, b: &str| format!("{a}\n---\n{b}\n");
    write(
        dir.path(),
        "local.yaml",
        &docs(&scaled_file.to_string(), &next_config.to_string()),
    );
    write(
        dir.path(),
        "live.yaml",
        &docs(
            &serde_json::to_string(&config_live).unwrap(),
            &serde_json::to_string(&scaled_live).unwrap(),
        ),
    );
    let args = "plan --server-side -f local.yaml --live live.yaml -o json";
    let args: Vec<&str> = args.split(' ').collect();
    let (code, out, err) = run_bin(&args, None, dir.path());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("Deployment.apps default/web: Apply failed with 1 conflict: conflict with \"kube-controller-manager\" with subresource \"scale\" using apps/v1: .spec.replicas"),
        "{err}"
    );
    let p: Json = serde_json::from_str(&out).unwrap();
    let objects = p["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 2);
    assert!(objects[0]["conflicts"].is_string());
    let a = field(&objects[1], ".data.a").unwrap();
    assert_eq!(a["action"], "set");
    assert_eq!(objects[1]["result"]["data"]["a"], "2");
    // `-o text`: each object under its heading, in the files' order, written as planned.
    let args = "plan --server-side -f local.yaml --live live.yaml -o text";
    let args: Vec<&str> = args.split(' ').collect();
    let (code, out, err) = run_bin(&args, None, dir.path());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("Deployment.apps default/web: Apply failed"),
        "{err}"
    );
    let web = out.find("== Deployment.apps default/web (").unwrap();
    let settings = out.find("== ConfigMap default/settings (").unwrap();
    assert!(web < settings, "{out}");
    assert!(
        out[web..settings].contains("conflicts: Apply failed with 1 conflict"),
        "{out}"
    );
    assert!(out[settings..].contains(".data.a"), "{out}");
}

/// §6 lastAppliedManager: an object made by client-side apply, a value the file changes. For
/// the manager `kubectl` the conflict with `kubectl-client-side-apply` is excused (its
/// last-applied value still equals live) and the apply forced; for another manager it is a
/// conflict.
#[test]
fn the_last_applied_annotation_excuses_kubectls_conflicts() {
    let annotation = r#"{"apiVersion":"v1","data":{"key":"value"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"test","namespace":"default"}}"#;
    let created = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test", "namespace": "default", "annotations": {
            "kubectl.kubernetes.io/last-applied-configuration": format!("{annotation}\n")}},
        "data": {"key": "value"}});
    let live = request("v1", "ConfigMap", "")
        .update(&Value::Null, &v(&created), "kubectl-client-side-apply")
        .unwrap();
    let file = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test", "namespace": "default"}, "data": {"key": "new"}});
    let p = json_plan(&file, &live, &[]);
    let key = field(&p, ".data.key").unwrap();
    assert_eq!(key["action"], "conflict");
    assert!(
        key["rule"]
            .as_str()
            .unwrap()
            .starts_with("conflict excused")
    );
    assert_eq!(p["result"]["data"]["key"], "new");
    let (code, _, err) = plan(&file, &live, &["--field-manager", "deployer"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using v1: .data.key"
        ),
        "{err}"
    );
}

#[test]
fn markdown_writes_a_create_with_its_owners() {
    let out = crate::support::bin()
        .args(["plan", "--server-side", "-o", "markdown", "--no-live", "-f"])
        .arg("assets/examples/create-service/local.yaml")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.starts_with("### applyscope plan --server-side: 1 object\n"),
        "{md}"
    );
    assert!(
        md.contains("1 create, 0 apply, 0 unchanged, 0 fail"),
        "{md}"
    );
    assert!(
        md.contains("| add | `.spec.ports[port=80,protocol=\"TCP\"]`"),
        "{md}"
    );
    assert!(
        md.contains("| nobody → kubectl (Apply) | added: the file sets it |"),
        "{md}"
    );
    assert!(
        md.contains("1. `apply` by `kubectl` (`application/apply-patch+yaml`): add "),
        "{md}"
    );
}
