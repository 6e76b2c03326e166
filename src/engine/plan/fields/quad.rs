//! A field's place in the four documents (and the patch): [`Quad`], found through each
//! document's [`Cursor`] without hashing, and [`same`], the equality that decides `unchanged`.

use crate::value::{Map, Value};

/// The four documents (and the patch) at one place.
#[derive(Clone, Copy, Default)]
pub(super) struct Quad<'v> {
    pub(super) l: Option<&'v Value>,
    pub(super) c: Option<&'v Value>,
    pub(super) v: Option<&'v Value>,
    pub(super) r: Option<&'v Value>,
    pub(super) p: Option<&'v Value>,
    /// Where each of `l`, `c`, `v`, `r` is in its parent (the tree's
    /// [`Doc`](crate::engine::plan::Doc) order).
    pub(super) at: [Option<usize>; 4],
}

/// One document's map, read in the order the walk asks for its keys. The walk goes through
/// the keys in document order, and the documents mostly share it, so the next entry is usually
/// the one asked for: no hashing (in a 100,000-key map every hash lookup is a cache miss).
pub(super) struct Cursor<'v> {
    map: Option<(
        &'v Map,
        std::iter::Peekable<std::iter::Enumerate<crate::value::Iter<'v>>>,
    )>,
}

impl<'v> Cursor<'v> {
    pub(super) fn new(doc: Option<&'v Value>) -> Cursor<'v> {
        Cursor {
            map: doc
                .and_then(Value::as_object)
                .map(|m| (m, m.iter().enumerate().peekable())),
        }
    }

    /// The value of `k` and its position.
    pub(super) fn get(&mut self, k: &str) -> Option<(usize, &'v Value)> {
        let (map, next) = self.map.as_mut()?;
        if let Some((i, (key, v))) = next.peek()
            && key.as_str() == k
        {
            let found = (*i, *v);
            next.next();
            return Some(found);
        }
        member_at(map, k)
    }
}

/// `map.get(k)`, without hashing `k` in a small map (a list element's few keys: comparing
/// them costs less than hashing).
pub(super) fn member<'v>(map: &'v Map, k: &str) -> Option<&'v Value> {
    if map.len() <= 8 {
        map.iter().find_map(|(key, v)| (key == k).then_some(v))
    } else {
        map.get(k)
    }
}

/// [`member`] with its position.
pub(super) fn member_at<'v>(map: &'v Map, k: &str) -> Option<(usize, &'v Value)> {
    if map.len() <= 8 {
        map.iter()
            .enumerate()
            .find_map(|(i, (key, v))| (key == k).then_some((i, v)))
    } else {
        map.get_full(k)
    }
}

/// `v.get(k)` for an object (see [`member`]).
pub(super) fn member_of<'v>(v: &'v Value, k: &str) -> Option<&'v Value> {
    v.as_object().and_then(|m| member(m, k))
}

/// `a == b`, faster where the two hold their keys in the same order (the result is made from
/// live, so they mostly do): entries are compared side by side, by key only from where the
/// orders part (as `==` compares objects: the same keys, each with an equal value).
pub(super) fn same(a: &Value, b: &Value, depth: usize) -> bool {
    if depth > crate::engine::MAX_DEPTH {
        return a == b;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return false;
            }
            let (mut xs, mut ys) = (x.iter(), y.iter());
            loop {
                match (xs.next(), ys.next()) {
                    (Some((kx, vx)), Some((ky, vy))) if kx == ky => {
                        if !same(vx, vy, depth + 1) {
                            return false;
                        }
                    }
                    // The keys before matched one for one: the rest of `x` must be in the rest
                    // of `y`.
                    (Some(first), Some(_)) => {
                        return std::iter::once(first)
                            .chain(xs)
                            .all(|(k, v)| y.get(k).is_some_and(|w| same(v, w, depth + 1)));
                    }
                    (None, None) => return true,
                    _ => return false,
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q, depth + 1))
        }
        _ => a == b,
    }
}

impl<'v> Quad<'v> {
    /// The values found (with their positions) in last-applied, local, live and result, and
    /// the patch's.
    pub(super) fn found(
        docs: [Option<(usize, &'v Value)>; 4],
        p: Option<(usize, &'v Value)>,
    ) -> Quad<'v> {
        let [l, c, v, r] = docs.map(|d| d.map(|x| x.1));
        Quad {
            l,
            c,
            v,
            r,
            p: p.map(|x| x.1),
            at: docs.map(|d| d.map(|x| x.0)),
        }
    }

    /// The first present value, to tell the field's shape.
    pub(super) fn shape(&self) -> Option<&'v Value> {
        self.c.or(self.v).or(self.r).or(self.l)
    }
}

#[cfg(test)]
mod same_tests {
    use crate::json;

    use super::same;

    /// `same` is `==`: key order aside, over nesting, arrays and number kinds.
    #[test]
    pub(super) fn same_is_equality() {
        let cases = [
            (json!({"a": 1, "b": [1, 2]}), json!({"a": 1, "b": [1, 2]})),
            (json!({"a": 1, "b": [1, 2]}), json!({"b": [1, 2], "a": 1})),
            (
                json!({"a": 1, "b": 2, "c": 3}),
                json!({"a": 1, "c": 3, "b": 2}),
            ),
            (
                json!({"a": 1, "b": 2, "c": 3}),
                json!({"a": 1, "c": 3, "d": 2}),
            ),
            (
                json!({"a": {"x": 1, "y": 2}}),
                json!({"a": {"y": 2, "x": 1}}),
            ),
            (
                json!({"a": {"x": 1, "y": 2}}),
                json!({"a": {"y": 2, "x": 2}}),
            ),
            (json!({"a": 1}), json!({"a": 1.0})),
            (json!([1, {"k": "v"}]), json!([1, {"k": "v"}])),
            (json!([1, {"k": "v"}]), json!([{"k": "v"}, 1])),
            (json!({"a": null}), json!({})),
            (json!("s"), json!("s")),
        ];
        for (a, b) in &cases {
            assert_eq!(same(a, b, 0), a == b, "{a} {b}");
            assert_eq!(same(b, a, 0), b == a, "{b} {a}");
        }
    }
}
