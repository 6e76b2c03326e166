//! go-yaml v2's scalar resolution (YAML 1.1), then sigs.k8s.io/yaml's conversion to JSON.
//!
//! A scalar is a string unless it is plain (unquoted, not a block) or carries a tag. Plain
//! scalars go through go-yaml v2's `resolve`: a table of words (`yes`, `off`, `~`, `.inf`, …),
//! then, for text starting with a digit, a sign or a dot, Go's integer and float parsers. Tags
//! (`!!str`, `!!int`, …) force or check the type exactly as go-yaml does, errors included.
//! [`to_json`] and [`to_key`] then do what sigs.k8s.io/yaml and kubectl do to the Go value.

use std::borrow::Cow;

use crate::value::{Str, Value};
use saphyr_parser::ScalarStyle;

use super::goenc;
use super::gofloat;
use super::gonum;

const STR: &str = "tag:yaml.org,2002:str";
const BOOL: &str = "tag:yaml.org,2002:bool";
const INT: &str = "tag:yaml.org,2002:int";
const FLOAT: &str = "tag:yaml.org,2002:float";
const NULL: &str = "tag:yaml.org,2002:null";
const TIMESTAMP: &str = "tag:yaml.org,2002:timestamp";
const BINARY: &str = "tag:yaml.org,2002:binary";
/// The tag go-yaml gives a plain `<<`; it also accepts it written out as `!!merge`.
pub(super) const MERGE: &str = "tag:yaml.org,2002:merge";

/// A scalar as go-yaml v2 hands it to sigs.k8s.io/yaml: the Go value inside an `interface{}`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum GoScalar<'a> {
    Null,
    Bool(bool),
    /// Go `int` (64-bit).
    Int(i64),
    /// Go `uint64`: only for integers above `i64::MAX`.
    Uint(u64),
    Float(f64),
    Str(Cow<'a, str>),
}

/// What go-yaml's `resolve` found, with the tag it found it under.
struct Resolved<'a> {
    tag: &'static str,
    value: GoScalar<'a>,
}

/// Shortens `tag:yaml.org,2002:int` to `!!int`, as go-yaml's messages do.
fn short_tag(tag: &str) -> Cow<'_, str> {
    match tag.strip_prefix("tag:yaml.org,2002:") {
        Some(rest) => Cow::Owned(format!("!!{rest}")),
        None => Cow::Borrowed(tag),
    }
}

/// Resolves one scalar node's text, style and tag to the Go value go-yaml v2 decodes it to.
///
/// `tag` is the full tag (`tag:yaml.org,2002:int`, `!foo`, `!`), `None` when there is none.
/// Errors are go-yaml's messages, such as ``cannot decode !!str `abc` as a !!int``.
pub(super) fn scalar<'a>(
    value: Cow<'a, str>,
    style: ScalarStyle,
    tag: Option<&str>,
) -> Result<GoScalar<'a>, String> {
    let tag = match tag {
        // Quoted and block scalars without a tag are strings, whatever they say.
        None if style != ScalarStyle::Plain => return Ok(GoScalar::Str(value)),
        None => "",
        Some(t) => t,
    };
    let resolved = resolve(tag, &value)?;
    Ok(match resolved.tag {
        BINARY => GoScalar::Str(Cow::Owned(goenc::base64_to_string(&value)?)),
        // A timestamp decoded into interface{} stays the original text (go-yaml v2 keeps it so).
        TIMESTAMP | STR => GoScalar::Str(value),
        _ => resolved.value.into_owned_str(),
    })
}

impl GoScalar<'_> {
    /// Detaches the value from the input (only strings borrow it).
    fn into_owned_str<'b>(self) -> GoScalar<'b> {
        match self {
            GoScalar::Null => GoScalar::Null,
            GoScalar::Bool(b) => GoScalar::Bool(b),
            GoScalar::Int(i) => GoScalar::Int(i),
            GoScalar::Uint(u) => GoScalar::Uint(u),
            GoScalar::Float(f) => GoScalar::Float(f),
            GoScalar::Str(s) => GoScalar::Str(Cow::Owned(s.into_owned())),
        }
    }
}

fn resolvable(tag: &str) -> bool {
    matches!(tag, "" | STR | BOOL | INT | FLOAT | NULL | TIMESTAMP)
}

/// The words go-yaml v2 resolves by table (`resolveMap`).
fn table(s: &str) -> Option<Resolved<'static>> {
    let (tag, value) = match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            (BOOL, GoScalar::Bool(true))
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            (BOOL, GoScalar::Bool(false))
        }
        "" | "~" | "null" | "Null" | "NULL" => (NULL, GoScalar::Null),
        ".nan" | ".NaN" | ".NAN" => (FLOAT, GoScalar::Float(f64::NAN)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            (FLOAT, GoScalar::Float(f64::INFINITY))
        }
        "-.inf" | "-.Inf" | "-.INF" => (FLOAT, GoScalar::Float(f64::NEG_INFINITY)),
        "<<" => (MERGE, GoScalar::Str(Cow::Borrowed("<<"))),
        _ => return None,
    };
    Some(Resolved { tag, value })
}

/// Whether a plain scalar with this text reads as something other than a string (YAML 1.1 as
/// go-yaml v2 resolves it: `yes`, `off`, `~`, ``, `.inf`, `<<`, `0x1F`, `1_000`, `1e3`,
/// `2024-01-01` are not strings). The YAML writers quote such strings.
#[must_use]
pub fn resolves_to_non_string(text: &str) -> bool {
    resolve_untagged("", text).is_some()
}

/// go-yaml v2's `resolve(tag, in)`, including its final check that the result fits the tag.
fn resolve<'a>(tag: &str, text: &'a str) -> Result<Resolved<'a>, String> {
    if !resolvable(tag) {
        // Unknown tags (`!foo`, `!`, `!!binary`, …): the text, as a string.
        let tag = if tag == BINARY { BINARY } else { STR };
        return Ok(Resolved {
            tag,
            value: GoScalar::Str(Cow::Borrowed(text)),
        });
    }
    let found = if tag == STR {
        None
    } else {
        resolve_untagged(tag, text)
    };
    let found = found.unwrap_or(Resolved {
        tag: STR,
        value: GoScalar::Str(Cow::Borrowed(text)),
    });
    if tag.is_empty() || tag == found.tag || tag == STR {
        return Ok(found);
    }
    if tag == FLOAT
        && found.tag == INT
        && let GoScalar::Int(i) = found.value
    {
        return Ok(Resolved {
            tag: FLOAT,
            value: GoScalar::Float(i as f64),
        });
    }
    Err(format!(
        "cannot decode {} `{}` as a {}",
        short_tag(found.tag),
        text,
        short_tag(tag)
    ))
}

/// The body of `resolve` once the tag is known to be resolvable and not `!!str`.
fn resolve_untagged<'a>(tag: &str, text: &'a str) -> Option<Resolved<'a>> {
    let hint = match text.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => return None,
    };
    if let Some(found) = table(text) {
        return Some(found);
    }
    match hint {
        b'.' => gonum::parse_float(text).ok().map(|f| Resolved {
            tag: FLOAT,
            value: GoScalar::Float(f),
        }),
        b'D' | b'S' => {
            if (tag.is_empty() || tag == TIMESTAMP) && goenc::is_timestamp(text) {
                return Some(Resolved {
                    tag: TIMESTAMP,
                    value: GoScalar::Str(text.into()),
                });
            }
            resolve_number(text)
        }
        _ => None,
    }
}

/// Integers (any base, underscores dropped), then floats, then go-yaml's `0b` fallbacks.
fn resolve_number(text: &str) -> Option<Resolved<'static>> {
    let plain = text.replace('_', "");
    let int = |i: i64| {
        Some(Resolved {
            tag: INT,
            value: GoScalar::Int(i),
        })
    };
    let uint = |u: u64| {
        Some(Resolved {
            tag: INT,
            value: GoScalar::Uint(u),
        })
    };
    if let Ok(i) = gonum::parse_int(&plain, 0) {
        return int(i);
    }
    if let Ok(u) = gonum::parse_uint(&plain, 0) {
        return uint(u);
    }
    if gonum::yaml_style_float(&plain)
        && let Ok(f) = gonum::parse_float(&plain)
    {
        return Some(Resolved {
            tag: FLOAT,
            value: GoScalar::Float(f),
        });
    }
    if let Some(rest) = plain.strip_prefix("0b") {
        if let Ok(i) = gonum::parse_int(rest, 2) {
            return int(i);
        }
        if let Ok(u) = gonum::parse_uint(rest, 2) {
            return uint(u);
        }
    } else if let Some(rest) = plain.strip_prefix("-0b")
        && let Ok(i) = gonum::parse_int(&format!("-{rest}"), 2)
    {
        return int(i);
    }
    None
}

/// The JSON value kubectl holds for a scalar: Go value → `json.Marshal` → int64-or-float64.
///
/// Infinities and NaN have no JSON form: the error is Go's (`json: unsupported value: +Inf`).
pub(super) fn to_json(v: GoScalar<'_>) -> Result<Value, String> {
    Ok(match v {
        GoScalar::Null => Value::Null,
        GoScalar::Bool(b) => Value::Bool(b),
        GoScalar::Int(i) => Value::from(i),
        GoScalar::Uint(u) => gofloat::uint_to_json(u),
        GoScalar::Float(f) => match gofloat::float_to_json(f) {
            Some(n) => Value::Number(n),
            None => {
                return Err(format!(
                    "json: unsupported value: {}",
                    gofloat::go_nonfinite_name(f)
                ));
            }
        },
        GoScalar::Str(s) => Value::String(exact(s)),
    })
}

/// A scalar's text as a document string: inline up to 24 bytes, else a copy without spare
/// room (the YAML scanner gives every plain scalar room for 32 bytes, and a large document
/// keeps a million of them).
fn exact(s: Cow<'_, str>) -> Str {
    match s {
        Cow::Owned(o) if o.len() > 24 && o.capacity() - o.len() < 16 => Str::from(o),
        other => Str::from(other.as_ref()),
    }
}

/// The string sigs.k8s.io/yaml makes of a map key (`y` → `"true"`, `0x10` → `"16"`,
/// `1.5` → `"1.5"` through float32). Null and uint64 keys are errors there, and here.
pub(super) fn to_key(v: GoScalar<'_>) -> Result<Str, String> {
    Ok(match v {
        GoScalar::Str(s) => exact(s),
        GoScalar::Int(i) => i.to_string().into(),
        GoScalar::Bool(b) => b.to_string().into(),
        GoScalar::Float(f) => gofloat::float_key(f).into(),
        GoScalar::Uint(u) => {
            return Err(format!("unsupported map key of type: uint64, key: {u:#x}"));
        }
        GoScalar::Null => return Err("unsupported map key of type: null".to_owned()),
    })
}

/// Whether a mapping key is go-yaml's merge key: a plain (or `!`-tagged) `<<`, or `!!merge <<`.
pub(super) fn is_merge_key(value: &str, style: ScalarStyle, tag: Option<&str>) -> bool {
    value == "<<"
        && match tag {
            None => style == ScalarStyle::Plain,
            Some(t) => t == "!" || t == MERGE,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> Result<GoScalar<'_>, String> {
        scalar(Cow::Borrowed(s), ScalarStyle::Plain, None)
    }

    #[test]
    fn words_and_numbers() {
        assert_eq!(plain("yes"), Ok(GoScalar::Bool(true)));
        assert_eq!(plain("Off"), Ok(GoScalar::Bool(false)));
        assert_eq!(plain("yEs"), Ok(GoScalar::Str("yEs".into())));
        assert_eq!(plain(""), Ok(GoScalar::Null));
        assert_eq!(plain("0x_1F"), Ok(GoScalar::Int(31)));
        assert_eq!(plain("08"), Ok(GoScalar::Float(8.0)));
        assert_eq!(plain("0b-1"), Ok(GoScalar::Int(-1)));
        assert_eq!(
            plain("12345678901234567890"),
            Ok(GoScalar::Uint(12345678901234567890))
        );
        assert_eq!(plain("2001-12-14"), Ok(GoScalar::Str("2001-12-14".into())));
        assert_eq!(plain("1:30"), Ok(GoScalar::Str("1:30".into())));
        assert_eq!(plain("<<"), Ok(GoScalar::Str("<<".into())));
    }

    #[test]
    fn quoted_is_string() {
        let s = scalar(Cow::Borrowed("yes"), ScalarStyle::DoubleQuoted, None);
        assert_eq!(s, Ok(GoScalar::Str("yes".into())));
    }

    #[test]
    fn tags() {
        let t = |s: &'static str, style, tag: &str| scalar(Cow::Borrowed(s), style, Some(tag));
        assert_eq!(
            t("12", ScalarStyle::DoubleQuoted, INT),
            Ok(GoScalar::Int(12))
        );
        assert_eq!(t("1", ScalarStyle::Plain, FLOAT), Ok(GoScalar::Float(1.0)));
        assert_eq!(
            t("yes", ScalarStyle::Plain, STR),
            Ok(GoScalar::Str("yes".into()))
        );
        assert_eq!(
            t("12", ScalarStyle::Plain, "!"),
            Ok(GoScalar::Str("12".into()))
        );
        assert_eq!(
            t("aGVsbG8=", ScalarStyle::Plain, BINARY),
            Ok(GoScalar::Str("hello".into()))
        );
        assert_eq!(
            t("1.5", ScalarStyle::Plain, INT),
            Err("cannot decode !!float `1.5` as a !!int".to_owned())
        );
        assert_eq!(
            t("12345678901234567890", ScalarStyle::Plain, FLOAT),
            Err("cannot decode !!int `12345678901234567890` as a !!float".to_owned())
        );
    }

    #[test]
    fn keys() {
        assert_eq!(to_key(GoScalar::Bool(true)), Ok("true".into()));
        assert_eq!(to_key(GoScalar::Float(1e7)), Ok("1e+07".into()));
        assert!(to_key(GoScalar::Null).is_err());
        assert_eq!(
            to_key(GoScalar::Uint(0x8000000000000000)),
            Err("unsupported map key of type: uint64, key: 0x8000000000000000".to_owned())
        );
    }
}
