//! Shared helpers: where `../shared` is, reading conformance files, skipping loudly.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// The binary, in the environment every test runs it in: nothing of the machine's user
/// (no kubeconfig, kuberc or home folder: kubectl's preferences would choose the apply mode),
/// and no `NO_COLOR`, `RUST_BACKTRACE` or `APPLYSCOPE_TIMINGS` from the caller. A test of
/// one of these sets it again on the command.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_applyscope"));
    cmd.env_remove("KUBECONFIG")
        .env_remove("KUBERC")
        .env("KUBECTL_KUBERC", "false")
        .env("HOME", "/nonexistent")
        .env_remove("NO_COLOR")
        .env_remove("RUST_BACKTRACE")
        .env_remove("APPLYSCOPE_TIMINGS");
    cmd
}

/// [`bin`] with `args`, run to its end.
pub fn output(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// Standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Run [`bin`] with `args` in `cwd`, `stdin` written to it (or nothing): (exit status,
/// stdout, stderr).
pub fn run_bin(args: &[&str], stdin: Option<&str>, cwd: &Path) -> (i32, String, String) {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = bin()
        .args(args)
        .current_dir(cwd)
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

/// A server-side request on `kind` in `api_version` (the main resource, or `subresource`) by
/// the embedded 1.36 schema, its timestamps `time`, no reset fields.
pub fn embedded_request<'a>(
    api_version: &'a str,
    kind: &str,
    subresource: &'a str,
    time: &'a str,
) -> applyscope::engine::ssa::request::Request<'a> {
    applyscope::engine::ssa::request::Request {
        subresource,
        ..applyscope::engine::ssa::request::Request::embedded(api_version, kind, time).unwrap()
    }
}
