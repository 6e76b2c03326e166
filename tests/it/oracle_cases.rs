//! Plans checked against the real kubectl: every case under `tests/cases/` (expected outputs
//! recorded with `../shared/oracle`, committed) and the oracle's own examples
//! (`../shared/oracle/examples`, when present). Through the library and through the CLI.

use std::path::{Path, PathBuf};

use applyscope::document;
use applyscope::engine::plan::{self, LastApplied, PlanInput};
use applyscope::engine::schema::Schema;
use applyscope::value::Value;
use pretty_assertions::assert_eq;

use crate::support::shared_or_skip;

struct Case {
    dir: PathBuf,
    modified: Value,
    expected: Value,
    overwrite: bool,
    namespace: Option<String>,
}

fn case_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.join("expected.json").exists())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn load(dir: &Path) -> Case {
    let path = ["modified.yaml", "modified.yml", "modified.json"]
        .iter()
        .map(|f| dir.join(f))
        .find(|p| p.exists())
        .expect("modified file");
    let text = std::fs::read_to_string(&path).unwrap();
    let docs = document::parse_documents(&text, &path.display().to_string());
    let flags = std::fs::read_to_string(dir.join("apply-flags.txt")).unwrap_or_default();
    let words: Vec<&str> = flags.split_whitespace().collect();
    let namespace = words.iter().enumerate().find_map(|(i, w)| {
        w.strip_prefix("--namespace=")
            .or_else(|| w.strip_prefix("-n="))
            .map(str::to_owned)
            .or_else(|| {
                (*w == "-n" || *w == "--namespace")
                    .then(|| words.get(i + 1).map(|s| (*s).to_owned()))
                    .flatten()
            })
    });
    let modified = match docs {
        Ok(mut d) if d.len() == 1 => {
            let v = d.remove(0).value;
            // kubectl flattens a `kind: List` into its items.
            if v["kind"] == "List" && v["items"].as_array().is_some_and(|i| i.len() == 1) {
                v["items"][0].clone()
            } else {
                v
            }
        }
        _ => Value::Null,
    };
    // Decode kubectl's output as Go does (integers beyond int64 are float64).
    let expected_text = std::fs::read_to_string(dir.join("expected.json")).unwrap();
    let expected = applyscope::engine::smp::parse_json(&expected_text).unwrap();
    Case {
        dir: dir.to_owned(),
        modified,
        expected,
        overwrite: !words.contains(&"--overwrite=false"),
        namespace,
    }
}

/// Check one case through the library; returns a description of the first mismatch.
fn check_lib(case: &Case) -> Result<(), String> {
    let e = &case.expected;
    let live = (!e["live"].is_null()).then(|| e["live"].clone());
    let input = PlanInput {
        local: &case.modified,
        live: live.as_ref(),
        last_applied: LastApplied::FromLive,
        namespace: case.namespace.as_deref(),
        overwrite: case.overwrite,
    };
    let got = if case.modified.is_null() {
        Err(plan::PlanError::Input {
            about: plan::InputDoc::Local,
            message: "unreadable".into(),
        })
    } else {
        plan::plan(&input, Schema::embedded())
    };
    if e["exit_code"] != 0 {
        return match got {
            Err(err) => check_panic_told(e, &err.to_string()),
            Ok(p) => Err(format!(
                "kubectl failed ({}), we planned {:?}",
                e["kubectl_stderr"], p.patch
            )),
        };
    }
    let p = got.map_err(|err| format!("kubectl succeeded, we failed: {err}"))?;
    let patch_type = p
        .patch_type
        .map(|t| Value::from(t.content_type()))
        .unwrap_or(Value::Null);
    if patch_type != e["patch_type"] {
        return Err(format!("patch type {patch_type} != {}", e["patch_type"]));
    }
    if p.patch.clone().unwrap_or(Value::Null) != e["patch"] {
        return Err(format!(
            "patch differs:\n  ours   {}\n  kubectl {}",
            serde_json::to_string(&p.patch).unwrap(),
            serde_json::to_string(&e["patch"]).unwrap()
        ));
    }
    if p.created().cloned().unwrap_or(Value::Null)
        != e.get("created").cloned().unwrap_or(Value::Null)
    {
        return Err(format!(
            "created differs:\n  ours   {:?}\n  kubectl {}",
            p.created(),
            e["created"]
        ));
    }
    if p.result != e["result"] {
        return Err(format!(
            "result differs:\n  ours   {}\n  kubectl {}",
            serde_json::to_string(&p.result).unwrap(),
            serde_json::to_string(&e["result"]).unwrap()
        ));
    }
    let sent = e["patch"]["metadata"]["annotations"][plan::LAST_APPLIED]
        .as_str()
        .or_else(|| e["created"]["metadata"]["annotations"][plan::LAST_APPLIED].as_str());
    if let Some(sent) = sent
        && sent != p.annotation()
    {
        return Err(format!(
            "annotation bytes differ:\n  ours   {:?}\n  kubectl {sent:?}",
            p.annotation()
        ));
    }
    check_fields_agree(&p).map_err(|m| format!("fields disagree with the result: {m}"))
}

/// When kubectl, or the server's merge code, crashed with a Go panic (cases 117-122), our
/// failure must say which of them crashes, with Go's message.
fn check_panic_told(e: &Value, ours: &str) -> Result<(), String> {
    let stderr = e["kubectl_stderr"].as_str().unwrap_or("");
    let Some(at) = stderr.find("panic: runtime error: ") else {
        return Ok(());
    };
    let message = stderr[at..].lines().next().unwrap_or("");
    let who = if at == 0 {
        "kubectl apply would fail: kubectl 1.37 would crash"
    } else {
        "the server would reject the patch: its merge code would crash"
    };
    if ours.contains(who) && ours.contains(message) {
        Ok(())
    } else {
        Err(format!("kubectl: {message:?} ({who}), ours: {ours:?}"))
    }
}

/// The actions must agree with the result: clear/delete absent, retain/keep present and
/// unchanged, add present.
fn check_fields_agree(p: &plan::Plan) -> Result<(), String> {
    use plan::Action::*;
    for f in p.fields() {
        let path = p.tree.field_path(f.id);
        let in_result = path.lookup(&p.result);
        match f.action {
            Clear | Delete if in_result.is_some() => {
                return Err(format!("{} is {:?} but in the result", path, f.action));
            }
            Add | Set | Retain | Keep | Unchanged
                if in_result.is_none() && f.reason.presence().in_live | (f.action == Add) =>
            {
                return Err(format!(
                    "{} is {:?} but absent from the result",
                    path, f.action
                ));
            }
            _ => {}
        }
        if matches!(f.action, Retain | Unchanged) && f.live != f.result {
            return Err(format!("{} is {:?} but changes", path, f.action));
        }
    }
    Ok(())
}

/// The same through the binary: `applyscope plan -o json`.
fn check_cli(case: &Case) -> Result<(), String> {
    let e = &case.expected;
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut cmd = crate::support::bin();
    cmd.arg("plan").arg("-o").arg("json");
    let modified = ["modified.yaml", "modified.yml", "modified.json"]
        .iter()
        .map(|f| case.dir.join(f))
        .find(|p| p.exists());
    cmd.arg("--local").arg(modified.ok_or("no modified file")?);
    if e["live"].is_null() {
        cmd.arg("--no-live");
    } else {
        let live = tmp.path().join("live.json");
        std::fs::write(&live, serde_json::to_string(&e["live"]).unwrap()).unwrap();
        cmd.arg("--live").arg(live);
    }
    if !case.overwrite {
        cmd.arg("--overwrite=false");
    }
    if let Some(ns) = &case.namespace {
        cmd.arg("-n").arg(ns);
    }
    let out = cmd.output().map_err(|e| e.to_string())?;
    if e["exit_code"] != 0 {
        return if out.status.success() {
            Err("kubectl failed, the CLI succeeded".into())
        } else {
            check_panic_told(e, &String::from_utf8_lossy(&out.stderr))
        };
    }
    if !out.status.success() {
        return Err(format!(
            "CLI failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    // Decoded as Go decodes it: integers beyond int64 are float64.
    let got = applyscope::engine::smp::parse_json(&String::from_utf8_lossy(&out.stdout))
        .map_err(|e| e.to_string())?;
    if got["patch"] != e["patch"]
        || got["result"] != e["result"]
        || got["patchType"] != e["patch_type"]
    {
        return Err("CLI output differs from kubectl".into());
    }
    Ok(())
}

fn run_all(dirs: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    for dir in dirs {
        let case = load(dir);
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        if let Err(m) = check_lib(&case) {
            failures.push(format!("{name} (lib): {m}"));
        }
        if let Err(m) = check_cli(&case) {
            failures.push(format!("{name} (cli): {m}"));
        }
    }
    failures
}

#[test]
fn oracle_examples() {
    let Some(dir) = shared_or_skip("oracle/examples", "oracle_examples") else {
        return;
    };
    let dirs = case_dirs(&dir);
    assert_eq!(dirs.len(), 13, "the oracle's 13 examples");
    let failures = run_all(&dirs);
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from kubectl:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}

#[test]
fn recorded_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let dirs = case_dirs(&root);
    assert!(
        dirs.len() >= 60,
        "expected at least 60 recorded cases, found {}",
        dirs.len()
    );
    let failures = run_all(&dirs);
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from kubectl:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}
