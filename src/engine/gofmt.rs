//! How Go sees a value: its `%v` text (which the reference sorts and matches list items by), its
//! `reflect` type (which decides "types changed, replace"), and `==` on `interface{}` values
//! (which matches merge keys). Reproducing these exactly is what makes our list order and our
//! patches byte-identical to kubectl's.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::value::{Number, Value};

/// The dynamic type of a decoded JSON value as Go's `encoding/json` (with int64 numbers) gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoType {
    Nil,
    Bool,
    Int64,
    Float64,
    String,
    Slice,
    Map,
}

impl GoType {
    /// The type of `v`.
    #[must_use]
    pub fn of(v: &Value) -> GoType {
        match v {
            Value::Null => GoType::Nil,
            Value::Bool(_) => GoType::Bool,
            Value::Number(n) if is_int(n) => GoType::Int64,
            Value::Number(_) => GoType::Float64,
            Value::String(_) => GoType::String,
            Value::Array(_) => GoType::Slice,
            Value::Object(_) => GoType::Map,
        }
    }

    /// `reflect.TypeOf(v)` as `%s` prints it (used in error messages).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GoType::Nil => "%!s(<nil>)",
            GoType::Bool => "bool",
            GoType::Int64 => "int64",
            GoType::Float64 => "float64",
            GoType::String => "string",
            GoType::Slice => "[]interface {}",
            GoType::Map => "map[string]interface {}",
        }
    }
}

fn is_int(n: &Number) -> bool {
    n.is_i64() || n.is_u64()
}

/// `fmt.Sprintf("%v", v)`: `map[a:1 b:[x y]]` (keys sorted), strings unquoted, null as `<nil>`.
#[must_use]
pub fn sprint(v: &Value) -> String {
    let mut s = String::new();
    write_v(v, &mut s, 0);
    s
}

/// A hash map with a fast, non-cryptographic hasher (keys here are document values, and only
/// lookups depend on hashing, never output order).
pub type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// A hash set, as [`FastMap`].
pub type FastSet<K> = HashSet<K, foldhash::fast::RandomState>;

/// `%v` without allocating for strings (the usual merge key).
#[must_use]
pub fn sprint_cow(v: &Value) -> Cow<'_, str> {
    match v {
        Value::String(s) => Cow::Borrowed(s),
        other => Cow::Owned(sprint(other)),
    }
}

/// `fmt.Sprintf("%v", m)` for a map.
#[must_use]
pub fn sprint_map(m: &crate::value::Map) -> String {
    let mut s = String::new();
    write_map_v(m, &mut s, 0);
    s
}

fn write_map_v(map: &crate::value::Map, out: &mut String, depth: usize) {
    out.push_str("map[");
    let mut keys: Vec<&crate::value::Str> = map.keys().collect();
    keys.sort();
    for (i, k) in keys.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(k);
        out.push(':');
        if let Some(item) = map.get(k) {
            write_v(item, out, depth + 1);
        }
    }
    out.push(']');
}

fn write_v(v: &Value, out: &mut String, depth: usize) {
    if depth > crate::engine::MAX_DEPTH {
        out.push_str("...");
        return;
    }
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number_v(n, out),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_v(item, out, depth + 1);
            }
            out.push(']');
        }
        Value::Object(map) => write_map_v(map, out, depth),
    }
}

fn write_number_v(n: &Number, out: &mut String) {
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(f) = n.as_f64() {
        out.push_str(&super::gojson::go_format_g(f));
    }
}

/// A scalar as Go's `==` on `interface{}` values compares it, usable as a hash key.
/// Objects and arrays (which Go cannot compare with `==`) have no key: see [`go_eq`] and
/// [`go_hash_key`] for what Go does with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKey<'a> {
    Nil,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(&'a str),
}

impl<'a> ScalarKey<'a> {
    /// The key of `v`, if `v` is comparable.
    #[must_use]
    pub fn of(v: &'a Value) -> Option<ScalarKey<'a>> {
        Some(match v {
            Value::Null => ScalarKey::Nil,
            Value::Bool(b) => ScalarKey::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => ScalarKey::Int(i),
                None => {
                    let f = n.as_f64().unwrap_or(0.0);
                    // Go: 0.0 == -0.0.
                    ScalarKey::Float(if f == 0.0 { 0 } else { f.to_bits() })
                }
            },
            Value::String(s) => ScalarKey::Str(s),
            Value::Array(_) | Value::Object(_) => return None,
        })
    }
}

/// A Go runtime panic the reference would hit: `==` on two `interface{}` values of the same
/// uncomparable dynamic type (two maps, two slices), or such a value used as a map key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoPanic {
    /// `runtime error: comparing uncomparable type T`.
    Uncomparable(GoType),
    /// `runtime error: hash of unhashable type T`.
    Unhashable(GoType),
}

impl std::fmt::Display for GoPanic {
    /// Go's own message, as the first line of the crash prints it after `panic: `.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoPanic::Uncomparable(t) => {
                write!(f, "runtime error: comparing uncomparable type {}", t.name())
            }
            GoPanic::Unhashable(t) => {
                write!(f, "runtime error: hash of unhashable type {}", t.name())
            }
        }
    }
}

impl GoType {
    /// Can Go compare (and hash) values of this type with `==`? Maps and slices cannot.
    #[must_use]
    pub fn is_comparable(self) -> bool {
        !matches!(self, GoType::Map | GoType::Slice)
    }
}

/// Go `==` between two `interface{}` values: values of different dynamic types are unequal,
/// scalars compare by value, and two maps or two slices make Go panic.
///
/// # Errors
/// [`GoPanic::Uncomparable`] when both hold a map, or both a slice.
pub fn go_eq(a: &Value, b: &Value) -> Result<bool, GoPanic> {
    let (ta, tb) = (GoType::of(a), GoType::of(b));
    if ta != tb {
        return Ok(false);
    }
    if !ta.is_comparable() {
        return Err(GoPanic::Uncomparable(ta));
    }
    Ok(ScalarKey::of(a) == ScalarKey::of(b))
}

/// `v` as a key of a Go `map[interface{}]T` (which hashes it).
///
/// # Errors
/// [`GoPanic::Unhashable`] for a map or a slice.
pub fn go_hash_key(v: &Value) -> Result<ScalarKey<'_>, GoPanic> {
    ScalarKey::of(v).ok_or_else(|| GoPanic::Unhashable(GoType::of(v)))
}

/// What a sequential scan comparing `value` with Go `==` against each of `keys` in turn meets
/// first, for a `value` Go cannot compare: the panic if some key has its type (a map never
/// equals anything, so no earlier match stops the scan), `None` if none has.
#[must_use]
pub fn scan_panic<'k>(value: &Value, keys: impl IntoIterator<Item = &'k Value>) -> Option<GoPanic> {
    let t = GoType::of(value);
    if t.is_comparable() {
        return None;
    }
    keys.into_iter()
        .any(|k| GoType::of(k) == t)
        .then_some(GoPanic::Uncomparable(t))
}

/// Position of the first key in a key list (see `order::order_keys`): the reference's `index`,
/// in O(1) after an O(n) build.
pub struct FirstIndex<'a> {
    map: FastMap<ScalarKey<'a>, usize>,
    /// Does the list hold a map key, a slice key (which Go's scan would panic on)?
    has_map: bool,
    has_slice: bool,
}

impl<'a> FirstIndex<'a> {
    #[must_use]
    pub fn new(keys: &'a [Value]) -> Self {
        let mut map = FastMap::with_capacity_and_hasher(keys.len(), Default::default());
        let (mut has_map, mut has_slice) = (false, false);
        for (i, k) in keys.iter().enumerate() {
            match k {
                Value::Object(_) => has_map = true,
                Value::Array(_) => has_slice = true,
                _ => {
                    if let Some(k) = ScalarKey::of(k) {
                        map.entry(k).or_insert(i);
                    }
                }
            }
        }
        FirstIndex {
            map,
            has_map,
            has_slice,
        }
    }

    /// Where the key `key` first appears.
    #[must_use]
    pub fn get_key(&self, key: ScalarKey<'_>) -> Option<usize> {
        self.map.get(&key).copied()
    }

    /// The reference's `index` for the key `key`: where it first appears, as Go's scan with `==`
    /// finds it, or the panic that scan meets (a map key against a map key in the list).
    ///
    /// # Errors
    /// [`GoPanic::Uncomparable`] for a map or slice key when the list holds one of its type.
    pub fn go_index(&self, key: &Value) -> Result<Option<usize>, GoPanic> {
        match key {
            Value::Object(_) if self.has_map => Err(GoPanic::Uncomparable(GoType::Map)),
            Value::Array(_) if self.has_slice => Err(GoPanic::Uncomparable(GoType::Slice)),
            Value::Object(_) | Value::Array(_) => Ok(None),
            _ => Ok(ScalarKey::of(key).and_then(|k| self.get_key(k))),
        }
    }

    /// [`FirstIndex::go_index`] of a list item: a map matched by `merge_key` (missing = nil,
    /// as Go's map index gives; a non-map item = nil, as the reference's `getValFn`), or a
    /// primitive itself.
    ///
    /// # Errors
    /// As [`FirstIndex::go_index`].
    pub fn go_index_item(
        &self,
        item: &Value,
        merge_key: Option<&str>,
    ) -> Result<Option<usize>, GoPanic> {
        match (merge_key, item) {
            (Some(key), Value::Object(m)) => self.go_index(m.get(key).unwrap_or(&Value::Null)),
            (Some(_), _) => self.go_index(&Value::Null),
            (None, v) => self.go_index(v),
        }
    }
}

/// The reference's `sortScalars`: by `%v` text.
pub fn sort_scalars(list: &mut Vec<Value>) {
    let mut keyed: Vec<(String, Value)> = list.drain(..).map(|v| (sprint(&v), v)).collect();
    go_sort_by_text(&mut keyed, |(text, _)| text);
    list.extend(keyed.into_iter().map(|(_, v)| v));
}

/// Go's `sort.Sort` with the reference's comparator `less(i, j) = text(i) <= text(j)`
/// ([`super::gosort`]): with duplicate texts (duplicate merge keys) the order of the equal items
/// is Go's, which for up to 12 items (insertion sort with `<=`) reverses their runs.
pub fn go_sort_by_text<T>(items: &mut [T], text: impl Fn(&T) -> &str) {
    super::gosort::sort(items, |a, b| {
        cmp_text(text(a), text(b)) != Ordering::Greater
    });
}

/// Compare two texts the way the reference compares `%v` strings (byte order).
#[must_use]
pub fn cmp_text(a: &str, b: &str) -> Ordering {
    a.as_bytes().cmp(b.as_bytes())
}

/// Does the list hold the same primitive twice (as `deduplicateScalars` compares them)? Also
/// true when it holds a map or a slice: those need the reference's pairwise walk, which may
/// panic.
pub fn has_duplicate_scalars(list: &[Value]) -> bool {
    let mut seen = FastSet::with_capacity_and_hasher(list.len(), Default::default());
    list.iter().any(|v| match ScalarKey::of(v) {
        Some(k) => !seen.insert(k),
        None => true,
    })
}

/// The reference's `deduplicateScalars`, including the order it leaves behind: a later
/// duplicate's slot is filled with the current last element. Linear when there are no
/// duplicates (the usual case); the reference's exact algorithm otherwise.
///
/// # Errors
/// The panic of Go's `s[i] == s[j]` on two maps or two slices (the reference only calls it on
/// lists of one scalar type, where it cannot happen).
pub fn deduplicate_scalars(list: &mut Vec<Value>) -> Result<(), GoPanic> {
    if !has_duplicate_scalars(list) {
        return Ok(());
    }
    let mut length = list.len().saturating_sub(1);
    let mut i = 0;
    while i < length {
        let mut j = i + 1;
        while j <= length {
            if go_eq(&list[i], &list[j])? {
                list.swap(j, length);
                list.truncate(length);
                length -= 1;
            } else {
                j += 1;
            }
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn sprint_is_go_percent_v() {
        assert_eq!(sprint(&json!(null)), "<nil>");
        assert_eq!(
            sprint(&json!({"b": 1, "a": [true, "x"]})),
            "map[a:[true x] b:1]"
        );
        assert_eq!(sprint(&json!(1.5)), "1.5");
        assert_eq!(sprint(&json!(1_000_000.0)), "1e+06");
        assert_eq!(sprint(&json!(123_456.0)), "123456");
        assert_eq!(sprint(&json!(0.0001)), "0.0001");
        assert_eq!(sprint(&json!(0.00001)), "1e-05");
        assert_eq!(
            sprint(&json!(3.402_823_466_385_288_6e38)),
            "3.4028234663852886e+38"
        );
    }

    #[test]
    fn go_types_keep_int_and_float_apart() {
        assert_eq!(GoType::of(&json!(0)), GoType::Int64);
        assert_eq!(GoType::of(&json!(0.0)), GoType::Float64);
        assert_eq!(go_eq(&json!(0), &json!(0.0)), Ok(false));
        assert_eq!(go_eq(&json!("a"), &json!("a")), Ok(true));
    }

    #[test]
    fn go_eq_panics_on_two_maps_or_two_slices_only() {
        let map = GoPanic::Uncomparable(GoType::Map);
        assert_eq!(go_eq(&json!({"a": 1}), &json!({"a": 1})), Err(map));
        assert_eq!(go_eq(&json!({}), &json!({"b": 2})), Err(map));
        assert_eq!(
            go_eq(&json!([1]), &json!([1])),
            Err(GoPanic::Uncomparable(GoType::Slice))
        );
        // Different dynamic types are unequal, whatever they are.
        assert_eq!(go_eq(&json!({"a": 1}), &json!("a")), Ok(false));
        assert_eq!(go_eq(&json!([1]), &json!({"a": 1})), Ok(false));
        assert_eq!(go_eq(&json!(null), &json!({})), Ok(false));
        assert_eq!(go_eq(&json!(null), &json!(null)), Ok(true));
        assert_eq!(
            map.to_string(),
            "runtime error: comparing uncomparable type map[string]interface {}"
        );
        assert_eq!(
            go_hash_key(&json!([1])).map_err(|p| p.to_string()),
            Err("runtime error: hash of unhashable type []interface {}".to_owned())
        );
        assert_eq!(go_hash_key(&json!("x")), Ok(ScalarKey::Str("x")));
    }

    #[test]
    fn scan_panic_needs_a_key_of_the_same_type() {
        let keys = [json!("a"), json!([1]), json!({"v": 1})];
        assert_eq!(scan_panic(&json!("a"), &keys), None);
        assert_eq!(
            scan_panic(&json!({"v": 2}), &keys),
            Some(GoPanic::Uncomparable(GoType::Map))
        );
        assert_eq!(scan_panic(&json!({"v": 2}), &keys[..2]), None);
    }

    #[test]
    fn deduplicate_scalars_fills_holes_from_the_end() {
        let mut v = vec![json!("a"), json!("b"), json!("a"), json!("c")];
        deduplicate_scalars(&mut v).unwrap();
        assert_eq!(v, vec![json!("a"), json!("b"), json!("c")]);
        let mut v = vec![json!(1), json!(1), json!(2), json!(3)];
        deduplicate_scalars(&mut v).unwrap();
        assert_eq!(v, vec![json!(1), json!(3), json!(2)]);
        let mut v = vec![json!("a"), json!({"k": 1}), json!({"k": 1})];
        assert_eq!(
            deduplicate_scalars(&mut v),
            Err(GoPanic::Uncomparable(GoType::Map))
        );
    }
}
