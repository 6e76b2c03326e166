//! The SMD schema read straight from an OpenAPI document, v2 (`definitions`) or v3
//! (`components.schemas`), as kube-openapi's `schemaconv` reads it: for a cluster's own
//! OpenAPI v3 (CRDs included), where [`super::kubernetes`] starts from the embedded table.
//!
//! | OpenAPI | SMD |
//! | --- | --- |
//! | `$ref` (or `allOf: [{$ref}]`, v3) | the named type; the property's `x-kubernetes-map-type` overrides its relationship |
//! | `properties` | map with fields; `x-kubernetes-preserve-unknown-fields` gives other keys the deduced type |
//! | `additionalProperties: <schema>` | map of that type |
//! | `object` with neither, no type, `additionalProperties: true`, preserve-unknown without properties | `__untyped_deduced_` |
//! | `array` + `x-kubernetes-list-type` / `-list-map-keys` (else patch strategy `merge` + merge key, else atomic) | list |
//! | `x-kubernetes-map-type` on an object | its map relationship |
//! | `integer`, `number` / `boolean` / `string` (format `""`, `byte`) / other formats, `int-or-string` | numeric / boolean / string / untyped scalar |
//! | `Quantity`; `RawExtension` | untyped scalar; `__untyped_atomic_` |
//! | property `default` (v3) | the field's default, used to fill a missing list-map key |
//!
//! OpenAPI v2 has no defaults; its three list-map keys that need one take
//! [`super::kubernetes::KEY_DEFAULTS`].

use std::collections::HashMap;

use super::kubernetes::key_default;
use super::schema::{
    Atom, List, MapType, Relationship, Scalar, Schema, SchemaError, StructField, TypeRef,
    UNTYPED_ATOMIC, UNTYPED_DEDUCED,
};
use crate::engine::MAX_DEPTH;
use crate::value::{Map, Str, Value};

/// Typed as an untyped scalar by name (kube-openapi hard-codes it: a string or a number).
pub(super) const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";

/// The scalar structured-merge-diff gives an OpenAPI primitive (kube-openapi's
/// `convertPrimitive`): `string` of format `""` or `byte`, numeric (`integer`, `number`),
/// boolean; untyped for any other string format (`date-time`, `int-or-string`) or type. The API
/// server refuses an applied value of another type (`expected string, got …`).
pub(super) fn primitive(ty: Option<&str>, format: Option<&str>) -> Scalar {
    match (ty, format) {
        (Some("integer" | "number"), _) => Scalar::Numeric,
        (Some("boolean"), _) => Scalar::Boolean,
        (Some("string"), None | Some("" | "byte")) => Scalar::String,
        _ => Scalar::Untyped,
    }
}
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";

/// A schema read from an OpenAPI document, with the root type of each kind.
#[derive(Debug)]
pub struct OpenApiSchema {
    pub schema: Schema,
    /// `(group, version, kind)` → definition name.
    kinds: HashMap<(String, String, String), Str>,
}

impl OpenApiSchema {
    /// The root type of objects of this `apiVersion` (`apps/v1`, `v1`) and `kind`.
    #[must_use]
    pub fn root_for_gvk(&self, api_version: &str, kind: &str) -> Option<TypeRef> {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        let name = self
            .kinds
            .get(&(group.to_owned(), version.to_owned(), kind.to_owned()))?;
        self.schema.named(name)
    }
}

/// Reads every definition of an OpenAPI v2 or v3 document.
///
/// # Errors
/// When the document has neither `definitions` nor `components.schemas`, or nests deeper than
/// [`MAX_DEPTH`].
pub fn from_openapi(doc: &Value) -> Result<OpenApiSchema, SchemaError> {
    from_openapi_documents([doc])
}

/// Reads the definitions of several documents as one schema: a cluster serves OpenAPI v3 as
/// one document per group version (`/openapi/v3/apis/apps/v1`), whose definition names are
/// global; a name defined twice keeps its first definition.
///
/// # Errors
/// As [`from_openapi`], for any of the documents.
pub fn from_openapi_documents<'d>(
    docs: impl IntoIterator<Item = &'d Value>,
) -> Result<OpenApiSchema, SchemaError> {
    let mut defs: Vec<(&Str, &Value)> = Vec::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for doc in docs {
        let found = doc
            .get("definitions")
            .or_else(|| doc.get("components").and_then(|c| c.get("schemas")))
            .and_then(Value::as_object)
            .ok_or_else(|| SchemaError("not an OpenAPI document".to_owned()))?;
        for (name, def) in found {
            if seen.insert(name.as_str()) {
                defs.push((name, def));
            }
        }
    }
    let mut c = Converter {
        schema: Schema::new(),
    };
    let atomic = c.schema.declare(UNTYPED_ATOMIC);
    let deduced = c.schema.declare(UNTYPED_DEDUCED);
    c.schema
        .set_atom(atomic, untyped(atomic, atomic, Relationship::Atomic));
    c.schema
        .set_atom(deduced, untyped(atomic, deduced, Relationship::Separable));
    for (name, _) in &defs {
        c.schema.declare(name);
    }
    let mut kinds = HashMap::new();
    for (name, def) in defs {
        let tr = c.schema.named(name).unwrap_or_else(|| c.schema.empty_ref());
        let atom = match name.as_str() {
            QUANTITY => scalar_atom(Scalar::Untyped),
            RAW_EXTENSION => untyped(atomic, atomic, Relationship::Atomic),
            _ => c.atom(def, Some(name), 0)?,
        };
        c.schema.set_atom(tr, atom);
        for gvk in def
            .get("x-kubernetes-group-version-kind")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let s = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            kinds
                .entry((s("group"), s("version"), s("kind")))
                .or_insert_with(|| name.clone());
        }
    }
    Ok(OpenApiSchema {
        schema: c.schema,
        kinds,
    })
}

fn untyped(list_elem: TypeRef, map_elem: TypeRef, map_rel: Relationship) -> Atom {
    Atom {
        scalar: Some(Scalar::Untyped),
        list: Some(List {
            elem: list_elem,
            rel: Relationship::Atomic,
            keys: Vec::new(),
        }),
        map: Some(MapType::new(Vec::new(), map_elem, map_rel)),
        ..Atom::default()
    }
}

fn scalar_atom(s: Scalar) -> Atom {
    Atom {
        scalar: Some(s),
        ..Atom::default()
    }
}

struct Converter {
    schema: Schema,
}

fn str_ext<'a>(obj: &'a Map, key: &str) -> Option<&'a str> {
    obj.get(key).and_then(Value::as_str)
}

/// The definition a schema refers to: `$ref`, or v3's `allOf: [{$ref}]`.
fn reference(obj: &Map) -> Option<&str> {
    let r = obj.get("$ref").and_then(Value::as_str).or_else(|| {
        match obj
            .get("allOf")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        {
            Some([one]) => one.get("$ref").and_then(Value::as_str),
            _ => None,
        }
    })?;
    r.rsplit_once('/').map(|(_, name)| name)
}

impl Converter {
    fn deduced(&self) -> TypeRef {
        self.schema
            .named(UNTYPED_DEDUCED)
            .unwrap_or_else(|| self.schema.empty_ref())
    }

    fn atomic(&self) -> TypeRef {
        self.schema
            .named(UNTYPED_ATOMIC)
            .unwrap_or_else(|| self.schema.empty_ref())
    }

    /// The type of a property or an item: a reference, or an inline atom.
    fn type_of(&mut self, v: &Value, depth: usize) -> Result<TypeRef, SchemaError> {
        let empty = Map::new();
        let obj = v.as_object().unwrap_or(&empty);
        let base = match reference(obj) {
            Some(name) => self.schema.declare(name),
            None => {
                let atom = self.atom(v, None, depth + 1)?;
                if atom.map.as_ref().is_some_and(|m| {
                    m.fields.is_empty() && m.elem == self.deduced() && atom.list.is_some()
                }) {
                    self.deduced()
                } else {
                    self.schema.inline(atom)
                }
            }
        };
        let rel = match str_ext(obj, "x-kubernetes-map-type") {
            Some("atomic") if reference(obj).is_some() => Some(Relationship::Atomic),
            Some("granular") if reference(obj).is_some() => Some(Relationship::Separable),
            _ => None,
        };
        Ok(rel.map_or(base, |rel| Schema::with_relationship(base, rel)))
    }

    fn atom(
        &mut self,
        v: &Value,
        definition: Option<&str>,
        depth: usize,
    ) -> Result<Atom, SchemaError> {
        if depth > MAX_DEPTH {
            return Err(SchemaError(format!(
                "schema nests deeper than {MAX_DEPTH} levels"
            )));
        }
        let empty = Map::new();
        let obj = v.as_object().unwrap_or(&empty);
        let ty = str_ext(obj, "type");
        let preserve = obj
            .get("x-kubernetes-preserve-unknown-fields")
            .and_then(Value::as_bool)
            == Some(true);
        let map_rel = match str_ext(obj, "x-kubernetes-map-type") {
            Some("atomic") => Relationship::Atomic,
            _ => Relationship::Separable,
        };
        if obj
            .get("x-kubernetes-int-or-string")
            .and_then(Value::as_bool)
            == Some(true)
        {
            return Ok(scalar_atom(Scalar::Untyped));
        }
        if let Some(props) = obj.get("properties").and_then(Value::as_object) {
            let mut fields = Vec::with_capacity(props.len());
            for (name, prop) in props {
                let default = prop
                    .get("default")
                    .cloned()
                    .or_else(|| key_default(definition, name));
                fields.push(StructField {
                    name: name.clone(),
                    ty: self.type_of(prop, depth)?,
                    default,
                });
            }
            let elem = if preserve {
                self.deduced()
            } else {
                match obj.get("additionalProperties") {
                    Some(ap) if ap.is_object() => self.type_of(ap, depth)?,
                    _ => self.schema.empty_ref(),
                }
            };
            return Ok(Atom {
                map: Some(MapType::new(fields, elem, map_rel)),
                ..Atom::default()
            });
        }
        match ty {
            Some("array") => {
                let elem = match obj.get("items") {
                    Some(items) if items.is_object() => self.type_of(items, depth)?,
                    _ => self.atomic(),
                };
                let (rel, keys) = list_kind(obj);
                Ok(Atom {
                    list: Some(List { elem, rel, keys }),
                    ..Atom::default()
                })
            }
            Some(t @ ("integer" | "number" | "boolean" | "string")) => {
                Ok(scalar_atom(primitive(Some(t), str_ext(obj, "format"))))
            }
            _ => match obj.get("additionalProperties") {
                Some(ap) if ap.is_object() && !preserve => {
                    let elem = self.type_of(ap, depth)?;
                    Ok(Atom {
                        map: Some(MapType::new(Vec::new(), elem, map_rel)),
                        ..Atom::default()
                    })
                }
                _ => Ok(untyped(
                    self.atomic(),
                    self.deduced(),
                    Relationship::Separable,
                )),
            },
        }
    }
}

/// A list's relationship and keys from its own extensions.
fn list_kind(obj: &Map) -> (Relationship, Vec<Str>) {
    let keys = || -> Vec<Str> {
        obj.get("x-kubernetes-list-map-keys")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(Str::from)
            .collect()
    };
    match str_ext(obj, "x-kubernetes-list-type") {
        Some("atomic") => (Relationship::Atomic, Vec::new()),
        Some("set") => (Relationship::Associative, Vec::new()),
        Some("map") => (Relationship::Associative, keys()),
        _ => {
            let strategy = str_ext(obj, "x-kubernetes-patch-strategy").unwrap_or("");
            if strategy.split(',').any(|s| s == "merge") {
                let key = str_ext(obj, "x-kubernetes-patch-merge-key").filter(|k| !k.is_empty());
                (
                    Relationship::Associative,
                    key.map(Str::from).into_iter().collect(),
                )
            } else {
                (Relationship::Atomic, Vec::new())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::{fieldsv1, typed};

    fn v(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    /// A CRD-like v3 schema: preserve-unknown-fields with properties keeps the declared
    /// list types; defaults fill missing keys; `int-or-string` is a scalar.
    #[test]
    fn a_v3_custom_resource() {
        let doc = v(r#"{"components":{"schemas":{"com.example.v1.Widget":{
            "type":"object",
            "x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Widget"}],
            "properties":{
              "apiVersion":{"type":"string"},"kind":{"type":"string"},
              "metadata":{"type":"object"},
              "spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{
                "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port","protocol"],
                  "items":{"type":"object","properties":{"port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"},
                  "target":{"x-kubernetes-int-or-string":true}}}},
                "tags":{"type":"array","items":{"type":"string"}},
                "selector":{"type":"object","x-kubernetes-map-type":"atomic","additionalProperties":{"type":"string"}}
              }}}}}}}"#);
        let s = from_openapi(&doc).unwrap();
        let root = s.root_for_gvk("example.com/v1", "Widget").unwrap();
        let obj = v(
            r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},
            "spec":{"ports":[{"port":80,"target":"http"}],"tags":["a"],"selector":{"a":"b"},"extra":{"x":1}}}"#,
        );
        typed::validate(&s.schema, root, &obj, false).unwrap();
        let set = typed::to_field_set(&s.schema, root, &obj).unwrap();
        assert_eq!(
            fieldsv1::to_json(&set),
            r#"{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:name":{}},"f:spec":{"f:extra":{".":{},"f:x":{}},"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{},"f:target":{}}},"f:selector":{},"f:tags":{}}}"#
        );
    }

    /// Group-version documents reference each other's definitions by global names.
    #[test]
    fn several_documents_are_one_schema() {
        let meta = v(
            r#"{"components":{"schemas":{"io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta":{
            "type":"object","properties":{"name":{"type":"string"},
            "finalizers":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"}}}}}}"#,
        );
        let app = v(
            r##"{"components":{"schemas":{"io.example.v1.App":{"type":"object",
            "x-kubernetes-group-version-kind":[{"group":"example.io","version":"v1","kind":"App"}],
            "properties":{"metadata":{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]}}}}}}"##,
        );
        let s = from_openapi_documents([&app, &meta]).unwrap();
        let root = s.root_for_gvk("example.io/v1", "App").unwrap();
        let obj = v(r#"{"metadata":{"finalizers":["a"]}}"#);
        let set = typed::to_field_set(&s.schema, root, &obj).unwrap();
        assert_eq!(
            fieldsv1::to_json(&set),
            r#"{"f:metadata":{"f:finalizers":{"v:\"a\"":{}}}}"#
        );
    }
}
