//! What kubectl's first apply hands to its second ([`Again`]).

use crate::engine::ssa::set::Set;
use crate::value::Value;

/// What an apply hands to the next apply of the same configuration by the same manager at the
/// same API version (kubectl's second apply, after the csaupgrade,
/// [`crate::engine::ssa::kubectl`]); or, for the first apply, the configuration's set read
/// ahead with its validation ([`Again::of_config`]).
#[derive(Debug)]
pub struct Again {
    /// The configuration's set (before the ignored fields leave it).
    pub(super) set: Set,
    /// Whether the object the apply left, merged with the configuration again, gives itself
    /// back: the merge left it and nothing was pruned from it (the merge is idempotent:
    /// `merge(merge(a, c), c) = merge(a, c)`, to the order of keys and items). Only as long
    /// as nothing else changes the object.
    pub(super) fixed: bool,
    /// The fixed point, copied ahead (beside other work) for the apply to prune from.
    pub(super) copy: Option<Value>,
    /// The configuration's text in the last-applied annotation, as the apply wrote it (the
    /// request's `lastAppliedUpdater`, for the manager `kubectl`).
    annotation: Option<String>,
}

impl Again {
    /// What an apply hands on: the configuration's set, and whether the object it left is
    /// the merge's fixed point.
    pub(super) fn new(set: Set, fixed: bool) -> Again {
        Again {
            set,
            fixed,
            copy: None,
            annotation: None,
        }
    }

    /// For an apply whose merge gives the object read back, of a configuration whose set
    /// (before the ignored fields leave it) is `set`: one that holds only what the object
    /// holds, where merging changes nothing (kubectl's save of the annotation the object
    /// carries, [`crate::engine::ssa::kubectl`]).
    #[must_use]
    pub fn fixed_point(set: Set) -> Again {
        Again::new(set, true)
    }

    /// What the first apply of a configuration knows ahead: its set alone (read beside its
    /// validation, [`crate::engine::ssa::typed::validate_owned`]), nothing fixed.
    #[must_use]
    pub fn of_config(set: Set) -> Again {
        Again::new(set, false)
    }

    /// The same, for an object changed since (the set holds, the fixed point may not).
    #[must_use]
    pub fn unfixed(self) -> Again {
        Again {
            fixed: false,
            copy: None,
            ..self
        }
    }

    /// The same, with a copy of the object it was handed on with (kept only while that is
    /// the fixed point): the apply prunes from it instead of copying the object then.
    #[must_use]
    pub fn with_copy(self, object: Value) -> Again {
        Again {
            copy: self.fixed.then_some(object),
            ..self
        }
    }

    /// The same, with the configuration's text in the last-applied annotation as the apply
    /// wrote it (`None`: not written).
    #[must_use]
    pub fn with_annotation(self, annotation: Option<String>) -> Again {
        Again { annotation, ..self }
    }

    /// The configuration's text in the last-applied annotation, taken out.
    pub fn take_annotation(&mut self) -> Option<String> {
        self.annotation.take()
    }

    /// Whether the object read is the merge's fixed point: the apply can only prune from it,
    /// so its comparison holds removals only, and no other manager's field can conflict
    /// (a conflict is a field another owns that the apply modified or added).
    #[must_use]
    pub fn is_fixed(&self) -> bool {
        self.fixed
    }
}
