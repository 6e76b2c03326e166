//! `-o markdown` for pull-request comments: `plan` and `diff` on the shop set (every risk
//! class, a failure, a Secret-free set) are snapshot-tested byte for byte; a Secret's values
//! never appear unless `--show-secrets`.

use std::path::Path;

fn run(args: &[&str]) -> (i32, String) {
    let out = crate::support::bin()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

const SHOP: [&str; 4] = [
    "-f",
    "assets/apps/shop/local",
    "--live",
    "assets/apps/shop/live",
];

#[test]
fn plan_markdown_of_the_shop() {
    let (code, out) = run(&[&["plan", "-o", "markdown"][..], &SHOP].concat());
    assert_eq!(code, 2, "the failing object's exit status, as -o text");
    insta::assert_snapshot!(out);
}

#[test]
fn diff_markdown_of_the_shop() {
    let (code, out) = run(&[&["diff", "-o", "markdown"][..], &SHOP].concat());
    assert_eq!(code, 2, "kubectl diff's status: an object failed");
    insta::assert_snapshot!(out);
}

#[test]
fn markdown_masks_secrets_unless_show_secrets() {
    let case =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/52-secret-data-and-stringdata");
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live.json");
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap())
            .unwrap();
    std::fs::write(&live, expected["live"].to_string()).unwrap();
    let local = case.join("modified.yaml");
    let (local, live) = (local.to_str().unwrap(), live.to_str().unwrap());
    for command in ["plan", "diff"] {
        let (_, masked) = run(&[command, "-o", "markdown", "-f", local, "--live", live]);
        assert!(masked.contains("***"), "{command}: {masked}");
        for secret in ["postgres://app@db", "bjN3LXBhc3M=", "n3w-pass"] {
            assert!(
                !masked.contains(secret),
                "{command} shows {secret}:\n{masked}"
            );
        }
        let (_, shown) = run(&[
            command,
            "-o",
            "markdown",
            "--show-secrets",
            "-f",
            local,
            "--live",
            live,
        ]);
        assert!(
            shown.contains("bjN3LXBhc3M="),
            "{command} --show-secrets: {shown}"
        );
    }
}

/// A Secret value that looks like JSON (a `stringData` config) is still a value: masked whole,
/// not read as the annotation's copy.
#[test]
fn a_json_looking_secret_value_is_masked_whole() {
    let dir = tempfile::tempdir().unwrap();
    let local = dir.path().join("secret.yaml");
    std::fs::write(
        &local,
        "apiVersion: v1\nkind: Secret\nmetadata: {name: cfg}\nstringData:\n  config.json: '{\"password\":\"hunter2\",\"user\":\"app\"}'\n",
    )
    .unwrap();
    let local = local.to_str().unwrap();
    for format in ["text", "markdown"] {
        let (_, out) = run(&["plan", "-o", format, "--no-live", "-f", local]);
        assert!(!out.contains("hunter2"), "-o {format}:\n{out}");
    }
    // The text lists the value itself (markdown shows a created map whole, not its keys).
    let (_, text) = run(&["plan", "-o", "text", "--no-live", "-f", local]);
    assert!(
        text.contains("stringData[\"config.json\"]") && text.contains("- → ***"),
        "{text}"
    );
}
