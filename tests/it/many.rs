//! `applyscope plan` over many objects: files, directories, `-`, multi-document YAML and
//! `kind: List`; JSON lines, YAML documents or text with a summary; and the one-object
//! invocation, whose output is unchanged.

use std::path::Path;

use applyscope::value::Value;
use pretty_assertions::assert_eq;

use crate::support::WEB_DEPLOYMENT as WEB;

fn run(args: &[&str], stdin: Option<&str>, cwd: &Path) -> (i32, String, String) {
    crate::support::run_bin(&[&["plan"], args].concat(), stdin, cwd)
}

fn files(entries: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in entries {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

const WEB_LIVE: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"web:1","name":"web"}]}}}}'
spec:
  replicas: 8
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: web:1
        imagePullPolicy: IfNotPresent
"#;

const CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: \"1\"}\n";
const NS: &str = "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n";

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn one_object_output_is_unchanged() {
    let dir = files(&[("web.yaml", WEB), ("live/web.yaml", WEB_LIVE)]);
    let p = dir.path();
    let (code, one, _) = run(
        &[
            "-o",
            "json",
            "--local",
            "web.yaml",
            "--live",
            "live/web.yaml",
        ],
        None,
        p,
    );
    assert_eq!(code, 0);
    // One pretty-printed plan object, as before.
    assert!(one.starts_with("{\n"), "{one}");
    let one: Value = serde_json::from_str(&one).unwrap();
    // The same object through a directory: one JSON line holding the same plan.
    let (code, many, _) = run(&["-o", "json", "-f", "web.yaml", "--live", "live"], None, p);
    assert_eq!(code, 0);
    let many = lines(&many);
    assert_eq!(many.len(), 1);
    assert_eq!(many[0]["plan"], one);
    assert_eq!(
        many[0]["object"],
        applyscope::json!({"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "default", "name": "web"})
    );
    assert_eq!(many[0]["source"], "web.yaml");
    assert_eq!(many[0]["live"], "live/web.yaml");
}

#[test]
fn json_lines_one_per_object_in_input_order() {
    let stream = format!(
        "{WEB}---\n{CM}---\napiVersion: v1\nkind: List\nitems:\n- {{apiVersion: v1, kind: Namespace, metadata: {{name: shop}}}}\n"
    );
    let dir = files(&[("live/web.yaml", WEB_LIVE)]);
    let (code, out, err) = run(
        &["-o", "json", "-f", "-", "--live", "live"],
        Some(&stream),
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let entries = lines(&out);
    let kinds: Vec<&str> = entries
        .iter()
        .map(|e| e["object"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["Deployment", "ConfigMap", "Namespace"]);
    let sources: Vec<&str> = entries
        .iter()
        .map(|e| e["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["-#1", "-#2", "-#3"]);
    // The Deployment is a patch (with the autoscaler warning); the others are creates.
    assert_eq!(
        entries[0]["plan"]["patchType"],
        "application/strategic-merge-patch+json"
    );
    let codes: Vec<&str> = entries[0]["plan"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["hpa-replicas-reset"]);
    assert!(entries[1]["plan"]["created"].is_object());
    assert_eq!(entries[1]["object"]["namespace"], "default");
    assert_eq!(entries[2]["object"]["namespace"], "");
    assert!(entries[2]["live"].is_null());
}

#[test]
fn text_ends_with_a_summary_riskiest_first() {
    let dir = files(&[
        ("in/a-settings.yaml", CM),
        ("in/b-web.yaml", WEB),
        ("in/nested/ns.yaml", NS),
        ("in/notes.txt", "not a manifest"),
        ("live/web.yaml", WEB_LIVE),
    ]);
    let (code, out, err) = run(&["-f", "in", "--live", "live", "-R"], None, dir.path());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("=== ConfigMap default/settings (in/a-settings.yaml, no live object)\nplan: create (POST)"), "{out}");
    assert!(out.contains("=== Deployment.apps default/web (in/b-web.yaml, live live/web.yaml)\nplan: PATCH application/strategic-merge-patch+json"), "{out}");
    let summary = &out[out.find("summary: ").unwrap()..];
    let rows: Vec<&str> = summary.lines().skip(2).collect();
    assert!(
        summary.starts_with(
            "summary: 3 objects: 2 create, 1 patch, 0 unchanged, 0 fail; riskiest first\n"
        ),
        "{summary}"
    );
    assert!(
        rows[0].starts_with("warning   patch")
            && rows[0].ends_with("Deployment.apps default/web (in/b-web.yaml)"),
        "{summary}"
    );
    assert!(
        rows[0].contains("       1  Deployment"),
        "one warning: {summary}"
    );
    // Without -R the nested directory is not read.
    let (_, out, _) = run(&["-f", "in", "--live", "live"], None, dir.path());
    assert!(!out.contains("Namespace shop"), "{out}");
}

#[test]
fn yaml_is_one_document_per_object() {
    let dir = files(&[("all.yaml", &format!("{CM}---\n{NS}"))]);
    let (code, out, _) = run(
        &["-o", "yaml", "-f", "all.yaml", "--no-live"],
        None,
        dir.path(),
    );
    assert_eq!(code, 0);
    assert_eq!(out.matches("---\n").count(), 2);
    let docs = applyscope::document::parse_documents(&out, "out.yaml").unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[1].value["object"]["name"], "shop");
}

#[test]
fn a_failing_object_exits_1_and_the_others_are_still_planned() {
    let bad = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: broken\nbogus:\n  list: [2]\n";
    let bad_live = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
  namespace: default
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","bogus":{"list":[1]},"kind":"ConfigMap","metadata":{"annotations":{},"name":"broken","namespace":"default"}}'
"#;
    let dir = files(&[
        ("all.yaml", &format!("{CM}---\n{bad}")),
        ("live.yaml", bad_live),
    ]);
    let (code, out, err) = run(
        &["-o", "json", "-f", "all.yaml", "--live", "live.yaml"],
        None,
        dir.path(),
    );
    assert_eq!(code, 1, "{err}");
    let entries = lines(&out);
    assert_eq!(entries.len(), 2);
    assert!(entries[0]["plan"].is_object());
    assert_eq!(entries[1]["error"]["exitCode"], 1);
    assert!(
        entries[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unable to find api field")
    );
    assert!(
        err.contains(
            "ConfigMap default/broken: kubectl apply would fail: unable to find api field"
        ),
        "{err}"
    );
    let (code, out, _) = run(&["-f", "all.yaml", "--live", "live.yaml"], None, dir.path());
    assert_eq!(code, 1);
    assert!(out.contains("FAILS"), "{out}");
}

#[test]
fn bad_input_over_many_objects_exits_2() {
    let dir = files(&[
        ("all.yaml", &format!("{CM}---\n{NS}")),
        ("one.yaml", CM),
        ("empty/x.txt", ""),
    ]);
    let p = dir.path();
    let (code, out, err) = run(
        &["-f", "all.yaml", "--last-applied", "one.yaml", "--no-live"],
        None,
        p,
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("--last-applied works with one object"),
        "{err}"
    );
    // No --live, no --no-live: cluster mode, and there is no cluster configuration here.
    let (code, _, err) = run(
        &["-f", "all.yaml", "--kubeconfig", "no-such-kubeconfig"],
        None,
        p,
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("no-such-kubeconfig") || err.contains("--live FILE"),
        "{err}"
    );
    let (code, _, err) = run(&["-f", "empty", "--no-live"], None, p);
    assert_eq!(code, 2);
    assert!(
        err.contains("empty: is a directory holding no objects"),
        "{err}"
    );
    let (code, _, err) = run(&["-f", "all.yaml", "-f", "one.yaml", "--no-live"], None, p);
    assert_eq!(code, 2);
    assert!(
        err.contains("one.yaml: ConfigMap default/settings is also in all.yaml#1"),
        "{err}"
    );
    let (code, _, err) = run(&["-f", "-", "--live", "-"], Some(CM), p);
    assert_eq!(code, 2);
    assert!(
        err.contains("standard input can be read only once"),
        "{err}"
    );
}

#[test]
fn namespace_flag_places_objects_without_one() {
    let live = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {a: \"0\"}\n";
    let dir = files(&[
        ("all.yaml", &format!("{CM}---\n{NS}")),
        ("live/cm.yaml", live),
    ]);
    let (code, out, err) = run(
        &[
            "-o", "json", "-n", "shop", "-f", "all.yaml", "--live", "live",
        ],
        None,
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let entries = lines(&out);
    assert_eq!(entries[0]["object"]["namespace"], "shop");
    assert_eq!(entries[0]["live"], "live/cm.yaml");
    assert_eq!(entries[0]["plan"]["result"]["data"]["a"], "1");
}

/// Standard output that cannot be written (`/dev/full`): the streamed one-object plan exits 1
/// and says nothing; the many-object output still reports each failed object on stderr and
/// exits 2 (its output was lost).
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_standard_output_ends_as_before() {
    let dir = files(&[("cm.yaml", CM), ("all.yaml", &format!("{CM}---\n{NS}"))]);
    let run_full = |args: &[&str]| {
        let out = crate::support::bin()
            .args(args)
            .current_dir(dir.path())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for format in ["json", "yaml", "text"] {
        let one = run_full(&["plan", "-o", format, "-f", "cm.yaml", "--no-live"]);
        assert_eq!(one, (Some(1), String::new()), "{format}");
    }
    let many = run_full(&["plan", "-o", "json", "-f", "all.yaml", "--no-live"]);
    assert_eq!(many, (Some(1), String::new()));
    let bad_live = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: nope\n";
    std::fs::write(dir.path().join("live.yaml"), bad_live).unwrap();
    let (code, err) = run_full(&["plan", "-f", "all.yaml", "--live", "live.yaml"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("applyscope: ConfigMap default/settings: live.yaml: "),
        "{err}"
    );
}

/// `n` ConfigMaps in `local/`, one file each, with their live copies in `live/` (every 5th
/// changes a value, every 9th has no live copy, every 11th live annotation is not JSON: that
/// object fails), plus a file of two documents and a `List`, and a Secret.
fn many_files(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let (local, live) = (dir.path().join("local"), dir.path().join("live"));
    std::fs::create_dir_all(&local).unwrap();
    std::fs::create_dir_all(&live).unwrap();
    let cm = |i: usize, value: &str| {
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{i:03}\ndata:\n  key: {value}\n  other: \"{i}\"\n"
        )
    };
    for i in 0..n {
        let value = if i % 5 == 0 { "new" } else { "old" };
        std::fs::write(local.join(format!("cm-{i:03}.yaml")), cm(i, value)).unwrap();
        if i % 9 == 0 {
            continue;
        }
        let annotation = if i % 11 == 0 {
            "{not json".to_owned()
        } else {
            format!(
                r#"{{"apiVersion":"v1","data":{{"key":"old","other":"{i}"}},"kind":"ConfigMap","metadata":{{"annotations":{{}},"name":"cm-{i:03}","namespace":"default"}}}}"#
            )
        };
        let live_json = applyscope::json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": format!("cm-{i:03}"), "namespace": "default", "uid": format!("u-{i}"),
                "annotations": {"kubectl.kubernetes.io/last-applied-configuration": annotation}},
            "data": {"key": "old", "other": i.to_string()}});
        std::fs::write(live.join(format!("cm-{i:03}.json")), live_json.to_string()).unwrap();
    }
    let two = format!("{CM}---\n{NS}");
    std::fs::write(local.join("two.yaml"), two).unwrap();
    let list = "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ServiceAccount, metadata: {name: a}}\n- {apiVersion: v1, kind: ServiceAccount, metadata: {name: b}}\n";
    std::fs::write(local.join("list.yaml"), list).unwrap();
    let secret =
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {password: hunter2}\n";
    std::fs::write(local.join("secret.yaml"), secret).unwrap();
    dir
}

/// The many-object output is written a chunk at a time as the objects are planned (each held
/// packed until its chunk): byte for byte the output of planning every object at once and
/// writing it whole, in every format, with the same failures and exit status.
#[test]
fn streamed_output_is_the_whole_output_byte_for_byte() {
    use applyscope::cli::{Run, plan};
    use applyscope::session::{objects, plan::plan_all};
    let dir = many_files(150);
    let p = dir.path();
    let mut stdin_used = false;
    let locals = objects::read_all(&[p.join("local")], false, &mut stdin_used).unwrap();
    let lives = objects::read_all(&[p.join("live")], false, &mut stdin_used).unwrap();
    let pairs = objects::pair(locals, lives, None).unwrap();
    assert_eq!(pairs.len(), 150 + 5);
    let plans = plan_all(&pairs, None, true);
    let sources = |run: Run| match run {
        Run::Report {
            stdout,
            stderr,
            code,
        } => (stdout, stderr, i32::from(code)),
        Run::Print(stdout) => (stdout, Vec::new(), 0),
        _ => unreachable!(),
    };
    let (local, live) = (p.join("local"), p.join("live"));
    for (format, name) in [
        (plan::Format::Json, "json"),
        (plan::Format::Yaml, "yaml"),
        (plan::Format::Text, "text"),
        (plan::Format::Markdown, "markdown"),
    ] {
        let (whole, failures, code) = sources(plan::print_many(&pairs, &plans, format).unwrap());
        let (got_code, out, err) = run(
            &[
                "-o",
                name,
                "-f",
                local.to_str().unwrap(),
                "--live",
                live.to_str().unwrap(),
            ],
            None,
            p,
        );
        assert!(out == whole, "{name}: the streamed output differs");
        assert_eq!(got_code, code, "{name}");
        assert_eq!(code, 2, "a bad annotation is bad input");
        let said: Vec<String> = failures
            .iter()
            .map(|f| format!("applyscope: {f}"))
            .collect();
        assert_eq!(err.lines().collect::<Vec<_>>(), said, "{name}");
        assert_eq!(failures.len(), 150usize.div_ceil(11) - 2, "{name}");
    }
}

/// Bad input anywhere, even in the last files, is found before anything is written: one line
/// naming the first bad file (in reading order), exit 2, nothing on stdout.
#[test]
fn a_bad_file_late_in_a_directory_writes_nothing() {
    let dir = many_files(150);
    let p = dir.path();
    let args = |format: &'static str| ["-o", format, "-f", "local", "--live", "live"];
    std::fs::write(
        p.join("local/cm-140.yaml"),
        "apiVersion: v1\nkind: ConfigMap\ndata: [unclosed\n",
    )
    .unwrap();
    std::fs::write(p.join("local/cm-145.yaml"), "kind: ConfigMap\n").unwrap();
    for format in ["json", "yaml", "text", "markdown"] {
        let (code, out, err) = run(&args(format), None, p);
        assert_eq!((code, out.as_str()), (2, ""), "{format}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("applyscope: local/cm-140.yaml:"), "{err}");
    }
    std::fs::write(
        p.join("local/cm-140.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-140}\n",
    )
    .unwrap();
    let (code, out, err) = run(&args("json"), None, p);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(
        err,
        "applyscope: local/cm-145.yaml: Object 'apiVersion' is missing\n"
    );
    // The same object twice, in the last file of the live objects.
    std::fs::write(
        p.join("local/cm-145.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-145}\n",
    )
    .unwrap();
    std::fs::write(
        p.join("live/zz.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-001, namespace: default}\n",
    )
    .unwrap();
    let (code, out, err) = run(&args("json"), None, p);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(
        err,
        "applyscope: live/zz.yaml: ConfigMap default/cm-001 is also in live/cm-001.json\n"
    );
    std::fs::remove_file(p.join("live/zz.yaml")).unwrap();
    let (code, out, _) = run(&args("json"), None, p);
    assert_eq!(code, 2, "the bad annotations");
    assert_eq!(out.lines().count(), 150 + 5);
}

/// A kuberc that chooses the mode: the text's mode line still comes first, above the streamed
/// plans; the other formats say it on stderr.
#[test]
fn a_kuberc_mode_line_heads_the_streamed_text() {
    let kuberc = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kuberc/files/csa.yaml");
    let dir = files(&[("all.yaml", &format!("{CM}---\n{NS}"))]);
    let args = |format: &'static str| {
        [
            "--kuberc",
            kuberc,
            "-o",
            format,
            "-f",
            "all.yaml",
            "--no-live",
        ]
    };
    // As `run`, with kuberc reading left on (`run` turns it off).
    let run = |args: &[&str]| {
        let out = crate::support::bin()
            .arg("plan")
            .args(args)
            .current_dir(dir.path())
            .env_remove("KUBECTL_KUBERC")
            .output()
            .unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    let (code, out, err) = run(&args("text"));
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let mode = format!("mode: client-side apply (--kuberc {kuberc})");
    assert_eq!(out.lines().next(), Some(mode.as_str()), "{out}");
    assert_eq!(out.matches("mode: ").count(), 1, "{out}");
    let (code, out, err) = run(&args("json"));
    assert_eq!(code, Some(0));
    assert_eq!(err, format!("applyscope: {mode}\n"));
    assert_eq!(lines(&out).len(), 2);
}
