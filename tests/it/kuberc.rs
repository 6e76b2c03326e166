//! The mode `kubectl apply` will use (`session::kuberc`): every case of
//! `tests/kuberc/cases.json`, run by `tests/kuberc/record.py` with the real kubectl 1.37.1
//! (`tests/kuberc/expected.json`: which PATCH it sent, its field manager, its exit status and
//! warnings), is run here through `applyscope plan` with the same files, variables and flags.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kuberc")
}

const SSA: &str = "application/apply-patch+yaml";
const SMP: &str = "application/strategic-merge-patch+json";

/// Runs `applyscope plan -f local.json --live live.json -o json ARGS` as the recorder ran
/// kubectl: `home` at `$HOME/.kube/kuberc`, `env` named by `$KUBERC`, `flag` by `--kuberc`.
fn run_case(spec: &Value, extra: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let files = root().join("files");
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".kube")).unwrap();
    let object = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "demo", "namespace": "default"}, "data": {"a": "2"}});
    let live = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "demo", "namespace": "default", "uid": "u1", "resourceVersion": "1"},
        "data": {"b": "1"}});
    std::fs::write(dir.path().join("local.json"), object.to_string()).unwrap();
    std::fs::write(dir.path().join("live.json"), live.to_string()).unwrap();
    let mut cmd = crate::support::bin();
    cmd.current_dir(dir.path())
        .env_remove("KUBECTL_KUBERC")
        .env("HOME", &home);
    cmd.args(["plan", "-f", "local.json", "--live", "live.json"]);
    if !extra.contains(&"-o") {
        cmd.args(["-o", "json"]);
    }
    if let Some(h) = spec["home"].as_str()
        && files.join(h).exists()
    {
        std::fs::copy(files.join(h), home.join(".kube/kuberc")).unwrap();
    }
    if let Some(e) = spec["env"].as_str() {
        cmd.env("KUBERC", files.join(e));
    }
    if let Some(f) = spec["flag"].as_str() {
        cmd.arg("--kuberc").arg(files.join(f));
    }
    if let Some(vars) = spec["vars"].as_object() {
        for (k, v) in vars {
            cmd.env(k, v.as_str().unwrap());
        }
    }
    for a in spec["args"].as_array().into_iter().flatten() {
        cmd.arg(a.as_str().unwrap());
    }
    cmd.args(extra);
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn kuberc_every_recorded_case_chooses_kubectls_mode() {
    let cases: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(root().join("cases.json")).unwrap()).unwrap();
    let expected: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(root().join("expected.json")).unwrap())
            .unwrap();
    assert_eq!(
        cases.len(),
        expected.len(),
        "record.py was run on every case"
    );
    for (name, spec) in &cases {
        let want = &expected[name];
        assert_eq!(want["kubectl_version"], "v1.37.1", "{name}");
        let (code, out, err) = run_case(spec, &[]);
        let kubectl_stderr = want["kubectl_stderr"].as_str().unwrap();
        match want["patch_type"].as_str() {
            // kubectl failed before sending anything: the kuberc (or the flag) is refused.
            None => {
                assert_eq!(code, 2, "{name}: {err}");
                assert!(out.is_empty(), "{name}");
                assert_eq!(err.lines().count(), 1, "{name}: one line: {err}");
                assert!(err.contains("kuberc"), "{name}: {err}");
            }
            Some(patch_type) => {
                assert_eq!(code, 0, "{name}: {err}");
                let plan: Value = serde_json::from_str(&out).unwrap();
                assert_eq!(plan["patchType"], patch_type, "{name}");
                if patch_type == SSA {
                    assert_eq!(plan["steps"][0]["manager"], want["field_manager"], "{name}");
                } else {
                    assert_eq!(patch_type, SMP);
                }
                for warning in [
                    "kuberc: no preferences loaded from",
                    "kuberc: ignoring strict decoding error in",
                ] {
                    assert_eq!(
                        err.contains(warning),
                        kubectl_stderr.contains(warning),
                        "{name}: {err}"
                    );
                }
                // The outputs say so when a kuberc chose the mode.
                let explicit = spec["args"].as_array().is_some_and(|a| {
                    a.iter()
                        .any(|a| a.as_str().unwrap().starts_with("--server-side"))
                });
                let chose = !explicit && patch_type == SSA;
                assert_eq!(plan.get("mode").is_some(), chose, "{name}: {out}");
            }
        }
    }
}

#[test]
fn kuberc_mode_named_in_text_and_json() {
    let spec = json!({"home": "manager.yaml"});
    let (code, out, err) = run_case(&spec, &[]);
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["mode"]["serverSide"], true);
    assert_eq!(plan["mode"]["source"], "kuberc");
    assert!(
        plan["mode"]["kuberc"]
            .as_str()
            .unwrap()
            .ends_with(".kube/kuberc")
    );
    // kuberc's force-conflicts and field manager are used.
    assert_eq!(plan["steps"][0]["manager"], "helm");
    let (code, out, _) = run_case(&spec, &["-o", "text"]);
    assert_eq!(code, 0);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("mode: server-side apply (default kuberc ")
            && first.ends_with(".kube/kuberc)"),
        "{first}"
    );
    // An explicit flag wins, and then nothing is said.
    let (code, out, _) = run_case(&spec, &["--server-side=false", "-o", "text"]);
    assert_eq!(code, 0);
    assert!(!out.starts_with("mode:"), "{out}");
    // A kuberc that says client-side: the text says so too.
    let (code, out, _) = run_case(&json!({"flag": "csa.yaml"}), &["-o", "text"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("mode: client-side apply (--kuberc "),
        "{out}"
    );
}

/// A kuberc that chooses server-side makes `apply` send kubectl's server-side requests (here
/// printed without `--yes`: nothing sent).
#[cfg(feature = "cluster")]
#[test]
fn kuberc_server_side_makes_apply_send_server_side_requests() {
    let spec = json!({"home": "ssa.yaml"});
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    std::fs::create_dir_all(home.join(".kube")).unwrap();
    std::fs::copy(
        root().join("files").join(spec["home"].as_str().unwrap()),
        home.join(".kube/kuberc"),
    )
    .unwrap();
    std::fs::write(
        home.join("cm.json"),
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#,
    )
    .unwrap();
    let api = crate::fakeapi::FakeApi::start();
    let kubeconfig = api.kubeconfig(home, "default");
    let out = crate::support::bin()
        .current_dir(home)
        .env_remove("KUBECTL_KUBERC")
        .env("HOME", home)
        .args(["apply", "-f", "cm.json", "--kubeconfig"])
        .arg(&kubeconfig)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("ConfigMap default/a: would send (apply) PATCH /api/v1/namespaces/default/configmaps/a?fieldManager=kubectl&fieldValidation=Strict&force=false (application/apply-patch+yaml"),
        "{stdout}"
    );
    assert!(api.writes().is_empty());
}
