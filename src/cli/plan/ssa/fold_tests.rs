//! The folds of `-o text` ([`super`]) on the examples' plans and on migrations.

use super::*;
use crate::json;
use crate::session::ssa::test_objects::{input, made_by_client_side_apply};
use crate::session::ssa::{SsaOutcome, SsaPlan, plan_server_side};
use crate::value::Value;

fn plan(local: &Value, live: Option<&Value>) -> Option<SsaPlan> {
    let local = std::sync::Arc::new(local.clone());
    match plan_server_side(&input(&local, live, true)).ok()? {
        SsaOutcome::Planned(p) => Some(*p),
        _ => None,
    }
}

/// A Deployment of `n` containers made by client-side apply (its fields owned by the
/// `kubectl-client-side-apply` Update entry, server defaults in each container), and a
/// file that changes some: the migration moves every field and prunes the defaults.
fn migrated(n: usize) -> SsaPlan {
    let container = |i: usize, image: &str| {
        json!({"name": format!("c{i}"), "image": image,
            "env": (0..8).map(|e| json!({"name": format!("V{e}"), "value": format!("{i}-{e}")})).collect::<Vec<_>>(),
            "ports": [{"name": "http", "containerPort": 8080}],
            "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1"}}})
    };
    let config = |images: &dyn Fn(usize) -> String| {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "d", "namespace": "default"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "d"}},
                "template": {"metadata": {"labels": {"app": "d"}},
                    "spec": {"containers": (0..n).map(|i| container(i, &images(i))).collect::<Vec<_>>()}}}})
    };
    let original = config(&|_| "app:1".to_owned());
    let local = config(&|i| format!("app:{}", if i % 3 == 0 { 2 } else { 1 }));
    let mut created = original.clone();
    for c in created["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .unwrap()
    {
        c["imagePullPolicy"] = json!("IfNotPresent");
        c["terminationMessagePath"] = json!("/dev/termination-log");
    }
    let live = made_by_client_side_apply(&original, created);
    plan(&local, Some(&live)).unwrap()
}

fn plans() -> Vec<(String, SsaPlan)> {
    let mut out: Vec<(String, SsaPlan)> = crate::examples::EXAMPLES
        .iter()
        .filter_map(|e| {
            let source = crate::session::source::Source::from_example(e).ok()?;
            let p = plan(&source.docs.local, source.docs.live.as_ref())?;
            Some((e.name.to_owned(), p))
        })
        .collect();
    for n in [1, 4, 9] {
        out.push((format!("migrated {n}"), migrated(n)));
    }
    out
}

fn under(f: &Field, prefix: &[PathElement]) -> bool {
    f.at.len() >= prefix.len() && f.at[..prefix.len()] == *prefix
}

/// Every field is on one line: its own, or that of exactly one fold whose fields are all
/// alike, kept or removed, at least [`FOLD_AT`] of them; a fold is as high as it can
/// be (the subtree above it is not alike); a field added, set or taken is never folded.
#[test]
fn folds_cover_alike_subtrees_once_and_as_high_as_they_can() {
    let mut folded = 0;
    for (name, plan) in plans() {
        let fields = &plan.fields;
        let lines = lines(fields);
        let mut covered = vec![0usize; fields.len()];
        for (i, line) in lines.iter().enumerate() {
            let f = &fields[i];
            let (prefix, count, strict) = match *line {
                Line::Own | Line::Inside => continue,
                Line::Fold { depth, count } => (fold_path(f, depth), count, false),
                Line::Above { count, .. } => (f.at.as_slice(), count, true),
            };
            assert!(count >= FOLD_AT, "{name}: {line:?}");
            let inside: Vec<usize> = (0..fields.len())
                .filter(|&j| under(&fields[j], prefix) && !(strict && j == i))
                .collect();
            assert_eq!(inside.len(), count, "{name}: {}", f.path());
            let like = match *line {
                Line::Above { like, .. } => like,
                _ => i,
            };
            for &j in &inside {
                covered[j] += 1;
                assert!(
                    alike(&fields[j], &fields[like]),
                    "{name}: {}",
                    fields[j].path()
                );
                assert!(j == i || lines[j] == Line::Inside, "{name}");
            }
            // As high as it can be: the subtree one step up is not alike.
            let up = if strict {
                prefix
            } else {
                &prefix[..prefix.len() - 1]
            };
            if !up.is_empty() {
                let above: Vec<&Field> = fields.iter().filter(|g| under(g, up)).collect();
                assert!(
                    !above.iter().all(|g| alike(g, &fields[like])),
                    "{name}: {} could fold higher",
                    f.path()
                );
            }
            folded += 1;
        }
        for (j, f) in fields.iter().enumerate() {
            let expect = usize::from(lines[j] == Line::Inside);
            let own_fold = matches!(lines[j], Line::Fold { depth, .. } if depth <= f.at.len());
            assert_eq!(
                covered[j] - usize::from(own_fold),
                expect,
                "{name}: {}",
                f.path()
            );
            if !matches!(f.action, Action::Keep | Action::Remove) {
                assert!(matches!(lines[j], Line::Own | Line::Above { .. }), "{name}");
            }
        }
    }
    assert!(folded >= 10, "{folded}");
}

/// The folds of a subtree, as (path, fields, below only), sorted.
fn folds(fields: &[Field]) -> Vec<(String, usize, bool)> {
    let mut out: Vec<(String, usize, bool)> = lines(fields)
        .iter()
        .zip(fields)
        .filter_map(|(line, f)| match *line {
            Line::Fold { depth, count } => Some((
                crate::engine::ssa::path::path_string(fold_path(f, depth)),
                count,
                false,
            )),
            Line::Above { count, .. } => Some((f.path(), count, true)),
            Line::Own | Line::Inside => None,
        })
        .collect();
    out.sort();
    out
}

/// Fields in another order than the plan's walk (here reversed) are sorted into one:
/// the same folds.
#[test]
fn fields_out_of_the_walks_order_fold_alike() {
    for (name, plan) in plans() {
        // The plan's own order is a walk's: read as it is, not sorted.
        let walked: Vec<usize> = (0..plan.fields.len()).collect();
        let mut owns = vec![false; plan.fields.len()];
        assert!(tree(&plan.fields, &walked, &mut owns).is_some(), "{name}");
        let reversed: Vec<Field> = plan.fields.iter().rev().cloned().collect();
        assert_eq!(folds(&reversed), folds(&plan.fields), "{name}");
    }
}

/// The lines of `-o text` that show fields (one or a fold of them).
fn field_lines(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            ["keep ", "remove ", "set ", "add ", "conflict "]
                .iter()
                .any(|a| l.starts_with(a))
        })
        .count()
}

/// `-o text` of a migration: the env lists and resources of unchanged containers are one
/// line each, the changed images and pruned defaults keep theirs.
#[test]
fn a_migration_reads_in_folds() {
    let plan = migrated(9);
    let text = super::super::text::text(&plan, false);
    assert!(text.contains("fields on "), "{text}");
    let line = |needle: &str| text.lines().filter(|l| l.contains(needle)).count();
    assert_eq!(line(".env  [24 fields below, alike]"), 9, "{text}");
    assert_eq!(line(".resources.limits.cpu"), 9, "{text}");
    assert_eq!(line(".env[name="), 0, "{text}");
    assert_eq!(line(".imagePullPolicy  \"IfNotPresent\" → -"), 9, "{text}");
    assert!(line("conflict .spec.template.spec.containers[name=\"c3\"].image") == 1);
    let field_lines = field_lines(&text);
    assert!(field_lines < plan.fields.len() / 2, "{field_lines} {text}");
    assert!(text.contains(&format!(
        "{} fields on {field_lines} lines",
        plan.fields.len()
    )));
}

/// `-o markdown` folds as `-o text` does: a row per line of the text, the header counting
/// them, the env lists one row each, the conflict its own row with its values.
#[test]
fn a_migrations_markdown_has_a_row_per_line_of_its_text() {
    let plan = migrated(9);
    let mut md = String::new();
    super::super::markdown::fields(&mut md, &plan, false);
    let text = super::super::text::text(&plan, false);
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| action |"))
        .collect();
    let field_lines = field_lines(&text);
    assert_eq!(rows.len(), field_lines, "{md}");
    assert!(rows.len() < plan.fields.len() / 2, "{md}");
    assert!(
        md.contains(&format!(
            "{} fields on {} rows",
            plan.fields.len(),
            rows.len()
        )),
        "{md}"
    );
    let count = |needle: &str| rows.iter().filter(|r| r.contains(needle)).count();
    assert_eq!(count(".env` (24 fields below, alike) | … |"), 9, "{md}");
    assert_eq!(count(".env[name="), 0, "{md}");
    assert_eq!(
        count("| conflict | `.spec.template.spec.containers[name=\"c3\"].image` | `"),
        1,
        "{md}"
    );
}
