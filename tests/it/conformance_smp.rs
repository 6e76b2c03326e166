//! kubernetes/apimachinery's own strategic-merge-patch vectors (`../shared/conformance`), with
//! exactly the assertions its README gives, for the OpenAPI v2 and v3 forms of the test schema.

use applyscope::engine::schema::{Meta, Schema};
use applyscope::engine::smp;
use applyscope::value::Value;
use pretty_assertions::assert_eq;

use crate::support::{cases, read_json, shared_or_skip};

/// The test schemas in both OpenAPI forms.
struct Schemas {
    forms: Vec<(&'static str, Schema, Schema)>,
}

impl Schemas {
    fn load(dir: &std::path::Path) -> Schemas {
        let schema = |f: &str| {
            Schema::from_openapi(&read_json(&dir.join("schema").join(f)))
                .unwrap_or_else(|e| panic!("{f}: {e}"))
        };
        Schemas {
            forms: vec![
                (
                    "v2",
                    schema("swagger-merge-item.strict.json"),
                    schema("swagger-precision-item.json"),
                ),
                (
                    "v3",
                    schema("swagger-merge-item-v3.json"),
                    schema("swagger-precision-item-v3.json"),
                ),
            ],
        }
    }

    /// Run `f` once per form with the case's root type.
    fn each(&self, case: &Value, mut f: impl FnMut(&str, Meta<'_>)) {
        for (form, merge, precision) in &self.forms {
            let meta = match case["schema"].as_str() {
                Some("precisionItem") => precision.root("precisionItem"),
                _ => merge.root("mergeItem"),
            };
            f(form, meta.expect("root type"));
        }
    }
}

fn input(case: &Value, field: &str) -> Value {
    // A missing input is absent, which the reference treats like `{}`.
    case.get(field)
        .cloned()
        .unwrap_or(Value::Object(applyscope::value::Map::new()))
}

fn id(case: &Value) -> &str {
    case["id"].as_str().unwrap_or("?")
}

#[test]
fn smp_two_way() {
    let Some(dir) = shared_or_skip("conformance", "smp_two_way") else {
        return;
    };
    let schemas = Schemas::load(&dir);
    let mut ran = 0;
    for case in cases(&dir, "smp-two-way.json") {
        schemas.each(&case, |form, meta| {
            let (original, modified) = (input(&case, "original"), input(&case, "modified"));
            let p = smp::diff2(&original, &modified, meta)
                .unwrap_or_else(|e| panic!("{form} {}: diff2: {e}", id(&case)));
            assert_eq!(p, case["twoWay"], "{form} {}: patch", id(&case));
            let result = smp::apply(original, p, meta)
                .unwrap_or_else(|e| panic!("{form} {}: apply: {e}", id(&case)));
            let expected = case.get("twoWayResult").unwrap_or(&modified);
            assert_eq!(&result, expected, "{form} {}: result", id(&case));
        });
        ran += 1;
    }
    eprintln!("smp_two_way: {ran} cases x 2 schema forms");
}

#[test]
fn smp_three_way() {
    let Some(dir) = shared_or_skip("conformance", "smp_three_way") else {
        return;
    };
    let schemas = Schemas::load(&dir);
    let mut ran = 0;
    for case in cases(&dir, "smp-three-way.json") {
        schemas.each(&case, |form, meta| {
            let (o, m, c) = (
                input(&case, "original"),
                input(&case, "modified"),
                input(&case, "current"),
            );
            let id = id(&case);
            let strict = smp::diff3(&o, &m, &c, meta, false);
            let p = if case["expectConflict"] == Value::Bool(true) {
                let err = strict.expect_err(&format!("{form} {id}: expected a conflict"));
                assert!(err.is_conflict(), "{form} {id}: not a conflict: {err}");
                assert!(err.to_string().contains("conflict"), "{form} {id}: {err}");
                smp::diff3(&o, &m, &c, meta, true)
                    .unwrap_or_else(|e| panic!("{form} {id}: overwrite: {e}"))
            } else {
                strict.unwrap_or_else(|e| panic!("{form} {id}: diff3: {e}"))
            };
            assert_eq!(p, case["threeWay"], "{form} {id}: patch");
            let result =
                smp::apply(c, p, meta).unwrap_or_else(|e| panic!("{form} {id}: apply: {e}"));
            assert_eq!(result, case["result"], "{form} {id}: result");
        });
        ran += 1;
    }
    eprintln!("smp_three_way: {ran} cases x 2 schema forms");
}

#[test]
fn smp_apply() {
    let Some(dir) = shared_or_skip("conformance", "smp_apply") else {
        return;
    };
    let schemas = Schemas::load(&dir);
    for case in cases(&dir, "smp-apply.json") {
        schemas.each(&case, |form, meta| {
            let id = id(&case);
            let got = smp::apply(input(&case, "original"), input(&case, "patch"), meta);
            match case.get("expectedError").and_then(Value::as_str) {
                Some(message) => {
                    let err = got.expect_err(&format!("{form} {id}: expected an error"));
                    assert!(err.to_string().contains(message), "{form} {id}: {err}");
                }
                None => {
                    let got = got.unwrap_or_else(|e| panic!("{form} {id}: {e}"));
                    assert_eq!(got, case["expected"], "{form} {id}");
                }
            }
        });
    }
}

#[test]
fn smp_apply_errors() {
    let Some(dir) = shared_or_skip("conformance", "smp_apply_errors") else {
        return;
    };
    let schemas = Schemas::load(&dir);
    for case in cases(&dir, "smp-apply-errors.json") {
        schemas.each(&case, |form, meta| {
            let original = case["originalText"].as_str().unwrap_or_default();
            let patch = case["patchText"].as_str().unwrap_or_default();
            let err = smp::apply_text(original, patch, meta)
                .expect_err(&format!("{form} {}: expected an error", id(&case)));
            assert_eq!(
                err.to_string(),
                case["expectedErrorExact"].as_str().unwrap_or_default()
            );
        });
    }
}

#[test]
fn smp_number_precision() {
    let Some(dir) = shared_or_skip("conformance", "smp_number_precision") else {
        return;
    };
    let schemas = Schemas::load(&dir);
    for case in cases(&dir, "smp-number-precision.json") {
        schemas.each(&case, |form, meta| {
            let id = id(&case);
            let text = &case["exactText"];
            let original = smp::parse_json(text["original"].as_str().unwrap_or_default()).unwrap();
            let modified = smp::parse_json(text["modified"].as_str().unwrap_or_default()).unwrap();
            let p = smp::diff2(&original, &modified, meta).unwrap();
            assert_eq!(p, case["twoWay"], "{form} {id}: patch");
            let p_text = applyscope::engine::gojson::to_string(&p).unwrap();
            assert_eq!(
                p_text,
                text["twoWay"].as_str().unwrap_or_default(),
                "{form} {id}: bytes"
            );
            let result =
                smp::apply_text(text["original"].as_str().unwrap_or_default(), &p_text, meta)
                    .unwrap();
            assert_eq!(
                result,
                text["twoWayResult"].as_str().unwrap_or_default(),
                "{form} {id}: result bytes"
            );
        });
    }
}

#[test]
fn smp_unknown_fields() {
    let Some(dir) = shared_or_skip("conformance", "smp_unknown_fields") else {
        return;
    };
    let schemas = Schemas::load(&dir);
    for case in cases(&dir, "smp-unknown-fields.json") {
        schemas.each(&case, |form, meta| {
            let id = id(&case);
            let (o, m, c) = (
                input(&case, "original"),
                input(&case, "modified"),
                input(&case, "current"),
            );
            match smp::diff2(&o, &m, meta) {
                Err(e) => {
                    let want = case["twoWayError"]
                        .as_str()
                        .unwrap_or_else(|| panic!("{form} {id}: unexpected error {e}"));
                    assert!(e.to_string().contains(want), "{form} {id}: {e}");
                }
                Ok(p) => {
                    assert_eq!(p, case["twoWay"], "{form} {id}: two-way patch");
                    let r = smp::apply(o.clone(), p, meta).unwrap();
                    assert_eq!(r, case["twoWayResult"], "{form} {id}: two-way result");
                }
            }
            match smp::diff3(&o, &m, &c, meta, false) {
                Err(e) => {
                    let want = case["threeWayError"]
                        .as_str()
                        .unwrap_or_else(|| panic!("{form} {id}: unexpected error {e}"));
                    assert!(e.to_string().contains(want), "{form} {id}: {e}");
                }
                Ok(p) => {
                    assert_eq!(p, case["threeWay"], "{form} {id}: three-way patch");
                    let r = smp::apply(c.clone(), p, meta).unwrap();
                    assert_eq!(r, case["threeWayResult"], "{form} {id}: three-way result");
                }
            }
        });
    }
}

#[test]
fn smp_sort_normalization() {
    let Some(dir) = shared_or_skip("conformance", "smp_sort_normalization") else {
        return;
    };
    let schemas = Schemas::load(&dir);
    for case in cases(&dir, "smp-sort-normalization.json") {
        schemas.each(&case, |form, meta| {
            let got = smp::sort_merge_lists_by_name(&input(&case, "original"), meta)
                .unwrap_or_else(|e| panic!("{form} {}: {e}", id(&case)));
            assert_eq!(got, case["sorted"], "{form} {}", id(&case));
        });
    }
}
