//! Hazard lints on their teaching examples (`assets/examples/lint-<code>/`): each example's
//! plan carries its code, the README names it, and the plan agrees with what the real kubectl
//! 1.37.1 sent and produced (`kubectl.json`, recorded with `../shared/oracle`).

use std::path::{Path, PathBuf};

use applyscope::document;
use applyscope::engine::lint::CODES;
use applyscope::engine::plan::{self, LastApplied, Plan, PlanInput};
use applyscope::engine::schema::Schema;
use applyscope::value::Value;
use pretty_assertions::assert_eq;

fn examples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("lint-"))
        })
        .collect();
    dirs.sort();
    dirs
}

fn read(dir: &Path, file: &str) -> Option<Value> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).ok()?;
    let mut docs = document::parse_documents(&text, &path.display().to_string()).unwrap();
    assert_eq!(docs.len(), 1, "{}", path.display());
    Some(docs.remove(0).value)
}

fn code_of(dir: &Path) -> String {
    let name = dir.file_name().unwrap().to_str().unwrap();
    name.strip_prefix("lint-").unwrap().to_owned()
}

/// The example's plan, as the TUI and `applyscope plan` compute it from its files.
fn plan_of(dir: &Path) -> Plan {
    let local = read(dir, "local.yaml").unwrap();
    let live = read(dir, "live.yaml");
    let last_applied = read(dir, "last-applied.yaml");
    let input = PlanInput {
        local: &local,
        live: live.as_ref(),
        last_applied: last_applied
            .as_ref()
            .map_or(LastApplied::FromLive, LastApplied::Given),
        namespace: None,
        overwrite: true,
    };
    plan::plan(&input, Schema::embedded()).unwrap()
}

#[test]
fn every_lint_code_has_a_teaching_example_that_raises_it() {
    let dirs = examples();
    let mut codes: Vec<String> = dirs.iter().map(|d| code_of(d)).collect();
    for (code, _) in CODES {
        assert!(
            codes.iter().any(|c| c == code.as_str()),
            "no assets/examples/lint-{code}/"
        );
    }
    // The hazards reported by the plan's own warnings have examples too.
    for code in [
        "union-two-members",
        "list-items-lost",
        "missing-annotation",
        "annotation-null-is-empty",
    ] {
        assert!(codes.iter().any(|c| c == code), "no lint-{code}");
    }
    codes.sort();
    for dir in &dirs {
        let code = code_of(dir);
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(
            readme.contains(&format!("`{code}`")),
            "{}: README does not name `{code}`",
            dir.display()
        );
        let p = plan_of(dir);
        assert!(
            p.warnings.iter().any(|w| w.code.as_str() == code),
            "{}: no {code} warning in {:?}",
            dir.display(),
            p.warnings
        );
        for w in &p.warnings {
            assert!(!w.message.is_empty() && w.message.len() > 60, "{w:?}");
        }
    }
}

/// Our plan of each example against kubectl's recording (live annotation as kubectl saw it).
#[test]
fn lint_examples_agree_with_kubectl() {
    let mut checked = 0;
    for dir in examples() {
        let Ok(text) = std::fs::read_to_string(dir.join("kubectl.json")) else {
            // lint-annotation-too-large: the recording would be over a megabyte.
            continue;
        };
        let e = applyscope::engine::smp::parse_json(&text).unwrap();
        assert_eq!(e["exit_code"], 0, "{}", dir.display());
        let local = read(&dir, "local.yaml").unwrap();
        let live = (!e["live"].is_null()).then(|| e["live"].clone());
        let input = PlanInput {
            local: &local,
            live: live.as_ref(),
            last_applied: LastApplied::FromLive,
            namespace: None,
            overwrite: true,
        };
        let p = plan::plan(&input, Schema::embedded()).unwrap();
        let name = dir.display().to_string();
        let patch_type = p
            .patch_type
            .map_or(Value::Null, |t| Value::from(t.content_type()));
        assert_eq!(patch_type, e["patch_type"], "{name}");
        assert_eq!(p.patch.clone().unwrap_or(Value::Null), e["patch"], "{name}");
        match p.created() {
            Some(created) => assert_eq!(created, &e["created"], "{name}"),
            None => assert_eq!(p.result, e["result"], "{name}"),
        }
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} recordings");
}

/// What each example teaches, pinned on kubectl's own result.
#[test]
fn the_surprises_the_examples_teach() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples");
    let kubectl = |name: &str| -> Value {
        let text = std::fs::read_to_string(root.join(name).join("kubectl.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let container = |e: &Value| e["result"]["spec"]["template"]["spec"]["containers"][0].clone();
    // Fixing a duplicate env var deletes the variable.
    let env = container(&kubectl("lint-duplicate-merge-key"))["env"].clone();
    assert_eq!(
        env,
        applyscope::json!([{"name": "DB_HOST", "value": "postgres"}])
    );
    // Renaming the TCP port renamed the UDP one.
    let ports = container(&kubectl("lint-port-protocol-merged"))["ports"].clone();
    assert_eq!(ports[0]["protocol"], "UDP");
    assert_eq!(ports[0]["name"], "dns-tcp-v2");
    assert_eq!(ports[1]["name"], "dns-tcp");
    // The autoscaler's 12 replicas go back to 3; removing the field deletes it.
    assert_eq!(
        kubectl("lint-hpa-replicas-reset")["result"]["spec"]["replicas"],
        3
    );
    assert!(
        kubectl("lint-replicas-removed")["result"]["spec"]
            .get("replicas")
            .is_none()
    );
    // Both probe handlers remain.
    let probe =
        &kubectl("lint-union-two-members")["result"]["spec"]["containers"][0]["livenessProbe"];
    assert!(
        probe.get("exec").is_some() && probe.get("httpGet").is_some(),
        "{probe}"
    );
    // The partner origin is gone.
    let origins = &kubectl("lint-list-items-lost")["result"]["spec"]["allowedOrigins"];
    assert!(!origins.to_string().contains("partner"), "{origins}");
    // Without the annotation, legacy-search stays.
    assert_eq!(
        kubectl("lint-missing-annotation")["result"]["data"]["legacy-search"],
        "on"
    );
    // The Secret's values are in the annotation kubectl writes.
    let created = &kubectl("lint-secret-in-annotation")["created"];
    let annotation =
        created["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
            .as_str()
            .unwrap();
    assert!(annotation.contains("sk_live_51HxAcmeExampleKey"));
}

#[test]
fn lints_reach_the_cli_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples/lint-immutable-field");
    let out = crate::support::bin()
        .args(["plan", "-o", "json", "--local"])
        .arg(dir.join("local.yaml"))
        .arg("--live")
        .arg(dir.join("live.yaml"))
        .arg("--last-applied")
        .arg(dir.join("last-applied.yaml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["immutable-field"]);
    assert_eq!(v["warnings"][0]["path"], "spec.selector");
    let text = crate::support::bin()
        .args(["plan", "--local"])
        .arg(dir.join("local.yaml"))
        .arg("--live")
        .arg(dir.join("live.yaml"))
        .arg("--last-applied")
        .arg(dir.join("last-applied.yaml"))
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("! immutable-field spec.selector: "), "{text}");
}

#[test]
fn the_large_example_stays_small_on_disk() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples/lint-annotation-too-large");
    let size = std::fs::metadata(dir.join("local.yaml")).unwrap().len();
    assert!(size < 10_000, "{size}");
    let p = plan_of(&dir);
    assert!(p.annotation().len() > 262_144, "{}", p.annotation().len());
}
