//! Saved plans against the fake API server: `plan --save FILE` then `apply --plan FILE --yes`
//! sends exactly the saved requests (a dry run of each first, each PATCH guarded by the live
//! object's resourceVersion); a changed live object, a changed file or an edited plan is
//! refused and nothing is written.

#![cfg(feature = "cluster")]

use std::process::Output;

use serde_json::{Value, json};

use crate::cluster::{LOCAL, live_web};
use crate::fakeapi::Cluster;
use crate::support::stderr;

const WEB: &str = "/apis/apps/v1/namespaces/team/deployments/web";

/// The web Deployment live (and a new ConfigMap in the files, for a create), the plan saved.
fn saved() -> Cluster {
    let s = Cluster::start([live_web()]);
    s.write("app/web.yaml", LOCAL);
    s.write(
        "app/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"1\"\n",
    );
    let out = s.run(&["plan", "-f", "app", "--save", "plan.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(s.api.writes().is_empty(), "a plan sends nothing");
    s
}

fn apply(s: &Cluster) -> Output {
    s.run(&["apply", "--plan", "plan.json", "--yes"])
}

fn plan_file(s: &Cluster) -> Value {
    s.read_json("plan.json")
}

#[test]
fn saved_plan_records_inputs_live_objects_and_requests() {
    let s = saved();
    let f = plan_file(&s);
    assert!(f["digest"].as_str().unwrap().starts_with("sha256:"));
    let p = &f["plan"];
    assert_eq!(p["kind"], "ApplyscopeSavedPlan");
    assert_eq!(p["version"], 1);
    assert_eq!(p["mode"], "client-side");
    let inputs: Vec<&str> = p["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["app/cm.yaml", "app/web.yaml"]);
    let web = p["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["object"] == "Deployment team/web")
        .unwrap();
    assert_eq!(web["live"], json!({"uid": "u-1", "resourceVersion": "7"}));
    assert_eq!(web["requests"][0]["method"], "PATCH");
    assert_eq!(web["requests"][0]["path"], WEB);
    assert_eq!(
        web["requests"][0]["contentType"],
        "application/strategic-merge-patch+json"
    );
}

#[test]
fn saved_plan_unchanged_is_applied_exactly() {
    let s = saved();
    let f = plan_file(&s);
    let out = apply(&s);
    assert!(out.status.success(), "{}", stderr(&out));
    let writes = s.api.writes();
    // Every dry run first, then the real requests, in the plan's order.
    let saved: Vec<&Value> = f["plan"]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["requests"].as_array().unwrap())
        .collect();
    assert_eq!(saved.len(), 2);
    assert_eq!(writes.len(), 4, "{writes:?}");
    for (i, w) in writes.iter().enumerate() {
        let r = saved[i % 2];
        assert_eq!(w.method, r["method"]);
        assert_eq!(w.path, r["path"].as_str().unwrap());
        let query: Vec<String> = r["query"]
            .as_array()
            .unwrap()
            .iter()
            .map(|kv| format!("{}={}", kv[0].as_str().unwrap(), kv[1].as_str().unwrap()))
            .collect();
        let query = query.join("&");
        if i < 2 {
            assert_eq!(w.query, format!("dryRun=All&{query}"));
        } else {
            assert_eq!(w.query, query);
        }
        assert_eq!(w.content_type.as_deref(), r["contentType"].as_str());
        let body: Value = serde_json::from_str(r["body"].as_str().unwrap()).unwrap();
        let mut sent = w.body_json();
        if w.method == "PATCH" {
            // The one addition: the guard.
            assert_eq!(sent["metadata"]["resourceVersion"], "7");
            sent["metadata"]
                .as_object_mut()
                .unwrap()
                .remove("resourceVersion");
            if sent["metadata"].as_object().unwrap().is_empty() {
                sent.as_object_mut().unwrap().remove("metadata");
            }
        }
        assert_eq!(sent, body);
    }
    let after = s.api.object(WEB).unwrap();
    assert_eq!(
        after["spec"]["template"]["spec"]["containers"][0]["image"],
        "web:2"
    );
}

#[test]
fn saved_plan_refused_when_the_live_object_changed() {
    let s = saved();
    s.api.change(WEB, |o| {
        o["spec"]["replicas"] = json!(9);
    });
    let out = apply(&s);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("Deployment team/web: the live object changed since the plan was saved (uid u-1 resourceVersion 7 → uid u-1 resourceVersion "),
        "{e}"
    );
    assert!(e.contains("nothing was sent"), "{e}");
    assert!(s.api.writes().is_empty());
}

#[test]
fn saved_plan_refused_when_a_file_changed() {
    let s = saved();
    std::fs::write(
        s.dir.path().join("app/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"2\"\n",
    )
    .unwrap();
    let out = apply(&s);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("file app/cm.yaml: changed since the plan was saved"),
        "{e}"
    );
    assert!(
        e.contains("ConfigMap team/settings: the requests planned now differ"),
        "{e}"
    );
    assert!(!e.contains("app/web.yaml"), "{e}");
    assert!(s.api.writes().is_empty());
}

#[test]
fn saved_plan_edited_or_truncated_is_refused() {
    let s = saved();
    let path = s.dir.path().join("plan.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replace("web:2", "web:3");
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();
    let out = apply(&s);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("plan.json: the plan was edited after it was saved"),
        "{}",
        stderr(&out)
    );
    std::fs::write(&path, &text[..text.len() / 3]).unwrap();
    let out = apply(&s);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("plan.json: not a readable applyscope saved plan"),
        "{}",
        stderr(&out)
    );
    assert!(s.api.writes().is_empty());
}

/// An example has no cluster to check again: `--save` with `--example` is refused, nothing
/// written.
#[test]
fn saved_plan_refuses_an_example() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    let (code, stdout, stderr) = crate::support::run_bin(
        &[
            "plan",
            "--example",
            "nginx-scale-image",
            "--save",
            plan.to_str().unwrap(),
        ],
        None,
        dir.path(),
    );
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("not with --example nginx-scale-image"),
        "{stderr}"
    );
    assert!(!plan.exists());
}
