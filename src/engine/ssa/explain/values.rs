//! A field's values before and after, kept without copying what a plan already holds: a map or
//! a list is kept as its place in the object it is in (a migrated object's every list item and
//! map is a field, and copying each copied the object several times over), a scalar as itself,
//! once when it is the same before and after.

use crate::engine::ssa::order;
use crate::value::Value;

/// The objects a plan's fields are read in: the live object before the apply (without its
/// `metadata.managedFields`) and the object it leaves, as the plan's walk read them.
#[derive(Clone, Copy, Debug)]
pub struct Sides<'v> {
    pub before: &'v Value,
    pub after: &'v Value,
}

/// A value as the walk found it, with its position in the value above it (a map's entry, a
/// list's item); `None`: absent.
pub(super) type Found<'v> = Option<(u32, &'v Value)>;

/// Where a value is in an object: from its root, the position of each step down (a map's
/// entry, a list's item).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Place(Box<[u32]>);

impl Place {
    /// The place of the child at `position` of the value at `above`.
    pub(super) fn below(above: &[u32], position: u32) -> Place {
        let mut steps = Vec::with_capacity(above.len() + 1);
        steps.extend_from_slice(above);
        steps.push(position);
        Place(steps.into_boxed_slice())
    }

    /// The value at this place in `root`.
    fn find<'v>(&self, root: &'v Value) -> Option<&'v Value> {
        let mut cur = root;
        for &at in &*self.0 {
            let at = usize::try_from(at).ok()?;
            cur = match cur {
                Value::Object(m) => m.get_index(at)?.1,
                Value::Array(items) => items.get(at)?,
                _ => return None,
            };
        }
        Some(cur)
    }
}

/// One side's value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Held {
    /// A scalar, or a value given whole.
    Copied(Value),
    /// A map or a list, where it is in the side's object.
    At(Place),
}

impl Held {
    /// `v`, found at `position` below `above` in its object.
    pub(super) fn of(v: &Value, above: &[u32], position: u32) -> Held {
        if v.is_object() || v.is_array() {
            Held::At(Place::below(above, position))
        } else {
            Held::Copied(v.clone())
        }
    }

    fn get<'v>(&'v self, object: &'v Value) -> Option<&'v Value> {
        match self {
            Held::Copied(v) => Some(v),
            Held::At(place) => place.find(object),
        }
    }
}

/// Both sides (`None`: absent). Compared as kept (the same plan's objects read alike).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Values {
    Apart(Option<Held>, Option<Held>),
    /// A scalar the same before and after, written alike ([`order::identical`]).
    Same(Value),
}

impl Values {
    /// `before` and `after` (each with its place in its object); a scalar written alike on
    /// both sides kept once.
    pub(super) fn of(
        (before, b_above): (Found<'_>, &[u32]),
        (after, a_above): (Found<'_>, &[u32]),
    ) -> Values {
        if let (Some((_, b)), Some((_, a))) = (before, after)
            && !b.is_object()
            && !b.is_array()
            && order::identical(b, a)
        {
            return Values::Same(b.clone());
        }
        Values::apart((before, b_above), (after, a_above))
    }

    /// `before` and `after` (each with its place in its object), each kept on its own.
    pub(super) fn apart(
        (before, b_above): (Found<'_>, &[u32]),
        (after, a_above): (Found<'_>, &[u32]),
    ) -> Values {
        Values::Apart(
            before.map(|(i, v)| Held::of(v, b_above, i)),
            after.map(|(i, v)| Held::of(v, a_above, i)),
        )
    }

    pub(super) fn before<'v>(&'v self, objects: Sides<'v>) -> Option<&'v Value> {
        match self {
            Values::Apart(b, _) => b.as_ref()?.get(objects.before),
            Values::Same(v) => Some(v),
        }
    }

    pub(super) fn after<'v>(&'v self, objects: Sides<'v>) -> Option<&'v Value> {
        match self {
            Values::Apart(_, a) => a.as_ref()?.get(objects.after),
            Values::Same(v) => Some(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    /// A place finds the value it was taken at, through maps and lists; a place that leads
    /// nowhere finds nothing.
    #[test]
    fn a_place_finds_its_value() {
        let obj = v(r#"{"a":1,"spec":{"xs":[{"n":1},{"n":2,"m":[true,{"k":"v"}]}]}}"#);
        let spec = Place::below(&[], 1);
        assert_eq!(spec.find(&obj), obj.get("spec"));
        let item = Place::below(&[1, 0], 1);
        assert_eq!(item.find(&obj), Some(&obj["spec"]["xs"][1]));
        let deep = Place::below(&[1, 0, 1, 1], 1);
        assert_eq!(deep.find(&obj), Some(&v(r#"{"k":"v"}"#)));
        for nowhere in [
            Place::below(&[], 2),
            Place::below(&[0], 0),
            Place::below(&[1, 0], 5),
        ] {
            assert_eq!(nowhere.find(&obj), None);
        }
        assert_eq!(Place(Box::new([])).find(&obj), Some(&obj));
    }

    /// A scalar the same on both sides is kept once; maps and lists are kept as their places
    /// (read back from the objects), scalars written apart (another number kind, one side
    /// absent) as themselves.
    #[test]
    fn values_are_kept_once_or_by_place() {
        let before = v(r#"{"m":{"x":1,"y":2},"n":1,"s":"a"}"#);
        let after = v(r#"{"s":"a","n":1.0,"m":{"y":2,"x":1}}"#);
        let objects = Sides {
            before: &before,
            after: &after,
        };
        fn at<'v>(o: &'v Value, k: &str) -> Found<'v> {
            o.as_object()
                .and_then(|m| m.get_full(k))
                .map(|(i, v)| (u32::try_from(i).unwrap(), v))
        }
        let same = Values::of((at(&before, "s"), &[]), (at(&after, "s"), &[]));
        assert!(matches!(same, Values::Same(_)));
        assert_eq!(same.before(objects), Some(&Value::from("a")));
        assert_eq!(same.after(objects), Some(&Value::from("a")));
        for k in ["m", "n"] {
            let values = Values::of((at(&before, k), &[]), (at(&after, k), &[]));
            assert!(matches!(values, Values::Apart(..)), "{k}");
            assert_eq!(values.before(objects), before.get(k), "{k}");
            assert_eq!(values.after(objects), after.get(k), "{k}");
            let placed = matches!(values, Values::Apart(Some(Held::At(_)), Some(Held::At(_))));
            assert_eq!(placed, k == "m", "{k}");
        }
        let gone = Values::of((at(&before, "m"), &[]), (None, &[]));
        assert_eq!(gone.before(objects), before.get("m"));
        assert_eq!(gone.after(objects), None);
    }
}
