//! A node's path as text, as the plan prints it.

use std::fmt;

use super::{FieldId, Tree};
use crate::engine::plan::path::write_seg;

impl Tree {
    /// The path of a node, printed as the plan names it (`spec.containers[name=nginx].image`).
    #[must_use]
    pub fn path(&self, id: FieldId) -> PathOf<'_> {
        PathOf { tree: self, id }
    }
}

/// A node's path as text: see [`Tree::path`].
#[derive(Clone, Copy)]
pub struct PathOf<'t> {
    tree: &'t Tree,
    id: FieldId,
}

impl fmt::Display for PathOf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.tree.steps(self.id).into_iter().enumerate() {
            write_seg(f, step, i == 0)?;
        }
        Ok(())
    }
}

/// Paths' texts made one after the other, in the tree's order (fields may be skipped): each
/// one is its parent's plus its step, the parent's kept from before.
#[derive(Default)]
pub struct PathTexts {
    text: String,
    /// The open ancestors: id and where its text ends.
    open: Vec<(FieldId, usize)>,
}

impl PathTexts {
    /// The path of `id`, which comes after the last one asked for.
    pub fn next(&mut self, tree: &Tree, id: FieldId) -> &str {
        let parent = tree.parent(id).unwrap_or(FieldId::ROOT);
        while self.open.last().is_some_and(|(open, _)| *open != parent) {
            self.open.pop();
        }
        if self.open.is_empty() && parent != FieldId::ROOT {
            // Not under the last one's ancestors: start from the parent's path.
            self.text.clear();
            for (i, step) in tree.steps(parent).into_iter().enumerate() {
                let _ = write_seg(&mut self.text, step, i == 0);
            }
            self.open.push((parent, self.text.len()));
        }
        self.text
            .truncate(self.open.last().map_or(0, |(_, end)| *end));
        if let Some(step) = tree.step(id) {
            let first = self.text.is_empty();
            let _ = write_seg(&mut self.text, step, first);
        }
        self.open.push((id, self.text.len()));
        &self.text
    }
}
