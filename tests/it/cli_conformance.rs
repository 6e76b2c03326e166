//! The conformance vectors again, through the command line: `applyscope patch diff`,
//! `three-way` and `apply` with the test schema given as `--schema F --definition NAME`.

use std::path::Path;

use applyscope::value::Value;

use crate::support::{cases, shared_or_skip};

struct Cli {
    dir: tempfile::TempDir,
    n: usize,
}

impl Cli {
    fn file(&mut self, v: &Value) -> std::path::PathBuf {
        self.n += 1;
        let path = self.dir.path().join(format!("{}.json", self.n));
        std::fs::write(&path, serde_json::to_string(v).unwrap()).unwrap();
        path
    }

    fn run(&self, args: &[&std::ffi::OsStr]) -> (i32, Value, String) {
        let out = crate::support::bin().args(args).output().unwrap();
        let stdout: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (
            out.status.code().unwrap_or(-1),
            stdout,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

fn input(case: &Value, field: &str) -> Value {
    case.get(field)
        .cloned()
        .unwrap_or(Value::Object(applyscope::value::Map::new()))
}

fn schema_args(dir: &Path, v3: bool) -> Vec<std::ffi::OsString> {
    let file = if v3 {
        "swagger-merge-item-v3.json"
    } else {
        "swagger-merge-item.strict.json"
    };
    vec![
        "--schema".into(),
        dir.join("schema").join(file).into(),
        "--definition".into(),
        "mergeItem".into(),
    ]
}

#[test]
fn cli_conformance_smp() {
    let Some(dir) = shared_or_skip("conformance", "cli_conformance_smp") else {
        return;
    };
    let mut cli = Cli {
        dir: tempfile::tempdir().unwrap(),
        n: 0,
    };
    let mut ran = 0;
    for v3 in [false, true] {
        let schema = schema_args(&dir, v3);
        for case in cases(&dir, "smp-two-way.json") {
            let (o, m) = (
                cli.file(&input(&case, "original")),
                cli.file(&input(&case, "modified")),
            );
            let mut args: Vec<std::ffi::OsString> = vec![
                "patch".into(),
                "diff".into(),
                "--original".into(),
                o.clone().into(),
                "--modified".into(),
                m.into(),
            ];
            args.extend(schema.iter().cloned());
            let (code, patch, err) =
                cli.run(&args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>());
            assert_eq!(code, 0, "{}: {err}", case["id"]);
            assert_eq!(patch, case["twoWay"], "{}", case["id"]);
            let p = cli.file(&patch);
            let mut args: Vec<std::ffi::OsString> =
                vec!["patch".into(), "apply".into(), "--patch".into(), p.into()];
            args.extend(schema.iter().cloned());
            args.push(o.into());
            let (code, result, err) =
                cli.run(&args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>());
            assert_eq!(code, 0, "{}: {err}", case["id"]);
            assert_eq!(
                &result,
                case.get("twoWayResult").unwrap_or(&case["modified"]),
                "{}",
                case["id"]
            );
            ran += 1;
        }
        for case in cases(&dir, "smp-three-way.json") {
            let files: Vec<_> = ["original", "modified", "current"]
                .iter()
                .map(|f| cli.file(&input(&case, f)))
                .collect();
            let base: Vec<std::ffi::OsString> = vec![
                "patch".into(),
                "three-way".into(),
                "--original".into(),
                files[0].clone().into(),
                "--modified".into(),
                files[1].clone().into(),
                "--current".into(),
                files[2].clone().into(),
            ];
            let mut strict = base.clone();
            strict.push("--overwrite=false".into());
            strict.extend(schema.iter().cloned());
            let (code, patch, err) =
                cli.run(&strict.iter().map(|a| a.as_os_str()).collect::<Vec<_>>());
            let patch = if case["expectConflict"] == true {
                assert_eq!(code, 1, "{}: expected a conflict", case["id"]);
                assert!(
                    err.contains("conflict") && err.trim().lines().count() == 1,
                    "{}: {err}",
                    case["id"]
                );
                let mut args = base.clone();
                args.extend(schema.iter().cloned());
                let (code, patch, err) =
                    cli.run(&args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>());
                assert_eq!(code, 0, "{}: {err}", case["id"]);
                patch
            } else {
                assert_eq!(code, 0, "{}: {err}", case["id"]);
                patch
            };
            assert_eq!(patch, case["threeWay"], "{}", case["id"]);
            ran += 1;
        }
        for case in cases(&dir, "smp-apply.json") {
            let (o, p) = (
                cli.file(&input(&case, "original")),
                cli.file(&input(&case, "patch")),
            );
            let mut args: Vec<std::ffi::OsString> =
                vec!["patch".into(), "apply".into(), "--patch".into(), p.into()];
            args.extend(schema.iter().cloned());
            args.push(o.into());
            let (code, result, err) =
                cli.run(&args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>());
            match case.get("expectedError").and_then(Value::as_str) {
                Some(message) => {
                    assert_eq!(code, 1, "{}", case["id"]);
                    assert!(err.contains(message), "{}: {err}", case["id"]);
                }
                None => {
                    assert_eq!(code, 0, "{}: {err}", case["id"]);
                    assert_eq!(result, case["expected"], "{}", case["id"]);
                }
            }
            ran += 1;
        }
        // The reference's "bad original" / "bad patch": text that is no JSON object at all.
        for case in cases(&dir, "smp-apply-errors.json") {
            let mut text_file = |field: &str| {
                cli.n += 1;
                let path = cli.dir.path().join(format!("{}.txt", cli.n));
                std::fs::write(&path, case[field].as_str().unwrap()).unwrap();
                path
            };
            let (o, p) = (text_file("originalText"), text_file("patchText"));
            let mut args: Vec<std::ffi::OsString> =
                vec!["patch".into(), "apply".into(), "--patch".into(), p.into()];
            args.extend(schema.iter().cloned());
            args.push(o.into());
            let (code, _, err) = cli.run(&args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>());
            let message = case["expectedErrorExact"].as_str().unwrap();
            assert_eq!(code, 1, "{}: {err}", case["id"]);
            assert!(
                err.trim_end().ends_with(&format!(".txt: {message}")),
                "{}: {err}",
                case["id"]
            );
            ran += 1;
        }
    }
    eprintln!("cli_conformance_smp: {ran} cases through the CLI");
}

#[test]
fn cli_bad_input_exits_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "a: [1, 2\n").unwrap();
    let out = crate::support::bin()
        .args(["patch", "diff", "--original"])
        .arg(&bad)
        .arg("--modified")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.yaml:") && err.trim().lines().count() == 1,
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
