//! `applyscope diff --server-side`: the live object against what the whole `kubectl apply
//! --server-side` leaves (`--as-kubectl-diff`: against kubectl diff's one dry-run apply), with
//! kubectl diff's exit status, on the SSA teaching examples and `tests/ssa-diff`, from files
//! and from the fake API server; the mode from a kuberc as for `plan`.

use std::path::Path;

use serde_json::Value;

use super::support::run_bin;

const UNDER: [&str; 4] = [
    "-f",
    "assets/examples/ssa-diff-underreports/local.yaml",
    "--live",
    "assets/examples/ssa-diff-underreports/live.yaml",
];

const CONFLICT: [&str; 4] = [
    "-f",
    "tests/ssa-diff/checkout-conflict.yaml",
    "--live",
    "assets/examples/ssa-controller-owns-field/live.yaml",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn diff(args: &[&str]) -> (i32, String, String) {
    run_bin(&[&["diff"][..], args].concat(), None, root())
}

const HEAD: &str = "diff -u -N /tmp/LIVE-0/v1.ConfigMap.default.settings /tmp/MERGED-0/v1.ConfigMap.default.settings
--- /tmp/LIVE-0/v1.ConfigMap.default.settings
+++ /tmp/MERGED-0/v1.ConfigMap.default.settings
";

const OLD_ANNOTATION: &str = r#"-      {"apiVersion":"v1","data":{"legacy":"on","mode":"fast"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"settings","namespace":"default"}}"#;
const NEW_ANNOTATION: &str = r#"+      {"apiVersion":"v1","data":{"mode":"fast"},"kind":"ConfigMap","metadata":{"name":"settings","namespace":"default"}}"#;

#[test]
fn ssa_diff_shows_what_the_whole_apply_prunes_and_warns_that_kubectl_diff_does_not() {
    let (code, out, err) = diff(&[&["--server-side"][..], &UNDER].concat());
    assert_eq!(code, 1, "differences: {err}");
    let want = format!(
        "{HEAD}@@ -1,11 +1,10 @@
 apiVersion: v1
 data:
-  legacy: \"on\"
   mode: fast
 kind: ConfigMap
 metadata:
   annotations:
     kubectl.kubernetes.io/last-applied-configuration: |
{OLD_ANNOTATION}
{NEW_ANNOTATION}
   name: settings
   namespace: default
"
    );
    assert_eq!(out, want);
    let warning = "applyscope: warning: ssa-diff-underreports (notice): `kubectl diff --server-side` will not show these removals: .data.legacy.";
    assert!(err.starts_with(warning), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // kubectl diff's own view: the first apply only, the removal missing; the same warning.
    let (code, out, err) = diff(&[&["--server-side", "--as-kubectl-diff"][..], &UNDER].concat());
    assert_eq!(code, 1, "{err}");
    let want = format!(
        "{HEAD}@@ -6,6 +6,6 @@
 metadata:
   annotations:
     kubectl.kubernetes.io/last-applied-configuration: |
{OLD_ANNOTATION}
{NEW_ANNOTATION}
   name: settings
   namespace: default
"
    );
    assert_eq!(out, want);
    assert!(err.starts_with(warning), "{err}");
}

#[test]
fn ssa_diff_of_an_object_applied_server_side_has_no_warning_and_after_the_apply_no_difference() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run_bin(
        &[&["plan", "--server-side", "-o", "json"][..], &UNDER].concat(),
        None,
        root(),
    );
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    let after = dir.path().join("after.json");
    std::fs::write(&after, plan["result"].to_string()).unwrap();
    let after = after.display().to_string();
    let local = root().join(UNDER[1]).display().to_string();
    for view in [&[][..], &["--as-kubectl-diff"]] {
        let args = [&["--server-side", "-f", &local, "--live", &after][..], view].concat();
        let (code, out, err) = diff(&args);
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""), "{view:?}");
    }
}

#[test]
fn ssa_diff_conflict_is_the_api_servers_error_with_kubectl_diffs_exit_status() {
    let (code, out, err) = diff(&[&["--server-side"][..], &CONFLICT].concat());
    assert_eq!(code, 2, "kubectl diff: CheckDiffErr exits 1 + 1");
    assert_eq!(out, "");
    let mut lines = err.lines();
    assert_eq!(
        lines.next(),
        Some(
            "applyscope: Error from server (Conflict): Apply failed with 1 conflict: conflict with \"kube-controller-manager\" with subresource \"scale\" using apps/v1: .spec.replicas"
        )
    );
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("applyscope: warning: ssa-controller-owns-field (loss): .spec.replicas"),
        "{err}"
    );
    assert!(err.contains("--force-conflicts"), "{err}");
    // Forced: the field is taken, the diff shows it.
    let (code, out, err) = diff(&[&["--server-side", "--force-conflicts"][..], &CONFLICT].concat());
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("-  replicas: 5\n+  replicas: 3\n"), "{out}");
    assert!(
        out.contains("-      - image: acme/checkout:5.1\n+      - image: acme/checkout:5.2\n"),
        "{out}"
    );
    assert_eq!(err, "");
}

#[test]
fn ssa_diff_of_many_objects_prints_the_others_and_names_each_failure() {
    let (code, out, err) = diff(&[
        "--server-side",
        "-f",
        "tests/ssa-diff/checkout-conflict.yaml",
        "-f",
        "assets/examples/ssa-diff-underreports/local.yaml",
        "-f",
        "assets/examples/ssa-duplicate-key/local.yaml",
        "-f",
        "tests/ssa-diff/secret.yaml",
        "--live",
        "assets/examples/ssa-controller-owns-field/live.yaml",
        "--live",
        "assets/examples/ssa-diff-underreports/live.yaml",
        "--live",
        "assets/examples/ssa-duplicate-key/live.yaml",
    ]);
    assert_eq!(code, 2, "{err}");
    // In kubectl's file-name order: the ConfigMap, then the Secret (a create, masked).
    let names: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("diff -u -N"))
        .collect();
    assert_eq!(
        names,
        [
            "diff -u -N /tmp/LIVE-0/v1.ConfigMap.default.settings /tmp/MERGED-0/v1.ConfigMap.default.settings",
            "diff -u -N /tmp/LIVE-0/v1.Secret.default.db /tmp/MERGED-0/v1.Secret.default.db",
        ]
    );
    assert!(out.contains("+  password: '***'\n"), "{out}");
    assert!(!out.contains("hunter2") && !out.contains("aHVudGVyMg=="));
    for line in [
        "applyscope: Deployment.apps default/checkout: Error from server (Conflict): Apply failed with 1 conflict",
        "applyscope: ConfigMap default/settings: warning: ssa-diff-underreports (notice)",
        "applyscope: Deployment.apps default/worker: Error from server: failed to create typed patch object (default/worker; apps/v1, Kind=Deployment): .spec.template.spec.containers[name=\"worker\"].env: duplicate entries for key [name=\"LOG_LEVEL\"]",
        "applyscope: Deployment.apps default/worker: warning: ssa-duplicate-key (reject)",
    ] {
        assert!(
            err.lines().any(|l| l.starts_with(line)),
            "no {line:?} in\n{err}"
        );
    }
}

#[test]
fn ssa_diff_hides_managed_fields_as_kubectl_diff_does_unless_asked() {
    let (_, out, _) = diff(&[&["--server-side"][..], &UNDER].concat());
    assert!(!out.contains("managedFields"), "{out}");
    let (code, out, _) = diff(&[&["--server-side", "--show-managed-fields"][..], &UNDER].concat());
    assert_eq!(code, 1);
    assert!(out.contains("\n   managedFields:\n"), "{out}");
    // The client-side manager's entry goes; kubectl's and kubectl-last-applied's come.
    assert!(
        out.contains("-    manager: kubectl-client-side-apply\n"),
        "{out}"
    );
    assert!(
        out.contains("+    manager: kubectl-last-applied\n"),
        "{out}"
    );
    assert!(out.contains("+    manager: kubectl\n"), "{out}");
}

#[test]
fn ssa_diff_markdown_has_the_plan_and_each_diff() {
    let (code, out, err) = diff(&[&["--server-side", "-o", "markdown"][..], &UNDER].concat());
    assert_eq!(code, 1, "{err}");
    assert!(
        out.starts_with("### applyscope diff --server-side: 1 object\n"),
        "{out}"
    );
    assert!(
        out.contains("| remove | `.data.legacy` | `\"on\"` → `-` | kubectl-client-side-apply (Update) → nobody |"),
        "{out}"
    );
    assert!(out.contains("```diff\n"), "{out}");
    assert!(out.contains("\n-  legacy: \"on\"\n"), "{out}");
    assert!(err.contains("ssa-diff-underreports"), "{err}");
}

/// The mode as `plan` resolves it: a kuberc's `server-side: "true"` makes `diff` server-side
/// and says so; an explicit `--server-side=false` wins.
#[test]
fn ssa_diff_follows_the_kuberc_and_the_explicit_flag_wins() {
    let dir = tempfile::tempdir().unwrap();
    let kuberc = dir.path().join("kuberc");
    std::fs::write(
        &kuberc,
        "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\ndefaults:\n- command: apply\n  options:\n  - name: server-side\n    default: \"true\"\n",
    )
    .unwrap();
    let kuberc = kuberc.display().to_string();
    let with_kuberc = |extra: &[&str]| {
        let out = crate::support::bin()
            .args([&["diff", "--kuberc", &kuberc][..], extra, &UNDER].concat())
            .current_dir(root())
            .env_remove("KUBECTL_KUBERC")
            .env("HOME", dir.path())
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, out, err) = with_kuberc(&[]);
    let (_, server_side, _) = diff(&[&["--server-side"][..], &UNDER].concat());
    assert_eq!(code, 1);
    assert_eq!(out, server_side, "the kuberc chose server-side");
    assert!(
        err.contains(&format!(
            "applyscope: mode: server-side apply (--kuberc {kuberc})"
        )),
        "{err}"
    );
    let (code, out, err) = with_kuberc(&["--server-side=false"]);
    let (_, client_side, _) = diff(&UNDER);
    assert_eq!(code, 1);
    assert_eq!(out, client_side, "the flag wins");
    assert!(!out.contains("legacy: \"on\"\n+"), "{out}");
    assert_eq!(err, "");
    // Server-side flags in client-side mode: an error naming the mode.
    let (code, out, err) = diff(&[&["--as-kubectl-diff"][..], &UNDER].concat());
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains("--as-kubectl-diff needs server-side apply: pass --server-side (the mode here: client-side apply (kubectl's default))"),
        "{err}"
    );
}

/// From the cluster (the fake API server runs the SSA engine): the live object with its
/// managedFields read, the diff of the whole sequence, nothing written.
#[cfg(feature = "cluster")]
#[test]
fn ssa_diff_from_the_cluster_reads_the_live_managed_fields_and_writes_nothing() {
    use crate::fakeapi::FakeApi;
    use serde_json::json;
    let live: Value =
        serde_yaml_live(&root().join("assets/examples/ssa-diff-underreports/live.yaml"));
    let api = FakeApi::start();
    api.put(live);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.kubeconfig(dir.path(), "default").display().to_string();
    let local = root()
        .join("assets/examples/ssa-diff-underreports/local.yaml")
        .display()
        .to_string();
    let run = |extra: &[&str]| {
        let args = [
            &[
                "diff",
                "--server-side",
                "--kubeconfig",
                &kubeconfig,
                "-f",
                &local,
            ][..],
            extra,
        ]
        .concat();
        run_bin(&args, None, dir.path())
    };
    let (code, out, err) = run(&[]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("\n-  legacy: \"on\"\n"), "{out}");
    assert!(err.contains("ssa-diff-underreports"), "{err}");
    let (code, out, _) = run(&["--as-kubectl-diff"]);
    assert_eq!(code, 1);
    assert!(!out.contains("-  legacy:"), "{out}");
    assert!(api.writes().is_empty(), "a diff sends nothing");
    // A conflict from the cluster: exit 2 with the API server's message.
    api.change("/api/v1/namespaces/default/configmaps/settings", |o| {
        o["metadata"]["managedFields"] = json!([{
            "apiVersion": "v1", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:data": {"f:mode": {}}},
            "manager": "operator", "operation": "Apply", "time": "2026-11-20T09:00:00Z"
        }]);
        o["data"]["mode"] = json!("slow");
    });
    let (code, out, err) = run(&[]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "");
    assert!(
        err.contains(
            "Error from server (Conflict): Apply failed with 1 conflict: conflict with \"operator\": .data.mode"
        ),
        "{err}"
    );
}

/// A YAML file's one object, as JSON.
#[cfg(feature = "cluster")]
fn serde_yaml_live(path: &Path) -> Value {
    let docs = applyscope::document::parse_values_bytes(
        &std::fs::read(path).unwrap(),
        &path.display().to_string(),
    )
    .unwrap();
    serde_json::to_value(&docs[0].value).unwrap()
}
