//! What happens to a field of the live object: the action every field of a plan is given.

use serde::Serialize;

/// What happens to a field of the live object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Absent from live, set from the file.
    Add,
    /// Present in live, changed to the file's value.
    Set,
    /// Removed from live (in last-applied, gone from the file; or an explicit null).
    Clear,
    /// Live-only, kept (not in the file, not in last-applied).
    Retain,
    /// Same before and after, and in the file.
    Unchanged,
    /// A list element removed from live.
    Delete,
    /// A live-only list element, kept.
    Keep,
}

impl Action {
    /// Every action, for legends.
    pub const ALL: [Action; 7] = [
        Action::Add,
        Action::Set,
        Action::Clear,
        Action::Retain,
        Action::Unchanged,
        Action::Delete,
        Action::Keep,
    ];

    /// Does the apply change the live object here (add, set, clear, delete)?
    #[must_use]
    pub fn is_change(self) -> bool {
        matches!(
            self,
            Action::Add | Action::Set | Action::Clear | Action::Delete
        )
    }

    /// The action's name in the JSON output.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Action::Add => "add",
            Action::Set => "set",
            Action::Clear => "clear",
            Action::Retain => "retain",
            Action::Unchanged => "unchanged",
            Action::Delete => "delete",
            Action::Keep => "keep",
        }
    }
}
