//! The "why" of a field: the patch fragment at the field. (The merge tables and the deciding
//! row are the engine's: [`Reason::table`](crate::engine::plan::Reason::table) and
//! [`Reason::row_index`](crate::engine::plan::Reason::row_index).)

use crate::value::Value;

use crate::engine::jsonmerge::to_yaml;
use crate::engine::plan::{Field, Plan, Seg};
use crate::engine::secret;

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
    if mask {
        let keys: Vec<&str> = path
            .0
            .iter()
            .map(|s| match s {
                Seg::Key(k) => k,
                _ => "",
            })
            .collect();
        secret::mask_at(&mut v, &keys);
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
