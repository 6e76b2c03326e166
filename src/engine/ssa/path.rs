//! Path elements and paths (`fieldpath/element.go`, `path.go`, `serialize-pe.go`).
//!
//! | element | selects | FieldsV1 key | printed |
//! | --- | --- | --- | --- |
//! | [`PathElement::Field`] | a struct field or a map key | `f:name` | `.name` |
//! | [`PathElement::Key`] | an item of a `list-type: map` list | `k:{"name":"a"}` | `[name="a"]` |
//! | [`PathElement::Value`] | an item of a `list-type: set` list | `v:"a"` | `[="a"]` |
//! | [`PathElement::Index`] | an item of a non-associative list | `i:3` | `[3]` |

use std::cmp::Ordering;
use std::fmt;
use std::fmt::Write as _;
use std::sync::Arc;

use super::order;
use crate::engine::gojson;
use crate::value::{Str, Value};

/// The key fields of a `list-type: map` item, sorted by name. Shared: a path element is
/// copied into every set that holds it, and a copy is a count, not an allocation. With them,
/// the first bytes of their order ([`order::Prefix`], made once when the element is made),
/// which order most pairs of keys without reading the fields.
#[derive(Clone)]
pub struct KeyFields {
    /// Behind a thin pointer, so that with the prefix the element stays 32 bytes.
    fields: Arc<Fields>,
    prefix: order::Prefix,
}

/// The fields of a key: most keys have one (`name`, `mountPath`), held in the shared
/// allocation itself, where a slice would take a second one.
enum Fields {
    One([(Str, Value); 1]),
    Many(Box<[(Str, Value)]>),
}

impl Fields {
    fn pairs(&self) -> &[(Str, Value)] {
        match self {
            Fields::One(one) => one,
            Fields::Many(many) => many,
        }
    }
}

impl KeyFields {
    fn new(fields: Fields) -> KeyFields {
        let prefix = order::Prefix::of_pairs(fields.pairs().iter().map(|(n, v)| (n.as_str(), v)));
        KeyFields {
            fields: Arc::new(fields),
            prefix,
        }
    }
}

impl std::ops::Deref for KeyFields {
    type Target = [(Str, Value)];

    fn deref(&self) -> &[(Str, Value)] {
        self.fields.pairs()
    }
}

impl fmt::Debug for KeyFields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

/// One step of a path.
#[derive(Clone, Debug)]
pub enum PathElement {
    Field(Str),
    Key(KeyFields),
    Value(Value),
    Index(i64),
}

/// A path from the root of an object.
pub type Path = Vec<PathElement>;

impl PathElement {
    /// `f:<name>`.
    pub fn field(name: impl Into<Str>) -> PathElement {
        PathElement::Field(name.into())
    }

    /// A key element, its fields sorted by name (`value.FieldList.Sort`, stable).
    #[must_use]
    pub fn key(mut fields: Vec<(Str, Value)>) -> PathElement {
        if fields.len() == 1
            && let Some(field) = fields.pop()
        {
            return PathElement::key_of_one(field);
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        PathElement::Key(KeyFields::new(Fields::Many(fields.into_boxed_slice())))
    }

    /// A key element of one field (as [`PathElement::key`] makes it, without a vector).
    #[must_use]
    pub fn key_of_one(field: (Str, Value)) -> PathElement {
        PathElement::Key(KeyFields::new(Fields::One([field])))
    }

    /// This element against the field `name`: [`PathElement::cmp`] with
    /// `PathElement::field(name)`, without making it (a field sorts before the other kinds).
    #[inline]
    #[must_use]
    pub fn cmp_field(&self, name: &str) -> Ordering {
        match self {
            PathElement::Field(a) => crate::value::name::order(a, name),
            _ => Ordering::Greater,
        }
    }

    fn kind_rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    /// The field name, for a field element.
    #[must_use]
    pub fn as_field(&self) -> Option<&str> {
        match self {
            PathElement::Field(name) => Some(name),
            _ => None,
        }
    }

    /// The FieldsV1 key (`SerializePathElement`).
    #[must_use]
    pub fn to_fields_key(&self) -> String {
        let mut out = String::with_capacity(32);
        self.write_fields_key(&mut out);
        out
    }

    /// [`PathElement::to_fields_key`] appended to `out` (a FieldsV1 of a big object has
    /// hundreds of thousands of keys: written in place, into a buffer used again).
    pub fn write_fields_key(&self, out: &mut String) {
        match self {
            PathElement::Field(name) => {
                out.push_str("f:");
                out.push_str(name);
            }
            PathElement::Key(fields) => {
                out.push_str("k:{");
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_plain_string(name, out);
                    out.push(':');
                    write_payload(value, out);
                }
                out.push('}');
            }
            PathElement::Value(value) => {
                out.push_str("v:");
                write_payload(value, out);
            }
            PathElement::Index(i) => {
                let _ = write!(out, "i:{i}");
            }
        }
    }

    /// Reads a FieldsV1 key (`DeserializePathElement`).
    ///
    /// # Errors
    /// [`PathElementError::Unknown`] for a kind other than `f`, `k`, `v`, `i` (which readers of
    /// whole sets skip), [`PathElementError::Invalid`] for anything malformed.
    pub fn from_fields_key(s: &str) -> Result<PathElement, PathElementError> {
        let bytes = s.as_bytes();
        if bytes.len() < 2 {
            return Err(PathElementError::Invalid(
                "key must be 2 characters long".to_owned(),
            ));
        }
        if bytes[1] != b':' {
            return Err(PathElementError::Invalid(format!("missing colon: {s}")));
        }
        let payload = &s[2..];
        match bytes[0] {
            b'f' => Ok(PathElement::Field(payload.into())),
            b'v' => {
                let value: Value = serde_json::from_str(payload)
                    .map_err(|e| PathElementError::Invalid(format!("{s}: {e}")))?;
                Ok(PathElement::Value(value))
            }
            b'k' => {
                // Taken apart at once: not shrunk to fit first.
                let value = crate::value::from_str_transient(payload)
                    .map_err(|e| PathElementError::Invalid(format!("{s}: {e}")))?;
                match value {
                    Value::Object(m) => Ok(PathElement::key(m.into_iter().collect())),
                    Value::Null => Ok(PathElement::Key(KeyFields::new(Fields::Many(Box::new([]))))),
                    _ => Err(PathElementError::Invalid(format!(
                        "{s}: a key must be a JSON object"
                    ))),
                }
            }
            b'i' => payload
                .parse::<i64>()
                .map(PathElement::Index)
                .map_err(|e| PathElementError::Invalid(format!("{s}: {e}"))),
            _ => Err(PathElementError::Unknown),
        }
    }
}

/// Why a FieldsV1 key is not a path element.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathElementError {
    #[error("unknown path element type")]
    Unknown,
    #[error("{0}")]
    Invalid(String),
}

/// A key's or item's JSON, as the reference's encoder writes it (`encoding/json` rules:
/// sorted keys, `<>&` escaped), appended to `out` (`null` for one that cannot be written).
fn write_payload(v: &Value, out: &mut String) {
    let at = out.len();
    if gojson::write_compact_at(v, out, 0).is_err() {
        out.truncate(at);
        out.push_str("null");
    }
}

/// A JSON string without HTML escaping (json-iterator's `WriteString`, used for key names).
fn write_plain_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A whole FieldsV1 key written as a JSON object key (json-iterator's `WriteObjectField`).
pub(super) fn write_object_key(key: &str, out: &mut String) {
    write_plain_string(key, out);
}

impl Ord for PathElement {
    /// `PathElement.Compare`: fields < keys < values < indexes, then by content. Two fields
    /// (most comparisons) are compared where asked; the rest in one call.
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        if let (PathElement::Field(a), PathElement::Field(b)) = (self, other) {
            return crate::value::name::order(a, b);
        }
        compare_other(self, other)
    }
}

/// [`PathElement::cmp`] of two elements that are not both fields.
#[inline(never)]
fn compare_other(a: &PathElement, b: &PathElement) -> Ordering {
    match (a, b) {
        (PathElement::Key(x), PathElement::Key(y)) => compare_keys(x, y),
        (PathElement::Value(x), PathElement::Value(y)) => order::compare(x, y),
        (PathElement::Index(x), PathElement::Index(y)) => x.cmp(y),
        _ => a.kind_rank().cmp(&b.kind_rank()),
    }
}

impl PartialOrd for PathElement {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for PathElement {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

/// `value.FieldList.Compare`: by the prefixes where they tell, else field by field.
#[inline]
fn compare_keys(a: &KeyFields, b: &KeyFields) -> Ordering {
    if let Some(c) = a.prefix.compare(b.prefix) {
        return c;
    }
    if Arc::ptr_eq(&a.fields, &b.fields) {
        return Ordering::Equal;
    }
    compare_fields(a, b)
}

/// `value.FieldList.Compare`, field by field.
fn compare_fields(a: &[(Str, Value)], b: &[(Str, Value)]) -> Ordering {
    for ((an, av), (bn, bv)) in a.iter().zip(b.iter()) {
        let c = crate::value::name::order(an, bn);
        if c != Ordering::Equal {
            return c;
        }
        let c = order::compare(av, bv);
        if c != Ordering::Equal {
            return c;
        }
    }
    a.len().cmp(&b.len())
}

impl fmt::Display for PathElement {
    /// `PathElement.String`: `.name`, `[name="a",port=80]`, `[="a"]`, `[3]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write_to(&mut out);
        f.write_str(&out)
    }
}

impl PathElement {
    /// At least the length [`PathElement::write_to`] writes, as a rule (a value printed with
    /// escapes may take more: the string then grows).
    fn printed_len_bound(&self) -> usize {
        // A scalar as printed: a plain string with its quotes, a number or a word in 24.
        let value = |v: &Value| match v {
            Value::String(s) => s.len() + 2,
            _ => 24,
        };
        match self {
            PathElement::Field(name) => 1 + name.len(),
            PathElement::Key(fields) => {
                2 + fields
                    .iter()
                    .map(|(k, v)| k.len() + 2 + value(v))
                    .sum::<usize>()
            }
            PathElement::Value(v) => 3 + value(v),
            PathElement::Index(_) => 22,
        }
    }

    /// Appends the element as [`fmt::Display`] prints it (no intermediate strings: a plan's
    /// walk writes the path of every field).
    pub fn write_to(&self, out: &mut String) {
        match self {
            PathElement::Field(name) => {
                out.push('.');
                out.push_str(name);
            }
            PathElement::Key(fields) => {
                out.push('[');
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(k);
                    out.push('=');
                    push_value(v, out);
                }
                out.push(']');
            }
            PathElement::Value(v) => {
                out.push_str("[=");
                push_value(v, out);
                out.push(']');
            }
            PathElement::Index(i) => {
                use fmt::Write as _;
                let _ = write!(out, "[{i}]");
            }
        }
    }
}

/// A value as [`order::to_string`] prints it; a string of plain characters without a copy.
fn push_value(v: &Value, out: &mut String) {
    match v {
        Value::String(s)
            if s.bytes()
                .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\') =>
        {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        _ => out.push_str(&order::to_string(v)),
    }
}

/// `Path.String`: the elements printed one after another (`.spec.ports[port=443].name`).
#[must_use]
pub fn path_string(path: &[PathElement]) -> String {
    // Sized once: each element's length, or a bound on it.
    let mut out = String::with_capacity(path.iter().map(PathElement::printed_len_bound).sum());
    for pe in path {
        pe.write_to(&mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An element compared with a field by its name orders as with the field's element.
    #[test]
    fn an_element_compares_with_a_name_as_with_its_field() {
        let names = [
            "",
            "a",
            "ab",
            "b",
            "containers",
            "containerz",
            "kubectl.kubernetes.io/x",
        ];
        let mut elements: Vec<PathElement> = names.iter().map(|n| PathElement::field(*n)).collect();
        elements.push(PathElement::key_of_one(("name".into(), Value::from("a"))));
        elements.push(PathElement::Value(Value::from("a")));
        elements.push(PathElement::Index(0));
        for pe in &elements {
            for name in names {
                assert_eq!(
                    pe.cmp_field(name),
                    pe.cmp(&PathElement::field(name)),
                    "{pe} {name}"
                );
            }
        }
    }

    /// The room a path's text is made with holds it whole (one allocation) for fields, keys
    /// of plain strings, numbers and booleans, values and indexes, at the extremes of each.
    #[test]
    fn a_path_is_written_in_the_room_made_for_it() {
        let key = |fields: Vec<(&str, Value)>| {
            PathElement::key(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
        };
        let elements = [
            PathElement::field(""),
            PathElement::field("kubectl.kubernetes.io/last-applied-configuration"),
            key(vec![("name", Value::from(""))]),
            key(vec![(
                "name",
                Value::from("a-long-container-name-of-sixty-three-characters-x"),
            )]),
            key(vec![
                ("containerPort", Value::from(i64::MIN)),
                ("protocol", Value::from("TCP")),
            ]),
            key(vec![
                ("port", Value::from(u64::MAX)),
                ("on", Value::from(false)),
            ]),
            key(vec![("ratio", Value::from(-1.2345678901234567e-300))]),
            PathElement::Value(Value::from("x")),
            PathElement::Value(Value::Null),
            PathElement::Index(i64::MIN),
        ];
        for pe in &elements {
            let mut one = String::new();
            pe.write_to(&mut one);
            assert!(one.len() <= pe.printed_len_bound(), "{one}");
        }
        let text = path_string(&elements);
        assert_eq!(
            text.capacity(),
            elements
                .iter()
                .map(PathElement::printed_len_bound)
                .sum::<usize>()
        );
    }

    #[test]
    fn keys_round_trip() {
        for s in [
            "f:spec",
            "k:{\"port\":443,\"protocol\":\"TCP\"}",
            "v:\"a\"",
            "i:3",
        ] {
            let pe = PathElement::from_fields_key(s).unwrap();
            assert_eq!(pe.to_fields_key(), s);
        }
        assert_eq!(
            PathElement::from_fields_key("r:x"),
            Err(PathElementError::Unknown)
        );
        assert!(PathElement::from_fields_key("i: 0").is_err());
    }

    #[test]
    fn prints_as_conflicts_do() {
        let p = vec![
            PathElement::field("spec"),
            PathElement::field("ports"),
            PathElement::key(vec![
                ("protocol".into(), Value::from("TCP")),
                ("port".into(), Value::from(443)),
            ]),
            PathElement::field("targetPort"),
        ];
        assert_eq!(
            path_string(&p),
            ".spec.ports[port=443,protocol=\"TCP\"].targetPort"
        );
    }

    mod prefix {
        use proptest::prelude::*;
        use serde_json::json;

        use super::*;

        /// Names and values near every edge of the encoding: `00` bytes, prefixes of each
        /// other, strings across the prefix's end, integers at ±2^53 and beyond int64, floats
        /// equal to integers, -0, lists and maps (no encoding).
        fn value() -> impl Strategy<Value = Value> {
            let big = 1i64 << 53;
            prop_oneof![
                prop::sample::select(vec![
                    json!(0),
                    json!(-0.0),
                    json!(0.0),
                    json!(1),
                    json!(1.0),
                    json!(1.5),
                    json!(-1),
                    json!(-2.5),
                    json!(big),
                    json!(big + 1),
                    json!(-big),
                    json!(-big - 1),
                    json!(9_007_199_254_740_992.0_f64),
                    json!(i64::MAX),
                    json!(i64::MIN),
                    json!(u64::MAX),
                    json!(1e300),
                    json!(true),
                    json!(false),
                    json!(null),
                    json!([1]),
                    json!({"a": 1}),
                ])
                .prop_map(Value::from),
                "[ab\\x00]{0,3}".prop_map(|s: String| Value::from(s.as_str())),
                "(VAR_|container-)[0-9]{1,12}".prop_map(|s: String| Value::from(s.as_str())),
            ]
        }

        fn key() -> impl Strategy<Value = PathElement> {
            let name = prop_oneof![
                prop::sample::select(vec!["", "a", "ab", "a\0", "name", "containerPort"])
                    .prop_map(str::to_owned),
                "[a\\x00]{0,20}",
            ];
            prop::collection::vec((name, value()), 0..4).prop_map(|pairs| {
                PathElement::key(
                    pairs
                        .into_iter()
                        .map(|(n, v)| (Str::from(n.as_str()), v))
                        .collect(),
                )
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(3000))]
            /// Keys ordered through their prefixes order as field by field.
            #[test]
            fn prefixes_order_as_fields(a in key(), b in key()) {
                let (PathElement::Key(ka), PathElement::Key(kb)) = (&a, &b) else {
                    unreachable!()
                };
                let fields = compare_fields(ka, kb);
                prop_assert_eq!(a.cmp(&b), fields);
                prop_assert_eq!(b.cmp(&a), fields.reverse());
                let copy = PathElement::key(ka.to_vec());
                prop_assert_eq!(a.cmp(&copy), Ordering::Equal);
            }
        }

        /// Every set holds its elements by value: the prefix must not make them larger.
        #[test]
        #[cfg(target_pointer_width = "64")]
        fn an_element_stays_32_bytes() {
            assert_eq!(std::mem::size_of::<PathElement>(), 32);
        }

        #[test]
        fn prefixes_decide_most_keys() {
            let k = |n: &str, v: Value| PathElement::key(vec![(n.into(), v)]);
            let (PathElement::Key(a), PathElement::Key(b), PathElement::Key(c)) = (
                k("name", Value::from("VAR_1")),
                k("name", Value::from("VAR_10")),
                k("name", Value::from("VAR_1")),
            ) else {
                unreachable!()
            };
            assert_eq!(a.prefix.compare(b.prefix), Some(Ordering::Less));
            assert_eq!(a.prefix.compare(c.prefix), Some(Ordering::Equal));
            let (PathElement::Key(f), PathElement::Key(i)) =
                (k("port", Value::from(80.5)), k("port", Value::from(80)))
            else {
                unreachable!()
            };
            assert_eq!(f.prefix.compare(i.prefix), Some(Ordering::Greater));
            // Past 2^53 two integers share a float64: only the fields order them.
            let big = 1i64 << 53;
            assert_eq!(
                k("n", Value::from(big + 1)).cmp(&k("n", Value::from(big))),
                Ordering::Greater
            );
            // `00` inside a name or string sorts below every other byte, above the end.
            let s = |v: &str| k("n", Value::from(v));
            assert_eq!(s("a\0").cmp(&s("a")), Ordering::Greater);
            assert_eq!(s("a\0").cmp(&s("a\u{1}")), Ordering::Less);
            assert_eq!(
                k("a\0", Value::Null).cmp(&k("a", Value::Null)),
                Ordering::Greater
            );
        }
    }
}
