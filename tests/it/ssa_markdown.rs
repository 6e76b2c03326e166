//! `plan --server-side -o markdown` for pull-request comments: one object and many (the SSA
//! teaching examples, a conflict, a refusal, creates) are snapshot-tested byte for byte; a
//! Secret's values never appear unless `--show-secrets`; the exit status and stderr are
//! `-o text`'s.

use std::path::Path;

use super::support::run_bin;

fn plan(args: &[&str]) -> (i32, String, String) {
    run_bin(
        &[&["plan", "--server-side", "-o", "markdown"][..], args].concat(),
        None,
        Path::new(env!("CARGO_MANIFEST_DIR")),
    )
}

#[test]
fn ssa_plan_markdown_of_one_object() {
    let (code, out, err) = plan(&["--example", "ssa-diff-underreports"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(out);
}

#[test]
fn ssa_plan_markdown_of_many_objects() {
    let mut args = Vec::new();
    for name in [
        "ssa-controller-owns-field",
        "ssa-first-apply-prunes",
        "ssa-old-apiversion-manager",
        "ssa-duplicate-key",
        "ssa-result-invalid",
    ] {
        args.push("-f".to_owned());
        args.push(format!("assets/examples/{name}/local.yaml"));
        args.push("--live".to_owned());
        args.push(format!("assets/examples/{name}/live.yaml"));
    }
    // No live object: creates.
    args.extend(["-f", "assets/examples/create-service/local.yaml"].map(String::from));
    args.extend(["-f", "tests/ssa-diff/secret.yaml"].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = plan(&args);
    assert_eq!(code, 1, "a refusal, as -o text: {err}");
    assert_eq!(
        err,
        "applyscope: Deployment.apps default/worker: failed to create typed patch object (default/worker; apps/v1, Kind=Deployment): .spec.template.spec.containers[name=\"worker\"].env: duplicate entries for key [name=\"LOG_LEVEL\"]\n"
    );
    assert!(
        !out.contains("hunter2") && !out.contains("YWRtaW4="),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn ssa_plan_markdown_of_a_conflict_and_with_force() {
    let conflict = [
        "-f",
        "tests/ssa-diff/checkout-conflict.yaml",
        "--live",
        "assets/examples/ssa-controller-owns-field/live.yaml",
    ];
    let (code, out, err) = plan(&conflict);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("applyscope: Deployment.apps default/checkout: Apply failed with 1 conflict: conflict with \"kube-controller-manager\" with subresource \"scale\" using apps/v1: .spec.replicas\n"),
        "{err}"
    );
    assert!(err.contains("--force-conflicts"), "{err}");
    insta::assert_snapshot!("ssa_plan_markdown_of_a_conflict", out);
    let (code, out, err) = plan(&[&["--force-conflicts"][..], &conflict].concat());
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.contains("Field manager `kubectl`, `--force-conflicts`."),
        "{out}"
    );
    assert!(
        out.contains("| conflict | `.spec.replicas` | `5` → `3` | kube-controller-manager (Update, scale) → kubectl (Apply) |"),
        "{out}"
    );
}

#[test]
fn ssa_plan_markdown_masks_secrets_unless_show_secrets() {
    let secret = ["--no-live", "-f", "tests/ssa-diff/secret.yaml"];
    let (code, masked, _) = plan(&secret);
    assert_eq!(code, 0);
    assert!(
        masked.contains("| add | `.stringData.password` | `-` → `***` |"),
        "{masked}"
    );
    assert!(!masked.contains("hunter2") && !masked.contains("YWRtaW4="));
    let (_, shown, _) = plan(&[&["--show-secrets"][..], &secret].concat());
    assert!(shown.contains("`\"hunter2\"`"), "{shown}");
    assert!(shown.contains("`\"YWRtaW4=\"`"), "{shown}");
}
