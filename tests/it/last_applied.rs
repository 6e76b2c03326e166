//! `applyscope last-applied view | drop | adopt | set` on files, checked against kubectl: the
//! annotation after a drop is byte-identical to the one kubectl writes for the edited
//! configuration (tests/cases/88), and the plan afterwards is kubectl's.

use std::path::Path;

use applyscope::value::Value;

fn cases() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

fn expected(case: &str) -> Value {
    let text = std::fs::read_to_string(cases().join(case).join("expected.json")).unwrap();
    applyscope::engine::smp::parse_json(&text).unwrap()
}

fn run(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = crate::support::bin().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ANNOTATION: &str = "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration";

#[test]
fn drop_hands_replicas_over_as_kubectl_would_record_it() {
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live.json");
    let before =
        serde_json::to_string_pretty(&expected("03-deploy-replicas-removed-cleared")["live"])
            .unwrap();
    std::fs::write(&live, &before).unwrap();

    // Dry run: nothing written.
    let (code, out, err) = run(&[
        "last-applied".as_ref(),
        "drop".as_ref(),
        "--live".as_ref(),
        live.as_os_str(),
        "spec.replicas".as_ref(),
        "--dry-run".as_ref(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("dry run"), "{out}");
    assert_eq!(std::fs::read_to_string(&live).unwrap(), before);

    let (code, _, err) = run(&[
        "last-applied".as_ref(),
        "drop".as_ref(),
        "--live".as_ref(),
        live.as_os_str(),
        "spec.replicas".as_ref(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("live.json.bak")).unwrap(),
        before
    );
    let edited: Value = serde_json::from_str(&std::fs::read_to_string(&live).unwrap()).unwrap();
    let kubectl = expected("88-deploy-replicas-handed-over");
    assert_eq!(
        edited.pointer(ANNOTATION),
        kubectl["live"].pointer(ANNOTATION),
        "annotation bytes"
    );

    // The next apply keeps the autoscaler's replicas: kubectl sends nothing.
    let modified = cases().join("88-deploy-replicas-handed-over/modified.yaml");
    let (code, out, err) = run(&[
        "plan".as_ref(),
        "-o".as_ref(),
        "json".as_ref(),
        "--local".as_ref(),
        modified.as_os_str(),
        "--live".as_ref(),
        live.as_os_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    let plan = applyscope::engine::smp::parse_json(&out).unwrap();
    assert_eq!(plan["patch"], kubectl["patch"]);
    assert_eq!(plan["patchType"], kubectl["patch_type"]);
    assert_eq!(plan["result"], kubectl["result"]);
}

#[test]
fn adopt_set_and_view() {
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live.json");
    std::fs::write(
        &live,
        serde_json::to_string_pretty(&expected("02-deploy-hpa-scaled-replicas-kept")["live"])
            .unwrap(),
    )
    .unwrap();
    let (code, _, err) = run(&[
        "last-applied".as_ref(),
        "adopt".as_ref(),
        "--live".as_ref(),
        live.as_os_str(),
        "spec.replicas".as_ref(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run(&[
        "last-applied".as_ref(),
        "view".as_ref(),
        "--live".as_ref(),
        live.as_os_str(),
        "-o".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(code, 0);
    let live_doc: Value = serde_json::from_str(&std::fs::read_to_string(&live).unwrap()).unwrap();
    let viewed: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        viewed["spec"]["replicas"], live_doc["spec"]["replicas"],
        "adopted the live value"
    );

    // set: the document alone to another file.
    let la = dir.path().join("la.json");
    std::fs::write(
        &la,
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"}}"#,
    )
    .unwrap();
    let out_file = dir.path().join("out.json");
    let (code, _, err) = run(&[
        "last-applied".as_ref(),
        "set".as_ref(),
        "--live".as_ref(),
        live.as_os_str(),
        "--write-last-applied".as_ref(),
        out_file.as_os_str(),
        la.as_os_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(written["metadata"]["name"], "x");

    // A path that is not there: exit 1, nothing written.
    let before = std::fs::read(&live).unwrap();
    let (code, _, err) = run(&[
        "last-applied".as_ref(),
        "drop".as_ref(),
        "--live".as_ref(),
        live.as_os_str(),
        "spec.nothere".as_ref(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read(&live).unwrap(), before);
}

/// `last-applied set` writes the annotation kubectl's `apply set-last-applied` would: it reads
/// annotations as kubectl does, so a null annotation value is recorded as `""` (issue 18).
#[test]
fn set_records_a_null_annotation_value_as_the_empty_string() {
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live.yaml");
    let doc = dir.path().join("doc.yaml");
    std::fs::write(
        &live,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: default\ndata: {k: v}\n",
    )
    .unwrap();
    std::fs::write(
        &doc,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  annotations:\n    tracking-id:\ndata: {k: v}\n",
    )
    .unwrap();
    let out = crate::support::bin()
        .args(["last-applied", "set", "--dry-run", "--live"])
        .arg(&live)
        .arg(&doc)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(r#"\"annotations\":{\"tracking-id\":\"\"}"#),
        "{text}"
    );
}
