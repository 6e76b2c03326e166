//! How SMD orders, compares and prints values (`value/value.go`): a total order over JSON
//! values used for list keys and set items: numbers (integers and floats compared numerically)
//! < strings < booleans < lists < maps < null.

use std::cmp::Ordering;

use crate::engine::gojson;
use crate::value::{Map, Number, Value, name};

/// A number as SMD sees it: an int64 or a float64.
#[derive(Clone, Copy)]
enum Num {
    Int(i64),
    Float(f64),
}

fn num(n: &Number) -> Num {
    if let Some(i) = n.as_i64() {
        Num::Int(i)
    } else if let Some(u) = n.as_u64() {
        // Beyond int64: SMD reads such a number as a float64.
        #[allow(clippy::cast_precision_loss)]
        Num::Float(u as f64)
    } else {
        Num::Float(n.as_f64().unwrap_or(0.0))
    }
}

#[allow(clippy::cast_precision_loss)]
fn as_float(n: Num) -> f64 {
    match n {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

fn float_cmp(a: f64, b: f64) -> Ordering {
    if a < b {
        Ordering::Less
    } else if a == b {
        Ordering::Equal
    } else {
        Ordering::Greater
    }
}

fn rank(v: &Value) -> u8 {
    match v {
        Value::Number(_) => 0,
        Value::String(_) => 2,
        Value::Bool(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
        Value::Null => 6,
    }
}

/// `value.Compare`.
#[must_use]
pub fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (num(x), num(y)) {
            (Num::Int(i), Num::Int(j)) => i.cmp(&j),
            (x, y) => float_cmp(as_float(x), as_float(y)),
        },
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (l, r) in x.iter().zip(y) {
                let c = compare(l, r);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => compare_maps(x, y),
        (Value::Null, Value::Null) => Ordering::Equal,
        _ => rank(a).cmp(&rank(b)),
    }
}

/// `value.MapCompare`: keys zipped in lexical order.
fn compare_maps(l: &Map, r: &Map) -> Ordering {
    if l.is_empty() && r.is_empty() {
        return Ordering::Equal;
    }
    let mut keys: Vec<&str> = l.keys().chain(r.keys()).map(|k| k.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    for (i, key) in keys.into_iter().enumerate() {
        let c = if i == l.len() {
            Ordering::Less
        } else if i == r.len() {
            Ordering::Greater
        } else {
            match (l.get(key), r.get(key)) {
                (None, _) => Ordering::Greater,
                (_, None) => Ordering::Less,
                (Some(a), Some(b)) => compare(a, b),
            }
        };
        if c != Ordering::Equal {
            return c;
        }
    }
    Ordering::Equal
}

/// The first bytes of an order-preserving encoding of a sequence of names and values, with
/// how much of it they hold: a cheap first comparison for keyed path elements.
///
/// The encoding, compared byte by byte, orders as [`compare`] (values) and byte order (names)
/// do, element by element, a shorter sequence first: a name is its bytes with `00` written
/// `00 FF`, then `00 01`; a value is its rank (as [`compare`] ranks types), then for a number
/// the bits of its float64 made to sort (an integer beyond ±2^53 has no encoding: SMD compares
/// it with a float as a float, with an integer exactly), for a string its bytes as a name's,
/// for a boolean `00`/`01`; lists and maps have none. Each piece ends where its bytes say, so
/// two sequences' encodings first differ inside the first piece that differs, and there that
/// piece's order decides.
///
/// The prefix keeps the first [`PREFIX_BYTES`] bytes (zeros after the end) and the length when
/// the whole encoding fits: where two usable prefixes differ they order as the sequences do;
/// where they are equal and both whole (of one length) the sequences are equal; else (or when
/// a piece that starts in the prefix has no encoding) only the full comparison knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Prefix {
    hi: u64,
    /// The bytes after `hi`'s, and in the lowest byte the state: 0 none, `1..=PREFIX_BYTES`
    /// the whole encoding's length, [`Prefix::CUT`] a longer encoding cut.
    lo: u64,
}

/// How many bytes of the encoding a [`Prefix`] holds.
pub(super) const PREFIX_BYTES: usize = 15;

impl Prefix {
    const CUT: u8 = 0xFF;

    /// The prefix of the encoding of `name₁ value₁ name₂ value₂ …`.
    pub(super) fn of_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a Value)>) -> Prefix {
        let mut w = PrefixWriter::default();
        for (name, value) in pairs {
            w.bytes(name.as_bytes());
            if w.is_full() {
                break;
            }
            if !w.value(value) {
                return Prefix { hi: 0, lo: 0 };
            }
            if w.is_full() {
                break;
            }
        }
        w.finish()
    }

    /// The order of two sequences when their prefixes tell it.
    #[inline]
    pub(super) fn compare(self, other: Prefix) -> Option<Ordering> {
        let (a, b) = (self.state(), other.state());
        if a == 0 || b == 0 {
            return None;
        }
        match (self.hi, self.lo >> 8).cmp(&(other.hi, other.lo >> 8)) {
            Ordering::Equal if a == b && a != Self::CUT => Some(Ordering::Equal),
            Ordering::Equal => None,
            c => Some(c),
        }
    }

    fn state(self) -> u8 {
        (self.lo & 0xFF) as u8
    }
}

#[derive(Default)]
struct PrefixWriter {
    buf: [u8; PREFIX_BYTES + 1],
    len: usize,
}

impl PrefixWriter {
    fn push(&mut self, b: u8) {
        if self.len < PREFIX_BYTES {
            self.buf[self.len] = b;
        }
        self.len += 1;
    }

    fn is_full(&self) -> bool {
        self.len > PREFIX_BYTES
    }

    /// Bytes as a name or string: `00` as `00 FF`, then `00 01`.
    fn bytes(&mut self, s: &[u8]) {
        // Most names and strings fit whole and hold no zero byte: copied at once.
        if s.len() < PREFIX_BYTES - self.len.min(PREFIX_BYTES) && !s.contains(&0) {
            self.buf[self.len..self.len + s.len()].copy_from_slice(s);
            self.len += s.len();
        } else {
            for &b in s {
                if self.is_full() {
                    return;
                }
                self.push(b);
                if b == 0 {
                    self.push(0xFF);
                }
            }
        }
        self.push(0);
        self.push(1);
    }

    /// A value, or false when it has no encoding.
    fn value(&mut self, v: &Value) -> bool {
        self.push(rank(v));
        match v {
            Value::Number(n) => {
                let f = match num(n) {
                    Num::Int(i) if i.unsigned_abs() <= 1 << 53 => {
                        #[allow(clippy::cast_precision_loss)]
                        let f = i as f64;
                        f
                    }
                    Num::Int(_) => return false,
                    Num::Float(f) if f.is_nan() => return false,
                    Num::Float(f) => f,
                };
                // -0 equals 0; a float's bits, sign flipped (positive) or all flipped
                // (negative), sort as the floats do.
                let bits = if f == 0.0 {
                    0.0f64.to_bits()
                } else {
                    f.to_bits()
                };
                let sorted = if bits >> 63 == 1 {
                    !bits
                } else {
                    bits | 1 << 63
                };
                for b in sorted.to_be_bytes() {
                    self.push(b);
                }
                true
            }
            Value::String(s) => {
                self.bytes(s.as_bytes());
                true
            }
            Value::Bool(b) => {
                self.push(u8::from(*b));
                true
            }
            Value::Null => true,
            Value::Array(_) | Value::Object(_) => false,
        }
    }

    fn finish(self) -> Prefix {
        let mut buf = self.buf;
        buf[PREFIX_BYTES] = if self.is_full() {
            Prefix::CUT
        } else {
            // At most PREFIX_BYTES (15), which fits.
            #[allow(clippy::cast_possible_truncation)]
            let len = self.len as u8;
            len
        };
        let word = |at: usize| buf[at..at + 8].try_into().map_or(0, u64::from_be_bytes);
        Prefix {
            hi: word(0),
            lo: word(8),
        }
    }
}

/// `value.Equals`: as `==`, but an integer equals the float of the same value.
#[must_use]
pub fn equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (num(x), num(y)) {
            (Num::Int(i), Num::Int(j)) => i == j,
            (x, y) => {
                #[allow(clippy::float_cmp)]
                let same = as_float(x) == as_float(y);
                same
            }
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(l, r)| equals(l, r))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| equals(v, w)))
        }
        _ => a == b,
    }
}

/// The same value written the same way: as `==`, but objects keep their keys in the same
/// order (`==` on objects ignores it). `false` past [`crate::engine::MAX_DEPTH`] levels.
#[must_use]
pub fn identical(a: &Value, b: &Value) -> bool {
    fn at(a: &Value, b: &Value, depth: usize) -> bool {
        if depth > crate::engine::MAX_DEPTH {
            return false;
        }
        match (a, b) {
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(l, r)| at(l, r, depth + 1))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|((k, v), (l, w))| name::same(k, l) && at(v, w, depth + 1))
            }
            _ => a == b,
        }
    }
    at(a, b, 0)
}

/// `value.ToString`: how a key or set item prints in a path (`[name="a"]`, `[port=443]`).
#[must_use]
pub fn to_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Number(n) => match num(n) {
            Num::Int(i) => i.to_string(),
            Num::Float(f) => gojson::go_format_g(f),
        },
        Value::String(s) => go_quote(s),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(to_string).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}={}", to_string(v)))
            .collect(),
    }
}

/// Go's `%q` (`strconv.Quote`): one implementation for the engine, the schema's.
pub(crate) use crate::engine::schema::go_quote;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(j: serde_json::Value) -> Value {
        Value::from(j)
    }

    #[test]
    fn numbers_compare_across_int_and_float() {
        assert_eq!(compare(&v(json!(1)), &v(json!(1.0))), Ordering::Equal);
        assert!(equals(&v(json!(1)), &v(json!(1.0))));
        assert_eq!(compare(&v(json!(2)), &v(json!(1.5))), Ordering::Greater);
        assert_eq!(compare(&v(json!(9)), &v(json!("a"))), Ordering::Less);
        assert_eq!(compare(&v(json!(true)), &v(json!(null))), Ordering::Less);
    }

    #[test]
    fn prints_as_go() {
        assert_eq!(to_string(&v(json!("a\"b"))), "\"a\\\"b\"");
        assert_eq!(to_string(&v(json!(443))), "443");
        assert_eq!(to_string(&v(json!(1e6))), "1e+06");
    }

    /// `identical` is `==` that also holds key order and the way a number is written.
    #[test]
    fn identical_values_keep_key_order_and_number_kinds() {
        let a: Value = serde_json::from_str(r#"{"a":1,"b":[{"x":1,"y":2}]}"#).unwrap();
        let reordered: Value = serde_json::from_str(r#"{"b":[{"x":1,"y":2}],"a":1}"#).unwrap();
        let inner: Value = serde_json::from_str(r#"{"a":1,"b":[{"y":2,"x":1}]}"#).unwrap();
        let float: Value = serde_json::from_str(r#"{"a":1.0,"b":[{"x":1,"y":2}]}"#).unwrap();
        assert!(identical(&a, &a.clone()));
        for other in [&reordered, &inner] {
            assert_eq!(&a, other);
            assert!(!identical(&a, other));
        }
        assert!(equals(&a, &float));
        assert!(!identical(&a, &float));
    }
}
