//! Every field's action and why.
//!
//! A field's action is what happens to the live object (live → result): `add`, `set`, `clear`,
//! `retain` (live-only, kept), `unchanged`; list elements are `add`, `set`, `delete`, `keep`,
//! `unchanged`. Computing the action from the two documents makes it agree with the patch by
//! construction. The reason says which row of kubectl's merge table applies (is the field in the
//! configuration file? in the live object? in last-applied?), the field's kind and list strategy,
//! and the patch directive involved; where the result differs from what the row alone predicts
//! (`$retainKeys` clearing a key, a replaced list), the note says why.

use std::sync::Arc;

use crate::value::{Map, Value};
use serde::Serialize;

use super::PatchType;
use super::path::{PathText, Seg};
use super::tables::{FieldKind, Presence, Reason, Table};
use super::tree::{self, FieldId, Own as OwnFlags, Tree};
use super::warnings::{self, Warning};
use crate::engine::gofmt::{self, ScalarKey};
use crate::engine::schema::Meta;
use crate::engine::smp::{RETAIN_KEYS_DIRECTIVE, Strategy, strategy_of};

/// The documents a plan compares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Docs<'a> {
    pub last_applied: Option<&'a Value>,
    pub local: Option<&'a Value>,
    pub live: Option<&'a Value>,
    pub result: Option<&'a Value>,
    pub patch: Option<&'a Value>,
}

/// What happens to a field of the live object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Absent from live, set from the file.
    Add,
    /// Present in live, changed to the file's value.
    Set,
    /// Removed from live (in last-applied, gone from the file; or an explicit null).
    Clear,
    /// Live-only, kept (not in the file, not in last-applied).
    Retain,
    /// Same before and after, and in the file.
    Unchanged,
    /// A list element removed from live.
    Delete,
    /// A live-only list element, kept.
    Keep,
}

impl Action {
    /// Every action, for legends.
    pub const ALL: [Action; 7] = [
        Action::Add,
        Action::Set,
        Action::Clear,
        Action::Retain,
        Action::Unchanged,
        Action::Delete,
        Action::Keep,
    ];

    /// The action's name in the JSON output.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Action::Add => "add",
            Action::Set => "set",
            Action::Clear => "clear",
            Action::Retain => "retain",
            Action::Unchanged => "unchanged",
            Action::Delete => "delete",
            Action::Keep => "keep",
        }
    }
}

/// One field as the walk finds it, borrowed: its path from the walk, its values from the
/// documents (what the warnings look at). `'p`: the walk's path; `'v`: the documents.
#[derive(Debug)]
pub struct FieldRef<'p, 'v> {
    /// The field's node in the plan's tree.
    pub id: FieldId,
    pub path: &'p [Seg],
    pub action: Action,
    pub reason: Reason,
    /// The live value (primitives and whole lists only).
    pub live: Option<&'v Value>,
    /// The value after the apply (primitives and whole lists only).
    pub result: Option<&'v Value>,
    /// The last-applied value (whole lists replaced as one only).
    pub last_applied: Option<&'v Value>,
}

/// The four documents (and the patch) at one place.
#[derive(Clone, Copy, Default)]
struct Quad<'v> {
    l: Option<&'v Value>,
    c: Option<&'v Value>,
    v: Option<&'v Value>,
    r: Option<&'v Value>,
    p: Option<&'v Value>,
    /// Where each of `l`, `c`, `v`, `r` is in its parent (the tree's [`tree::Doc`] order).
    at: [Option<usize>; 4],
}

/// One document's map, read in the order the walk asks for its keys. The walk goes through
/// the keys in document order, and the documents mostly share it, so the next entry is usually
/// the one asked for: no hashing (in a 100,000-key map every hash lookup is a cache miss).
struct Cursor<'v> {
    map: Option<(
        &'v Map,
        std::iter::Peekable<std::iter::Enumerate<crate::value::Iter<'v>>>,
    )>,
}

impl<'v> Cursor<'v> {
    fn new(doc: Option<&'v Value>) -> Cursor<'v> {
        Cursor {
            map: doc
                .and_then(Value::as_object)
                .map(|m| (m, m.iter().enumerate().peekable())),
        }
    }

    /// The value of `k` and its position.
    fn get(&mut self, k: &str) -> Option<(usize, &'v Value)> {
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
fn member<'v>(map: &'v Map, k: &str) -> Option<&'v Value> {
    if map.len() <= 8 {
        map.iter().find_map(|(key, v)| (key == k).then_some(v))
    } else {
        map.get(k)
    }
}

/// [`member`] with its position.
fn member_at<'v>(map: &'v Map, k: &str) -> Option<(usize, &'v Value)> {
    if map.len() <= 8 {
        map.iter()
            .enumerate()
            .find_map(|(i, (key, v))| (key == k).then_some((i, v)))
    } else {
        map.get_full(k)
    }
}

/// `v.get(k)` for an object (see [`member`]).
fn member_of<'v>(v: &'v Value, k: &str) -> Option<&'v Value> {
    v.as_object().and_then(|m| member(m, k))
}

/// `a == b`, faster where the two hold their keys in the same order (the result is made from
/// live, so they mostly do): entries are compared side by side, by key only from where the
/// orders part (as `==` compares objects: the same keys, each with an equal value).
fn same(a: &Value, b: &Value, depth: usize) -> bool {
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
    fn found(docs: [Option<(usize, &'v Value)>; 4], p: Option<(usize, &'v Value)>) -> Quad<'v> {
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
    fn shape(&self) -> Option<&'v Value> {
        self.c.or(self.v).or(self.r).or(self.l)
    }
}

/// How a field merges.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Primitive,
    Map { retain_keys: bool, replace: bool },
    KeyedList(String),
    SetList,
    AtomicList,
}

/// The documents' values at a field, for the warnings: they need not look its path up from the
/// root (that scans every merge-keyed list on the way, once per field, which is quadratic when
/// many fields are cleared or hold unions).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Values<'v> {
    pub last_applied: Option<&'v Value>,
    pub live: Option<&'v Value>,
    pub result: Option<&'v Value>,
}

struct Walker<'v> {
    mode: PatchType,
    /// The fields found so far.
    tree: tree::Builder,
    /// The warnings the fields call for, gathered as they are found.
    warnings: warnings::Collector,
    /// The path being walked; each field borrows it.
    path: Vec<Seg>,
    /// The tree's node for each step of `path`.
    ids: Vec<FieldId>,
    /// One shared text per field name (`name`, `value`, `image` repeat in every element).
    names: gofmt::FastMap<&'v str, Arc<str>>,
}

/// Every field of the union of the documents, in result order, as a tree; and the warnings
/// the fields call for.
/// `expected`: about how many fields there are (room is made for them at once).
pub(crate) fn walk(
    docs: &Docs<'_>,
    meta: Option<Meta<'_>>,
    mode: PatchType,
    expected: usize,
) -> (Tree, Vec<Warning>) {
    let present = [docs.last_applied, docs.local, docs.live, docs.result].map(|d| d.is_some());
    let mut w = Walker {
        mode,
        tree: tree::Builder::new(present, expected),
        warnings: warnings::Collector::new(docs.result.is_some()),
        path: Vec::new(),
        ids: Vec::new(),
        names: gofmt::FastMap::default(),
    };
    let q = Quad {
        l: docs.last_applied,
        c: docs.local,
        v: docs.live,
        r: docs.result,
        p: docs.patch,
        at: [None; 4],
    };
    w.object(q, meta, None, 0);
    (w.tree.finish(), w.warnings.finish())
}

/// The union of the keys of some objects, first-seen order.
fn keys<'v>(docs: &[Option<&'v Value>]) -> Vec<&'v crate::value::Str> {
    let maps: Vec<&Map> = docs
        .iter()
        .flatten()
        .filter_map(|d| d.as_object())
        .collect();
    let Some((first, rest)) = maps.split_first() else {
        return Vec::new();
    };
    let mut out: Vec<&crate::value::Str> = first.keys().collect();
    if out.len() + rest.iter().map(|m| m.len()).sum::<usize>() <= 48 {
        // Small maps (most of them): compare with the few keys found so far; no hash set.
        for m in rest {
            for k in m.keys() {
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        return out;
    }
    let mut seen: gofmt::FastSet<&str> = out.iter().map(|k| k.as_str()).collect();
    for m in rest {
        for k in m.keys() {
            if seen.insert(k.as_str()) {
                out.push(k);
            }
        }
    }
    out
}

fn action_of(q: &Quad<'_>) -> Action {
    match (q.v, q.r) {
        (None, Some(_)) => Action::Add,
        (Some(_), None) => Action::Clear,
        (Some(a), Some(b)) if same(a, b, 0) => {
            if q.c.is_some_and(|c| !c.is_null()) {
                Action::Unchanged
            } else {
                Action::Retain
            }
        }
        (Some(_), Some(_)) => Action::Set,
        (None, None) => Action::Unchanged,
    }
}

fn element_action(q: &Quad<'_>) -> Action {
    match action_of(q) {
        Action::Clear => Action::Delete,
        Action::Retain => Action::Keep,
        other => other,
    }
}

/// A field's own values (what the plan reports of them): live, result, last-applied.
type Own<'v> = [Option<&'v Value>; 3];

impl<'v> Walker<'v> {
    /// Step into `seg` (a field found at `at`, see [`Quad::at`]), record the field with the
    /// warnings seeing it first (with the documents' values there, `q`, when `values`).
    fn enter(
        &mut self,
        seg: Seg,
        action: Action,
        reason: Reason,
        own: Own<'v>,
        q: &Quad<'v>,
        values: bool,
    ) {
        let [live, result, last_applied] = own;
        let flags = OwnFlags {
            values: live.is_some() || result.is_some(),
            last_applied: last_applied.is_some(),
        };
        let parent = self.ids.last().copied().unwrap_or(FieldId::ROOT);
        // The field's node first: its warnings name it.
        let id = self
            .tree
            .push(parent, seg.clone(), q.at, action, flags, &reason);
        self.path.push(seg);
        let f = FieldRef {
            id,
            path: &self.path,
            action,
            reason,
            live,
            result,
            last_applied,
        };
        let at = values.then_some(Values {
            last_applied: q.l,
            live: q.v,
            result: q.r,
        });
        self.warnings.field(&f, at.as_ref());
        self.ids.push(id);
    }

    /// Step out of the field [`Walker::enter`] stepped into.
    fn leave(&mut self) {
        self.path.pop();
        self.ids.pop();
    }

    /// The shared text of a field name.
    fn name(&mut self, k: &'v str) -> Arc<str> {
        self.names.entry(k).or_insert_with(|| k.into()).clone()
    }

    /// The fields of a map (at `self.path`). `removed` says why the map itself leaves live, if
    /// it does: its fields go with it.
    fn object(&mut self, q: Quad<'v>, meta: Option<Meta<'_>>, removed: Option<&str>, depth: usize) {
        if depth > crate::engine::MAX_DEPTH {
            return;
        }
        let retain_list =
            q.p.and_then(|p| p.get(RETAIN_KEYS_DIRECTIVE))
                .and_then(Value::as_array);
        let mut cursors = [q.l, q.c, q.v, q.r, q.p].map(Cursor::new);
        let big = q
            .shape()
            .and_then(Value::as_object)
            .is_some_and(|m| m.len() > 64);
        for k in keys(&[q.v, q.r, q.c, q.l]) {
            if k.starts_with('$') {
                continue;
            }
            let [l, c, v, r, p] = &mut cursors;
            let [l, c, v, r, p] = [l.get(k), c.get(k), v.get(k), r.get(k), p.get(k)];
            let child = Quad {
                l: l.map(|x| x.1),
                c: c.map(|x| x.1),
                v: v.map(|x| x.1),
                r: r.map(|x| x.1),
                p: p.map(|x| x.1),
                at: [l, c, v, r].map(|x| x.map(|x| x.0)),
            };
            let Some(shape) = child.shape() else { continue };
            let (kind, sub) = self.kind_of(meta, k, shape);
            // Names repeat across the elements of lists (small maps); a big map's keys are
            // mostly its own (a ConfigMap's 100,000 keys), not worth a table.
            let seg = Seg::Key(if big { k.as_str().into() } else { self.name(k) });
            let action = action_of(&child);
            let mut reason = row_reason(&child, &kind, self.mode);
            reason.directive = field_directive(q.p, k, &kind);
            if action == Action::Clear && child.l.is_none_or(|_| child.c.is_some()) {
                if child.c.is_some_and(Value::is_null) {
                    reason.note = Some(
                        "an explicit null in the file: sent as null, which deletes the live value"
                            .into(),
                    );
                } else if retain_list
                    .is_some_and(|list| !list.iter().any(|x| x.as_str() == Some(k)))
                {
                    reason.directive = Some(RETAIN_KEYS_DIRECTIVE.into());
                    reason.note = Some("cleared by $retainKeys: the parent has the retainKeys strategy and the patch keeps only the keys the file sets".into());
                } else {
                    reason.note = Some(removed.unwrap_or("the parent is replaced whole").into());
                }
            }
            let leaf = matches!(kind, Kind::Primitive | Kind::AtomicList);
            let own = [
                child.v.filter(|_| leaf),
                child.r.filter(|_| leaf),
                child.l.filter(|_| kind == Kind::AtomicList),
            ];
            self.enter(seg, action, reason, own, &child, true);
            let gone = (action == Action::Clear).then(|| {
                format!(
                    "{} leaves live, and with it this field",
                    PathText(&self.path)
                )
            });
            let gone = gone.as_deref().or(removed);
            match kind {
                Kind::Map { .. } => self.object(child, sub, gone, depth + 1),
                Kind::KeyedList(key) => self.keyed_list(child, sub, &key, gone, depth + 1),
                Kind::SetList => self.set_list(child, k, q.p, gone),
                Kind::AtomicList => self.atomic_list(child, gone),
                Kind::Primitive => {}
            }
            self.leave();
        }
    }

    fn kind_of<'s>(
        &self,
        meta: Option<Meta<'s>>,
        key: &str,
        shape: &Value,
    ) -> (Kind, Option<Meta<'s>>) {
        let strategic = self.mode == PatchType::Strategic;
        match shape {
            Value::Object(_) => {
                let found = meta
                    .filter(|_| strategic)
                    .and_then(|m| m.lookup_struct(key).ok());
                let (retain_keys, strategy) = found
                    .and_then(|(_, pm)| strategy_of(&pm).ok())
                    .unwrap_or((false, Strategy::Default));
                let kind = Kind::Map {
                    retain_keys,
                    replace: strategy == Strategy::Replace,
                };
                (kind, found.map(|(m, _)| m))
            }
            Value::Array(_) => {
                let found = meta
                    .filter(|_| strategic)
                    .and_then(|m| m.lookup_slice(key).ok());
                let Some((sub, pm)) = found else {
                    return (Kind::AtomicList, None);
                };
                let strategy = strategy_of(&pm)
                    .map(|(_, s)| s)
                    .unwrap_or(Strategy::Default);
                let kind = match (strategy, pm.merge_key) {
                    (Strategy::Merge, Some(k)) => Kind::KeyedList(k.to_owned()),
                    (Strategy::Merge, None) => Kind::SetList,
                    _ => Kind::AtomicList,
                };
                (kind, Some(sub))
            }
            _ => (Kind::Primitive, None),
        }
    }

    fn keyed_list(
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

    fn set_list(
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
            if deleted.is_some_and(|d| d.iter().any(|x| gofmt::go_eq(x, item))) {
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

    fn atomic_list(&mut self, q: Quad<'v>, removed: Option<&str>) {
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

/// A removed element whose own row does not explain it (it is not "in last-applied, gone from
/// the file") goes because its list or an ancestor leaves live.
fn explain_removal(reason: &mut Reason, action: Action, removed: Option<&str>) {
    let at = reason.presence();
    let row_explains = at.in_last_applied && !at.in_config;
    if action == Action::Delete && !row_explains {
        reason.note = Some(removed.unwrap_or("the list is replaced whole").to_owned());
    }
}

fn items(d: Option<&Value>) -> Vec<&Value> {
    d.and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn slice(d: Option<&Value>) -> &[Value] {
    d.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// A list's items (with their positions) by their merge key's value, or by themselves.
type Index<'v> = gofmt::FastMap<ScalarKey<'v>, (usize, &'v Value)>;

/// Items by their merge key's value (or by themselves), first occurrence.
fn index_by<'v>(list: &[&'v Value], key: Option<&str>) -> Index<'v> {
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

fn list_kind_atomic(mode: PatchType) -> FieldKind {
    match mode {
        PatchType::Strategic => FieldKind::ReplacedList,
        PatchType::Merge => FieldKind::MergePatchList,
    }
}

fn presence(q: &Quad<'_>) -> Presence {
    Presence {
        in_config: q.c.is_some(),
        in_live: q.v.is_some(),
        in_last_applied: q.l.is_some(),
    }
}

/// The row of the primitive, map or list table (seeds: "将更改合并到原始字段", "Merging changes
/// to map fields"). Lists are fields like primitives: replaced, or merged element by element
/// below.
fn row_reason(q: &Quad<'_>, kind: &Kind, mode: PatchType) -> Reason {
    let (table, kind) = match kind {
        Kind::Primitive => (Table::Primitive, FieldKind::Primitive),
        Kind::Map {
            retain_keys: true, ..
        } => (Table::RetainKeys, FieldKind::RetainKeysMap),
        Kind::Map { replace: true, .. } => (Table::Map, FieldKind::ReplaceMap),
        Kind::Map { .. } => (Table::Map, FieldKind::Map),
        Kind::KeyedList(k) => (Table::MergedList, FieldKind::KeyedList(k.as_str().into())),
        Kind::SetList => (Table::MergedList, FieldKind::PrimitiveList),
        Kind::AtomicList => (Table::ReplacedList, list_kind_atomic(mode)),
    };
    Reason::new(table, presence(q), kind)
}

/// The row for a list element (seeds: "合并一个复杂元素列表中的单个元素").
fn element_reason(q: &Quad<'_>, table: Table, kind: FieldKind) -> Reason {
    Reason::new(table, presence(q), kind)
}

/// The directive the patch uses for a field, if any.
fn field_directive(parent_patch: Option<&Value>, key: &str, kind: &Kind) -> Option<String> {
    let p: &Map = parent_patch?.as_object()?;
    let own = p.get(key);
    if own.is_some_and(Value::is_null) {
        return Some("null (delete)".into());
    }
    match kind {
        Kind::KeyedList(_) | Kind::SetList => {
            let order = format!("$setElementOrder/{key}");
            p.contains_key(&order).then_some(order)
        }
        Kind::Map {
            retain_keys: true, ..
        } => own
            .and_then(|o| o.get(RETAIN_KEYS_DIRECTIVE))
            .map(|_| RETAIN_KEYS_DIRECTIVE.to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod same_tests {
    use crate::json;

    use super::same;

    /// `same` is `==`: key order aside, over nesting, arrays and number kinds.
    #[test]
    fn same_is_equality() {
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
