//! kubectl's merge tables as data (the seeds: "how apply calculates differences and merges
//! changes"), and a field's [`Reason`]: which table, which row of it, the field's kind.
//!
//! A row says whether the field is in the configuration file, in live, in last-applied, and what
//! apply does then; a field's row is the first that matches it. The action texts are those of
//! kubectl's documentation, and `plan -o json` writes them as the reason's `row`.
//!
//! | table | fields | rows (JSON `table`) |
//! | --- | --- | --- |
//! | [`Table::Primitive`] | strings, numbers, booleans | [`PRIMITIVE`] (`primitive`) |
//! | [`Table::Map`] | maps (`patchStrategy` default or replace) | [`MAP`] (`map`) |
//! | [`Table::RetainKeys`] | maps with `patchStrategy: retainKeys` | [`MAP`] (`map`) |
//! | [`Table::ReplacedList`] | lists replaced whole (no merge strategy, custom resources) | [`PRIMITIVE`] (`list`) |
//! | [`Table::MergedList`] | lists merged by key or as a set of primitives | [`MAP`] (`list`) |
//! | [`Table::ListElement`] | an element of a merged list | [`LIST_ELEMENT`] (`listElement`) |
//! | [`Table::ReplacedElement`] | an item of a list replaced whole | [`REPLACED_ELEMENT`] (`listElement`) |

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::ser::{Serialize, SerializeStruct, Serializer};

/// One condition of a row: the field is there, is not, or it does not matter (`-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    Yes,
    No,
    Any,
}

impl Cond {
    /// Whether a field that is (or is not) there meets the condition.
    #[must_use]
    pub fn holds(self, present: bool) -> bool {
        match self {
            Cond::Yes => present,
            Cond::No => !present,
            Cond::Any => true,
        }
    }

    /// As the documentation's tables write it.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Cond::Yes => "Yes",
            Cond::No => "No",
            Cond::Any => "-",
        }
    }
}

/// One row of a merge table: in the file? in live? in last-applied? → what apply does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub in_config: Cond,
    pub in_live: Cond,
    pub in_last_applied: Cond,
    /// The row's action, as kubectl's documentation words it.
    pub action: &'static str,
}

const fn row(in_config: Cond, in_live: Cond, in_last_applied: Cond, action: &'static str) -> Row {
    Row {
        in_config,
        in_live,
        in_last_applied,
        action,
    }
}

use Cond::{Any, No, Yes};

/// "Merging changes to primitive fields" (a list replaced whole is treated as one).
pub const PRIMITIVE: [Row; 4] = [
    row(Yes, Yes, Any, "Set live to configuration file value."),
    row(Yes, No, Any, "Set live to local configuration."),
    row(No, Any, Yes, "Clear from live configuration."),
    row(No, Any, No, "Do nothing. Keep live value."),
];

/// "Merging changes to map fields" (a merged list is treated as one).
pub const MAP: [Row; 4] = [
    row(Yes, Yes, Any, "Compare sub fields values."),
    row(Yes, No, Any, "Set live to local configuration."),
    row(No, Any, Yes, "Delete from live configuration."),
    row(No, Any, No, "Do nothing. Keep live value."),
];

/// "Merge individual elements in a list of complex elements" (by merge key; a primitive
/// element is its own key), element by element.
pub const LIST_ELEMENT: [Row; 4] = [
    row(
        Yes,
        Yes,
        Any,
        "Merge the element with the live element of the same key.",
    ),
    row(Yes, No, Any, "Add the element."),
    row(
        No,
        Any,
        Yes,
        "Delete the element: in last-applied, gone from the file.",
    ),
    row(
        No,
        Any,
        No,
        "Keep the element: not in last-applied, someone else added it.",
    ),
];

/// "Replace the list": its items are not merged one by one.
pub const REPLACED_ELEMENT: [Row; 1] = [row(
    Any,
    Any,
    Any,
    "The list is replaced whole: the result holds the file's items, in the file's order.",
)];

/// Which merge table a field falls under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Table {
    Primitive,
    Map,
    /// A map with the retainKeys strategy: the patch lists the keys the file sets, and the
    /// server clears the others.
    RetainKeys,
    /// A list replaced whole, like a primitive.
    ReplacedList,
    /// A list merged element by element (by merge key, or a set of primitives), like a map.
    MergedList,
    /// An element of a merged list.
    ListElement,
    /// An item of a list replaced whole.
    ReplacedElement,
}

impl Table {
    /// Every table.
    pub const ALL: [Table; 7] = [
        Table::Primitive,
        Table::Map,
        Table::RetainKeys,
        Table::ReplacedList,
        Table::MergedList,
        Table::ListElement,
        Table::ReplacedElement,
    ];

    /// The table's rows.
    #[must_use]
    pub fn rows(self) -> &'static [Row] {
        match self {
            Table::Primitive | Table::ReplacedList => &PRIMITIVE,
            Table::Map | Table::RetainKeys | Table::MergedList => &MAP,
            Table::ListElement => &LIST_ELEMENT,
            Table::ReplacedElement => &REPLACED_ELEMENT,
        }
    }

    /// The table's name in the JSON output.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Table::Primitive => "primitive",
            Table::Map | Table::RetainKeys => "map",
            Table::ReplacedList | Table::MergedList => "list",
            Table::ListElement | Table::ReplacedElement => "listElement",
        }
    }

    /// What the table is for, as the why panel titles it.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Table::Primitive => "primitive fields (and lists as a whole)",
            Table::Map => "map fields",
            Table::RetainKeys => "map fields (retainKeys: keys the file leaves out are cleared)",
            Table::ReplacedList => "lists replaced whole (like primitives)",
            Table::MergedList => "lists merged element by element (like maps)",
            Table::ListElement => "list elements",
            Table::ReplacedElement => "items of a list replaced whole",
        }
    }

    /// The index of the first row a field meets.
    #[must_use]
    pub fn row_of(self, at: Presence) -> usize {
        self.rows()
            .iter()
            .position(|r| {
                r.in_config.holds(at.in_config)
                    && r.in_live.holds(at.in_live)
                    && r.in_last_applied.holds(at.in_last_applied)
            })
            // Every table's last row holds for a field its other rows leave out.
            .unwrap_or(self.rows().len() - 1)
    }
}

/// Where a field is: in the file, in live, in last-applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Presence {
    pub in_config: bool,
    pub in_live: bool,
    pub in_last_applied: bool,
}

/// How a field merges.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldKind {
    Primitive,
    Map,
    /// A map with the retainKeys strategy.
    RetainKeysMap,
    /// A map with the replace strategy.
    ReplaceMap,
    /// A list merged by this merge key (the list and its elements).
    KeyedList(Arc<str>),
    /// A list of primitives merged as a set (the list and its elements).
    PrimitiveList,
    /// A list replaced whole (strategic merge patch).
    ReplacedList,
    /// A list replaced whole by a JSON merge patch (a custom resource).
    MergePatchList,
}

impl FieldKind {
    /// The kind as the plan writes it: `primitive`, `map (retainKeys)`, `list: merge by key
    /// name`, ...
    #[must_use]
    pub fn text(&self) -> Cow<'static, str> {
        match self {
            FieldKind::Primitive => "primitive".into(),
            FieldKind::Map => "map".into(),
            FieldKind::RetainKeysMap => "map (retainKeys)".into(),
            FieldKind::ReplaceMap => "map (replace)".into(),
            FieldKind::KeyedList(k) => format!("list: merge by key {k}").into(),
            FieldKind::PrimitiveList => "list: merge primitives".into(),
            FieldKind::ReplacedList => "list: replace".into(),
            FieldKind::MergePatchList => {
                "list: replace (JSON merge patch: custom resources replace lists whole)".into()
            }
        }
    }

    /// Whether the list is replaced whole.
    #[must_use]
    pub fn is_replaced_list(&self) -> bool {
        matches!(self, FieldKind::ReplacedList | FieldKind::MergePatchList)
    }

    /// The merge key of a keyed list (and of its elements).
    #[must_use]
    pub fn merge_key(&self) -> Option<&str> {
        match self {
            FieldKind::KeyedList(k) => Some(k),
            _ => None,
        }
    }
}

impl fmt::Display for FieldKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldKind::KeyedList(k) => write!(f, "list: merge by key {k}"),
            other => f.write_str(&other.text()),
        }
    }
}

/// Why a field gets its action: the row of its table it meets, its kind, the patch directive
/// involved, and a note where the result differs from what the row alone predicts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reason {
    table: Table,
    row: u8,
    presence: Presence,
    pub kind: FieldKind,
    pub directive: Option<String>,
    pub note: Option<String>,
}

impl Reason {
    /// The reason of a field of `kind` found `at` these places, under `table` (its row is the
    /// first the field meets).
    #[must_use]
    pub fn new(table: Table, at: Presence, kind: FieldKind) -> Reason {
        Reason {
            table,
            // A table has at most four rows (and always a first one).
            row: u8::try_from(table.row_of(at)).unwrap_or(0),
            presence: at,
            kind,
            directive: None,
            note: None,
        }
    }

    #[must_use]
    pub fn table(&self) -> Table {
        self.table
    }

    /// The index of the deciding row in [`Reason::table`]'s rows.
    #[must_use]
    pub fn row_index(&self) -> usize {
        usize::from(self.row)
    }

    /// The deciding row.
    #[must_use]
    pub fn row(&self) -> &'static Row {
        &self.table.rows()[self.row_index()]
    }

    #[must_use]
    pub fn presence(&self) -> Presence {
        self.presence
    }

    /// The merge key, for a keyed list and its elements.
    #[must_use]
    pub fn merge_key(&self) -> Option<&str> {
        self.kind.merge_key()
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Reason", 9)?;
        st.serialize_field("table", self.table.name())?;
        st.serialize_field("inConfig", &self.presence.in_config)?;
        st.serialize_field("inLive", &self.presence.in_live)?;
        st.serialize_field("inLastApplied", &self.presence.in_last_applied)?;
        st.serialize_field("row", self.row().action)?;
        st.serialize_field("kind", &self.kind.text())?;
        if let Some(k) = self.merge_key() {
            st.serialize_field("mergeKey", k)?;
        }
        if let Some(d) = &self.directive {
            st.serialize_field("directive", d)?;
        }
        if let Some(n) = &self.note {
            st.serialize_field("note", n)?;
        }
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table's rows cover every field, and its last row is the catch-all.
    #[test]
    fn every_field_meets_a_row() {
        for table in Table::ALL {
            for bits in 0..8u8 {
                let at = Presence {
                    in_config: bits & 1 != 0,
                    in_live: bits & 2 != 0,
                    in_last_applied: bits & 4 != 0,
                };
                let r = &table.rows()[table.row_of(at)];
                assert!(
                    r.in_config.holds(at.in_config)
                        && r.in_live.holds(at.in_live)
                        && r.in_last_applied.holds(at.in_last_applied),
                    "{table:?} {at:?}"
                );
            }
        }
    }
}
