//! Walking list fields, one per list strategy: merge-keyed lists (elements matched by their
//! merge key), sets of primitives (`merge` on a primitive list) and atomic lists (replaced
//! whole), and the item indexes they match elements with.

use std::sync::Arc;

use super::decide::{element_action, element_reason, explain_removal, list_kind_atomic};
use super::quad::{Quad, member_of};
use super::{Action, Walker};
use crate::engine::gofmt::{self, ScalarKey};
use crate::engine::plan::{FieldKind, PathText, Seg, Table};
use crate::engine::schema::Meta;
use crate::value::Value;

impl<'v> Walker<'v> {
    pub(super) fn keyed_list(
        &mut self,
        q: Quad<'v>,
        meta: Option<Meta<'_>>,
        key: &str,
        removed: Option<&str>,
        depth: usize,
    ) {
        let (l, c, v, r, p) = (items(q.l), items(q.c), items(q.v), items(q.r), items(q.p));
        let mut seen = gofmt::FastSet::default();
        let mut order: Vec<&Value> = Vec::new();
        for item in r.iter().chain(&v).chain(&c).chain(&l) {
            if let Some(kv) = member_of(item, key)
                && let Some(sk) = ScalarKey::of(kv)
                && seen.insert(sk)
            {
                order.push(kv);
            }
        }
        let (il, ic, iv, ir, ip) = (
            index_by(&l, Some(key)),
            index_by(&c, Some(key)),
            index_by(&v, Some(key)),
            index_by(&r, Some(key)),
            index_by(&p, Some(key)),
        );
        let find = |index: &Index<'v>, kv: &'v Value| {
            ScalarKey::of(kv).and_then(|k| index.get(&k).copied())
        };
        let key_name: Arc<str> = key.into();
        let kind = FieldKind::KeyedList(key_name.clone());
        for kv in order {
            let el = Quad::found(
                [find(&il, kv), find(&ic, kv), find(&iv, kv), find(&ir, kv)],
                find(&ip, kv),
            );
            let seg = Seg::Merge {
                key: key_name.clone(),
                value: gofmt::sprint(kv).into(),
            };
            let mut reason = element_reason(&el, Table::ListElement, kind.clone());
            if el.p.and_then(|p| p.get("$patch")).and_then(Value::as_str) == Some("delete") {
                reason.directive = Some("$patch: delete".into());
            }
            let action = element_action(&el);
            explain_removal(&mut reason, action, removed);
            self.enter(seg, action, reason, [None; 3], &el, true);
            let gone = (action == Action::Delete).then(|| {
                format!(
                    "{} leaves live, and with it this field",
                    PathText(&self.path)
                )
            });
            self.object(el, meta, gone.as_deref().or(removed), depth + 1);
            self.leave();
        }
    }

    pub(super) fn set_list(
        &mut self,
        q: Quad<'v>,
        field: &str,
        parent_patch: Option<&Value>,
        removed: Option<&str>,
    ) {
        let (l, c, v, r) = (items(q.l), items(q.c), items(q.v), items(q.r));
        let (il, ic, iv, ir) = (
            index_by(&l, None),
            index_by(&c, None),
            index_by(&v, None),
            index_by(&r, None),
        );
        let deleted = parent_patch
            .and_then(|p| p.get(format!("$deleteFromPrimitiveList/{field}")))
            .and_then(Value::as_array);
        let mut seen = gofmt::FastSet::default();
        for item in r.iter().chain(&v).chain(&c).chain(&l) {
            let Some(sk) = ScalarKey::of(item) else {
                continue;
            };
            if !seen.insert(sk) {
                continue;
            }
            let has = |index: &Index<'v>| index.get(&sk).copied();
            let el = Quad::found([has(&il), has(&ic), has(&iv), has(&ir)], None);
            let mut reason = element_reason(&el, Table::ListElement, FieldKind::PrimitiveList);
            if deleted.is_some_and(|d| d.iter().any(|x| gofmt::go_eq(x, item) == Ok(true))) {
                reason.directive = Some(format!("$deleteFromPrimitiveList/{field}"));
            }
            let action = element_action(&el);
            explain_removal(&mut reason, action, removed);
            // No values for the warnings: a set's elements hold no one-of, and are never
            // compared with last-applied.
            let seg = Seg::Item(gofmt::sprint(item).into());
            self.enter(seg, action, reason, [None; 3], &el, false);
            self.leave();
        }
    }

    pub(super) fn atomic_list(&mut self, q: Quad<'v>, removed: Option<&str>) {
        let (l, c, v, r) = (slice(q.l), slice(q.c), slice(q.v), slice(q.r));
        for i in 0..v.len().max(r.len()).max(c.len()) {
            let at = |list: &'v [Value]| list.get(i).map(|x| (i, x));
            let el = Quad::found([at(l), at(c), at(v), at(r)], None);
            if el.v.is_none() && el.r.is_none() {
                continue;
            }
            let mut reason =
                element_reason(&el, Table::ReplacedElement, list_kind_atomic(self.mode));
            let action = element_action(&el);
            if let (Action::Delete, Some(why)) = (action, removed) {
                reason.note = Some(why.to_owned());
            }
            self.enter(Seg::Index(i), action, reason, [el.v, el.r, el.l], &el, true);
            self.leave();
        }
    }
}

pub(super) fn items(d: Option<&Value>) -> Vec<&Value> {
    d.and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

pub(super) fn slice(d: Option<&Value>) -> &[Value] {
    d.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// A list's items (with their positions) by their merge key's value, or by themselves.
pub(super) type Index<'v> = gofmt::FastMap<ScalarKey<'v>, (usize, &'v Value)>;

/// Items by their merge key's value (or by themselves), first occurrence.
pub(super) fn index_by<'v>(list: &[&'v Value], key: Option<&str>) -> Index<'v> {
    let mut index = gofmt::FastMap::with_capacity_and_hasher(list.len(), Default::default());
    for (i, item) in list.iter().enumerate() {
        let k = match key {
            Some(key) => member_of(item, key).and_then(ScalarKey::of),
            None => ScalarKey::of(item),
        };
        if let Some(k) = k {
            index.entry(k).or_insert((i, *item));
        }
    }
    index
}
