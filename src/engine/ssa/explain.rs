//! What one `kubectl apply --server-side` did to each field, and why: the comparison of the
//! live object with the object left, read with the managers before and after (who owned it,
//! who owns it now) into one action and one rule per field. Pure: values in, values out.

use crate::engine::ssa::managed::{self, Managed, ManagerId, Operation, Owners};
use crate::engine::ssa::path::{Path, PathElement, path_string};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::Comparison;
use crate::value::{Map, Value};

/// What a field becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Add,
    Set,
    /// Pruned: the applier owned it, the file dropped it, nobody else owns it.
    Remove,
    /// The value stays while its ownership changes (kept by another manager, shared, moved).
    Keep,
    /// Another manager owned it and the file changes it (taken with `--force-conflicts`).
    Conflict,
}

impl Action {
    pub const ALL: [Action; 5] = [
        Action::Add,
        Action::Set,
        Action::Remove,
        Action::Keep,
        Action::Conflict,
    ];

    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Add => "add",
            Action::Set => "set",
            Action::Remove => "remove",
            Action::Keep => "keep",
            Action::Conflict => "conflict",
        }
    }
}

/// One field of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// As the API server prints it (`.spec.replicas`).
    pub path: String,
    /// The same path as elements (what a front end finds a field by).
    pub at: Path,
    pub action: Action,
    pub before: Option<Value>,
    pub after: Option<Value>,
    pub owners_before: Vec<ManagerId>,
    pub owners_after: Vec<ManagerId>,
    /// The rule that decided, in words.
    pub rule: String,
    /// A removal `kubectl diff --server-side` does not show: only the ownership upgrade and
    /// the second apply make it ([`crate::engine::ssa::checks::hidden_from_diff`]).
    pub hidden_from_diff: bool,
}

/// The object's managers (none when `metadata.managedFields` cannot be read).
#[must_use]
pub fn managed_of(obj: &Value) -> Managed {
    managed::decode(obj.get("metadata").and_then(|m| m.get("managedFields"))).unwrap_or_default()
}

/// The object without `metadata.managedFields` (an empty object for none).
#[must_use]
pub fn without_managed_fields(obj: &Value) -> Value {
    let mut obj = obj.clone();
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.shift_remove("managedFields");
    }
    if obj.is_null() {
        obj = Value::Object(Map::new());
    }
    obj
}

/// The paths a comparison added, changed and removed, with their action.
#[must_use]
pub fn changes(c: &Comparison) -> Vec<(String, Action)> {
    let mut out = Vec::new();
    for (set, action) in [
        (&c.added, Action::Add),
        (&c.modified, Action::Set),
        (&c.removed, Action::Remove),
    ] {
        for p in set.paths() {
            out.push((path_string(&p), action));
        }
    }
    out
}

fn owners(m: &Owners<'_>, path: &[PathElement]) -> Vec<ManagerId> {
    m.of(path).map(|(id, _)| id.clone()).collect()
}

/// The part of a set under a path.
fn descend<'s>(mut s: &'s Set, path: &[PathElement]) -> Option<&'s Set> {
    for pe in path {
        s = s.child(pe)?;
    }
    Some(s)
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

fn names(ids: &[ManagerId]) -> String {
    ids.iter()
        .map(|m| m.manager.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every field the apply touched or whose owners changed: its action, values, owners and rule.
/// `forced`: the conflicts `--force-conflicts` took; `migrated`: the client-side managers the
/// csaupgrade moved to `me`.
#[must_use]
pub fn fields(
    live: &Value,
    result: &Value,
    c: &Comparison,
    forced: &[(Path, ManagerId)],
    me: &ManagerId,
    migrated: &[String],
) -> Vec<Field> {
    let (before, after) = (managed_of(live), managed_of(result));
    let mut all = Set::new();
    for m in [&before, &after] {
        for vs in m.fields.values() {
            all = all.union(&vs.set);
        }
    }
    all = all.union(&c.added).union(&c.modified).union(&c.removed);
    let (owners_before, owners_after) = (Owners::new(&before), Owners::new(&after));
    let under = |set: &Set, p: &[PathElement]| (1..p.len()).any(|n| set.has(&p[..n]));
    let (live, result) = (without_managed_fields(live), without_managed_fields(result));
    let mut out = Vec::new();
    for p in all.paths() {
        let changed = [&c.added, &c.removed, &c.modified]
            .into_iter()
            .find(|s| s.has(&p));
        let (ob, oa) = (owners(&owners_before, &p), owners(&owners_after, &p));
        let owned = |q: &[PathElement]| {
            owners_before.of(q).next().is_some() || owners_after.of(q).next().is_some()
        };
        // An item added or removed whole (someone owns it as such) says it for what is
        // inside; a container nobody owns (a route) is said by what is inside it.
        let said_above = |s: &Set| (1..p.len()).any(|n| s.has(&p[..n]) && owned(&p[..n]));
        match changed {
            Some(s) if said_above(s) => continue,
            Some(s)
                if ob.is_empty()
                    && oa.is_empty()
                    && descend(s, &p).is_some_and(|d| !d.is_empty()) =>
            {
                continue;
            }
            None if under(&c.added, &p) || under(&c.removed, &p) => continue,
            _ => {}
        }
        // Nobody owns the identity (`stripmeta`): not a field of the plan.
        if ob.is_empty()
            && oa.is_empty()
            && p.first()
                .and_then(PathElement::as_field)
                .is_some_and(|f| ["apiVersion", "kind", "metadata"].contains(&f))
        {
            continue;
        }
        let had = ob.contains(me);
        let upgraded = ob
            .iter()
            .any(|o| o.operation == Operation::Update && migrated.contains(&o.manager));
        let annotation = p
            .last()
            .and_then(PathElement::as_field)
            .is_some_and(|f| f == crate::engine::ssa::lastapplied::ANNOTATION);
        let (action, rule) = if let Some((_, m)) =
            forced.iter().find(|(fp, _)| fp.as_slice() == p.as_slice())
        {
            (
                Action::Conflict,
                format!(
                    "conflict: {} owned it and the file sets another value; --force-conflicts takes it",
                    m.manager
                ),
            )
        } else if annotation && (c.modified.has(&p) || c.added.has(&p) || ob != oa) {
            (
                Action::Set,
                "rewritten by the API server from the applied object (lastAppliedUpdater); kubectl saves it as kubectl-last-applied so that no apply prunes it".to_owned(),
            )
        } else if c.removed.has(&p) {
            let rule = if had {
                "pruned: you owned it, the file dropped it, and nobody else owns it".to_owned()
            } else if upgraded {
                format!(
                    "pruned by the second apply: the csaupgrade made {}'s fields yours, the file dropped it, and nobody else owns it (kubernetes#99003)",
                    names(&ob)
                )
            } else {
                "removed: its owners dropped it".to_owned()
            };
            (Action::Remove, rule)
        } else if (c.added.has(&p) || c.modified.has(&p))
            && oa.contains(me)
            && let Some(lost) = ob.iter().find(|o| *o != me && !oa.contains(o))
        {
            if upgraded && lost.manager == me.manager {
                // `--migrate-manager`: the applier's own Update entry became its Apply entry
                // before the apply, so no conflict was ever raised.
                (
                    Action::Set,
                    format!(
                        "set: the file sets another value; {}'s ownership was moved to you before the apply (migration)",
                        names(&ob)
                    ),
                )
            } else {
                // Taken without --force-conflicts: only kubectl's last-applied excusal forces.
                (
                    Action::Conflict,
                    format!(
                        "conflict excused: {} owned it, but kubectl's last-applied annotation still holds the live value, so the API server forces the apply",
                        lost.manager
                    ),
                )
            }
        } else if c.added.has(&p) {
            (Action::Add, "added: the file sets it".to_owned())
        } else if c.modified.has(&p) {
            (Action::Set, "set: the file sets another value".to_owned())
        } else if ob != oa
            && !(oa.is_empty()
                && p.last().and_then(PathElement::as_field).is_some()
                && value_at(&result, &p).is_some_and(Value::is_object))
        {
            let rule = if had && !oa.contains(me) {
                format!("kept: the file dropped it, but {} also owns it", names(&oa))
            } else if !had && oa.contains(me) && ob.iter().any(|o| !oa.contains(o)) {
                format!("ownership moved from {} (csaupgrade or forced)", names(&ob))
            } else if !had && oa.contains(me) {
                format!("shared: the file sets the value {} already set", names(&ob))
            } else {
                "owners change; the value stays".to_owned()
            };
            (Action::Keep, rule)
        } else {
            continue;
        };
        out.push(Field {
            path: path_string(&p),
            at: p.clone(),
            action,
            before: value_at(&live, &p).cloned(),
            after: value_at(&result, &p).cloned(),
            owners_before: ob,
            owners_after: oa,
            rule,
            hidden_from_diff: false,
        });
    }
    out
}

/// The fields by path, to find the one a path shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldIndex(std::collections::BTreeMap<Path, usize>);

impl FieldIndex {
    #[must_use]
    pub fn new(fields: &[Field]) -> FieldIndex {
        FieldIndex(
            fields
                .iter()
                .enumerate()
                .map(|(i, f)| (f.at.clone(), i))
                .collect(),
        )
    }

    /// The field at `path`, else the nearest field above it that was added or removed whole
    /// (what is inside is said by it).
    #[must_use]
    pub fn find(&self, fields: &[Field], path: &[PathElement]) -> Option<usize> {
        if let Some(&i) = self.0.get(path) {
            return Some(i);
        }
        (1..path.len()).rev().find_map(|n| {
            let i = *self.0.get(&path[..n])?;
            let f = fields.get(i)?;
            matches!(f.action, Action::Add | Action::Remove).then_some(i)
        })
    }
}

/// `Apply` or `Update`, for the writers.
#[must_use]
pub fn operation(id: &ManagerId) -> &'static str {
    match id.operation {
        Operation::Apply => "Apply",
        Operation::Update => "Update",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_at_paths() {
        let v: Value = serde_json::from_str(
            r#"{"spec":{"containers":[{"name":"web","env":[{"name":"B","value":"2"}]}],"args":["a","b"],"set":["x"]}}"#,
        )
        .unwrap();
        let path = [
            PathElement::field("spec"),
            PathElement::field("containers"),
            PathElement::key(vec![("name".into(), Value::from("web"))]),
            PathElement::field("env"),
            PathElement::key(vec![("name".into(), Value::from("B"))]),
            PathElement::field("value"),
        ];
        assert_eq!(value_at(&v, &path), Some(&Value::from("2")));
        let args = [
            PathElement::field("spec"),
            PathElement::field("args"),
            PathElement::Index(1),
        ];
        assert_eq!(value_at(&v, &args), Some(&Value::from("b")));
        let set = [
            PathElement::field("spec"),
            PathElement::field("set"),
            PathElement::Value(Value::from("x")),
        ];
        assert_eq!(value_at(&v, &set), Some(&Value::from("x")));
        assert_eq!(value_at(&v, &[PathElement::field("status")]), None);
    }
}
