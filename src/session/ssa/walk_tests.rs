//! The plan's walk of a big object, on two cores, gives what the walk on one core gives: a
//! migrated Deployment of more containers than the walk forks at, with another manager's
//! fields, containers dropped and added around the middle, images changed.

use super::test_objects::{input, made_by_client_side_apply};
use super::*;
use crate::engine::ssa::explain::fields_on_one_core;
use crate::engine::ssa::{kubernetes, typed};
use crate::json;

const N: usize = 1100;

fn container(i: usize, image: &str) -> Value {
    json!({"name": format!("c{i}"), "image": image,
        "env": (0..3).map(|e| json!({"name": format!("V{e}"), "value": format!("{i}-{e}")})).collect::<Vec<_>>(),
        "ports": [{"name": "http", "containerPort": 8080}]})
}

fn deployment(containers: Vec<Value>) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "d", "namespace": "default"},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "d"}},
            "template": {"metadata": {"labels": {"app": "d"}},
                "spec": {"containers": containers}}}})
}

#[test]
fn the_walk_on_two_cores_gives_what_one_core_gives() {
    let original = deployment((0..N).map(|i| container(i, "app:1")).collect());
    // Containers 540 to 559 dropped, new ones after them, every fifth image changed, and
    // every fourteenth sets the other manager's env var (taken by force).
    let mut kept: Vec<Value> = (0..N)
        .filter(|i| !(540..560).contains(i))
        .map(|i| {
            let mut c = container(i, if i % 5 == 0 { "app:2" } else { "app:1" });
            if i % 14 == 0 {
                c["env"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "EXTRA", "value": "y"}));
            }
            c
        })
        .collect();
    kept.extend((0..10).map(|i| container(N + i, "app:3")));
    let local = deployment(kept);
    let mut created = original.clone();
    for c in created["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .unwrap()
    {
        c["imagePullPolicy"] = json!("IfNotPresent");
    }
    let live = made_by_client_side_apply(&original, created);
    // Another manager adds an env var to every seventh container.
    let mut changed = live.clone();
    for c in changed["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .step_by(7)
    {
        c["env"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "EXTRA", "value": "x"}));
    }
    let req = Request::embedded("apps/v1", "Deployment", "2026-01-01T00:00:00Z").unwrap();
    let live = req.update(&live, &changed, "other-controller").unwrap();
    let local = std::sync::Arc::new(local);
    let input = input(&local, Some(&live), true);
    let Ok(SsaOutcome::Planned(plan)) = plan_server_side(&input) else {
        panic!("planned");
    };
    let kube = kubernetes::embedded();
    let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
    let c = typed::compare(&kube.schema, root, &plan.live, &plan.result).unwrap();
    let before = managed_of(&live);
    let me = ManagerId::apply("kubectl");
    let migrated = ["kubectl-client-side-apply".to_owned()];
    let objects = ((&*plan.live, &before), (&*plan.result, &plan.managers));
    // The conflicts the force took: those of the apply without it.
    let refused = plan_server_side(&SsaInput {
        force: false,
        ..input
    });
    let Ok(SsaOutcome::Conflicts { conflicts, .. }) = refused else {
        panic!("conflicts without force");
    };
    let forced: Vec<(Path, ManagerId)> = conflicts
        .0
        .into_iter()
        .map(|c| (c.path, c.manager))
        .collect();
    let types = (&kube.schema, root);
    let said = (forced.as_slice(), &me, migrated.as_slice());
    let one = fields_on_one_core(objects, &c, said, types);
    let two = fields(objects.0, objects.1, &c, said, types);
    assert!(one.len() > 10 * N, "{} fields", one.len());
    assert!(one.iter().any(|f| f.action == Action::Remove));
    assert!(one.iter().any(|f| f.action == Action::Add));
    let other = |f: &Field| {
        f.owners_before
            .iter()
            .any(|o| o.manager == "other-controller")
    };
    assert!(one.iter().any(|f| other(f) && f.action == Action::Conflict));
    assert!(one == two, "the forked walk differs");
    // And what the plan holds (before the checks mark the fields a diff hides).
    let planned: Vec<Field> = plan
        .fields
        .iter()
        .map(|f| {
            let mut f = f.clone();
            f.hidden_from_diff = false;
            f
        })
        .collect();
    assert!(planned == one, "the plan's fields differ");
}

/// A list item whose key field the second apply prunes (a port's `protocol`, which the API
/// server defaulted and the csaupgrade made the applier's) is still found after the apply by
/// the key the sets give it (`protocol="TCP"`, the schema's default): the item and its other
/// fields keep their values after, only `protocol` goes.
#[test]
fn an_item_that_loses_a_defaulted_key_field_keeps_its_values_in_the_plan() {
    let original = deployment(vec![container(0, "app:1")]);
    let mut created = original.clone();
    created["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"] = json!("TCP");
    let live = made_by_client_side_apply(&original, created);
    let local = std::sync::Arc::new(deployment(vec![container(0, "app:2")]));
    let Ok(SsaOutcome::Planned(plan)) = plan_server_side(&input(&local, Some(&live), false)) else {
        panic!("planned");
    };
    let port =
        ".spec.template.spec.containers[name=\"c0\"].ports[containerPort=8080,protocol=\"TCP\"]";
    let field = |end: &str| {
        plan.fields
            .iter()
            .find(|f| f.path() == format!("{port}{end}"))
            .unwrap_or_else(|| panic!("{port}{end} in the plan"))
    };
    let after = |end: &str| field(end).after(plan.objects()).cloned();
    assert_eq!(field(".protocol").action, Action::Remove);
    assert_eq!(after(".protocol"), None);
    assert_eq!(after(".containerPort"), Some(json!(8080)));
    assert_eq!(after(".name"), Some(json!("http")));
    assert_eq!(
        after(""),
        Some(json!({"name": "http", "containerPort": 8080}))
    );
    assert_eq!(field(".containerPort").action, Action::Keep);
}
