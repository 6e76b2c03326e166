//! Two cores for the plan's walk of a big object: once per walk, at a long list, the children
//! past the middle one are walked on another core.

use super::walk::Between;
use super::{At, Walk, find};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::set::Set;

/// The children of a node past which [`Walk`] forks (once per walk).
pub(super) const FORK_AT: usize = 512;

/// Where the walk of `at`'s children forks, if it has enough of them: the middle child of the
/// set with the most.
pub(super) fn middle<'a>(at: &At<'a>) -> Option<&'a PathElement> {
    let most = (0..at.slots())
        .filter_map(|j| at.slot(j))
        .map(Set::children)
        .max_by_key(|c| c.len())?;
    (most.len() >= FORK_AT).then(|| &most[most.len() / 2].0)
}

/// Room for the fields of `at`'s children `between` two elements: as many as the manager
/// with the most children there has paths there, and a quarter more (the others mostly own
/// the same ones; a vector grown past its room is copied, room not used is never touched).
pub(super) fn room(at: &At<'_>, between: Between<'_>) -> usize {
    let inside = |pe: &PathElement| {
        between.from.is_none_or(|f| pe >= f) && between.to.is_none_or(|t| pe < t)
    };
    let most = at
        .sets
        .iter()
        .flatten()
        .max_by_key(|s| s.children().len())
        .map_or(0, |s| {
            s.children()
                .iter()
                .filter(|(pe, _)| inside(pe))
                .map(|(_, c)| c.size())
                .sum::<usize>()
        });
    most + most / 4
}

impl<'a> Walk<'a> {
    /// [`Walk::children`] of all of `at`'s children, those from `middle` on on another core;
    /// their fields follow the first ones'.
    pub(super) fn fork(
        &mut self,
        at: &At<'a>,
        middle: &'a PathElement,
        live: &mut find::Finder<'a>,
        result: &mut find::Finder<'a>,
    ) {
        self.fork = false;
        let first = Between {
            from: None,
            to: Some(middle),
        };
        let second = Between {
            from: Some(middle),
            to: None,
        };
        let mut other = Walk {
            ids: self.ids.clone(),
            upgraded: self.upgraded.clone(),
            before: self.before.clone(),
            after: self.after.clone(),
            path: self.path.clone(),
            places: self.places.clone(),
            out: Vec::new(),
            owners: Default::default(),
            cursors: Vec::new(),
            ties: Vec::new(),
            heads: Vec::new(),
            routes: Vec::new(),
            forced_set: self.forced_set.clone(),
            // Its own words: the fields of each half share their owners and rules within
            // it, not across the cores (each share is a count both would write).
            said: super::said::Said::default(),
            ..*self
        };
        let (rest, ()) = crate::engine::ssa::par::both(
            true,
            || {
                // Room for every field at once (pages only touched as used).
                other.out.reserve(room(at, second));
                let (mut live, mut result) =
                    (find::Finder::new(at.live), find::Finder::new(at.result));
                other.children(at, second, &mut live, &mut result);
                other.out
            },
            || {
                // Room for the second half too, which is added after the first.
                self.out.reserve(room(at, Between::default()));
                self.children(at, first, live, result);
            },
        );
        self.out.extend(rest);
    }
}
