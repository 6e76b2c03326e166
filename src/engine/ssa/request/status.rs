//! The registry strategy's status: where the endpoint resets `status` (nobody owns it), an
//! update of the main resource keeps the status the object had (`PrepareForUpdate`) and a
//! create starts without one (`PrepareForCreate`), after the field manager merged the
//! configuration's.

use super::Request;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed;
use crate::engine::ssa::update::Again;
use crate::value::Value;

impl Request<'_> {
    /// Whether the object's `status` comes out of an apply of `config` as it went in: the
    /// endpoint resets `status` (nobody owns it) and the configuration has one. The registry
    /// strategy keeps the status the object had (`PrepareForUpdate`; a create starts without
    /// one, `PrepareForCreate`) after the field manager merged the configuration's: the merge
    /// still counts as a change (the manager's time is written), the status does not stay.
    pub(super) fn resets_status(&self, config: &Value) -> bool {
        config.get("status").is_some() && self.resets_status_field()
    }

    /// The strategy's status: the object the merge left gets the live object's `status` back
    /// (none when it had none), its comparison with the live object loses what it said of
    /// `status`, and what the next apply reuses is no fixed point.
    pub(super) fn put_status_back(
        &self,
        live: &Value,
        object: Option<Value>,
        compared: typed::Comparison,
        again: Option<Again>,
    ) -> (Option<Value>, typed::Comparison, Option<Again>) {
        let Some(mut object) = object else {
            return (None, compared, again);
        };
        if let Some(obj) = object.as_object_mut() {
            match live.get("status") {
                Some(status) => {
                    obj.insert("status", status.clone());
                }
                None => {
                    obj.shift_remove("status");
                }
            }
        }
        let status = Set::from_paths([[PathElement::field("status")].as_slice()]);
        let compared = typed::Comparison {
            removed: compared.removed.recursive_difference(&status),
            modified: compared.modified.recursive_difference(&status),
            added: compared.added.recursive_difference(&status),
        };
        (Some(object), compared, again.map(Again::unfixed))
    }

    /// Whether the endpoint's reset fields hold `status`.
    fn resets_status_field(&self) -> bool {
        self.ignored
            .and_then(|i| i.get(self.api_version))
            .is_some_and(|set| set.has(&[PathElement::field("status")]))
    }
}
