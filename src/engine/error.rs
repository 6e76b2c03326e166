//! Errors of the strategic merge engine. Messages are the reference's own (apimachinery
//! `mergepatch/errors.go` and `strategicpatch/patch.go`), so a user who searches for one finds
//! kubectl's explanation.

use thiserror::Error;

use super::schema::LookupError;

/// Why a strategic merge patch could not be created or applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SmpError {
    /// A document was not JSON, or not an object.
    #[error("invalid JSON document")]
    BadJsonDoc,
    #[error("lists of lists are not supported")]
    NoListOfLists,
    #[error("invalid patch format of primitive list")]
    BadPatchFormatForPrimitiveList,
    #[error("invalid patch format of retainKeys")]
    BadPatchFormatForRetainKeys,
    #[error("invalid patch format of setElementOrder list")]
    BadPatchFormatForSetElementOrderList,
    /// `map: %v does not contain declared merge key: %s`
    #[error("map: {map} does not contain declared merge key: {key}")]
    NoMergeKey { map: String, key: String },
    /// `expected a %s, but received a %s` (Go type names).
    #[error("expected a {expected}, but received a {actual}")]
    BadArgType {
        expected: &'static str,
        actual: &'static str,
    },
    /// `unknown patch type: %s in map: %v`
    #[error("unknown patch type: {directive} in map: {map}")]
    BadPatchType { directive: String, map: String },
    /// The schema has no such field, or the field is of another shape.
    #[error("{0}")]
    Lookup(#[from] LookupError),
    /// A three-way patch changes keys that were changed differently in the live object.
    #[error("patch:\n{patch}\nconflicts with changes made from original to current:\n{changed}\n")]
    Conflict { patch: String, changed: String },
    /// Any other failure, with the reference's message.
    #[error("{0}")]
    Other(String),
    /// The document nests deeper than [`crate::engine::MAX_DEPTH`].
    #[error("document nests deeper than {0} levels")]
    TooDeep(usize),
}

impl SmpError {
    /// Is this a three-way conflict (`--overwrite=false`)?
    #[must_use]
    pub fn is_conflict(&self) -> bool {
        matches!(self, SmpError::Conflict { .. })
    }
}
