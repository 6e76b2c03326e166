//! The built-in teaching examples (`assets/examples/`): every example plans, agrees with what the
//! real kubectl 1.37.1 did (`kubectl.json`, recorded with `../shared/oracle`), shows what its
//! README claims, and together they cover every row of the seeds' merge tables and every action.

use std::collections::BTreeSet;
use std::path::Path;

use applyscope::document::parse_documents;
use applyscope::engine::plan::{Action, Code, Field, FieldPath, LAST_APPLIED, Plan};
use applyscope::examples::{EXAMPLES, Example, find};
use applyscope::json;
use applyscope::session::Docs;
use applyscope::session::plan::compute;
use applyscope::value::Value;
use pretty_assertions::assert_eq;

fn parse(text: &str, file: &str) -> Value {
    let mut docs = parse_documents(text, file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(docs.len(), 1, "{file}: one document");
    docs.remove(0).value
}

fn plan_of(e: &Example) -> Plan {
    let docs = Docs {
        local: parse(e.local, &format!("{}/local.yaml", e.name)),
        live: e.live.map(|t| parse(t, &format!("{}/live.yaml", e.name))),
        last_applied: e
            .last_applied
            .map(|t| parse(t, &format!("{}/last-applied.yaml", e.name))),
    };
    compute(&docs, None, true).unwrap_or_else(|err| panic!("{}: {err}", e.name))
}

fn plan_named(name: &str) -> Plan {
    plan_of(find(name).unwrap_or_else(|| panic!("no example {name}")))
}

fn field<'p>(p: &'p Plan, path: &str) -> Field<'p, 'p> {
    let steps: FieldPath = path.parse().unwrap();
    p.tree
        .find(&steps.0)
        .and_then(|id| p.field(id))
        .unwrap_or_else(|| {
            panic!(
                "no field {path} in {:#?}",
                p.tree
                    .ids()
                    .map(|id| p.path(id).to_string())
                    .collect::<Vec<_>>()
            )
        })
}

/// A field's action, table and row: `(action, "primitive" | "map" | "listElement", row)`.
fn why(p: &Plan, path: &str) -> (Action, String, &'static str) {
    let f = field(p, path);
    (f.action, table_name(&f), f.reason.row().action)
}

fn table_name(f: &Field<'_, '_>) -> String {
    f.reason.table().name().to_owned()
}

fn has_warning(p: &Plan, code: &str, path: Option<&str>) -> bool {
    p.warnings
        .iter()
        .any(|w| w.code.as_str() == code && (path.is_none() || w.path.as_deref() == path))
}

/// Every object key anywhere in a value.
fn all_keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, item) in m {
                out.push(k.to_string());
                all_keys(item, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| all_keys(i, out)),
        _ => {}
    }
}

// Row texts, as fields.rs words them (the seeds' tables).
const SET_FILE: &str = "Set live to configuration file value.";
const SET_LOCAL: &str = "Set live to local configuration.";
const CLEAR: &str = "Clear from live configuration.";
const NOTHING: &str = "Do nothing. Keep live value.";
const COMPARE: &str = "Compare sub fields values.";
const DELETE: &str = "Delete from live configuration.";
const EL_MERGE: &str = "Merge the element with the live element of the same key.";
const EL_ADD: &str = "Add the element.";
const EL_DELETE: &str = "Delete the element: in last-applied, gone from the file.";
const EL_KEEP: &str = "Keep the element: not in last-applied, someone else added it.";
const EL_REPLACE: &str =
    "The list is replaced whole: the result holds the file's items, in the file's order.";

const LIST: &str = "list";
const PRIMITIVE: &str = "primitive";
const MAP: &str = "map";
const ELEMENT: &str = "listElement";

#[test]
fn the_list_is_well_formed() {
    assert_eq!(EXAMPLES[0].name, "nginx-scale-image", "the default example");
    let names: BTreeSet<&str> = EXAMPLES.iter().map(|e| e.name).collect();
    assert_eq!(names.len(), EXAMPLES.len(), "names are unique");
    for e in EXAMPLES {
        assert_eq!(
            find(e.name).map(|f| (f.name, f.local)),
            Some((e.name, e.local))
        );
        let text = e.about.split_whitespace().collect::<Vec<_>>().join(" ");
        let sentences = text.matches(". ").count() + usize::from(text.ends_with('.'));
        assert!(
            (2..=4).contains(&sentences),
            "{}: README of 2-4 sentences, found {sentences}",
            e.name
        );
        assert!(
            !e.teaches.is_empty() && e.teaches.len() <= 80,
            "{}: one short line",
            e.name
        );
    }
    assert!(find("no-such-example").is_none());
    // Every folder under assets/examples/ is listed, and vice versa.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples");
    let folders: BTreeSet<String> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter(|d| d.path().is_dir())
        .map(|d| d.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        folders,
        names
            .iter()
            .map(|n| (*n).to_owned())
            .collect::<BTreeSet<_>>()
    );
}

/// Our plan is what kubectl 1.37.1 did with the same files (recorded in `kubectl.json`).
#[test]
fn every_example_agrees_with_kubectl() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples");
    for e in EXAMPLES {
        // Its kubectl recording would be over 1 MB (three copies of a 280 KB object); tests/it/lint.rs
        // checks this example's warning.
        if e.name == "lint-annotation-too-large" {
            continue;
        }
        let p = plan_of(e);
        let text = std::fs::read_to_string(root.join(e.name).join("kubectl.json")).unwrap();
        let k = applyscope::engine::smp::parse_json(&text).unwrap();
        assert_eq!(k["exit_code"], 0, "{}: kubectl succeeded", e.name);
        assert_eq!(k["kubectl_version"], "v1.37.1", "{}", e.name);
        let patch_type = p.patch_type.map(|t| Value::from(t.content_type()));
        assert_eq!(
            patch_type.unwrap_or(Value::Null),
            k["patch_type"],
            "{}",
            e.name
        );
        assert_eq!(
            p.patch.clone().unwrap_or(Value::Null),
            k["patch"],
            "{}: patch",
            e.name
        );
        // The oracle reads its files with kubectl, which leaves `metadata.managedFields` out of
        // what it prints: the server-side examples' client-side result is compared without it.
        let mut result = p.result.clone();
        if e.server_side
            && let Some(meta) = result.get_mut("metadata").and_then(Value::as_object_mut)
        {
            meta.shift_remove("managedFields");
        }
        assert_eq!(result, k["result"], "{}: result", e.name);
        assert_eq!(
            p.created().cloned().unwrap_or(Value::Null),
            k.get("created").cloned().unwrap_or(Value::Null),
            "{}: created",
            e.name
        );
        let sent = k["result"]["metadata"]["annotations"][LAST_APPLIED].as_str();
        assert_eq!(Some(p.annotation()), sent, "{}: annotation", e.name);
        // kubectl's only warning is the missing annotation.
        assert_eq!(
            k["kubectl_stderr"]
                .as_str()
                .unwrap()
                .contains("missing the kubectl.kubernetes.io/last-applied-configuration"),
            has_warning(&p, "missing-annotation", None),
            "{}: missing-annotation warning",
            e.name
        );
    }
}

#[test]
fn nginx_scale_image() {
    let p = plan_named("nginx-scale-image");
    assert_eq!(
        why(&p, "spec.template.spec.containers[name=nginx].image"),
        (Action::Set, PRIMITIVE.into(), SET_FILE)
    );
    assert_eq!(
        why(&p, "spec.minReadySeconds"),
        (Action::Clear, PRIMITIVE.into(), CLEAR)
    );
    assert_eq!(
        why(&p, "spec.replicas"),
        (Action::Retain, PRIMITIVE.into(), NOTHING)
    );
    assert_eq!(p.result["spec"]["replicas"], 2);
    let nginx = "spec.template.spec.containers[name=nginx]";
    for defaulted in ["imagePullPolicy", "ports[containerPort=80].protocol"] {
        assert_eq!(
            why(&p, &format!("{nginx}.{defaulted}")),
            (Action::Retain, PRIMITIVE.into(), NOTHING)
        );
    }
}

#[test]
fn containers_merged_by_name() {
    let p = plan_named("containers-merged-by-name");
    let c = |name: &str| format!("spec.template.spec.containers[name={name}]");
    assert_eq!(
        why(&p, "spec.template.spec.containers"),
        (Action::Set, LIST.into(), COMPARE)
    );
    assert_eq!(
        field(&p, "spec.template.spec.containers")
            .reason
            .merge_key(),
        Some("name")
    );
    assert_eq!(
        why(&p, &c("nginx")),
        (Action::Unchanged, ELEMENT.into(), EL_MERGE)
    );
    let a = field(&p, &c("nginx-helper-a"));
    assert_eq!(
        (
            a.action,
            a.reason.row().action,
            a.reason.directive.as_deref()
        ),
        (Action::Delete, EL_DELETE, Some("$patch: delete"))
    );
    assert_eq!(
        why(&p, &c("nginx-helper-b")),
        (Action::Unchanged, ELEMENT.into(), EL_MERGE)
    );
    assert_eq!(
        why(&p, &format!("{}.args", c("nginx-helper-b"))),
        (Action::Retain, LIST.into(), NOTHING)
    );
    assert_eq!(
        why(&p, &c("nginx-helper-c")),
        (Action::Add, ELEMENT.into(), EL_ADD)
    );
    assert_eq!(
        why(&p, &c("nginx-helper-d")),
        (Action::Keep, ELEMENT.into(), EL_KEEP)
    );
    let order: Vec<&str> = p.result["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        order,
        [
            "nginx",
            "nginx-helper-b",
            "nginx-helper-d",
            "nginx-helper-c"
        ]
    );
    assert_eq!(
        p.result["spec"]["template"]["spec"]["containers"][1]["args"],
        json!(["run"])
    );
}

#[test]
fn args_replaced() {
    let p = plan_named("args-replaced");
    let args = "spec.containers[name=api].args";
    let f = field(&p, args);
    assert_eq!(
        (f.action, f.reason.row().action, &*f.reason.kind.text()),
        (Action::Set, SET_FILE, "list: replace")
    );
    assert_eq!(
        why(&p, &format!("{args}[0]")),
        (Action::Unchanged, ELEMENT.into(), EL_REPLACE)
    );
    assert_eq!(
        why(&p, &format!("{args}[1]")),
        (Action::Set, ELEMENT.into(), EL_REPLACE)
    );
    assert_eq!(
        why(&p, &format!("{args}[2]")),
        (Action::Delete, ELEMENT.into(), EL_REPLACE)
    );
    assert_eq!(
        p.result["spec"]["containers"][0]["args"],
        json!(["serve", "--port=8080"])
    );
    let lost = p
        .warnings
        .iter()
        .find(|w| w.code == Code::ListItemsLost)
        .expect("list-items-lost");
    assert_eq!(lost.path.as_deref(), Some(args));
    assert!(lost.message.contains("--verbose"), "{}", lost.message);
}

#[test]
fn finalizers_merged() {
    let p = plan_named("finalizers-merged");
    let fin = |v: &str| format!("metadata.finalizers[={v}]");
    assert_eq!(
        field(&p, "metadata.finalizers").reason.kind.text(),
        "list: merge primitives"
    );
    assert_eq!(
        why(&p, &fin("example.com/backup-hook")),
        (Action::Unchanged, ELEMENT.into(), EL_MERGE)
    );
    let audit = field(&p, &fin("example.com/audit-hook"));
    assert_eq!(
        (
            audit.action,
            audit.reason.row().action,
            audit.reason.directive.as_deref()
        ),
        (
            Action::Delete,
            EL_DELETE,
            Some("$deleteFromPrimitiveList/finalizers")
        )
    );
    assert_eq!(
        why(&p, &fin("example.com/snapshot-hook")),
        (Action::Add, ELEMENT.into(), EL_ADD)
    );
    assert_eq!(
        why(&p, &fin("kubernetes.io/pvc-protection")),
        (Action::Keep, ELEMENT.into(), EL_KEEP)
    );
    assert_eq!(
        p.result["metadata"]["finalizers"],
        json!([
            "example.com/backup-hook",
            "example.com/snapshot-hook",
            "kubernetes.io/pvc-protection"
        ])
    );
}

#[test]
fn strategy_recreate_retainkeys() {
    let p = plan_named("strategy-recreate-retainkeys");
    assert_eq!(why(&p, "spec.strategy"), (Action::Set, MAP.into(), COMPARE));
    assert_eq!(
        field(&p, "spec.strategy").reason.kind.text(),
        "map (retainKeys)"
    );
    assert_eq!(
        why(&p, "spec.strategy.type"),
        (Action::Set, PRIMITIVE.into(), SET_FILE)
    );
    // The row alone says "keep"; $retainKeys clears it.
    let ru = field(&p, "spec.strategy.rollingUpdate");
    assert_eq!(
        (ru.action, table_name(&ru), ru.reason.row().action),
        (Action::Clear, MAP.into(), NOTHING)
    );
    assert_eq!(ru.reason.directive.as_deref(), Some("$retainKeys"));
    assert!(ru.reason.note.as_deref().unwrap().contains("$retainKeys"));
    assert_eq!(
        field(&p, "spec.strategy.rollingUpdate.maxSurge").action,
        Action::Clear
    );
    assert_eq!(p.result["spec"]["strategy"], json!({"type": "Recreate"}));
    assert_eq!(
        p.patch.as_ref().unwrap()["spec"]["strategy"]["$retainKeys"],
        json!(["type"])
    );
}

#[test]
fn probe_handler_annotated() {
    let p = plan_named("probe-handler-annotated");
    let probe = "spec.containers[name=web].readinessProbe";
    assert_eq!(
        why(&p, &format!("{probe}.tcpSocket")),
        (Action::Clear, MAP.into(), DELETE)
    );
    assert_eq!(
        why(&p, &format!("{probe}.httpGet")),
        (Action::Add, MAP.into(), SET_LOCAL)
    );
    assert_eq!(
        why(&p, &format!("{probe}.httpGet.path")),
        (Action::Add, PRIMITIVE.into(), SET_LOCAL)
    );
    assert_eq!(
        why(&p, &format!("{probe}.periodSeconds")),
        (Action::Unchanged, PRIMITIVE.into(), SET_FILE)
    );
    for defaulted in ["timeoutSeconds", "successThreshold", "failureThreshold"] {
        assert_eq!(
            why(&p, &format!("{probe}.{defaulted}")),
            (Action::Retain, PRIMITIVE.into(), NOTHING)
        );
    }
    let result = &p.result["spec"]["containers"][0]["readinessProbe"];
    assert!(result.get("tcpSocket").is_none() && result.get("httpGet").is_some());
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let sent = &p.patch.as_ref().unwrap()["spec"]["containers"][0]["readinessProbe"];
    assert_eq!(sent["tcpSocket"], Value::Null);
    assert!(sent.as_object().unwrap().contains_key("tcpSocket"));
}

#[test]
fn probe_handler_no_annotation() {
    let e = find("probe-handler-no-annotation").unwrap();
    assert!(e.last_applied.is_none() && !e.live.unwrap().contains(LAST_APPLIED));
    let p = plan_of(e);
    assert!(p.last_applied.is_none());
    let probe = "spec.containers[name=web].readinessProbe";
    assert_eq!(
        why(&p, &format!("{probe}.tcpSocket")),
        (Action::Retain, MAP.into(), NOTHING)
    );
    assert_eq!(
        why(&p, &format!("{probe}.httpGet")),
        (Action::Add, MAP.into(), SET_LOCAL)
    );
    let result = &p.result["spec"]["containers"][0]["readinessProbe"];
    assert!(result.get("tcpSocket").is_some() && result.get("httpGet").is_some());
    assert!(has_warning(&p, "missing-annotation", None));
    assert!(has_warning(&p, "union-two-members", Some(probe)));
}

#[test]
fn widget_list_replaced() {
    let p = plan_named("widget-list-replaced");
    assert_eq!(
        p.patch_type.map(|t| t.content_type()),
        Some("application/merge-patch+json")
    );
    let mut keys = Vec::new();
    all_keys(p.patch.as_ref().unwrap(), &mut keys);
    assert!(
        keys.iter().all(|k| !k.starts_with('$')),
        "no directives: {keys:?}"
    );
    assert_eq!(
        why(&p, "spec.size"),
        (Action::Clear, PRIMITIVE.into(), CLEAR)
    );
    assert_eq!(
        why(&p, "spec.color"),
        (Action::Retain, PRIMITIVE.into(), NOTHING)
    );
    assert_eq!(why(&p, "status"), (Action::Retain, MAP.into(), NOTHING));
    let ports = field(&p, "spec.ports");
    assert_eq!(
        (ports.action, ports.reason.row().action),
        (Action::Set, SET_FILE)
    );
    assert!(
        ports
            .reason
            .kind
            .text()
            .starts_with("list: replace (JSON merge patch")
    );
    assert_eq!(
        why(&p, "spec.ports[0]"),
        (Action::Set, ELEMENT.into(), EL_REPLACE)
    );
    assert_eq!(
        why(&p, "spec.ports[2]"),
        (Action::Delete, ELEMENT.into(), EL_REPLACE)
    );
    assert_eq!(
        p.result["spec"]["ports"],
        json!([{"name": "http", "port": 8080}])
    );
    let lost = p
        .warnings
        .iter()
        .find(|w| w.code == Code::ListItemsLost)
        .expect("list-items-lost");
    assert!(lost.message.contains("metrics"), "{}", lost.message);
}

#[test]
fn labels_map_merge() {
    let p = plan_named("labels-map-merge");
    assert_eq!(
        why(&p, "metadata.labels"),
        (Action::Set, MAP.into(), COMPARE)
    );
    assert_eq!(
        why(&p, "metadata.labels.tier"),
        (Action::Clear, PRIMITIVE.into(), CLEAR)
    );
    assert_eq!(
        why(&p, "metadata.labels.release"),
        (Action::Add, PRIMITIVE.into(), SET_LOCAL)
    );
    assert_eq!(
        why(&p, "metadata.labels.app"),
        (Action::Unchanged, PRIMITIVE.into(), SET_FILE)
    );
    assert_eq!(
        why(&p, "metadata.labels.owner"),
        (Action::Retain, PRIMITIVE.into(), NOTHING)
    );
    for server in ["spec.clusterIP", "spec.sessionAffinity", "spec.type"] {
        assert_eq!(why(&p, server), (Action::Retain, PRIMITIVE.into(), NOTHING));
    }
    assert_eq!(
        p.result["metadata"]["labels"],
        json!({"app": "shop", "owner": "team-payments", "release": "stable"})
    );
}

#[test]
fn env_list_removed() {
    let p = plan_named("env-list-removed");
    let env = "spec.template.spec.containers[name=api].env";
    let f = field(&p, env);
    assert_eq!(
        (f.action, f.reason.row().action, &*f.reason.kind.text()),
        (Action::Clear, DELETE, "list: merge by key name")
    );
    assert_eq!(f.reason.directive.as_deref(), Some("null (delete)"));
    assert_eq!(
        why(&p, &format!("{env}[name=LOG_LEVEL]")),
        (Action::Delete, ELEMENT.into(), EL_DELETE)
    );
    // The live-only variable goes with the list.
    assert_eq!(
        field(&p, &format!("{env}[name=HTTP_PROXY]")).action,
        Action::Delete
    );
    assert!(
        p.result["spec"]["template"]["spec"]["containers"][0]
            .get("env")
            .is_none()
    );
}

#[test]
fn explicit_null_clears() {
    let e = find("explicit-null-clears").unwrap();
    assert!(e.last_applied.is_none() && e.live.unwrap().contains(LAST_APPLIED));
    let p = plan_of(e);
    let la = p
        .last_applied
        .as_ref()
        .expect("read from the live annotation");
    assert!(la["spec"].get("paused").is_none());
    for path in ["spec.paused", "spec.template.spec.nodeSelector"] {
        let f = field(&p, path);
        assert_eq!(f.action, Action::Clear, "{path}");
        assert!(!f.reason.presence().in_last_applied, "{path}");
        assert!(
            f.reason.note.as_deref().unwrap().contains("explicit null"),
            "{path}"
        );
    }
    assert_eq!(
        why(&p, "spec.replicas"),
        (Action::Retain, PRIMITIVE.into(), NOTHING)
    );
    let sent = p.patch.as_ref().unwrap();
    assert!(sent["spec"].as_object().unwrap()["paused"].is_null());
    assert!(sent["spec"]["template"]["spec"].as_object().unwrap()["nodeSelector"].is_null());
    assert!(p.result["spec"].get("paused").is_none());
    assert!(
        p.result["spec"]["template"]["spec"]
            .get("nodeSelector")
            .is_none()
    );
}

#[test]
fn create_service() {
    let e = find("create-service").unwrap();
    assert!(e.is_create() && e.last_applied.is_none());
    assert!(
        EXAMPLES
            .iter()
            .filter(|e| e.is_create() && !e.name.starts_with("lint-"))
            .count()
            == 1
    );
    let p = plan_of(e);
    assert!(p.patch.is_none() && p.created().is_some());
    assert!(p.fields().all(|f| f.action == Action::Add));
    assert_eq!(
        why(&p, "spec.selector"),
        (Action::Add, MAP.into(), SET_LOCAL)
    );
    assert_eq!(
        why(&p, "spec.ports[port=80]"),
        (Action::Add, ELEMENT.into(), EL_ADD)
    );
    assert_eq!(
        why(&p, "metadata.namespace"),
        (Action::Add, PRIMITIVE.into(), SET_LOCAL)
    );
    assert_eq!(p.result["metadata"]["namespace"], "default");
    assert!(p.result["metadata"]["annotations"][LAST_APPLIED].is_string());
}

/// Together the examples cover every row of the seeds' three tables (as fields.rs words them:
/// `row_reason` for primitives and maps, with merged lists as fields taking the map rows;
/// `element_reason` for list elements, plus the replace-whole row) and all seven actions.
#[test]
fn examples_cover_every_table_row_and_action() {
    let mut rows: BTreeSet<(String, &'static str)> = BTreeSet::new();
    let mut actions: BTreeSet<&'static str> = BTreeSet::new();
    for e in EXAMPLES {
        let p = plan_of(e);
        for f in p.fields() {
            rows.insert((table_name(&f), f.reason.row().action));
            actions.insert(f.action.name());
        }
    }
    let mut want: BTreeSet<(String, &'static str)> = BTreeSet::new();
    for row in [SET_FILE, SET_LOCAL, CLEAR, NOTHING] {
        want.insert((PRIMITIVE.into(), row));
    }
    // List fields: replaced like primitives, or merged like maps.
    for row in [SET_FILE, SET_LOCAL, NOTHING, COMPARE, DELETE] {
        want.insert((LIST.into(), row));
    }
    for row in [COMPARE, SET_LOCAL, DELETE, NOTHING] {
        want.insert((MAP.into(), row));
    }
    for row in [EL_MERGE, EL_ADD, EL_DELETE, EL_KEEP, EL_REPLACE] {
        want.insert((ELEMENT.into(), row));
    }
    let missing: Vec<_> = want.difference(&rows).collect();
    assert!(missing.is_empty(), "rows no example shows: {missing:#?}");
    let unknown: Vec<_> = rows.difference(&want).collect();
    assert!(
        unknown.is_empty(),
        "rows this test does not know: {unknown:#?}"
    );
    let all: BTreeSet<&str> = Action::ALL.iter().map(|a| a.name()).collect();
    assert_eq!(actions, all, "every action");
}

/// The hand-over recipe: as it stands the apply fights the autoscaler; after dropping
/// `spec.replicas` from last-applied and from the file, the live 7 is retained.
#[test]
fn hpa_handover() {
    use applyscope::engine::edit;
    let e = find("hpa-handover").unwrap();
    let p = plan_of(e);
    let replicas = field(&p, "spec.replicas");
    assert_eq!(
        (
            replicas.action,
            replicas.live.cloned(),
            replicas.result.cloned()
        ),
        (Action::Set, Some(7.into()), Some(3.into()))
    );

    let path: applyscope::engine::plan::FieldPath = "spec.replicas".parse().unwrap();
    let parse = |t: &str| {
        applyscope::document::parse_documents(t, "x")
            .unwrap()
            .remove(0)
            .value
    };
    let docs = Docs {
        local: edit::drop(&parse(e.local), &path).unwrap(),
        live: e.live.map(parse),
        last_applied: Some(edit::drop(&parse(e.last_applied.unwrap()), &path).unwrap()),
    };
    let after = compute(&docs, None, true).unwrap();
    let replicas = field(&after, "spec.replicas");
    assert_eq!(
        (replicas.action, replicas.result.cloned()),
        (Action::Retain, Some(7.into()))
    );
    // Without the drop from last-applied, removing it from the file would clear it.
    let docs = Docs {
        last_applied: e.last_applied.map(parse),
        ..docs
    };
    let cleared = compute(&docs, None, true).unwrap();
    assert_eq!(field(&cleared, "spec.replicas").action, Action::Clear);
}
