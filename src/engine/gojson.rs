//! JSON written byte for byte as Go's `encoding/json` writes the equivalent
//! `map[string]interface{}` value (int64 for integers, float64 for the rest).
//!
//! - [`to_string`]: `json.Marshal` (compact, object keys sorted by bytes as Go sorts map keys);
//! - [`to_string_pretty`]: `json.MarshalIndent(v, "", "  ")` (sorted keys);
//! - [`to_string_in_order`]: compact, keeping the Value's own key order (for display);
//! - [`write_float`]: a float64 as the encoder writes it (ES6 style: `1e-7`, `1e+21`);
//! - [`go_format_g`]: `strconv.FormatFloat(f, 'g', -1, 64)`, as `fmt`'s `%v` prints a float64.
//!
//! Strings are escaped as Go 1.22+ does (`\b` and `\f` get short escapes since Go 1.22; kubectl
//! and apimachinery build with Go >= 1.24). Equality: `crate::value::Value`'s `==` already keeps
//! integers and floats apart (`0 != 0.0`), which is what Go's `reflect.DeepEqual` does on decoded
//! values, so no separate helper is needed.

use std::fmt::Write as _;

use crate::value::{Number, Value};

use crate::engine::MAX_DEPTH;

/// Why a value cannot be written as Go would.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoJsonError {
    /// NaN or ±Inf (Go: `json: unsupported value: NaN`). A `crate::value::Value` cannot hold
    /// them, so only [`write_float`] can return this.
    #[error("json: unsupported value: {0}")]
    UnsupportedValue(String),
    /// The value nests deeper than [`MAX_DEPTH`].
    #[error("json: value nests deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// Longer than the limit [`to_string_within`] was given (it stops writing there).
    #[error("json: longer than {0} bytes")]
    TooLong(usize),
}

#[derive(Clone, Copy)]
struct Style {
    sorted: bool,
    indent: bool,
    /// Stop with [`GoJsonError::TooLong`] once the output is longer (checked after each
    /// item of a list or object: the output may run past it by one item when it stops).
    limit: usize,
}

impl Style {
    const fn new(sorted: bool, indent: bool) -> Style {
        Style {
            sorted,
            indent,
            limit: usize::MAX,
        }
    }
}

/// `json.Marshal`: compact, object keys sorted by byte order.
pub fn to_string(v: &Value) -> Result<String, GoJsonError> {
    write(v, Style::new(true, false))
}

/// [`to_string`], or [`GoJsonError::TooLong`] when it would be longer than `limit` bytes,
/// found without writing all of it (so that a caller who would throw a long text away does
/// not pay for it). A value that is both too long and too deep is [`GoJsonError::TooDeep`],
/// as [`to_string`] says.
pub fn to_string_within(v: &Value, limit: usize) -> Result<String, GoJsonError> {
    match to_string_upto(v, limit)? {
        (text, true) if text.len() <= limit => Ok(text),
        _ => Err(GoJsonError::TooLong(limit)),
    }
}

/// The start of [`to_string`]: written until it is longer than `limit` bytes (it may run past
/// it by the last item written), with whether it is the whole text. Errors as [`to_string`]
/// (a value too deep is one even where the writing stopped before the depth).
pub fn to_string_upto(v: &Value, limit: usize) -> Result<(String, bool), GoJsonError> {
    let style = Style {
        limit,
        ..Style::new(true, false)
    };
    let mut out = String::new();
    match write_value(v, &mut out, style, 0) {
        Ok(()) => Ok((out, true)),
        Err(GoJsonError::TooLong(_)) if too_deep(v, 0) => Err(GoJsonError::TooDeep),
        Err(GoJsonError::TooLong(_)) => Ok((out, false)),
        Err(e) => Err(e),
    }
}

/// [`to_string`] as a cell `width` characters wide shows it: whole when it fits, else its
/// first `width - 1` characters and `…`; written only that far (past `4 × width + 8` bytes the
/// text is too wide either way). Empty when the value cannot be written.
#[must_use]
pub fn to_string_cut(v: &Value, width: usize) -> String {
    let Ok((text, _)) = to_string_upto(v, width.saturating_mul(4).saturating_add(8)) else {
        return String::new();
    };
    if text.chars().count() > width {
        let head: String = text.chars().take(width.saturating_sub(1)).collect();
        format!("{head}…")
    } else {
        text
    }
}

/// Whether writing `v` at `depth` fails with [`GoJsonError::TooDeep`] (a walk that writes
/// nothing).
fn too_deep(v: &Value, depth: usize) -> bool {
    match v {
        Value::Array(_) | Value::Object(_) if depth >= MAX_DEPTH => true,
        Value::Array(items) => items.iter().any(|item| too_deep(item, depth + 1)),
        Value::Object(map) => map.values().any(|item| too_deep(item, depth + 1)),
        _ => false,
    }
}

/// `json.MarshalIndent(v, "", "  ")`: two-space indent, sorted keys, empty `{}`/`[]` compact.
pub fn to_string_pretty(v: &Value) -> Result<String, GoJsonError> {
    write(v, Style::new(true, true))
}

/// Compact like [`to_string`] but keeping the Value's own object key order.
pub fn to_string_in_order(v: &Value) -> Result<String, GoJsonError> {
    write(v, Style::new(false, false))
}

/// [`to_string_pretty`] of `v` appended to `out`, as if `v` sat `level` levels deep in an
/// indented document (its inner lines indented by `level + 1` steps). For writers that lay out
/// the outer levels themselves.
pub fn write_pretty_at(v: &Value, out: &mut String, level: usize) -> Result<(), GoJsonError> {
    write_value(v, out, Style::new(true, true), level)
}

/// [`to_string`] of `v` appended to `out`, as if `v` sat `level` levels deep (for the depth
/// limit). For writers that lay out the outer levels themselves.
pub fn write_compact_at(v: &Value, out: &mut String, level: usize) -> Result<(), GoJsonError> {
    write_value(v, out, Style::new(true, false), level)
}

fn write(v: &Value, style: Style) -> Result<String, GoJsonError> {
    let mut out = String::new();
    write_value(v, &mut out, style, 0)?;
    Ok(out)
}

fn newline(out: &mut String, style: Style, level: usize) {
    if style.indent {
        out.push('\n');
        for _ in 0..level {
            out.push_str("  ");
        }
    }
}

fn write_value(v: &Value, out: &mut String, style: Style, depth: usize) -> Result<(), GoJsonError> {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(n, out)?,
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            if depth >= MAX_DEPTH {
                return Err(GoJsonError::TooDeep);
            }
            if items.is_empty() {
                out.push_str("[]");
                return Ok(());
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, style, depth + 1);
                write_value(item, out, style, depth + 1)?;
                if out.len() > style.limit {
                    return Err(GoJsonError::TooLong(style.limit));
                }
            }
            newline(out, style, depth);
            out.push(']');
        }
        Value::Object(map) => {
            if depth >= MAX_DEPTH {
                return Err(GoJsonError::TooDeep);
            }
            if map.is_empty() {
                out.push_str("{}");
                return Ok(());
            }
            let mut entries: Vec<(&crate::value::Str, &Value)> = map.iter().collect();
            if style.sorted {
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            }
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, style, depth + 1);
                write_string(key, out);
                out.push_str(if style.indent { ": " } else { ":" });
                write_value(item, out, style, depth + 1)?;
                if out.len() > style.limit {
                    return Err(GoJsonError::TooLong(style.limit));
                }
            }
            newline(out, style, depth);
            out.push('}');
        }
    }
    Ok(())
}

/// A number: an int64 in decimal, anything else as the float64 Go would have decoded it to
/// (apimachinery reads an integer beyond int64, like `18446744073709551615`, as float64).
pub fn write_number(n: &Number, out: &mut String) -> Result<(), GoJsonError> {
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(f) = n.as_f64() {
        write_float(f, out)?;
    }
    Ok(())
}

/// A float64 as `encoding/json` writes it: `strconv.AppendFloat(f, 'f', -1, 64)` when
/// `1e-6 <= |f| < 1e21` (or f is zero), else the `'e'` format with `e-07` cleaned to `e-7`.
pub fn write_float(f: f64, out: &mut String) -> Result<(), GoJsonError> {
    if !f.is_finite() {
        return Err(GoJsonError::UnsupportedValue(go_format_g(f)));
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        // Rust's `{:e}` prints the same shortest digits; only the exponent differs: Go writes a
        // sign and at least two digits, then shortens `e-0X` to `e-X`.
        let s = format!("{f:e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((s.as_str(), "0"));
        out.push_str(mantissa);
        out.push('e');
        match exp.strip_prefix('-') {
            Some(digits) => {
                out.push('-');
                out.push_str(digits);
            }
            None => {
                out.push('+');
                if exp.len() < 2 {
                    out.push('0');
                }
                out.push_str(exp);
            }
        }
    } else {
        // Rust's Display for f64 is the shortest round-trip decimal, never exponential,
        // exactly like Go's 'f' format with precision -1 (including "-0").
        let _ = write!(out, "{f}");
    }
    Ok(())
}

/// `strconv.FormatFloat(f, 'g', -1, 64)` (also `fmt`'s `%v` for float64): shortest digits,
/// exponent form when the exponent is < -4 or >= 6, exponent with sign and >= 2 digits.
pub fn go_format_g(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    if f == 0.0 {
        return format!("{f}");
    }
    let s = format!("{f:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
    } else {
        format!("{f}")
    }
}

/// A string as Go escapes it (with HTML escaping, as `json.Marshal` does).
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    // Copy runs of bytes that need no escape at once; stop at the few that may. Every byte
    // stopped at is ASCII or the lead byte of U+2028/U+2029 (0xE2), so `start..i` always falls
    // on character boundaries.
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = skip_plain(bytes, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if !STOP[usize::from(b)] {
            i += 1;
            continue;
        }
        let short = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0xe2 if !(bytes.get(i + 1) == Some(&0x80)
                && matches!(bytes.get(i + 2), Some(0xa8 | 0xa9))) =>
            {
                i += 1;
                continue;
            }
            _ => "",
        };
        out.push_str(&s[start..i]);
        if short.is_empty() {
            let c = s[i..].chars().next().unwrap_or_default();
            let _ = write!(out, "\\u{:04x}", u32::from(c));
            i += c.len_utf8();
        } else {
            out.push_str(short);
            i += 1;
        }
        start = i;
        i = skip_plain(bytes, i);
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// The index of the first byte from `i` on that [`write_string`] may stop at ([`STOP`]), or
/// near it: eight bytes are looked at at once while none of them is one.
fn skip_plain(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Some byte of `v` is zero, or below `n` (exact for "some": the classic bit tricks).
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below = |v: u64, n: u8| v.wrapping_sub(u64::from(n) * ONES) & !v & HIGH;
    let has = |v: u64, c: u8| zero(v ^ (u64::from(c) * ONES));
    while let Some(chunk) = b.get(i..i + 8) {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let v = u64::from_le_bytes(bytes);
        let stop = below(v, 0x20)
            | has(v, b'"')
            | has(v, b'\\')
            | has(v, b'<')
            | has(v, b'>')
            | has(v, b'&')
            | has(v, 0xe2);
        if stop != 0 {
            break;
        }
        i += 8;
    }
    i
}

/// The bytes [`write_string`] stops at: controls, `"`, `\\`, `<`, `>`, `&`, and 0xE2 (which
/// starts U+2028 and U+2029).
const STOP: [bool; 256] = string_stops(b"<>&\xe2");

/// A table of the bytes a scan of a JSON string's contents stops at: the controls, `"` and
/// `\\` (where a string read in place ends or needs unescaping), and `extra`. One lookup a
/// byte, where the tests of each would be several.
pub(crate) const fn string_stops(extra: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    let mut i = 0;
    while i < extra.len() {
        t[extra[i] as usize] = true;
        i += 1;
    }
    t
}

#[cfg(test)]
mod tests;
