//! Errors of the strategic merge engine. Messages are the reference's own (apimachinery
//! `mergepatch/errors.go` and `strategicpatch/patch.go`), so a user who searches for one finds
//! kubectl's explanation.

use thiserror::Error;

use super::gofmt::GoPanic;
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
    /// The reference's Go code would crash here: `==` on two maps (or two slices), as when a
    /// merge key's value is a map. Go's message, and the list whose items it compared.
    #[error(
        "apimachinery's strategic merge code would crash: {}",
        panic_line(*panic, list.as_deref(), merge_key.as_deref())
    )]
    GoPanic {
        panic: GoPanic,
        /// The merging list (its field name), when known.
        list: Option<String>,
        /// Its merge key, when it has one.
        merge_key: Option<String>,
    },
}

impl From<GoPanic> for SmpError {
    fn from(panic: GoPanic) -> Self {
        SmpError::GoPanic {
            panic,
            list: None,
            merge_key: None,
        }
    }
}

/// `panic: <Go's message>` as the crash's first line says it, and the list it happened in.
fn panic_line(panic: GoPanic, list: Option<&str>, merge_key: Option<&str>) -> String {
    match (list, merge_key) {
        (Some(l), Some(k)) => format!("panic: {panic} (list `{l}`, merge key `{k}`)"),
        (Some(l), None) => format!("panic: {panic} (list `{l}`)"),
        _ => format!("panic: {panic}"),
    }
}

impl SmpError {
    /// Is this a three-way conflict (`--overwrite=false`)?
    #[must_use]
    pub fn is_conflict(&self) -> bool {
        matches!(self, SmpError::Conflict { .. })
    }

    /// For a crash of the reference's Go code: `panic: <Go's message> (list …, merge key …)`.
    #[must_use]
    pub fn go_panic_line(&self) -> Option<String> {
        match self {
            SmpError::GoPanic {
                panic,
                list,
                merge_key,
            } => Some(panic_line(*panic, list.as_deref(), merge_key.as_deref())),
            _ => None,
        }
    }

    /// Name the list (and its merge key) a Go panic happened in, unless an inner list was
    /// already named.
    #[must_use]
    pub fn in_list(self, name: &str, key: &str) -> SmpError {
        match self {
            SmpError::GoPanic {
                panic,
                list: None,
                merge_key: None,
            } => SmpError::GoPanic {
                panic,
                list: Some(name.to_owned()),
                merge_key: (!key.is_empty()).then(|| key.to_owned()),
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gofmt::GoType;

    #[test]
    fn go_panic_is_told_with_go_message_and_its_list() {
        let e = SmpError::from(GoPanic::Uncomparable(GoType::Map));
        assert_eq!(
            e.go_panic_line().as_deref(),
            Some("panic: runtime error: comparing uncomparable type map[string]interface {}")
        );
        let e = e.in_list("volumes", "name").in_list("spec", "");
        assert_eq!(
            e.to_string(),
            "apimachinery's strategic merge code would crash: panic: runtime error: comparing \
             uncomparable type map[string]interface {} (list `volumes`, merge key `name`)"
        );
        let e = SmpError::from(GoPanic::Unhashable(GoType::Slice)).in_list("finalizers", "");
        assert_eq!(
            e.go_panic_line().as_deref(),
            Some(
                "panic: runtime error: hash of unhashable type []interface {} (list `finalizers`)"
            )
        );
        assert_eq!(SmpError::NoListOfLists.go_panic_line(), None);
        assert_eq!(
            SmpError::NoListOfLists.in_list("x", "y"),
            SmpError::NoListOfLists
        );
    }
}
