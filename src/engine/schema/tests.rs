//! Lookups against the reference's test schemas (`mergeItem`, `precisionItem`) in their OpenAPI
//! v2 and v3 forms, one test per rule of `PatchMetaFromStruct`.

use crate::json;
use crate::value::Value;

use super::testdocs::{MERGE_ITEM_V2, MERGE_ITEM_V3, PRECISION_ITEM_V2, PRECISION_ITEM_V3};
use super::*;

fn load(text: &str) -> Schema {
    let doc: Value = serde_json::from_str(text).expect("test doc is JSON");
    Schema::from_openapi(&doc).expect("test doc loads")
}

fn both() -> [Schema; 2] {
    [load(MERGE_ITEM_V2), load(MERGE_ITEM_V3)]
}

const MERGE: Strategies = Strategies {
    merge: true,
    retain_keys: false,
    replace: false,
};
const NONE: Strategies = Strategies {
    merge: false,
    retain_keys: false,
    replace: false,
};

fn pm(strategies: Strategies, merge_key: Option<&str>) -> PatchMeta<'_> {
    PatchMeta {
        strategies,
        merge_key,
    }
}

fn err(r: Result<(Meta<'_>, PatchMeta<'_>), LookupError>) -> String {
    r.expect_err("lookup should fail").0
}

#[test]
fn test_schemas_give_the_readme_table() {
    for schema in both() {
        let item = schema.root("mergeItem").expect("root mergeItem");
        let table = [
            ("name", NONE, None),
            ("value", NONE, None),
            ("other", NONE, None),
            ("mergingList", MERGE, Some("name")),
            ("nonMergingList", NONE, None),
            ("mergingIntList", MERGE, None),
            ("nonMergingIntList", NONE, None),
            ("mergeItemPtr", MERGE, Some("name")),
            ("simpleMap", NONE, None),
            (
                "replacingItem",
                Strategies {
                    replace: true,
                    ..NONE
                },
                None,
            ),
            ("jsonItem", NONE, None),
            (
                "retainKeysMap",
                Strategies {
                    retain_keys: true,
                    ..NONE
                },
                None,
            ),
            (
                "retainKeysMergingList",
                Strategies {
                    retain_keys: true,
                    ..MERGE
                },
                Some("name"),
            ),
        ];
        for (field, strategies, key) in table {
            let (_, got) = item.lookup_struct(field).expect(field);
            assert_eq!(got, pm(strategies, key), "mergeItem.{field}");
        }
        assert_eq!(item.fields().count(), table.len());
        let retain = schema
            .root("retainKeysMergeItem")
            .expect("retainKeysMergeItem");
        let table = [
            ("name", NONE, None),
            ("value", NONE, None),
            ("other", NONE, None),
            ("simpleMap", NONE, None),
            ("mergingIntList", MERGE, None),
            ("mergingList", MERGE, Some("name")),
            ("nonMergingList", NONE, None),
        ];
        for (field, strategies, key) in table {
            let (_, got) = retain.lookup_struct(field).expect(field);
            assert_eq!(got, pm(strategies, key), "retainKeysMergeItem.{field}");
        }
        assert_eq!(retain.fields().count(), table.len());
    }
}

#[test]
fn root_definitions_of_the_test_schemas() {
    for schema in both() {
        assert_eq!(
            schema.root("mergeItem").and_then(Meta::definition),
            Some("mergeItem")
        );
        let by_gvk = schema.definition_for_gvk("fake-group/some-version", "mergeItem");
        assert_eq!(by_gvk, Some("mergeItem"));
    }
    for text in [PRECISION_ITEM_V2, PRECISION_ITEM_V3] {
        let schema = load(text);
        let item = schema.root("precisionItem").expect("precisionItem");
        assert_eq!(
            item.fields().map(|f| f.name).collect::<Vec<_>>(),
            ["name", "int32", "int64", "float32", "float64"]
        );
    }
}

#[test]
fn lookup_struct_gives_the_field_type() {
    for schema in both() {
        let item = schema.root("mergeItem").expect("root");
        let (retain, _) = item.lookup_struct("retainKeysMap").expect("retainKeysMap");
        assert_eq!(retain.definition(), Some("retainKeysMergeItem"));
        let (list, _) = item.lookup_struct("mergingList").expect("mergingList");
        assert_eq!(list.kind(), Kind::List);
        assert_eq!(list.elem().and_then(Meta::definition), Some("mergeItem"));
        let (map, _) = item.lookup_struct("simpleMap").expect("simpleMap");
        assert_eq!(map.kind(), Kind::Map);
    }
}

#[test]
fn lookup_is_case_insensitive_after_exact() {
    for schema in both() {
        let item = schema.root("mergeItem").expect("root");
        let (_, got) = item.lookup_struct("MERGINGLIST").expect("folded");
        assert_eq!(got, pm(MERGE, Some("name")));
        let (elem, got) = item.lookup_slice("mergingintlist").expect("folded slice");
        assert_eq!((elem.kind(), got), (Kind::Scalar, pm(MERGE, None)));
        assert_eq!(
            item.field_info("MergeItemPtr").map(|f| f.name),
            Some("mergeItemPtr")
        );
    }
}

#[test]
fn lookup_prefers_exact_then_first_folded_in_document_order() {
    let doc = json!({"definitions": {"T": {"properties": {
        "Port": {"type": "array", "items": {"type": "string"}},
        "port": {"type": "string"},
        "PORT": {"type": "integer"},
    }}}});
    let schema = Schema::from_openapi(&doc).expect("loads");
    let t = schema.root("T").expect("T");
    assert_eq!(t.field_info("port").map(|f| f.name), Some("port"));
    assert_eq!(t.field_info("PORT").map(|f| f.name), Some("PORT"));
    assert_eq!(t.field_info("pOrT").map(|f| f.name), Some("Port"));
}

#[test]
fn unknown_field_names_go_struct() {
    for schema in both() {
        let item = schema.root("mergeItem").expect("root");
        assert_eq!(
            err(item.lookup_struct("bogus")),
            r#"unable to find api field in struct mergeItem for the json field "bogus""#
        );
        assert_eq!(
            err(item.lookup_slice("bo\"gus\n")),
            r#"unable to find api field in struct mergeItem for the json field "bo\"gus\n""#
        );
        let (retain, _) = item.lookup_struct("retainKeysMap").expect("retainKeysMap");
        assert!(err(retain.lookup_struct("x")).contains("struct retainKeysMergeItem "));
    }
}

#[test]
fn lookup_struct_on_non_struct_names_go_kind() {
    for schema in both() {
        let item = schema.root("mergeItem").expect("root");
        let inner = |f: &str| item.lookup_struct(f).expect(f).0;
        let prefix = "merging an object in json but data type is not struct, instead is: ";
        assert_eq!(
            err(inner("simpleMap").lookup_struct("k")),
            format!("{prefix}map")
        );
        assert_eq!(
            err(inner("nonMergingList").lookup_struct("k")),
            format!("{prefix}slice")
        );
        assert_eq!(
            err(inner("name").lookup_struct("k")),
            format!("{prefix}string")
        );
        let (int, _) = item.lookup_slice("mergingIntList").expect("ints");
        assert_eq!(err(int.lookup_struct("k")), format!("{prefix}int32"));
    }
    let precision = load(PRECISION_ITEM_V2);
    let item = precision.root("precisionItem").expect("root");
    let (f, _) = item.lookup_struct("float64").expect("float64");
    assert!(err(f.lookup_slice("k")).ends_with("instead is: float64"));
}

#[test]
fn lookup_slice_gives_the_element_type() {
    for schema in both() {
        let item = schema.root("mergeItem").expect("root");
        let (elem, got) = item.lookup_slice("mergingList").expect("mergingList");
        assert_eq!(
            (elem.definition(), got),
            (Some("mergeItem"), pm(MERGE, Some("name")))
        );
        let (elem, got) = item
            .lookup_slice("retainKeysMergingList")
            .expect("retain list");
        assert_eq!(elem.definition(), Some("mergeItem"));
        assert!(got.strategies.merge && got.strategies.retain_keys);
        let (elem, got) = item.lookup_slice("nonMergingIntList").expect("ints");
        assert_eq!((elem.kind(), got), (Kind::Scalar, pm(NONE, None)));
    }
}

#[test]
fn lookup_slice_on_pointer_field_gives_the_struct() {
    for schema in both() {
        let item = schema.root("mergeItem").expect("root");
        let (elem, got) = item.lookup_slice("mergeItemPtr").expect("mergeItemPtr");
        assert_eq!(
            (elem.definition(), got),
            (Some("mergeItem"), pm(MERGE, Some("name")))
        );
        let (as_struct, _) = item.lookup_struct("mergeItemPtr").expect("as struct");
        assert_eq!(as_struct.definition(), Some("mergeItem"));
    }
}

#[test]
fn lookup_slice_on_non_list_field_is_an_error() {
    for schema in both() {
        let item = schema.root("mergeItem").expect("root");
        let want = "expected slice or array type, but got: struct";
        assert_eq!(err(item.lookup_slice("name")), want);
        assert_eq!(err(item.lookup_slice("simpleMap")), want);
    }
}

#[test]
fn opaque_accepts_every_key() {
    let none = (Kind::Opaque, PatchMeta::default());
    let o = Meta::opaque();
    assert_eq!(o.lookup_struct("x").map(|(m, p)| (m.kind(), p)), Ok(none));
    assert_eq!(o.lookup_slice("x").map(|(m, p)| (m.kind(), p)), Ok(none));
    for schema in both() {
        let item = schema.root("mergeItem").expect("root");
        let (json, got) = item.lookup_struct("jsonItem").expect("jsonItem");
        assert_eq!((json.kind(), got), none);
        assert_eq!(
            json.lookup_struct("nested").map(|(m, p)| (m.kind(), p)),
            Ok(none)
        );
        assert_eq!(
            json.lookup_slice("nested").map(|(m, p)| (m.kind(), p)),
            Ok(none)
        );
        let (_, got) = item.lookup_slice("jsonItem").expect("jsonItem as list");
        assert_eq!(got, PatchMeta::default());
    }
}

#[test]
fn preserve_unknown_fields_and_empty_objects_are_opaque() {
    let doc = json!({"definitions": {"T": {"properties": {
        "free": {"type": "object", "properties": {"a": {"type": "string"}},
                 "x-kubernetes-preserve-unknown-fields": true},
        "empty": {"type": "object"},
        "any": {},
    }}}});
    let schema = Schema::from_openapi(&doc).expect("loads");
    let t = schema.root("T").expect("T");
    for field in ["free", "empty", "any"] {
        let (m, _) = t.lookup_struct(field).expect(field);
        assert!(m.is_opaque(), "{field}");
        assert!(m.lookup_struct("whatever").is_ok(), "{field}");
    }
}

#[test]
fn slice_of_slice_and_bytes_follow_go() {
    let doc = json!({"definitions": {"T": {"properties": {
        "grid": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "blobs": {"type": "array", "items": {"type": "string", "format": "byte"}},
        "blob": {"type": "string", "format": "byte"},
    }}}});
    let schema = Schema::from_openapi(&doc).expect("loads");
    let t = schema.root("T").expect("T");
    assert_eq!(err(t.lookup_slice("grid")), "unexpected slice of slice");
    assert_eq!(err(t.lookup_slice("blobs")), "unexpected slice of slice");
    let (byte, _) = t.lookup_slice("blob").expect("[]byte is a slice");
    assert!(err(byte.lookup_struct("k")).ends_with("instead is: uint8"));
    let (blob, _) = t.lookup_struct("blob").expect("blob");
    assert!(err(blob.lookup_struct("k")).ends_with("instead is: slice"));
}

#[test]
fn extensions_are_kept_per_field() {
    let doc = json!({"definitions": {"T": {"x-kubernetes-map-type": "atomic", "properties": {
        "items": {"type": "array", "items": {"type": "string"},
                  "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a", "b"],
                  "x-kubernetes-patch-strategy": "merge,other", "x-kubernetes-patch-merge-key": "a"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"},
                   "x-kubernetes-map-type": "granular"},
    }}}});
    let schema = Schema::from_openapi(&doc).expect("loads");
    let t = schema.root("T").expect("T");
    assert_eq!(t.map_type(), Some(MapType::Atomic));
    let items = t.field_info("items").expect("items");
    assert_eq!(items.patch_strategy, Some("merge,other"));
    assert_eq!(items.patch, pm(MERGE, Some("a")));
    assert_eq!(items.list_type, Some(ListType::Map));
    assert_eq!(items.list_map_keys.len(), 2);
    assert_eq!(
        t.field_info("labels").and_then(|f| f.map_type),
        Some(MapType::Granular)
    );
}

#[test]
fn bad_documents_are_errors() {
    assert_eq!(
        Schema::from_openapi(&json!({"paths": {}})).err(),
        Some(SchemaError::NotOpenApi)
    );
    let dangling =
        json!({"definitions": {"T": {"properties": {"a": {"$ref": "#/definitions/U"}}}}});
    assert!(matches!(
        Schema::from_openapi(&dangling),
        Err(SchemaError::UnresolvedRef { .. })
    ));
    let bad_ext = json!({"definitions": {"T": {"properties": {
        "a": {"type": "array", "x-kubernetes-patch-strategy": 3}}}}});
    assert!(matches!(
        Schema::from_openapi(&bad_ext),
        Err(SchemaError::BadExtension { .. })
    ));
    let bad_list = json!({"definitions": {"T": {"properties": {
        "a": {"type": "array", "x-kubernetes-list-type": "bag"}}}}});
    assert!(matches!(
        Schema::from_openapi(&bad_list),
        Err(SchemaError::BadExtension { .. })
    ));
}

#[test]
fn compact_form_round_trips() {
    for text in [MERGE_ITEM_V2, MERGE_ITEM_V3, PRECISION_ITEM_V2] {
        let schema = load(text);
        let compact = schema.to_compact();
        let again = Schema::from_compact(&compact).expect("compact loads");
        assert_eq!(again.to_compact(), compact);
        let item = again
            .root("mergeItem")
            .or_else(|| again.root("precisionItem"))
            .expect("root");
        assert_eq!(
            item.fields().count(),
            schema
                .definitions()
                .next()
                .map_or(0, |(_, m)| m.fields().count())
        );
    }
    let v2 = load(MERGE_ITEM_V2).to_compact();
    assert!(
        v2.contains(r#"{"n":"mergeItemPtr","t":"@0","ps":"merge","mk":"name"}"#),
        "{v2}"
    );
}

#[test]
fn compact_form_rejects_malformed_text() {
    for text in [
        "",
        r#"{"format":"other","types":[]}"#,
        r#"{"format":"applyscope-schema/1","types":[{"n":"T","t":"@7"}]}"#,
        r#"{"format":"applyscope-schema/1","types":[{"n":"T","t":"[q"}]}"#,
        r#"{"format":"applyscope-schema/1","types":[{"n":"T"}]}"#,
    ] {
        assert!(
            matches!(Schema::from_compact(text), Err(SchemaError::Compact(_))),
            "{text}"
        );
    }
}

/// A document with kinds `T`, each served on the paths given (v2 or v3 form).
fn with_paths(v3: bool, kinds: &[(&str, &str)], paths: &[(&str, &str, &str)]) -> Schema {
    let mut defs = crate::value::Map::new();
    for (api_version, kind) in kinds {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        defs.insert(
            format!("t.{group}.{version}.{kind}"),
            json!({"properties": {"kind": {"type": "string"}},
                "x-kubernetes-group-version-kind": [
                    {"group": group, "version": version, "kind": kind}]}),
        );
    }
    let mut by_path = crate::value::Map::new();
    for (path, api_version, kind) in paths {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        let item = by_path
            .entry(*path)
            .or_insert_with(|| json!({"parameters": [{"name": "pretty", "in": "query"}]}));
        let method = ["get", "put", "patch", "delete", "post"]
            .into_iter()
            .find(|m| item.get(m).is_none())
            .expect("a free method");
        item[method] = json!({"x-kubernetes-group-version-kind":
            {"group": group, "version": version, "kind": kind}});
    }
    let doc = if v3 {
        json!({"openapi": "3.0.0", "paths": by_path, "components": {"schemas": defs}})
    } else {
        json!({"swagger": "2.0", "paths": by_path, "definitions": defs})
    };
    Schema::from_openapi(&doc).expect("doc loads")
}

#[test]
fn scope_comes_from_the_resource_paths() {
    let kinds = [
        ("v1", "Pod"),
        ("v1", "Namespace"),
        ("v1", "Node"),
        ("apps/v1", "Deployment"),
        ("rbac.authorization.k8s.io/v1", "ClusterRole"),
        ("v1", "ConfigMap"),
        ("autoscaling/v1", "Scale"),
        ("policy/v1", "Eviction"),
        ("v1", "Binding"),
        ("v1", "Orphan"),
    ];
    let paths = [
        ("/api/v1/namespaces/{namespace}/pods", "v1", "Pod"),
        ("/api/v1/namespaces/{namespace}/pods/{name}", "v1", "Pod"),
        (
            "/api/v1/namespaces/{namespace}/pods/{name}/status",
            "v1",
            "Pod",
        ),
        ("/api/v1/pods", "v1", "Pod"),
        (
            "/api/v1/namespaces/{namespace}/pods/{name}/eviction",
            "policy/v1",
            "Eviction",
        ),
        (
            "/api/v1/namespaces/{namespace}/pods/{name}/binding",
            "v1",
            "Binding",
        ),
        ("/api/v1/namespaces/{namespace}/bindings", "v1", "Binding"),
        ("/api/v1/namespaces", "v1", "Namespace"),
        ("/api/v1/namespaces/{name}", "v1", "Namespace"),
        ("/api/v1/namespaces/{name}/status", "v1", "Namespace"),
        ("/api/v1/namespaces/{name}/finalize", "v1", "Namespace"),
        ("/api/v1/watch/namespaces/{name}", "v1", "Namespace"),
        ("/api/v1/nodes/{name}", "v1", "Node"),
        ("/api/v1/nodes/{name}/proxy/{path}", "v1", "Node"),
        (
            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}",
            "apps/v1",
            "Deployment",
        ),
        (
            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale",
            "autoscaling/v1",
            "Scale",
        ),
        ("/apis/apps/v1/deployments", "apps/v1", "Deployment"),
        (
            "/apis/rbac.authorization.k8s.io/v1/clusterroles/{name}",
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
        ),
        (
            "/apis/rbac.authorization.k8s.io/v1/watch/clusterroles",
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
        ),
        // Only the watch form, under a namespace.
        (
            "/api/v1/watch/namespaces/{namespace}/configmaps/{name}",
            "v1",
            "ConfigMap",
        ),
        // Not resource paths.
        ("/api/v1/", "v1", "Orphan"),
        ("/apis/", "v1", "Orphan"),
        ("/version/", "v1", "Orphan"),
        ("/api/v1/{name}", "v1", "Orphan"),
        // A kind the document has no definition for.
        ("/api/v1/namespaces/{namespace}/ghosts", "v1", "Ghost"),
    ];
    for v3 in [false, true] {
        let schema = with_paths(v3, &kinds, &paths);
        let scope = |api_version, kind| schema.is_namespaced(api_version, kind);
        assert_eq!(scope("v1", "Pod"), Some(true), "v3: {v3}");
        assert_eq!(scope("apps/v1", "Deployment"), Some(true));
        assert_eq!(scope("v1", "ConfigMap"), Some(true));
        assert_eq!(scope("v1", "Binding"), Some(true));
        assert_eq!(scope("v1", "Namespace"), Some(false));
        assert_eq!(scope("v1", "Node"), Some(false));
        assert_eq!(
            scope("rbac.authorization.k8s.io/v1", "ClusterRole"),
            Some(false)
        );
        assert_eq!(scope("autoscaling/v1", "Scale"), None);
        assert_eq!(scope("policy/v1", "Eviction"), None);
        assert_eq!(scope("v1", "Orphan"), None);
        assert_eq!(scope("v1", "Ghost"), None);
        assert_eq!(schema.root_for_gvk("v1", "Ghost").map(Meta::kind), None);
        // And the resources the paths serve them as.
        assert_eq!(schema.resource("v1", "Pod"), Some("pods"));
        assert_eq!(
            schema.resource("apps/v1", "Deployment"),
            Some("deployments")
        );
        assert_eq!(schema.resource("v1", "Namespace"), Some("namespaces"));
        assert_eq!(schema.resource("v1", "ConfigMap"), Some("configmaps"));
        assert_eq!(schema.resource("autoscaling/v1", "Scale"), None);

        // The compact form keeps the scopes and the resources.
        let compact = schema.to_compact();
        assert!(
            compact.contains(r#""g":[["","v1","Pod","Namespaced","pods"]]"#),
            "{compact}"
        );
        assert!(compact.contains(r#""g":[["","v1","Node","Cluster","nodes"]]"#));
        assert!(compact.contains(r#""g":[["autoscaling","v1","Scale"]]"#));
        let again = Schema::from_compact(&compact).expect("compact loads");
        assert_eq!(again.to_compact(), compact);
        for (api_version, kind) in kinds {
            assert_eq!(
                again.is_namespaced(api_version, kind),
                scope(api_version, kind),
                "{api_version} {kind}"
            );
            assert_eq!(
                again.resource(api_version, kind),
                schema.resource(api_version, kind)
            );
        }
    }
}

#[test]
fn documents_without_paths_know_no_scope() {
    for schema in both() {
        assert!(
            schema
                .root_for_gvk("fake-group/some-version", "mergeItem")
                .is_some()
        );
        assert_eq!(
            schema.is_namespaced("fake-group/some-version", "mergeItem"),
            None
        );
    }
}

#[test]
fn bad_operation_gvk_is_an_error() {
    let doc = json!({"paths": {"/api/v1/pods": {"get": {"x-kubernetes-group-version-kind": "v1/Pod"}}},
        "definitions": {}});
    assert!(matches!(
        Schema::from_openapi(&doc),
        Err(SchemaError::BadExtension { .. })
    ));
    // Operations elsewhere are not looked at.
    let doc = json!({"paths": {"/api/v1/pods/{name}/log": {"get": {"x-kubernetes-group-version-kind": 3}}},
        "definitions": {}});
    assert!(Schema::from_openapi(&doc).is_ok());
}

#[test]
fn compact_gvks_with_and_without_scope() {
    // Three elements: the form assets had before scopes, still read (scope unknown); four:
    // before resources.
    let text = r#"{"format":"applyscope-schema/1","types":[
{"n":"A","g":[["","v1","A"]],"f":[]},
{"n":"B","g":[["g","v1","B","Namespaced"],["g","v2","B","Cluster","bs"]],"f":[]}
]}
"#;
    let schema = Schema::from_compact(text).expect("compact loads");
    assert_eq!(schema.definition_for_gvk("v1", "A"), Some("A"));
    assert_eq!(schema.is_namespaced("v1", "A"), None);
    assert_eq!(schema.is_namespaced("g/v1", "B"), Some(true));
    assert_eq!(schema.is_namespaced("g/v2", "B"), Some(false));
    assert_eq!(schema.resource("g/v1", "B"), None);
    assert_eq!(schema.resource("g/v2", "B"), Some("bs"));
    assert_eq!(schema.to_compact(), text);
    for bad in [
        r#"{"format":"applyscope-schema/1","types":[{"n":"A","g":[["","v1"]],"f":[]}]}"#,
        r#"{"format":"applyscope-schema/1","types":[{"n":"A","g":[["","v1","A","namespaced"]],"f":[]}]}"#,
        r#"{"format":"applyscope-schema/1","types":[{"n":"A","g":[["","v1","A","Cluster","x","y"]],"f":[]}]}"#,
    ] {
        assert!(
            matches!(Schema::from_compact(bad), Err(SchemaError::Compact(_))),
            "{bad}"
        );
    }
}

#[test]
fn a_gvk_claimed_twice_keeps_the_first_scope() {
    let text = r#"{"format":"applyscope-schema/1","types":[
{"n":"A","g":[["","v1","K","Cluster"]],"f":[]},
{"n":"B","g":[["","v1","K","Namespaced"]],"f":[]}
]}
"#;
    let schema = Schema::from_compact(text).expect("compact loads");
    assert_eq!(schema.definition_for_gvk("v1", "K"), Some("A"));
    assert_eq!(schema.is_namespaced("v1", "K"), Some(false));
}
