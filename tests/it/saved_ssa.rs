//! Saved server-side plans against the fake API server (whose server-side apply is applyscope's
//! SSA engine, a `metadata.resourceVersion` in the applied configuration a precondition as in
//! the API server): `plan --server-side --save FILE` then `apply --plan FILE --yes` sends the
//! saved requests (every first request dry-run first; the apply guarded by the live
//! resourceVersion, or by a guarded dry run just before it where the guard would land in the
//! last-applied annotation; the follow-ups equal to the saved ones); a changed live object,
//! file or managedFields, or an edited plan, is refused and nothing is written.

#![cfg(feature = "cluster")]

use std::process::Output;

use serde_json::{Value, json};

use crate::fakeapi::ssa::engine;
use crate::fakeapi::{Cluster, go_json};
use crate::support::{stderr, stdout};

const LA: &str = "kubectl.kubernetes.io/last-applied-configuration";
const CM: &str = "/api/v1/namespaces/team/configmaps/test";
const WEB: &str = "/apis/apps/v1/namespaces/team/deployments/web";
const SETTINGS: &str = "/api/v1/namespaces/team/configmaps/settings";

/// A ConfigMap made by client-side apply with `key` and `legacy`: its server-side apply is
/// kubectl's four requests (kubernetes#99003).
fn client_side_configmap() -> Value {
    let config = json!({"apiVersion":"v1","data":{"key":"value","legacy":"unused"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"test","namespace":"team"}});
    let mut created = config.clone();
    let mut annotation = go_json(&config);
    annotation.push('\n');
    created["metadata"]["annotations"] = json!({LA: annotation});
    let mut v = engine(None, &created, "kubectl-client-side-apply", false);
    v["metadata"]["uid"] = json!("u-cm");
    v
}

fn web(image: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "team"},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": image}]}}}})
}

/// The Deployment as `kubectl apply --server-side` left it (no annotation: one request).
fn server_side_web() -> Value {
    let mut v = engine(None, &web("web:1"), "kubectl", true);
    v["metadata"]["uid"] = json!("u-web");
    v
}

fn apply(s: &Cluster) -> Output {
    s.run(&["apply", "--plan", "plan.json", "--yes"])
}

/// The saved requests of `object`.
fn saved_requests(s: &Cluster, object: &str) -> Vec<Value> {
    s.read_json("plan.json")["plan"]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["object"] == object)
        .unwrap()["requests"]
        .as_array()
        .unwrap()
        .clone()
}

/// The three objects live (the client-side ConfigMap, the Deployment) or not (a ConfigMap to
/// create), their files, the plan saved with `extra` flags.
fn saved(extra: &[&str]) -> Cluster {
    let s = Cluster::start([client_side_configmap(), server_side_web()]);
    s.write(
        "app/a-test.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: test\ndata:\n  key: value\n",
    );
    s.write(
        "app/b-web.yaml",
        &serde_json::to_string(&web("web:2")).unwrap(),
    );
    s.write(
        "app/c-settings.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"1\"\n",
    );
    let mut args = vec!["plan", "--server-side", "-f", "app", "--save", "plan.json"];
    args.extend(extra);
    let o = s.run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("server-side apply, 3 object(s), 6 request(s)"),
        "{}",
        stdout(&o)
    );
    assert!(s.api.writes().is_empty(), "a plan sends nothing");
    s
}

fn query(r: &Value) -> String {
    r["query"]
        .as_array()
        .unwrap()
        .iter()
        .map(|kv| format!("{}={}", kv[0].as_str().unwrap(), kv[1].as_str().unwrap()))
        .collect::<Vec<_>>()
        .join("&")
}

/// `body` with `metadata.resourceVersion` set, as Go writes it.
fn with_guard(body: &str, rv: &str) -> String {
    let mut v: Value = serde_json::from_str(body).unwrap();
    v["metadata"]["resourceVersion"] = json!(rv);
    format!("{}\n", go_json(&v))
}

#[test]
fn ssa_saved_plan_records_the_mode_the_settings_and_kubectls_requests() {
    let s = saved(&[]);
    let f = s.read_json("plan.json");
    let p = &f["plan"];
    assert_eq!(p["version"], 1);
    assert_eq!(p["mode"], "server-side");
    let how = &p["settings"]["serverSide"];
    assert_eq!(how["fieldManager"], "kubectl");
    assert_eq!(how["forceConflicts"], false);
    assert_eq!(how["migrateManagers"], json!([]));
    assert!(how["time"].as_str().unwrap().ends_with('Z'), "{how}");
    let test = p["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["object"] == "ConfigMap team/test")
        .unwrap();
    assert_eq!(test["live"]["uid"], "u-cm");
    assert!(
        test["live"]["managedFields"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    let steps: Vec<&str> = test["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["step"].as_str().unwrap())
        .collect();
    assert_eq!(
        steps,
        [
            "apply",
            "save-last-applied",
            "upgrade-managed-fields",
            "apply-again"
        ]
    );
    let first = &test["requests"][0];
    assert_eq!(
        query(first),
        "fieldManager=kubectl&fieldValidation=Strict&force=false"
    );
    assert_eq!(first["contentType"], "application/apply-patch+yaml");
    assert_eq!(
        first["body"],
        "{\"apiVersion\":\"v1\",\"data\":{\"key\":\"value\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"test\",\"namespace\":\"team\"}}\n",
        "kubectl's bytes: no resourceVersion"
    );
    assert_eq!(
        test["requests"][2]["decidedAtSend"],
        json!(["/1/value", "/0/value/*/time"])
    );
    let create = p["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["object"] == "ConfigMap team/settings")
        .unwrap();
    assert!(create["live"].is_null(), "{create}");
    assert_eq!(
        create["requests"].as_array().unwrap().len(),
        1,
        "a create: the apply only"
    );
    let summary = s.run(&["plan", "--server-side", "-f", "app", "--save", "again.json"]);
    assert!(
        stdout(&summary).contains("  ConfigMap team/test: (upgrade-managed-fields) PATCH /api/v1/namespaces/team/configmaps/test (application/json-patch+json)"),
        "{}",
        stdout(&summary)
    );
}

#[test]
fn ssa_saved_plan_unchanged_is_applied_exactly() {
    let s = saved(&[]);
    let (test, web, settings) = (
        saved_requests(&s, "ConfigMap team/test"),
        saved_requests(&s, "Deployment team/web"),
        saved_requests(&s, "ConfigMap team/settings"),
    );
    let rv = |p: &str| {
        s.api.object(p).unwrap()["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (test_rv, web_rv) = (rv(CM), rv(WEB));
    let o = apply(&s);
    assert!(o.status.success(), "{}", stderr(&o));
    let writes = s.api.writes();
    let sent: Vec<(&str, String, String)> = writes
        .iter()
        .map(|w| (w.path.as_str(), w.query.clone(), w.body_text()))
        .collect();
    let body = |r: &Value| r["body"].as_str().unwrap().to_owned();
    let dry = |r: &Value| format!("dryRun=All&{}", query(r));
    let mut expected = vec![
        // Every object's first request dry-run, guarded where the object is live.
        (CM, dry(&test[0]), with_guard(&body(&test[0]), &test_rv)),
        (WEB, dry(&web[0]), with_guard(&body(&web[0]), &web_rv)),
        (SETTINGS, dry(&settings[0]), body(&settings[0])),
        // The ConfigMap: the manager `kubectl` on an object with the annotation: the guard is
        // a dry run just before; the apply is kubectl's bytes.
        (CM, dry(&test[0]), with_guard(&body(&test[0]), &test_rv)),
        (CM, query(&test[0]), body(&test[0])),
        (CM, query(&test[1]), body(&test[1])),
    ];
    // The csaupgrade as decided from the answers: its resourceVersion and times the
    // server's.
    let upgrade = &writes[6];
    assert_eq!(upgrade.query, query(&test[2]));
    let mut predicted: Value = serde_json::from_str(&body(&test[2])).unwrap();
    let mut real = upgrade.body_json();
    // The resourceVersion the save-last-applied answer carried: two writes before the last.
    let last: u64 = rv(CM).parse().unwrap();
    assert_eq!(real[1]["value"], (last - 2).to_string());
    for v in [&mut predicted, &mut real] {
        v[1]["value"] = Value::Null;
        for e in v[0]["value"].as_array_mut().unwrap() {
            e.as_object_mut().unwrap().remove("time");
        }
    }
    assert_eq!(real, predicted);
    expected.push((CM, upgrade.query.clone(), upgrade.body_text()));
    expected.extend([
        (CM, query(&test[3]), body(&test[3])),
        // The Deployment: the apply guarded by the live resourceVersion.
        (WEB, query(&web[0]), with_guard(&body(&web[0]), &web_rv)),
        (SETTINGS, query(&settings[0]), body(&settings[0])),
    ]);
    let expected: Vec<(&str, String, String)> = expected;
    assert_eq!(sent, expected);
    let cm = s.api.object(CM).unwrap();
    assert_eq!(
        cm["data"],
        json!({"key": "value"}),
        "legacy pruned, as planned"
    );
    assert!(
        !cm["metadata"]["annotations"][LA]
            .as_str()
            .unwrap()
            .contains("resourceVersion"),
        "no guard in the annotation"
    );
    assert_eq!(
        s.api.object(WEB).unwrap()["spec"]["template"]["spec"]["containers"][0]["image"],
        "web:2"
    );
    assert_eq!(s.api.object(SETTINGS).unwrap()["data"], json!({"a": "1"}));
    let text = stdout(&o);
    for line in [
        "ConfigMap team/test: apply: the guard, a server dry run: PATCH",
        "ConfigMap team/test: upgrade-managed-fields: PATCH",
        "Deployment team/web: serverside-applied (resourceVersion",
        "applied the saved plan plan.json",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

fn refused(s: &Cluster, o: &Output) -> String {
    assert_eq!(o.status.code(), Some(1), "{}", stderr(o));
    let e = stderr(o);
    assert!(
        e.contains("the saved plan no longer holds: nothing was sent"),
        "{e}"
    );
    assert!(s.api.writes().is_empty(), "nothing written");
    e
}

#[test]
fn ssa_saved_plan_refused_when_a_live_object_changed() {
    let s = saved(&[]);
    s.api.change(WEB, |o| o["spec"]["replicas"] = json!(9));
    let e = refused(&s, &apply(&s));
    assert!(
        e.contains("Deployment team/web: the live object changed since the plan was saved (uid u-web resourceVersion "),
        "{e}"
    );
    assert!(!e.contains("ConfigMap"), "only what changed is named: {e}");
}

#[test]
fn ssa_saved_plan_refused_when_only_the_managed_fields_changed() {
    let s = saved(&[]);
    // Another manager takes a share of the replicas (the same value): only the owners change.
    s.api.change(WEB, |o| {
        o["metadata"]["managedFields"].as_array_mut().unwrap().push(
            json!({"manager": "hpa", "operation": "Update", "apiVersion": "apps/v1",
                "time": "2026-11-21T10:00:00Z", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:spec": {"f:replicas": {}}}}),
        );
    });
    let e = refused(&s, &apply(&s));
    assert!(
        e.contains("Deployment team/web: the live object changed since the plan was saved")
            && e.contains("its managedFields (who owns which field) changed"),
        "{e}"
    );
}

#[test]
fn ssa_saved_plan_refused_when_a_file_changed() {
    let s = saved(&[]);
    std::fs::write(
        s.dir.path().join("app/c-settings.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"2\"\n",
    )
    .unwrap();
    let e = refused(&s, &apply(&s));
    assert!(
        e.contains("file app/c-settings.yaml: changed since the plan was saved"),
        "{e}"
    );
    assert!(
        e.contains("ConfigMap team/settings: the requests planned now differ from the saved ones"),
        "{e}"
    );
    assert!(!e.contains("team/test"), "{e}");
}

#[test]
fn ssa_saved_plan_edited_or_truncated_is_refused_with_exit_2() {
    let s = saved(&[]);
    let path = s.dir.path().join("plan.json");
    let text = std::fs::read_to_string(&path).unwrap();
    for (bad, says) in [
        (
            text.replace("web:2", "web:3"),
            "plan.json: the plan was edited after it was saved",
        ),
        (
            text.replace("\"forceConflicts\": false", "\"forceConflicts\": true"),
            "plan.json: the plan was edited after it was saved",
        ),
        (
            text[..text.len() / 2].to_owned(),
            "plan.json: not a readable applyscope saved plan",
        ),
    ] {
        assert_ne!(bad, text);
        std::fs::write(&path, &bad).unwrap();
        let o = apply(&s);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
    assert!(s.api.writes().is_empty());
}

#[test]
fn ssa_saved_plan_flags_that_contradict_it_are_refused() {
    let s = saved(&[]);
    let o = s.run(&[
        "apply",
        "--plan",
        "plan.json",
        "--yes",
        "--field-manager",
        "ci",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "the plan was saved with --field-manager kubectl: --field-manager ci contradicts it"
        ),
        "{}",
        stderr(&o)
    );
    let o = s.run(&[
        "apply",
        "--plan",
        "plan.json",
        "--yes",
        "--server-side=false",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a server-side plan: --server-side=false contradicts it"),
        "{}",
        stderr(&o)
    );
    assert!(s.api.writes().is_empty());
}

/// Just the Deployment, saved.
fn saved_web() -> Cluster {
    let s = Cluster::start([server_side_web()]);
    s.write("web.yaml", &serde_json::to_string(&web("web:2")).unwrap());
    let o = s.run(&[
        "plan",
        "--server-side",
        "-f",
        "web.yaml",
        "--save",
        "plan.json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    s
}

/// The object changes after the check and its dry run, before the apply: the guard in the
/// apply's body makes the server refuse it.
#[test]
fn ssa_saved_plan_guard_refuses_a_change_after_the_check() {
    let s = saved_web();
    // The dry run answers at once; the apply waits, and meanwhile another client scales.
    s.api.fail_next("PATCH", WEB, 200, server_side_web());
    s.api.hang_next("PATCH", WEB, 3);
    let api = s.api.clone();
    let changer = std::thread::spawn(move || {
        let start = std::time::Instant::now();
        while api.writes().is_empty() {
            assert!(start.elapsed().as_secs() < 30, "no dry run came");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        api.change(WEB, |o| o["spec"]["replicas"] = json!(7));
    });
    let o = apply(&s);
    changer.join().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Deployment team/web: apply: 409 Conflict")
            && stderr(&o).contains(
                "Operation cannot be fulfilled on deployments \"web\": the object has been modified"
            ),
        "{}",
        stderr(&o)
    );
    let writes = s.api.writes();
    assert_eq!(writes.len(), 2, "{writes:?}");
    assert!(
        writes[1].body_text().contains("\"resourceVersion\":"),
        "the guard was sent"
    );
    let live = s.api.object(WEB).unwrap();
    assert_eq!(
        live["spec"]["replicas"], 7,
        "the other client's change stands"
    );
    assert_eq!(
        live["spec"]["template"]["spec"]["containers"][0]["image"], "web:1",
        "nothing applied"
    );
}

/// The answer to the apply calls for no follow-up where the plan saved three: the run stops,
/// says so, and sends nothing more.
#[test]
fn ssa_saved_plan_stops_when_a_follow_up_differs_from_the_saved_one() {
    let s = saved(&[]);
    let mut plain = client_side_configmap();
    plain["metadata"]["annotations"] = json!({});
    plain["metadata"]["managedFields"] = json!([]);
    // The three PATCHes of the ConfigMap before its follow-ups: both dry runs, then the apply,
    // answered by an object with no annotation.
    for _ in 0..3 {
        s.api.fail_next("PATCH", CM, 200, plain.clone());
    }
    let o = apply(&s);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("ConfigMap team/test: the server's answer calls for no further request, but the plan saved save-last-applied"),
        "{}",
        stderr(&o)
    );
    let writes = s.api.writes();
    // Three dry runs, the ConfigMap's guard and apply; nothing of the others.
    assert_eq!(writes.len(), 5, "{writes:?}");
    assert!(writes.iter().skip(3).all(|w| w.path == CM));
}

/// Helm's switch to server-side apply (`--migrate-manager helm`): the migration, a JSON patch
/// guarded by the live resourceVersion, is saved and sent exactly; then the apply, guarded by
/// the resourceVersion the migration left.
#[test]
fn ssa_saved_plan_with_a_migration_sends_it_first() {
    let mut installed = web("web:1");
    installed["metadata"]["labels"] = json!({"old": "yes"});
    let mut live = engine(None, &installed, "helm", false);
    live["metadata"]["uid"] = json!("u-web");
    let s = Cluster::start([live]);
    s.write("web.yaml", &serde_json::to_string(&web("web:2")).unwrap());
    let o = s.run(&[
        "plan",
        "--server-side",
        "--field-manager",
        "helm",
        "--migrate-manager",
        "helm",
        "-f",
        "web.yaml",
        "--save",
        "plan.json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let how = &s.read_json("plan.json")["plan"]["settings"]["serverSide"];
    assert_eq!(how["fieldManager"], "helm");
    assert_eq!(how["migrateManagers"], json!(["helm"]));
    let saved = saved_requests(&s, "Deployment team/web");
    let steps: Vec<&str> = saved.iter().map(|r| r["step"].as_str().unwrap()).collect();
    assert_eq!(steps, ["migrate-managers", "apply"]);
    let live_rv = s.api.object(WEB).unwrap()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    let o = apply(&s);
    assert!(o.status.success(), "{}", stderr(&o));
    let writes = s.api.writes();
    let sent: Vec<(String, String)> = writes
        .iter()
        .map(|w| (w.query.clone(), w.body_text()))
        .collect();
    let body = |r: &Value| r["body"].as_str().unwrap().to_owned();
    let migrated_rv = (live_rv.parse::<u64>().unwrap() + 1).to_string();
    assert_eq!(
        sent,
        [
            (format!("dryRun=All&{}", query(&saved[0])), body(&saved[0])),
            (query(&saved[0]), body(&saved[0])),
            (query(&saved[1]), with_guard(&body(&saved[1]), &migrated_rv)),
        ]
    );
    let after = s.api.object(WEB).unwrap();
    assert_eq!(
        after["spec"]["template"]["spec"]["containers"][0]["image"],
        "web:2"
    );
    assert_eq!(
        after["metadata"].get("labels"),
        None,
        "what helm owned and the file dropped is pruned by the first apply"
    );
}
