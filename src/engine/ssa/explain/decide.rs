//! Each field's action and rule ([`Walk::decide`]): from who owned it and who owns it, and
//! whether the apply added, removed or changed it.

use std::sync::Arc;

use super::said::Rule;
use super::values::{Found, Values};
use super::{ADDED, Action, At, Field, MODIFIED, REMOVED, Walk};
use crate::engine::ssa::path::PathElement;

impl<'a> Walk<'a> {
    /// The path of this node and `m`: its field of the plan, if any. `ob`, `oa`: its owners
    /// before and after (indices in `ids`); `is`: whether it is in each changed set.
    pub(super) fn decide(
        &mut self,
        at: &At<'a>,
        m: &PathElement,
        (ob, oa, is): (&[usize], &[usize], [bool; 3]),
        (before, after): (Found<'_>, Found<'_>),
    ) {
        let changed = [ADDED, REMOVED, MODIFIED].into_iter().find(|&i| is[i]);
        // An item added or removed whole (someone owns it as such) says it for what is
        // inside; a container nobody owns (a route) is said by what is inside it.
        match changed {
            Some(i) if at.said[i] => return,
            Some(i)
                if ob.is_empty()
                    && oa.is_empty()
                    && at.changed[i]
                        .and_then(|s| s.child(m))
                        .is_some_and(|d| !d.is_empty()) =>
            {
                return;
            }
            None if at.under[0] || at.under[1] => return,
            _ => {}
        }
        // Nobody owns the identity (`stripmeta`): not a field of the plan.
        if ob.is_empty()
            && oa.is_empty()
            && self
                .path
                .first()
                .unwrap_or(m)
                .as_field()
                .is_some_and(|f| ["apiVersion", "kind", "metadata"].contains(&f))
        {
            return;
        }
        let me = self.me;
        let mine = |o: &[usize]| me.is_some_and(|me| o.contains(&me));
        let ids = &self.ids;
        let names = |o: &[usize]| {
            o.iter()
                .map(|&i| ids[i].manager.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        // The managers of `o` but the applier and the ones the csaupgrade made it, named.
        let migrated = &self.upgraded;
        let other = |i: usize| Some(i) != me && !migrated[i];
        let others = |o: &[usize]| {
            let others: Vec<&str> = o
                .iter()
                .filter(|&&i| other(i))
                .map(|&i| ids[i].manager.as_str())
                .collect();
            (!others.is_empty()).then(|| others.join(", "))
        };
        let [added, removed, modified] = is;
        let had = mine(ob);
        let upgraded = ob.iter().any(|&o| migrated[o]);
        let annotation = m
            .as_field()
            .is_some_and(|f| f == crate::engine::ssa::lastapplied::ANNOTATION);
        self.path.push(m.clone());
        let p = self.path.as_slice();
        let forced = if self.forced_set.has(p) {
            self.forced.iter().find(|(fp, _)| fp.as_slice() == p)
        } else {
            None
        };
        // Each rule's text is written once per distinct wording (the managers it names), and
        // shared by the fields it decides.
        let said = &mut self.said;
        let mut rule =
            |tag: Rule, key: &[usize], text: &dyn Fn() -> String| said.rule(tag, key, text);
        let fixed = |text: &'static str| move || text.to_owned();
        let decided = if let Some((_, m)) = forced {
            Some((
                Action::Conflict,
                Arc::from(format!(
                    "conflict: {} owned it and the file sets another value; --force-conflicts takes it",
                    m.manager
                )),
            ))
        } else if annotation && (modified || added || ob != oa) {
            Some((
                Action::Set,
                rule(
                    Rule::Annotation,
                    &[],
                    &fixed(
                        "rewritten by the API server from the applied object (lastAppliedUpdater); kubectl saves it as kubectl-last-applied so that no apply prunes it",
                    ),
                ),
            ))
        } else if removed {
            let rule = if had && ob.iter().any(|&o| other(o)) {
                // Only prune's removal of its key fields takes an item others own a part of:
                // left without them, it cannot be named, and the item goes whole.
                rule(Rule::PrunedWhole, ob, &|| {
                    format!(
                        "pruned: the file dropped it, and it goes whole although {} owned a part of it: its key fields were yours alone, and an item left without them is removed",
                        others(ob).unwrap_or_default()
                    )
                })
            } else if had {
                rule(
                    Rule::Pruned,
                    &[],
                    &fixed("pruned: you owned it, the file dropped it, and nobody else owns it"),
                )
            } else if upgraded {
                rule(Rule::PrunedAgain, ob, &|| {
                    format!(
                        "pruned by the second apply: the csaupgrade made {}'s fields yours, the file dropped it, and nobody else owns it (kubernetes#99003)",
                        names(ob)
                    )
                })
            } else {
                rule(Rule::Removed, &[], &fixed("removed: its owners dropped it"))
            };
            Some((Action::Remove, rule))
        } else if (added || modified)
            && mine(oa)
            && let Some(&lost) = ob.iter().find(|&&o| Some(o) != me && !oa.contains(&o))
        {
            if upgraded && me.is_some_and(|me| ids[lost].manager == ids[me].manager) {
                // `--migrate-manager`: the applier's own Update entry became its Apply entry
                // before the apply, so no conflict was ever raised.
                Some((
                    Action::Set,
                    rule(Rule::MigratedSet, ob, &|| {
                        format!(
                            "set: the file sets another value; {}'s ownership was moved to you before the apply (migration)",
                            names(ob)
                        )
                    }),
                ))
            } else {
                // Taken without --force-conflicts: only kubectl's last-applied excusal forces.
                Some((
                    Action::Conflict,
                    rule(Rule::Excused, &[lost], &|| {
                        format!(
                            "conflict excused: {} owned it, but kubectl's last-applied annotation still holds the live value, so the API server forces the apply",
                            ids[lost].manager
                        )
                    }),
                ))
            }
        } else if added {
            Some((
                Action::Add,
                rule(Rule::Added, &[], &fixed("added: the file sets it")),
            ))
        } else if modified {
            Some((
                Action::Set,
                rule(Rule::Set, &[], &fixed("set: the file sets another value")),
            ))
        } else if ob != oa
            && !(oa.is_empty()
                && m.as_field().is_some()
                && after.is_some_and(|(_, v)| v.is_object()))
        {
            let rule = if had && !mine(oa) {
                rule(Rule::Kept, oa, &|| {
                    format!("kept: the file dropped it, but {} also owns it", names(oa))
                })
            } else if !had && mine(oa) && ob.iter().any(|o| !oa.contains(o)) {
                rule(Rule::Moved, ob, &|| {
                    format!("ownership moved from {} (csaupgrade or forced)", names(ob))
                })
            } else if !had && mine(oa) && ob.is_empty() {
                // Keyed by the owners after: the applier is the same in all of them.
                rule(Rule::Claimed, oa, &|| match others(oa) {
                    None => "claimed: nobody owned it; the file sets the value it already has"
                        .to_owned(),
                    Some(others) => format!(
                        "shared: nobody owned it; the file sets the value it already has, and {others} owns it too"
                    ),
                })
            } else if !had && mine(oa) {
                rule(Rule::Shared, ob, &|| {
                    format!("shared: the file sets the value {} already set", names(ob))
                })
            } else {
                rule(
                    Rule::OwnersChange,
                    &[],
                    &fixed("owners change; the value stays"),
                )
            };
            Some((Action::Keep, rule))
        } else {
            None
        };
        if let Some((action, rule)) = decided {
            // Only a field whose value stays can have the same value before and after.
            let [b_above, a_above] = &self.places;
            let sides = ((before, b_above.as_slice()), (after, a_above.as_slice()));
            let values = match action {
                Action::Keep => Values::of(sides.0, sides.1),
                _ => Values::apart(sides.0, sides.1),
            };
            self.out.push(Field {
                at: p.to_vec(),
                action,
                values,
                owners_before: self.said.owners(ob, ids),
                owners_after: self.said.owners(oa, ids),
                rule,
                hidden_from_diff: false,
            });
        }
        self.path.pop();
    }
}
