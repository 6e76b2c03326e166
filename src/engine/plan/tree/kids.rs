//! A node's children: the plan's, by step or by their place in a document; and the nodes a
//! front end adds for what no field is.

use std::sync::Arc;

use crate::value::Value;

use super::{ABSENT, Doc, FieldId, Node, Own, Tree};
use crate::engine::gofmt::{self, FastMap};
use crate::engine::plan::action::Action;
use crate::engine::plan::path::Seg;

/// Up to this many children, a child is found by looking at each.
const SCAN_MAX: usize = 16;

/// The plan's nodes' children, in order: `list[first[n]..first[n + 1]]` are node `n`'s.
#[derive(Clone, Debug, Default)]
pub(super) struct Kids {
    first: Vec<u32>,
    list: Vec<u32>,
    /// The children of a parent with many, by step (made for a parent when first needed).
    by_step: std::sync::Arc<std::sync::Mutex<FastMap<u32, FastMap<Seg, u32>>>>,
}

/// How a list's elements are named in paths: by a merge key's value, as set items, or by
/// position (the plan's naming: a list the plan has no elements of is named by position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElemStep {
    Merge(Arc<str>),
    Item,
    Index,
}

impl ElemStep {
    /// The step of the `i`-th element (an element without the merge key is named by
    /// position too).
    #[must_use]
    pub fn step(&self, i: usize, item: &Value) -> Seg {
        match self {
            ElemStep::Merge(key) => match item.get(&**key) {
                Some(kv) => Seg::Merge {
                    key: key.clone(),
                    value: gofmt::sprint(kv).into(),
                },
                None => Seg::Index(i),
            },
            ElemStep::Item => Seg::Item(gofmt::sprint(item).into()),
            ElemStep::Index => Seg::Index(i),
        }
    }
}

impl Tree {
    fn kid_index(&self) -> &Kids {
        self.kids.get_or_init(|| {
            let n = self.planned;
            let mut count = vec![0u32; n + 1];
            for node in self.nodes.iter().take(n).skip(1) {
                if let Some(c) = count.get_mut(node.parent as usize + 1) {
                    *c += 1;
                }
            }
            for i in 1..count.len() {
                count[i] += count[i - 1];
            }
            let first = count.clone();
            let mut list = vec![0u32; n.saturating_sub(1)];
            for (i, node) in self.nodes.iter().enumerate().take(n).skip(1) {
                if let Some(at) = count.get_mut(node.parent as usize)
                    && let Some(slot) = list.get_mut(*at as usize)
                {
                    *slot = u32::try_from(i).unwrap_or(u32::MAX);
                    *at += 1;
                }
            }
            Kids {
                first,
                list,
                by_step: std::sync::Arc::default(),
            }
        })
    }

    /// The plan's children of a node, in order.
    #[must_use]
    pub fn kids(&self, id: FieldId) -> &[u32] {
        let k = self.kid_index();
        let i = id.index();
        match (k.first.get(i), k.first.get(i + 1)) {
            (Some(&a), Some(&b)) => k.list.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The child of `parent` at `step` (the plan's or an added one), if there is one.
    #[must_use]
    pub fn child(&self, parent: FieldId, step: &Seg) -> Option<FieldId> {
        let kids = self.kids(parent);
        let planned = if kids.len() <= SCAN_MAX {
            kids.iter()
                .copied()
                .find(|k| self.nodes.get(*k as usize).and_then(|n| n.step.as_ref()) == Some(step))
        } else {
            let mut by_step = self
                .kid_index()
                .by_step
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let index = by_step.entry(parent.0).or_insert_with(|| {
                let mut index = FastMap::default();
                for &k in kids {
                    if let Some(step) = self.nodes.get(k as usize).and_then(|n| n.step.as_ref()) {
                        index.entry(step.clone()).or_insert(k);
                    }
                }
                index
            });
            index.get(step).copied()
        };
        planned
            .or_else(|| self.added.get(&(parent.0, step.clone())).copied())
            .map(FieldId)
    }

    /// The node at a path given as its steps, if the tree has it.
    #[must_use]
    pub fn find(&self, steps: &[Seg]) -> Option<FieldId> {
        steps
            .iter()
            .try_fold(FieldId::ROOT, |at, step| self.child(at, step))
    }

    /// The child of `parent` at `step`, added (as no field) when the tree has none.
    pub fn add(&mut self, parent: FieldId, step: Seg) -> FieldId {
        if let Some(id) = self.child(parent, &step) {
            return id;
        }
        let id = FieldId::at(self.nodes.len());
        self.nodes.push(Node {
            parent: parent.0,
            step: Some(step.clone()),
            at: [ABSENT; 4],
            action: Action::Unchanged,
            own: Own::default(),
            reason: 0,
        });
        self.added.insert((parent.0, step), id.0);
        id
    }

    /// The last step's key, if it is an object key.
    #[must_use]
    pub fn key(&self, id: FieldId) -> Option<&str> {
        match self.step(id) {
            Some(Seg::Key(k)) => Some(k),
            _ => None,
        }
    }

    /// How the elements of the list at `id` are named (as the plan names them).
    #[must_use]
    pub fn elem_step(&self, id: FieldId) -> ElemStep {
        match self
            .kids(id)
            .first()
            .and_then(|k| self.nodes.get(*k as usize))
            .and_then(|n| n.step.as_ref())
        {
            Some(Seg::Merge { key, .. }) => ElemStep::Merge(key.clone()),
            Some(Seg::Item(_)) => ElemStep::Item,
            _ => ElemStep::Index,
        }
    }

    /// The plan's child of `parent` at position `pos` of document `which` (see
    /// [`Tree::kid_slots`] for many).
    #[must_use]
    pub fn kid_at(&self, parent: FieldId, which: Doc, pos: usize) -> Option<FieldId> {
        let pos = u32::try_from(pos).ok()?;
        self.kids(parent)
            .iter()
            .copied()
            .find(|k| {
                self.nodes
                    .get(*k as usize)
                    .is_some_and(|n| n.at[which as usize] == pos)
            })
            .map(FieldId)
    }

    /// The plan's children of `parent` by their position in document `which` (a container of
    /// `len` items): one pass over the children, for a container with many.
    #[must_use]
    pub fn kid_slots(&self, parent: FieldId, which: Doc, len: usize) -> Vec<Option<FieldId>> {
        let mut slots = vec![None; len];
        for &k in self.kids(parent) {
            if let Some(n) = self.nodes.get(k as usize)
                && let Some(slot) = slots.get_mut(n.at[which as usize] as usize)
                && slot.is_none()
            {
                *slot = Some(FieldId(k));
            }
        }
        slots
    }
}
