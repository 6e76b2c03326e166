//! The plan tree's nodes as server-side apply paths: the one place a [`FieldId`] (a step
//! from its parent: a key, a merge-keyed element, a primitive, a position) becomes the
//! [`Path`] a field set names (`f:`, `k:{…}` with every key of the schema's `list-map-keys`,
//! `v:`, `i:`).
//!
//! | the value at the node's parent is | the node's element |
//! | --- | --- |
//! | a granular map or struct | `f:<key>` |
//! | an associative list (`list-type: map` / `set`) | `k:{…}` / `v:…` ([`list_item_element`]) |
//! | an atomic map, struct or list, or a scalar | none: the node is inside the atomic value, which the set names whole |
//!
//! Each node is found from its parent's (a list's elements through one index by step), so
//! asking for every line of a pane walks the document once.

use crate::engine::gofmt::FastMap;
use crate::engine::plan::{FieldId, Seg, Tree};
use crate::engine::ssa::path::{Path, PathElement};
use crate::engine::ssa::schema::{Relationship, Schema, TypeRef};
use crate::engine::ssa::typed::{Part, deduce, list_item_element, pick};
use crate::value::Value;

/// A node's path in a field set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodePath {
    pub path: Path,
    /// The node is inside an atomic value (or a scalar): `path` names that value, whose owner
    /// owns everything in it.
    pub whole: bool,
}

#[derive(Clone, Debug)]
struct At<'v> {
    value: &'v Value,
    tr: TypeRef,
    path: NodePath,
}

/// The SSA paths of one document's nodes.
pub struct NodePaths<'a> {
    tree: &'a Tree,
    schema: &'a Schema,
    memo: FastMap<FieldId, Option<At<'a>>>,
    /// A list node's elements by step (first one wins, as [`Seg::find_in`] finds).
    items: FastMap<FieldId, FastMap<Seg, usize>>,
}

impl<'a> NodePaths<'a> {
    /// The nodes of `doc` (its root of type `root`).
    #[must_use]
    pub fn new(tree: &'a Tree, doc: &'a Value, schema: &'a Schema, root: TypeRef) -> Self {
        let mut memo = FastMap::default();
        let at = At {
            value: doc,
            tr: root,
            path: NodePath {
                path: Path::new(),
                whole: false,
            },
        };
        memo.insert(FieldId::ROOT, Some(at));
        NodePaths {
            tree,
            schema,
            memo,
            items: FastMap::default(),
        }
    }

    /// A node's path; `None` when the document lacks the node or its value does not fit the
    /// schema.
    pub fn path(&mut self, id: FieldId) -> Option<&NodePath> {
        // The ancestors not yet found, nearest first.
        let mut chain = Vec::new();
        let mut at = Some(id);
        while let Some(i) = at {
            if self.memo.contains_key(&i) {
                break;
            }
            chain.push(i);
            at = self.tree.parent(i);
        }
        for i in chain.into_iter().rev() {
            let NodePaths {
                tree,
                schema,
                memo,
                items,
            } = self;
            let found = tree
                .parent(i)
                .and_then(|p| memo.get(&p))
                .and_then(Option::as_ref)
                .and_then(|parent| child(tree, schema, items, i, parent));
            memo.insert(i, found);
        }
        self.memo.get(&id)?.as_ref().map(|a| &a.path)
    }
}

/// A node's value and path from its parent's.
fn child<'a>(
    tree: &Tree,
    schema: &Schema,
    lists: &mut FastMap<FieldId, FastMap<Seg, usize>>,
    id: FieldId,
    parent: &At<'a>,
) -> Option<At<'a>> {
    let seg = tree.step(id)?;
    let value = match (seg, parent.value) {
        (Seg::Key(_), _) => seg.find_in(parent.value)?,
        (_, Value::Array(items)) => {
            let parent_id = tree.parent(id)?;
            let index = lists.entry(parent_id).or_insert_with(|| {
                let elem = tree.elem_step(parent_id);
                let mut by = FastMap::default();
                for (i, item) in items.iter().enumerate() {
                    by.entry(elem.step(i, item)).or_insert(i);
                }
                by
            });
            items.get(*index.get(seg)?)?
        }
        _ => return None,
    };
    if parent.path.whole {
        return Some(At {
            value,
            tr: parent.tr,
            path: parent.path.clone(),
        });
    }
    let whole = |tr| At {
        value,
        tr,
        path: NodePath {
            path: parent.path.path.clone(),
            whole: true,
        },
    };
    let r = schema.resolve(parent.tr)?;
    let (element, tr) = match pick(&r, deduce(&r, Some(parent.value))).ok()? {
        Part::Scalar(_) => return Some(whole(parent.tr)),
        Part::Map(m) if m.rel == Relationship::Atomic => return Some(whole(parent.tr)),
        Part::List(l) if l.rel != Relationship::Associative => {
            return Some(whole(parent.tr));
        }
        Part::Map(m) => {
            let Seg::Key(k) = seg else { return None };
            (PathElement::field(&**k), m.field_type(k))
        }
        Part::List(l) => (list_item_element(schema, &l, value).ok()?, l.elem),
    };
    let mut path = parent.path.path.clone();
    path.push(element);
    Some(At {
        value,
        tr,
        path: NodePath { path, whole: false },
    })
}
