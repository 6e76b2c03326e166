//! Shared helpers: where `../shared` is, reading conformance files, skipping loudly.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use applyscope::value::Value;

/// `../shared` next to the package, if present.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    dir.is_dir().then_some(dir)
}

/// A folder under `../shared`, or `None` after printing `SKIPPED: <test>: ...` to stderr.
pub fn shared_or_skip(sub: &str, test: &str) -> Option<PathBuf> {
    let dir = shared_dir().map(|d| d.join(sub)).filter(|d| d.exists());
    if dir.is_none() {
        eprintln!("SKIPPED: {test}: ../shared/{sub} not present");
    }
    dir
}

/// Read a JSON file.
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `cases` of a conformance file, checked against its `count`.
pub fn cases(dir: &Path, file: &str) -> Vec<Value> {
    let doc = read_json(&dir.join(file));
    let cases = doc["cases"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        Some(cases.len() as u64),
        doc["count"].as_u64(),
        "{file}: count"
    );
    assert!(!cases.is_empty(), "{file}: no cases");
    cases
}

/// Run the binary with `args` in `cwd`, `stdin` written to it (or nothing), with no
/// `NO_COLOR` or `RUST_BACKTRACE` from the caller: (exit status, stdout, stderr).
pub fn run_bin(args: &[&str], stdin: Option<&str>, cwd: &Path) -> (i32, String, String) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_applyscope"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env_remove("RUST_BACKTRACE")
        // kubectl's preferences of the machine's user would choose the apply mode.
        .env_remove("KUBERC")
        .env("KUBECTL_KUBERC", "false")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A Deployment `web` (3 replicas, image `web:2`), as a file to apply.
pub const WEB_DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
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
