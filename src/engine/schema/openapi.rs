//! Reading a [`Schema`] from an OpenAPI document: v2 (`definitions`, `$ref:
//! #/definitions/X`) or v3 (`components.schemas`, `$ref: #/components/schemas/X`, possibly
//! wrapped as `allOf: [{$ref}]`, of which the first entry counts, as in apimachinery).
//!
//! A type is, in this order: a reference; opaque if it has
//! `x-kubernetes-preserve-unknown-fields: true`; a struct if it has `properties`; a list if
//! `type: array` (or no `type` but `items`); a map if it has `additionalProperties` (not `false`);
//! a scalar for `string`/`integer`/`number`/`boolean`; otherwise opaque. Field extensions are read
//! from the property schema itself, beside any `$ref`.
//!
//! A kind's scope comes from `paths`, as kubectl's discovery would tell it: an operation whose
//! `x-kubernetes-group-version-kind` names the kind, on the kind's own resource path
//! (`/api/{version}/` or `/apis/{group}/{version}/`, maybe `watch/`, then `{plural}` or
//! `{plural}/{name}`), makes it namespaced when that path is under `namespaces/{namespace}/`,
//! else cluster-scoped, and gives its resource (`{plural}`, which the API server's messages
//! name); namespaced wins (`/api/v1/configmaps` lists ConfigMaps of all
//! namespaces). Subresource paths (`.../{name}/status`, `/scale`, `/eviction`) carry other
//! kinds (`Scale`, `Eviction`) and tell nothing. The Namespace object's own paths are
//! `/api/v1/namespaces/{name}...`, cluster-scoped.

use std::collections::HashMap;

use crate::value::{Map, Value};

use super::model::{Builder, Field, Gvk, Node, NodeId, Scalar, Shape, Struct};
use super::{ListType, MapType, Schema, SchemaError, Strategies};

const PATCH_STRATEGY: &str = "x-kubernetes-patch-strategy";
const MERGE_KEY: &str = "x-kubernetes-patch-merge-key";
const LIST_TYPE: &str = "x-kubernetes-list-type";
const LIST_MAP_KEYS: &str = "x-kubernetes-list-map-keys";
const MAP_TYPE: &str = "x-kubernetes-map-type";
const GVK: &str = "x-kubernetes-group-version-kind";
const PRESERVE_UNKNOWN: &str = "x-kubernetes-preserve-unknown-fields";

impl Schema {
    /// Reads the definitions of an OpenAPI v2 or v3 document (whichever it is).
    ///
    /// # Errors
    /// When the document has no definitions, a `$ref` points nowhere, or an extension has the
    /// wrong type or an unknown value.
    pub fn from_openapi(doc: &Value) -> Result<Schema, SchemaError> {
        let defs = doc
            .get("definitions")
            .and_then(Value::as_object)
            .or_else(|| {
                doc.pointer("/components/schemas")
                    .and_then(Value::as_object)
            })
            .ok_or(SchemaError::NotOpenApi)?;
        let scopes = scopes(doc)?;
        let mut reader = Reader {
            b: Builder::new(),
            ids: HashMap::new(),
        };
        let mut def_ids = Vec::with_capacity(defs.len());
        for name in defs.keys() {
            let id = reader.b.push(Node {
                name: Some(name.as_str().into()),
                gvks: Box::new([]),
                map_type: None,
                shape: Shape::Opaque,
            })?;
            reader.ids.insert(name.as_str(), id);
            def_ids.push(id);
        }
        for ((name, body), id) in defs.iter().zip(def_ids) {
            let (shape, map_type, mut gvks) = match body.as_object() {
                Some(obj) => reader.definition(name, obj)?,
                None => (Shape::Opaque, None, Box::default()),
            };
            for gvk in gvks.iter_mut() {
                if let Some(&(namespaced, resource)) =
                    scopes.get(&(&*gvk.group, &*gvk.version, &*gvk.kind))
                {
                    gvk.namespaced = Some(namespaced);
                    gvk.resource = Some(resource.into());
                }
            }
            if let Some(node) = reader.b.nodes.get_mut(id as usize) {
                node.shape = shape;
                node.map_type = map_type;
                node.gvks = gvks;
            }
        }
        Ok(reader.b.finish())
    }
}

struct Reader<'d> {
    b: Builder,
    ids: HashMap<&'d str, NodeId>,
}

/// A definition's type, `x-kubernetes-map-type` and GVKs.
type Definition = (Shape, Option<MapType>, Box<[Gvk]>);

impl<'d> Reader<'d> {
    fn definition(&mut self, name: &str, obj: &'d Map) -> Result<Definition, SchemaError> {
        if self.reference(obj, name)?.is_some() {
            return Err(SchemaError::AliasDefinition(name.to_owned()));
        }
        Ok((
            self.shape(obj, name)?,
            map_type(obj, name)?,
            gvks(obj, name)?,
        ))
    }

    /// The type of a schema object (a property, `items`, `additionalProperties`).
    fn type_of(&mut self, schema: &'d Value, at: &str) -> Result<NodeId, SchemaError> {
        let Some(obj) = schema.as_object() else {
            return Ok(self.b.opaque());
        };
        if let Some(id) = self.reference(obj, at)? {
            return Ok(id);
        }
        let shape = self.shape(obj, at)?;
        self.b.anonymous(shape)
    }

    /// `$ref`, or the `$ref` of `allOf[0]`.
    fn reference(&self, obj: &'d Map, at: &str) -> Result<Option<NodeId>, SchemaError> {
        let direct = obj.get("$ref");
        let wrapped = || {
            obj.get("allOf")
                .and_then(Value::as_array)
                .and_then(|all| all.first())
                .and_then(|first| first.get("$ref"))
        };
        let Some(reference) = direct.or_else(wrapped).and_then(Value::as_str) else {
            return Ok(None);
        };
        let name = reference
            .strip_prefix("#/definitions/")
            .or_else(|| reference.strip_prefix("#/components/schemas/"));
        match name.and_then(|n| self.ids.get(n)) {
            Some(&id) => Ok(Some(id)),
            None => Err(SchemaError::UnresolvedRef {
                at: at.to_owned(),
                reference: reference.to_owned(),
            }),
        }
    }

    fn shape(&mut self, obj: &'d Map, at: &str) -> Result<Shape, SchemaError> {
        if obj.get(PRESERVE_UNKNOWN).and_then(Value::as_bool) == Some(true) {
            return Ok(Shape::Opaque);
        }
        if let Some(props) = obj.get("properties").and_then(Value::as_object) {
            let mut fields = Vec::with_capacity(props.len());
            for (name, prop) in props {
                let at = format!("{at}.{name}");
                fields.push(self.field(name, prop, &at)?);
            }
            return Ok(Shape::Struct(Struct::new(fields)));
        }
        let ty = type_name(obj);
        let items = obj.get("items").filter(|i| i.is_object());
        match ty {
            Some("array") => {
                let elem = match items {
                    Some(i) => self.type_of(i, &format!("{at}[]"))?,
                    None => self.b.opaque(),
                };
                Ok(Shape::List(elem))
            }
            Some("object") | None => {
                if let Some(ap) = obj
                    .get("additionalProperties")
                    .filter(|v| **v != Value::Bool(false))
                {
                    return Ok(Shape::Map(self.type_of(ap, &format!("{at}{{}}"))?));
                }
                match (ty, items) {
                    (None, Some(i)) => Ok(Shape::List(self.type_of(i, &format!("{at}[]"))?)),
                    _ => Ok(Shape::Opaque),
                }
            }
            Some(other) => {
                let format = obj.get("format").and_then(Value::as_str).unwrap_or("");
                Ok(scalar(other, format).map_or(Shape::Opaque, Shape::Scalar))
            }
        }
    }

    fn field(&mut self, name: &str, prop: &'d Value, at: &str) -> Result<Field, SchemaError> {
        let ty = self.type_of(prop, at)?;
        let empty = Map::new();
        let obj = prop.as_object().unwrap_or(&empty);
        let patch_strategy = string_ext(obj, PATCH_STRATEGY, at)?;
        let merge_key = string_ext(obj, MERGE_KEY, at)?.filter(|k| !k.is_empty());
        let list_type = match string_ext(obj, LIST_TYPE, at)? {
            Some(s) => {
                Some(ListType::parse(&s).ok_or_else(|| bad(at, LIST_TYPE, "atomic, set or map"))?)
            }
            None => None,
        };
        let list_map_keys = match obj.get(LIST_MAP_KEYS) {
            None => Box::new([]) as Box<[Box<str>]>,
            Some(v) => v
                .as_array()
                .and_then(|keys| {
                    keys.iter()
                        .map(|k| k.as_str().map(Box::from))
                        .collect::<Option<_>>()
                })
                .ok_or_else(|| bad(at, LIST_MAP_KEYS, "a list of strings"))?,
        };
        Ok(Field {
            name: name.into(),
            ty,
            strategies: patch_strategy
                .as_deref()
                .map(Strategies::parse)
                .unwrap_or_default(),
            patch_strategy,
            merge_key,
            list_type,
            list_map_keys,
            map_type: map_type(obj, at)?,
        })
    }
}

/// `type`, which v3 may also write as a list (`["string", "null"]`).
fn type_name(obj: &Map) -> Option<&str> {
    match obj.get("type")? {
        Value::String(s) => Some(s),
        Value::Array(all) => all.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

fn scalar(ty: &str, format: &str) -> Option<Scalar> {
    Some(match (ty, format) {
        ("string", "byte") => Scalar::Bytes,
        ("string", _) => Scalar::String,
        ("integer", "int32") => Scalar::Int32,
        ("integer", "int64") => Scalar::Int64,
        ("integer", _) => Scalar::Int,
        ("number", "float") => Scalar::Float32,
        ("number", "double") => Scalar::Float64,
        ("number", _) => Scalar::Number,
        ("boolean", _) => Scalar::Bool,
        _ => return None,
    })
}

fn bad(at: &str, extension: &'static str, expected: &'static str) -> SchemaError {
    SchemaError::BadExtension {
        at: at.to_owned(),
        extension,
        expected,
    }
}

fn string_ext(obj: &Map, ext: &'static str, at: &str) -> Result<Option<Box<str>>, SchemaError> {
    match obj.get(ext) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str().into())),
        Some(_) => Err(bad(at, ext, "a string")),
    }
}

fn map_type(obj: &Map, at: &str) -> Result<Option<MapType>, SchemaError> {
    match string_ext(obj, MAP_TYPE, at)? {
        Some(s) => MapType::parse(&s)
            .map(Some)
            .ok_or_else(|| bad(at, MAP_TYPE, "atomic or granular")),
        None => Ok(None),
    }
}

fn gvks(obj: &Map, at: &str) -> Result<Box<[Gvk]>, SchemaError> {
    let Some(list) = obj.get(GVK) else {
        return Ok(Box::new([]));
    };
    let expected = "a list of {group, version, kind} strings";
    let list = list.as_array().ok_or_else(|| bad(at, GVK, expected))?;
    list.iter()
        .map(|g| match gvk_parts(g) {
            Some((group, version, kind)) => Ok(Gvk {
                group: group.into(),
                version: version.into(),
                kind: kind.into(),
                namespaced: None,
                resource: None,
            }),
            None => Err(bad(at, GVK, expected)),
        })
        .collect()
}

/// `{group, version, kind}`.
fn gvk_parts(g: &Value) -> Option<(&str, &str, &str)> {
    let part = |k: &str| g.get(k).and_then(Value::as_str);
    Some((part("group")?, part("version")?, part("kind")?))
}

/// `(group, version, kind)` borrowed from the document.
type GvkKey<'d> = (&'d str, &'d str, &'d str);

/// Whether each kind with a resource path of its own is namespaced, and its resource (the
/// plural: `deployments`; see the module doc; of two, the first in byte order).
fn scopes(doc: &Value) -> Result<HashMap<GvkKey<'_>, (bool, &str)>, SchemaError> {
    let mut scopes = HashMap::new();
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
        return Ok(scopes);
    };
    for (path, item) in paths {
        let Some((namespaced, resource)) = resource_path_scope(path) else {
            continue;
        };
        // Operations, beside `parameters` (a list) and other keys.
        let operations = item.as_object().into_iter().flatten();
        for (method, op) in operations {
            let Some(gvk) = op.as_object().and_then(|op| op.get(GVK)) else {
                continue;
            };
            let key = gvk_parts(gvk).ok_or_else(|| {
                bad(
                    &format!("paths.{path}.{method}"),
                    GVK,
                    "a {group, version, kind} of strings",
                )
            })?;
            let scope = scopes.entry(key).or_insert((false, resource));
            scope.0 |= namespaced;
            scope.1 = scope.1.min(resource);
        }
    }
    Ok(scopes)
}

/// For a kind's own resource path (`/api/{version}/` or `/apis/{group}/{version}/`, maybe
/// `watch/`, maybe `namespaces/{namespace}/`, then `{plural}` or `{plural}/{name}`), whether it
/// is under a namespace, and the plural; `None` for any other path (subresources, discovery,
/// `/version`).
fn resource_path_scope(path: &str) -> Option<(bool, &str)> {
    let rest = if let Some(rest) = path.strip_prefix("/api/") {
        rest.split_once('/')?.1
    } else {
        path.strip_prefix("/apis/")?.splitn(3, '/').nth(2)?
    };
    let rest = rest.strip_prefix("watch/").unwrap_or(rest);
    let segments: Vec<&str> = rest.split('/').collect();
    let (namespaced, resource) = match segments.as_slice() {
        ["namespaces", "{namespace}", resource @ ..] if !resource.is_empty() => (true, resource),
        resource => (false, resource),
    };
    let is_param = |s: &str| s.len() > 2 && s.starts_with('{') && s.ends_with('}');
    match resource {
        [plural] | [plural, _] if plural.is_empty() || is_param(plural) => None,
        [plural] => Some((namespaced, *plural)),
        [plural, name] if is_param(name) => Some((namespaced, *plural)),
        _ => None,
    }
}
