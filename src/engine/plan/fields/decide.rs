//! A field's action (live → result) and its reason: the merge table's row for where the field
//! is present, its kind, and the patch directive involved.

use super::quad::{Quad, same};
use super::{Action, Kind};
use crate::engine::plan::{FieldKind, PatchType, Presence, Reason, Table};
use crate::engine::smp::RETAIN_KEYS_DIRECTIVE;
use crate::value::{Map, Value};

pub(super) fn action_of(q: &Quad<'_>) -> Action {
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

pub(super) fn element_action(q: &Quad<'_>) -> Action {
    match action_of(q) {
        Action::Clear => Action::Delete,
        Action::Retain => Action::Keep,
        other => other,
    }
}

/// A removed element whose own row does not explain it (it is not "in last-applied, gone from
/// the file") goes because its list or an ancestor leaves live.
pub(super) fn explain_removal(reason: &mut Reason, action: Action, removed: Option<&str>) {
    let at = reason.presence();
    let row_explains = at.in_last_applied && !at.in_config;
    if action == Action::Delete && !row_explains {
        reason.note = Some(removed.unwrap_or("the list is replaced whole").to_owned());
    }
}

pub(super) fn list_kind_atomic(mode: PatchType) -> FieldKind {
    match mode {
        PatchType::Strategic => FieldKind::ReplacedList,
        PatchType::Merge => FieldKind::MergePatchList,
    }
}

pub(super) fn presence(q: &Quad<'_>) -> Presence {
    Presence {
        in_config: q.c.is_some(),
        in_live: q.v.is_some(),
        in_last_applied: q.l.is_some(),
    }
}

/// The row of the primitive, map or list table (seeds: "将更改合并到原始字段", "Merging changes
/// to map fields"). Lists are fields like primitives: replaced, or merged element by element
/// below.
pub(super) fn row_reason(q: &Quad<'_>, kind: &Kind, mode: PatchType) -> Reason {
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
pub(super) fn element_reason(q: &Quad<'_>, table: Table, kind: FieldKind) -> Reason {
    Reason::new(table, presence(q), kind)
}

/// The directive the patch uses for a field, if any.
pub(super) fn field_directive(
    parent_patch: Option<&Value>,
    key: &str,
    kind: &Kind,
) -> Option<String> {
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
