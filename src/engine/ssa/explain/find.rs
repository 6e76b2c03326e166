//! One step of [`super::value_at`] from a value, with the items of a long list found by a hash
//! of their key fields instead of a scan (a plan of 6,000 containers asks for each of them).

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::engine::ssa::path::PathElement;
use crate::value::{Str, Value};

/// Lists up to this long are scanned.
const SCANNED_MAX: usize = 8;

/// The children of one value, looked up by path element.
pub(super) struct Finder<'v> {
    value: Option<&'v Value>,
    /// Per list of key names: the first item holding each combination of key values.
    by_names: Vec<(Vec<Str>, HashMap<String, usize>)>,
}

impl<'v> Finder<'v> {
    pub(super) fn new(value: Option<&'v Value>) -> Finder<'v> {
        Finder {
            value,
            by_names: Vec::new(),
        }
    }

    /// The child at `pe`, as [`super::value_at`] finds it.
    pub(super) fn child(&mut self, pe: &PathElement) -> Option<&'v Value> {
        let cur = self.value?;
        match pe {
            PathElement::Field(name) => cur.get(name.as_str()),
            PathElement::Key(keys) => self.keyed(cur.as_array()?, keys),
            PathElement::Value(want) => cur.as_array()?.iter().find(|item| *item == want),
            PathElement::Index(i) => cur.as_array()?.get(usize::try_from(*i).ok()?),
        }
    }

    /// The first item whose key fields all equal `keys`.
    fn keyed(&mut self, items: &'v [Value], keys: &[(Str, Value)]) -> Option<&'v Value> {
        let matches = |item: &Value| {
            keys.iter()
                .all(|(k, want)| item.get(k.as_str()).is_some_and(|got| got == want))
        };
        let scan = || items.iter().find(|item| matches(item));
        if items.len() <= SCANNED_MAX {
            return scan();
        }
        // Only keys of strings, integers, booleans and nulls are hashed: for those, equal
        // values are equal text (a float's -0.0 is not), so a miss is no item.
        let Some(want) = signature(keys.iter().map(|(k, v)| (k.as_str(), Some(v)))) else {
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
                let mut index = HashMap::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let fields = names.iter().map(|n| (n.as_str(), item.get(n.as_str())));
                    if let Some(sig) = signature(fields) {
                        index.entry(sig).or_insert(i);
                    }
                }
                self.by_names.push((names, index));
                self.by_names.len() - 1
            }
        };
        let i = *self.by_names[at].1.get(&want)?;
        items.get(i).filter(|item| matches(item)).or_else(scan)
    }
}

/// The key fields as text, `None` when one is missing or not a plain scalar.
fn signature<'a>(fields: impl Iterator<Item = (&'a str, Option<&'a Value>)>) -> Option<String> {
    let mut out = String::new();
    for (name, v) in fields {
        let _ = write!(out, "{}:{name}", name.len());
        match v? {
            Value::Null => out.push('n'),
            Value::Bool(b) => out.push(if *b { 't' } else { 'f' }),
            Value::Number(n) if n.is_i64() || n.is_u64() => {
                let _ = write!(out, "i{n};");
            }
            Value::String(s) => {
                let _ = write!(out, "s{}:{s}", s.len());
            }
            _ => return None,
        }
    }
    Some(out)
}
