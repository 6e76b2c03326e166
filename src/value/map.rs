//! [`Map`], the object of a [`Value`]: entries in insertion order, the hash index built past
//! [`UNINDEXED_MAX`] keys, [`Entry`], equality that ignores key order, and iteration.

use std::fmt;
use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;

use super::{NULL, Str, UNINDEXED_MAX, Value};

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
                entries
                    .get(j as usize)
                    .is_some_and(|(k, _)| super::name::same(k, key))
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
            None => self
                .entries
                .iter()
                .position(|(k, _)| super::name::same(k, key)),
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

    /// Append a key known not to be present (a packed object's keys, which came from a map:
    /// [`super::packed`]; keys made from distinct elements, as FieldsV1's): no lookup first.
    /// A key already present would be there twice (checked in debug builds).
    pub fn push_unique(&mut self, key: impl Into<Str>, value: Value) {
        let key = key.into();
        debug_assert!(self.position(&key).is_none(), "{key} is already present");
        self.push_new(key, value);
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
