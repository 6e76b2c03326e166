//! The schema's tables: one node per type (named definitions and the inline types they use),
//! each struct's fields with a by-name index for binary search, and a sorted GVK index (with
//! each kind's scope, namespaced or cluster-wide, when known).
//!
//! Built by [`Builder`] from either source ([`super::openapi`], [`super::compact`]).

use std::collections::HashMap;

use super::gostr::equal_fold;
use super::{ListType, MapType, Meta, SchemaError, Strategies};

/// Index of a node in [`Schema::nodes`].
pub(super) type NodeId = u32;

/// A primitive type: OpenAPI `type` (and `format`), with the Go kind it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Scalar {
    String,
    /// `string` + `format: byte`: Go `[]byte`.
    Bytes,
    Int32,
    Int64,
    /// `integer` with no or another format.
    Int,
    Float32,
    Float64,
    /// `number` with no or another format.
    Number,
    Bool,
    /// The element of [`Scalar::Bytes`]; no document spells it.
    Uint8,
}

impl Scalar {
    pub(super) const ALL: [Scalar; 10] = [
        Scalar::String,
        Scalar::Bytes,
        Scalar::Int32,
        Scalar::Int64,
        Scalar::Int,
        Scalar::Float32,
        Scalar::Float64,
        Scalar::Number,
        Scalar::Bool,
        Scalar::Uint8,
    ];

    /// Short name in the compact format.
    pub(super) fn code(self) -> &'static str {
        match self {
            Scalar::String => "s",
            Scalar::Bytes => "y",
            Scalar::Int32 => "i32",
            Scalar::Int64 => "i64",
            Scalar::Int => "i",
            Scalar::Float32 => "f32",
            Scalar::Float64 => "f64",
            Scalar::Number => "n",
            Scalar::Bool => "b",
            Scalar::Uint8 => "u8",
        }
    }

    pub(super) fn from_code(code: &str) -> Option<Scalar> {
        Scalar::ALL.into_iter().find(|s| s.code() == code)
    }

    /// The OpenAPI `type` it was read from.
    pub(super) fn json_type(self) -> &'static str {
        match self {
            Scalar::String | Scalar::Bytes => "string",
            Scalar::Int32 | Scalar::Int64 | Scalar::Int | Scalar::Uint8 => "integer",
            Scalar::Float32 | Scalar::Float64 | Scalar::Number => "number",
            Scalar::Bool => "boolean",
        }
    }

    /// Go's `reflect.Kind` name, as `merging an object in json but ... instead is: %s` prints it.
    pub(super) fn go_kind(self) -> &'static str {
        match self {
            Scalar::String => "string",
            Scalar::Bytes => "slice",
            Scalar::Int32 => "int32",
            Scalar::Int64 => "int64",
            Scalar::Int => "int",
            Scalar::Float32 => "float32",
            Scalar::Float64 | Scalar::Number => "float64",
            Scalar::Bool => "bool",
            Scalar::Uint8 => "uint8",
        }
    }
}

/// What a node is.
#[derive(Debug)]
pub(super) enum Shape {
    /// Nothing known: any lookup succeeds without metadata.
    Opaque,
    Scalar(Scalar),
    List(NodeId),
    Map(NodeId),
    Struct(Struct),
}

/// Hashable form of the shapes that are interned (everything but structs).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Interned {
    Opaque,
    Scalar(Scalar),
    List(NodeId),
    Map(NodeId),
}

#[derive(Debug)]
pub(super) struct Node {
    /// Definition name, for named types.
    pub(super) name: Option<Box<str>>,
    pub(super) gvks: Box<[Gvk]>,
    /// `x-kubernetes-map-type` of the definition.
    pub(super) map_type: Option<MapType>,
    pub(super) shape: Shape,
}

impl Node {
    pub(super) fn is_opaque(&self) -> bool {
        matches!(self.shape, Shape::Opaque)
    }

    /// The Go type name, as `%s` of `reflect.Type.Name()` prints it: the last dot-separated
    /// segment of the definition name; empty for an anonymous struct.
    pub(super) fn go_name(&self) -> &str {
        self.name
            .as_deref()
            .and_then(|n| n.rsplit('.').next())
            .unwrap_or("")
    }
}

/// One `x-kubernetes-group-version-kind` of a definition, and the kind's scope when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Gvk {
    pub(super) group: Box<str>,
    pub(super) version: Box<str>,
    pub(super) kind: Box<str>,
    /// Whether objects of this kind live in a namespace (`Some(false)`: cluster-scoped), as the
    /// document's resource paths tell; `None` when they do not.
    pub(super) namespaced: Option<bool>,
    /// The resource objects of this kind are served as (the plural: `deployments`), as the
    /// document's resource paths tell; `None` when they do not.
    pub(super) resource: Option<Box<str>>,
}

impl Gvk {
    /// What the GVK index is sorted and searched by.
    fn key(&self) -> (&str, &str, &str) {
        (&self.group, &self.version, &self.kind)
    }
}

/// A struct's fields, sorted by name for binary search, and their document order.
#[derive(Debug, Default)]
pub(super) struct Struct {
    by_name: Box<[Field]>,
    doc_order: Box<[u32]>,
}

impl Struct {
    pub(super) fn new(mut fields: Vec<Field>) -> Struct {
        let mut sorted: Vec<usize> = (0..fields.len()).collect();
        sorted.sort_by(|&a, &b| field_name(&fields, a).cmp(field_name(&fields, b)));
        // doc_order[k]: where the k-th field of the document sits once sorted.
        let mut doc_order = vec![0; fields.len()];
        for (pos, &doc) in (0..).zip(&sorted) {
            if let Some(slot) = doc_order.get_mut(doc) {
                *slot = pos;
            }
        }
        fields.sort_by(|a, b| a.name.cmp(&b.name));
        Struct {
            by_name: fields.into_boxed_slice(),
            doc_order: doc_order.into_boxed_slice(),
        }
    }

    /// The fields in document order.
    pub(super) fn fields(&self) -> impl Iterator<Item = &Field> {
        self.doc_order
            .iter()
            .filter_map(|&i| self.by_name.get(i as usize))
    }

    /// The field `encoding/json` would decode `key` into: the exact name, else the first field
    /// (in document order) whose name equals `key` under case folding.
    pub(super) fn find(&self, key: &str) -> Option<&Field> {
        match self.by_name.binary_search_by(|f| (*f.name).cmp(key)) {
            Ok(pos) => self.by_name.get(pos),
            Err(_) => self.fields().find(|f| equal_fold(&f.name, key)),
        }
    }
}

fn field_name(fields: &[Field], i: usize) -> &str {
    fields.get(i).map_or("", |f| &f.name)
}

#[derive(Clone, Debug)]
pub(super) struct Field {
    pub(super) name: Box<str>,
    pub(super) ty: NodeId,
    pub(super) strategies: Strategies,
    /// `x-kubernetes-patch-strategy` as written.
    pub(super) patch_strategy: Option<Box<str>>,
    pub(super) merge_key: Option<Box<str>>,
    pub(super) list_type: Option<ListType>,
    pub(super) list_map_keys: Box<[Box<str>]>,
    pub(super) map_type: Option<MapType>,
}

/// Patch metadata for Kubernetes types, loaded from an OpenAPI document or the embedded table.
///
/// Get a cursor with [`Schema::root`] or [`Schema::root_for_gvk`] and walk it with
/// [`Meta::lookup_struct`] / [`Meta::lookup_slice`].
#[derive(Debug)]
pub struct Schema {
    pub(super) nodes: Vec<Node>,
    by_name: HashMap<Box<str>, NodeId>,
    /// Sorted by [`Gvk::key`], one entry per GVK.
    gvks: Vec<(Gvk, NodeId)>,
    /// The `uint8` node: element of `[]byte`.
    pub(super) uint8: NodeId,
}

impl Default for Schema {
    /// A schema with no definitions.
    fn default() -> Schema {
        Builder::new().finish()
    }
}

impl Schema {
    pub(super) fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    /// The type named `definition` (e.g. `io.k8s.api.apps.v1.Deployment`, or `mergeItem`).
    #[must_use]
    pub fn root(&self, definition: &str) -> Option<Meta<'_>> {
        self.by_name.get(definition).map(|&id| Meta::at(self, id))
    }

    /// The type of objects with this `apiVersion` (`"apps/v1"`, or `"v1"` for the core group)
    /// and `kind`, from the definitions' `x-kubernetes-group-version-kind`.
    #[must_use]
    pub fn root_for_gvk(&self, api_version: &str, kind: &str) -> Option<Meta<'_>> {
        self.gvk_node(api_version, kind)
            .map(|id| Meta::at(self, id))
    }

    /// The name of the definition [`Schema::root_for_gvk`] finds.
    #[must_use]
    pub fn definition_for_gvk(&self, api_version: &str, kind: &str) -> Option<&str> {
        self.gvk_node(api_version, kind)
            .and_then(|id| self.node(id))
            .and_then(|n| n.name.as_deref())
    }

    /// Whether objects with this `apiVersion` and `kind` live in a namespace (`Some(true)`:
    /// `metadata.namespace` is `-n` or `default`, as kubectl fills it in) or are cluster-scoped
    /// (`Some(false)`: no namespace), as kubectl learns from discovery. It is read from the
    /// resource paths of the OpenAPI document (a kind served under `namespaces/{namespace}/` is
    /// namespaced).
    ///
    /// `None` when the schema does not know the kind, or not its scope: a kind served by no
    /// resource path of its own (`autoscaling/v1` `Scale`, `apps/v1` `DeploymentList`), or any
    /// kind of a schema read from a document without `paths`.
    #[must_use]
    pub fn is_namespaced(&self, api_version: &str, kind: &str) -> Option<bool> {
        self.gvk_entry(api_version, kind)
            .and_then(|(gvk, _)| gvk.namespaced)
    }

    /// The resource (plural: `deployments`, `endpoints`, `networkpolicies`) objects with this
    /// `apiVersion` and `kind` are served as, read from the document's resource paths as
    /// [`Schema::is_namespaced`] is; `None` when it does not say.
    #[must_use]
    pub fn resource(&self, api_version: &str, kind: &str) -> Option<&str> {
        self.gvk_entry(api_version, kind)
            .and_then(|(gvk, _)| gvk.resource.as_deref())
    }

    fn gvk_node(&self, api_version: &str, kind: &str) -> Option<NodeId> {
        self.gvk_entry(api_version, kind).map(|&(_, id)| id)
    }

    fn gvk_entry(&self, api_version: &str, kind: &str) -> Option<&(Gvk, NodeId)> {
        let gv = crate::engine::object::GroupVersion::parse(api_version);
        let find = |key: (&str, &str, &str)| {
            self.gvks
                .binary_search_by(|(g, _)| g.key().cmp(&key))
                .ok()
                .and_then(|pos| self.gvks.get(pos))
        };
        find((gv.group, gv.version, kind)).or_else(|| {
            // kubectl's compiled-in types: only the embedded schema stands for them.
            if !std::ptr::eq(self, Schema::embedded()) {
                return None;
            }
            let (group, version) = super::kubectl_scheme::replaced_by(gv.group, gv.version, kind)?;
            find((group, version, kind))
        })
    }

    /// Every named definition, in document order, with its type.
    pub fn definitions(&self) -> impl Iterator<Item = (&str, Meta<'_>)> {
        self.nodes.iter().zip(0..).filter_map(move |(node, id)| {
            node.name.as_deref().map(|name| (name, Meta::at(self, id)))
        })
    }

    /// How many named definitions there are.
    #[must_use]
    pub fn definition_count(&self) -> usize {
        self.by_name.len()
    }
}

/// Collects nodes; interns the anonymous non-struct ones (`[]string` is one node).
pub(super) struct Builder {
    pub(super) nodes: Vec<Node>,
    interned: HashMap<Interned, NodeId>,
}

impl Builder {
    pub(super) fn new() -> Builder {
        let mut b = Builder {
            nodes: Vec::new(),
            interned: HashMap::new(),
        };
        b.scalar(Scalar::Uint8);
        b
    }

    pub(super) fn next_id(&self) -> Result<NodeId, SchemaError> {
        NodeId::try_from(self.nodes.len()).map_err(|_| SchemaError::TooLarge)
    }

    /// Adds a node as it is (named definitions, structs).
    pub(super) fn push(&mut self, node: Node) -> Result<NodeId, SchemaError> {
        let id = self.next_id()?;
        self.nodes.push(node);
        Ok(id)
    }

    fn intern(&mut self, key: Interned) -> NodeId {
        if let Some(&id) = self.interned.get(&key) {
            return id;
        }
        // Never more than u32::MAX interned nodes: each comes from a distinct document piece.
        let id = NodeId::try_from(self.nodes.len()).unwrap_or(NodeId::MAX);
        let shape = match key {
            Interned::Opaque => Shape::Opaque,
            Interned::Scalar(s) => Shape::Scalar(s),
            Interned::List(e) => Shape::List(e),
            Interned::Map(v) => Shape::Map(v),
        };
        self.nodes.push(Node {
            name: None,
            gvks: Box::new([]),
            map_type: None,
            shape,
        });
        self.interned.insert(key, id);
        id
    }

    pub(super) fn opaque(&mut self) -> NodeId {
        self.intern(Interned::Opaque)
    }

    pub(super) fn scalar(&mut self, s: Scalar) -> NodeId {
        self.intern(Interned::Scalar(s))
    }

    pub(super) fn list(&mut self, elem: NodeId) -> NodeId {
        self.intern(Interned::List(elem))
    }

    pub(super) fn map(&mut self, value: NodeId) -> NodeId {
        self.intern(Interned::Map(value))
    }

    /// An anonymous type of this shape: interned unless it is a struct.
    pub(super) fn anonymous(&mut self, shape: Shape) -> Result<NodeId, SchemaError> {
        Ok(match shape {
            Shape::Opaque => self.opaque(),
            Shape::Scalar(s) => self.scalar(s),
            Shape::List(e) => self.list(e),
            Shape::Map(v) => self.map(v),
            Shape::Struct(st) => self.push(Node {
                name: None,
                gvks: Box::new([]),
                map_type: None,
                shape: Shape::Struct(st),
            })?,
        })
    }

    /// Indexes names and GVKs. A GVK claimed twice goes to the first definition (with its scope).
    pub(super) fn finish(mut self) -> Schema {
        let uint8 = self.scalar(Scalar::Uint8);
        let mut by_name = HashMap::new();
        let mut gvks = Vec::new();
        for (node, id) in self.nodes.iter().zip(0..) {
            if let Some(name) = &node.name {
                by_name.entry(name.clone()).or_insert(id);
            }
            gvks.extend(node.gvks.iter().map(|g| (g.clone(), id)));
        }
        // Stable sort: among equal GVKs the first definition comes first and wins.
        gvks.sort_by(|a, b| a.0.key().cmp(&b.0.key()));
        gvks.dedup_by(|later, earlier| later.0.key() == earlier.0.key());
        Schema {
            nodes: self.nodes,
            by_name,
            gvks,
            uint8,
        }
    }
}
