//! Conformance: JSON merge patch (three-way, null filter, conflicts), Go number text, and the
//! RFC 6902 JSON Patch suite, against the vectors in `../shared/conformance` (see its README
//! for what each file asserts).
//!
//! JSON equality is `applyscope::value::Value`'s `==`: object key order does not matter, list order
//! does, and integers and floats stay apart (`0 != 0.0`), as Go's `reflect.DeepEqual` on
//! decoded values.

use std::path::Path;

use applyscope::engine::gojson;
use applyscope::engine::jsonmerge::{
    apply_merge_patch, create_three_way_json_merge_patch, has_conflicts, keep_or_delete_null_in_obj,
};
use applyscope::engine::jsonpatch::apply_json_patch;
use applyscope::value::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/conformance");

/// The parsed file, or `None` (after saying so) when the conformance directory is absent.
fn load(test: &str, file: &str) -> Option<Value> {
    if !Path::new(DIR).is_dir() {
        eprintln!("SKIPPED: {test}: ../shared/conformance not present");
        return None;
    }
    let path = Path::new(DIR).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// `cases` and `count` of a `{"count": N, "cases": [...]}` file.
fn cases(file: &Value) -> (&[Value], usize) {
    let (Some(cases), Some(count)) = (file["cases"].as_array(), file["count"].as_u64()) else {
        panic!("not a {{\"count\", \"cases\"}} file");
    };
    let Ok(count) = usize::try_from(count) else {
        panic!("count {count} does not fit usize");
    };
    (cases, count)
}

fn field<'a>(case: &'a Value, name: &str) -> &'a Value {
    case.get(name).unwrap_or(&Value::Null)
}

fn report(test: &str, ran: usize, expected: usize, failures: &[String]) {
    eprintln!("{test}: ran {ran} cases, {} failed", failures.len());
    assert!(failures.is_empty(), "{test}:\n{}", failures.join("\n"));
    assert_eq!(
        ran, expected,
        "{test}: ran {ran} cases, the file says {expected}"
    );
}

#[test]
fn jsonmerge_three_way() {
    let test = "jsonmerge_three_way";
    let Some(file) = load(test, "jsonmerge-three-way.json") else {
        return;
    };
    let (cases, count) = cases(&file);
    let mut failures = Vec::new();
    for case in cases {
        let id = &case["id"];
        let current = field(case, "current");
        let patch = create_three_way_json_merge_patch(
            field(case, "original"),
            field(case, "modified"),
            current,
            &[],
        );
        let patch = match patch {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{id}: error {e}"));
                continue;
            }
        };
        if patch != case["threeWay"] {
            failures.push(format!("{id}: patch {patch}, want {}", case["threeWay"]));
        }
        let base = if current.is_null() {
            applyscope::json!({})
        } else {
            current.clone()
        };
        match apply_merge_patch(&base, &patch) {
            Ok(result) if result == case["result"] => {}
            Ok(result) => failures.push(format!("{id}: result {result}, want {}", case["result"])),
            Err(e) => failures.push(format!("{id}: apply error {e}")),
        }
    }
    report(test, cases.len(), count, &failures);
}

#[test]
fn jsonmerge_filter_null() {
    let test = "jsonmerge_filter_null";
    let Some(file) = load(test, "jsonmerge-filter-null.json") else {
        return;
    };
    let (cases, count) = cases(&file);
    let mut failures = Vec::new();
    for case in cases {
        let id = &case["id"];
        let obj = case["originalObj"]
            .as_object()
            .expect("originalObj is an object");
        for (keep_null, want) in [(true, "expectedWithNull"), (false, "expectedWithoutNull")] {
            match keep_or_delete_null_in_obj(obj, keep_null) {
                Ok(got) if Value::Object(got.clone()) == case[want] => {}
                Ok(got) => failures.push(format!("{id}: {want}: got {}", Value::Object(got))),
                Err(e) => failures.push(format!("{id}: {want}: error {e}")),
            }
        }
    }
    report(test, cases.len(), count, &failures);
}

#[test]
fn mergepatch_has_conflicts() {
    let test = "mergepatch_has_conflicts";
    let Some(file) = load(test, "mergepatch-has-conflicts.json") else {
        return;
    };
    let (cases, count) = cases(&file);
    let mut failures = Vec::new();
    for case in cases {
        let (a, b, want) = (
            field(case, "a"),
            field(case, "b"),
            case["conflict"].as_bool(),
        );
        for (left, right) in [(a, b), (b, a)] {
            let got = has_conflicts(left, right).ok();
            if got != want {
                failures.push(format!(
                    "{}: HasConflicts({left}, {right}) = {got:?}",
                    case["id"]
                ));
            }
        }
    }
    report(test, cases.len(), count, &failures);
}

#[test]
fn smp_number_precision_exact_text_round_trips() {
    let test = "smp_number_precision_exact_text_round_trips";
    let Some(file) = load(test, "smp-number-precision.json") else {
        return;
    };
    let (cases, count) = cases(&file);
    let mut failures = Vec::new();
    for case in cases {
        let texts = case["exactText"].as_object().expect("exactText");
        for (name, text) in texts {
            let text = text.as_str().expect("exactText values are strings");
            let parsed: Value = serde_json::from_str(text).expect("exactText parses");
            match gojson::to_string(&parsed) {
                Ok(written) if written == text => {}
                other => failures.push(format!("{}: {name}: {other:?}, want {text}", case["id"])),
            }
        }
    }
    report(test, cases.len(), count, &failures);
}

/// Runs one json-patch-tests file; returns (records, records run).
fn json_patch_suite(test: &str, file: &str, failures: &mut Vec<String>) -> Option<(usize, usize)> {
    let records = load(test, file)?;
    let Some(records) = records.as_array() else {
        panic!("{file}: not a list of records");
    };
    let mut ran = 0;
    for (i, record) in records.iter().enumerate() {
        if record["disabled"].as_bool() == Some(true) {
            continue;
        }
        let Some(patch) = record.get("patch") else {
            continue;
        }; // a comment-only record
        ran += 1;
        let name = record
            .get("comment")
            .map_or_else(|| format!("#{i}"), |c| format!("#{i} {c}"));
        let result = apply_json_patch(field(record, "doc"), patch);
        match (record.get("expected"), record.get("error"), result) {
            (Some(want), _, Ok(got)) if got == *want => {}
            (Some(want), _, got) => {
                failures.push(format!("{file} {name}: got {got:?}, want {want}"))
            }
            (None, Some(_), Err(_)) | (None, None, _) => {}
            (None, Some(error), Ok(got)) => {
                failures.push(format!("{file} {name}: got {got}, want error {error}"));
            }
        }
    }
    Some((records.len(), ran))
}

#[test]
fn json_patch_tests() {
    let test = "json_patch_tests";
    let mut failures = Vec::new();
    let Some((records, ran)) = json_patch_suite(test, "json-patch-tests/tests.json", &mut failures)
    else {
        return;
    };
    assert_eq!(records, 95, "README: tests.json has 95 records");
    report(test, ran, 95 - 3, &failures);
}

#[test]
fn json_patch_spec_tests() {
    let test = "json_patch_spec_tests";
    let mut failures = Vec::new();
    let Some((records, ran)) =
        json_patch_suite(test, "json-patch-tests/spec_tests.json", &mut failures)
    else {
        return;
    };
    assert_eq!(records, 17, "README: spec_tests.json has 17 records");
    report(test, ran, 17 - 1, &failures);
}
