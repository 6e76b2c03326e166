//! The plan's fields found by path.

use super::{Action, Field};
use crate::engine::ssa::path::{Path, PathElement};

/// The fields by path, to find the one a path shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldIndex(std::collections::BTreeMap<Path, usize>);

impl FieldIndex {
    #[must_use]
    pub fn new(fields: &[Field]) -> FieldIndex {
        FieldIndex(
            fields
                .iter()
                .enumerate()
                .map(|(i, f)| (f.at.clone(), i))
                .collect(),
        )
    }

    /// The field at `path`, else the nearest field above it that was added or removed whole
    /// (what is inside is said by it).
    #[must_use]
    pub fn find(&self, fields: &[Field], path: &[PathElement]) -> Option<usize> {
        if let Some(&i) = self.0.get(path) {
            return Some(i);
        }
        (1..path.len()).rev().find_map(|n| {
            let i = *self.0.get(&path[..n])?;
            let f = fields.get(i)?;
            matches!(f.action, Action::Add | Action::Remove).then_some(i)
        })
    }
}
