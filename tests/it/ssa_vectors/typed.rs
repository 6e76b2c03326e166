//! `smd-typed-*.json`: `Merge`, `ToFieldSet`, `Compare`, `RemoveItems`/`ExtractItems`.

use std::collections::HashMap;

use applyscope::engine::ssa::typed::{self, Comparison};
use applyscope::value::Value;

use super::{Outcome, Schemas, cases, check_set, root, run, same_object, set_of};

pub(super) fn merge(doc: &Value) -> Vec<(String, Outcome)> {
    let mut schemas = Schemas(HashMap::new());
    cases(doc, "cases")
        .iter()
        .map(|c| {
            run(c, || {
                let schema = schemas.of_yaml(c["schema"]["yaml"].as_str().unwrap_or(""))?;
                let tr = root(schema, c["schema"]["rootType"].as_str().unwrap_or(""))?;
                typed::validate(schema, tr, &c["lhs"], true).map_err(|e| format!("lhs: {e}"))?;
                typed::validate(schema, tr, &c["rhs"], false).map_err(|e| format!("rhs: {e}"))?;
                let out = typed::merge(schema, tr, &c["lhs"], &c["rhs"])
                    .map_err(|e| e.to_string())?
                    .unwrap_or(Value::Null);
                if same_object(&out, &c["out"]) {
                    Ok(())
                } else {
                    Err(format!("got {out}, want {}", c["out"]))
                }
            })
        })
        .collect()
}

pub(super) fn toset(doc: &Value) -> Vec<(String, Outcome)> {
    let mut schemas = Schemas(HashMap::new());
    cases(doc, "cases")
        .iter()
        .map(|c| {
            run(c, || {
                let schema = schemas.of_yaml(c["schema"]["yaml"].as_str().unwrap_or(""))?;
                let tr = root(schema, c["schema"]["rootType"].as_str().unwrap_or(""))?;
                typed::validate(schema, tr, &c["object"], true).map_err(|e| e.to_string())?;
                let set =
                    typed::to_field_set(schema, tr, &c["object"]).map_err(|e| e.to_string())?;
                check_set("set", &set, &c["set"])
            })
        })
        .collect()
}

pub(super) fn compare(doc: &Value) -> Vec<(String, Outcome)> {
    let mut schemas = Schemas(HashMap::new());
    cases(doc, "cases")
        .iter()
        .map(|c| {
            run(c, || {
                let schema = schemas.of_yaml(c["schema"]["yaml"].as_str().unwrap_or(""))?;
                let tr = root(schema, c["schema"]["rootType"].as_str().unwrap_or(""))?;
                let check = |cmp: &Comparison, removed: &str, added: &str| -> Outcome {
                    check_set("removed", &cmp.removed, &c[removed])?;
                    check_set("modified", &cmp.modified, &c["modified"])?;
                    check_set("added", &cmp.added, &c[added])
                };
                for side in ["lhs", "rhs"] {
                    typed::validate(schema, tr, &c[side], true)
                        .map_err(|e| format!("{side}: {e}"))?;
                }
                let cmp =
                    typed::compare(schema, tr, &c["lhs"], &c["rhs"]).map_err(|e| e.to_string())?;
                check(&cmp, "removed", "added")?;
                let rev =
                    typed::compare(schema, tr, &c["rhs"], &c["lhs"]).map_err(|e| e.to_string())?;
                check(&rev, "added", "removed").map_err(|e| format!("reversed: {e}"))
            })
        })
        .collect()
}

pub(super) fn remove(doc: &Value) -> Vec<(String, Outcome)> {
    let mut schemas = Schemas(HashMap::new());
    cases(doc, "cases")
        .iter()
        .map(|c| {
            run(c, || {
                let schema = schemas.of_yaml(c["schema"]["yaml"].as_str().unwrap_or(""))?;
                let tr = root(schema, c["schema"]["rootType"].as_str().unwrap_or(""))?;
                let set = set_of(&c["set"])?;
                for (key, extract) in [("removeOutput", false), ("extractOutput", true)] {
                    let want = &c[key];
                    if want.as_str() == Some("unparseable") {
                        continue;
                    }
                    let got = if extract {
                        typed::extract_items(schema, tr, &c["object"], &set)
                    } else {
                        typed::remove_items(schema, tr, &c["object"], &set)
                    };
                    if !same_object(&got, want) {
                        return Err(format!("{key}: got {got}, want {want}"));
                    }
                }
                Ok(())
            })
        })
        .collect()
}
