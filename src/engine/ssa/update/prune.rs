//! Prune (`Updater.prune`, `addBackOwnedItems`, `addBackDanglingItems`): what the applier
//! owned last time, applies no more, and nobody else owns goes from the merged object.

use std::collections::BTreeMap;

use super::{ManagedFields, Updater, VersionedSet};
use crate::engine::ssa::par;
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::{self, Comparison, TypedError};
use crate::value::Value;

/// What prune leaves, the set it removed (`None`: nothing could be pruned) and, when asked
/// and the removal's walk tells it, the comparison of the object with what is left.
pub(super) type Pruned = (Value, Option<Set>, Option<Comparison>);

impl Updater<'_> {
    /// Removes what the applier owned last time, applies no more, and nobody else owns; with
    /// the set removed from `merged` (`None`: the object is `merged` as it was, nothing could
    /// be pruned: nothing was looked for, or everything the applier dropped is owned). When
    /// `compared`, also the comparison of `merged` with what is left, where the removal's walk
    /// tells it ([`typed::remove_items_compared`]).
    pub(super) fn prune(
        &self,
        merged: Value,
        managers: &ManagedFields,
        last: Option<VersionedSet>,
        compared: bool,
    ) -> Result<Pruned, TypedError> {
        let Some(last) = last.filter(|l| !l.set.is_empty()) else {
            return Ok((merged, None, None));
        };
        // The applier's last set and what every manager owns (per API version, named fields
        // as members) are read while, for a big object, the merged object's set is built on
        // the other core (it is thrown away when nothing turns out to be left unowned).
        let big = self.scale.is_big(&merged);
        let owners = || {
            let last_set = self.ensure(last.set);
            let mut owned: BTreeMap<&str, Set> = BTreeMap::new();
            for vs in managers.values() {
                let entry = owned.entry(&vs.api_version).or_default();
                *entry = entry.union(&vs.set);
            }
            for set in owned.values_mut() {
                *set = self.ensure(std::mem::take(set));
            }
            // Nothing the applier owned is left unowned (it dropped nothing, or others own
            // what it dropped): the steps below would remove items only to add them all back.
            let covered = last_set.is_covered_by(&owned.values().collect::<Vec<_>>());
            (last_set, owned, covered)
        };
        let ((last_set, owned, covered), merged_set) = if big {
            par::both(true, owners, || Some(self.named_field_set(&merged)))
        } else {
            (owners(), None)
        };
        if covered {
            par::drop_aside((merged_set, last_set), big);
            return Ok((merged, None, None));
        }
        let merged_set = match merged_set {
            Some(set) => set,
            None => self.named_field_set(&merged),
        }?;
        let gone = if owned.len() == 1
            && let Some(managed) = owned.values().next()
        {
            self.prune_one_version(&merged, &merged_set, managed, &last_set, big)
        } else {
            let pruned = self.remove(&merged, &last_set);
            let pruned =
                self.add_back_owned(&merged, &merged_set, pruned, &last.api_version, &owned)?;
            self.add_back_dangling(&merged_set, &pruned, &last_set)
        };
        // The sets of the whole object are freed on another core while the request goes on.
        let owned: Vec<Set> = owned.into_values().collect();
        par::drop_aside((merged_set, owned, last_set), big);
        let gone = gone?;
        // What goes is removed from the object itself, in place.
        let (left, by_walk) = if compared {
            typed::remove_items_compared(self.schema, self.root, merged, &gone)
        } else {
            let left = typed::remove_items_owned(self.schema, self.root, merged, &gone);
            (left, None)
        };
        Ok((left, Some(gone), by_walk))
    }

    /// Prune when every manager's set is at one API version: what goes is read from the sets
    /// alone where they can tell ([`typed::prune_gone`]), else from the objects
    /// ([`Updater::prune_one_version_by_values`]); debug builds check the first against the
    /// second.
    fn prune_one_version(
        &self,
        merged: &Value,
        merged_set: &Set,
        managed: &Set,
        last: &Set,
        big: bool,
    ) -> Result<Set, TypedError> {
        let Some(gone) = typed::prune_gone(self.schema, self.root, merged_set, last, managed)
        else {
            return self.prune_one_version_by_values(merged, merged_set, managed, last, big);
        };
        debug_assert!(
            self.prune_one_version_by_values(merged, merged_set, managed, last, big)
                .is_ok_and(|by_values| by_values == gone),
            "prune's sets give what its objects give"
        );
        Ok(gone)
    }

    /// `RemoveItems` of the last set, `addBackOwnedItems` and `addBackDanglingItems` at one
    /// API version: what goes, without building the object in between. The middle object
    /// (`merged` less what nobody owns and the first removal took) is read as a set only
    /// where that removal walks ([`typed::field_set_after_remove`]). Where the set cannot be
    /// read so, the object is built as in [`Updater::add_back_dangling`]. The same set either
    /// way.
    fn prune_one_version_by_values(
        &self,
        merged: &Value,
        merged_set: &Set,
        managed: &Set,
        last: &Set,
        big: bool,
    ) -> Result<Set, TypedError> {
        let pruned = self.remove(merged, last);
        let pruned_set = self.named_field_set(&pruned)?;
        let dropped = merged_set.difference(&pruned_set.union(managed));
        let Some(after) =
            typed::field_set_after_remove(self.schema, self.root, merged, &dropped, merged_set)
        else {
            let pruned = self.remove(merged, &dropped);
            return self.add_back_dangling(merged_set, &pruned, last);
        };
        let gone = merged_set.difference(&after).intersection(last);
        par::drop_aside((pruned_set, dropped, after), big);
        Ok(gone)
    }

    /// `addBackOwnedItems`: what any manager owns stays (`owned`: per API version, named
    /// fields as members), the pruned version first.
    fn add_back_owned(
        &self,
        merged: &Value,
        merged_set: &Set,
        mut pruned: Value,
        pruned_version: &str,
        owned: &BTreeMap<&str, Set>,
    ) -> Result<Value, TypedError> {
        let first = owned.get_key_value(pruned_version);
        let rest = owned.iter().filter(|(v, _)| **v != pruned_version);
        for (_, managed) in first.into_iter().chain(rest) {
            let pruned_set = self.named_field_set(&pruned)?;
            let keep = pruned_set.union(managed);
            pruned = self.remove(merged, &merged_set.difference(&keep));
        }
        Ok(pruned)
    }

    /// `addBackDanglingItems`: only what the applier owned last time may go; the set that
    /// goes from the merged object. (`merged_set` and `last` have their named fields as
    /// members already.)
    fn add_back_dangling(
        &self,
        merged_set: &Set,
        pruned: &Value,
        last: &Set,
    ) -> Result<Set, TypedError> {
        let pruned_set = self.named_field_set(pruned)?;
        Ok(merged_set.difference(&pruned_set).intersection(last))
    }
}
