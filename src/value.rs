//! The document value: JSON's data model, laid out for size.
//!
//! Every document the engine reads, merges and writes is a [`Value`]. It has the shape and the
//! method names of `serde_json::Value` with `preserve_order` (objects keep their keys in the
//! order written), so that code reads the same; what differs is the layout, because a 10 MB
//! object is held four or five times over during a plan (last-applied, local, live, result,
//! patch):
//! - strings and keys are [`CompactString`]s: up to 24 bytes inline, no allocation (almost every
//!   key and most values of a Kubernetes object);
//! - an object is a plain vector of `(key, value)` pairs, searched in order while it is small,
//!   with a hash index built only once it has more than [`UNINDEXED_MAX`] keys.
//!
//! A parsed object takes about a third of the memory `serde_json::Value` takes (measured on an
//! 8.9 MB Deployment: 29 MB against 85 MB).
//!
//! Equality of objects ignores key order, as `serde_json`'s does; `remove` is `swap_remove`,
//! as `serde_json`'s is with `preserve_order`.

use std::fmt;
use std::hash::{BuildHasher, RandomState};

use compact_str::CompactString;
use hashbrown::HashTable;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use serde_json::Number;

/// A string of a document: a key or a string value.
pub type Str = CompactString;

/// A JSON value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(Str),
    Array(Vec<Value>),
    Object(Map),
}

/// The most keys an object has without a hash index: up to this many it is searched in order
/// (comparing a few short strings is faster than hashing one); past it, an index is built.
pub const UNINDEXED_MAX: usize = 16;

/// A JSON object: keys in the order they were inserted.
#[derive(Clone, Default)]
pub struct Map {
    entries: Vec<(Str, Value)>,
    /// Positions in `entries` by key; only for objects of more than [`UNINDEXED_MAX`] keys.
    index: Option<Box<Index>>,
}

#[derive(Clone)]
struct Index {
    table: HashTable<u32>,
    hasher: RandomState,
}

impl Index {
    fn build(entries: &[(Str, Value)]) -> Box<Index> {
        let mut index = Box::new(Index {
            table: HashTable::with_capacity(entries.len()),
            hasher: RandomState::new(),
        });
        for (i, (k, _)) in entries.iter().enumerate() {
            index.push(entries, k, i);
        }
        index
    }

    fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(key)
    }

    /// Record that `entries[i]` holds `key` (a new key).
    fn push(&mut self, entries: &[(Str, Value)], key: &str, i: usize) {
        let hash = self.hash(key);
        let hasher = &self.hasher;
        // Positions are below `u32::MAX`: an object that large does not fit a 200 MB file.
        let at = u32::try_from(i).unwrap_or(u32::MAX);
        self.table.insert_unique(hash, at, |&j| {
            entries
                .get(j as usize)
                .map_or(0, |(k, _)| hasher.hash_one(k.as_str()))
        });
    }

    fn find(&self, entries: &[(Str, Value)], key: &str) -> Option<usize> {
        self.table
            .find(self.hash(key), |&j| {
                entries.get(j as usize).is_some_and(|(k, _)| k == key)
            })
            .map(|&j| j as usize)
    }

    /// Forget position `i` (of `key`); if `moved` is `Some(from)`, the entry at `from` now sits
    /// at `i` (a swap remove).
    fn forget(&mut self, key: &str, i: usize, moved: Option<(&str, usize)>) {
        let hash = self.hash(key);
        if let Ok(slot) = self.table.find_entry(hash, |&j| j as usize == i) {
            slot.remove();
        }
        if let Some((moved_key, from)) = moved {
            let hash = self.hash(moved_key);
            if let Some(j) = self.table.find_mut(hash, |&j| j as usize == from) {
                *j = u32::try_from(i).unwrap_or(u32::MAX);
            }
        }
    }
}

impl Map {
    #[must_use]
    pub fn new() -> Map {
        Map::default()
    }

    #[must_use]
    pub fn with_capacity(n: usize) -> Map {
        Map {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.index = None;
    }

    /// Give back room the object does not use.
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
        if let Some(index) = &mut self.index {
            let entries = &self.entries;
            let hasher = &index.hasher;
            index.table.shrink_to_fit(|&j| {
                entries
                    .get(j as usize)
                    .map_or(0, |(k, _)| hasher.hash_one(k.as_str()))
            });
        }
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.find(&self.entries, key),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    fn reindex(&mut self) {
        self.index = (self.entries.len() > UNINDEXED_MAX).then(|| Index::build(&self.entries));
    }

    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// The position of `key` and its value.
    #[must_use]
    pub fn get_full(&self, key: &str) -> Option<(usize, &Value)> {
        self.position(key).map(|i| (i, &self.entries[i].1))
    }

    /// The entry at position `i` (insertion order).
    #[must_use]
    pub fn get_index(&self, i: usize) -> Option<(&Str, &Value)> {
        self.entries.get(i).map(|(k, v)| (k, v))
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.position(key).map(|i| &mut self.entries[i].1)
    }

    #[must_use]
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Set `key` to `value`: a key already present keeps its place and its old value is
    /// returned; a new key goes last.
    pub fn insert(&mut self, key: impl Into<Str>, value: Value) -> Option<Value> {
        let key = key.into();
        if let Some(i) = self.position(&key) {
            return Some(std::mem::replace(&mut self.entries[i].1, value));
        }
        self.push_new(key, value);
        None
    }

    /// Append a key known not to be present.
    fn push_new(&mut self, key: Str, value: Value) -> usize {
        let i = self.entries.len();
        self.entries.push((key, value));
        match &mut self.index {
            Some(index) => index.push(&self.entries, &self.entries[i].0, i),
            None if self.entries.len() > UNINDEXED_MAX => self.reindex(),
            None => {}
        }
        i
    }

    /// Insert at position `at` (shifting the ones after it); a key already present is moved
    /// there. Returns the old value.
    pub fn shift_insert(&mut self, at: usize, key: impl Into<Str>, value: Value) -> Option<Value> {
        let key = key.into();
        let old = self.shift_remove(&key);
        let at = at.min(self.entries.len());
        self.entries.insert(at, (key, value));
        self.reindex();
        old
    }

    /// Remove `key` (the last entry takes its place, as `serde_json`'s `remove` does with
    /// `preserve_order`).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.swap_remove(key)
    }

    /// Remove `key`; the last entry takes its place.
    pub fn swap_remove(&mut self, key: &str) -> Option<Value> {
        self.swap_remove_entry(key).map(|(_, v)| v)
    }

    /// Remove `key` and return it with its value; the last entry takes its place.
    fn swap_remove_entry(&mut self, key: &str) -> Option<(Str, Value)> {
        let i = self.position(key)?;
        let last = self.entries.len() - 1;
        let (k, v) = self.entries.swap_remove(i);
        if let Some(index) = &mut self.index {
            let moved = (i != last).then(|| (self.entries[i].0.as_str(), last));
            index.forget(&k, i, moved);
        }
        Some((k, v))
    }

    /// Remove `key`; the entries after it keep their order.
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        self.shift_remove_entry(key).map(|(_, v)| v)
    }

    /// Remove `key` and return it with its value; the entries after it keep their order.
    fn shift_remove_entry(&mut self, key: &str) -> Option<(Str, Value)> {
        let i = self.position(key)?;
        let entry = self.entries.remove(i);
        if let Some(index) = &mut self.index {
            // The entries after `i` moved down by one: so do their positions (no rehashing).
            index.forget(&entry.0, i, None);
            for j in index.table.iter_mut() {
                if *j as usize > i {
                    *j -= 1;
                }
            }
        }
        Some(entry)
    }

    /// The entry of `key`, to read or fill in.
    pub fn entry(&mut self, key: impl Into<Str>) -> Entry<'_> {
        let key = key.into();
        match self.position(&key) {
            Some(i) => Entry::Occupied(&mut self.entries[i].1),
            None => Entry::Vacant(self, key),
        }
    }

    /// Keep the entries `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Str, &mut Value) -> bool) {
        let before = self.entries.len();
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.entries.len() != before && self.index.is_some() {
            self.reindex();
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries.iter_mut())
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Str> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// Move every entry of `other` into this map (inserting each), leaving `other` empty.
    pub fn append(&mut self, other: &mut Map) {
        for (k, v) in std::mem::take(other) {
            self.insert(k, v);
        }
    }
}

/// An entry of a [`Map`]: see [`Map::entry`].
pub enum Entry<'a> {
    Occupied(&'a mut Value),
    Vacant(&'a mut Map, Str),
}

impl<'a> Entry<'a> {
    pub fn or_insert(self, value: Value) -> &'a mut Value {
        self.or_insert_with(|| value)
    }

    pub fn or_insert_with(self, make: impl FnOnce() -> Value) -> &'a mut Value {
        match self {
            Entry::Occupied(v) => v,
            Entry::Vacant(map, key) => {
                let i = map.push_new(key, make());
                &mut map.entries[i].1
            }
        }
    }
}

impl PartialEq for Map {
    /// Equal when they hold the same keys with equal values, in any order.
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len()
            && self.entries.iter().enumerate().all(|(i, (k, v))| {
                let same_place = other.entries.get(i).filter(|(ko, _)| ko == k);
                same_place
                    .map(|(_, w)| w)
                    .or_else(|| other.get(k))
                    .is_some_and(|w| v == w)
            })
    }
}

impl Eq for Map {}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The entries of a [`Map`], in order.
pub struct Iter<'a>(std::slice::Iter<'a, (Str, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Str, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The entries of a [`Map`], in order, values writable.
pub struct IterMut<'a>(std::slice::IterMut<'a, (Str, Value)>);

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Str, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for IterMut<'_> {}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Str, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Str, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map {
    type Item = (Str, Value);
    type IntoIter = std::vec::IntoIter<(Str, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Into<Str>> FromIterator<(K, Value)> for Map {
    /// A key given twice keeps its first place and its last value.
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Map {
        let iter = iter.into_iter();
        let mut map = Map::with_capacity(iter.size_hint().0);
        map.extend(iter);
        map
    }
}

impl<K: Into<Str>> Extend<(K, Value)> for Map {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

static NULL: Value = Value::Null;

impl Value {
    /// The value of `key` in an object, or of position `at` in an array.
    #[must_use]
    pub fn get<I: ValueIndex>(&self, at: I) -> Option<&Value> {
        at.index_into(self)
    }

    pub fn get_mut<I: ValueIndex>(&mut self, at: I) -> Option<&mut Value> {
        at.index_into_mut(self)
    }

    #[must_use]
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    #[must_use]
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    #[must_use]
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    #[must_use]
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    #[must_use]
    pub fn is_i64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_i64())
    }

    #[must_use]
    pub fn is_u64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_u64())
    }

    #[must_use]
    pub fn is_f64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_f64())
    }

    #[must_use]
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// The value at a JSON pointer (RFC 6901), e.g. `/metadata/name`.
    #[must_use]
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        pointer_tokens(pointer)?
            .iter()
            .try_fold(self, |at, token| match at {
                Value::Object(m) => m.get(token),
                Value::Array(a) => a.get(array_position(token)?),
                _ => None,
            })
    }

    /// The value at a JSON pointer, writable: see [`Value::pointer`].
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        pointer_tokens(pointer)?
            .iter()
            .try_fold(self, |at, token| match at {
                Value::Object(m) => m.get_mut(token),
                Value::Array(a) => a.get_mut(array_position(token)?),
                _ => None,
            })
    }

    /// Take the value out, leaving `null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

/// The reference tokens of an RFC 6901 pointer (`~1` is `/`, `~0` is `~`); `None` when it is
/// neither empty nor starts with `/`.
fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// An RFC 6901 array position: digits, no leading zero.
fn array_position(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() > 1) {
        return None;
    }
    token.parse().ok()
}

/// What [`Value::get`] takes: a key or a position.
pub trait ValueIndex {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;
}

impl ValueIndex for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array()?.get(*self)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut()?.get_mut(*self)
    }
}

impl ValueIndex for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object()?.get(self)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_object_mut()?.get_mut(self)
    }
}

impl ValueIndex for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }
}

impl ValueIndex for Str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }
}

impl<T: ValueIndex + ?Sized> ValueIndex for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }
}

impl<I: ValueIndex> std::ops::Index<I> for Value {
    type Output = Value;
    /// `null` when there is no such key or position.
    fn index(&self, at: I) -> &Value {
        at.index_into(self).unwrap_or(&NULL)
    }
}

impl std::ops::IndexMut<&str> for Value {
    /// The value of `key`, added as `null` if missing. A value that is not an object becomes
    /// an empty object first (`serde_json` panics there instead).
    fn index_mut(&mut self, key: &str) -> &mut Value {
        if !self.is_object() {
            *self = Value::Object(Map::new());
        }
        match self {
            Value::Object(m) => m.entry(key).or_insert(Value::Null),
            _ => self,
        }
    }
}

impl std::ops::IndexMut<usize> for Value {
    /// Position `at` of an array (a value that is not an array becomes an empty one first);
    /// panics when out of bounds, as a `Vec` does.
    fn index_mut(&mut self, at: usize) -> &mut Value {
        if !self.is_array() {
            *self = Value::Array(Vec::new());
        }
        match self {
            Value::Array(a) => &mut a[at],
            _ => self,
        }
    }
}

impl fmt::Display for Value {
    /// The value as JSON text; `{:#}` indents it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if f.alternate() {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        };
        f.write_str(&text.map_err(|_| fmt::Error)?)
    }
}

macro_rules! eq_via {
    ($($t:ty => $conv:expr),* $(,)?) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                #[allow(clippy::redundant_closure_call)]
                ($conv)(self, other)
            }
        }
        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
    )*};
}

eq_via! {
    str => |v: &Value, s: &str| v.as_str() == Some(s),
    &str => |v: &Value, s: &&str| v.as_str() == Some(*s),
    String => |v: &Value, s: &String| v.as_str() == Some(s.as_str()),
    bool => |v: &Value, b: &bool| v.as_bool() == Some(*b),
    i32 => |v: &Value, n: &i32| v.as_i64() == Some(i64::from(*n)),
    i64 => |v: &Value, n: &i64| v.as_i64() == Some(*n),
    u32 => |v: &Value, n: &u32| v.as_u64() == Some(u64::from(*n)),
    u64 => |v: &Value, n: &u64| v.as_u64() == Some(*n),
    usize => |v: &Value, n: &usize| v.as_u64() == u64::try_from(*n).ok(),
    f64 => |v: &Value, n: &f64| v.as_f64() == Some(*n),
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.into())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s.into())
    }
}

impl From<Str> for Value {
    fn from(s: Str) -> Value {
        Value::String(s)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(n.into())
            }
        }
    )*};
}

from_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl From<f64> for Value {
    /// `null` for NaN and the infinities, as `serde_json` does.
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

impl From<Vec<Value>> for Value {
    fn from(a: Vec<Value>) -> Value {
        Value::Array(a)
    }
}

impl From<serde_json::Value> for Value {
    fn from(v: serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(n),
            serde_json::Value::String(s) => Value::String(s.into()),
            serde_json::Value::Array(a) => Value::Array(a.into_iter().map(Value::from).collect()),
            serde_json::Value::Object(m) => {
                Value::Object(m.into_iter().map(|(k, v)| (k, Value::from(v))).collect())
            }
        }
    }
}

/// Any serializable value as a [`Value`].
///
/// # Errors
/// As `serde_json::to_value`: a map whose keys are not strings.
pub fn to_value<T: Serialize>(t: T) -> Result<Value, serde_json::Error> {
    serde_json::to_value(t).map(Value::from)
}

/// A [`Value`] from JSON-like syntax, as `serde_json::json!` writes it (the values
/// interpolated may be any serializable value, [`Value`]s included).
#[macro_export]
macro_rules! json {
    ($($t:tt)+) => {
        $crate::value::Value::from(::serde_json::json!($($t)+))
    };
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(v) => s.serialize_str(v),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(m) => m.serialize(s),
        }
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            map.serialize_entry(k.as_str(), v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Map, D::Error> {
        match Value::deserialize(d)? {
            Value::Object(m) => Ok(m),
            _ => Err(de::Error::custom("expected a JSON object")),
        }
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::from(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        items.shrink_to_fit();
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::with_capacity(access.size_hint().unwrap_or(0));
        while let Some(key) = access.next_key_seed(KeySeed)? {
            let value = access.next_value()?;
            map.insert(key, value);
        }
        map.shrink_to_fit();
        Ok(Value::Object(map))
    }
}

/// Reads a key straight into a [`Str`] (no `String` in between).
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Str;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Str, D::Error> {
        d.deserialize_str(KeySeed)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E>(self, s: &str) -> Result<Str, E> {
        Ok(Str::from(s))
    }

    fn visit_string<E>(self, s: String) -> Result<Str, E> {
        Ok(Str::from(s))
    }
}

#[cfg(test)]
mod tests;
