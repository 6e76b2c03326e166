//! Cluster mode against the in-process fake API server (`fakeapi.rs`): loading, the patch
//! metadata source, every request applyscope sends (method, path, query, content type, body
//! bytes, the resourceVersion precondition), errors, and the apply of every kubectl-recorded
//! case compared byte for byte with what kubectl 1.37.1 sent.

#![cfg(feature = "cluster")]

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use crate::fakeapi::{Cluster, FakeApi, go_json, kind, status_body};
use crate::support::{bin, output, stderr, stdout};

const LA: &str = "kubectl.kubernetes.io/last-applied-configuration";
const WRITE_QUERY: &str = "fieldManager=kubectl-client-side-apply&fieldValidation=Strict";
const DRY_QUERY: &str = "dryRun=All&fieldManager=kubectl-client-side-apply&fieldValidation=Strict";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

pub use crate::support::WEB_DEPLOYMENT as LOCAL;

/// A live Deployment applied from LOCAL with image web:1, scaled to 5, with managedFields.
pub fn live_web() -> Value {
    let applied = json!({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"team"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"web:1","name":"web"}]}}}});
    let mut annotation = go_json(&applied);
    annotation.push('\n');
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "team", "resourceVersion": "7", "uid": "u-1",
            "annotations": {LA: annotation},
            "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update"}]},
        "spec": {"replicas": 5, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "web:1", "imagePullPolicy": "IfNotPresent"}]}}}
    })
}

/// The server holding `live`, [`LOCAL`] written to `web.yaml` beside the kubeconfig.
fn setup(live: Option<Value>) -> Cluster {
    let s = Cluster::start(live);
    s.write("web.yaml", LOCAL);
    s
}

const WEB: &str = "/apis/apps/v1/namespaces/team/deployments/web";

#[test]
fn cluster_plan_reads_the_live_object_and_sends_nothing() {
    let s = setup(Some(live_web()));
    let out = s.run(&["plan", "-f", "web.yaml", "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plan: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(plan["patchType"], "application/strategic-merge-patch+json");
    assert_eq!(
        plan["patch"]["spec"]["template"]["spec"]["containers"][0]["image"],
        "web:2"
    );
    // The context's namespace went into the new annotation.
    assert!(
        plan["annotation"]
            .as_str()
            .unwrap()
            .contains(r#""namespace":"team""#)
    );
    let reqs = s.api.requests();
    let seen: Vec<String> = reqs
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert_eq!(
        seen,
        [
            "GET /apis/apps/v1",
            &format!("GET {WEB}"),
            "GET /openapi/v3",
            "GET /openapi/v2"
        ]
    );
    assert!(s.api.writes().is_empty());

    // The TUI's command line on the same file, without a terminal: the text plan.
    let out = s.run(&["-f", "web.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("plan: PATCH application/strategic-merge-patch+json"),
        "{}",
        stdout(&out)
    );
    // An empty file: the one-object reading's error, naming it, exit 2.
    let empty = write(s.dir.path(), "empty.yaml", "");
    let out = s.run(&["-f", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("empty.yaml"), "{}", stderr(&out));
    assert!(s.api.writes().is_empty());
}

#[test]
fn cluster_plan_of_a_missing_object_is_a_create() {
    let s = setup(None);
    let out = s.run(&["plan", "-f", "web.yaml", "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plan: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(plan["created"]["metadata"]["namespace"], "team");
    assert!(plan["patch"].is_null());
}

#[test]
fn cluster_diff_reads_the_live_object() {
    let s = setup(Some(live_web()));
    let out = s.run(&["diff", "-f", "web.yaml", "--color", "never"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with('-') && l.ends_with("image: web:1")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with('+') && l.ends_with("image: web:2")),
        "{text}"
    );
    assert!(!text.contains("managedFields"));
}

#[test]
fn cluster_apply_without_yes_prints_and_sends_nothing() {
    let s = setup(Some(live_web()));
    let out = s.run(&["apply", "-f", "web.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("would send PATCH {WEB}?{WRITE_QUERY}")),
        "{text}"
    );
    assert!(text.contains("nothing sent"));
    assert!(s.api.writes().is_empty());
}

#[test]
fn cluster_apply_sends_a_dry_run_then_the_patch() {
    let s = setup(Some(live_web()));
    let out = s.run(&["apply", "-f", "web.yaml", "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let writes = s.api.writes();
    assert_eq!(writes.len(), 2, "{writes:?}");
    for (w, query) in writes.iter().zip([DRY_QUERY, WRITE_QUERY]) {
        assert_eq!(w.method, "PATCH");
        assert_eq!(w.path, WEB);
        assert_eq!(w.query, query);
        assert_eq!(
            w.content_type.as_deref(),
            Some("application/strategic-merge-patch+json")
        );
    }
    assert_eq!(writes[0].body, writes[1].body);
    let body = writes[1].body_json();
    assert_eq!(
        go_json(&body),
        writes[1].body_text(),
        "the body is written as Go writes it"
    );
    assert_eq!(
        body["spec"]["template"]["spec"]["containers"],
        json!([{"image": "web:2", "name": "web"}])
    );
    let after = s.api.object(WEB).unwrap();
    assert_eq!(
        after["spec"]["template"]["spec"]["containers"][0]["image"],
        "web:2"
    );
    assert!(stdout(&out).contains("Deployment team/web: configured"));
}

#[test]
fn cluster_apply_creates_with_post() {
    let s = setup(None);
    let out = s.run(&["apply", "-f", "web.yaml", "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let writes = s.api.writes();
    assert_eq!(writes.len(), 2);
    for (w, query) in writes.iter().zip([DRY_QUERY, WRITE_QUERY]) {
        assert_eq!(w.method, "POST");
        assert_eq!(w.path, "/apis/apps/v1/namespaces/team/deployments");
        assert_eq!(w.query, query);
        assert_eq!(w.content_type.as_deref(), Some("application/json"));
    }
    let posted = writes[1].body_json();
    assert_eq!(posted["metadata"]["namespace"], "team");
    assert!(
        posted["metadata"]["annotations"][LA]
            .as_str()
            .unwrap()
            .ends_with('\n')
    );
}

#[test]
fn cluster_last_applied_drop_patches_only_the_annotation_guarded_by_resource_version() {
    let s = setup(Some(live_web()));
    let args = ["last-applied", "drop", "-f", "web.yaml", "spec.replicas"];
    let out = s.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("nothing sent: pass --yes"));
    assert!(s.api.writes().is_empty());

    let mut yes = args.to_vec();
    yes.push("--yes");
    let out = s.run(&yes);
    assert!(out.status.success(), "{}", stderr(&out));
    let writes = s.api.writes();
    assert_eq!(writes.len(), 1);
    let w = &writes[0];
    assert_eq!((w.method.as_str(), w.path.as_str()), ("PATCH", WEB));
    assert_eq!(w.query, WRITE_QUERY);
    assert_eq!(
        w.content_type.as_deref(),
        Some("application/merge-patch+json")
    );
    let expected_doc = json!({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"team"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"web:1","name":"web"}]}}}});
    let mut annotation = go_json(&expected_doc);
    annotation.push('\n');
    let body = json!({"metadata": {"annotations": {LA: annotation}, "resourceVersion": "7"}});
    assert_eq!(w.body_text(), go_json(&body));
    let after = s.api.object(WEB).unwrap();
    assert_eq!(after["spec"]["replicas"], 5, "only the annotation changed");
    assert_eq!(after["metadata"]["annotations"][LA], annotation);
}

#[test]
fn cluster_last_applied_commit_after_a_concurrent_change_is_a_409_and_nothing_changes() {
    let s = setup(Some(live_web()));
    // Another client changes the object between our GET and our PATCH: simulated by a 409.
    s.api.fail_next(
        "PATCH",
        WEB,
        409,
        status_body(409, "Conflict", "the object has been modified"),
    );
    let out = s.run(&[
        "last-applied",
        "drop",
        "-f",
        "web.yaml",
        "spec.replicas",
        "--yes",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("409 Conflict"), "{err}");
    assert!(err.contains("nothing changed"), "{err}");
}

#[test]
fn cluster_last_applied_view_reads_from_the_cluster() {
    let s = setup(Some(live_web()));
    let out = s.run(&["last-applied", "view", "-f", "web.yaml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("replicas: 3"));
}

fn one_line_exit_2(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    let err = stderr(out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(stdout(out).is_empty());
    err
}

#[test]
fn cluster_errors_are_one_line_and_exit_2() {
    let s = setup(Some(live_web()));
    let plan_error = |file: &str| one_line_exit_2(&s.run(&["plan", "-f", file]));
    s.api.fail_next(
        "GET",
        WEB,
        403,
        status_body(403, "Forbidden", "user \"x\" cannot get resource"),
    );
    let err = plan_error("web.yaml");
    assert!(
        err.contains("403 Forbidden: not allowed to get deployments.apps \"web\""),
        "{err}"
    );

    s.api.fail_next(
        "GET",
        WEB,
        401,
        status_body(401, "Unauthorized", "Unauthorized"),
    );
    let err = plan_error("web.yaml");
    assert!(
        err.contains("401 Unauthorized: cannot get deployments.apps"),
        "{err}"
    );

    let mut invalid = status_body(422, "Invalid", "Deployment.apps \"web\" is invalid");
    invalid["details"] = json!({"causes": [
        {"field": "spec.replicas", "message": "must be greater than or equal to 0"},
        {"field": "spec.template.spec.containers[0].image", "message": "Required value"}]});
    s.api.fail_next("PATCH", WEB, 422, invalid);
    let err = one_line_exit_2(&s.run(&["apply", "-f", "web.yaml", "--yes"]));
    assert!(
        err.contains("server dry run of Deployment team/web: 422 Invalid"),
        "{err}"
    );
    assert!(err.contains("spec.replicas: must be greater than or equal to 0; spec.template.spec.containers[0].image: Required value"), "{err}");
    // The dry run failed: the real request was never sent.
    assert_eq!(s.api.writes().len(), 1);
    assert!(s.api.writes()[0].query.starts_with("dryRun=All"));

    let crd = write(
        s.dir.path(),
        "gadget.yaml",
        "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n",
    );
    let err = plan_error(crd.to_str().unwrap());
    assert!(
        err.contains("does not serve kind \"Gadget\" in example.com/v1"),
        "{err}"
    );
    let other = write(
        s.dir.path(),
        "other.yaml",
        "apiVersion: other.io/v9\nkind: Thing\nmetadata: {name: t}\n",
    );
    let err = plan_error(other.to_str().unwrap());
    assert!(
        err.contains("does not serve apiVersion \"other.io/v9\""),
        "{err}"
    );
}

#[test]
fn cluster_unreachable_server_and_missing_config_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let kc = write(
        dir.path(),
        "kc",
        &format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: 'http://127.0.0.1:{port}'}}\ncontexts:\n- name: c\n  context: {{cluster: c, user: u}}\ncurrent-context: c\nusers:\n- name: u\n  user: {{}}\n"
        ),
    );
    let local = write(dir.path(), "web.yaml", LOCAL);
    let started = std::time::Instant::now();
    let err = one_line_exit_2(&output(&[
        "plan",
        "-f",
        local.to_str().unwrap(),
        "--kubeconfig",
        kc.to_str().unwrap(),
    ]));
    assert!(err.contains("cannot reach the server"), "{err}");
    assert!(started.elapsed().as_secs() < 20);

    let err = one_line_exit_2(&output(&[
        "plan",
        "-f",
        local.to_str().unwrap(),
        "--kubeconfig",
        "/nonexistent/kc",
    ]));
    assert!(err.contains("/nonexistent/kc"), "{err}");
    let err = one_line_exit_2(&output(&[
        "plan",
        "-f",
        local.to_str().unwrap(),
        "--kubeconfig",
        kc.to_str().unwrap(),
        "--context",
        "nope",
    ]));
    assert!(err.contains("nope"), "{err}");
}

/// A v3 document for `example.com/v1` Widget whose PATCH accepts strategic merge patch and
/// whose `spec.items` merge by `name`: only the server's document can say so.
fn widget_v3(smp: bool) -> Value {
    let mut content =
        json!({"application/merge-patch+json": {}, "application/json-patch+json": {}});
    if smp {
        content["application/strategic-merge-patch+json"] = json!({});
    }
    json!({
        "openapi": "3.0.0",
        "paths": {"/apis/example.com/v1/namespaces/{namespace}/widgets/{name}": {"patch": {
            "x-kubernetes-group-version-kind": {"group": "example.com", "version": "v1", "kind": "Widget"},
            "requestBody": {"content": content}}}},
        "components": {"schemas": {
            "com.example.v1.Widget": {
                "type": "object",
                "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Widget"}],
                "properties": {
                    "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                    "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                    "spec": {"type": "object", "properties": {"items": {
                        "type": "array",
                        "x-kubernetes-patch-merge-key": "name",
                        "x-kubernetes-patch-strategy": "merge",
                        "items": {"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "integer"}}}}}}
                }
            }
        }}
    })
}

fn widget_setup(v3: Option<Value>) -> Cluster {
    let s = setup(None);
    let live = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "team", "resourceVersion": "3"},
        "spec": {"items": [{"name": "a", "size": 1}, {"name": "b", "size": 2}]}});
    s.api.put(live);
    if let Some(doc) = v3 {
        s.api.set_openapi(
            "/openapi/v3",
            json!({"paths": {"apis/example.com/v1": {"serverRelativeURL": "/openapi/v3/apis/example.com/v1?hash=X"}}}),
        );
        s.api.set_openapi("/openapi/v3/apis/example.com/v1", doc);
    }
    write(
        s.dir.path(),
        "w.yaml",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  items:\n  - {name: a, size: 5}\n",
    );
    s
}

#[test]
fn cluster_openapi_v3_decides_the_patch_type_and_merge_keys() {
    let s = widget_setup(Some(widget_v3(true)));
    let w = s.dir.path().join("w.yaml");
    let w = w.to_str().unwrap();
    let out = s.run(&["apply", "-f", w, "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let writes = s.api.writes();
    assert_eq!(
        writes[1].content_type.as_deref(),
        Some("application/strategic-merge-patch+json")
    );
    let body = writes[1].body_json();
    assert_eq!(body["spec"]["items"], json!([{"name": "a", "size": 5}]));
    assert_eq!(
        body["spec"]["$setElementOrder/items"],
        json!([{"name": "a"}])
    );
    let gets: Vec<String> = s
        .api
        .requests()
        .iter()
        .filter(|r| r.method == "GET")
        .map(|r| {
            format!(
                "{}{}",
                r.path,
                if r.query.is_empty() {
                    String::new()
                } else {
                    format!("?{}", r.query)
                }
            )
        })
        .collect();
    assert!(
        gets.contains(&"/openapi/v3/apis/example.com/v1?hash=X".to_owned()),
        "{gets:?}"
    );
    assert!(
        !gets.contains(&"/openapi/v2".to_owned()),
        "v3 answered: v2 is not read"
    );

    // The same kind where the server's v3 lists no strategic merge patch (a real CRD): JSON
    // merge patch, the list replaced whole.
    let s = widget_setup(Some(widget_v3(false)));
    let w = s.dir.path().join("w.yaml");
    let out = s.run(&["apply", "-f", w.to_str().unwrap(), "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let writes = s.api.writes();
    assert_eq!(
        writes[1].content_type.as_deref(),
        Some("application/merge-patch+json")
    );
    assert_eq!(
        writes[1].body_json()["spec"]["items"],
        json!([{"name": "a", "size": 5}])
    );
    assert!(
        writes[1].body_json()["spec"]
            .get("$setElementOrder/items")
            .is_none()
    );

    // --openapi-patch=false: the server's documents are not read.
    let s = widget_setup(Some(widget_v3(true)));
    let w = s.dir.path().join("w.yaml");
    let out = s.run(&[
        "apply",
        "-f",
        w.to_str().unwrap(),
        "--yes",
        "--openapi-patch=false",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        s.api
            .requests()
            .iter()
            .all(|r| !r.path.starts_with("/openapi"))
    );
    assert_eq!(
        s.api.writes()[1].content_type.as_deref(),
        Some("application/merge-patch+json")
    );
}

#[test]
fn cluster_multi_document_files_load_every_object() {
    let s = setup(Some(live_web()));
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "team"}, "data": {"a": "1"}});
    s.api.put(cm);
    let multi = write(
        s.dir.path(),
        "multi.yaml",
        &format!(
            "{LOCAL}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\ndata: {{a: '2'}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: new}}\ndata: {{a: '3'}}\n"
        ),
    );
    let out = s.run(&["plan", "-f", multi.to_str().unwrap(), "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["plan"]["patch"]["data"]["a"], "2");
    assert!(lines[2]["plan"]["created"].is_object());
    let gets: Vec<String> = s.api.requests().iter().map(|r| r.path.clone()).collect();
    assert!(gets.contains(&"/api/v1/namespaces/team/configmaps/new".to_owned()));
    // Discovery once per group-version.
    assert_eq!(
        gets.iter().filter(|p| *p == "/api/v1").count(),
        1,
        "{gets:?}"
    );

    // The TUI on the same file opens the object list on the cluster's objects; without a
    // terminal it prints the list's plans and summary.
    let out = s.run(&["-f", multi.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("summary: 3 objects: 1 create, 2 patch, 0 unchanged, 0 fail"),
        "{text}"
    );
    // On a terminal (tmux): the list screen, its title naming the cluster.
    let bin = env!("CARGO_BIN_EXE_applyscope");
    if let Some(tui) = crate::tmux::Session::start(
        "clusterlist",
        &format!(
            "{bin} -f {} --kubeconfig {}",
            crate::tmux::quoted(&multi),
            crate::tmux::quoted(Path::new(&s.kubeconfig))
        ),
        140,
        30,
    ) {
        tui.wait_for("riskiest first");
        // Rows arrive as their objects are planned: wait for the last one.
        let screen = tui.wait_for("/new");
        assert!(screen.contains("→ cluster"), "{screen}");
        tui.keys(&["q"]);
        assert_eq!(tui.exit().0, 0, "{}", tui.screen());
    }
}

/// Every case recorded from kubectl 1.37.1 (`tests/cases`): applyscope's apply against the
/// fake sends the same PATCH (or POST) body bytes with the same content type.
#[test]
fn cluster_apply_matches_kubectl_recordings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("expected.json").exists())
        .collect();
    dirs.sort();
    let (mut patched, mut created, mut unchanged) = (0, 0, 0);
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        if expected["exit_code"] != 0 {
            continue;
        }
        let flags = std::fs::read_to_string(dir.join("apply-flags.txt")).unwrap_or_default();
        let api = FakeApi::start();
        let modified = dir.join("modified.yaml");
        let local = applyscope::document::parse_documents(
            &std::fs::read_to_string(&modified).unwrap(),
            "m",
        )
        .unwrap()
        .remove(0)
        .value;
        let local: Value = serde_json::to_value(&local).unwrap();
        for obj in [Some(&local), expected.get("live")].into_iter().flatten() {
            let (Some(av), Some(k)) = (obj["apiVersion"].as_str(), obj["kind"].as_str()) else {
                continue;
            };
            if api.path_of_opt(obj).is_none() {
                api.add_kind(kind(av, k, &format!("{}s", k.to_lowercase()), true));
            }
        }
        if let Some(live) = expected.get("live").filter(|l| l.is_object()) {
            api.put(live.clone());
        }
        let tmp = tempfile::tempdir().unwrap();
        let kc = api.kubeconfig(tmp.path(), "default");
        let mut args = vec![
            "apply".to_owned(),
            "-f".into(),
            modified.display().to_string(),
            "--kubeconfig".into(),
            kc.display().to_string(),
            "--yes".into(),
            "--validate=false".into(),
        ];
        args.extend(flags.split_whitespace().map(str::to_owned));
        let out = bin().args(&args).output().unwrap();
        // A file whose resourceVersion is not the live one: this fake, as a real API server,
        // refuses the patch kubectl sends (409); the oracle's fake server has no such lock.
        let stale = local
            .pointer("/metadata/resourceVersion")
            .is_some_and(|rv| {
                rv != "" && Some(rv) != expected.pointer("/live/metadata/resourceVersion")
            });
        if stale {
            assert!(!out.status.success(), "{name}");
            let err = stderr(&out);
            assert!(
                err.contains("409 Conflict")
                    && err.contains(&format!(
                        "the file carries metadata.resourceVersion {}",
                        local["metadata"]["resourceVersion"]
                    )),
                "{name}: {err}"
            );
            assert!(
                api.writes().iter().all(|w| w.query.contains("dryRun")),
                "{name}"
            );
            continue;
        }
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let writes = api.writes();
        let real: Vec<_> = writes
            .iter()
            .filter(|w| !w.query.contains("dryRun"))
            .collect();
        let q = "fieldManager=kubectl-client-side-apply&fieldValidation=Ignore";
        if let Some(body) = expected.get("created").filter(|c| c.is_object()) {
            assert_eq!(real.len(), 1, "{name}");
            assert_eq!(real[0].method, "POST", "{name}");
            assert_eq!(real[0].query, q, "{name}");
            assert_eq!(real[0].body_json(), *body, "{name}");
            assert_eq!(real[0].body_text(), go_json(body), "{name}");
            created += 1;
        } else if expected["patch_type"].is_null() {
            assert!(writes.is_empty(), "{name}: {writes:?}");
            unchanged += 1;
        } else {
            assert_eq!(real.len(), 1, "{name}");
            assert_eq!(real[0].method, "PATCH", "{name}");
            assert_eq!(real[0].query, q, "{name}");
            assert_eq!(
                real[0].content_type.as_deref(),
                expected["patch_type"].as_str(),
                "{name}"
            );
            assert_eq!(real[0].body_json(), expected["patch"], "{name}");
            // kubectl's bytes: Go's json.Marshal of the patch (sorted keys, HTML escaped).
            assert_eq!(real[0].body_text(), go_json(&expected["patch"]), "{name}");
            patched += 1;
        }
        // The dry run came first and carried the same body.
        if let Some(first) = writes.first() {
            assert!(first.query.starts_with("dryRun=All&"), "{name}");
            assert_eq!(first.body, writes[1].body, "{name}");
        }
    }
    eprintln!(
        "cluster apply vs kubectl: {patched} patches, {created} creates, {unchanged} unchanged"
    );
    assert!(
        patched >= 60 && created >= 4 && unchanged >= 4,
        "{patched} {created} {unchanged}"
    );
}

/// With the server's OpenAPI v2 (the real Kubernetes swagger.json from ../shared), built-in
/// kinds get the same patch as from the embedded schema.
#[test]
fn cluster_openapi_v2_gives_kubectls_patch() {
    let Some(dir) =
        crate::support::shared_or_skip("k8s-openapi", "cluster_openapi_v2_gives_kubectls_patch")
    else {
        return;
    };
    let swagger: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("swagger.json")).unwrap()).unwrap();
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases/01-deploy-image-bump-server-defaults");
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap())
            .unwrap();
    let api = FakeApi::start();
    api.set_openapi("/openapi/v2", swagger);
    api.put(expected["live"].clone());
    let tmp = tempfile::tempdir().unwrap();
    let kc = api.kubeconfig(tmp.path(), "default");
    let out = output(&[
        "apply",
        "-f",
        case.join("modified.yaml").to_str().unwrap(),
        "--kubeconfig",
        kc.to_str().unwrap(),
        "--yes",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let writes = api.writes();
    assert_eq!(writes[1].body_text(), go_json(&expected["patch"]));
    assert!(api.requests().iter().any(|r| r.path == "/openapi/v2"));
}

/// The query strings and content types kubectl 1.37.1 was recorded sending
/// (`tests/cluster-recordings/kubectl-requests.json`): applyscope's apply and server dry run
/// send the same, for the same case.
#[test]
fn cluster_apply_and_dry_run_queries_match_kubectls() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let recorded: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/cluster-recordings/kubectl-requests.json"))
            .unwrap(),
    )
    .unwrap();
    let case = root.join("tests/cases/03-deploy-replicas-removed-cleared");
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap())
            .unwrap();
    let api = FakeApi::start();
    api.put(expected["live"].clone());
    let tmp = tempfile::tempdir().unwrap();
    let kc = api.kubeconfig(tmp.path(), "default");
    let out = output(&[
        "apply",
        "-f",
        case.join("modified.yaml").to_str().unwrap(),
        "--kubeconfig",
        kc.to_str().unwrap(),
        "--validate=false",
        "--yes",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let writes = api.writes();
    let find = |command: &str| {
        recorded["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["command"].as_str().unwrap().contains(command))
            .unwrap()
            .clone()
    };
    for (sent, command) in writes
        .iter()
        .zip(["--dry-run=server", "--validate=false -f"])
    {
        let r = find(command);
        assert_eq!(sent.method, r["method"]);
        assert_eq!(sent.path, r["path"]);
        assert_eq!(sent.query, r["query"], "{command}");
        assert_eq!(sent.content_type.as_deref(), r["content_type"].as_str());
        assert_eq!(sent.body_json(), expected["patch"]);
    }
}

#[test]
fn cluster_tls_error_is_one_line() {
    let s = setup(Some(live_web()));
    // https against the plain-HTTP fake: the TLS handshake fails.
    let kc = write(
        s.dir.path(),
        "tls-kc",
        &format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: 'https://127.0.0.1:{}', insecure-skip-tls-verify: false}}\ncontexts:\n- name: c\n  context: {{cluster: c, user: u}}\ncurrent-context: c\nusers:\n- name: u\n  user: {{}}\n",
            s.api.port
        ),
    );
    let local = s.path("web.yaml");
    let err = one_line_exit_2(&output(&[
        "plan",
        "-f",
        local.to_str().unwrap(),
        "--kubeconfig",
        kc.to_str().unwrap(),
    ]));
    assert!(err.to_lowercase().contains("tls"), "{err}");
    assert!(s.api.writes().is_empty());
}

#[test]
fn cluster_namespaces_follow_kubectl() {
    let s = setup(Some(live_web()));
    // An explicit -n that differs from the file's namespace is kubectl's error.
    let other = write(
        s.dir.path(),
        "ns.yaml",
        &LOCAL.replace("  name: web\n", "  name: web\n  namespace: team\n"),
    );
    let out = s.run(&["plan", "-f", other.to_str().unwrap(), "-n", "prod"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("does not match the namespace \"prod\""),
        "{}",
        stderr(&out)
    );
    // -n names the namespace of a file that names none.
    let out = s.run(&["plan", "-f", "web.yaml", "-n", "prod", "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        s.api
            .requests()
            .iter()
            .any(|r| r.path == "/apis/apps/v1/namespaces/prod/deployments/web")
    );
    // A cluster-scoped kind gets no namespace, in the path or the object.
    let role = write(
        s.dir.path(),
        "role.yaml",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\nrules: []\n",
    );
    let out = s.run(&["plan", "-f", role.to_str().unwrap(), "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plan: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(plan["created"]["metadata"].get("namespace").is_none());
    assert!(
        s.api
            .requests()
            .iter()
            .any(|r| r.path == "/apis/rbac.authorization.k8s.io/v1/clusterroles/reader")
    );
}

/// A CustomResourceDefinition: kubectl's compiled-in types lack apiextensions.k8s.io (JSON
/// merge patch), but a server whose OpenAPI v3 lists strategic merge patch for it gets one.
#[test]
fn cluster_crd_objects_follow_the_servers_openapi() {
    let crd_kind = kind(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        "customresourcedefinitions",
        false,
    );
    let live = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com", "resourceVersion": "9"},
        "spec": {"group": "example.com", "names": {"kind": "Widget", "plural": "widgets"}, "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true}]}});
    let local = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - {name: v1, served: true, storage: false}\n";
    let v3 = json!({
        "openapi": "3.0.0",
        "paths": {"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}": {"patch": {
            "x-kubernetes-group-version-kind": {"group": "apiextensions.k8s.io", "version": "v1", "kind": "CustomResourceDefinition"},
            "requestBody": {"content": {"application/strategic-merge-patch+json": {}, "application/merge-patch+json": {}}}}}},
        "components": {"schemas": {"io.k8s.apiextensions.CRD": {
            "type": "object",
            "x-kubernetes-group-version-kind": [{"group": "apiextensions.k8s.io", "version": "v1", "kind": "CustomResourceDefinition"}],
            "properties": {
                "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "spec": {"type": "object", "properties": {
                    "group": {"type": "string"}, "scope": {"type": "string"},
                    "names": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                    "versions": {"type": "array", "x-kubernetes-list-type": "atomic",
                        "items": {"type": "object", "properties": {"name": {"type": "string"}, "served": {"type": "boolean"}, "storage": {"type": "boolean"}}}}}}}}}}
    });
    for (serve_v3, patch_type) in [
        (false, "application/merge-patch+json"),
        (true, "application/strategic-merge-patch+json"),
    ] {
        let api = FakeApi::with_kinds(vec![crd_kind.clone()]);
        api.put(live.clone());
        if serve_v3 {
            api.set_openapi(
                "/openapi/v3",
                json!({"paths": {"apis/apiextensions.k8s.io/v1": {"serverRelativeURL": "/openapi/v3/apis/apiextensions.k8s.io/v1"}}}),
            );
            api.set_openapi("/openapi/v3/apis/apiextensions.k8s.io/v1", v3.clone());
        }
        let dir = tempfile::tempdir().unwrap();
        let kc = api.kubeconfig(dir.path(), "default");
        let f = write(dir.path(), "crd.yaml", local);
        let out = output(&[
            "plan",
            "-f",
            f.to_str().unwrap(),
            "--kubeconfig",
            kc.to_str().unwrap(),
            "-o",
            "json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let plan: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(plan["patchType"], patch_type, "v3 served: {serve_v3}");
        assert_eq!(plan["patch"]["spec"]["versions"][0]["storage"], false);
    }
}

#[test]
fn cluster_a_server_that_does_not_answer_times_out() {
    let s = setup(Some(live_web()));
    s.api.hang_next("GET", WEB, 4);
    let started = std::time::Instant::now();
    let err = one_line_exit_2(&s.run(&["plan", "-f", "web.yaml", "--request-timeout", "1s"]));
    assert!(err.contains("timed out"), "{err}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let out = s.run(&["plan", "-f", "web.yaml", "--request-timeout", "0"]);
    assert_eq!(out.status.code(), Some(2));
}
