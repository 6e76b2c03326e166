//! Server-side plans checked against the real `kubectl apply --server-side` and the API
//! server's own field manager: every `ssa-SCENARIO.json` under `tests/ssa-cases/` (recorded
//! with `bench/ssa_oracle.py`, committed). The plan of `modified.yaml` over the recorded live
//! object must exit as kubectl did, send the requests kubectl sent (content type, field
//! manager, force, body) in its order, and leave the object kubectl's sequence left, its
//! managedFields included (their times and the resourceVersion aside: the clocks and the fake
//! server's counter are not the plan's). A request the API server refused while kubectl went
//! on (the re-apply after the csaupgrade, refused by the resourceVersion lock) is the plan's
//! `ssa-reapply-refused` warning instead.

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use super::support::run_bin;

fn recordings() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ssa-cases");
    let mut out = Vec::new();
    for case in std::fs::read_dir(&root).unwrap().flatten() {
        for f in std::fs::read_dir(case.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.starts_with("ssa-") && name.ends_with(".json") {
                out.push(f.path());
            }
        }
    }
    out.sort();
    out
}

/// A value with the managedFields' times and the resourceVersion taken out.
fn untimed(v: &Json) -> Json {
    match v {
        Json::Object(m) => Json::Object(
            m.iter()
                .filter(|(k, _)| *k != "time" && *k != "resourceVersion")
                .map(|(k, x)| (k.clone(), untimed(x)))
                .collect(),
        ),
        Json::Array(a) => Json::Array(a.iter().map(untimed).collect()),
        x => x.clone(),
    }
}

/// A request as compared: content type, field manager, force, and the body. The
/// csaupgrade's JSON patch replaces the managedFields (the plan's body) and the
/// resourceVersion it read: its first operation's value is compared.
fn sent(r: &Json) -> (String, String, Json, Json) {
    let ctype = r["content_type"].as_str().unwrap().to_owned();
    let mut body: Json = serde_json::from_str(r["body"].as_str().unwrap()).unwrap();
    if ctype == "application/json-patch+json" {
        let paths: Vec<&str> = body
            .as_array()
            .unwrap()
            .iter()
            .map(|op| op["path"].as_str().unwrap())
            .collect();
        assert_eq!(
            paths,
            ["/metadata/managedFields", "/metadata/resourceVersion"]
        );
        body = body[0]["value"].clone();
    }
    (
        ctype,
        r["field_manager"].as_str().unwrap_or("").to_owned(),
        r["force"].clone(),
        untimed(&body),
    )
}

fn check(recording: &Path) -> Result<(), String> {
    let rec: Json = serde_json::from_str(&std::fs::read_to_string(recording).unwrap()).unwrap();
    let dir = recording.parent().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let live = tmp.path().join("live.json");
    std::fs::write(&live, serde_json::to_string(&rec["live"]).unwrap()).unwrap();
    let modified = dir.join("modified.yaml");
    let mut args = vec![
        "plan",
        "--server-side",
        "-f",
        modified.to_str().unwrap(),
        "--live",
        live.to_str().unwrap(),
        "-o",
        "json",
    ];
    let flags: Vec<&str> = rec["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    args.extend(&flags);
    let (code, out, err) = run_bin(&args, None, dir);
    let want = rec["exit_code"].as_i64().unwrap();
    if i64::from(code) != want {
        return Err(format!(
            "exit {code}, kubectl {want}: {err} | kubectl: {}",
            rec["kubectl_stderr"]
        ));
    }
    if code != 0 {
        // The API server's conflict message, as kubectl prints it after `error: `.
        let theirs = rec["kubectl_stderr"].as_str().unwrap();
        let line = theirs.lines().next().unwrap_or("");
        let line = line.strip_prefix("error: ").unwrap_or(line);
        return if err.contains(line) {
            Ok(())
        } else {
            Err(format!("stderr {err:?} lacks kubectl's {line:?}"))
        };
    }
    let plan: Json = serde_json::from_str(&out).unwrap();
    let force = if flags.contains(&"--force-conflicts") {
        "true"
    } else {
        "false"
    };
    // A request the API server refused while kubectl went on (exit 0): only the re-apply
    // after the csaupgrade, refused by the resourceVersion lock, which kubectl warns about;
    // the plan ends before it and says so.
    let patches = || {
        rec["requests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["method"] == "PATCH")
    };
    if let Some(refused) = patches().find(|r| r.get("error").is_some()) {
        let warned = rec["kubectl_stderr"]
            .as_str()
            .unwrap()
            .contains("failed to re-apply configuration");
        let codes: Vec<&Json> = plan["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| &w["code"])
            .collect();
        if !warned || !codes.iter().any(|c| *c == "ssa-reapply-refused") {
            return Err(format!(
                "kubectl's refused request {}, the plan's warnings {codes:?}",
                refused["error"]
            ));
        }
    }
    let theirs: Vec<_> = patches()
        .filter(|r| r.get("error").is_none())
        .map(sent)
        .collect();
    let mine: Vec<_> = plan["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let main = matches!(s["request"].as_str(), Some("apply" | "apply-again"));
            (
                s["patchType"].as_str().unwrap().to_owned(),
                s["manager"].as_str().unwrap().to_owned(),
                if main { Json::from(force) } else { Json::Null },
                untimed(&s["body"]),
            )
        })
        .collect();
    if theirs != mine {
        return Err(format!(
            "requests differ:\nkubectl:    {}\napplyscope: {}",
            serde_json::to_string(&theirs).unwrap(),
            serde_json::to_string(&mine).unwrap()
        ));
    }
    if untimed(&rec["result"]) != untimed(&plan["result"]) {
        return Err(format!(
            "results differ:\nkubectl:    {}\napplyscope: {}",
            untimed(&rec["result"]),
            untimed(&plan["result"])
        ));
    }
    Ok(())
}

#[test]
fn server_side_plans_do_what_kubectl_and_the_field_manager_did() {
    let recordings = recordings();
    assert!(recordings.len() >= 20, "{} recordings", recordings.len());
    let failed: Vec<String> = recordings
        .iter()
        .filter_map(|r| check(r).err().map(|e| format!("{}: {e}", r.display())))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} differ:\n{}",
        failed.len(),
        recordings.len(),
        failed.join("\n")
    );
}
