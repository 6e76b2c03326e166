//! The plan tree: one node per field of the union of the documents, in the walk's order
//! (parents first), each with its parent, its step from the parent, where it sits in each of
//! the four documents (last-applied, local, live, result), its action and its reason.
//!
//! A node holds no values: it holds each document's position of the field in its parent (an
//! object's entry index, a list's item index), so a value is read from the document itself,
//! never copied. A field's path is its node id; [`Tree::path`] prints it as the plan names it.
//!
//! A front end may add nodes for what no field is (a pane showing a document the plan did not
//! walk, such as the server's answer): [`Tree::add`]. They follow the plan's nodes and are no
//! fields.

mod kids;
mod text;

use std::sync::OnceLock;

use crate::value::Value;

use super::action::Action;
use super::path::Seg;
use super::tables::Reason;
use crate::engine::gofmt::FastMap;

pub use kids::ElemStep;
pub use text::{PathOf, PathTexts};

/// A node of the [`Tree`]: a field (or the root, [`FieldId::ROOT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldId(u32);

impl FieldId {
    /// The object itself.
    pub const ROOT: FieldId = FieldId(0);

    /// The node's index in the tree (the root is 0; the plan's fields follow in order).
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The node at `index`.
    #[must_use]
    pub fn at(index: usize) -> FieldId {
        FieldId(u32::try_from(index).unwrap_or(u32::MAX))
    }
}

/// One of the four documents a node has a place in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doc {
    LastApplied = 0,
    Local = 1,
    Live = 2,
    Result = 3,
}

/// Absent from a document (in [`Node::at`]).
const ABSENT: u32 = u32::MAX;

/// What a field reports of its own values (in the plan's output).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Own {
    /// Its live and result values (primitives, whole lists, atomic lists' items).
    pub values: bool,
    /// Its last-applied value (atomic lists and their items).
    pub last_applied: bool,
}

#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    /// The step from the parent (`None` for the root).
    step: Option<Seg>,
    /// The position in the parent, in each document ([`Doc`] order), or [`ABSENT`].
    at: [u32; 4],
    action: Action,
    own: Own,
    /// Index into [`Tree::reasons`].
    reason: u32,
}

/// The plan's fields as one tree.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    /// The distinct reasons (most fields share theirs with many others).
    reasons: Vec<Reason>,
    /// How many nodes the plan made (the root and the fields); [`Tree::add`]ed ones follow.
    planned: usize,
    /// The children of the plan's nodes, made when first asked for.
    kids: OnceLock<kids::Kids>,
    /// The added nodes by parent and step.
    added: FastMap<(u32, Seg), u32>,
}

/// A field of the tree, for one document set: see [`Tree::field`].
#[derive(Clone, Copy, Debug)]
pub struct Field<'t, 'v> {
    pub id: FieldId,
    pub action: Action,
    pub reason: &'t Reason,
    /// The live value (primitives and whole lists only).
    pub live: Option<&'v Value>,
    /// The value after the apply (primitives and whole lists only).
    pub result: Option<&'v Value>,
    /// The last-applied value (whole lists replaced as one only).
    pub last_applied: Option<&'v Value>,
}

/// The four documents a tree was built from (`None`: absent).
pub type Docs<'v> = [Option<&'v Value>; 4];

impl Tree {
    /// A tree of no fields, for documents drawn on their own.
    #[must_use]
    pub fn empty() -> Tree {
        Tree::new([false; 4])
    }

    fn new(present: [bool; 4]) -> Tree {
        let mut nodes = Vec::new();
        nodes.push(Node {
            parent: 0,
            step: None,
            at: present.map(|p| if p { 0 } else { ABSENT }),
            action: Action::Unchanged,
            own: Own::default(),
            reason: 0,
        });
        Tree {
            nodes,
            reasons: Vec::new(),
            planned: 1,
            kids: OnceLock::new(),
            added: FastMap::default(),
        }
    }

    /// How many fields (nodes but the root).
    #[must_use]
    pub fn len(&self) -> usize {
        self.planned - 1
    }

    /// How many nodes, the root, the fields and the added ones (ids are below it).
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Is this node one of the plan's fields?
    #[must_use]
    pub fn is_field(&self, id: FieldId) -> bool {
        id != FieldId::ROOT && id.index() < self.planned
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every field's id, in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = FieldId> + use<> {
        (1..u32::try_from(self.planned).unwrap_or(u32::MAX)).map(FieldId)
    }

    /// Every field's action, in order.
    pub fn actions(&self) -> impl ExactSizeIterator<Item = Action> + '_ {
        self.nodes
            .get(1..self.planned)
            .unwrap_or_default()
            .iter()
            .map(|n| n.action)
    }

    /// The `i`-th field's id (0-based, in order).
    #[must_use]
    pub fn nth(&self, i: usize) -> Option<FieldId> {
        (i < self.len()).then(|| FieldId::at(i + 1))
    }

    /// A field's position among the fields (the inverse of [`Tree::nth`]).
    #[must_use]
    pub fn position(&self, id: FieldId) -> Option<usize> {
        id.index().checked_sub(1).filter(|i| *i < self.len())
    }

    fn node(&self, id: FieldId) -> Option<&Node> {
        self.nodes.get(id.index())
    }

    /// The parent (`None` for the root).
    #[must_use]
    pub fn parent(&self, id: FieldId) -> Option<FieldId> {
        self.node(id)
            .filter(|_| id != FieldId::ROOT)
            .map(|n| FieldId(n.parent))
    }

    /// The step from the parent (`None` for the root).
    #[must_use]
    pub fn step(&self, id: FieldId) -> Option<&Seg> {
        self.node(id).and_then(|n| n.step.as_ref())
    }

    /// How deep a node is (the root is 0).
    #[must_use]
    pub fn depth(&self, id: FieldId) -> usize {
        let mut n = 0;
        let mut at = self.parent(id);
        while let Some(p) = at {
            n += 1;
            at = self.parent(p);
        }
        n
    }

    #[must_use]
    pub fn action(&self, id: FieldId) -> Action {
        self.node(id).map_or(Action::Unchanged, |n| n.action)
    }

    /// The reason (`None` for the root).
    #[must_use]
    pub fn reason(&self, id: FieldId) -> Option<&Reason> {
        self.node(id)
            .filter(|_| self.is_field(id))
            .and_then(|n| self.reasons.get(n.reason as usize))
    }

    /// Which of the tree's distinct reasons a field's is (`None` for the root): a writer can
    /// write each distinct reason once and copy its text for every field sharing it.
    #[must_use]
    pub fn reason_index(&self, id: FieldId) -> Option<usize> {
        self.node(id)
            .filter(|_| self.is_field(id))
            .map(|n| n.reason as usize)
    }

    /// Is `ancestor` a strict ancestor of `id`?
    #[must_use]
    pub fn is_strict_ancestor(&self, ancestor: FieldId, id: FieldId) -> bool {
        // Parents come first: an ancestor has a smaller id.
        if ancestor >= id {
            return false;
        }
        let mut at = self.parent(id);
        while let Some(p) = at {
            if p == ancestor {
                return true;
            }
            if p < ancestor {
                return false;
            }
            at = self.parent(p);
        }
        false
    }

    /// The steps from the root to `id`.
    #[must_use]
    pub fn steps(&self, id: FieldId) -> Vec<&Seg> {
        let mut steps = Vec::new();
        let mut at = Some(id);
        while let Some(i) = at {
            if let Some(s) = self.step(i) {
                steps.push(s);
            }
            at = self.parent(i);
        }
        steps.reverse();
        steps
    }

    /// A node's path as its steps (for the engine's edits).
    #[must_use]
    pub fn field_path(&self, id: FieldId) -> super::FieldPath {
        super::FieldPath(self.steps(id).into_iter().cloned().collect())
    }

    /// The value of a node in one of the documents (`doc`: that document's root).
    #[must_use]
    pub fn value<'v>(&self, id: FieldId, which: Doc, doc: Option<&'v Value>) -> Option<&'v Value> {
        let mut chain = Vec::new();
        let mut at = Some(id);
        while let Some(i) = at {
            chain.push(self.node(i)?.at[which as usize]);
            at = self.parent(i);
        }
        // The root's own position says whether the document exists.
        let mut v = doc;
        for pos in chain.into_iter().rev().skip(1) {
            v = step_into(v?, pos);
        }
        v.filter(|_| {
            self.nodes
                .first()
                .is_some_and(|r| r.at[which as usize] != ABSENT)
        })
    }

    /// A field with its values in `docs`.
    #[must_use]
    pub fn field<'t, 'v>(&'t self, id: FieldId, docs: &Docs<'v>) -> Option<Field<'t, 'v>> {
        let node = self.node(id)?;
        let reason = self.reason(id)?;
        let get = |which: Doc| self.value(id, which, docs[which as usize]);
        Some(Field {
            id,
            action: node.action,
            reason,
            live: node.own.values.then(|| get(Doc::Live)).flatten(),
            result: node.own.values.then(|| get(Doc::Result)).flatten(),
            last_applied: node
                .own
                .last_applied
                .then(|| get(Doc::LastApplied))
                .flatten(),
        })
    }

    /// Every field in order with its values in `docs` (each found from its parent's: no walk
    /// from the root per field).
    pub fn fields<'t, 'v>(&'t self, docs: &Docs<'v>) -> Fields<'t, 'v> {
        self.fields_from(1, docs)
    }

    /// [`Tree::fields`] from the `start`-th node on (1: the first field).
    pub fn fields_from<'t, 'v>(&'t self, start: usize, docs: &Docs<'v>) -> Fields<'t, 'v> {
        let mut stack = Vec::new();
        if let Some(first) = self.nodes.get(start) {
            // The ancestors of the first node, root first.
            let mut chain = Vec::new();
            let mut at = Some(FieldId(first.parent));
            while let Some(i) = at {
                chain.push(i);
                at = self.parent(i);
            }
            for id in chain.into_iter().rev() {
                let values = match stack.last() {
                    None => *docs,
                    Some((_, parent)) => self.child_values(id, parent),
                };
                stack.push((id, values));
            }
        }
        Fields {
            tree: self,
            next: start,
            stack,
        }
    }

    fn child_values<'v>(&self, id: FieldId, parent: &Docs<'v>) -> Docs<'v> {
        let at = self.node(id).map_or([ABSENT; 4], |n| n.at);
        let mut out = [None; 4];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = parent[i].and_then(|v| step_into(v, at[i]));
        }
        out
    }
}

/// The item at `pos` of an object or a list.
fn step_into(v: &Value, pos: u32) -> Option<&Value> {
    if pos == ABSENT {
        return None;
    }
    match v {
        Value::Object(m) => m.get_index(pos as usize).map(|(_, v)| v),
        Value::Array(items) => items.get(pos as usize),
        _ => None,
    }
}

/// A tree being built: fields are added parents first.
pub(crate) struct Builder {
    tree: Tree,
    /// Where each distinct reason is in the tree's.
    reasons_seen: FastMap<Reason, u32>,
}

impl Builder {
    /// A tree holding only the root; `present`: which documents exist.
    pub(crate) fn new(present: [bool; 4], capacity: usize) -> Builder {
        let mut tree = Tree::new(present);
        tree.nodes.reserve(capacity);
        Builder {
            tree,
            reasons_seen: FastMap::default(),
        }
    }

    /// Add a field under `parent` (fields come parents first); returns its id.
    pub(crate) fn push(
        &mut self,
        parent: FieldId,
        step: Seg,
        at: [Option<usize>; 4],
        action: Action,
        own: Own,
        reason: &Reason,
    ) -> FieldId {
        let reason = match self.reasons_seen.get(reason) {
            Some(&i) => i,
            None => {
                let i = u32::try_from(self.tree.reasons.len()).unwrap_or(u32::MAX);
                self.reasons_seen.insert(reason.clone(), i);
                self.tree.reasons.push(reason.clone());
                i
            }
        };
        let id = FieldId::at(self.tree.nodes.len());
        self.tree.nodes.push(Node {
            parent: parent.0,
            step: Some(step),
            at: at.map(|a| a.and_then(|a| u32::try_from(a).ok()).unwrap_or(ABSENT)),
            action,
            own,
            reason,
        });
        id
    }

    pub(crate) fn finish(mut self) -> Tree {
        self.tree.planned = self.tree.nodes.len();
        self.tree
    }
}

/// Fields in order with their values: see [`Tree::fields`].
pub struct Fields<'t, 'v> {
    tree: &'t Tree,
    next: usize,
    /// The open ancestors of the next node, with their values.
    stack: Vec<(FieldId, Docs<'v>)>,
}

impl<'t, 'v> Iterator for Fields<'t, 'v> {
    type Item = Field<'t, 'v>;

    fn next(&mut self) -> Option<Self::Item> {
        let id = FieldId::at(self.next);
        if !self.tree.is_field(id) {
            return None;
        }
        let node = self.tree.node(id)?;
        self.next += 1;
        while self
            .stack
            .last()
            .is_some_and(|(open, _)| open.0 != node.parent)
        {
            self.stack.pop();
        }
        let values = match self.stack.last() {
            Some((_, parent)) => self.tree.child_values(id, parent),
            None => [None; 4],
        };
        self.stack.push((id, values));
        let own = node.own;
        let field = Field {
            id,
            action: node.action,
            reason: self.tree.reasons.get(node.reason as usize)?,
            live: values[Doc::Live as usize].filter(|_| own.values),
            result: values[Doc::Result as usize].filter(|_| own.values),
            last_applied: values[Doc::LastApplied as usize].filter(|_| own.last_applied),
        };
        Some(field)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.tree.planned.saturating_sub(self.next);
        (n, Some(n))
    }
}
