//! The seeds' worked examples: each field's action and the table row that decided it.

use crate::json;
use crate::value::Value;

use super::{Action, Code, FieldKind, LastApplied, Plan, PlanInput, Presence, plan};
use crate::engine::schema::Schema;

fn run(last_applied: Value, local: Value, live: Value) -> Plan {
    let input = PlanInput {
        local: &local,
        live: Some(&live),
        last_applied: LastApplied::Given(&last_applied),
        namespace: None,
        overwrite: true,
    };
    plan(&input, Schema::embedded()).unwrap()
}

fn field<'p>(p: &'p Plan, path: &str) -> super::Field<'p, 'p> {
    let steps: super::FieldPath = path.parse().unwrap();
    p.tree
        .find(&steps.0)
        .and_then(|id| p.field(id))
        .unwrap_or_else(|| {
            panic!(
                "no field {path} in {:?}",
                p.tree
                    .ids()
                    .map(|id| p.path(id).to_string())
                    .collect::<Vec<_>>()
            )
        })
}

fn deployment(spec: Value) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "nginx-deployment", "namespace": "default"}, "spec": spec})
}

fn pod_template(containers: Value) -> Value {
    json!({"selector": {"matchLabels": {"app": "nginx"}}, "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": containers}}})
}

#[test]
fn nginx_image_set_min_ready_seconds_cleared_replicas_retained() {
    let mut la = deployment(pod_template(
        json!([{"name": "nginx", "image": "nginx:1.7.9"}]),
    ));
    la["spec"]["minReadySeconds"] = json!(5);
    let local = deployment(pod_template(
        json!([{"name": "nginx", "image": "nginx:1.11.9"}]),
    ));
    let mut live = la.clone();
    live["spec"]["replicas"] = json!(2);
    let p = run(la, local, live);

    let image = field(&p, "spec.template.spec.containers[name=nginx].image");
    assert_eq!(image.action, Action::Set);
    assert_eq!(
        image.reason.row().action,
        "Set live to configuration file value."
    );
    let min = field(&p, "spec.minReadySeconds");
    assert_eq!(min.action, Action::Clear);
    assert_eq!(min.reason.row().action, "Clear from live configuration.");
    assert_eq!(min.reason.directive.as_deref(), Some("null (delete)"));
    let replicas = field(&p, "spec.replicas");
    assert_eq!(replicas.action, Action::Retain);
    assert_eq!(replicas.reason.row().action, "Do nothing. Keep live value.");
    assert!(
        replicas.reason.presence()
            == Presence {
                in_config: false,
                in_live: true,
                in_last_applied: false
            }
    );
}

#[test]
fn helper_containers_merged_by_name() {
    let c = |name: &str| json!({"name": name, "image": "helper:1.3"});
    let la = deployment(pod_template(
        json!([{"name": "nginx", "image": "nginx:1.10"}, c("nginx-helper-a"), c("nginx-helper-b")]),
    ));
    let local = deployment(pod_template(
        json!([{"name": "nginx", "image": "nginx:1.10"}, c("nginx-helper-b"), c("nginx-helper-c")]),
    ));
    let mut b = c("nginx-helper-b");
    b["args"] = json!(["run"]);
    let mut live = deployment(pod_template(
        json!([{"name": "nginx", "image": "nginx:1.10"}, c("nginx-helper-a"), b, c("nginx-helper-d")]),
    ));
    live["metadata"]["annotations"] = json!({});
    let p = run(la, local, live);

    let containers = "spec.template.spec.containers";
    let a = field(&p, &format!("{containers}[name=nginx-helper-a]"));
    assert_eq!(a.action, Action::Delete);
    assert_eq!(a.reason.directive.as_deref(), Some("$patch: delete"));
    assert_eq!(a.reason.merge_key(), Some("name"));
    assert_eq!(
        field(&p, &format!("{containers}[name=nginx-helper-b]")).action,
        Action::Unchanged
    );
    assert_eq!(
        field(&p, &format!("{containers}[name=nginx-helper-b].args")).action,
        Action::Retain
    );
    assert_eq!(
        field(&p, &format!("{containers}[name=nginx-helper-c]")).action,
        Action::Add
    );
    let d = field(&p, &format!("{containers}[name=nginx-helper-d]"));
    assert_eq!(d.action, Action::Keep);
    assert_eq!(
        d.reason.row().action,
        "Keep the element: not in last-applied, someone else added it."
    );
    // kubectl's order: the live-only d before the new c.
    let names: Vec<&str> = p.result["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "nginx",
            "nginx-helper-b",
            "nginx-helper-d",
            "nginx-helper-c"
        ]
    );
}

#[test]
fn args_are_replaced_whole_and_live_items_lost() {
    let with_args = |args: Value| {
        deployment(pod_template(
            json!([{"name": "nginx", "image": "x", "args": args}]),
        ))
    };
    let p = run(
        with_args(json!(["a", "b"])),
        with_args(json!(["a", "c"])),
        with_args(json!(["a", "b", "d"])),
    );
    let args = field(&p, "spec.template.spec.containers[name=nginx].args");
    assert_eq!(args.action, Action::Set);
    assert_eq!(args.reason.kind, FieldKind::ReplacedList);
    assert_eq!(args.result, Some(&json!(["a", "c"])));
    assert_eq!(
        field(&p, "spec.template.spec.containers[name=nginx].args[2]").action,
        Action::Delete
    );
    let lost: Vec<_> = p
        .warnings
        .iter()
        .filter(|w| w.code == Code::ListItemsLost)
        .collect();
    assert_eq!(lost.len(), 1, "{:?}", p.warnings);
    assert!(
        lost[0].message.contains("\"d\"") && !lost[0].message.contains("\"b\""),
        "{}",
        lost[0].message
    );
}

#[test]
fn finalizers_merge_as_a_set() {
    let cm = |finalizers: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "default", "finalizers": finalizers}});
    let p = run(
        cm(json!(["a", "b"])),
        cm(json!(["a", "c"])),
        cm(json!(["a", "b", "d"])),
    );
    assert_eq!(p.result["metadata"]["finalizers"], json!(["a", "c", "d"]));
    let b = field(&p, "metadata.finalizers[=b]");
    assert_eq!(b.action, Action::Delete);
    assert_eq!(
        b.reason.directive.as_deref(),
        Some("$deleteFromPrimitiveList/finalizers")
    );
    assert_eq!(field(&p, "metadata.finalizers[=c]").action, Action::Add);
    assert_eq!(field(&p, "metadata.finalizers[=d]").action, Action::Keep);
    assert_eq!(
        field(&p, "metadata.finalizers").reason.kind,
        FieldKind::PrimitiveList
    );
}

#[test]
fn retain_keys_clears_rolling_update() {
    let strategy = |s: Value| {
        let mut d = deployment(pod_template(json!([{"name": "nginx", "image": "x"}])));
        d["spec"]["strategy"] = s;
        d
    };
    let p = run(
        strategy(json!({"type": "RollingUpdate"})),
        strategy(json!({"type": "Recreate"})),
        strategy(json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%"}})),
    );
    let ru = field(&p, "spec.strategy.rollingUpdate");
    assert_eq!(ru.action, Action::Clear);
    assert_eq!(ru.reason.directive.as_deref(), Some("$retainKeys"));
    assert_eq!(
        field(&p, "spec.strategy").reason.kind,
        FieldKind::RetainKeysMap
    );
}

#[test]
fn probe_handler_change_without_annotation_warns() {
    let probe = |p: Value| {
        deployment(pod_template(
            json!([{"name": "nginx", "image": "x", "livenessProbe": p}]),
        ))
    };
    let local = probe(json!({"httpGet": {"path": "/", "port": 80}}));
    let live = probe(json!({"tcpSocket": {"port": 80}}));
    let input = PlanInput {
        local: &local,
        live: Some(&live),
        last_applied: LastApplied::FromLive,
        namespace: None,
        overwrite: true,
    };
    let p = plan(&input, Schema::embedded()).unwrap();
    let codes: Vec<Code> = p.warnings.iter().map(|w| w.code).collect();
    assert!(codes.contains(&Code::MissingAnnotation), "{codes:?}");
    assert!(codes.contains(&Code::UnionTwoMembers), "{codes:?}");
}

#[test]
fn a_plan_names_its_stages_as_they_end() {
    let (last, local) = (
        deployment(json!({"replicas": 3})),
        deployment(json!({"replicas": 5})),
    );
    let mut live = last.clone();
    let staged = |local: Value, live: Option<&Value>| {
        let mut names = Vec::new();
        let context = super::PlanContext {
            live: live.map(std::borrow::Cow::Borrowed),
            last_applied: LastApplied::Given(&last),
            namespace: None,
            overwrite: true,
            live_last_applied: None,
        };
        let plan =
            super::plan_owned_staged(local, context, Schema::embedded(), &mut |n| names.push(n));
        (plan.unwrap(), names)
    };
    live["status"] = json!({"replicas": 3});
    let (p, names) = staged(local.clone(), Some(&live));
    assert_eq!(names, super::STAGES);
    assert_eq!(field(&p, "spec.replicas").action, Action::Set);
    let (_, names) = staged(local, None);
    assert_eq!(names, [super::STAGES[0], super::STAGES[3]], "a create");
}

/// The halves found again from a plan that kept none are the halves a plan keeps; a create
/// and a JSON merge patch have none.
#[test]
fn halves_found_again_are_the_kept_ones() {
    let c = |name: &str, image: &str| json!({"name": name, "image": image});
    let la = deployment(pod_template(json!([c("a", "x:1"), c("b", "x:1")])));
    let local = deployment(pod_template(json!([c("a", "x:2"), c("c", "x:1")])));
    let live = deployment(pod_template(json!([
        c("a", "x:1"),
        c("b", "x:1"),
        c("d", "x:1")
    ])));
    let kept = run(la.clone(), local.clone(), live.clone());
    let context = super::PlanContext {
        live: Some(std::borrow::Cow::Owned(live)),
        last_applied: LastApplied::Given(&la),
        namespace: None,
        overwrite: true,
        live_last_applied: None,
    };
    let owned = super::plan_owned(local.clone(), context, Schema::embedded()).unwrap();
    assert!(owned.halves.is_none());
    let found = super::halves(&owned, Schema::embedded()).unwrap();
    let kept = kept.halves.unwrap();
    assert_eq!(found.deletions, kept.deletions);
    assert_eq!(found.delta, kept.delta);
    assert_eq!(found.patch, kept.patch);
    let create = PlanInput {
        local: &local,
        live: None,
        last_applied: LastApplied::FromLive,
        namespace: None,
        overwrite: true,
    };
    let created = plan(&create, Schema::embedded()).unwrap();
    assert!(super::halves(&created, Schema::embedded()).is_none());
    let cr = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"a": 1}});
    let merged = run(cr.clone(), cr.clone(), cr);
    assert!(super::halves(&merged, Schema::embedded()).is_none());
}

/// kubectl changes the file's object only in `metadata`: the plan gives the file's back as
/// read, whether `annotations`, the namespace or an old annotation were there or not, for a
/// create, a patch and a cluster-scoped kind (whose namespace kubectl drops).
#[test]
fn the_plan_gives_back_the_files_object_as_read() {
    let cm = |metadata: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": {"a": "1"}});
    let locals = [
        cm(json!({"name": "c"})),
        cm(json!({"name": "c", "namespace": "x", "annotations": {"k": "v", LAST: "old"}})),
        cm(json!({"annotations": {"k": null}, "name": "c"})),
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
               "metadata": {"name": "r", "namespace": "x"}, "rules": []}),
    ];
    for local in locals {
        let mut live = json!({"apiVersion": local["apiVersion"].clone(), "kind": local["kind"].clone(),
                              "metadata": {"name": local["metadata"]["name"].clone()}});
        if local["kind"] != json!("ClusterRole") {
            live["metadata"]["namespace"] = json!("x");
        }
        for live in [None, Some(&live)] {
            let input = PlanInput {
                local: &local,
                live,
                last_applied: LastApplied::FromLive,
                namespace: None,
                overwrite: true,
            };
            let p = plan(&input, Schema::embedded()).unwrap();
            assert_ne!(p.modified, local, "kubectl changes it");
            assert_eq!(p.local(), local, "key order too: {local:?}");
            assert_eq!(p.file_metadata(), local.get("metadata"));
            assert!(p.planned_from(&local));
            let mut other = local.clone();
            other["data"] = json!({"a": "2"});
            assert!(!p.planned_from(&other));
        }
    }
}

const LAST: &str = super::LAST_APPLIED;
