//! The server-side checks (`engine/ssa/checks`): every code fires on its teaching example
//! (`plan --server-side --example NAME`) and stays quiet on a neighbouring case; refusals exit 1
//! with the API server's text on stderr; fields the diff does not show are marked.

use std::path::Path;

use applyscope::document::parse_documents;
use applyscope::examples::{EXAMPLES, find};
use applyscope::value::Value;
use serde_json::{Value as Json, json};

use super::support::{embedded_request, run_bin};

fn run(args: &[&str]) -> (i32, String, String) {
    run_bin(args, None, Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// `plan --server-side --example NAME -o json` (exit 0).
fn example_plan(name: &str, extra: &[&str]) -> Json {
    let mut args = vec!["plan", "--server-side", "--example", name, "-o", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{name}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// An example's documents as JSON, to change and plan from files.
fn example_docs(name: &str) -> (Json, Json) {
    let e = find(name).unwrap();
    let one = |t: &str| -> Json {
        let doc = parse_documents(t, name).unwrap().remove(0).value;
        serde_json::to_value(&doc).unwrap()
    };
    (one(e.local), one(e.live.unwrap()))
}

/// `plan --server-side -f local --live live -o json` on documents: (exit, stdout, stderr).
fn plan_files(local: &Json, live: &Json, extra: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("local.json"), local.to_string()).unwrap();
    std::fs::write(dir.path().join("live.json"), live.to_string()).unwrap();
    let mut args = vec![
        "plan",
        "--server-side",
        "-f",
        "local.json",
        "--live",
        "live.json",
        "-o",
        "json",
    ];
    args.extend_from_slice(extra);
    run_bin(&args, None, dir.path())
}

fn json_files(local: &Json, live: &Json, extra: &[&str]) -> Json {
    let (code, out, err) = plan_files(local, live, extra);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn with_code<'a>(plan: &'a Json, code: &str) -> Vec<&'a Json> {
    plan["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == code)
        .collect()
}

/// The plan's field at `path` (as printed).
fn field<'a>(plan: &'a Json, path: &str) -> &'a Json {
    plan["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("{path} in {:#}", plan["fields"]))
}

fn codes(plan: &Json) -> Vec<&str> {
    plan["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect()
}

/// Every server-side example plans with `--example`, and the check it is named after fires
/// (the two refusals exit 1 with the API server's error instead).
#[test]
fn every_server_side_example_shows_its_check() {
    let ssa: Vec<_> = EXAMPLES.iter().filter(|e| e.server_side).collect();
    assert_eq!(ssa.len(), 8);
    for e in ssa {
        assert!(e.name.starts_with("ssa-"), "{}", e.name);
        let want = match e.name {
            "ssa-recreate-rolling-update" => "ssa-result-invalid",
            name => name,
        };
        let (code, out, err) = run(&["plan", "--server-side", "--example", e.name, "-o", "json"]);
        if ["ssa-duplicate-key", "ssa-patch-directive"].contains(&e.name) {
            assert_eq!((code, out.as_str()), (1, ""), "{}: {err}", e.name);
            assert!(
                err.contains(&format!("warning: {want} (reject)")),
                "{}: {err}",
                e.name
            );
            continue;
        }
        assert_eq!(code, 0, "{}: {err}", e.name);
        let p: Json = serde_json::from_str(&out).unwrap();
        let found = with_code(&p, want);
        assert_eq!(found.len(), 1, "{}: {:#?}", e.name, p["warnings"]);
        let severity = found[0]["severity"].as_str().unwrap();
        assert!(["notice", "loss", "reject"].contains(&severity));
        // The client-side plan and text of the same example still work.
        let (code, text, err) = run(&["plan", "--server-side", "--example", e.name]);
        assert_eq!(code, 0, "{err}");
        assert!(text.contains(&format!("warning: {want} (")), "{text}");
        let (code, _, err) = run(&["plan", "--example", e.name, "-o", "json"]);
        assert_eq!(code, 0, "{err}");
    }
}

#[test]
fn a_controller_sharing_the_field_or_forced_out_of_it_is_named() {
    let p = example_plan("ssa-controller-owns-field", &[]);
    let w = with_code(&p, "ssa-controller-owns-field");
    assert_eq!(w[0]["path"], ".spec.replicas");
    assert_eq!(w[0]["manager"], "kube-controller-manager");
    assert_eq!(w[0]["wayOut"], json!(["hand-over", "force"]));
    // The file leaves replicas to the autoscaler: quiet.
    let (mut local, live) = example_docs("ssa-controller-owns-field");
    local["spec"].as_object_mut().unwrap().remove("replicas");
    let quiet = json_files(&local, &live, &[]);
    assert!(with_code(&quiet, "ssa-controller-owns-field").is_empty());
    // Another value: the API server's conflict, exit 1; forced, a fight.
    local["spec"]["replicas"] = json!(3);
    let (code, _, err) = plan_files(&local, &live, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("Apply failed with 1 conflict: conflict with \"kube-controller-manager\" with subresource \"scale\" using apps/v1: .spec.replicas"), "{err}");
    assert!(
        err.contains("applyscope: warning: ssa-controller-owns-field (loss): .spec.replicas is owned by \"kube-controller-manager\""),
        "{err}"
    );
    let forced = json_files(&local, &live, &["--force-conflicts"]);
    let w = with_code(&forced, "ssa-controller-owns-field");
    assert_eq!(w.len(), 1, "{:#?}", forced["warnings"]);
    assert!(w[0]["message"].as_str().unwrap().contains("fight"));
    assert_eq!(w[0]["wayOut"], json!(["hand-over", "force"]));
}

#[test]
fn the_first_apply_of_a_client_side_object_prunes_and_the_diff_does_not_show_it() {
    let p = example_plan("ssa-first-apply-prunes", &[]);
    assert_eq!(
        codes(&p),
        [
            "csa-upgrade",
            "ssa-first-apply-prunes",
            "ssa-diff-underreports",
            "ssa-pruned-redefaulted"
        ]
    );
    let replicas = field(&p, ".spec.replicas");
    assert_eq!(
        (&replicas["action"], &replicas["hiddenFromDiff"]),
        (&json!("remove"), &json!(true))
    );
    assert!(
        with_code(&p, "ssa-pruned-redefaulted")[0]["message"]
            .as_str()
            .unwrap()
            .contains("comes back as 1")
    );
    // The ConfigMap's pruned key has no default; the diff misses it all the same.
    let cm = example_plan("ssa-diff-underreports", &[]);
    assert!(with_code(&cm, "ssa-pruned-redefaulted").is_empty());
    assert!(
        with_code(&cm, "ssa-diff-underreports")[0]["message"]
            .as_str()
            .unwrap()
            .contains(".data.legacy")
    );
    // Nothing dropped: the migration alone, no prune, nothing hidden.
    let (mut local, live) = example_docs("ssa-first-apply-prunes");
    local["spec"]["replicas"] = json!(3);
    let quiet = json_files(&local, &live, &[]);
    assert_eq!(codes(&quiet), ["csa-upgrade"]);
    assert!(
        quiet["fields"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f.get("hiddenFromDiff").is_none())
    );
    // An object server-side apply made: no migration at all.
    let ssa = example_plan("ssa-controller-owns-field", &[]);
    assert!(with_code(&ssa, "csa-upgrade").is_empty());
}

/// The same migration of a custom resource: `.spec.replicas` is pruned as well, but only the
/// built-in kinds' defaulting brings it back, so there is no `ssa-pruned-redefaulted`. Its
/// selector's fields, which the client-side entry owned only as a whole (`f:selector`), are
/// claimed: nobody owned them before.
#[test]
fn a_custom_resources_pruned_field_is_not_said_to_come_back() {
    let (local, live) = example_docs("ssa-first-apply-prunes");
    let widget = |doc: &Json| {
        let text = serde_json::to_string(doc)
            .unwrap()
            .replace("apps/v1", "example.com/v1")
            .replace("Deployment", "Widget");
        serde_json::from_str::<Json>(&text).unwrap()
    };
    let p = json_files(&widget(&local), &widget(&live), &[]);
    assert_eq!(
        codes(&p),
        [
            "ssa-unknown-type",
            "csa-upgrade",
            "ssa-first-apply-prunes",
            "ssa-diff-underreports"
        ]
    );
    assert_eq!(field(&p, ".spec.replicas")["action"], "remove");
    let app = field(&p, ".spec.selector.matchLabels.app");
    assert_eq!(app["ownersBefore"], json!([]));
    assert_eq!(
        app["rule"],
        "claimed: nobody owned it; the file sets the value it already has"
    );
    // An object with no managedFields and no last-applied annotation (made by `kubectl
    // create` before managedFields): the API server records what it held for
    // `before-first-apply`, which shares what the file sets (no csaupgrade moves it).
    let (local, mut live) = example_docs("ssa-first-apply-prunes");
    let meta = live["metadata"].as_object_mut().unwrap();
    meta.remove("managedFields");
    meta.remove("annotations");
    let p = json_files(&local, &live, &[]);
    let image = field(&p, ".spec.template.spec.containers[name=\"api\"].image");
    assert_eq!(
        image["rule"],
        "shared: nobody owned it; the file sets the value it already has, and before-first-apply owns it too"
    );
}

/// The file drops a container whose key field only the applier owned, while another manager
/// owns the item and a field of it. Prune takes the key field, the item left without it
/// cannot be named (`ToFieldSet` gives it an empty element), and `addBackDanglingItems` then
/// removes the whole item from the merged object: the other manager's part goes with it.
#[test]
fn an_item_left_without_its_key_fields_by_prune_goes_whole() {
    let containers = |names: &[&str]| -> Json {
        names
            .iter()
            .map(|n| json!({"name": n, "image": format!("{n}:1")}))
            .collect()
    };
    let deployment = |names: &[&str]| {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default"},
            "spec": {
                "selector": {"matchLabels": {"app": "web"}},
                "template": {
                    "metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": containers(names)}
                }
            }
        })
    };
    let item =
        |fields: Json| json!({"f:spec": {"f:template": {"f:spec": {"f:containers": fields}}}});
    let mut live = deployment(&["a", "b"]);
    let mut applied = item(json!({
        "k:{\"name\":\"a\"}": {".": {}, "f:image": {}, "f:name": {}},
        "k:{\"name\":\"b\"}": {".": {}, "f:image": {}, "f:name": {}}
    }));
    applied["f:spec"]["f:selector"] = json!({});
    applied["f:spec"]["f:template"]["f:metadata"] = json!({"f:labels": {"f:app": {}}});
    live["metadata"]["managedFields"] = json!([
        {"apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": applied,
         "manager": "kubectl", "operation": "Apply", "time": "2026-11-20T09:00:00Z"},
        {"apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": item(json!({"k:{\"name\":\"b\"}": {".": {}, "f:image": {}}})),
         "manager": "injector", "operation": "Update", "time": "2026-11-21T09:00:00Z"}
    ]);
    let p = json_files(&deployment(&["a"]), &live, &[]);
    assert_eq!(
        p["result"]["spec"]["template"]["spec"]["containers"],
        containers(&["a"])
    );
    let removed: Vec<&Json> = p["fields"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["action"] == "remove")
        .collect();
    assert_eq!(removed.len(), 1, "{removed:#?}");
    assert_eq!(
        removed[0]["path"],
        ".spec.template.spec.containers[name=\"b\"]"
    );
    assert!(
        removed[0]["rule"].as_str().unwrap().starts_with(
            "pruned: the file dropped it, and it goes whole although injector owned a part of it"
        ),
        "{}",
        removed[0]["rule"]
    );
    // The applier owned the key field alone, not the item: the item stays without it, and
    // the API server fails the request when it compares the objects (HTTP 500).
    live["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"]
        ["k:{\"name\":\"b\"}"] = json!({"f:name": {}});
    let (code, out, err) = plan_files(&deployment(&["a"]), &live, &[]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with("applyscope: Error from server: failed to compare objects: .spec.template.spec.containers: element 1: associative list with keys has an element that omits all key fields [\"name\"]"),
        "{err}"
    );
}

#[test]
fn a_field_owned_only_by_an_old_api_version_entry_is_never_pruned() {
    let p = example_plan("ssa-old-apiversion-manager", &[]);
    let w = with_code(&p, "ssa-old-apiversion-manager");
    assert_eq!(w.len(), 1, "{:#?}", p["warnings"]);
    assert!(
        w[0]["message"]
            .as_str()
            .unwrap()
            .ends_with("remove them by hand")
    );
    assert!(
        w[0]["message"]
            .as_str()
            .unwrap()
            .contains(": .spec.minReadySeconds.")
    );
    assert_eq!(w[0]["manager"], "kubectl-client-side-apply");
    assert_eq!(p["result"]["spec"]["minReadySeconds"], 10);
    // Every entry at apps/v1: quiet.
    let same = example_plan("ssa-first-apply-prunes", &[]);
    assert!(with_code(&same, "ssa-old-apiversion-manager").is_empty());
}

#[test]
fn refusals_print_the_api_servers_error_and_exit_1() {
    let (code, out, err) = run(&["plan", "--server-side", "--example", "ssa-duplicate-key"]);
    assert_eq!((code, out.as_str()), (1, ""));
    let first = err.lines().next().unwrap();
    assert_eq!(
        first,
        "applyscope: Error from server: failed to create typed patch object (default/worker; apps/v1, Kind=Deployment): .spec.template.spec.containers[name=\"worker\"].env: duplicate entries for key [name=\"LOG_LEVEL\"]"
    );
    let (code, _, err) = run(&["plan", "--server-side", "--example", "ssa-patch-directive"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("applyscope: Error from server: failed to create typed patch object (default/my-app; apps/v1, Kind=Deployment): .spec.template.spec.containers[name=\"my-app\"].env[name=\"NAMESPACE\"].$patch: field not declared in schema\n"), "{err}");
    // Without the second entry or the directive: planned.
    let (mut local, live) = example_docs("ssa-duplicate-key");
    local["spec"]["template"]["spec"]["containers"][0]["env"]
        .as_array_mut()
        .unwrap()
        .pop();
    let p = json_files(&local, &live, &[]);
    assert!(with_code(&p, "ssa-duplicate-key").is_empty());
    let (mut local, live) = example_docs("ssa-patch-directive");
    local["spec"]["template"]["spec"]["containers"][0]["env"][0]
        .as_object_mut()
        .unwrap()
        .remove("$patch");
    let p = json_files(&local, &live, &["--field-manager", "helm"]);
    assert!(with_code(&p, "ssa-patch-directive").is_empty());
    // Many objects: the refusal is that object's, the others are planned.
    let dir = tempfile::tempdir().unwrap();
    let (bad, live) = example_docs("ssa-duplicate-key");
    std::fs::write(dir.path().join("a.json"), bad.to_string()).unwrap();
    std::fs::write(dir.path().join("a-live.json"), live.to_string()).unwrap();
    let (good, good_live) = example_docs("ssa-controller-owns-field");
    std::fs::write(dir.path().join("b.json"), good.to_string()).unwrap();
    std::fs::write(dir.path().join("b-live.json"), good_live.to_string()).unwrap();
    let (code, out, _) = run_bin(
        &[
            "plan",
            "--server-side",
            "-f",
            "a.json",
            "-f",
            "b.json",
            "--live",
            "a-live.json",
            "--live",
            "b-live.json",
            "-o",
            "json",
        ],
        None,
        dir.path(),
    );
    assert_eq!(code, 1);
    let all: Json = serde_json::from_str(&out).unwrap();
    assert!(
        all["objects"][0]["refused"]
            .as_str()
            .unwrap()
            .contains("duplicate entries")
    );
    assert_eq!(
        all["objects"][0]["warnings"][0]["code"],
        "ssa-duplicate-key"
    );
    assert!(all["objects"][1]["fields"].is_array());
}

#[test]
fn a_merged_object_the_api_server_would_reject_names_who_keeps_the_field() {
    let p = example_plan("ssa-result-invalid", &[]);
    let w = with_code(&p, "ssa-result-invalid");
    assert_eq!(
        w[0]["path"],
        ".spec.template.spec.containers[name=\"web\"].ports[containerPort=8080,protocol=\"TCP\"]"
    );
    assert_eq!(w[0]["manager"], "helm");
    assert!(w[0]["message"].as_str().unwrap().contains(
        "Deployment.apps \"web\" is invalid: spec.template.spec.containers[0].ports[1].name: Duplicate value: \"http\""
    ));
    let r = example_plan("ssa-recreate-rolling-update", &[]);
    let w = with_code(&r, "ssa-result-invalid");
    assert_eq!(w[0]["path"], ".spec.strategy.rollingUpdate");
    assert!(w[0]["message"].as_str().unwrap().contains("Deployment.apps \"db\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"));
    // A null in the file does not clear a map nobody owns (SMD keeps the live map)...
    let (mut local, mut live) = example_docs("ssa-recreate-rolling-update");
    local["spec"]["strategy"]["rollingUpdate"] = Json::Null;
    let null = json_files(&local, &live, &[]);
    assert_eq!(with_code(&null, "ssa-result-invalid").len(), 1);
    // ...removed by hand first, the apply is valid.
    live["spec"]["strategy"]
        .as_object_mut()
        .unwrap()
        .remove("rollingUpdate");
    let fixed = json_files(&local, &live, &[]);
    assert!(
        with_code(&fixed, "ssa-result-invalid").is_empty(),
        "{:#?}",
        fixed["warnings"]
    );
}

/// A probe's old handler kept by the manager that set it: the union code of the client-side
/// plan, with that manager; pruned instead when the applier owned it.
#[test]
fn a_union_member_kept_by_another_manager_is_union_two_members() {
    let req = embedded_request("apps/v1", "Deployment", "", "2026-11-25T10:00:00Z");
    let (mut file, _) = example_docs("ssa-controller-owns-field");
    file["spec"]["template"]["spec"]["containers"][0]["livenessProbe"] =
        json!({"tcpSocket": {"port": 8080}});
    let v = |j: &Json| -> Value { serde_json::from_value(j.clone()).unwrap() };
    let mut next = file.clone();
    next["spec"]["template"]["spec"]["containers"][0]["livenessProbe"] =
        json!({"httpGet": {"path": "/livez", "port": 8080}});
    for (manager, fires) in [("helm", true), ("kubectl", false)] {
        let live = if manager == "helm" {
            req.update(&Value::Null, &v(&file), manager).unwrap()
        } else {
            req.apply(&Value::Null, &v(&file), manager, false).unwrap()
        };
        let live: Json = serde_json::to_value(&live).unwrap();
        let p = json_files(&next, &live, &[]);
        let w = with_code(&p, "union-two-members");
        assert_eq!(
            w.len(),
            usize::from(fires),
            "{manager}: {:#?}",
            p["warnings"]
        );
        if fires {
            assert_eq!(w[0]["manager"], "helm");
            assert_eq!(w[0]["severity"], "reject");
            assert!(w[0]["message"].as_str().unwrap().contains("spec.template.spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"));
        }
    }
}

/// A kind the embedded schema does not know is merged as the API server merges an unknown
/// type, and says so; a known kind does not.
#[test]
fn an_unknown_kind_says_how_it_is_merged() {
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "default"}, "spec": {"size": 3}});
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("w.json"), widget.to_string()).unwrap();
    let (code, out, err) = run_bin(
        &[
            "plan",
            "--server-side",
            "-f",
            "w.json",
            "--no-live",
            "-o",
            "json",
        ],
        None,
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let p: Json = serde_json::from_str(&out).unwrap();
    assert_eq!(codes(&p), ["ssa-unknown-type"]);
    assert_eq!(with_code(&p, "ssa-unknown-type")[0]["severity"], "notice");
    let (local, _) = example_docs("ssa-duplicate-key");
    let mut known = local.clone();
    known["spec"]["template"]["spec"]["containers"][0]["env"]
        .as_array_mut()
        .unwrap()
        .pop();
    std::fs::write(dir.path().join("d.json"), known.to_string()).unwrap();
    let (code, out, err) = run_bin(
        &[
            "plan",
            "--server-side",
            "-f",
            "d.json",
            "--no-live",
            "-o",
            "json",
        ],
        None,
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let p: Json = serde_json::from_str(&out).unwrap();
    assert!(codes(&p).is_empty(), "{:#?}", p["warnings"]);
}
