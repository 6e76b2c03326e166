//! Indexing a [`Value`] by key or position: [`ValueIndex`], what [`Value::get`] takes, and
//! `value["key"]` / `value[0]`, which give `null` where there is nothing.

use super::{Map, NULL, Str, Value};

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
