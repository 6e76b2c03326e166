//! Conformance of the server-side apply engine with the reference's own test tables
//! (`../shared/ssa/vectors`, or `$APPLYSCOPE_SSA_VECTORS`): every file is replayed by its
//! `harness`, and the last line printed is `ssa vectors: P/N`.
//!
//! Cases that do not pass yet are listed in [`KNOWN_FAILURES`], which the test checks exactly:
//! a listed case that passes fails the test (remove it from the list), as does an unlisted
//! failure.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use applyscope::engine::ssa::path::PathElementError;
use applyscope::engine::ssa::schema::{Schema, TypeRef};
use applyscope::engine::ssa::typed::{self, Comparison};
use applyscope::engine::ssa::{
    self, ManagedFields, PathElement, Set, UpdateError, Updater, VersionedSet, fieldsv1,
    path::path_string,
};
use applyscope::engine::ssa::{
    managed::ManagerId,
    request::{Request, RequestError},
};
use applyscope::value::Value;

/// Case ids that fail today (checked exactly).
const KNOWN_FAILURES: &[&str] = &[];

/// The vector files and the harness each is replayed with.
const FILES: &[(&str, Harness)] = &[
    ("smd-ops.json", ops),
    ("smd-typed-merge.json", typed_merge),
    ("smd-typed-toset.json", typed_toset),
    ("smd-typed-compare.json", typed_compare),
    ("smd-typed-remove.json", typed_remove),
    ("fieldsv1-encoding.json", fieldsv1_encoding),
    ("lastapplied-conflicts.json", lastapplied),
    ("csaupgrade.json", csaupgrade),
];

type Outcome = Result<(), String>;
type Harness = fn(&Value) -> Vec<(String, Outcome)>;

fn vectors_dir() -> PathBuf {
    match std::env::var_os("APPLYSCOPE_SSA_VECTORS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/ssa/vectors"),
    }
}

#[test]
fn ssa_vectors() {
    let dir = vectors_dir();
    if std::env::var_os("APPLYSCOPE_SSA_VECTORS").is_none() && !dir.exists() {
        println!("SKIPPED: ssa_vectors");
        return;
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let mut problems = Vec::new();
    for (file, _) in FILES {
        if !names.iter().any(|n| n == file) {
            problems.push(format!("{file}: missing from {}", dir.display()));
        }
    }
    let (mut passed, mut total) = (0, 0);
    let mut failed: Vec<(String, String)> = Vec::new();
    for name in &names {
        let Some((_, harness)) = FILES.iter().find(|(f, _)| f == name) else {
            problems.push(format!("{name}: no harness for this file"));
            continue;
        };
        let path = dir.join(name);
        let doc: Value = match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(doc) => doc,
            Err(e) => {
                problems.push(format!("{name}: unreadable: {e}"));
                continue;
            }
        };
        let results = harness(&doc);
        let ok = results.iter().filter(|(_, r)| r.is_ok()).count();
        println!("{name}: {ok}/{}", results.len());
        passed += ok;
        total += results.len();
        for (id, r) in results {
            if let Err(e) = r {
                failed.push((id, e));
            }
        }
    }
    let known: Vec<&str> = KNOWN_FAILURES.to_vec();
    for (id, why) in &failed {
        if !known.contains(&id.as_str()) {
            problems.push(format!("FAIL {id}: {why}"));
        }
    }
    for id in &known {
        if !failed.iter().any(|(f, _)| f == id) {
            problems.push(format!("{id}: passes now; remove it from KNOWN_FAILURES"));
        }
    }
    if std::env::var_os("SSA_VECTORS_LIST_FAILURES").is_some() {
        for (id, _) in &failed {
            println!("    {id:?},");
        }
    }
    for p in &problems {
        println!("{p}");
    }
    println!("ssa vectors: {passed}/{total}");
    assert!(
        problems.is_empty(),
        "{} problems (see above)",
        problems.len()
    );
}

// ---- helpers ----

fn id_of(case: &Value) -> String {
    case["id"].as_str().unwrap_or("?").to_owned()
}

fn cases<'a>(doc: &'a Value, key: &str) -> &'a [Value] {
    doc.get(key)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

fn run(case: &Value, f: impl FnOnce() -> Outcome) -> (String, Outcome) {
    (id_of(case), f())
}

/// A schema from SMD `types:` YAML, cached by text.
struct Schemas(HashMap<String, Schema>);

impl Schemas {
    fn of_yaml(&mut self, yaml: &str) -> Result<&Schema, String> {
        if !self.0.contains_key(yaml) {
            let docs =
                applyscope::document::parse_documents(yaml, "schema").map_err(|e| e.to_string())?;
            let doc = docs.first().ok_or("empty schema")?;
            let schema = Schema::from_smd_types(&doc.value["types"]).map_err(|e| e.to_string())?;
            self.0.insert(yaml.to_owned(), schema);
        }
        Ok(&self.0[yaml])
    }
}

fn root(schema: &Schema, name: &str) -> Result<TypeRef, String> {
    schema.named(name).ok_or(format!("no type {name}"))
}

/// A set from the vectors' `paths` (lists of FieldsV1 keys).
fn set_of(v: &Value) -> Result<Set, String> {
    let mut set = Set::new();
    for p in v["paths"].as_array().ok_or("no paths")? {
        let path: Vec<PathElement> = p
            .as_array()
            .ok_or("bad path")?
            .iter()
            .map(|k| PathElement::from_fields_key(k.as_str().unwrap_or("")))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        set.insert(&path);
    }
    Ok(set)
}

/// The set must have the expected paths and be written as the expected FieldsV1.
fn check_set(what: &str, got: &Set, want: &Value) -> Outcome {
    let expected = set_of(want)?;
    if *got != expected {
        return Err(format!(
            "{what}: got {:?}, want {:?}",
            show(got),
            show(&expected)
        ));
    }
    if let Some(fields) = want.get("fieldsV1") {
        let text = applyscope::engine::gojson::to_string_in_order(fields).unwrap();
        if fieldsv1::to_json(got) != text {
            return Err(format!(
                "{what}: FieldsV1 {} != {text}",
                fieldsv1::to_json(got)
            ));
        }
    }
    Ok(())
}

fn show(s: &Set) -> Vec<String> {
    s.paths().iter().map(|p| path_string(p)).collect()
}

/// Equal as the reference compares objects; a null object is the empty object.
fn same_object(got: &Value, want: &Value) -> bool {
    let empty = |v: &Value| v.is_null() || v.as_object().is_some_and(|m| m.is_empty());
    (empty(got) && empty(want)) || ssa::order::equals(got, want)
}

// ---- typed ----

fn typed_merge(doc: &Value) -> Vec<(String, Outcome)> {
    let mut schemas = Schemas(HashMap::new());
    cases(doc, "cases")
        .iter()
        .map(|c| {
            run(c, || {
                let schema = schemas.of_yaml(c["schema"]["yaml"].as_str().unwrap_or(""))?;
                let tr = root(schema, c["schema"]["rootType"].as_str().unwrap_or(""))?;
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

fn typed_toset(doc: &Value) -> Vec<(String, Outcome)> {
    let mut schemas = Schemas(HashMap::new());
    cases(doc, "cases")
        .iter()
        .map(|c| {
            run(c, || {
                let schema = schemas.of_yaml(c["schema"]["yaml"].as_str().unwrap_or(""))?;
                let tr = root(schema, c["schema"]["rootType"].as_str().unwrap_or(""))?;
                let set =
                    typed::to_field_set(schema, tr, &c["object"]).map_err(|e| e.to_string())?;
                check_set("set", &set, &c["set"])
            })
        })
        .collect()
}

fn typed_compare(doc: &Value) -> Vec<(String, Outcome)> {
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

fn typed_remove(doc: &Value) -> Vec<(String, Outcome)> {
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

// ---- FieldsV1 ----

fn fieldsv1_encoding(doc: &Value) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for c in cases(doc, "setGolden") {
        out.push(run(c, || {
            let text = c["json"].as_str().unwrap_or("");
            let set = fieldsv1::from_json(text).map_err(|e| e.to_string())?;
            let back = fieldsv1::to_json(&set);
            if back == text {
                Ok(())
            } else {
                Err(format!("wrote {back}"))
            }
        }));
    }
    for c in cases(doc, "nonNormalized") {
        out.push(run(c, || {
            let set = fieldsv1::from_json(c["input"].as_str().unwrap_or(""))
                .map_err(|e| e.to_string())?;
            let back = fieldsv1::to_json(&set);
            let want = c["normalized"].as_str().unwrap_or("");
            if back == want {
                Ok(())
            } else {
                Err(format!("wrote {back}"))
            }
        }));
    }
    for c in cases(doc, "pathElementRoundTrip") {
        out.push(run(c, || {
            let s = c["string"].as_str().unwrap_or("");
            let pe = PathElement::from_fields_key(s).map_err(|e| e.to_string())?;
            let want = match c["kind"].as_str() {
                Some("f") => PathElement::field(c["value"].as_str().unwrap_or("")),
                Some("v") => PathElement::Value(c["value"].clone()),
                Some("i") => PathElement::Index(c["value"].as_i64().unwrap_or(-1)),
                Some("k") => PathElement::key(
                    c["value"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|kv| (kv[0].as_str().unwrap_or("").into(), kv[1].clone()))
                        .collect(),
                ),
                k => return Err(format!("unknown kind {k:?}")),
            };
            if pe != want
                || !ssa::order::equals(&Value::from(pe.to_string()), &Value::from(want.to_string()))
            {
                return Err(format!("read {pe:?}, want {want:?}"));
            }
            let back = pe.to_fields_key();
            if back == s {
                Ok(())
            } else {
                Err(format!("wrote {back}"))
            }
        }));
    }
    for c in cases(doc, "pathElementErrors") {
        out.push(run(c, || {
            match PathElement::from_fields_key(c["string"].as_str().unwrap_or("")) {
                Err(PathElementError::Invalid(_)) => Ok(()),
                other => Err(format!("accepted: {other:?}")),
            }
        }));
    }
    for c in cases(doc, "pathElementIgnoredKinds") {
        let s = c["string"].as_str().unwrap_or("");
        let outcome = match PathElement::from_fields_key(s) {
            Err(PathElementError::Unknown) => {
                let text = format!("{{\"f:a\":{{}},{}:{{}}}}", Value::from(s));
                match fieldsv1::from_json(&text).map(|set| fieldsv1::to_json(&set)) {
                    Ok(back) if back == "{\"f:a\":{}}" => Ok(()),
                    other => Err(format!("set read as {other:?}")),
                }
            }
            other => Err(format!("read as {other:?}")),
        };
        out.push((format!("pathElementIgnoredKinds/{s}"), outcome));
    }
    out
}

// ---- operations ----

fn ops(doc: &Value) -> Vec<(String, Outcome)> {
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

// ---- Kubernetes ----

const NOW: &str = "2026-11-25T00:00:00Z";

fn kube_types(api_version: &str, kind: &str) -> Option<TypeRef> {
    ssa::kubernetes::embedded().root_for_gvk(api_version, kind)
}

fn lastapplied(doc: &Value) -> Vec<(String, Outcome)> {
    cases(doc, "cases")
        .iter()
        .map(|c| run(c, || lastapplied_case(c)))
        .collect()
}

fn lastapplied_case(c: &Value) -> Outcome {
    let kube = ssa::kubernetes::embedded();
    let version = c["apiVersion"].as_str().unwrap_or("");
    let kind = c["kind"].as_str().unwrap_or("");
    let root = kube
        .root_for_gvk(version, kind)
        .ok_or(format!("no type for {version} {kind}"))?;
    let req = Request {
        schema: &kube.schema,
        root,
        api_version: version,
        types: &kube_types,
        ignored: None,
        time: NOW,
    };
    let mut original = c["original"].clone();
    let annotation = c["lastAppliedAnnotation"].clone();
    let meta = original
        .as_object_mut()
        .unwrap()
        .entry("metadata")
        .or_insert_with(|| Value::Object(Default::default()));
    meta.as_object_mut()
        .unwrap()
        .entry("annotations")
        .or_insert_with(|| Value::Object(Default::default()))
        .as_object_mut()
        .unwrap()
        .insert(ssa::lastapplied::ANNOTATION, annotation);
    let live = req
        .update(&Value::Null, &original, "test_client_side_apply")
        .map_err(|e| format!("create: {e}"))?;
    let manager = c["fieldManager"].as_str().unwrap_or("");
    let applied = &c["applied"];
    let result = req.apply(&live, applied, manager, false);
    let live = match (&c["expectConflicts"], result) {
        (Value::Null, Ok(live)) => live,
        (Value::Null, Err(e)) => return Err(format!("apply failed: {e}")),
        (want, Err(RequestError::Conflicts(got))) => {
            let mut got_list: Vec<(String, String)> = got
                .0
                .iter()
                .map(|c| (c.manager.manager.clone(), path_string(&c.path)))
                .collect();
            let mut want_list: Vec<(String, String)> = want
                .as_array()
                .into_iter()
                .flatten()
                .map(|w| {
                    (
                        w["manager"].as_str().unwrap_or("").to_owned(),
                        w["pathString"].as_str().unwrap_or("").to_owned(),
                    )
                })
                .collect();
            got_list.sort();
            want_list.sort();
            if got_list != want_list {
                return Err(format!("conflicts {got_list:?}, want {want_list:?}"));
            }
            for g in &got.0 {
                if g.manager != ManagerId::update("test_client_side_apply", version) {
                    return Err(format!("conflict with {}", g.manager));
                }
            }
            req.apply(&live, applied, manager, true)
                .map_err(|e| format!("forced apply failed: {e}"))?
        }
        (want, Ok(_)) => return Err(format!("applied, want conflicts {want}")),
        (_, Err(e)) => return Err(format!("apply failed: {e}")),
    };
    if derivative(applied, &live) {
        Ok(())
    } else {
        Err(format!("live {live} lacks some of {applied}"))
    }
}

/// apimachinery's `semantic.DeepDerivative(a, b)`: every field set in `a` has that value in `b`.
fn derivative(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, _) => true,
        (Value::Object(x), Value::Object(y)) => x
            .iter()
            .all(|(k, v)| y.get(k).is_some_and(|w| derivative(v, w)) || v.is_null()),
        (Value::Object(x), _) => x.is_empty(),
        (Value::Array(x), Value::Array(y)) => {
            x.is_empty() || (x.len() == y.len() && x.iter().zip(y).all(|(v, w)| derivative(v, w)))
        }
        (Value::Array(x), _) => x.is_empty(),
        _ => a == b,
    }
}

fn csaupgrade(doc: &Value) -> Vec<(String, Outcome)> {
    let mut out: Vec<(String, Outcome)> = cases(doc, "upgrade")
        .iter()
        .map(|c| {
            run(c, || {
                let names: Vec<&str> = c["csaManagers"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let ssa_name = c["ssaManager"].as_str().unwrap_or("");
                let sub = c["subresource"].as_str().unwrap_or("");
                let mut reversed = names.clone();
                reversed.reverse();
                for order in [names, reversed] {
                    let mut obj = c["original"].clone();
                    ssa::csaupgrade::upgrade_managed_fields(&mut obj, &order, ssa_name, sub)
                        .map_err(|e| e.to_string())?;
                    if obj != c["expected"] {
                        return Err(format!("with {order:?}: got {obj}, want {}", c["expected"]));
                    }
                }
                Ok(())
            })
        })
        .collect();
    out.extend(cases(doc, "findOwners").iter().map(|c| {
        run(c, || {
            let entries = c["managedFields"].as_array().cloned().unwrap_or_default();
            let fields = set_of(&c["fields"])?;
            let owners: Vec<&str> = ssa::csaupgrade::find_fields_owners(
                &entries,
                c["operation"].as_str().unwrap_or(""),
                &fields,
            )
            .into_iter()
            .map(|e| e["manager"].as_str().unwrap_or(""))
            .collect();
            let want: Vec<&str> = c["expectOwners"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if owners == want {
                Ok(())
            } else {
                Err(format!("owners {owners:?}, want {want:?}"))
            }
        })
    }));
    out
}
