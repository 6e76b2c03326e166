//! The rules of `SEMANTICS.md` §2–§3 on real kinds, through one request at a time.

use super::fieldsv1;
use super::kubernetes;
use super::request::{Request, RequestError};
use crate::value::Value;

fn v(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

fn request(api_version: &'static str, kind: &str) -> Request<'static> {
    Request::embedded(api_version, kind, "2026-11-25T10:00:00Z").unwrap()
}

/// The FieldsV1 of a manager's entry, as stored.
fn owned(obj: &Value, manager: &str) -> Option<String> {
    let entries = obj["metadata"].get("managedFields")?.as_array()?;
    let e = entries.iter().find(|e| e["manager"] == manager)?;
    let set = fieldsv1::from_value(&e["fieldsV1"]).unwrap();
    Some(fieldsv1::to_json(&set))
}

fn deployment(replicas: Option<i64>) -> Value {
    let mut d = v(
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}"#,
    );
    if let Some(r) = replicas {
        d["spec"]["replicas"] = Value::from(r);
    }
    d
}

#[test]
fn the_same_value_is_shared_and_survives_until_every_owner_drops_it() {
    let req = request("apps/v1", "Deployment");
    let live = req
        .apply(&Value::Null, &deployment(Some(3)), "a", false)
        .unwrap();
    let live = req.apply(&live, &deployment(Some(3)), "b", false).unwrap();
    assert!(owned(&live, "a").unwrap().contains("f:replicas"));
    assert!(owned(&live, "b").unwrap().contains("f:replicas"));
    let live = req.apply(&live, &deployment(None), "a", false).unwrap();
    assert_eq!(live["spec"]["replicas"], 3, "b still owns it");
    let live = req.apply(&live, &deployment(None), "b", false).unwrap();
    assert!(
        live["spec"].get("replicas").is_none(),
        "pruned: nobody owns it"
    );
}

#[test]
fn a_different_value_conflicts_unless_forced() {
    let req = request("apps/v1", "Deployment");
    let live = req
        .apply(&Value::Null, &deployment(Some(3)), "a", false)
        .unwrap();
    let err = req
        .apply(&live, &deployment(Some(4)), "b", false)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 1 conflict: conflict with \"a\": .spec.replicas"
    );
    let live = req.apply(&live, &deployment(Some(4)), "b", true).unwrap();
    assert!(!owned(&live, "a").unwrap().contains("f:replicas"));
}

#[test]
fn dropping_a_field_another_manager_set_only_stops_owning_it() {
    let req = request("v1", "ConfigMap");
    let cm = |data: &str| {
        v(&format!(
            r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"c"}},"data":{data}}}"#
        ))
    };
    let live = req
        .update(&Value::Null, &cm(r#"{"a":"1","b":"2"}"#), "editor")
        .unwrap();
    let live = req
        .apply(&live, &cm(r#"{"a":"1","b":"2"}"#), "kubectl", false)
        .unwrap();
    let live = req
        .apply(&live, &cm(r#"{"a":"1"}"#), "kubectl", false)
        .unwrap();
    assert_eq!(live["data"]["b"], "2", "kept: the editor owns it too");
    assert_eq!(owned(&live, "kubectl").unwrap(), r#"{"f:data":{"f:a":{}}}"#);
}

#[test]
fn an_empty_associative_list_owns_and_changes_nothing() {
    let req = request("v1", "ConfigMap");
    let live = req
        .update(
            &Value::Null,
            &v(r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","finalizers":["x"]}}"#),
            "controller",
        )
        .unwrap();
    let out = req
        .apply(
            &live,
            &v(r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","finalizers":[]},"data":{"k":"v"}}"#),
            "kubectl",
            false,
        )
        .unwrap();
    assert_eq!(out["metadata"]["finalizers"], v(r#"["x"]"#));
    assert_eq!(owned(&out, "kubectl").unwrap(), r#"{"f:data":{"f:k":{}}}"#);
}

#[test]
fn service_ports_are_keyed_by_port_and_defaulted_protocol() {
    let req = request("v1", "Service");
    let svc = v(
        r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":443,"targetPort":8443}]}}"#,
    );
    let live = req.apply(&Value::Null, &svc, "kubectl", false).unwrap();
    assert_eq!(
        owned(&live, "kubectl").unwrap(),
        r#"{"f:spec":{"f:ports":{"k:{\"port\":443,\"protocol\":\"TCP\"}":{".":{},"f:port":{},"f:targetPort":{}}}}}"#
    );
}

#[test]
fn a_repeated_key_in_the_file_is_refused() {
    let req = request("apps/v1", "Deployment");
    let mut d = deployment(None);
    d["spec"]["template"]["spec"]["containers"] =
        v(r#"[{"name":"web","image":"a"},{"name":"web","image":"b"}]"#);
    let err = req.apply(&Value::Null, &d, "kubectl", false).unwrap_err();
    assert!(
        matches!(err, RequestError::Invalid { what: "patch", .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name=\"web\"]"
    );
}

#[test]
fn the_status_of_a_reset_endpoint_is_owned_by_nobody_and_stays_as_it_was() {
    // Reset fields are owned by nobody. The registry strategy keeps the status the object had (a create starts without one);
    // the merge of the configuration's status still counts as a change, so the manager's time
    // is written (found against the API server's field manager with CRD manifests that carry
    // `status: {acceptedNames: ..., storedVersions: []}`).
    let kube = kubernetes::embedded();
    let ignored = kube.reset_fields("apps/v1", "Deployment");
    let req = Request {
        ignored: Some(&ignored),
        ..request("apps/v1", "Deployment")
    };
    let mut d = deployment(Some(1));
    d["status"] = v(r#"{"replicas":1}"#);
    let created = req.apply(&Value::Null, &d, "kubectl", false).unwrap();
    assert!(!owned(&created, "kubectl").unwrap().contains("f:status"));
    assert_eq!(created.get("status"), None);
    let mut live = created.clone();
    live["status"] = v(r#"{"replicas":3}"#);
    let mut entries = live["metadata"]["managedFields"].clone();
    entries[0]["time"] = Value::from("2020-01-01T00:00:00Z");
    live["metadata"]["managedFields"] = entries;
    let again = req.apply(&live, &d, "kubectl", false).unwrap();
    assert_eq!(again["status"], v(r#"{"replicas":3}"#));
    assert_eq!(
        again["metadata"]["managedFields"][0]["time"],
        "2026-11-25T10:00:00Z"
    );
    // Without a status in the configuration, an unchanged object is a no-op: no new time.
    let mut bare = d.clone();
    if let Some(o) = bare.as_object_mut() {
        o.shift_remove("status");
    }
    let same = req.apply(&live, &bare, "kubectl", false).unwrap();
    assert_eq!(
        same["metadata"]["managedFields"][0]["time"],
        "2020-01-01T00:00:00Z"
    );
}

#[test]
fn a_noop_update_records_nothing() {
    let req = request("v1", "ConfigMap");
    let cm =
        v(r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"}}"#);
    let live = req.update(&Value::Null, &cm, "creator").unwrap();
    let again = req.update(&live, &live, "someone-else").unwrap();
    assert_eq!(owned(&again, "someone-else"), None);
    assert_eq!(
        again["metadata"]["managedFields"],
        live["metadata"]["managedFields"]
    );
}

#[test]
fn an_autoscaler_on_the_scale_subresource_owns_replicas() {
    let req = request("apps/v1", "Deployment");
    let live = req
        .apply(&Value::Null, &deployment(Some(2)), "kubectl", false)
        .unwrap();
    let mut scaled = live.clone();
    scaled["spec"]["replicas"] = Value::from(7);
    let scale = Request {
        subresource: "scale",
        ..req
    };
    let live = scale
        .update(&live, &scaled, "kube-controller-manager")
        .unwrap();
    let entry = live["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["manager"] == "kube-controller-manager")
        .unwrap();
    assert_eq!(entry["subresource"], "scale");
    let err = req
        .apply(&live, &deployment(Some(3)), "kubectl", false)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 1 conflict: conflict with \"kube-controller-manager\" with subresource \"scale\" using apps/v1: .spec.replicas"
    );
}

#[test]
fn extracting_with_keys_keeps_the_key_fields_of_the_items_on_the_way() {
    let req = request("apps/v1", "Deployment");
    let d = deployment(Some(1));
    let set = super::Set::from_paths([[
        super::PathElement::field("spec"),
        super::PathElement::field("template"),
        super::PathElement::field("spec"),
        super::PathElement::field("containers"),
        super::PathElement::key(vec![("name".into(), Value::from("web"))]),
        super::PathElement::field("image"),
    ]
    .as_slice()]);
    let plain = super::typed::extract_items(req.schema, req.root, &d, &set);
    assert_eq!(
        plain["spec"]["template"]["spec"]["containers"],
        v(r#"[{"image":"nginx"}]"#)
    );
    let keyed = super::typed::extract_items_with_keys(req.schema, req.root, &d, &set);
    assert_eq!(
        keyed["spec"]["template"]["spec"]["containers"],
        v(r#"[{"image":"nginx","name":"web"}]"#)
    );
}

mod properties {
    use proptest::prelude::*;

    use crate::engine::ssa::fieldsv1;
    use crate::engine::ssa::path::{Path, PathElement};
    use crate::engine::ssa::set::Set;
    use crate::value::Value;

    fn element() -> impl Strategy<Value = PathElement> {
        prop_oneof![
            prop::sample::select(vec!["a", "b", "c<&>", "x.y"]).prop_map(PathElement::field),
            prop::sample::select(vec!["p", "q"]).prop_map(|n| PathElement::key(vec![
                ("name".into(), Value::from(n)),
                ("port".into(), Value::from(80))
            ])),
            prop_oneof![
                Just(Value::from(1)),
                Just(Value::from(2.5)),
                Just(Value::from("s"))
            ]
            .prop_map(PathElement::Value),
            (0i64..3).prop_map(PathElement::Index),
        ]
    }

    fn paths() -> impl Strategy<Value = Vec<Path>> {
        prop::collection::vec(prop::collection::vec(element(), 1..4), 0..8)
    }

    fn set(paths: &[Path]) -> Set {
        Set::from_paths(paths.iter().map(Vec::as_slice))
    }

    fn has_prefix_in(p: &Path, s: &Set) -> bool {
        (1..=p.len()).any(|n| s.has(&p[..n]))
    }

    proptest! {
        #[test]
        fn fieldsv1_round_trips(ps in paths()) {
            let s = set(&ps);
            let text = fieldsv1::to_json(&s);
            prop_assert_eq!(&fieldsv1::from_json(&text).unwrap(), &s);
            prop_assert_eq!(&fieldsv1::from_value(&fieldsv1::to_value(&s)).unwrap(), &s);
            prop_assert_eq!(s.size(), s.paths().len());
        }

        #[test]
        fn set_algebra_is_path_algebra(a in paths(), b in paths()) {
            let (sa, sb) = (set(&a), set(&b));
            for p in sa.paths().iter().chain(sb.paths().iter()) {
                let (in_a, in_b) = (sa.has(p), sb.has(p));
                prop_assert_eq!(sa.union(&sb).has(p), in_a || in_b);
                prop_assert_eq!(sa.intersection(&sb).has(p), in_a && in_b);
                prop_assert_eq!(sa.difference(&sb).has(p), in_a && !in_b);
                prop_assert_eq!(
                    sa.recursive_difference(&sb).has(p),
                    in_a && !has_prefix_in(p, &sb)
                );
            }
            let leaves = sa.leaves();
            let all = sa.paths();
            for p in &all {
                let below = all.iter().any(|q| q.len() > p.len() && q[..p.len()] == p[..]);
                prop_assert_eq!(leaves.has(p), !below);
            }
            prop_assert!(leaves.paths().iter().all(|p| sa.has(p)));
        }
    }
}

mod robustness {
    use proptest::prelude::*;

    use super::{deployment, request};
    use crate::engine::ssa::{fieldsv1, typed};
    use crate::value::{Map, Value};

    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-3i64..3).prop_map(Value::from),
            prop::sample::select(vec!["a", "web", "TCP", ""]).prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "name",
                            "image",
                            "ports",
                            "env",
                            "containers",
                            "replicas",
                            "x",
                            "protocol",
                            "containerPort",
                            "value",
                            "spec",
                            "template",
                        ]),
                        inner
                    ),
                    0..4
                )
                .prop_map(|kvs| Value::Object(kvs.into_iter().collect::<Map>())),
            ]
        })
    }

    proptest! {
        /// Whatever sits under `spec`, requests and typed operations answer without panicking,
        /// and whatever they own is written and read back as FieldsV1.
        #[test]
        fn arbitrary_specs_never_panic(a in json(), b in json()) {
            let req = request("apps/v1", "Deployment");
            let mut first = deployment(Some(1));
            first["spec"] = a;
            let mut second = deployment(None);
            second["spec"] = b;
            let _ = typed::compare(req.schema, req.root, &first, &second);
            let _ = typed::merge(req.schema, req.root, &first, &second);
            if let Ok(live) = req.apply(&Value::Null, &first, "one", false) {
                let _ = req.apply(&live, &second, "two", false);
                let _ = req.apply(&live, &second, "one", true);
                let _ = req.update(&live, &second, "three");
            }
            if let Ok(set) = typed::to_field_set(req.schema, req.root, &first) {
                prop_assert_eq!(fieldsv1::from_json(&fieldsv1::to_json(&set)).unwrap(), set);
            }
        }
    }
}

/// `SEMANTICS.md` §1: what `kubectl` owns after applying a small Deployment, byte for byte.
#[test]
fn the_fieldsv1_of_a_small_deployment_is_the_servers() {
    let req = request("apps/v1", "Deployment");
    let file = v(
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
        "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"nginx","image":"nginx","args":["-g"],"env":[{"name":"A","value":"1"}],
        "ports":[{"containerPort":80}]}],"tolerations":[{"key":"k","operator":"Exists"}]}}}}"#,
    );
    let live = req.apply(&Value::Null, &file, "kubectl", false).unwrap();
    assert_eq!(
        owned(&live, "kubectl").unwrap(),
        concat!(
            r#"{"f:metadata":{"f:labels":{"f:app":{}}},"#,
            r#""f:spec":{"f:replicas":{},"f:selector":{},"#,
            r#""f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"#,
            r#""f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:args":{},"#,
            r#""f:env":{"k:{\"name\":\"A\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:name":{},"#,
            r#""f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}},"#,
            r#""f:tolerations":{}}}}}"#
        )
    );
}
