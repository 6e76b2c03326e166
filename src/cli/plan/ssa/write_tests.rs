//! The streamed `-o json|yaml` of [`super::write`] and [`super::yaml`] against the outputs
//! built as one value ([`super::reference`]), byte for byte: every built-in example's plan
//! (and its refusal or conflicts), plans with every optional key, with and without the
//! kuberc's `mode`; and the sink failing part way.

use std::io::Write;

use super::How;
use super::many::{CHUNK, Layout, json_many, text_many, yaml_many};
use super::pieces::FIELDS;
use super::reference::{many_value, plan_value, pretty};
use super::write::{Item, Stored, Tally, document_entries, json_one};
use super::yaml::{KEY_ORDER, yaml_one};
use crate::cli::Run;
use crate::engine::goyaml::to_yaml;
use crate::engine::plan::{Code, Warning, WayOut};
use crate::engine::ssa::kubectl::{Step, StepKind};
use crate::engine::ssa::managed::{ManagerId, Operation};
use crate::error::Error;
use crate::session::kuberc::{ApplyMode, KubercFrom, ModeSource};
use crate::session::ssa::test_objects::input;
use crate::session::ssa::{SsaOutcome, SsaPlan, plan_server_side};
use crate::value::{Map, Value};

type Planned = (String, String, Result<SsaOutcome, Error>);

/// Every example planned as `plan --server-side --example NAME` plans it, and again with
/// `--force-conflicts` (its conflicts then planned).
fn examples() -> Vec<Planned> {
    let mut out = Vec::new();
    for example in crate::examples::EXAMPLES {
        let source = crate::session::source::Source::from_example(example).unwrap();
        for force in [false, true] {
            let local = std::sync::Arc::new(source.docs.local.clone());
            let input = input(&local, source.docs.live.as_ref(), force);
            let name = format!("{} (force {force})", example.name);
            out.push((name, example.name.into(), plan_server_side(&input)));
        }
    }
    out
}

/// A plan with every optional key: a field hidden from the diff with owners of an apiVersion
/// and a subresource, a warning without a path and with a manager and ways out, the steps
/// that name whom they take from (none, two), a step without managedFields.
fn every_key(mut p: SsaPlan) -> SsaPlan {
    let mut f = p.fields[0].clone();
    f.hidden_from_diff = true;
    let after = f.after(p.objects()).cloned();
    f.set_values(
        Some(crate::json!({"a": [1, 2.5, "x\ny"], "b": null})),
        after,
    );
    f.owners_before = [ManagerId {
        manager: "hpa".into(),
        operation: Operation::Update,
        api_version: "autoscaling/v2".into(),
        subresource: "scale".into(),
    }]
    .into();
    f.owners_after = [].into();
    p.fields.push(f);
    p.warnings.push(Warning {
        code: Code::MissingAnnotation,
        path: None,
        field: None,
        message: "a: b\n'c'".into(),
        manager: Some("hpa".into()),
        way_out: vec![WayOut::Force, WayOut::EditFile],
    });
    let mut step = Step::new(
        StepKind::UpgradeManagedFields { from: Vec::new() },
        std::sync::Arc::new(p.steps[0].body().clone()),
        std::sync::Arc::new(Value::Null),
        None,
    );
    p.steps.push(step.clone());
    p.step_changes.push(Vec::new());
    step.kind = StepKind::MigrateManagers {
        from: vec!["helm".into(), "true".into()],
    };
    p.steps.push(step);
    p.step_changes.push(p.step_changes[0].clone());
    p
}

fn plans() -> Vec<SsaPlan> {
    let mut plans: Vec<SsaPlan> = examples()
        .into_iter()
        .filter_map(|(_, _, o)| match o {
            Ok(SsaOutcome::Planned(p)) => Some(*p),
            _ => None,
        })
        .collect();
    assert!(plans.len() > 10, "{}", plans.len());
    let extra = every_key(plans[0].clone());
    plans.push(extra);
    plans
}

/// A kuberc chose the mode: `mode` heads the outputs.
fn kuberc_how() -> How {
    let mode = ApplyMode {
        server_side: true,
        source: ModeSource::Kuberc {
            path: "/home/me/.kube/kuberc".into(),
            from: KubercFrom::Home,
        },
        field_manager: Some("me".into()),
        force_conflicts: None,
        warnings: Vec::new(),
    };
    How::from_flags(None, None, &mode)
}

fn hows() -> [How; 2] {
    let plain = How {
        manager: "kubectl".into(),
        force: false,
        mode: None,
    };
    [plain, kuberc_how()]
}

fn text(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap()
}

#[test]
fn one_plan_is_written_as_its_value_was() {
    for how in hows() {
        let mode = how.mode_value();
        for p in plans() {
            let whole = Value::Object(how.with_mode(plan_value(&p, &how.manager)));
            let mut json = Vec::new();
            json_one(mode.as_ref(), &p, &how.manager, &mut json).unwrap();
            assert_eq!(text(json), pretty(whole.clone()));
            let mut yaml = Vec::new();
            yaml_one(mode.as_ref(), &p, &how.manager, &mut yaml).unwrap();
            assert_eq!(text(yaml), to_yaml(&whole));
        }
    }
}

/// A big plan's `-o json` and `-o yaml` in pieces on two threads ([`super::pieces`],
/// [`super::yaml::pieces`]), cut into pieces of one field, a few, and all of them: the text of
/// the plan as one value.
#[test]
fn a_plan_in_pieces_is_written_as_its_value_was() {
    for how in hows() {
        let mode = how.mode_value();
        let mut plans = plans();
        // A value that ends in a `|` block, its line broken before the next key.
        let mut block = plans[0].clone();
        block.patch = std::sync::Arc::new(crate::json!({"data": {"a": "x\ny\n"}}));
        plans.push(block);
        for p in plans {
            let whole = Value::Object(how.with_mode(plan_value(&p, &how.manager)));
            let want = pretty(whole.clone());
            let entries = document_entries(mode.as_ref(), &p, &how.manager);
            let want_yaml = to_yaml(&whole);
            for fields in [1, 3, p.fields.len()] {
                let mut json = Vec::new();
                super::pieces::write(&entries, fields, &mut json).unwrap();
                assert_eq!(text(json), want, "{fields}");
                let mut yaml = Vec::new();
                let entries = document_entries(mode.as_ref(), &p, &how.manager);
                super::yaml::pieces::write(entries, fields, &mut yaml).unwrap();
                assert_eq!(text(yaml), want_yaml, "{fields}");
            }
        }
    }
}

/// A plan of more fields than two pieces (its `-o json` and `-o yaml` written in pieces): the
/// fields of [`every_key`]'s, over and over.
fn large_plan() -> SsaPlan {
    let mut p = every_key(plans().swap_remove(0));
    let n = p.fields.len();
    for i in 0..3 * FIELDS + 5 {
        let mut f = p.fields[i % n].clone();
        f.hidden_from_diff = i % 3 == 0;
        f.at.push(crate::engine::ssa::PathElement::Index(
            i64::try_from(i).unwrap(),
        ));
        p.fields.push(f);
    }
    assert!(super::pieces::in_pieces(&p));
    p
}

#[test]
fn a_large_plan_is_written_as_its_value_was() {
    let p = large_plan();
    for how in hows() {
        let mode = how.mode_value();
        let whole = Value::Object(how.with_mode(plan_value(&p, &how.manager)));
        let mut yaml = Vec::new();
        yaml_one(mode.as_ref(), &p, &how.manager, &mut yaml).unwrap();
        let want = to_yaml(&whole);
        assert_eq!(text(yaml), want);
        let mut json = Vec::new();
        json_one(mode.as_ref(), &p, &how.manager, &mut json).unwrap();
        assert_eq!(text(json), pretty(whole));
        for room in [1 << 16, want.len() / 2, want.len() - 1] {
            let e = yaml_one(mode.as_ref(), &p, &how.manager, &mut Closing { room }).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{room}");
        }
    }
}

/// The many-object items: every example's outcome (conflicts and refusals among them), a
/// plan with every optional key, an object that could not be planned.
fn items() -> Vec<Planned> {
    let mut items = examples();
    let kinds = |want: fn(&Result<SsaOutcome, Error>) -> bool| items.iter().any(|i| want(&i.2));
    assert!(kinds(|o| matches!(o, Ok(SsaOutcome::Conflicts { .. }))));
    assert!(kinds(|o| matches!(o, Ok(SsaOutcome::Refused(_)))));
    let extra = every_key(plans().swap_remove(0));
    items.push((
        "extra".into(),
        "x.yaml".into(),
        Ok(SsaOutcome::Planned(Box::new(extra))),
    ));
    let bad = Err(Error::Input("x.yaml: line 3: bad".into()));
    items.push(("bad".into(), "x.yaml".into(), bad));
    // A plan big enough to be written straight to the sink in its turn, between two others.
    let large = Ok(SsaOutcome::Planned(Box::new(large_plan())));
    items.insert(1, ("large".into(), "l.yaml".into(), large));
    items
}

fn streamed(items: &[Planned]) -> impl Iterator<Item = Item> + '_ {
    items
        .iter()
        .map(|(k, s, o)| Item::new(k.clone(), s.clone(), o.clone()))
}

/// Many objects' outputs, their parts made a chunk at a time on every core: as one value
/// written whole, whatever the chunk (each object alone, two, all at once).
#[test]
fn many_plans_are_written_as_their_value_was() {
    let items = items();
    for (how, chunk) in hows().iter().flat_map(|h| [1, 2, CHUNK].map(|c| (h, c))) {
        let mode = how.mode_value();
        let whole = Value::Object(how.with_mode(many_value(&items, &how.manager)));
        let layout = Layout {
            mode: mode.as_ref(),
            manager: &how.manager,
            chunk,
        };
        let (mut json, mut tally) = (Vec::new(), Tally::default());
        let broken = json_many(&layout, streamed(&items), &mut tally, &mut json);
        assert!(!broken);
        assert_eq!(text(json), pretty(whole.clone()), "{chunk}");
        let (mut yaml, mut yaml_tally) = (Vec::new(), Tally::default());
        let broken = yaml_many(&layout, streamed(&items), &mut yaml_tally, &mut yaml);
        assert!(!broken);
        assert_eq!(text(yaml), to_yaml(&whole), "{chunk}");
        assert_eq!(tally.stderr, yaml_tally.stderr);
        // Each failure's line, as before: the object, then the message.
        let failed = items
            .iter()
            .filter(|i| !matches!(i.2, Ok(SsaOutcome::Planned(_))));
        assert_eq!(tally.stderr.len(), failed.count());
        let bad = |l: &String| l.starts_with("bad: ") && l.ends_with("x.yaml: line 3: bad");
        assert!(tally.stderr.iter().any(bad), "{:?}", tally.stderr);
        assert_eq!(tally.code, 2);
    }
    // No objects: `objects: []`.
    for how in hows() {
        let mode = how.mode_value();
        let whole = Value::Object(how.with_mode(many_value(&[], &how.manager)));
        let (mut json, mut yaml) = (Vec::new(), Vec::new());
        let layout = Layout {
            mode: mode.as_ref(),
            manager: &how.manager,
            chunk: 1,
        };
        let t = &mut Tally::default();
        assert!(!json_many(&layout, streamed(&[]), t, &mut json));
        assert!(!yaml_many(&layout, streamed(&[]), t, &mut yaml));
        assert_eq!(text(json), pretty(whole.clone()));
        assert_eq!(text(yaml), to_yaml(&whole));
    }
}

/// Many objects' `-o text`: the header, then each object's heading and plan in the items'
/// order, the same whatever the chunk.
#[test]
fn many_plans_as_text_are_in_order_whatever_the_chunk() {
    let items = items();
    let written = |chunk| {
        let (mut out, mut tally) = (Vec::new(), Tally::default());
        assert!(!text_many(
            "HEADER\n",
            streamed(&items),
            false,
            chunk,
            &mut tally,
            &mut out
        ));
        assert_eq!(tally.stderr.len(), items.len() - planned_count(&items));
        text(out)
    };
    let one = written(1);
    assert!(one.starts_with("HEADER\n== "), "{one}");
    let headings: Vec<&str> = one.lines().filter(|l| l.starts_with("== ")).collect();
    let want: Vec<String> = items
        .iter()
        .map(|(k, s, _)| format!("== {k} ({s})"))
        .collect();
    assert_eq!(headings, want);
    assert!(one.contains("error: x.yaml: line 3: bad\n"), "{one}");
    for chunk in [2, 3, CHUNK] {
        assert_eq!(written(chunk), one, "{chunk}");
    }
}

/// The layout of kubectl's manager.
fn kubectl(mode: Option<&Value>, chunk: usize) -> Layout<'_> {
    Layout {
        mode,
        manager: "kubectl",
        chunk,
    }
}

fn planned_count(items: &[Planned]) -> usize {
    items
        .iter()
        .filter(|i| matches!(i.2, Ok(SsaOutcome::Planned(_))))
        .count()
}

/// A sink that takes `room` bytes, then fails as a closed pipe does.
struct Closing {
    room: usize,
}

impl Write for Closing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.room == 0 {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The sink fails at the start, part way or at the end: the one plan's writers say so; the
/// many objects' say so and still plan every object for its failure's line; the run then
/// ends as the client-side plan's does (1, or 2 with the lines when an object failed).
#[test]
fn a_sink_that_fails_is_reported() {
    let items = items();
    let p = plans().swap_remove(0);
    let whole = Value::Object(plan_value(&p, "kubectl"));
    let (json_size, yaml_size) = (pretty(whole.clone()).len(), to_yaml(&whole).len());
    for room in [0, 10, 70_000, json_size - 1, yaml_size - 1] {
        if room < json_size {
            let e = json_one(None, &p, "kubectl", &mut Closing { room }).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{room}");
        }
        if room < yaml_size {
            let e = yaml_one(None, &p, "kubectl", &mut Closing { room }).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{room}");
        }
        let mut tally = Tally::default();
        assert!(json_many(
            &kubectl(None, 2),
            streamed(&items),
            &mut tally,
            &mut Closing { room }
        ));
        let mut yaml_tally = Tally::default();
        assert!(yaml_many(
            &kubectl(None, 3),
            streamed(&items),
            &mut yaml_tally,
            &mut Closing { room }
        ));
        assert_eq!(
            tally.stderr.len(),
            items
                .iter()
                .filter(|i| !matches!(i.2, Ok(SsaOutcome::Planned(_))))
                .count()
        );
        assert_eq!(tally.stderr, yaml_tally.stderr);
        match tally.run(true) {
            Run::Report { stdout, code, .. } => assert_eq!((stdout.as_str(), code), ("", 2)),
            _ => panic!("a report"),
        }
    }
    let planned = streamed(&items).filter(|i| matches!(i.outcome, Ok(SsaOutcome::Planned(_))));
    let mut tally = Tally::default();
    assert!(json_many(
        &kubectl(None, CHUNK),
        planned,
        &mut tally,
        &mut Closing { room: 5 }
    ));
    match tally.run(true) {
        Run::Report {
            stdout,
            stderr,
            code,
        } => {
            assert_eq!((stdout.as_str(), stderr.len(), code), ("", 0, 1));
        }
        _ => panic!("a report"),
    }
}

/// The outputs' keys are written in go-yaml's order.
#[test]
fn the_key_order_is_goyamls() {
    let mut m = Map::new();
    for key in KEY_ORDER.iter().rev() {
        m.insert(*key, Value::Null);
    }
    let keys: Vec<String> = to_yaml(&Value::Object(m))
        .lines()
        .map(|l| l.trim_end_matches(": null").to_owned())
        .collect();
    assert_eq!(keys, KEY_ORDER);
}

/// The result is written with its managedFields as `with_encoded` leaves the object, without
/// the copy, by `-o json` and `-o yaml`: in place of managedFields already there, last in the
/// metadata, in a metadata made for them; none removes them; an object that is not a map, or
/// whose metadata is not, as it is.
#[test]
fn a_stored_result_is_written_as_the_object_with_its_managed_fields() {
    use crate::engine::ssa::managed::Written;
    use crate::engine::ssa::request::with_encoded;
    let objects = [
        Value::Null,
        crate::json!({}),
        crate::json!({"a": 1}),
        crate::json!({"metadata": "x", "b": 2}),
        crate::json!({"apiVersion": "v1", "metadata": {"name": "n"}, "spec": {"x": [1]}}),
        crate::json!({"metadata": {"managedFields": [1], "name": "n"}, "z": true}),
        crate::json!({"metadata": {"managedFields": [1]}, "kind": "K", "10": 1, "9": 2}),
        crate::json!([1, 2]),
    ];
    let entries = crate::json!([{"manager": "m", "operation": "Apply"}]);
    for object in &objects {
        for managed in [None, Some(&entries)] {
            let stored = with_encoded(object.clone(), managed.cloned());
            // `-o yaml`: the result, one level deep, sorted as go-yaml sorts the copy.
            let mut yaml = Vec::new();
            let mut out = crate::cli::plan::chunked::Out::new(&mut yaml);
            out.y.begin_mapping();
            out.y.key("result");
            out.stored(object, managed, 1);
            out.y.end_mapping();
            out.y.finish();
            out.flush().unwrap();
            let mut whole = Map::new();
            whole.insert("result", stored.clone());
            assert_eq!(
                String::from_utf8(yaml).unwrap(),
                to_yaml(&Value::Object(whole)),
                "{object} with {managed:?}"
            );
            assert_eq!(
                serde_json::to_string_pretty(&Stored {
                    object,
                    managed: managed.map(Written::Value)
                })
                .unwrap(),
                serde_json::to_string_pretty(&stored).unwrap(),
                "{object} with {managed:?}"
            );
        }
    }
}
