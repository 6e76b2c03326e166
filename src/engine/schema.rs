//! Patch metadata: for each field, its patch strategy, merge key and list/map type.
//!
//! A [`Schema`] comes from an OpenAPI v2 or v3 document ([`Schema::from_openapi`]) or from the
//! table embedded for Kubernetes' built-in kinds ([`Schema::embedded`]). A [`Meta`] is a cursor
//! on one type of it; the strategic merge code walks documents with [`Meta::lookup_struct`] and
//! [`Meta::lookup_slice`], which answer as apimachinery's `PatchMetaFromStruct` does (the Go
//! struct path kubectl takes): field names match exactly, else case-insensitively; a struct-typed
//! field looked up as a list stands for its own element (a Go pointer); anything untyped
//! (`RawExtension`, `x-kubernetes-preserve-unknown-fields`, a schema without properties)
//! accepts every key and declares nothing.
//!
//! A schema also knows which kinds are namespaced and which cluster-scoped
//! ([`Schema::is_namespaced`]), as kubectl learns from discovery; it reads that from the
//! document's `paths`.

mod compact;
mod embedded;
mod gostr;
mod kubectl_scheme;
mod model;
mod openapi;
#[cfg(test)]
mod testdocs;
#[cfg(test)]
mod tests;

use std::fmt;

pub use embedded::EMBEDDED_KUBERNETES_VERSION;
/// Go's `%q` (`strconv.Quote`), as the reference prints keys and names in its messages.
pub(crate) use gostr::quote as go_quote;
pub use model::Schema;
use model::{Field, Node, NodeId, Scalar, Shape};

/// The patch strategies a field declares (`x-kubernetes-patch-strategy`, comma separated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strategies {
    pub merge: bool,
    pub retain_keys: bool,
    pub replace: bool,
}

impl Strategies {
    /// Reads `merge`, `retainKeys` and `replace` from a comma-separated list, as Go's
    /// `strings.Split(strategy, ",")` does (no trimming); other words are ignored.
    #[must_use]
    pub fn parse(list: &str) -> Strategies {
        let mut s = Strategies::default();
        for word in list.split(',') {
            match word {
                "merge" => s.merge = true,
                "retainKeys" => s.retain_keys = true,
                "replace" => s.replace = true,
                _ => {}
            }
        }
        s
    }
}

/// What a field declares for patching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatchMeta<'s> {
    pub strategies: Strategies,
    /// `x-kubernetes-patch-merge-key`.
    pub merge_key: Option<&'s str>,
}

/// A lookup failed (e.g. `unable to find api field in struct ConfigMap for the json field "bogus"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookupError(pub String);

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LookupError {}

/// A document could not be read as a schema.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    #[error("not an OpenAPI document: no `definitions` (v2) or `components.schemas` (v3) object")]
    NotOpenApi,
    #[error("{at}: unresolved reference {reference:?}")]
    UnresolvedRef { at: String, reference: String },
    #[error("{at}: {extension} must be {expected}")]
    BadExtension {
        at: String,
        extension: &'static str,
        expected: &'static str,
    },
    #[error("definition {0}: a definition that is only a `$ref` is not supported")]
    AliasDefinition(String),
    #[error("compact schema: {0}")]
    Compact(String),
    #[error("schema has more than 2^32 types")]
    TooLarge,
}

/// `x-kubernetes-list-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListType {
    Atomic,
    Set,
    Map,
}

impl ListType {
    /// The extension's value (`atomic`, `set`, `map`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ListType::Atomic => "atomic",
            ListType::Set => "set",
            ListType::Map => "map",
        }
    }

    fn parse(s: &str) -> Option<ListType> {
        [ListType::Atomic, ListType::Set, ListType::Map]
            .into_iter()
            .find(|t| t.as_str() == s)
    }
}

/// `x-kubernetes-map-type` (on a map field, or on a struct definition).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapType {
    Atomic,
    Granular,
}

impl MapType {
    /// The extension's value (`atomic`, `granular`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            MapType::Atomic => "atomic",
            MapType::Granular => "granular",
        }
    }

    fn parse(s: &str) -> Option<MapType> {
        [MapType::Atomic, MapType::Granular]
            .into_iter()
            .find(|t| t.as_str() == s)
    }
}

/// The shape of the type under a cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No metadata (also [`Meta::opaque`]).
    Opaque,
    /// An object with known fields.
    Struct,
    /// `additionalProperties`: an object with arbitrary keys.
    Map,
    List,
    /// string, number, integer, boolean (including `Quantity`, `IntOrString`, `Time`).
    Scalar,
}

/// Everything a struct field declares, for code beyond strategic merge (list types, map types).
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo<'s> {
    /// The field's name in the schema (which may differ in case from the key looked up).
    pub name: &'s str,
    /// The type of the field's value.
    pub meta: Meta<'s>,
    pub patch: PatchMeta<'s>,
    /// `x-kubernetes-patch-strategy` as written (`merge,retainKeys`).
    pub patch_strategy: Option<&'s str>,
    pub list_type: Option<ListType>,
    /// `x-kubernetes-list-map-keys`; empty when absent.
    pub list_map_keys: &'s [Box<str>],
    pub map_type: Option<MapType>,
}

/// A cursor into a schema: the type of the value at hand. `Meta::opaque()` has no metadata:
/// every lookup succeeds with no strategy (apimachinery's nil schema).
#[derive(Clone, Copy)]
pub struct Meta<'s> {
    at: Option<(&'s Schema, NodeId)>,
}

impl fmt::Debug for Meta<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.node() {
            Some((_, n)) => match &n.name {
                Some(name) => write!(f, "Meta({name})"),
                None => write!(f, "Meta({:?})", self.kind()),
            },
            None => f.write_str("Meta(opaque)"),
        }
    }
}

impl<'s> Meta<'s> {
    /// No metadata: lookups succeed and declare nothing.
    #[must_use]
    pub const fn opaque() -> Self {
        Meta { at: None }
    }

    fn at(schema: &'s Schema, id: NodeId) -> Self {
        Meta {
            at: Some((schema, id)),
        }
    }

    fn node(self) -> Option<(&'s Schema, &'s Node)> {
        let (schema, id) = self.at?;
        schema.node(id).map(|n| (schema, n))
    }

    /// The node, unless there is nothing to know (opaque).
    fn typed(self) -> Option<(&'s Schema, &'s Node)> {
        self.node().filter(|(_, n)| !n.is_opaque())
    }

    /// Metadata of the object field `key` and the type of its value.
    ///
    /// # Errors
    /// When the type at hand is a struct without such a field, or not a struct.
    pub fn lookup_struct(self, key: &str) -> Result<(Meta<'s>, PatchMeta<'s>), LookupError> {
        let Some((schema, node)) = self.typed() else {
            return Ok((Meta::opaque(), PatchMeta::default()));
        };
        let not_struct = |kind: &str| {
            LookupError(format!(
                "merging an object in json but data type is not struct, instead is: {kind}"
            ))
        };
        match &node.shape {
            Shape::Struct(st) => match st.find(key) {
                Some(field) => Ok((Meta::at(schema, field.ty), patch_meta(field))),
                None => Err(not_found(node, key)),
            },
            // Quantity, IntOrString, Time: Go structs without JSON fields.
            Shape::Scalar(_) if node.name.is_some() => Err(not_found(node, key)),
            Shape::Scalar(s) => Err(not_struct(s.go_kind())),
            Shape::Map(_) => Err(not_struct("map")),
            Shape::List(_) => Err(not_struct("slice")),
            Shape::Opaque => Ok((Meta::opaque(), PatchMeta::default())),
        }
    }

    /// Metadata of the list field `key` and the type of its elements.
    ///
    /// # Errors
    /// As [`Meta::lookup_struct`], and when the field is not a list.
    pub fn lookup_slice(self, key: &str) -> Result<(Meta<'s>, PatchMeta<'s>), LookupError> {
        let Some((schema, _)) = self.typed() else {
            return Ok((Meta::opaque(), PatchMeta::default()));
        };
        let (field, patch) = self.lookup_struct(key)?;
        let Some((_, node)) = field.node() else {
            return Ok((field, patch));
        };
        match &node.shape {
            Shape::Opaque => Ok((field, patch)),
            Shape::List(elem) => {
                let elem_is_slice = schema.node(*elem).is_some_and(|e| go_kind(e) == "slice");
                if elem_is_slice {
                    return Err(LookupError("unexpected slice of slice".to_owned()));
                }
                Ok((Meta::at(schema, *elem), patch))
            }
            Shape::Scalar(Scalar::Bytes) if node.name.is_none() => {
                Ok((Meta::at(schema, schema.uint8), patch))
            }
            // A named type stands for a Go pointer to it, which meta.go takes as its own
            // element (`mergeItemPtr *MergeItem` merged as a list of MergeItem).
            _ if node.name.is_some() => Ok((field, patch)),
            _ => Err(LookupError(
                "expected slice or array type, but got: struct".to_owned(),
            )),
        }
    }

    /// Everything the struct field `key` declares (exact name, else case-insensitive); `None`
    /// when the type at hand is not a struct or has no such field.
    #[must_use]
    pub fn field_info(self, key: &str) -> Option<FieldInfo<'s>> {
        let (schema, node) = self.node()?;
        match &node.shape {
            Shape::Struct(st) => st.find(key).map(|f| field_info(schema, f)),
            _ => None,
        }
    }

    /// The fields of a struct, in document order (none for other kinds).
    pub fn fields(self) -> impl Iterator<Item = FieldInfo<'s>> {
        let found = self.node().and_then(|(schema, node)| match &node.shape {
            Shape::Struct(st) => Some((schema, st)),
            _ => None,
        });
        found
            .into_iter()
            .flat_map(|(schema, st)| st.fields().map(move |f| field_info(schema, f)))
    }

    /// What the type at hand is.
    #[must_use]
    pub fn kind(self) -> Kind {
        match self.node().map(|(_, n)| &n.shape) {
            None | Some(Shape::Opaque) => Kind::Opaque,
            Some(Shape::Struct(_)) => Kind::Struct,
            Some(Shape::Map(_)) => Kind::Map,
            Some(Shape::List(_)) => Kind::List,
            Some(Shape::Scalar(_)) => Kind::Scalar,
        }
    }

    /// The OpenAPI `type` of a scalar (`string`, `integer`, `number`, `boolean`); `None` for
    /// any other kind.
    #[must_use]
    pub fn json_type(self) -> Option<&'static str> {
        match self.node().map(|(_, n)| &n.shape) {
            Some(Shape::Scalar(s)) => Some(s.json_type()),
            _ => None,
        }
    }

    /// Is there nothing to know about this type?
    #[must_use]
    pub fn is_opaque(self) -> bool {
        self.kind() == Kind::Opaque
    }

    /// The element type of a list, or the value type of a map.
    #[must_use]
    pub fn elem(self) -> Option<Meta<'s>> {
        let (schema, node) = self.node()?;
        match node.shape {
            Shape::List(e) | Shape::Map(e) => Some(Meta::at(schema, e)),
            _ => None,
        }
    }

    /// The definition name, for a named type.
    #[must_use]
    pub fn definition(self) -> Option<&'s str> {
        self.node().and_then(|(_, n)| n.name.as_deref())
    }

    /// The definition's own `x-kubernetes-map-type` (e.g. `LabelSelector` is `atomic`).
    #[must_use]
    pub fn map_type(self) -> Option<MapType> {
        self.node().and_then(|(_, n)| n.map_type)
    }
}

fn patch_meta(field: &Field) -> PatchMeta<'_> {
    PatchMeta {
        strategies: field.strategies,
        merge_key: field.merge_key.as_deref(),
    }
}

fn field_info<'s>(schema: &'s Schema, f: &'s Field) -> FieldInfo<'s> {
    FieldInfo {
        name: &f.name,
        meta: Meta::at(schema, f.ty),
        patch: patch_meta(f),
        patch_strategy: f.patch_strategy.as_deref(),
        list_type: f.list_type,
        list_map_keys: &f.list_map_keys,
        map_type: f.map_type,
    }
}

/// `unable to find api field in struct %s for the json field %q` (forked `encoding/json`).
fn not_found(node: &Node, key: &str) -> LookupError {
    LookupError(format!(
        "unable to find api field in struct {} for the json field {}",
        node.go_name(),
        gostr::quote(key)
    ))
}

/// Go `reflect.Kind` of a node's type: named types are Go structs unless lists or maps.
fn go_kind(node: &Node) -> &'static str {
    match &node.shape {
        Shape::List(_) => "slice",
        Shape::Map(_) => "map",
        _ if node.name.is_some() => "struct",
        Shape::Struct(_) => "struct",
        Shape::Scalar(s) => s.go_kind(),
        Shape::Opaque => "interface",
    }
}
