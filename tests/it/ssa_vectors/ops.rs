//! `smd-ops.json`: sequences of applies and updates through the updater.

use std::collections::BTreeMap;

use applyscope::engine::ssa::path::path_string;
use applyscope::engine::ssa::schema::Schema;
use applyscope::engine::ssa::typed;
use applyscope::engine::ssa::{
    ManagedFields, PathElement, Set, UpdateError, Updater, VersionedSet,
};
use applyscope::value::Value;

use super::{Outcome, cases, check_set, root, run, same_object, set_of};

pub(super) fn ops(doc: &Value) -> Vec<(String, Outcome)> {
    let mut schemas: BTreeMap<String, (Schema, Option<String>)> = BTreeMap::new();
    for (name, s) in doc["schemas"].as_object().into_iter().flatten() {
        let schema = Schema::from_smd_types(&s["types"]).unwrap();
        schemas.insert(
            name.to_string(),
            (schema, s["rootType"].as_str().map(str::to_owned)),
        );
    }
    cases(doc, "cases")
        .iter()
        .map(|c| run(c, || replay(c, &schemas)))
        .collect()
}

fn replay(c: &Value, schemas: &BTreeMap<String, (Schema, Option<String>)>) -> Outcome {
    let expect_error = c["expect"]["error"].as_bool() == Some(true);
    let result = replay_ops(c, schemas);
    match (result, expect_error) {
        (Err(_), true) => Ok(()),
        (Ok(_), true) => Err("expected some operation to fail".to_owned()),
        (Err(e), false) => Err(e),
        (Ok((live, managers)), false) => check_final(c, &live, &managers),
    }
}

fn replay_ops(
    c: &Value,
    schemas: &BTreeMap<String, (Schema, Option<String>)>,
) -> Result<(Value, ManagedFields), String> {
    let mut schema_name = c["schema"].as_str().unwrap_or("").to_owned();
    let mut ignored: BTreeMap<String, Set> = BTreeMap::new();
    for (version, set) in c["ignore"].as_object().into_iter().flatten() {
        ignored.insert(version.to_string(), set_of(set)?);
    }
    let mut live = Value::Null;
    let mut managers = ManagedFields::new();
    let mut root_name: Option<String> = None;
    for (i, op) in c["ops"].as_array().into_iter().flatten().enumerate() {
        let (schema, schema_root) = schemas.get(&schema_name).ok_or("unknown schema")?;
        let version = op["apiVersion"].as_str().unwrap_or("");
        if op["op"].as_str() != Some("changeSchema") {
            root_name = Some(schema_root.clone().unwrap_or_else(|| version.to_owned()));
        }
        let tr = root(schema, root_name.as_deref().unwrap_or(version))?;
        let mut updater = Updater::new(schema, tr);
        if !ignored.is_empty() {
            updater.ignored = Some(&ignored);
        }
        updater.return_input_on_noop = c["returnInputOnNoop"].as_bool() == Some(true);
        let manager = op["manager"].as_str().unwrap_or("");
        let object = &op["object"];
        let fail = |e: String| format!("op {i} ({}): {e}", op["op"]);
        match op["op"].as_str() {
            Some("apply") => {
                typed::validate(schema, tr, object, false).map_err(|e| fail(e.to_string()))?;
                let force = op["force"].as_bool() == Some(true);
                let expected = op.get("expectConflicts").filter(|v| !v.is_null());
                match updater.apply(&live, object, version, &managers, manager, force) {
                    Ok((new, m)) => {
                        if let Some(want) = expected
                            && !want.as_array().is_some_and(Vec::is_empty)
                        {
                            return Err(fail(format!("expected conflicts {want}")));
                        }
                        if let Some(new) = new {
                            live = new;
                        }
                        managers = m;
                    }
                    Err(UpdateError::Conflicts(got)) if expected.is_some() => {
                        let want = expected
                            .and_then(Value::as_array)
                            .cloned()
                            .unwrap_or_default();
                        let mut got_list: Vec<(String, String)> = got
                            .0
                            .iter()
                            .map(|c| (c.manager.clone(), path_string(&c.path)))
                            .collect();
                        let mut want_list: Vec<(String, String)> = want
                            .iter()
                            .map(|w| {
                                let path: Vec<PathElement> = w["path"]
                                    .as_array()
                                    .into_iter()
                                    .flatten()
                                    .filter_map(|k| PathElement::from_fields_key(k.as_str()?).ok())
                                    .collect();
                                (
                                    w["manager"].as_str().unwrap_or("").to_owned(),
                                    path_string(&path),
                                )
                            })
                            .collect();
                        got_list.sort();
                        got_list.dedup();
                        want_list.sort();
                        want_list.dedup();
                        if got_list != want_list {
                            return Err(fail(format!(
                                "conflicts {got_list:?}, want {want_list:?}"
                            )));
                        }
                        for w in &want {
                            let printed = w["pathString"].as_str().unwrap_or("");
                            if !got.0.iter().any(|c| path_string(&c.path) == printed) {
                                return Err(fail(format!("no conflict printed as {printed}")));
                            }
                        }
                    }
                    Err(e) => return Err(fail(e.to_string())),
                }
            }
            Some("update") => {
                typed::validate(schema, tr, object, true).map_err(|e| fail(e.to_string()))?;
                managers = updater
                    .update(&live, object, version, &managers, manager)
                    .map_err(|e| fail(e.to_string()))?;
                live = object.clone();
            }
            Some("extractApply") => {
                typed::validate(schema, tr, object, false).map_err(|e| fail(e.to_string()))?;
                let set = match managers.get(manager) {
                    Some(vs) if vs.api_version != version => {
                        return Err(fail("apiVersion differs".to_owned()));
                    }
                    Some(vs) => vs.set.leaves(),
                    None => Set::new(),
                };
                let extracted = typed::extract_items(schema, tr, &live, &set);
                let config = typed::merge(schema, tr, &extracted, object)
                    .map_err(|e| fail(e.to_string()))?
                    .unwrap_or(Value::Null);
                let (new, m) = updater
                    .apply(&live, &config, version, &managers, manager, true)
                    .map_err(|e| fail(e.to_string()))?;
                if let Some(new) = new {
                    live = new;
                }
                managers = m;
            }
            Some("changeSchema") => {
                schema_name = op["schema"].as_str().unwrap_or("").to_owned();
                let (schema, schema_root) = schemas.get(&schema_name).ok_or("unknown schema")?;
                if let Some(name) = schema_root {
                    root_name = Some(name.clone());
                }
                let tr = root(schema, root_name.as_deref().unwrap_or(""))?;
                typed::validate(schema, tr, &live, false).map_err(|e| fail(e.to_string()))?;
            }
            other => return Err(format!("unknown op {other:?}")),
        }
    }
    Ok((live, managers))
}

fn check_final(c: &Value, live: &Value, managers: &ManagedFields) -> Outcome {
    let expect = &c["expect"];
    if let Some(want) = expect.get("object")
        && !same_object(live, want)
    {
        return Err(format!("object {live}, want {want}"));
    }
    if let Some(want) = expect.get("managed").and_then(Value::as_object) {
        let got: Vec<&String> = managers.keys().collect();
        let mut names: Vec<String> = want.keys().map(ToString::to_string).collect();
        names.sort();
        if got
            .iter()
            .map(|s| s.as_str())
            .ne(names.iter().map(String::as_str))
        {
            return Err(format!("managers {got:?}, want {names:?}"));
        }
        for (name, w) in want {
            let vs: &VersionedSet = &managers[name.as_str()];
            if Some(vs.api_version.as_str()) != w["apiVersion"].as_str() {
                return Err(format!("{name}: apiVersion {}", vs.api_version));
            }
            check_set(name, &vs.set, w)?;
        }
    }
    if let Some((name, _)) = managers.iter().find(|(_, vs)| vs.set.is_empty()) {
        return Err(format!("{name} has an empty set"));
    }
    Ok(())
}
