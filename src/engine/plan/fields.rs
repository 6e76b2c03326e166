//! Every field's action and why.
//!
//! A field's action is what happens to the live object (live → result): `add`, `set`, `clear`,
//! `retain` (live-only, kept), `unchanged`; list elements are `add`, `set`, `delete`, `keep`,
//! `unchanged`. Computing the action from the two documents makes it agree with the patch by
//! construction. The reason says which row of kubectl's merge table applies (is the field in the
//! configuration file? in the live object? in last-applied?), the field's kind and list strategy,
//! and the patch directive involved; where the result differs from what the row alone predicts
//! (`$retainKeys` clearing a key, a replaced list), the note says why.
//!
//! | file | owns |
//! |---|---|
//! | `fields.rs` | the walk over the union of the documents: objects, each field's kind |
//! | `fields/lists.rs` | list fields: merge-keyed, primitive sets, atomic |
//! | `fields/quad.rs` | a field's values in the four documents, and their equality |
//! | `fields/decide.rs` | a field's action and its reason (merge-table row, kind, directive) |

mod decide;
mod lists;
mod quad;

use std::sync::Arc;

use crate::value::{Map, Value};

use super::action::Action;
use super::patch_type::PatchType;
use super::path::{PathText, Seg};
use super::tables::Reason;
use super::tree::{self, FieldId, Own as OwnFlags, Tree};
use super::warnings::{self, FieldRef, Values, Warning};
use crate::engine::gofmt;
use crate::engine::schema::Meta;
use crate::engine::smp::{RETAIN_KEYS_DIRECTIVE, Strategy, strategy_of};
use decide::{action_of, field_directive, row_reason};
use quad::{Cursor, Quad};

/// The documents a plan compares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Docs<'a> {
    pub last_applied: Option<&'a Value>,
    pub local: Option<&'a Value>,
    pub live: Option<&'a Value>,
    pub result: Option<&'a Value>,
    pub patch: Option<&'a Value>,
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
}
