//! The kubectl sequence against an engine-backed server: the csaupgrade's 409 retries.

use super::*;
use crate::engine::ssa::request::Request as Engine;
use crate::json;

fn engine() -> Engine<'static> {
    Engine::embedded("v1", "ConfigMap", "2026-11-25T10:00:00Z").unwrap()
}

fn query<'q>(r: &'q Request, key: &str) -> Option<&'q str> {
    r.query
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// A server: the engine's apply, the JSON patch of managedFields guarded by the
/// resourceVersion, GET; `conflicts` JSON patches answered 409 after another client
/// changed the object.
struct Server {
    object: Value,
    rv: u64,
    conflicts: usize,
}

impl Server {
    fn bump(&mut self) {
        self.rv += 1;
        self.object["metadata"]["resourceVersion"] = Value::from(self.rv.to_string());
    }

    fn send(&mut self, r: &Request) -> Result<Option<Value>, ClusterError> {
        let body: Option<Value> = r.body.as_deref().map(|b| serde_json::from_str(b).unwrap());
        match (r.verb, r.content_type) {
            (crate::cluster::Verb::Get, _) => Ok(Some(self.object.clone())),
            (_, Some(APPLY)) => {
                let manager = query(r, "fieldManager").unwrap();
                let force = query(r, "force") == Some("true");
                let mut next = engine()
                    .apply(&self.object, &body.unwrap(), manager, force)
                    .unwrap();
                next["metadata"]["resourceVersion"] =
                    self.object["metadata"]["resourceVersion"].clone();
                self.object = next;
                self.bump();
                Ok(Some(self.object.clone()))
            }
            _ => {
                let ops = body.unwrap();
                if self.conflicts > 0 {
                    self.conflicts -= 1;
                    self.bump();
                    return Err(ClusterError::Status {
                        code: 409,
                        message: "the object has been modified".into(),
                    });
                }
                assert_eq!(ops[1]["value"], self.object["metadata"]["resourceVersion"]);
                self.object["metadata"]["managedFields"] = ops[0]["value"].clone();
                self.bump();
                Ok(Some(self.object.clone()))
            }
        }
    }
}

const APPLY: &str = "application/apply-patch+yaml";

#[test]
fn a_csaupgrade_refused_409_is_made_again_on_the_object_read_again() {
    let annotation = "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\",\"b\":\"2\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"c\",\"namespace\":\"d\"}}\n";
    let created = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "c", "namespace": "d", "annotations": {crate::engine::plan::LAST_APPLIED: annotation}},
        "data": {"a": "1", "b": "2"}});
    let mut object = engine()
        .update(&Value::Null, &created, "kubectl-client-side-apply")
        .unwrap();
    object["metadata"]["resourceVersion"] = Value::from("1");
    let mut server = Server {
        object,
        rv: 1,
        conflicts: 1,
    };
    let target = Target {
        api_version: "v1".into(),
        kind: "ConfigMap".into(),
        plural: "configmaps".into(),
        namespace: Some("d".into()),
        name: "c".into(),
    };
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "d"}, "data": {"a": "1"}});
    let send = SsaSend {
        target: &target,
        body: &body,
        manager: "kubectl",
        force: false,
        validation: Validation::Strict,
    };
    let applied = send_server_side(&send, &mut |r| server.send(r)).unwrap();
    let steps: Vec<&str> = applied
        .sent
        .iter()
        .map(|s| s.step.as_ref().map_or("GET", StepKind::name))
        .collect();
    assert_eq!(
        steps,
        [
            "apply",
            "save-last-applied",
            "upgrade-managed-fields",
            "GET",
            "upgrade-managed-fields",
            "apply-again"
        ]
    );
    assert!(applied.sent[2].answer.is_err());
    let guard = |i: usize| {
        let ops: Value =
            serde_json::from_str(applied.sent[i].request.body.as_deref().unwrap()).unwrap();
        ops[1]["value"].clone()
    };
    assert_eq!(
        guard(2),
        "3",
        "the save-last-applied answer's resourceVersion"
    );
    assert_eq!(guard(4), "4", "the object read again");
    assert!(applied.warnings.is_empty());
    assert_eq!(
        server.object["data"],
        json!({"a": "1"}),
        "b pruned by the second apply"
    );
    assert_eq!(applied.object(), Some(&server.object));
}

#[test]
fn a_csaupgrade_refused_every_time_is_kubectls_warning() {
    let annotation = "{}\n";
    let created = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "c", "namespace": "d", "annotations": {crate::engine::plan::LAST_APPLIED: annotation}},
        "data": {"a": "1"}});
    let mut object = engine().update(&Value::Null, &created, "csa").unwrap();
    object["metadata"]["resourceVersion"] = Value::from("1");
    let mut server = Server {
        object,
        rv: 1,
        conflicts: MAX_PATCH_RETRY,
    };
    let target = Target {
        api_version: "v1".into(),
        kind: "ConfigMap".into(),
        plural: "configmaps".into(),
        namespace: Some("d".into()),
        name: "c".into(),
    };
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "d"}, "data": {"a": "1"}});
    let send = SsaSend {
        target: &target,
        body: &body,
        manager: "ci",
        force: false,
        validation: Validation::Strict,
    };
    let applied = send_server_side(&send, &mut |r| server.send(r)).unwrap();
    let upgrades = applied
        .sent
        .iter()
        .filter(|s| matches!(s.step, Some(StepKind::UpgradeManagedFields { .. })))
        .count();
    assert_eq!(
        upgrades, MAX_PATCH_RETRY,
        "no save-last-applied for manager ci"
    );
    assert_eq!(
        applied.sent[1].step,
        Some(StepKind::UpgradeManagedFields {
            from: vec!["csa".into()]
        })
    );
    assert_eq!(applied.warnings.len(), 1);
    assert!(applied.warnings[0].starts_with("server rejected managed fields migration"));
    assert!(
        !applied
            .sent
            .iter()
            .any(|s| s.step == Some(StepKind::ApplyAgain))
    );
}
