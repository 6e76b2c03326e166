//! Two cores for the plan's walk of a big object: once per walk, at a long list, the second
//! half of the children is walked on another core.

use super::{At, Walk, find};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::set::Set;

/// The children of a node past which [`Walk`] forks (once per walk).
pub(super) const FORK_AT: usize = 512;

impl<'a> Walk<'a> {
    /// [`Walk::children`] of all `children`, the second half on another core; its fields
    /// follow the first half's.
    pub(super) fn fork(
        &mut self,
        at: &At<'a>,
        children: &'a [(PathElement, Set)],
        live: &mut find::Finder<'a>,
        result: &mut find::Finder<'a>,
    ) {
        self.fork = false;
        let (first, second) = children.split_at(children.len() / 2);
        let mut other = Walk {
            ids: self.ids.clone(),
            upgraded: self.upgraded.clone(),
            before: self.before.clone(),
            after: self.after.clone(),
            path: self.path.clone(),
            places: self.places.clone(),
            // Room for every field of the second half at once (pages only touched as used).
            out: Vec::with_capacity(second.iter().map(|(_, c)| c.size()).sum()),
            owners: Default::default(),
            cursors: Vec::new(),
            forced_set: self.forced_set.clone(),
            // Its own words: the fields of each half share their owners and rules within
            // it, not across the cores (each share is a count both would write).
            said: super::said::Said::default(),
            ..*self
        };
        let (rest, ()) = crate::engine::ssa::par::both(
            true,
            || {
                let (mut live, mut result) =
                    (find::Finder::new(at.live), find::Finder::new(at.result));
                other.children(at, second, &mut live, &mut result);
                other.out
            },
            || self.children(at, first, live, result),
        );
        self.out.extend(rest);
    }
}
