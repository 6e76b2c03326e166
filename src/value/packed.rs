//! A value frozen into bytes ([`Packed`]), to hold many values in about the size of their text
//! and thaw each when it is needed: much faster than parsing the text again (no scanning, no
//! escapes, no YAML), and exact: every number keeps its kind and bits, every object its keys in
//! order, so the thawed value is the packed one.
//!
//! The layout, one tag byte per value, lengths as LEB128: `null`, `false`, `true`; an unsigned
//! or negative integer or a float as 8 little-endian bytes; a string as its length and its
//! UTF-8; an array as its length and its items; an object as its length and its keys (as
//! strings) each followed by its value.

use super::{Map, Number, Str, Value};

/// How deep a packed value may nest: deeper ones are not packed (the document reader refuses
/// far less deep ones already), so thawing recurses at most this deep.
pub const MAX_DEPTH: usize = 256;

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const UNSIGNED: u8 = 3;
const NEGATIVE: u8 = 4;
const FLOAT: u8 = 5;
const STRING: u8 = 6;
const ARRAY: u8 = 7;
const OBJECT: u8 = 8;

/// A value frozen into bytes (see the module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed(Box<[u8]>);

/// Why bytes do not thaw into a value: only bytes not made by [`Packed::pack`] fail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("packed value: {0} at byte {1}")]
pub struct Unpack(&'static str, usize);

impl Packed {
    /// `v` frozen; `None` when it nests deeper than [`MAX_DEPTH`].
    #[must_use]
    pub fn pack(v: &Value) -> Option<Packed> {
        let mut out = Vec::new();
        put(v, &mut out, 0)?;
        Some(Packed(out.into_boxed_slice()))
    }

    /// The value packed.
    ///
    /// # Errors
    /// [`Unpack`] only for bytes [`Packed::pack`] did not make.
    pub fn unpack(&self) -> Result<Value, Unpack> {
        let mut r = Reader {
            bytes: &self.0,
            at: 0,
        };
        let v = r.value(0)?;
        if r.at != r.bytes.len() {
            return Err(r.fail("bytes after the value"));
        }
        Ok(v)
    }

    /// Its size in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn put(v: &Value, out: &mut Vec<u8>, depth: usize) -> Option<()> {
    if depth > MAX_DEPTH {
        return None;
    }
    match v {
        Value::Null => out.push(NULL),
        Value::Bool(false) => out.push(FALSE),
        Value::Bool(true) => out.push(TRUE),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                out.push(UNSIGNED);
                out.extend_from_slice(&u.to_le_bytes());
            } else if let Some(i) = n.as_i64() {
                out.push(NEGATIVE);
                out.extend_from_slice(&i.to_le_bytes());
            } else {
                out.push(FLOAT);
                out.extend_from_slice(&n.as_f64().unwrap_or(0.0).to_bits().to_le_bytes());
            }
        }
        Value::String(s) => {
            out.push(STRING);
            put_str(s, out);
        }
        Value::Array(items) => {
            out.push(ARRAY);
            put_len(items.len(), out);
            for item in items {
                put(item, out, depth + 1)?;
            }
        }
        Value::Object(map) => {
            out.push(OBJECT);
            put_len(map.len(), out);
            for (k, v) in map {
                put_str(k, out);
                put(v, out, depth + 1)?;
            }
        }
    }
    Some(())
}

fn put_str(s: &str, out: &mut Vec<u8>) {
    put_len(s.len(), out);
    out.extend_from_slice(s.as_bytes());
}

fn put_len(mut n: usize, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn fail(&self, what: &'static str) -> Unpack {
        Unpack(what, self.at)
    }

    fn byte(&mut self) -> Result<u8, Unpack> {
        let b = *self.bytes.get(self.at).ok_or(self.fail("truncated"))?;
        self.at += 1;
        Ok(b)
    }

    fn take(&mut self, n: usize) -> Result<&[u8], Unpack> {
        let end = self.at.checked_add(n).ok_or(self.fail("bad length"))?;
        let taken = self.bytes.get(self.at..end).ok_or(self.fail("truncated"))?;
        self.at = end;
        Ok(taken)
    }

    fn eight(&mut self) -> Result<[u8; 8], Unpack> {
        let b = self.take(8)?;
        <[u8; 8]>::try_from(b).map_err(|_| self.fail("truncated"))
    }

    fn len(&mut self) -> Result<usize, Unpack> {
        let mut n = 0usize;
        for shift in (0..usize::BITS).step_by(7) {
            let b = self.byte()?;
            n |= usize::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                // A length counts bytes or values that follow: no more than are left.
                return if n <= self.bytes.len() - self.at {
                    Ok(n)
                } else {
                    Err(self.fail("bad length"))
                };
            }
        }
        Err(self.fail("bad length"))
    }

    fn str(&mut self) -> Result<Str, Unpack> {
        let n = self.len()?;
        let bytes = self.take(n)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(Str::from(s)),
            Err(_) => Err(self.fail("not UTF-8")),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Unpack> {
        if depth > MAX_DEPTH {
            return Err(self.fail("too deep"));
        }
        Ok(match self.byte()? {
            NULL => Value::Null,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            UNSIGNED => Value::Number(Number::from(u64::from_le_bytes(self.eight()?))),
            NEGATIVE => Value::Number(Number::from(i64::from_le_bytes(self.eight()?))),
            FLOAT => {
                let f = f64::from_bits(u64::from_le_bytes(self.eight()?));
                Value::Number(Number::from_f64(f).ok_or(self.fail("not a finite float"))?)
            }
            STRING => Value::String(self.str()?),
            ARRAY => {
                let n = self.len()?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.value(depth + 1)?);
                }
                Value::Array(items)
            }
            OBJECT => {
                let n = self.len()?;
                let mut map = Map::with_capacity(n);
                for _ in 0..n {
                    let key = self.str()?;
                    let value = self.value(depth + 1)?;
                    map.push_unique(key, value);
                }
                Value::Object(map)
            }
            _ => return Err(Unpack("unknown tag", self.at - 1)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn round_trip(v: &Value) -> Value {
        Packed::pack(v).unwrap().unpack().unwrap()
    }

    /// Structural equality that also tells numbers' kinds and keys' order apart (`==` on
    /// values ignores key order, as `serde_json`'s does).
    fn exact(v: &Value) -> String {
        match v {
            Value::Number(n) if n.is_f64() => format!("f{n}"),
            Value::Number(n) if n.is_i64() && !n.is_u64() => format!("i{n}"),
            Value::Number(n) => format!("u{n}"),
            Value::Array(items) => format!(
                "[{}]",
                items.iter().map(exact).collect::<Vec<_>>().join(",")
            ),
            Value::Object(m) => format!(
                "{{{}}}",
                m.iter()
                    .map(|(k, v)| format!("{k:?}:{}", exact(v)))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            other => other.to_string(),
        }
    }

    #[test]
    fn every_kind_of_value_thaws_as_it_was() {
        let many_keys: Map = (0..40)
            .map(|i| (format!("k{}", 40 - i), json!(i)))
            .collect();
        let v = json!({
            "z": null, "a": [true, false, 0, 1, -1, u64::MAX, i64::MIN, 1.0, -0.5, 1e300, 2.5e-300],
            "long": "x".repeat(300), "": "", "ünï": "çødé ✓\n\t\"",
            "nested": [[[{"b": 1, "a": 2}]]], "many": many_keys, "empty": {}, "none": []
        });
        let back = round_trip(&v);
        assert_eq!(back, v);
        assert_eq!(exact(&back), exact(&v));
        // The index of a large object works after thawing.
        assert_eq!(back["many"]["k7"], json!(33));
    }

    #[test]
    fn too_deep_is_not_packed_and_bad_bytes_do_not_thaw() {
        let mut deep = json!(1);
        for _ in 0..=MAX_DEPTH {
            deep = json!([deep]);
        }
        assert_eq!(Packed::pack(&deep), None);
        let packed = Packed::pack(&json!({"a": "text"})).unwrap();
        for cut in 0..packed.len() {
            let bytes = Packed(packed.0[..cut].into());
            assert!(bytes.unpack().is_err(), "cut at {cut}");
        }
        assert!(Packed(vec![9].into()).unpack().is_err());
        assert!(Packed(vec![STRING, 1, 0xFF].into()).unpack().is_err());
        assert!(
            Packed(vec![ARRAY, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F].into())
                .unpack()
                .is_err()
        );
        assert!(Packed(vec![NULL, NULL].into()).unpack().is_err());
    }
}
