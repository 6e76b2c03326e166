//! What the API server does with the metadata a file carries (an export of `kubectl get -o
//! yaml`): the registry's lock on `metadata.resourceVersion`, after the field manager (a
//! conflict comes first), before the plan; the update's validation of `metadata.uid`.

use super::test_objects::input;
use super::*;
use crate::json;

fn live() -> Value {
    let created = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "resourceVersion": "9"},
        "spec": {"replicas": 2}});
    let req = Request::embedded("apps/v1", "Deployment", "2026-01-01T00:00:00Z").unwrap();
    let mut live = req.apply(&Value::Null, &created, "kubectl", false).unwrap();
    live["metadata"]["resourceVersion"] = json!("9");
    live
}

fn file(rv: &str, replicas: i64) -> Arc<Value> {
    Arc::new(json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "resourceVersion": rv},
        "spec": {"replicas": replicas}}))
}

#[test]
fn a_stale_resource_version_is_the_api_servers_409() {
    let live = live();
    let stale = file("5", 3);
    let Ok(SsaOutcome::Refused(refusal)) = plan_server_side(&input(&stale, Some(&live), false))
    else {
        panic!("refused");
    };
    assert_eq!(refusal.reason, "Conflict");
    assert_eq!(
        refusal.as_kubectl_prints(),
        "Error from server (Conflict): Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply your changes to the latest version and try again"
    );
    assert_eq!(refusal.warnings[0].code, Code::StaleResourceVersion);
    // Discovery's resource, when the caller knows it.
    let named = SsaInput {
        resource: Some("webapps"),
        ..input(&stale, Some(&live), false)
    };
    let Ok(SsaOutcome::Refused(refusal)) = plan_server_side(&named) else {
        panic!("refused");
    };
    assert!(
        refusal.message.contains("on webapps.apps \"web\""),
        "{}",
        refusal.message
    );
    // The live one passes; no number fails as Go's parser does; a create ignores it.
    let fresh = file("9", 3);
    assert!(matches!(
        plan_server_side(&input(&fresh, Some(&live), false)),
        Ok(SsaOutcome::Planned(_))
    ));
    let Ok(SsaOutcome::Refused(refusal)) =
        plan_server_side(&input(&file("x9", 3), Some(&live), false))
    else {
        panic!("refused");
    };
    assert_eq!(
        refusal.as_kubectl_prints(),
        "Error from server: strconv.ParseUint: parsing \"x9\": invalid syntax"
    );
    assert!(matches!(
        plan_server_side(&input(&stale, None, false)),
        Ok(SsaOutcome::Planned(_))
    ));
}

#[test]
fn a_conflict_comes_before_the_lock_and_migrating_a_manager_makes_it_stale() {
    let mut live = live();
    // Another manager's replicas: the file's other value conflicts, whatever its version.
    let req = Request::embedded("apps/v1", "Deployment", "2026-01-02T00:00:00Z").unwrap();
    let mut scaled = live.clone();
    scaled["spec"]["replicas"] = json!(4);
    live = req.update(&live, &scaled, "autoscaler").unwrap();
    live["metadata"]["resourceVersion"] = json!("9");
    let stale = file("5", 3);
    assert!(matches!(
        plan_server_side(&input(&stale, Some(&live), false)),
        Ok(SsaOutcome::Conflicts { .. })
    ));
    let fresh = file("9", 4);
    assert!(matches!(
        plan_server_side(&input(&fresh, Some(&live), false)),
        Ok(SsaOutcome::Planned(_))
    ));
    // `--migrate-manager` writes the object before the apply: the live version is stale then.
    let migrate = ["autoscaler".to_owned()];
    let migrated = SsaInput {
        migrate: &migrate,
        ..input(&fresh, Some(&live), false)
    };
    assert!(matches!(
        plan_server_side(&migrated),
        Ok(SsaOutcome::Refused(r)) if r.reason == "Conflict"
    ));
}

#[test]
fn another_uid_is_refused_by_the_update_validation() {
    let mut live = live();
    live["metadata"]["uid"] = json!("u-live");
    let mut other = (*file("9", 2)).clone();
    other["metadata"]["uid"] = json!("u-old");
    let other = Arc::new(other);
    let Ok(SsaOutcome::Planned(plan)) = plan_server_side(&input(&other, Some(&live), false)) else {
        panic!("planned");
    };
    let w: Vec<&Warning> = plan
        .warnings
        .iter()
        .filter(|w| w.code == Code::SsaResultInvalid)
        .collect();
    assert_eq!(w.len(), 1, "{:?}", plan.warnings);
    assert_eq!(w[0].path.as_deref(), Some(".metadata.uid"));
    assert!(
        w[0].message.contains(
            r#"Deployment.apps "web" is invalid: metadata.uid: Invalid value: "u-old": field is immutable"#
        ),
        "{}",
        w[0].message
    );
    let mut same = (*file("9", 2)).clone();
    same["metadata"]["uid"] = json!("u-live");
    let Ok(SsaOutcome::Planned(plan)) =
        plan_server_side(&input(&Arc::new(same), Some(&live), false))
    else {
        panic!("planned");
    };
    assert!(
        plan.warnings
            .iter()
            .all(|w| w.code != Code::SsaResultInvalid)
    );
}
