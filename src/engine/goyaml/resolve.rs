//! How go-yaml reads a scalar back: a number's text after Go's JSON round trip, and whether a
//! string may be written plain (it would still read back as a string).

use crate::engine::gojson::{go_format_g, write_number};

/// A number as go-yaml reads Go's JSON text back and marshals it again: an integer that fits
/// int64 or uint64 in decimal, anything else through float64 in `%g` form.
pub(super) fn number(n: &crate::value::Number) -> String {
    let mut text = String::new();
    if write_number(n, &mut text).is_err() {
        return n.to_string();
    }
    if let Ok(i) = text.parse::<i64>() {
        return i.to_string();
    }
    if let Ok(u) = text.parse::<u64>() {
        return u.to_string();
    }
    match text.parse::<f64>() {
        Ok(f) => go_format_g(f),
        Err(_) => text,
    }
}

/// go-yaml's `stringv`: a string may be written plain when it would read back as a string
/// (`resolve` gives `!!str`) and is not a base-60 number.
pub(super) fn can_use_plain(s: &str) -> bool {
    !crate::document::resolves_to_non_string(s) && !is_base60_float(s)
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
pub(super) fn is_base60_float(s: &str) -> bool {
    if !s.contains(':') {
        return false;
    }
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (main, frac) = match s.split_once('.') {
        Some((m, f)) => (m, Some(f)),
        None => (s, None),
    };
    if frac.is_some_and(|f| !f.bytes().all(|b| b.is_ascii_digit() || b == b'_')) {
        return false;
    }
    let mut parts = main.split(':');
    let head = parts.next().unwrap_or("");
    let head_ok = head.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && head.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    let mut sexagesimal = 0;
    for part in parts {
        let ok = match part.as_bytes() {
            [d] => d.is_ascii_digit(),
            [t, d] => (b'0'..=b'5').contains(t) && d.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return false;
        }
        sexagesimal += 1;
    }
    head_ok && sexagesimal > 0
}
