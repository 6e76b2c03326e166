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
    let one = fields_on_one_core(objects, &c, &forced, &me, &migrated);
    let two = fields(objects.0, objects.1, &c, &forced, &me, &migrated);
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
