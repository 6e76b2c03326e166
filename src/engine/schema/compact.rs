//! The compact form of a [`Schema`]: what `assets/schema/*.json` holds (see
//! `examples/gen_schema.rs`). JSON, one type per line:
//!
//! ```text
//! {"format":"applyscope-schema/1","types":[
//! {"n":"io.k8s.api.apps.v1.Deployment","g":[["apps","v1","Deployment","Namespaced","deployments"]],"f":[{"n":"apiVersion","t":"s"},…]},
//! {"n":"io.k8s.apimachinery.pkg.api.resource.Quantity","t":"s"},
//! …]}
//! ```
//!
//! A type entry has `n` (definition name; absent for an inline struct), `g` (its
//! `x-kubernetes-group-version-kind` as `[group, version, kind]`, or `[group, version, kind,
//! scope]` when the kind's scope is known: `"Namespaced"` or `"Cluster"`, as a CRD spells it,
//! or `[group, version, kind, scope, resource]` with the resource (plural) it is served as),
//! `mt` (its `x-kubernetes-map-type`), and either `f` (struct fields, in document order) or `t`
//! (a type expression). A field has `n`, `t`, and the extensions it declares: `ps` patch
//! strategy, `mk` merge key, `lt` list type, `lk` list map keys, `mt` map type.
//!
//! Type expressions: `@N` the N-th type entry; `[T` list of T; `{T` map of T; `*` opaque;
//! scalars `s` string, `y` bytes, `i32`, `i64`, `i` other integer, `f32`, `f64`, `n` other
//! number, `b` boolean.
//!
//! The scope element was added to format `applyscope-schema/1` later, compatibly: a
//! three-element GVK (all that earlier files hold) reads as a kind of unknown scope, so they
//! still load. Readers from before the addition reject four-element GVKs. The resource came
//! later still, the same way: a four-element GVK reads as a kind whose resource is unknown.

use serde::{Deserialize, Serialize};

use super::model::{Builder, Field, Gvk, Node, NodeId, Scalar, Shape, Struct};
use super::{ListType, MapType, Schema, SchemaError, Strategies};

const FORMAT: &str = "applyscope-schema/1";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    format: Box<str>,
    types: Vec<TypeEntry>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TypeEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    n: Option<Box<str>>,
    /// `[group, version, kind]` or `[group, version, kind, scope]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    g: Vec<Vec<Box<str>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mt: Option<Box<str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    f: Option<Vec<FieldEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    t: Option<Box<str>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldEntry {
    n: Box<str>,
    t: Box<str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ps: Option<Box<str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mk: Option<Box<str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lt: Option<Box<str>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    lk: Vec<Box<str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mt: Option<Box<str>>,
}

/// Named types and structs get entries; other types are written inline.
fn has_entry(node: &Node) -> bool {
    node.name.is_some() || matches!(node.shape, Shape::Struct(_))
}

impl Schema {
    /// The compact form (deterministic: the same schema gives the same bytes).
    #[must_use]
    pub fn to_compact(&self) -> String {
        let mut entry_of = vec![u32::MAX; self.nodes.len()];
        let mut next = 0;
        for (node, slot) in self.nodes.iter().zip(entry_of.iter_mut()) {
            if has_entry(node) {
                *slot = next;
                next += 1;
            }
        }
        let expr = |id: NodeId| self.expr(id, &entry_of);
        let mut out = format!("{{\"format\":\"{FORMAT}\",\"types\":[");
        let mut first = true;
        for node in self.nodes.iter().filter(|n| has_entry(n)) {
            let (f, t) = match &node.shape {
                Shape::Struct(st) => (
                    Some(st.fields().map(|f| field_entry(f, &expr)).collect()),
                    None,
                ),
                _ => (None, Some(self.shape_expr(&node.shape, &entry_of).into())),
            };
            let entry = TypeEntry {
                n: node.name.clone(),
                g: node.gvks.iter().map(gvk_entry).collect(),
                mt: node.map_type.map(|m| m.as_str().into()),
                f,
                t,
            };
            out.push_str(if first { "\n" } else { ",\n" });
            first = false;
            // Serializing plain strings, vectors and options cannot fail.
            out.push_str(&serde_json::to_string(&entry).unwrap_or_default());
        }
        out.push_str("\n]}\n");
        out
    }

    fn expr(&self, id: NodeId, entry_of: &[u32]) -> String {
        match (self.node(id), entry_of.get(id as usize)) {
            (Some(node), Some(&e)) if has_entry(node) => format!("@{e}"),
            (Some(node), _) => self.shape_expr(&node.shape, entry_of),
            (None, _) => "*".to_owned(),
        }
    }

    fn shape_expr(&self, shape: &Shape, entry_of: &[u32]) -> String {
        match shape {
            Shape::Opaque | Shape::Struct(_) => "*".to_owned(),
            Shape::Scalar(s) => s.code().to_owned(),
            Shape::List(e) => format!("[{}", self.expr(*e, entry_of)),
            Shape::Map(v) => format!("{{{}", self.expr(*v, entry_of)),
        }
    }

    /// Reads the compact form.
    ///
    /// # Errors
    /// When the text is not in that form.
    pub fn from_compact(text: &str) -> Result<Schema, SchemaError> {
        Ok(Schema::compact_builder(text)?.finish())
    }

    /// The nodes of the compact form, before they are indexed.
    pub(super) fn compact_builder(text: &str) -> Result<Builder, SchemaError> {
        let doc: Doc = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        if &*doc.format != FORMAT {
            return Err(bad(format!("format {:?}, expected {FORMAT:?}", doc.format)));
        }
        let mut b = Builder::new();
        let mut ids = Vec::with_capacity(doc.types.len());
        for entry in &doc.types {
            let gvks = entry.g.iter().map(|g| gvk(g));
            ids.push(b.push(Node {
                name: entry.n.clone(),
                gvks: gvks.collect::<Result<_, _>>()?,
                map_type: entry.mt.as_deref().map(map_type).transpose()?,
                shape: Shape::Opaque,
            })?);
        }
        for (entry, &id) in doc.types.into_iter().zip(&ids) {
            let shape = match (entry.f, entry.t) {
                (Some(fields), None) => {
                    let fields = fields.into_iter().map(|f| field(&mut b, &ids, f));
                    Shape::Struct(Struct::new(fields.collect::<Result<_, _>>()?))
                }
                (None, Some(t)) => match parse_expr(&mut b, &ids, &t)? {
                    Target::Entry(_) => {
                        return Err(bad(format!("type entry is only a reference: {t}")));
                    }
                    Target::Shape(shape) => shape,
                },
                _ => {
                    return Err(bad(
                        "a type entry needs exactly one of `f` and `t`".to_owned()
                    ));
                }
            };
            if let Some(node) = b.nodes.get_mut(id as usize) {
                node.shape = shape;
            }
        }
        Ok(b)
    }
}

const NAMESPACED: &str = "Namespaced";
const CLUSTER: &str = "Cluster";

fn gvk_entry(g: &Gvk) -> Vec<Box<str>> {
    let mut entry = vec![g.group.clone(), g.version.clone(), g.kind.clone()];
    if let Some(namespaced) = g.namespaced {
        entry.push(if namespaced { NAMESPACED } else { CLUSTER }.into());
        entry.extend(g.resource.clone());
    }
    entry
}

/// `[group, version, kind]`, `[group, version, kind, scope]` or `[group, version, kind,
/// scope, resource]`.
fn gvk(entry: &[Box<str>]) -> Result<Gvk, SchemaError> {
    let [group, version, kind, rest @ ..] = entry else {
        return Err(bad(format!("GVK {entry:?} has fewer than 3 elements")));
    };
    let (scope, resource) = match rest {
        [] => (None, None),
        [scope] => (Some(scope), None),
        [scope, resource] => (Some(scope), Some(resource.clone())),
        _ => return Err(bad(format!("GVK {entry:?} has more than 5 elements"))),
    };
    let namespaced = match scope {
        None => None,
        Some(s) if &**s == NAMESPACED => Some(true),
        Some(s) if &**s == CLUSTER => Some(false),
        Some(_) => {
            return Err(bad(format!(
                "GVK {entry:?}: the scope after the kind must be {NAMESPACED:?} or {CLUSTER:?}"
            )));
        }
    };
    Ok(Gvk {
        group: group.clone(),
        version: version.clone(),
        kind: kind.clone(),
        namespaced,
        resource,
    })
}

fn field_entry(f: &Field, expr: &impl Fn(NodeId) -> String) -> FieldEntry {
    FieldEntry {
        n: f.name.clone(),
        t: expr(f.ty).into(),
        ps: f.patch_strategy.clone(),
        mk: f.merge_key.clone(),
        lt: f.list_type.map(|l| l.as_str().into()),
        lk: f.list_map_keys.to_vec(),
        mt: f.map_type.map(|m| m.as_str().into()),
    }
}

fn field(b: &mut Builder, ids: &[NodeId], f: FieldEntry) -> Result<Field, SchemaError> {
    let ty = match parse_expr(b, ids, &f.t)? {
        Target::Entry(id) => id,
        Target::Shape(shape) => b.anonymous(shape)?,
    };
    let list_type = match f.lt.as_deref() {
        Some(s) => Some(ListType::parse(s).ok_or_else(|| bad(format!("list type {s:?}")))?),
        None => None,
    };
    Ok(Field {
        strategies: f.ps.as_deref().map(Strategies::parse).unwrap_or_default(),
        name: f.n,
        ty,
        patch_strategy: f.ps,
        merge_key: f.mk,
        list_type,
        list_map_keys: f.lk.into_boxed_slice(),
        map_type: f.mt.as_deref().map(map_type).transpose()?,
    })
}

fn map_type(s: &str) -> Result<MapType, SchemaError> {
    MapType::parse(s).ok_or_else(|| bad(format!("map type {s:?}")))
}

fn bad(msg: String) -> SchemaError {
    SchemaError::Compact(msg)
}

enum Target {
    Entry(NodeId),
    Shape(Shape),
}

/// Parses a type expression without recursion: the `[`/`{` prefix, then the innermost type.
fn parse_expr(b: &mut Builder, ids: &[NodeId], expr: &str) -> Result<Target, SchemaError> {
    let wrappers = expr
        .bytes()
        .take_while(|c| matches!(c, b'[' | b'{'))
        .count();
    let (prefix, inner) = expr.split_at(wrappers);
    let innermost = if inner == "*" {
        Target::Shape(Shape::Opaque)
    } else if let Some(n) = inner.strip_prefix('@') {
        let id = n.parse::<usize>().ok().and_then(|i| ids.get(i));
        Target::Entry(*id.ok_or_else(|| bad(format!("no type entry {inner}")))?)
    } else {
        Target::Shape(Shape::Scalar(
            Scalar::from_code(inner).ok_or_else(|| bad(format!("bad type expression {expr:?}")))?,
        ))
    };
    let mut target = innermost;
    for wrapper in prefix.bytes().rev() {
        let inner_id = match target {
            Target::Entry(id) => id,
            Target::Shape(shape) => b.anonymous(shape)?,
        };
        target = Target::Shape(if wrapper == b'[' {
            Shape::List(inner_id)
        } else {
            Shape::Map(inner_id)
        });
    }
    Ok(target)
}
