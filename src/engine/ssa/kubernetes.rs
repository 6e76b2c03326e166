//! The SMD schema of Kubernetes' built-in kinds, built from the OpenAPI-derived table the
//! engine embeds (`crate::engine::schema`), as kube-openapi's `schemaconv` builds it:
//!
//! | OpenAPI | SMD |
//! | --- | --- |
//! | struct definition | map with fields, `separable`; `atomic` with `x-kubernetes-map-type: atomic` |
//! | `additionalProperties` | map of the element type, `separable` (or the property's `map-type`) |
//! | property `$ref` + `x-kubernetes-map-type` | the reference with an `elementRelationship` override |
//! | `x-kubernetes-list-type: atomic` / `set` / `map` + `list-map-keys` | list `atomic` / `associative` / `associative` with keys |
//! | no list type, `patch-strategy: merge` (+ merge key) | `associative` (keyed by the merge key) |
//! | no list type otherwise | `atomic` |
//! | scalars | `untyped` scalars |
//! | `RawExtension` | `__untyped_atomic_` |
//! | free-form objects (no properties) | `__untyped_deduced_` |
//!
//! OpenAPI v2 drops property defaults; the three list-map keys that need one are filled from
//! [`KEY_DEFAULTS`] (the `+default` markers of `k8s.io/api`).

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use super::path::PathElement;
use super::schema::{Atom, List, MapType, Relationship, Scalar, Schema, StructField, TypeRef};
use super::schema::{UNTYPED_ATOMIC, UNTYPED_DEDUCED};
use super::set::Set;
use crate::engine::schema::Schema as PatchSchema;
use crate::engine::schema::{FieldInfo, Kind, ListType, MapType as OpenApiMapType, Meta};
use crate::value::{Str, Value};

/// List-map key fields with a schema default: (definition, field, default).
pub const KEY_DEFAULTS: &[(&str, &str, &str)] = &[
    ("io.k8s.api.core.v1.ContainerPort", "protocol", "TCP"),
    ("io.k8s.api.core.v1.ServicePort", "protocol", "TCP"),
    ("io.k8s.api.core.v1.LocalObjectReference", "name", ""),
];

const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";
/// The string formats of named types, which the compact table does not keep (it keeps the
/// OpenAPI `type` alone) and structured-merge-diff reads ([`scalar`]).
const FORMATS: [(&str, &str); 3] = [
    (
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
        "int-or-string",
    ),
    ("io.k8s.apimachinery.pkg.apis.meta.v1.Time", "date-time"),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
        "date-time",
    ),
];

/// The SMD schema of every definition of a patch-metadata schema, with the names it gives
/// each kind's root type.
#[derive(Debug)]
pub struct KubeSchema {
    pub schema: Schema,
    source: &'static PatchSchema,
}

impl KubeSchema {
    /// The root type of objects of this `apiVersion` and `kind`.
    #[must_use]
    pub fn root_for_gvk(&self, api_version: &str, kind: &str) -> Option<TypeRef> {
        let name = self.source.definition_for_gvk(api_version, kind)?;
        self.schema.named(name)
    }

    /// The fields the main endpoint of this kind resets, as the request's `ignored` map
    /// (`GetResetFields`): `status` for every kind that has one. (The registry strategies of
    /// the built-in kinds reset `status` on the main endpoint; this does not model the few
    /// that reset more, nor the `/status` endpoint, which resets everything else.)
    #[must_use]
    pub fn reset_fields(&self, api_version: &str, kind: &str) -> BTreeMap<String, Set> {
        let mut out = BTreeMap::new();
        let has_status = self
            .root_for_gvk(api_version, kind)
            .and_then(|tr| self.schema.resolve(tr))
            .and_then(|r| r.map().and_then(|m| m.field("status").map(|_| ())))
            .is_some();
        if has_status {
            out.insert(
                api_version.to_owned(),
                Set::from_paths([[PathElement::field("status")].as_slice()]),
            );
        }
        out
    }
}

static EMBEDDED: OnceLock<KubeSchema> = OnceLock::new();

/// The built-in kinds of the embedded Kubernetes table, converted on first use.
#[must_use]
pub fn embedded() -> &'static KubeSchema {
    EMBEDDED.get_or_init(|| {
        let source = PatchSchema::embedded();
        KubeSchema {
            schema: convert(source),
            source,
        }
    })
}

/// Converts every definition of a patch-metadata schema.
#[must_use]
pub fn convert(source: &PatchSchema) -> Schema {
    let mut c = Converter {
        schema: Schema::new(),
        done: HashMap::new(),
    };
    c.untyped();
    for (name, meta) in source.definitions() {
        c.named(name, meta);
    }
    c.schema
}

struct Converter {
    schema: Schema,
    done: HashMap<Str, TypeRef>,
}

impl Converter {
    /// `__untyped_atomic_` and `__untyped_deduced_`.
    fn untyped(&mut self) {
        let atomic = self.schema.declare(UNTYPED_ATOMIC);
        let deduced = self.schema.declare(UNTYPED_DEDUCED);
        self.schema.set_atom(
            atomic,
            Atom {
                scalar: Some(Scalar::Untyped),
                list: Some(List {
                    elem: atomic,
                    rel: Relationship::Atomic,
                    keys: Vec::new(),
                }),
                map: Some(MapType::new(Vec::new(), atomic, Relationship::Atomic)),
                ..Atom::default()
            },
        );
        self.schema.set_atom(
            deduced,
            Atom {
                scalar: Some(Scalar::Untyped),
                list: Some(List {
                    elem: atomic,
                    rel: Relationship::Atomic,
                    keys: Vec::new(),
                }),
                map: Some(MapType::new(Vec::new(), deduced, Relationship::Separable)),
                ..Atom::default()
            },
        );
    }

    fn untyped_ref(&self, name: &str) -> TypeRef {
        self.schema
            .named(name)
            .unwrap_or_else(|| self.schema.empty_ref())
    }

    fn named(&mut self, name: &str, meta: Meta<'_>) -> TypeRef {
        if let Some(tr) = self.done.get(name) {
            return *tr;
        }
        if name == RAW_EXTENSION {
            return self.untyped_ref(UNTYPED_ATOMIC);
        }
        if meta.kind() == Kind::Opaque {
            return self.untyped_ref(UNTYPED_DEDUCED);
        }
        let tr = self.schema.declare(name);
        self.done.insert(name.into(), tr);
        let atom = self.atom(meta, Some(name));
        self.schema.set_atom(tr, atom);
        tr
    }

    /// A type in a field or element position (no field extensions).
    fn reference(&mut self, meta: Meta<'_>) -> TypeRef {
        if let Some(name) = meta.definition() {
            return self.named(name, meta);
        }
        match meta.kind() {
            Kind::Opaque => self.untyped_ref(UNTYPED_DEDUCED),
            _ => {
                let atom = self.atom(meta, None);
                self.schema.inline(atom)
            }
        }
    }

    fn atom(&mut self, meta: Meta<'_>, definition: Option<&str>) -> Atom {
        match meta.kind() {
            Kind::Struct => {
                let fields = meta
                    .fields()
                    .map(|f| StructField {
                        name: f.name.into(),
                        ty: self.field(&f),
                        default: key_default(definition, f.name),
                    })
                    .collect();
                let rel = match meta.map_type() {
                    Some(OpenApiMapType::Atomic) => Relationship::Atomic,
                    _ => Relationship::Separable,
                };
                Atom {
                    map: Some(MapType::new(fields, self.schema.empty_ref(), rel)),
                    ..Atom::default()
                }
            }
            Kind::Map => {
                let elem = match meta.elem() {
                    Some(e) => self.reference(e),
                    None => self.untyped_ref(UNTYPED_DEDUCED),
                };
                let rel = match meta.map_type() {
                    Some(OpenApiMapType::Atomic) => Relationship::Atomic,
                    _ => Relationship::Separable,
                };
                Atom {
                    map: Some(MapType::new(Vec::new(), elem, rel)),
                    ..Atom::default()
                }
            }
            Kind::List => {
                let elem = match meta.elem() {
                    Some(e) => self.reference(e),
                    None => self.untyped_ref(UNTYPED_ATOMIC),
                };
                Atom {
                    list: Some(List {
                        elem,
                        rel: Relationship::Atomic,
                        keys: Vec::new(),
                    }),
                    ..Atom::default()
                }
            }
            Kind::Scalar | Kind::Opaque => Atom {
                scalar: Some(scalar(definition, meta.json_type())),
                ..Atom::default()
            },
        }
    }

    /// A struct field's type, with the field's list and map extensions.
    fn field(&mut self, f: &FieldInfo<'_>) -> TypeRef {
        if f.meta.kind() == Kind::List && f.meta.definition().is_none() {
            let elem = match f.meta.elem() {
                Some(e) => self.reference(e),
                None => self.untyped_ref(UNTYPED_ATOMIC),
            };
            let (rel, keys) = list_kind(f);
            return self.schema.inline(Atom {
                list: Some(List { elem, rel, keys }),
                ..Atom::default()
            });
        }
        let base = self.reference(f.meta);
        match f.map_type {
            Some(OpenApiMapType::Atomic) => Schema::with_relationship(base, Relationship::Atomic),
            Some(OpenApiMapType::Granular) => {
                Schema::with_relationship(base, Relationship::Separable)
            }
            None => base,
        }
    }
}

/// The scalar of a table's scalar type, as the OpenAPI document's ([`super::openapi::primitive`],
/// with the format of a named type from [`FORMATS`]; `Quantity` untyped by name).
fn scalar(definition: Option<&str>, json_type: Option<&str>) -> Scalar {
    if definition == Some(super::openapi::QUANTITY) {
        return Scalar::Untyped;
    }
    let format = definition.and_then(|d| FORMATS.iter().find(|(n, _)| *n == d).map(|(_, f)| *f));
    super::openapi::primitive(json_type, format)
}

/// A list field's relationship and keys.
fn list_kind(f: &FieldInfo<'_>) -> (Relationship, Vec<Str>) {
    match f.list_type {
        Some(ListType::Atomic) => (Relationship::Atomic, Vec::new()),
        Some(ListType::Set) => (Relationship::Associative, Vec::new()),
        Some(ListType::Map) => (
            Relationship::Associative,
            f.list_map_keys.iter().map(|k| Str::from(&**k)).collect(),
        ),
        None if f.patch.strategies.merge => (
            Relationship::Associative,
            f.patch.merge_key.map(Str::from).into_iter().collect(),
        ),
        None => (Relationship::Atomic, Vec::new()),
    }
}

/// The default a list-map key field has in `k8s.io/api` ([`KEY_DEFAULTS`]), for a definition
/// named in the embedded table or in an OpenAPI document.
pub(super) fn key_default(definition: Option<&str>, field: &str) -> Option<Value> {
    let definition = definition?;
    KEY_DEFAULTS
        .iter()
        .find(|(d, f, _)| *d == definition && *f == field)
        .map(|(_, _, v)| Value::from(*v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::typed;

    #[test]
    fn deployment_fields_have_their_list_and_map_types() {
        let k = embedded();
        let root = k.root_for_gvk("apps/v1", "Deployment").unwrap();
        let obj: Value = serde_json::from_str(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","labels":{"app":"a"}},
            "spec":{"replicas":1,"selector":{"matchLabels":{"app":"a"}},"template":{"spec":{
            "containers":[{"name":"nginx","image":"i","args":["a"],"ports":[{"containerPort":80}],
            "env":[{"name":"A","value":"1"}]}],"tolerations":[{"key":"k"}]}}}}"#,
        )
        .unwrap();
        let set = typed::to_field_set(&k.schema, root, &obj).unwrap();
        let text = crate::engine::ssa::fieldsv1::to_json(&set);
        assert_eq!(
            text,
            r#"{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:app":{}},"f:name":{}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:args":{},"f:env":{"k:{\"name\":\"A\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}},"f:tolerations":{}}}}}"#
        );
    }

    #[test]
    fn scalars_have_their_types_and_the_api_servers_messages() {
        // Each message as the API server's field manager (k8s.io/apimachinery v0.37.1, typed
        // by the 1.36 document) answered the same container.
        let k = embedded();
        let root = k.root_for_gvk("apps/v1", "Deployment").unwrap();
        let check = |container: &str| {
            let obj: Value = serde_json::from_str(&format!(
                r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"w"}},
                "spec":{{"template":{{"spec":{{"containers":[{{"name":"c",{container}}}]}}}}}}}}"#
            ))
            .unwrap();
            typed::validate(&k.schema, root, &obj, false)
                .err()
                .map(|e| e.0.join("\n"))
        };
        let at = r#".spec.template.spec.containers[name="c"]"#;
        assert_eq!(
            check(r#""image":5"#),
            Some(format!(
                "{at}.image: expected string, got &value.valueUnstructured{{Value:5}}"
            ))
        );
        assert_eq!(
            check(r#""image":{"a":1}"#),
            Some(format!(
                "{at}.image: expected string, got &value.valueUnstructured{{Value:map[string]interface {{}}{{\"a\":1}}}}"
            ))
        );
        assert_eq!(
            check(r#""readinessProbe":{"timeoutSeconds":"5"}"#),
            Some(format!(
                "{at}.readinessProbe.timeoutSeconds: expected numeric (int or float), got string"
            ))
        );
        assert_eq!(
            check(r#""stdin":"true""#),
            Some(format!("{at}.stdin: expected boolean, got &{{true}}"))
        );
        assert_eq!(
            check(r#""command":["a",5]"#),
            Some(format!(
                "{at}.command[1]: expected string, got &value.valueUnstructured{{Value:5}}"
            ))
        );
        // Quantity, IntOrString: a string or a number.
        assert_eq!(check(r#""resources":{"limits":{"cpu":1}}"#), None);
        assert_eq!(
            check(r#""readinessProbe":{"httpGet":{"port":"http"}}"#),
            None
        );
        assert_eq!(check(r#""readinessProbe":{"httpGet":{"port":80}}"#), None);
    }

    /// The counts `OPENAPI.md` gives for the 1.36 document: 308 + 89 atomic lists (no
    /// list-type means atomic), 80 keyed, 18 sets; 36 atomic struct definitions.
    #[test]
    fn every_list_and_atomic_struct_of_the_document_is_kept() {
        let k = embedded();
        // The document's own definitions: not the old versions' types kubectl compiles in,
        // which the embedded schema derives from them.
        let document = PatchSchema::from_compact(PatchSchema::embedded_asset()).unwrap();
        let (mut atomic, mut keyed, mut sets, mut atomic_structs) = (0, 0, 0, 0);
        for (name, _) in document.definitions() {
            let Some(tr) = k.schema.named(name) else {
                continue;
            };
            let Some(map) = k.schema.resolve(tr).and_then(|r| r.map()) else {
                continue;
            };
            if map.rel == Relationship::Atomic && !map.map.fields.is_empty() {
                atomic_structs += 1;
            }
            for f in &map.map.fields {
                let Some(r) = k.schema.resolve(f.ty) else {
                    continue;
                };
                // Untyped atoms (free-form, RawExtension) have a list part too.
                let Some(list) = r.list().filter(|_| r.scalar().is_none()) else {
                    continue;
                };
                match (list.rel, list.keys.is_empty()) {
                    (Relationship::Atomic, _) => atomic += 1,
                    (Relationship::Associative, false) => keyed += 1,
                    (Relationship::Associative, true) => sets += 1,
                    _ => {}
                }
            }
        }
        assert_eq!((atomic, keyed, sets), (308 + 89, 80, 18));
        assert_eq!(atomic_structs, 36);
    }

    /// `x-kubernetes-map-type` on a map property (`nodeSelector`: atomic) and on a `$ref`
    /// property over the referenced type's own (`claimRef`: granular over an atomic
    /// `ObjectReference`).
    #[test]
    fn property_map_types_override() {
        let k = embedded();
        let owned = |api_version: &str, kind: &str, json: &str| {
            let root = k.root_for_gvk(api_version, kind).unwrap();
            let obj: Value = serde_json::from_str(json).unwrap();
            let set = typed::to_field_set(&k.schema, root, &obj).unwrap();
            crate::engine::ssa::fieldsv1::to_json(&set)
        };
        assert_eq!(
            owned("v1", "Pod", r#"{"spec":{"nodeSelector":{"a":"b"}}}"#),
            r#"{"f:spec":{"f:nodeSelector":{}}}"#
        );
        assert_eq!(
            owned(
                "v1",
                "PersistentVolume",
                r#"{"spec":{"claimRef":{"name":"c"},"nodeAffinity":{"required":{"nodeSelectorTerms":[]}}}}"#
            ),
            r#"{"f:spec":{"f:claimRef":{"f:name":{}},"f:nodeAffinity":{"f:required":{}}}}"#
        );
        assert_eq!(
            owned(
                "v1",
                "Pod",
                r#"{"spec":{"volumes":[{"name":"v","configMap":{"name":"c"}}]}}"#
            ),
            r#"{"f:spec":{"f:volumes":{"k:{\"name\":\"v\"}":{".":{},"f:configMap":{"f:name":{}},"f:name":{}}}}}"#
        );
    }
}
