//! `immutable-field`: fields the API server refuses to change once the object exists. A
//! change to one fails the whole apply (`field is immutable`, or `Forbidden`); nothing else in
//! the file is applied either. Checked on the plan's result against the live object:
//!
//! | kind | fields |
//! | --- | --- |
//! | Deployment, ReplicaSet, DaemonSet (`apps/v1`) | `spec.selector` |
//! | StatefulSet | every `spec` field except `replicas`, `ordinals`, `template`, `updateStrategy`, `revisionHistoryLimit`, `persistentVolumeClaimRetentionPolicy`, `minReadySeconds` (so `volumeClaimTemplates`, `serviceName`, `selector`, `podManagementPolicy`) |
//! | Job | `spec.selector`, `spec.template`, `spec.completionMode` |
//! | Service | `spec.clusterIP`, `spec.clusterIPs` once set (clearing them keeps the live value) |
//! | PersistentVolumeClaim | `spec` except `resources` and `volumeAttributesClassName` |
//! | ConfigMap, Secret with `immutable: true` | `data`, `binaryData` (`stringData`), `immutable` |
//! | every kind | `metadata.uid`, when the file names another (an export of an object since deleted and recreated): `metadata.uid: Invalid value: "…": field is immutable`; none keeps the live one |
//!
//! Known approximation: a suspended Job that never started may change some scheduling fields of
//! its template; the lint still reports them.

use crate::value::Value;

use super::{LintInput, group, gvk, show};
use crate::engine::plan::warnings::{Code, Warning};

const STATEFULSET_MUTABLE: [&str; 7] = [
    "replicas",
    "ordinals",
    "template",
    "updateStrategy",
    "revisionHistoryLimit",
    "persistentVolumeClaimRetentionPolicy",
    "minReadySeconds",
];

fn get<'v>(obj: &'v Value, path: &[&str]) -> Option<&'v Value> {
    let mut at = obj;
    for p in path {
        at = at.get(*p)?;
    }
    Some(at)
}

/// The fields of this kind to compare, and what to do about a change.
fn fields(live: &Value, result: &Value) -> (Vec<Vec<String>>, &'static str) {
    let (api_version, kind) = gvk(live);
    let owned = |paths: &[&[&str]]| -> Vec<Vec<String>> {
        paths
            .iter()
            .map(|p| p.iter().map(|s| (*s).to_owned()).collect())
            .collect()
    };
    let spec_keys_except = |keep: &[&str]| -> Vec<Vec<String>> {
        let mut keys: Vec<String> = Vec::new();
        for doc in [live, result] {
            if let Some(Value::Object(spec)) = doc.get("spec") {
                for k in spec.keys() {
                    if !keep.contains(&k.as_str()) && !keys.iter().any(|x| x == k) {
                        keys.push(k.to_string());
                    }
                }
            }
        }
        keys.into_iter()
            .map(|k| vec!["spec".to_owned(), k])
            .collect()
    };
    let recreate = "Keep the live value in the file, or delete and recreate the object (`kubectl replace --force`, or a new name).";
    match (group(live), kind) {
        ("apps", "Deployment" | "ReplicaSet" | "DaemonSet") if api_version == "apps/v1" => (
            owned(&[&["spec", "selector"]]),
            "Keep the live selector, or create the workload under a new name and delete the old one (a selector change would orphan its pods).",
        ),
        ("apps", "StatefulSet") => (spec_keys_except(&STATEFULSET_MUTABLE), recreate),
        ("batch", "Job") => (
            owned(&[
                &["spec", "selector"],
                &["spec", "template"],
                &["spec", "completionMode"],
            ]),
            "Jobs run once: delete the Job and apply it again (or give the new run a new name).",
        ),
        ("", "Service") => (
            owned(&[&["spec", "clusterIP"], &["spec", "clusterIPs"]]),
            "Leave clusterIP out of the file (the server keeps the live one), or delete and recreate the Service.",
        ),
        ("", "PersistentVolumeClaim") => (
            spec_keys_except(&["resources", "volumeAttributesClassName"]),
            "Only resources.requests (to grow the volume) and volumeAttributesClassName may change; create a new claim for anything else.",
        ),
        ("", "ConfigMap" | "Secret")
            if live.get("immutable").and_then(Value::as_bool) == Some(true) =>
        {
            (
                owned(&[&["data"], &["binaryData"], &["stringData"], &["immutable"]]),
                "An immutable ConfigMap or Secret cannot change: create one under a new name and point its users to it.",
            )
        }
        _ => (Vec::new(), recreate),
    }
}

/// Fields the server fills in when they are absent: a replaced list (`volumeClaimTemplates`)
/// that drops them gets them back, which is no change.
const SERVER_FILLED: [&str; 8] = [
    "apiVersion",
    "kind",
    "status",
    "volumeMode",
    "creationTimestamp",
    "imagePullPolicy",
    "terminationMessagePath",
    "terminationMessagePolicy",
];

/// Whether the server would see a change from `before` to `after` (server-filled fields that
/// only `before` has do not count).
fn differs(before: Option<&Value>, after: Option<&Value>) -> bool {
    match (before, after) {
        (Some(Value::Object(b)), Some(Value::Object(a))) => {
            a.iter().any(|(k, v)| differs(b.get(k), Some(v)))
                || b.iter().any(|(k, v)| {
                    !a.contains_key(k) && !SERVER_FILLED.contains(&k.as_str()) && !v.is_null()
                })
        }
        (Some(Value::Array(b)), Some(Value::Array(a))) => {
            a.len() != b.len() || a.iter().zip(b).any(|(x, y)| differs(Some(y), Some(x)))
        }
        (b, a) => b != a,
    }
}

pub(super) fn check(input: &LintInput<'_>) -> Vec<Warning> {
    let Some(live) = input.live else {
        return Vec::new();
    };
    let (paths, advice) = fields(live, input.result);
    let mut out = Vec::new();
    let kind = gvk(live).1;
    for path in paths {
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        let before = get(live, &refs);
        let after = get(input.result, &refs);
        if !differs(before, after) {
            continue;
        }
        // Service clusterIP: only a change of an assigned address is refused.
        if kind == "Service" {
            let assigned = |v: Option<&Value>| match v {
                Some(Value::String(s)) => !s.is_empty(),
                Some(Value::Array(a)) => !a.is_empty(),
                _ => false,
            };
            if !assigned(before) || !assigned(after) {
                continue;
            }
        }
        let name = refs.join(".");
        let change = match (before, after) {
            (Some(b), Some(a)) => format!("changes from {} to {}", show(b), show(a)),
            (None, Some(a)) => format!("is added ({})", show(a)),
            (Some(b), None) => format!("is removed (live: {})", show(b)),
            (None, None) => continue,
        };
        out.push(Warning {
            manager: None,
            way_out: Vec::new(),
            field: None,
            code: Code::ImmutableField,
            path: Some(name.clone()),
            message: format!(
                "{name} {change}, but a {kind}'s {name} cannot change after creation: the server will reject the whole apply (field is immutable). {advice}"
            ),
        });
    }
    out.extend(uid(live, input.result));
    out
}

/// `metadata.uid` of every kind ([`crate::engine::validation::changed_uid`]).
fn uid(live: &Value, result: &Value) -> Option<Warning> {
    let (before, after, error) = crate::engine::validation::changed_uid(live, result)?;
    let kind = gvk(live).1;
    let quote = crate::engine::schema::go_quote;
    Some(Warning {
        manager: None,
        way_out: Vec::new(),
        field: None,
        code: Code::ImmutableField,
        path: Some("metadata.uid".to_owned()),
        message: format!(
            "metadata.uid changes from {} to {}: the file names another object's uid (an export of a {kind} since deleted and recreated under the same name), and no object's uid can change: the server will reject the whole apply ({error}). Remove uid from the file (and the other fields the API server sets).",
            quote(before),
            quote(after),
        ),
    })
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;
    use crate::engine::lint::testing::{plan_of, with_code};

    #[test]
    fn another_uid_of_any_kind() {
        let cm = |uid: &str| {
            json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "c", "namespace": "default", "uid": uid}, "data": {"a": "1"}})
        };
        let live = cm("u-1");
        let warned = |local: &Value| {
            let p = plan_of(local, Some(&live), Some(&cm(""))).unwrap();
            with_code(&p.warnings, Code::ImmutableField)
                .into_iter()
                .map(|w| w.message.clone())
                .collect::<Vec<_>>()
        };
        let w = warned(&cm("u-2"));
        assert_eq!(w.len(), 1);
        assert!(
            w[0].contains(r#"ConfigMap "c" is invalid: metadata.uid: Invalid value: "u-2": field is immutable"#),
            "{}",
            w[0]
        );
        assert!(warned(&cm("u-1")).is_empty());
        assert!(warned(&cm("")).is_empty());
    }

    #[test]
    fn deployment_selector() {
        let last = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
                          "spec": {"selector": {"matchLabels": {"app": "web"}},
                                   "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "w", "image": "w"}]}}}});
        let mut local = last.clone();
        local["spec"]["selector"]["matchLabels"] = json!({"app": "web", "tier": "front"});
        local["spec"]["template"]["metadata"]["labels"]["tier"] = json!("front");
        let p = plan_of(&local, Some(&last), Some(&last)).unwrap();
        let w = with_code(&p.warnings, Code::ImmutableField);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert_eq!(w[0].path.as_deref(), Some("spec.selector"));
        assert!(
            w[0].message.contains("server will reject"),
            "{}",
            w[0].message
        );
    }

    #[test]
    fn statefulset_claims_and_service_name() {
        let last = json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "default"},
                          "spec": {"serviceName": "db", "replicas": 1, "selector": {"matchLabels": {"app": "db"}},
                                   "template": {"metadata": {"labels": {"app": "db"}}, "spec": {"containers": [{"name": "db", "image": "pg:16"}]}},
                                   "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"resources": {"requests": {"storage": "1Gi"}}}}]}});
        let mut local = last.clone();
        local["spec"]["serviceName"] = json!("db-headless");
        local["spec"]["volumeClaimTemplates"][0]["spec"]["resources"]["requests"]["storage"] =
            json!("5Gi");
        local["spec"]["replicas"] = json!(3);
        local["spec"]["template"]["spec"]["containers"][0]["image"] = json!("pg:17");
        let p = plan_of(&local, Some(&last), Some(&last)).unwrap();
        let paths: Vec<_> = with_code(&p.warnings, Code::ImmutableField)
            .iter()
            .map(|w| w.path.clone().unwrap_or_default())
            .collect();
        assert_eq!(paths, ["spec.serviceName", "spec.volumeClaimTemplates"]);
    }

    #[test]
    fn job_template_and_service_cluster_ip() {
        let job = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate", "namespace": "default"},
                         "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "m", "image": "m:1"}]}}}});
        let mut local = job.clone();
        local["spec"]["template"]["spec"]["containers"][0]["image"] = json!("m:2");
        let p = plan_of(&local, Some(&job), Some(&job)).unwrap();
        assert_eq!(
            with_code(&p.warnings, Code::ImmutableField).len(),
            1,
            "{:?}",
            p.warnings
        );

        let svc = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "api", "namespace": "default"},
                         "spec": {"clusterIP": "10.0.0.10", "ports": [{"port": 80}]}});
        let mut local = svc.clone();
        local["spec"]["clusterIP"] = json!("10.0.0.99");
        let p = plan_of(&local, Some(&svc), Some(&svc)).unwrap();
        let w = with_code(&p.warnings, Code::ImmutableField);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert!(
            w[0].message
                .contains("changes from \"10.0.0.10\" to \"10.0.0.99\""),
            "{}",
            w[0].message
        );
        // Leaving clusterIP out keeps the live address: fine.
        let mut without = svc.clone();
        without["spec"].as_object_mut().unwrap().remove("clusterIP");
        let p = plan_of(&without, Some(&svc), Some(&svc)).unwrap();
        assert!(
            with_code(&p.warnings, Code::ImmutableField).is_empty(),
            "{:?}",
            p.warnings
        );
    }

    #[test]
    fn server_filled_fields_are_no_change() {
        let live = json!({"spec": {"volumeClaimTemplates": [{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": "data"}, "spec": {"volumeMode": "Filesystem", "resources": {"requests": {"storage": "1Gi"}}},
            "status": {"phase": "Pending"}}]}});
        let same = json!({"spec": {"volumeClaimTemplates": [{"metadata": {"name": "data"},
            "spec": {"resources": {"requests": {"storage": "1Gi"}}}}]}});
        let path = ["spec", "volumeClaimTemplates"];
        assert!(!differs(get(&live, &path), get(&same, &path)));
        let mut bigger = same.clone();
        bigger["spec"]["volumeClaimTemplates"][0]["spec"]["resources"]["requests"]["storage"] =
            json!("5Gi");
        assert!(differs(get(&live, &path), get(&bigger, &path)));
        let selector = json!({"matchLabels": {"app": "a", "tier": "b"}});
        assert!(differs(
            Some(&selector),
            Some(&json!({"matchLabels": {"app": "a"}}))
        ));
    }

    #[test]
    fn immutable_config_map() {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"},
                        "immutable": true, "data": {"a": "1"}});
        let mut local = cm.clone();
        local["data"]["a"] = json!("2");
        let p = plan_of(&local, Some(&cm), Some(&cm)).unwrap();
        assert_eq!(
            with_code(&p.warnings, Code::ImmutableField).len(),
            1,
            "{:?}",
            p.warnings
        );
        let mut mutable = cm.clone();
        mutable["immutable"] = json!(false);
        let mut local = mutable.clone();
        local["data"]["a"] = json!("2");
        let p = plan_of(&local, Some(&mutable), Some(&mutable)).unwrap();
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }
}
