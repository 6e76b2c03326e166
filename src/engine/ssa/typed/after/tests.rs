//! Prune's shortcuts against the computations they replace, on random Deployments and random
//! sets to remove: the set read without building the value equals the set of the value built
//! (whenever it answers), the removal in place equals the removal that copies, the comparison
//! walked within the removal equals the whole comparison, a value on one side alone is
//! compared as the whole walk compares it, and prune read from the sets alone equals prune
//! from the objects (whenever it answers).

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

use super::field_set_after_remove;
use crate::engine::ssa::kubernetes;
use crate::engine::ssa::order::identical;
use crate::engine::ssa::path::Path;
use crate::engine::ssa::schema::{Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::{
    compare, compare_within, merge, project, remove_items, remove_items_owned, to_field_set,
    to_field_set_named, validate, validate_live,
};
use crate::value::Value;

fn v(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

/// A container: names from a few (repeated names happen), ports keyed by port and protocol
/// (protocol defaults to TCP), env keyed by name, an empty or filled struct.
fn container() -> impl Strategy<Value = Value> {
    let port = (
        0..3u8,
        prop::option::of(prop_oneof![Just("TCP"), Just("UDP")]),
    );
    let env = (0..3u8, prop::option::of(0..2u8));
    (
        0..5u8,
        prop::option::of(0..2u8),
        prop::collection::vec(port, 0..4),
        prop::collection::vec(env, 0..4),
        0..4u8,
    )
        .prop_map(|(name, image, ports, env, resources)| {
            let mut c = v(&format!(r#"{{"name":"c{name}"}}"#));
            if let Some(i) = image {
                c["image"] = Value::from(format!("img{i}"));
            }
            if !ports.is_empty() {
                let ports: Vec<Value> = ports
                    .iter()
                    .map(|(p, proto)| {
                        let mut p = v(&format!(r#"{{"containerPort":{}}}"#, 8080 + u32::from(*p)));
                        if let Some(proto) = proto {
                            p["protocol"] = Value::from(*proto);
                        }
                        p
                    })
                    .collect();
                c["ports"] = Value::Array(ports);
            }
            if !env.is_empty() {
                let env: Vec<Value> = env
                    .iter()
                    .map(|(n, val)| {
                        let mut e = v(&format!(r#"{{"name":"E{n}"}}"#));
                        if let Some(val) = val {
                            e["value"] = Value::from(format!("v{val}"));
                        }
                        e
                    })
                    .collect();
                c["env"] = Value::Array(env);
            }
            match resources {
                1 => c["resources"] = v("{}"),
                2 => c["resources"] = v(r#"{"limits":{"cpu":"1"}}"#),
                3 => c["resources"] = Value::Null,
                _ => {}
            }
            c
        })
}

/// A Deployment with a map, an atomic list, an empty associative list, a struct that may be
/// empty or null, and containers.
fn deployment() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(container(), 0..6),
        prop::option::of(0..3u8),
        0..4u8,
        prop::collection::vec(0..3u8, 0..3),
        any::<bool>(),
    )
        .prop_map(|(containers, replicas, security, labels, volumes)| {
            let mut d = v(
                r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{}}}}"#,
            );
            if let Some(r) = replicas {
                d["spec"]["replicas"] = Value::from(u32::from(r));
            }
            for l in labels {
                d["metadata"]["labels"][format!("l{l}").as_str()] = Value::from("x");
            }
            let spec = &mut d["spec"]["template"]["spec"];
            spec["containers"] = Value::Array(containers);
            match security {
                1 => spec["securityContext"] = v("{}"),
                2 => spec["securityContext"] = v(r#"{"runAsUser":1}"#),
                3 => spec["securityContext"] = Value::Null,
                _ => {}
            }
            if volumes {
                spec["volumes"] = v("[]");
                spec["tolerations"] = v(r#"[{"key":"a"}]"#);
            }
            d
        })
}

/// The Deployment's schema and root, and a runner seeded the same way for every test.
fn deployments() -> (&'static Schema, TypeRef, TestRunner) {
    let kube = kubernetes::embedded();
    let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
    // A fixed seed: the counts each test asserts (how many cases were asked) hold run after
    // run (a random one failed one in many runs).
    let runner = TestRunner::new(Config {
        rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5ea1_2026),
        ..Config::default()
    });
    (&kube.schema, root, runner)
}

#[test]
fn the_set_after_a_removal_is_the_set_of_the_value_it_leaves() {
    let (schema, root, mut runner) = deployments();
    let case = (deployment(), prop::collection::vec(0..6u8, 0..400), 0..4u8);
    let (mut answered, mut removed_something, mut unanswered) = (0, 0, 0);
    let mut compared_within = 0;
    for _ in 0..3000 {
        let (value, picks, mode) = case.new_tree(&mut runner).unwrap().current();
        let Ok(set) = to_field_set(schema, root, &value) else {
            continue;
        };
        let value_set = set.into_named_fields_as_members(schema, root);
        // Paths to remove: some of the value's own (members and the routes to them), chosen
        // by `picks`; in mode 0 every other path, in mode 3 none.
        let mut all: Vec<Path> = value_set.paths();
        all.extend(value_set.leaves().paths());
        all.sort();
        all.dedup();
        let chosen: Vec<Path> = match mode {
            0 => all.iter().step_by(2).cloned().collect(),
            3 => Vec::new(),
            _ => picks
                .iter()
                .enumerate()
                .filter(|(i, p)| usize::from(**p) < usize::from(mode) && *i < all.len())
                .map(|(i, _)| all[i].clone())
                .collect(),
        };
        let removed = Set::from_unsorted_paths(chosen);
        let built = remove_items(schema, root, &value, &removed);
        assert_eq!(
            remove_items_owned(schema, root, value.clone(), &removed),
            built,
            "removal in place, {value} less {removed:?}"
        );
        // The comparison walked within what was removed is the whole comparison (of a value
        // that validates, as the live object of a request does).
        if validate_live(schema, root, &value).0.is_ok() {
            let whole = compare(schema, root, &value, &built);
            assert_eq!(
                compare_within(schema, root, &value, &built, &removed),
                whole,
                "{value} less {removed:?}"
            );
            compared_within += usize::from(whole.is_ok_and(|c| !c.removed.is_empty()));
        }
        let built_set = to_field_set(schema, root, &built)
            .map(|s| s.into_named_fields_as_members(schema, root));
        match field_set_after_remove(schema, root, &value, &removed, &value_set) {
            Some(read) => {
                answered += 1;
                if built != value {
                    removed_something += 1;
                }
                assert_eq!(
                    Ok(&read),
                    built_set.as_ref(),
                    "{value} less {removed:?} leaves {built}"
                );
            }
            None => unanswered += 1,
        }
    }
    // Not vacuous: most cases are answered, and most of those remove something.
    assert!(answered > 2000, "answered {answered}, not {unanswered}");
    assert!(
        removed_something > 1000,
        "removed something in {removed_something}"
    );
    assert!(unanswered > 0, "the cases it declines are met too");
    assert!(compared_within > 1000, "compared within {compared_within}");
}

#[test]
fn the_named_set_in_one_walk_is_the_set_with_its_named_fields_made_members() {
    let (schema, root, mut runner) = deployments();
    let mut compared = 0;
    for _ in 0..2000 {
        let value = deployment().new_tree(&mut runner).unwrap().current();
        let plain = to_field_set(schema, root, &value);
        let named = to_field_set_named(schema, root, &value);
        match (plain, named) {
            (Ok(plain), Ok(named)) => {
                compared += 1;
                let ensured = plain.into_named_fields_as_members(schema, root);
                assert_eq!(named, ensured, "{value}");
            }
            (plain, named) => assert_eq!(plain.err(), named.err(), "{value}"),
        }
    }
    assert!(compared > 1500, "compared {compared}");
}

/// What kubectl's second apply reuses (`update::Again`): merging a configuration into what
/// it merged into before gives that back, to the order of keys and items and the way numbers
/// are written, for any live object and configuration the request accepts (live items with
/// repeated keys, nulls, empty structs, defaulted keys, a float where the live has an int).
#[test]
fn merging_the_same_configuration_again_changes_nothing() {
    let (schema, root, mut runner) = deployments();
    let case = (deployment(), deployment(), any::<bool>());
    let (mut merged, mut changed) = (0, 0);
    for _ in 0..3000 {
        let (live, mut config, float) = case.new_tree(&mut runner).unwrap().current();
        if float && config["spec"].get("replicas").is_some() {
            config["spec"]["replicas"] = Value::from(2.0);
        }
        if validate(schema, root, &live, true).is_err()
            || validate(schema, root, &config, false).is_err()
        {
            continue;
        }
        let Ok(Some(once)) = merge(schema, root, &live, &config) else {
            continue;
        };
        merged += 1;
        if !identical(&once, &live) {
            changed += 1;
        }
        let twice = merge(schema, root, &once, &config).unwrap().unwrap();
        assert!(
            identical(&twice, &once),
            "{live} with {config}: {once} then {twice}"
        );
    }
    assert!(
        merged > 800 && changed > 800,
        "{merged} merged, {changed} changed"
    );
}

/// The live object's one walk gives what the two validations give: with duplicates allowed,
/// and whether it passes without them.
#[test]
fn one_validation_of_a_live_object_is_both() {
    let (schema, root, mut runner) = deployments();
    let (mut repeated, mut bad) = (0, 0);
    for _ in 0..2000 {
        let mut value = deployment().new_tree(&mut runner).unwrap().current();
        if value["spec"].get("replicas").and_then(Value::as_i64) == Some(2) {
            value["spec"]["template"]["spec"]["containers"] = Value::from("none");
        }
        let (lenient, strict) = validate_live(schema, root, &value);
        assert_eq!(lenient, validate(schema, root, &value, true), "{value}");
        assert_eq!(
            strict,
            validate(schema, root, &value, false).is_ok(),
            "{value}"
        );
        repeated += usize::from(lenient.is_ok() && !strict);
        bad += usize::from(lenient.is_err());
    }
    assert!(
        repeated > 100 && bad > 100,
        "{repeated} with repeated keys, {bad} invalid"
    );
}

/// What the last-applied excusal asks of a path (in the annotation's field set; modified,
/// added, removed by its comparison with the live object) is the same of the two objects cut
/// down to some paths ([`project`]) as of the whole objects: random Deployment pairs, random
/// paths of either (members and the routes to them), each pair valid without duplicates.
#[test]
fn a_path_is_asked_alike_of_the_cut_objects() {
    let (schema, root, mut runner) = deployments();
    let case = (
        deployment(),
        deployment(),
        prop::collection::vec(0..2u8, 0..400),
    );
    let (mut asked, mut some_in) = (0, 0);
    for _ in 0..3000 {
        let (last, live, picks) = case.new_tree(&mut runner).unwrap().current();
        if validate(schema, root, &last, false).is_err()
            || validate(schema, root, &live, false).is_err()
        {
            continue;
        }
        let (Ok(set), Ok(cmp)) = (
            to_field_set(schema, root, &last),
            compare(schema, root, &last, &live),
        ) else {
            continue;
        };
        let mut all: Vec<Path> = set.paths();
        all.extend(to_field_set(schema, root, &live).unwrap().paths());
        all.extend(set.leaves().paths());
        all.sort();
        all.dedup();
        let chosen: Vec<Path> = all
            .iter()
            .zip(&picks)
            .filter(|(_, pick)| **pick == 0)
            .map(|(p, _)| p.clone())
            .collect();
        let want = Set::from_unsorted_paths(chosen.clone());
        let (cut_last, cut_live) = (
            project(schema, root, &last, &want),
            project(schema, root, &live, &want),
        );
        let cut_set = to_field_set(schema, root, &cut_last).unwrap();
        let cut_cmp = compare(schema, root, &cut_last, &cut_live).unwrap();
        let ask = |s: &Set, c: &crate::engine::ssa::typed::Comparison, p: &Path| {
            [
                s.has(p),
                c.modified.has(p),
                c.added.has(p),
                c.removed.has(p),
            ]
        };
        for p in &chosen {
            asked += 1;
            some_in += usize::from(ask(&set, &cmp, p).contains(&true));
            assert_eq!(
                ask(&cut_set, &cut_cmp, p),
                ask(&set, &cmp, p),
                "{p:?} of {last} and {live}"
            );
        }
    }
    assert!(
        asked > 3000 && some_in > 2000,
        "{asked} asked, {some_in} in some set"
    );
}

/// A Deployment of `n` containers, each with two env vars and every seventh with an image; `bad` containers get an item
/// without its key: a volume mount when the container's number is odd, else an env var.
fn big_deployment(n: usize, bad: &[usize]) -> Value {
    let containers: Vec<Value> = (0..n)
        .map(|i| {
            let mut c = v(&format!(
                r#"{{"name":"c{i}","env":[{{"name":"A","value":"1"}},{{"name":"B"}}]}}"#
            ));
            if i.is_multiple_of(7) {
                c["image"] = Value::from("i");
            }
            if bad.contains(&i) {
                if !i.is_multiple_of(2) {
                    c["volumeMounts"] = v(r#"[{"name":"v"}]"#);
                } else {
                    c["env"] = v(r#"[{"value":"x"}]"#);
                }
            }
            c
        })
        .collect();
    let mut d = v(
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"template":{"spec":{}}}}"#,
    );
    d["spec"]["template"]["spec"]["containers"] = Value::Array(containers);
    d
}

#[test]
fn a_long_list_walked_on_two_cores_gives_the_set_and_the_errors_of_one_walk() {
    let kube = kubernetes::embedded();
    let schema = &kube.schema;
    let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
    // Big enough to fork (past 20,000 nodes, a list of 4,000 items).
    let big = big_deployment(4000, &[]);
    let list = big["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap();
    assert!(crate::engine::ssa::par::are_big(list));
    let set = to_field_set(schema, root, &big).unwrap();
    let p = |s: &str| crate::engine::ssa::path::PathElement::field(s);
    let containers = set
        .child(&p("spec"))
        .and_then(|s| s.child(&p("template")))
        .and_then(|s| s.child(&p("spec")))
        .and_then(|s| s.child(&p("containers")))
        .unwrap();
    assert_eq!(containers.members().len(), 4000);
    assert_eq!(containers.children().len(), 4000);
    assert!(
        containers.members().windows(2).all(|w| w[0] < w[1]),
        "the items in order"
    );
    // Each item's set is its own: the image where the container has one.
    for (pe, item) in containers.children() {
        let name = format!("{pe:?}");
        let n: usize = name
            .chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap();
        assert_eq!(item.has_member(&p("image")), n.is_multiple_of(7), "{name}");
    }
    assert_eq!(
        to_field_set_named(schema, root, &big).unwrap(),
        set.into_named_fields_as_members(schema, root)
    );
    // Errors in both halves come in the list's order.
    let Err(errs) = to_field_set(schema, root, &big_deployment(4000, &[10, 3501, 3998])) else {
        panic!("an item without its key is an error");
    };
    let errs = errs.0;
    let keys: Vec<bool> = errs.iter().map(|e| e.contains("mountPath")).collect();
    assert_eq!(keys, [false, true, false], "{errs:?}");
}

/// Prune's answer from the sets alone (`typed::prune_gone`) is `Updater.prune`'s at one API
/// version, whenever it answers: the merged object's set `M`, the applier's last set `L` and
/// every manager's `O` (named fields as members; `L` and `O` random paths of the object, some
/// of which it lacks), against the two objects built and their sets read, as the reference
/// does. A removal that takes a kept item's key field, or empties the set of a node it keeps,
/// is declined (the cases where the sets alone cannot tell); random sets decline often.
#[test]
fn prune_from_the_sets_is_prune_from_the_objects() {
    let (schema, root, mut runner) = deployments();
    let case = (
        deployment(),
        prop::collection::vec(0..4u8, 0..400),
        prop::collection::vec(0..4u8, 0..400),
        0..3u8,
    );
    let (mut answered, mut some_gone, mut declined) = (0, 0, 0);
    for _ in 0..3000 {
        let (value, l_picks, o_picks, share) = case.new_tree(&mut runner).unwrap().current();
        let Ok(m) = to_field_set_named(schema, root, &value) else {
            continue;
        };
        let mut all: Vec<Path> = m.paths();
        all.extend(m.leaves().paths());
        all.push(vec![crate::engine::ssa::path::PathElement::field("status")]);
        all.sort();
        all.dedup();
        let pick = |picks: &[u8], below: u8| -> Set {
            let chosen: Vec<Path> = all
                .iter()
                .zip(picks)
                .filter(|(_, p)| **p <= below)
                .map(|(p, _)| p.clone())
                .collect();
            Set::from_unsorted_paths(chosen).into_named_fields_as_members(schema, root)
        };
        // `L` mostly large (an applier owns most of what it applied), `O` of any size.
        let (last, owned) = (pick(&l_picks, 2), pick(&o_picks, share));
        let reference = || -> Result<Set, crate::engine::ssa::typed::TypedError> {
            let first =
                to_field_set_named(schema, root, &remove_items(schema, root, &value, &last))?;
            let dropped = m.difference(&first.union(&owned));
            let second =
                to_field_set_named(schema, root, &remove_items(schema, root, &value, &dropped))?;
            Ok(m.difference(&second).intersection(&last))
        };
        match super::super::prune_gone(schema, root, &m, &last, &owned) {
            Some(gone) => {
                answered += 1;
                some_gone += usize::from(!gone.is_empty());
                assert_eq!(
                    reference().as_ref(),
                    Ok(&gone),
                    "{value}: last {last:?}, owned {owned:?}"
                );
            }
            None => declined += 1,
        }
    }
    assert!(
        answered > 700 && some_gone > 600 && declined > 0,
        "{answered} answered ({some_gone} with something gone), {declined} declined"
    );
}

/// A long list of a big value, walked alone on two cores, is compared as the whole walk
/// compares it: the same sets, and the errors of both halves in the list's order with their
/// paths (an item without its key, and one below an item of each half), repeated keys in
/// both halves owned as the item only, on either side.
#[test]
fn a_long_list_on_one_side_is_split_as_the_whole_walk_compares_it() {
    use super::super::compare::compare_sides;
    let kube = crate::engine::ssa::kubernetes::embedded();
    let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
    let env: Vec<Value> = (0..12)
        .map(|i| crate::json!({"name": format!("E{i}"), "value": "v"}))
        .collect();
    let mut containers: Vec<Value> = (0..2000)
        .map(|i| crate::json!({"name": format!("c{i}"), "image": "app", "env": env.clone()}))
        .collect();
    containers[10]["name"] = crate::json!("c3");
    containers[1500]["name"] = crate::json!("c1700");
    containers[20]["env"][2] = crate::json!({"value": "no name"});
    containers[1600]["env"][3] = crate::json!({"value": "no name"});
    containers[1800]
        .as_object_mut()
        .unwrap()
        .shift_remove("name");
    let deployment = crate::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "d"}, "spec": {"template": {"spec": {"containers": containers}}}});
    let valid = crate::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "spec": {"template": {"spec": {"containers": env}}}});
    let null = Value::Null;
    for value in [&deployment, &valid] {
        for sides in [
            (Some(value), None),
            (None, Some(value)),
            (Some(&null), Some(value)),
        ] {
            let fast = compare_sides(&kube.schema, root, sides, None, true);
            let whole = compare_sides(&kube.schema, root, sides, None, false);
            assert_eq!(fast, whole);
        }
    }
    let errors = compare_sides(&kube.schema, root, (None, Some(&deployment)), None, true);
    let errors = errors.unwrap_err().0;
    assert_eq!(errors.len(), 3, "{errors:?}");
}

/// A value on one side alone is compared by its own walk (`Walker::alone`, one set per node)
/// as the whole walk compares it: the same sets and the same errors in the same order, for
/// random Deployments, some with an item that lacks its key, a list that is no list or a map
/// for a list, removed or added whole (the other side missing) or field by field (the other
/// side an empty object or null: a live object's first managers are its comparison with null).
#[test]
fn a_value_on_one_side_is_compared_as_the_whole_walk_compares_it() {
    use super::super::compare::compare_sides;
    let (schema, root, mut runner) = deployments();
    let case = (deployment(), 0..4u8);
    let (mut compared, mut failed) = (0, 0);
    for _ in 0..2000 {
        let (mut value, bad) = case.new_tree(&mut runner).unwrap().current();
        match bad {
            1 => value["spec"]["template"]["spec"]["containers"] = v(r#"[{"image":"x"}]"#),
            3 => value["spec"]["template"]["spec"]["containers"] = Value::from("none"),
            2 => value["spec"]["template"]["spec"]["tolerations"] = v(r#"{"a":1}"#),
            _ => {}
        }
        let (empty, null) = (v("{}"), Value::Null);
        for other in [None, Some(&empty), Some(&null)] {
            for sides in [(Some(&value), other), (other, Some(&value))] {
                let fast = compare_sides(schema, root, sides, None, true);
                let whole = compare_sides(schema, root, sides, None, false);
                assert_eq!(fast, whole, "{sides:?}");
                compared += 1;
                failed += usize::from(whole.is_err());
            }
        }
    }
    assert!(
        compared == 12000 && failed > 900,
        "{compared} compared, {failed} failed"
    );
}
