//! Conformance of the server-side apply engine with the reference's own test tables
//! (`../shared/ssa/vectors`, or `$APPLYSCOPE_SSA_VECTORS`): every file is replayed by its
//! `harness`, and the last line printed is `ssa vectors: P/N`.
//!
//! Cases that do not pass yet are listed in [`KNOWN_FAILURES`], which the test checks exactly:
//! a listed case that passes fails the test (remove it from the list), as does an unlisted
//! failure.

mod fieldsv1;
mod kube;
mod ops;
mod typed;

use std::collections::HashMap;
use std::path::PathBuf;

use applyscope::engine::ssa::schema::{Schema, TypeRef};
use applyscope::engine::ssa::{self, PathElement, Set, path::path_string};
use applyscope::value::Value;

/// Case ids that fail today (checked exactly).
const KNOWN_FAILURES: &[&str] = &[];

/// The vector files and the harness each is replayed with.
const FILES: &[(&str, Harness)] = &[
    ("smd-ops.json", ops::ops),
    ("smd-typed-merge.json", typed::merge),
    ("smd-typed-toset.json", typed::toset),
    ("smd-typed-compare.json", typed::compare),
    ("smd-typed-remove.json", typed::remove),
    ("fieldsv1-encoding.json", fieldsv1::encoding),
    ("lastapplied-conflicts.json", kube::lastapplied),
    ("csaupgrade.json", kube::csaupgrade),
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
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        println!("ssa vectors: 0/0");
        panic!("reading {}: {e}", dir.display())
    });
    let mut names: Vec<String> = entries
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
        if ssa::fieldsv1::to_json(got) != text {
            return Err(format!(
                "{what}: FieldsV1 {} != {text}",
                ssa::fieldsv1::to_json(got)
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

/// The last-applied vectors again, with the schema read straight from the Kubernetes OpenAPI
/// v2 document (`../shared/k8s-openapi/swagger.json`) instead of the embedded table.
#[test]
fn ssa_vectors_with_the_openapi_document() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    let (swagger, vectors) = (
        root.join("k8s-openapi/swagger.json"),
        vectors_dir().join("lastapplied-conflicts.json"),
    );
    if !swagger.exists() || !vectors.exists() {
        println!("SKIPPED: ssa_vectors_with_the_openapi_document");
        return;
    }
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(swagger).unwrap()).unwrap();
    let schema = ssa::openapi::from_openapi(&doc).unwrap();
    let (mut atomic, mut keyed, mut sets) = (0, 0, 0);
    for name in doc["definitions"].as_object().unwrap().keys() {
        let fields = schema
            .schema
            .named(name)
            .and_then(|tr| schema.schema.resolve(tr))
            .and_then(|r| r.map())
            .map(|m| m.map.fields.clone())
            .unwrap_or_default();
        for f in fields {
            let Some(r) = schema.schema.resolve(f.ty) else {
                continue;
            };
            match r.list().filter(|_| r.scalar().is_none()) {
                Some(l) if l.rel == ssa::schema::Relationship::Atomic => atomic += 1,
                Some(l) if l.keys.is_empty() => sets += 1,
                Some(_) => keyed += 1,
                None => {}
            }
        }
    }
    assert_eq!(
        (atomic, keyed, sets),
        (308 + 89, 80, 18),
        "OPENAPI.md's counts"
    );
    let types = |v: &str, k: &str| schema.root_for_gvk(v, k);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(vectors).unwrap()).unwrap();
    let failed: Vec<String> = cases(&doc, "cases")
        .iter()
        .filter_map(|c| {
            kube::lastapplied_case(c, &schema.schema, &types)
                .err()
                .map(|e| format!("{}: {e}", c["id"]))
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}
