//! YAML text for error messages, in the style of `sigs.k8s.io/yaml.Marshal` (go-yaml v2
//! block style): `mergepatch.ToYAMLOrError`, used by the conflict error.
//!
//! An approximation, good enough for a message: keys are sorted by bytes (go-yaml sorts
//! numerically-aware), strings are plain when safe, double-quoted when they would read as
//! another type (`"true"`, `"1"`, `""`), single-quoted when they hold YAML indicators, and
//! multi-line strings are double-quoted (go-yaml would use a `|-` block).

use serde_json::Value;

use crate::engine::MAX_DEPTH;
use crate::engine::gojson::{go_format_g, write_string};

/// The value as go-yaml would print it, ending in a newline.
pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(map) if !map.is_empty() => block(v, &mut out, 0, 0),
        Value::Array(items) if !items.is_empty() => block(v, &mut out, 0, 0),
        _ => {
            out.push_str(&scalar(v));
            out.push('\n');
        }
    }
    out
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Object(map) => !map.is_empty(),
        Value::Array(items) => !items.is_empty(),
        _ => false,
    }
}

/// A non-empty object or list, each line starting at `indent` spaces.
fn block(v: &Value, out: &mut String, indent: usize, depth: usize) {
    let pad = " ".repeat(indent);
    if depth >= MAX_DEPTH {
        out.push_str(&pad);
        out.push_str("...\n");
        return;
    }
    match v {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            for (key, item) in entries {
                out.push_str(&pad);
                out.push_str(&string(key));
                out.push(':');
                match item {
                    // go-yaml v2 does not indent a list under its key.
                    Value::Array(_) if is_block(item) => {
                        out.push('\n');
                        block(item, out, indent, depth + 1);
                    }
                    Value::Object(_) if is_block(item) => {
                        out.push('\n');
                        block(item, out, indent + 2, depth + 1);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&scalar(item));
                        out.push('\n');
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                out.push_str(&pad);
                out.push_str("- ");
                if is_block(item) {
                    // The first line goes after "- ", the rest indented by two more.
                    let mut inner = String::new();
                    block(item, &mut inner, indent + 2, depth + 1);
                    out.push_str(inner.get(indent + 2..).unwrap_or(&inner));
                } else {
                    out.push_str(&scalar(item));
                    out.push('\n');
                }
            }
        }
        _ => {}
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => go_format_g(f),
            (None, None) => String::new(),
        },
        Value::String(s) => string(s),
        Value::Array(_) => "[]".to_owned(),
        Value::Object(_) => "{}".to_owned(),
    }
}

/// Would a plain scalar with this text resolve to something other than a string in YAML 1.1?
fn resolves_to_non_string(s: &str) -> bool {
    const WORDS: [&str; 22] = [
        "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "y",
        "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on",
    ];
    const MORE: [&str; 11] = [
        "On", "ON", "off", "Off", "OFF", ".inf", ".Inf", "-.inf", ".nan", ".NaN", "<<",
    ];
    if WORDS.contains(&s) || MORE.contains(&s) {
        return true;
    }
    let body = s.strip_prefix(['-', '+']).unwrap_or(s).replace('_', "");
    let hex_or_bin = |prefix: &str, radix: u32| {
        body.strip_prefix(prefix)
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_digit(radix)))
    };
    body.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && (body.parse::<f64>().is_ok() || hex_or_bin("0x", 16) || hex_or_bin("0b", 2))
}

fn string(s: &str) -> String {
    if resolves_to_non_string(s) || s.contains('\n') || s.chars().any(char::is_control) {
        let mut out = String::new();
        write_string(s, &mut out);
        return out;
    }
    let first = s.chars().next().unwrap_or(' ');
    let unsafe_plain = "-?:,[]{}#&*!|>'\"%@`".contains(first)
        || s.starts_with(' ')
        || s.ends_with(' ')
        || s.ends_with(':')
        || s.contains(": ")
        || s.contains(" #");
    if unsafe_plain {
        format!("'{}'", s.replace('\'', "''"))
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn block_style_sorted_keys_lists_unindented() {
        let v = json!({"b": [1, {"x": "v", "w": null}], "a": {"c": true, "d": []}, "e": "1"});
        let want = "a:\n  c: true\n  d: []\nb:\n- 1\n- w: null\n  x: v\ne: \"1\"\n";
        assert_eq!(to_yaml(&v), want);
    }

    #[test]
    fn strings_quoted_only_when_needed() {
        assert_eq!(string("plain text"), "plain text");
        assert_eq!(string("true"), "\"true\"");
        assert_eq!(string(""), "\"\"");
        assert_eq!(string("1.5"), "\"1.5\"");
        assert_eq!(string("a: b"), "'a: b'");
        assert_eq!(string("- x"), "'- x'");
        assert_eq!(string("v1.2.3"), "v1.2.3");
        assert_eq!(string("y"), "\"y\"");
        assert_eq!(to_yaml(&json!({})), "{}\n");
    }
}
