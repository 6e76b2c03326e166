//! The "why" of a field: the seeds' merge tables (kubectl's "how apply calculates differences"),
//! the row that decided the field's action, and the patch fragment at the field.
//!
//! The row texts are the ones `engine::plan` records in [`Reason::row`], so the deciding row is
//! found by its text.

use crate::value::Value;

use crate::engine::jsonmerge::to_yaml;
use crate::engine::plan::{Field, LAST_APPLIED, Plan, Reason};

/// One row of a merge table: is the field in the file, in live, in last-applied → action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub in_file: &'static str,
    pub in_live: &'static str,
    pub in_last_applied: &'static str,
    pub action: &'static str,
}

const fn row(
    in_file: &'static str,
    in_live: &'static str,
    in_last_applied: &'static str,
    action: &'static str,
) -> Row {
    Row {
        in_file,
        in_live,
        in_last_applied,
        action,
    }
}

/// "Merging changes to primitive fields".
pub const PRIMITIVE: [Row; 4] = [
    row("Yes", "Yes", "-", "Set live to configuration file value."),
    row("Yes", "No", "-", "Set live to local configuration."),
    row("No", "-", "Yes", "Clear from live configuration."),
    row("No", "-", "No", "Do nothing. Keep live value."),
];

/// "Merging changes to map fields".
pub const MAP: [Row; 4] = [
    row("Yes", "Yes", "-", "Compare sub fields values."),
    row("Yes", "No", "-", "Set live to local configuration."),
    row("No", "-", "Yes", "Delete from live configuration."),
    row("No", "-", "No", "Do nothing. Keep live value."),
];

/// "Merge individual elements in a list of complex elements" (by merge key), element by element.
pub const LIST_ELEMENT: [Row; 4] = [
    row(
        "Yes",
        "Yes",
        "-",
        "Merge the element with the live element of the same key.",
    ),
    row("Yes", "No", "-", "Add the element."),
    row(
        "No",
        "-",
        "Yes",
        "Delete the element: in last-applied, gone from the file.",
    ),
    row(
        "No",
        "-",
        "No",
        "Keep the element: not in last-applied, someone else added it.",
    ),
];

/// The table a field's reason uses, with its title.
#[must_use]
pub fn table(reason: &Reason) -> (&'static str, &'static [Row]) {
    // `Reason::table` is serialised as "primitive", "map" or "listElement".
    match crate::value::to_value(reason.table)
        .ok()
        .as_ref()
        .and_then(Value::as_str)
    {
        Some("map") => ("map fields", &MAP),
        Some("listElement") => ("list elements", &LIST_ELEMENT),
        _ => ("primitive fields (and lists as a whole)", &PRIMITIVE),
    }
}

/// The index of the row that decided the action, if the reason names one of the table's rows.
#[must_use]
pub fn deciding_row(reason: &Reason) -> Option<usize> {
    table(reason).1.iter().position(|r| r.action == reason.row)
}

/// The patch at the field, as YAML lines (at most `max`), or a sentence saying why there is
/// none. With `mask`, a Secret's values are shown as `***`.
///
/// # Errors
/// The sentence, when the patch does not hold the field.
pub fn patch_fragment(
    plan: &Plan,
    field: &Field<'_, '_>,
    mask: bool,
    max: usize,
) -> Result<Vec<String>, &'static str> {
    let Some(patch) = &plan.patch else {
        return Err(if plan.created().is_some() {
            "no patch: the object is created (POST)"
        } else {
            "no patch: kubectl sends nothing"
        });
    };
    let path = plan.tree.field_path(field.id);
    let Some(v) = path.lookup(patch) else {
        return Err("not in the patch: the patch leaves this field alone");
    };
    let mut v = bounded(v, max);
    let text = path.to_string();
    if mask {
        if text.starts_with("data") || text.starts_with("stringData") {
            match &mut v {
                Value::Object(m) => m
                    .values_mut()
                    .for_each(|x| *x = Value::String("***".into())),
                other => *other = Value::String("***".into()),
            }
        } else if text.contains(LAST_APPLIED)
            && let Value::String(s) = &mut v
        {
            *s = super::patch::mask_annotation(s).into();
        } else {
            super::patch::mask_object(&mut v);
        }
    }
    let cut = cut_strings(&mut v, max * STRING_BYTES_PER_LINE);
    let mut lines: Vec<String> = to_yaml(&v).lines().map(super::yaml::escape).collect();
    if lines.len() > max || cut {
        lines.truncate(max);
        lines.push("…".into());
    }
    Ok(lines)
}

/// Bytes of a string kept per line shown: a fragment shows at most `max` lines, so a longer
/// string (a megabyte annotation) cannot be seen whole there, and writing it as YAML on every
/// frame would cost milliseconds.
const STRING_BYTES_PER_LINE: usize = 256;

/// Cut every string in `v` to at most `limit` bytes (at a character boundary); whether one was.
fn cut_strings(v: &mut Value, limit: usize) -> bool {
    match v {
        Value::String(s) if s.len() > limit => {
            let mut end = limit;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            s.truncate(end);
            true
        }
        Value::Object(m) => m
            .values_mut()
            .fold(false, |cut, x| cut_strings(x, limit) | cut),
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |cut, x| cut_strings(x, limit) | cut),
        _ => false,
    }
}

/// A copy of `v` with at most `max` entries per map or list (huge objects stay fast).
fn bounded(v: &Value, max: usize) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .take(max)
                .map(|(k, x)| (k.clone(), bounded(x, max)))
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.iter().take(max).map(|x| bounded(x, max)).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn long_strings_are_cut_at_a_character_boundary() {
        let mut v = json!({"a": "é".repeat(10), "b": ["short", "x".repeat(30)], "c": 1});
        assert!(cut_strings(&mut v, 15));
        assert_eq!(v["a"], json!("é".repeat(7)));
        assert_eq!(v["b"], json!(["short", "x".repeat(15)]));
        assert!(!cut_strings(&mut v, 15));
    }
}
