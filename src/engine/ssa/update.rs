//! One request against an object's managers (`merge/update.go`, `merge/conflict.go`).
//!
//! **Apply** (`Updater::apply`):
//! 1. `merged = live ⊕ config` ([`typed::merge()`]);
//! 2. the applier's set becomes `ToFieldSet(config)` minus the ignored (reset) fields;
//! 3. prune: what the applier owned before and no longer applies goes, unless another
//!    manager (or the new config) owns it;
//! 4. `compare(live, merged)`: every other manager owning a modified or added path conflicts;
//!    without force that is an error and nothing changes; with force the paths change owner;
//!    removed paths leave every set; managers left with nothing disappear.
//!
//! **Update** (`Updater::update`): always forced; the updater's set becomes
//! `(old − removed) ∪ modified ∪ added`.
//!
//! All API versions of an object share one schema here (the identity converter).

mod again;
mod conflicts;
mod error;
mod prune;

pub use again::Again;
pub(crate) use conflicts::grouped_conflicts;
pub use conflicts::{Conflict, Conflicts};
pub use error::{COMPARE_FAILED, UpdateError};

use std::collections::BTreeMap;

use super::par;
use super::schema::{Schema, TypeRef};
use super::set::Set;
use super::typed::{self, Comparison, TypedError};
use crate::value::Value;

/// A manager's set and the API version it was recorded at (`fieldpath.VersionedSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionedSet {
    pub set: Set,
    pub api_version: String,
    /// Whether the set comes from an apply.
    pub applied: bool,
}

/// Every manager's set, by manager (`fieldpath.ManagedFields`).
pub type ManagedFields = BTreeMap<String, VersionedSet>;

/// An apply's answer ([`Updater::apply_again`]).
#[derive(Debug)]
pub struct Applied {
    /// The new object (`None` when nothing changes).
    pub object: Option<Value>,
    pub managers: ManagedFields,
    /// The conflicts the force took.
    pub conflicts: Conflicts,
    /// What the next apply of the same configuration can reuse, when asked for.
    pub again: Option<Again>,
    /// The live object compared with the new one (`typed::compare`, nothing left out).
    pub compared: Comparison,
}

/// The request handler (`merge.Updater`) for one schema and root type.
#[derive(Clone, Copy, Debug)]
pub struct Updater<'a> {
    pub schema: &'a Schema,
    pub root: TypeRef,
    /// Fields nobody owns, per API version (`IgnoredFields`: the reset fields).
    pub ignored: Option<&'a BTreeMap<String, Set>>,
    /// Return the merged object even when it equals the live one.
    pub return_input_on_noop: bool,
    /// How big its objects are (for the choice of threads alone).
    pub scale: par::Scale,
}

impl<'a> Updater<'a> {
    #[must_use]
    pub fn new(schema: &'a Schema, root: TypeRef) -> Updater<'a> {
        Updater {
            schema,
            root,
            ignored: None,
            return_input_on_noop: false,
            scale: par::Scale::Count,
        }
    }

    fn ignored_at(&self, version: &str) -> Option<&'a Set> {
        self.ignored.and_then(|m| m.get(version))
    }

    fn exclude(&self, set: Set, version: &str) -> Set {
        match self.ignored_at(version) {
            Some(ignored) => set.recursive_difference(ignored),
            None => set,
        }
    }

    fn compare(&self, old: &Value, new: &Value) -> Result<Comparison, UpdateError> {
        typed::compare(self.schema, self.root, old, new).map_err(UpdateError::Compare)
    }

    fn field_set(&self, v: &Value) -> Result<Set, TypedError> {
        typed::to_field_set(self.schema, self.root, v)
    }

    /// [`Updater::field_set`] with named fields as members (what prune reads), in one walk.
    fn named_field_set(&self, v: &Value) -> Result<Set, TypedError> {
        typed::to_field_set_named(self.schema, self.root, v)
    }

    /// `live ⊕ config` (`Some`: the empty result as null), and, for an object not `big`,
    /// the comparison of `live` with it, made by the same walk ([`typed::merge_compared`]); a
    /// big one's merge may split a long list between the cores instead.
    #[allow(clippy::type_complexity)]
    fn merge(
        &self,
        live: &Value,
        config: &Value,
        big: bool,
    ) -> Result<(Option<Value>, Option<Result<Comparison, TypedError>>), TypedError> {
        if big {
            let merged = typed::merge(self.schema, self.root, live, config)?;
            return Ok((Some(merged.unwrap_or(Value::Null)), None));
        }
        let (merged, compared) = typed::merge_compared(self.schema, self.root, live, config)?;
        // A comparison with no result compares with nothing, not with null.
        let compared = merged.is_some().then_some(compared);
        Ok((Some(merged.unwrap_or(Value::Null)), compared))
    }

    /// Named fields as members, in place.
    fn ensure(&self, s: Set) -> Set {
        s.into_named_fields_as_members(self.schema, self.root)
    }

    fn remove(&self, v: &Value, s: &Set) -> Value {
        typed::remove_items(self.schema, self.root, v, s)
    }

    /// `reconcileManagedFieldsWithSchemaChanges`, in place (a set that needs no change is
    /// not copied).
    fn reconcile(&self, mut managers: ManagedFields) -> Result<ManagedFields, TypedError> {
        for vs in managers.values_mut() {
            if let Some(set) = typed::reconcile_field_set(self.schema, self.root, &vs.set)? {
                vs.set = set;
            }
        }
        Ok(managers)
    }

    /// The common half of apply and update (`Updater.update`).
    /// `raw`: the old object compared with the new one.
    fn update_managers(
        &self,
        raw: Comparison,
        version: &str,
        mut managers: ManagedFields,
        workflow: &str,
    ) -> Result<(ManagedFields, Comparison, Conflicts, Comparison), UpdateError> {
        let exclude = |v: &str| match self.ignored_at(v) {
            Some(set) if !set.is_empty() => Comparison {
                removed: raw.removed.recursive_difference(set),
                modified: raw.modified.recursive_difference(set),
                added: raw.added.recursive_difference(set),
            },
            _ => raw.clone(),
        };
        // Per API version: the comparison without its ignored fields, and what it modified or
        // added (computed once per version, not per manager).
        let own = exclude(version);
        let own_changed = own.modified.union(&own.added);
        let mut others: BTreeMap<&str, (Comparison, Set)> = BTreeMap::new();
        let mut conflicts: Vec<(&String, Set)> = Vec::new();
        let mut changed_sets: Vec<(String, Set)> = Vec::new();
        for (manager, vs) in &managers {
            if manager == workflow {
                continue;
            }
            let (cmp, changed) = if vs.api_version == version {
                (&own, &own_changed)
            } else {
                let (c, ch) = others.entry(&vs.api_version).or_insert_with(|| {
                    let c = exclude(&vs.api_version);
                    let ch = c.modified.union(&c.added);
                    (c, ch)
                });
                (&*c, &*ch)
            };
            let conflict = vs.set.intersection(changed);
            let mut set = None;
            if !conflict.is_empty() {
                set = Some(vs.set.difference(&conflict));
                conflicts.push((manager, conflict));
            }
            if !cmp.removed.is_empty() {
                set = Some(set.as_ref().unwrap_or(&vs.set).difference(&cmp.removed));
            }
            if let Some(set) = set {
                changed_sets.push((manager.clone(), set));
            }
        }
        let mut list = Vec::new();
        for (manager, set) in &conflicts {
            for path in set.paths() {
                list.push(Conflict {
                    manager: (*manager).clone(),
                    path,
                });
            }
        }
        drop(others);
        for (manager, set) in changed_sets {
            if let Some(vs) = managers.get_mut(&manager) {
                vs.set = set;
            }
        }
        managers.retain(|_, vs| !vs.set.is_empty());
        Ok((managers, own, Conflicts(list), raw))
    }

    /// `Updater.Update`: `new` replaces `live`; the updater takes what changed.
    ///
    /// # Errors
    /// When a value does not fit the schema.
    pub fn update(
        &self,
        live: &Value,
        new: &Value,
        version: &str,
        managers: &ManagedFields,
        manager: &str,
    ) -> Result<ManagedFields, UpdateError> {
        self.update_owned(live, new, version, managers.clone(), manager)
    }

    /// [`Updater::update`] of managers the caller gives away (not copied).
    ///
    /// # Errors
    /// As [`Updater::update`].
    pub fn update_owned(
        &self,
        live: &Value,
        new: &Value,
        version: &str,
        managers: ManagedFields,
        manager: &str,
    ) -> Result<ManagedFields, UpdateError> {
        let managers = self.reconcile(managers)?;
        let raw = self.compare(live, new)?;
        let (mut managers, cmp, ..) = self.update_managers(raw, version, managers, manager)?;
        let previous = managers
            .get(manager)
            .map(|vs| vs.set.clone())
            .unwrap_or_default();
        let set = previous
            .difference(&cmp.removed)
            .union(&cmp.modified)
            .union(&cmp.added);
        let set = self.exclude(set, version);
        if set.is_empty() {
            managers.remove(manager);
        } else {
            managers.insert(
                manager.to_owned(),
                VersionedSet {
                    set,
                    api_version: version.to_owned(),
                    applied: false,
                },
            );
        }
        Ok(managers)
    }

    /// `Updater.Apply`: the new object (`None` when nothing changes) and the managers.
    /// `live` and `config` are expected to fit the schema ([`fn@typed::validate`], duplicates
    /// allowed in `live` only), as the reference types them before.
    ///
    /// # Errors
    /// [`UpdateError::Conflicts`] without `force`; [`UpdateError::Typed`] when a value does not
    /// fit the schema.
    pub fn apply(
        &self,
        live: &Value,
        config: &Value,
        version: &str,
        managers: &ManagedFields,
        manager: &str,
        force: bool,
    ) -> Result<(Option<Value>, ManagedFields), UpdateError> {
        let (new, managers, conflicts) =
            self.apply_forced(live, config, version, managers, manager)?;
        if !force && !conflicts.0.is_empty() {
            return Err(UpdateError::Conflicts(conflicts));
        }
        Ok((new, managers))
    }

    /// [`Updater::apply`] forced, with the conflicts the force took (empty: the apply
    /// without force gives the same). One merge and prune serve both answers.
    ///
    /// # Errors
    /// [`UpdateError::Typed`] when a value does not fit the schema.
    pub fn apply_forced(
        &self,
        live: &Value,
        config: &Value,
        version: &str,
        managers: &ManagedFields,
        manager: &str,
    ) -> Result<(Option<Value>, ManagedFields, Conflicts), UpdateError> {
        self.apply_forced_owned(live, config, version, managers.clone(), manager)
    }

    /// [`Updater::apply_forced`] of managers the caller gives away (not copied).
    ///
    /// # Errors
    /// As [`Updater::apply_forced`].
    pub fn apply_forced_owned(
        &self,
        live: &Value,
        config: &Value,
        version: &str,
        managers: ManagedFields,
        manager: &str,
    ) -> Result<(Option<Value>, ManagedFields, Conflicts), UpdateError> {
        let applied = self.apply_again(live, config, version, managers, manager, None, false)?;
        Ok((applied.object, applied.managers, applied.conflicts))
    }

    /// [`Updater::apply_forced_owned`], reusing what an apply of the same `config` by the
    /// same `manager` at the same `version` handed on (`again`), and, with `hand_on`, handing
    /// on what the next such apply can reuse ([`Again`]).
    ///
    /// # Errors
    /// As [`Updater::apply_forced`].
    #[allow(clippy::too_many_arguments)]
    pub fn apply_again(
        &self,
        live: &Value,
        config: &Value,
        version: &str,
        managers: ManagedFields,
        manager: &str,
        again: Option<Again>,
        hand_on: bool,
    ) -> Result<Applied, UpdateError> {
        let fixed = again.as_ref().is_some_and(Again::is_fixed);
        // The configuration's set is built while the managers are reconciled and the objects
        // merged (two cores for a big object); the errors come in the order of the steps.
        let (set, merged) = match again {
            // At the merge's fixed point the managers need no reconcile: they come from
            // earlier requests, each of which reconciled them with the schema first, and from
            // unions and differences of their sets (the csaupgrade), which put nothing below
            // an atomic container. The object is copied ahead, or when there may be something
            // to prune from it.
            Some(Again {
                set,
                fixed: true,
                copy,
                ..
            }) => {
                debug_assert!(
                    managers.values().all(|vs| {
                        typed::reconcile_field_set(self.schema, self.root, &vs.set)
                            .is_ok_and(|r| r.is_none())
                    }),
                    "the managers at the fixed point are reconciled"
                );
                // The merge would give the object back: it is the object read (not copied
                // unless there may be something to prune from it).
                debug_assert!(
                    typed::merge(self.schema, self.root, live, config).is_ok_and(|m| {
                        super::order::identical(&m.unwrap_or(Value::Null), live)
                    }),
                    "the merge gives a fixed point back"
                );
                (Ok((set, None)), Ok((managers, (copy, None))))
            }
            Some(Again { set, .. }) => {
                // The managers are reconciled while the object is merged (two cores for a big
                // object).
                let big = self.scale.is_big(live);
                let (managers, merged) = par::both(
                    big,
                    || self.reconcile(managers),
                    || self.merge(live, config, big),
                );
                let copy = hand_on.then(|| set.clone());
                (Ok((set, copy)), Ok((managers?, merged?)))
            }
            None => {
                let big = self.scale.is_big(config);
                par::both(
                    big,
                    || {
                        let set = self.field_set(config)?;
                        let copy = hand_on.then(|| set.clone());
                        Ok::<_, TypedError>((set, copy))
                    },
                    || -> Result<_, TypedError> {
                        let managers = self.reconcile(managers)?;
                        Ok((managers, self.merge(live, config, big)?))
                    },
                )
            }
        };
        let (mut managers, (merged, merge_compared)) = merged?;
        let (set, copy) = set?;
        // Replaced below: taken, not copied.
        let last = managers.remove(manager);
        let set = self.exclude(set, version);
        managers.insert(
            manager.to_owned(),
            VersionedSet {
                set,
                api_version: version.to_owned(),
                applied: true,
            },
        );
        // `None`: the merge's fixed point with nothing to prune, the object read itself. At
        // the fixed point, the object pruned is the object read: the removal's walk compares
        // them as it goes.
        let (new, pruned, by_walk) = match merged {
            None if last.as_ref().is_none_or(|l| l.set.is_empty()) => (None, None, None),
            merged => {
                let merged = merged.unwrap_or_else(|| live.clone());
                let (new, pruned, by_walk) = self.prune(merged, &managers, last, fixed)?;
                (Some(new), pruned, by_walk)
            }
        };
        let untouched = pruned.is_none();
        // At the merge's fixed point the new object is the object read less what prune
        // removed: only there do they differ.
        let raw = match (&new, fixed, merge_compared, by_walk) {
            (None, ..) => Comparison::default(),
            // Nothing pruned: the new object is the merged one, compared as it was merged.
            (Some(_), false, Some(compared), _) if untouched => {
                compared.map_err(UpdateError::Compare)?
            }
            (Some(_), true, _, Some(compared)) => compared, // by prune's removal, as it went
            (Some(new), true, _, None) => typed::compare_within(
                self.schema,
                self.root,
                live,
                new,
                pruned.as_ref().unwrap_or(&Set::new()),
            )
            .map_err(UpdateError::Compare)?,
            (Some(new), false, ..) => self.compare(live, new)?,
        };
        debug_assert!(
            new.as_ref()
                .is_none_or(|new| self.compare(live, new).is_ok_and(|c| c == raw)),
            "the comparison within what prune removed"
        );
        // At the fixed point with nothing pruned, the new object is the object read.
        let as_read = fixed && untouched;
        debug_assert!(
            !as_read
                || new
                    .as_ref()
                    .is_none_or(|new| super::order::identical(live, new)),
            "the fixed point's copy is the object read"
        );
        let (managers, changed, conflicts, compared) =
            self.update_managers(raw, version, managers, manager)?;
        // A change the comparison found is a difference `value.Equals` finds too (it compares
        // leaves by the same equality): the objects are compared whole only when it found none.
        let same = !self.return_input_on_noop
            && changed.is_same()
            && (as_read
                || new
                    .as_ref()
                    .is_none_or(|new| super::order::equals(live, new)));
        // The merge is idempotent: what it left, less nothing, merges into itself again. When
        // nothing changed, the live object stays: that holds for it only when it is written
        // as what the merge left (`equals` is blind to key order and to `1` against `1.0`).
        let again = copy.map(|set| {
            let fixed = untouched
                && (!same
                    || as_read
                    || new
                        .as_ref()
                        .is_none_or(|new| super::order::identical(live, new)));
            Again::new(set, fixed)
        });
        let object = (!same).then(|| new.unwrap_or_else(|| live.clone()));
        Ok(Applied {
            object,
            managers,
            conflicts,
            again,
            compared,
        })
    }
}
