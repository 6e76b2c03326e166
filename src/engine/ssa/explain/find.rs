//! The value at a path ([`value_at`]), and one step of it from a value ([`Finder`]), with the items of a long list found by a hash
//! of their key fields instead of a scan (a plan of 6,000 containers asks for each of them).

use std::hash::{BuildHasher, Hash, Hasher};

use crate::engine::gofmt::FastMap;

use crate::engine::ssa::path::{Path, PathElement};
use crate::engine::ssa::schema::{ListView, Schema};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::list_item_element;
use crate::value::{Str, Value};

/// Lists up to this long are scanned.
const SCANNED_MAX: usize = 8;

/// The children of one value, looked up by path element.
pub(super) struct Finder<'v> {
    value: Option<&'v Value>,
    /// Per list of key names: the first item holding each combination of key values, by a
    /// hash of them (a collision only sends the lookup to the scan).
    by_names: Vec<(Vec<Str>, FastMap<u64, usize>)>,
    hasher: foldhash::fast::FixedState,
    /// The items as the schema names them (a missing key field takes its default), sorted,
    /// with their positions: made on the first key no item holds as written (`Some(None)`:
    /// no item lacks a key field, or the schema names no list here; a miss is no item then).
    named: Option<Option<Vec<(PathElement, usize)>>>,
}

impl<'v> Finder<'v> {
    pub(super) fn new(value: Option<&'v Value>) -> Finder<'v> {
        Finder {
            value,
            by_names: Vec::new(),
            hasher: foldhash::fast::FixedState::default(),
            named: None,
        }
    }

    /// [`Finder::child_at`], and for a key no item holds as written, the item the schema
    /// names so (`list`: the list here): one whose key field is missing takes the field's
    /// default, as sets name it (a port without its `protocol` is `protocol="TCP"`).
    #[inline]
    pub(super) fn child_at_named<'s>(
        &mut self,
        pe: &PathElement,
        list: impl FnOnce() -> Option<(&'s Schema, ListView<'s>)>,
    ) -> Option<(u32, &'v Value)> {
        match self.child_at(pe) {
            Some(found) => Some(found),
            None => self.named_child(pe, list),
        }
    }

    /// [`Finder::child_at_named`] once the key is not found as written (out of line: rare).
    #[inline(never)]
    fn named_child<'s>(
        &mut self,
        pe: &PathElement,
        list: impl FnOnce() -> Option<(&'s Schema, ListView<'s>)>,
    ) -> Option<(u32, &'v Value)> {
        let PathElement::Key(keys) = pe else {
            return None;
        };
        let items = self.value?.as_array()?;
        let named = self.named.get_or_insert_with(|| {
            // Only an item without one of the key fields can be named otherwise than as
            // it is written.
            let lacks = |item: &Value| keys.iter().any(|(k, _)| item.get(k.as_str()).is_none());
            if !items.iter().any(lacks) {
                return None;
            }
            let (schema, list) = list()?;
            let mut named: Vec<(PathElement, usize)> = items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| Some((list_item_element(schema, &list, item).ok()?, i)))
                .collect();
            // Stable: the first of items named alike comes first, as the scan finds it.
            named.sort_by(|a, b| a.0.cmp(&b.0));
            Some(named)
        });
        let named = named.as_ref()?;
        let (found, i) = named.get(named.partition_point(|(x, _)| x < pe))?;
        if found != pe {
            return None;
        }
        Some((u32::try_from(*i).ok()?, items.get(*i)?))
    }

    /// The child at `pe`, as [`super::value_at`] finds it.
    pub(super) fn child(&mut self, pe: &PathElement) -> Option<&'v Value> {
        self.child_at(pe).map(|(_, v)| v)
    }

    /// The child at `pe` and its position in the value (a map's entry, a list's item).
    pub(super) fn child_at(&mut self, pe: &PathElement) -> Option<(u32, &'v Value)> {
        let cur = self.value?;
        let (at, child) = match pe {
            PathElement::Field(name) => cur.as_object()?.get_full(name.as_str())?,
            PathElement::Key(keys) => self.keyed(cur.as_array()?, keys)?,
            PathElement::Value(want) => cur
                .as_array()?
                .iter()
                .enumerate()
                .find(|(_, item)| *item == want)?,
            PathElement::Index(i) => {
                let i = usize::try_from(*i).ok()?;
                (i, cur.as_array()?.get(i)?)
            }
        };
        Some((u32::try_from(at).ok()?, child))
    }

    /// The first item whose key fields all equal `keys`, and its position.
    fn keyed(&mut self, items: &'v [Value], keys: &[(Str, Value)]) -> Option<(usize, &'v Value)> {
        let matches = |item: &Value| {
            keys.iter()
                .all(|(k, want)| item.get(k.as_str()).is_some_and(|got| got == want))
        };
        let scan = || items.iter().enumerate().find(|(_, item)| matches(item));
        if items.len() <= SCANNED_MAX {
            return scan();
        }
        // Only keys of strings, integers, booleans and nulls are hashed: for those, equal
        // values are equal text (a float's -0.0 is not), so a miss is no item.
        let hasher = &self.hasher;
        let Some(want) = signature(hasher, keys.iter().map(|(k, v)| (k.as_str(), Some(v)))) else {
            return scan();
        };
        let at = match self.by_names.iter().position(|(names, _)| {
            names
                .iter()
                .map(Str::as_str)
                .eq(keys.iter().map(|(k, _)| k.as_str()))
        }) {
            Some(at) => at,
            None => {
                let names: Vec<Str> = keys.iter().map(|(k, _)| k.clone()).collect();
                let mut index = FastMap::with_capacity_and_hasher(items.len(), Default::default());
                for (i, item) in items.iter().enumerate() {
                    let fields = names.iter().map(|n| (n.as_str(), item.get(n.as_str())));
                    if let Some(sig) = signature(hasher, fields) {
                        index.entry(sig).or_insert(i);
                    }
                }
                self.by_names.push((names, index));
                self.by_names.len() - 1
            }
        };
        let i = *self.by_names[at].1.get(&want)?;
        items
            .get(i)
            .filter(|item| matches(item))
            .map(|item| (i, item))
            .or_else(scan)
    }
}

/// A hash of the key fields, `None` when one is missing or not a plain scalar.
fn signature<'a>(
    hasher: &foldhash::fast::FixedState,
    fields: impl Iterator<Item = (&'a str, Option<&'a Value>)>,
) -> Option<u64> {
    let mut h = hasher.build_hasher();
    for (name, v) in fields {
        name.hash(&mut h);
        match v? {
            Value::Null => h.write_u8(0),
            Value::Bool(b) => {
                h.write_u8(1);
                b.hash(&mut h);
            }
            Value::Number(n) if n.is_i64() => {
                h.write_u8(2);
                n.as_i64()?.hash(&mut h);
            }
            Value::Number(n) if n.is_u64() => {
                h.write_u8(2);
                n.as_u64()?.hash(&mut h);
            }
            Value::String(s) => {
                h.write_u8(3);
                s.as_str().hash(&mut h);
            }
            _ => return None,
        }
    }
    Some(h.finish())
}

/// The paths of `set` whose value in `obj` is a scalar (neither a map nor a list), found in
/// one walk of the set beside the object (each long list looked up by an index, as the plan's
/// walk does) rather than one [`value_at`] per path. `metadata.managedFields` is not read.
#[must_use]
pub fn scalar_paths(obj: &Value, set: &Set) -> Set {
    fn walk(set: &Set, v: Option<&Value>, path: &mut Path, out: &mut Vec<Path>) {
        if path.len() > crate::engine::MAX_DEPTH {
            return;
        }
        let mut finder = Finder::new(v);
        let in_metadata = path.len() == 1 && path[0].as_field() == Some("metadata");
        let managed_fields =
            |pe: &PathElement| in_metadata && pe.as_field() == Some("managedFields");
        for m in set.members() {
            if managed_fields(m) {
                continue;
            }
            if finder
                .child(m)
                .is_some_and(|v| !v.is_object() && !v.is_array())
            {
                let mut p = path.clone();
                p.push(m.clone());
                out.push(p);
            }
        }
        for (pe, child) in set.children() {
            let below = if managed_fields(pe) {
                None
            } else {
                finder.child(pe)
            };
            path.push(pe.clone());
            walk(child, below, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(set, Some(obj), &mut Vec::new(), &mut out);
    Set::from_unsorted_paths(out)
}

/// The value at a path of an object.
#[must_use]
pub fn value_at<'v>(v: &'v Value, path: &[PathElement]) -> Option<&'v Value> {
    let mut cur = v;
    for pe in path {
        cur = match pe {
            PathElement::Field(name) => cur.get(name.as_str())?,
            PathElement::Key(keys) => cur.as_array()?.iter().find(|item| {
                keys.iter()
                    .all(|(k, want)| item.get(k.as_str()).is_some_and(|got| got == want))
            })?,
            PathElement::Value(want) => cur.as_array()?.iter().find(|item| *item == want)?,
            PathElement::Index(i) => cur.as_array()?.get(usize::try_from(*i).ok()?)?,
        };
    }
    Some(cur)
}
