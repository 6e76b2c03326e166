//! The plan's words: what the walk said already (each list of owners and each rule's text,
//! written once and shared by every field that says the same: a migrated object moves the
//! owner of every field, hundreds of thousands of fields with a handful of distinct owners
//! and rules), a step's changes, an entry's operation.

use std::sync::Arc;

use super::Action;
use crate::engine::ssa::managed::{ManagerId, Operation};
use crate::engine::ssa::typed::Comparison;

/// What the walk said already: each list of owners (by their indices in `ids`) and each rule
/// text, shared by every field that says the same (few distinct ones, searched in order).
#[derive(Clone, Default)]
pub(super) struct Said {
    owners: Vec<(Vec<usize>, Arc<[ManagerId]>)>,
    rules: Vec<(Rule, Vec<usize>, Arc<str>)>,
}

/// Which wording a rule has (its text also names the managers it is keyed by).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Rule {
    Annotation,
    Pruned,
    PrunedWhole,
    PrunedAgain,
    Removed,
    MigratedSet,
    Excused,
    Added,
    Set,
    Kept,
    Moved,
    Shared,
    Claimed,
    OwnersChange,
}

impl Said {
    pub(super) fn owners(&mut self, ix: &[usize], ids: &[ManagerId]) -> Arc<[ManagerId]> {
        if let Some((_, list)) = self.owners.iter().find(|(k, _)| same(k, ix)) {
            return Arc::clone(list);
        }
        let list: Arc<[ManagerId]> = ix.iter().map(|&i| ids[i].clone()).collect();
        self.owners.push((ix.to_vec(), Arc::clone(&list)));
        list
    }

    /// The text of `tag` naming the managers `key`, written by `text` the first time.
    pub(super) fn rule(&mut self, tag: Rule, key: &[usize], text: &dyn Fn() -> String) -> Arc<str> {
        if let Some((.., r)) = self
            .rules
            .iter()
            .find(|(t, k, _)| *t == tag && same(k, key))
        {
            return Arc::clone(r);
        }
        let r: Arc<str> = Arc::from(text());
        self.rules.push((tag, key.to_vec(), Arc::clone(&r)));
        r
    }
}

/// Two short lists of manager positions compared in place (`==` on slices calls `memcmp`).
fn same(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The paths a comparison added, changed and removed, with their action.
#[must_use]
pub fn changes(c: &Comparison) -> Vec<(String, Action)> {
    let mut out = Vec::new();
    for (set, action) in [
        (&c.added, Action::Add),
        (&c.modified, Action::Set),
        (&c.removed, Action::Remove),
    ] {
        out.extend(set.path_strings().into_iter().map(|p| (p, action)));
    }
    out
}

/// `Apply` or `Update`, for the writers.
#[must_use]
pub fn operation(id: &ManagerId) -> &'static str {
    match id.operation {
        Operation::Apply => "Apply",
        Operation::Update => "Update",
    }
}
