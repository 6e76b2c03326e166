//! The embedded patch-metadata table (`assets/schema/k8s-1.36.json`) against its sources in
//! `../shared/k8s-openapi`: it agrees with `patch-meta.json` entry by entry, and regenerating it
//! from `swagger.json` gives the same bytes. Also loads the conformance test schemas from
//! `../shared/conformance/schema`. Each test prints `SKIPPED: ...` when its folder is absent.

use std::collections::BTreeSet;
use std::path::PathBuf;

use applyscope::engine::schema::{Kind, PatchMeta, Schema, Strategies};
use applyscope::value::Value;

const ASSET: &str = "assets/schema/k8s-1.36.json";

/// `../shared/<sub>`, or `None` after saying so on stderr.
fn shared(sub: &str, test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared")).join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED: {test}: ../shared/{sub} not present");
        None
    }
}

fn read_json(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn embedded_matches_patch_meta() {
    let Some(dir) = shared(
        "k8s-openapi",
        "schema_embedded::embedded_matches_patch_meta",
    ) else {
        return;
    };
    let expected = read_json(dir.join("patch-meta.json"));
    let expected = expected.as_array().expect("patch-meta.json is a list");
    // The asset as generated: the embedded schema adds the types of old versions kubectl
    // compiles in, derived from these (`engine::schema::kubectl_scheme`).
    let schema = Schema::from_compact(Schema::embedded_asset()).expect("embedded asset parses");

    let mut seen = BTreeSet::new();
    for entry in expected {
        let def = entry["definition"].as_str().expect("definition");
        let root = schema.root(def).unwrap_or_else(|| panic!("{def}: missing"));
        let text = |k: &str| entry[k].as_str().map(str::to_owned);
        let keys = entry["listMapKeys"].as_array().map(|ks| {
            ks.iter()
                .map(|k| k.as_str().expect("key").to_owned())
                .collect::<Vec<_>>()
        });
        let Some(field) = entry["field"].as_str() else {
            assert_eq!(
                root.map_type().map(|m| m.as_str().to_owned()),
                text("mapType"),
                "{def}"
            );
            seen.insert((def.to_owned(), None));
            continue;
        };
        let info = root
            .fields()
            .find(|f| f.name == field)
            .unwrap_or_else(|| panic!("{def}.{field}: missing"));
        let got = (
            info.patch_strategy.map(str::to_owned),
            info.patch.merge_key.map(str::to_owned),
            info.list_type.map(|l| l.as_str().to_owned()),
            (!info.list_map_keys.is_empty()).then(|| {
                info.list_map_keys
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
            }),
            info.map_type.map(|m| m.as_str().to_owned()),
        );
        let want = (
            text("patchStrategy"),
            text("patchMergeKey"),
            text("listType"),
            keys,
            text("mapType"),
        );
        assert_eq!(got, want, "{def}.{field}");
        assert_eq!(
            info.patch.strategies,
            info.patch_strategy
                .map(Strategies::parse)
                .unwrap_or_default()
        );
        seen.insert((def.to_owned(), Some(field.to_owned())));
    }

    // And nothing more: every definition or field declaring something is in patch-meta.json.
    let mut declared = BTreeSet::new();
    for (def, meta) in schema.definitions() {
        if meta.map_type().is_some() {
            declared.insert((def.to_owned(), None));
        }
        for f in meta.fields() {
            let any = f.patch_strategy.is_some()
                || f.patch.merge_key.is_some()
                || f.list_type.is_some()
                || !f.list_map_keys.is_empty()
                || f.map_type.is_some();
            if any {
                declared.insert((def.to_owned(), Some(f.name.to_owned())));
            }
        }
    }
    assert_eq!(declared, seen);
    assert_eq!(
        seen.len(),
        expected.len(),
        "patch-meta.json has duplicate rows"
    );
}

#[test]
fn embedded_regenerates_byte_identical() {
    let test = "schema_embedded::embedded_regenerates_byte_identical";
    let Some(dir) = shared("k8s-openapi", test) else {
        return;
    };
    let doc = read_json(dir.join("swagger.json"));
    let regenerated = Schema::from_openapi(&doc)
        .expect("swagger.json loads")
        .to_compact();
    let asset_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(ASSET);
    let on_disk = std::fs::read_to_string(&asset_path).expect("asset readable");
    assert!(
        regenerated == on_disk && on_disk == Schema::embedded_asset(),
        "{ASSET} is stale: run `cargo run --example gen_schema -- \
         ../shared/k8s-openapi/swagger.json {ASSET}` and rebuild"
    );
}

/// `(apiVersion, kind)` of an `x-kubernetes-group-version-kind` object.
fn api_version_kind(gvk: &Value) -> (String, String) {
    let part = |k: &str| gvk[k].as_str().expect("gvk part").to_owned();
    let api_version = match part("group").as_str() {
        "" => part("version"),
        group => format!("{group}/{}", part("version")),
    };
    (api_version, part("kind"))
}

/// The embedded scopes against a looser reading of `swagger.json`: a kind is namespaced if any
/// of its operations has a path with `{namespace}` in it, and the kinds with a scope are those
/// with a `get` on a path ending in `/{name}` that is not a subresource.
#[test]
fn embedded_scopes_agree_with_swagger_paths() {
    let test = "schema_embedded::embedded_scopes_agree_with_swagger_paths";
    let Some(dir) = shared("k8s-openapi", test) else {
        return;
    };
    let doc = read_json(dir.join("swagger.json"));
    let schema = Schema::try_embedded().expect("embedded asset parses");
    let mut under_namespace = BTreeSet::new();
    let mut served = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let Some(gvk) = op.get("x-kubernetes-group-version-kind") else {
                continue;
            };
            let key = api_version_kind(gvk);
            if path.contains("{namespace}") {
                under_namespace.insert(key.clone());
            }
            let segments: Vec<&str> = path.split('/').collect();
            let own_object = segments.last() == Some(&"{name}")
                && segments.len() >= 2
                && !segments[segments.len() - 2].starts_with('{');
            if method == "get" && own_object && !path.contains("/watch/") {
                served.insert(key);
            }
        }
    }
    assert!(served.len() > 80, "{}", served.len());
    let mut scoped = 0;
    for (def, _) in schema.definitions() {
        let Some(gvks) = doc["definitions"][def]["x-kubernetes-group-version-kind"].as_array()
        else {
            continue;
        };
        for gvk in gvks {
            let key = api_version_kind(gvk);
            let got = schema.is_namespaced(&key.0, &key.1);
            if served.contains(&key) {
                assert_eq!(got, Some(under_namespace.contains(&key)), "{key:?}");
            }
            scoped += usize::from(got.is_some());
        }
    }
    // Kinds served only by create (`TokenReview`, `Binding`) have a scope too.
    assert!(
        scoped > served.len(),
        "{scoped} scoped, {} served",
        served.len()
    );
}

#[test]
fn conformance_schemas_load() {
    let test = "schema_embedded::conformance_schemas_load";
    let Some(dir) = shared("conformance/schema", test) else {
        return;
    };
    for file in [
        "swagger-merge-item.strict.json",
        "swagger-merge-item-v3.json",
    ] {
        let schema = Schema::from_openapi(&read_json(dir.join(file))).expect(file);
        let item = schema
            .root("mergeItem")
            .unwrap_or_else(|| panic!("{file}: mergeItem"));
        let (elem, meta) = item.lookup_slice("mergingList").expect("mergingList");
        assert_eq!(elem.definition(), Some("mergeItem"), "{file}");
        let merge = Strategies {
            merge: true,
            ..Strategies::default()
        };
        assert_eq!(
            meta,
            PatchMeta {
                strategies: merge,
                merge_key: Some("name")
            },
            "{file}"
        );
        let (ptr, meta) = item.lookup_slice("mergeItemPtr").expect("mergeItemPtr");
        assert_eq!(
            (ptr.definition(), meta.merge_key),
            (Some("mergeItem"), Some("name"))
        );
        let (json, _) = item.lookup_struct("jsonItem").expect("jsonItem");
        assert_eq!(json.kind(), Kind::Opaque, "{file}");
        let (_, meta) = item
            .lookup_struct("retainKeysMergingList")
            .expect("retainKeys list");
        assert!(
            meta.strategies.merge && meta.strategies.retain_keys,
            "{file}"
        );
    }
    for file in [
        "swagger-precision-item.json",
        "swagger-precision-item-v3.json",
    ] {
        let schema = Schema::from_openapi(&read_json(dir.join(file))).expect(file);
        assert_eq!(
            schema.root("precisionItem").map(|m| m.fields().count()),
            Some(5),
            "{file}"
        );
    }
}
