//! `plan --server-side --migrate-manager NAME`: the ownership upgrade Helm 4 and Argo CD run on
//! their switch to server-side apply, previewed before the apply.

use applyscope::value::Value;
use serde_json::{Value as Json, json};

use super::support::{embedded_request, run_bin};

/// A ConfigMap Helm 3 made with a client-side Update (`helm`), then asked what a Helm 4
/// upgrade does with a file that dropped `legacy`.
fn plan(extra: &[&str]) -> Json {
    let req = embedded_request("v1", "ConfigMap", "", "2026-11-25T10:00:00Z");
    let made: Value = serde_json::from_value(json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "cfg", "namespace": "default"},
        "data": {"key": "value", "legacy": "unused"}}))
    .unwrap();
    let live = req.update(&Value::Null, &made, "helm").unwrap();
    let file = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "cfg", "namespace": "default"}, "data": {"key": "value"}});
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("local.json"), file.to_string()).unwrap();
    std::fs::write(
        dir.path().join("live.json"),
        serde_json::to_string(&live).unwrap(),
    )
    .unwrap();
    let mut args = vec![
        "plan",
        "--server-side",
        "--field-manager",
        "helm",
        "-f",
        "local.json",
        "--live",
        "live.json",
        "-o",
        "json",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run_bin(&args, None, dir.path());
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn action(p: &Json, path: &str) -> String {
    p["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path)
        .map(|f| f["action"].as_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[test]
fn migrate_manager_prunes_what_helm_owned_and_the_file_dropped() {
    // Without the migration, helm's Update entry keeps `legacy`.
    let p = plan(&[]);
    assert_eq!(p["steps"][0]["request"], "apply");
    assert_eq!(
        p["result"]["data"],
        json!({"key": "value", "legacy": "unused"})
    );
    assert_eq!(action(&p, ".data.legacy"), "");
    // With it: one JSON patch of managedFields first, then the apply prunes `legacy`.
    let p = plan(&["--migrate-manager", "helm"]);
    let requests: Vec<&str> = p["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["request"].as_str().unwrap())
        .collect();
    assert_eq!(requests, ["migrate-managers", "apply"]);
    assert_eq!(p["steps"][0]["patchType"], "application/json-patch+json");
    assert_eq!(p["steps"][0]["from"], json!(["helm"]));
    assert_eq!(p["result"]["data"], json!({"key": "value"}));
    assert_eq!(action(&p, ".data.legacy"), "remove");
    let entries = p["result"]["metadata"]["managedFields"].as_array().unwrap();
    assert!(
        entries.iter().all(|e| e["operation"] == "Apply"),
        "{entries:?}"
    );
    assert!(p["warnings"].as_array().unwrap().iter().any(|w| {
        w["code"] == "ssa-migrate-manager"
            && w["message"]
                .as_str()
                .unwrap()
                .contains("as Helm 4 and Argo CD do")
    }));
    // A manager the object does not have: a warning, nothing migrated.
    let p = plan(&["--migrate-manager", "argocd-controller"]);
    assert_eq!(p["steps"][0]["request"], "apply");
    assert!(p["warnings"].as_array().unwrap().iter().any(|w| {
        w["code"] == "ssa-migrate-manager"
            && w["message"]
                .as_str()
                .unwrap()
                .contains("no Update entry of \"argocd-controller\"")
    }));
}

/// The teaching example of the README's Helm 4 recipe (`assets/ssa-examples/helm4-migration`).
#[test]
fn migrate_manager_teaching_example_helm4() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/ssa-examples/helm4-migration");
    let base = [
        "plan",
        "--server-side",
        "--field-manager",
        "helm",
        "-f",
        "local.yaml",
        "--live",
        "live.json",
    ];
    // Without the migration: helm's Apply conflicts with helm's own Update entry.
    let (code, out, err) = run_bin(&base, None, &dir);
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains(r#"conflict with "helm" using v1: .data.LOG_LEVEL"#),
        "{err}"
    );
    let mut args = base.to_vec();
    args.extend(["--migrate-manager", "helm"]);
    let (code, out, err) = run_bin(&args, None, &dir);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("server-side apply: migrate-managers → apply\n"),
        "{out}"
    );
    assert!(out.contains("remove   .data.LEGACY_FLAG"), "{out}");
    assert!(out.contains("0 conflict"), "{out}");
}
