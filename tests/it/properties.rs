//! Property tests of the strategic merge engine under random schemas:
//! - `apply(original, diff(original, modified)) == modified`;
//! - `diff(x, x)` is empty;
//! - three-way results do not depend on the order of object keys.

use applyscope::engine::schema::{Meta, Schema};
use applyscope::engine::smp;
use applyscope::json;
use applyscope::value::{Map, Value};
use proptest::prelude::*;

/// The shape of a field in a random schema.
#[derive(Clone, Debug)]
enum Field {
    Scalar,
    StringMap,
    Struct(usize),
    /// List of primitives; `true` = merge strategy.
    Scalars(bool),
    /// List of structs; `true` = merge by `name`.
    Structs(usize, bool),
}

/// A random schema: `defs[i]` is the list of fields of definition `d{i}`; `d0` is the root.
#[derive(Clone, Debug)]
struct RandomSchema {
    defs: Vec<Vec<(String, Field)>>,
}

impl RandomSchema {
    fn openapi(&self) -> Value {
        let mut defs = Map::new();
        for (i, fields) in self.defs.iter().enumerate() {
            let mut props = Map::new();
            // Every struct has `name` (the merge key) so it can sit in a merging list.
            props.insert("name", json!({"type": "string"}));
            for (name, field) in fields {
                let spec = match field {
                    Field::Scalar => json!({"type": "string"}),
                    Field::StringMap => {
                        json!({"type": "object", "additionalProperties": {"type": "string"}})
                    }
                    Field::Struct(d) => json!({"$ref": format!("#/definitions/d{d}")}),
                    Field::Scalars(true) => {
                        json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-patch-strategy": "merge"})
                    }
                    Field::Scalars(false) => json!({"type": "array", "items": {"type": "string"}}),
                    Field::Structs(d, true) => {
                        json!({"type": "array", "items": {"$ref": format!("#/definitions/d{d}")}, "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"})
                    }
                    Field::Structs(d, false) => {
                        json!({"type": "array", "items": {"$ref": format!("#/definitions/d{d}")}})
                    }
                };
                props.insert(name.clone(), spec);
            }
            defs.insert(
                format!("d{i}"),
                json!({"type": "object", "properties": props}),
            );
        }
        json!({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": defs})
    }
}

/// Field kinds that may refer to definitions after `i` (no cycles).
fn field_strategy(i: usize, n: usize) -> BoxedStrategy<Field> {
    let leaf = prop_oneof![
        Just(Field::Scalar),
        Just(Field::StringMap),
        any::<bool>().prop_map(Field::Scalars),
    ];
    if i + 1 >= n {
        return leaf.boxed();
    }
    prop_oneof![
        3 => leaf,
        1 => ((i + 1)..n).prop_map(Field::Struct),
        1 => ((i + 1)..n, any::<bool>()).prop_map(|(d, m)| Field::Structs(d, m)),
    ]
    .boxed()
}

fn schema_strategy() -> impl Strategy<Value = RandomSchema> {
    (1usize..4).prop_flat_map(|n| {
        let defs: Vec<_> = (0..n)
            .map(|i| {
                proptest::collection::vec(field_strategy(i, n), 1..5).prop_map(|kinds| {
                    kinds
                        .into_iter()
                        .enumerate()
                        .map(|(j, k)| (format!("f{j}"), k))
                        .collect()
                })
            })
            .collect();
        defs.prop_map(|defs| RandomSchema { defs })
    })
}

/// A random document of definition `d` (unique merge keys and set items, no nulls).
fn doc_strategy(schema: &RandomSchema, d: usize, depth: usize) -> BoxedStrategy<Value> {
    let fields = schema.defs[d].clone();
    let mut parts: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
    for (name, field) in fields {
        let value: BoxedStrategy<Value> = match field {
            Field::Scalar => "[a-c]{1,2}".prop_map(Value::from).boxed(),
            Field::StringMap => proptest::collection::btree_map("[k-m]", "[a-c]", 0..3)
                .prop_map(|m| json!(m))
                .boxed(),
            Field::Scalars(_) => proptest::collection::btree_set("[a-e]", 0..4)
                .prop_map(|s| Value::Array(s.into_iter().map(Value::from).collect::<Vec<_>>()))
                .prop_shuffle_array()
                .boxed(),
            Field::Struct(sub) if depth < 3 => doc_strategy(schema, sub, depth + 1),
            Field::Structs(sub, _) if depth < 3 => {
                let item = doc_strategy(schema, sub, depth + 1);
                proptest::collection::vec(item, 0..4)
                    .prop_map(|items| {
                        // Unique merge keys: name items by position.
                        let items: Vec<Value> = items
                            .into_iter()
                            .enumerate()
                            .map(|(i, mut v)| {
                                v["name"] = Value::from(format!("n{i}"));
                                v
                            })
                            .collect();
                        Value::Array(items)
                    })
                    .prop_shuffle_array()
                    .boxed()
            }
            _ => Just(json!({})).boxed(),
        };
        parts.push(proptest::option::of(value.prop_map(move |v| (name.clone(), v))).boxed());
    }
    parts
        .prop_map(|fields| Value::Object(fields.into_iter().flatten().collect()))
        .boxed()
}

trait ShuffleArray {
    fn prop_shuffle_array(self) -> BoxedStrategy<Value>;
}

impl<S: Strategy<Value = Value> + 'static> ShuffleArray for S {
    fn prop_shuffle_array(self) -> BoxedStrategy<Value> {
        self.prop_flat_map(|v| match v {
            Value::Array(items) => Just(items).prop_shuffle().prop_map(Value::Array).boxed(),
            other => Just(other).boxed(),
        })
        .boxed()
    }
}

/// A patch without `$setElementOrder/*` keys, and without what they leave empty (maps, list
/// items holding only their merge key `name`, lists).
fn strip_set_element_order(v: &Value) -> Value {
    let empty = |v: &Value| match v {
        Value::Object(m) => m.is_empty() || (m.len() == 1 && m.contains_key("name")),
        Value::Array(items) => items.is_empty(),
        _ => false,
    };
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !k.starts_with("$setElementOrder/"))
                .map(|(k, v)| (k.clone(), strip_set_element_order(v)))
                .filter(|(k, v)| k == "name" || !empty(v))
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(strip_set_element_order)
                .filter(|v| !empty(v))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Reverse the key order of every object (a different order, same document).
fn reverse_keys(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .rev()
                .map(|(k, v)| (k.clone(), reverse_keys(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(reverse_keys).collect()),
        other => other.clone(),
    }
}

fn case_strategy() -> impl Strategy<Value = (RandomSchema, Value, Value, Value)> {
    schema_strategy().prop_flat_map(|s| {
        let a = doc_strategy(&s, 0, 0);
        let b = doc_strategy(&s, 0, 0);
        let c = doc_strategy(&s, 0, 0);
        (Just(s), a, b, c)
    })
}

fn with_root<T>(s: &RandomSchema, f: impl FnOnce(Meta<'_>) -> T) -> T {
    let schema = Schema::from_openapi(&s.openapi()).expect("random schema loads");
    f(schema.root("d0").expect("root"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    /// `apply(o, diff(o, m)) == m`, comparing merging lists as the reference's own tests do
    /// (sorted by `sortMergeListsByName`): when the original's primitive merge list holds the same
    /// items in another order, the reference (which sorts it in place before comparing orders)
    /// sends no `$setElementOrder` and the original order stays.
    fn apply_of_diff_gives_modified((s, original, modified, _) in case_strategy()) {
        with_root(&s, |meta| {
            let patch = smp::diff2(&original, &modified, meta).expect("diff2");
            let result = smp::apply(original.clone(), patch.clone(), meta).expect("apply");
            let sorted = |v: &Value| smp::sort_merge_lists_by_name(v, meta).expect("sort");
            prop_assert_eq!(sorted(&result), sorted(&modified), "patch {}", patch);
            Ok(())
        })?;
    }

    /// `diff(x, x)` holds nothing but `$setElementOrder` lists: the reference sorts the
    /// original's primitive merge lists in place before comparing orders, so an unsorted one is
    /// re-sent in the file's order (kubectl always patches unsorted `finalizers`).
    #[test]
    fn diff_of_a_document_with_itself_only_orders((s, doc, _, _) in case_strategy()) {
        with_root(&s, |meta| {
            let patch = smp::diff2(&doc, &doc, meta).expect("diff2");
            prop_assert_eq!(strip_set_element_order(&patch), json!({}), "patch {}", patch);
            prop_assert_eq!(smp::apply(doc.clone(), patch, meta).expect("apply"), doc);
            Ok(())
        })?;
    }

    #[test]
    fn three_way_does_not_depend_on_key_order((s, o, m, c) in case_strategy()) {
        with_root(&s, |meta| {
            let a = smp::diff3(&o, &m, &c, meta, true);
            let b = smp::diff3(&reverse_keys(&o), &reverse_keys(&m), &reverse_keys(&c), meta, true);
            prop_assert_eq!(a.clone().map_err(|e| e.to_string()), b.map_err(|e| e.to_string()));
            if let Ok(p) = a {
                let r1 = smp::apply(c.clone(), p.clone(), meta).map_err(|e| e.to_string());
                let r2 = smp::apply(reverse_keys(&c), reverse_keys(&p), meta).map_err(|e| e.to_string());
                prop_assert_eq!(r1, r2);
            }
            Ok(())
        })?;
    }
}
