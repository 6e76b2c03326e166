//! What one `kubectl apply --server-side` did to each field, and why: the comparison of the
//! live object with the object left, read with the managers before and after (who owned it,
//! who owns it now) into one action and one rule per field. Pure: values in, values out.

mod decide;
mod find;
mod fork;
mod index;
mod said;
mod values;
mod walk;

pub use find::{scalar_paths, value_at};
pub use index::FieldIndex;
use said::Said;
pub use said::{changes, operation};
pub use values::Sides;
use values::{Held, Values};

use crate::engine::ssa::managed::{self, Managed, ManagerId, Operation, Owners};
use crate::engine::ssa::path::{Path, PathElement};
use crate::engine::ssa::schema::{Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::Comparison;
use crate::value::{Map, Value};
use std::sync::Arc;

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

/// One field of the plan (its values compared as kept: fields of the same objects).
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Its path (what a front end finds a field by; [`Field::path`] prints it).
    pub at: Path,
    pub action: Action,
    /// Its values before and after: a map or a list as its place in the plan's objects, a
    /// scalar once when it is the same before and after.
    values: Values,
    /// Shared between the fields of the same owners (a migrated object moves every field's
    /// owner: one list for all of them, not a copy each).
    pub owners_before: Arc<[ManagerId]>,
    pub owners_after: Arc<[ManagerId]>,
    /// The rule that decided, in words (shared between the fields it decided alike).
    pub rule: Arc<str>,
    /// A removal `kubectl diff --server-side` does not show: only the ownership upgrade and
    /// the second apply make it ([`crate::engine::ssa::checks::after_apply`]).
    pub hidden_from_diff: bool,
}

impl Field {
    /// As the API server prints it (`.spec.replicas`).
    #[must_use]
    pub fn path(&self) -> String {
        crate::engine::ssa::path::path_string(&self.at)
    }

    /// The value before the apply (`None`: absent), read in the plan's `objects`.
    #[must_use]
    pub fn before<'v>(&'v self, objects: Sides<'v>) -> Option<&'v Value> {
        self.values.before(objects)
    }

    /// The value after the apply (`None`: absent), read in the plan's `objects`.
    #[must_use]
    pub fn after<'v>(&'v self, objects: Sides<'v>) -> Option<&'v Value> {
        self.values.after(objects)
    }

    /// Replaces the values before and after (given whole).
    pub fn set_values(&mut self, before: Option<Value>, after: Option<Value>) {
        self.values = Values::Apart(before.map(Held::Copied), after.map(Held::Copied));
    }
}

impl Eq for Field {}

/// The object's managers (none when `metadata.managedFields` cannot be read).
#[must_use]
pub fn managed_of(obj: &Value) -> Managed {
    managed::decode(obj.get("metadata").and_then(|m| m.get("managedFields"))).unwrap_or_default()
}

/// The object without `metadata.managedFields` (an empty object for none).
#[must_use]
pub fn without_managed_fields(obj: &Value) -> Value {
    if obj.is_null() {
        return Value::Object(Map::new());
    }
    crate::engine::ssa::request::without_managed_fields(obj)
}

/// The managers of a set of managedFields, in key order (those whose key does not read as an
/// identity are nobody).
fn owner_ids(m: &Managed) -> (Vec<ManagerId>, Vec<&Set>) {
    Owners::new(m)
        .sets()
        .map(|(id, set)| (id.clone(), set))
        .unzip()
}

/// Every field the apply touched or whose owners changed: its action, values, owners and rule.
/// `forced`: the conflicts `--force-conflicts` took; `migrated`: the client-side managers the
/// csaupgrade moved to `me`.
///
/// One walk of every path any manager owned or owns, or the comparison holds (their union,
/// walked without being built), with the node of every set and both objects' values carried
/// down (no lookup from the root per path). `before` and `after`: the managers of `live` and
/// `result` ([`managed_of`]), decoded once by the caller.
#[must_use]
#[allow(clippy::too_many_arguments)]
pub fn fields(
    (live, before): (&Value, &Managed),
    (result, after): (&Value, &Managed),
    c: &Comparison,
    (forced, me, migrated): (&[(Path, ManagerId)], &ManagerId, &[String]),
    types: (&Schema, TypeRef),
) -> Vec<Field> {
    let objects = ((live, before), (result, after));
    walk_fields(objects, c, (forced, me, migrated), types, true)
}

/// [`fields`] on one core (the walk never forks): what the walk on two cores must give.
#[cfg(test)]
pub(crate) fn fields_on_one_core(
    objects: ((&Value, &Managed), (&Value, &Managed)),
    c: &Comparison,
    (forced, me, migrated): (&[(Path, ManagerId)], &ManagerId, &[String]),
    types: (&Schema, TypeRef),
) -> Vec<Field> {
    walk_fields(objects, c, (forced, me, migrated), types, false)
}

/// [`fields`], forking at a long list when `fork`.
fn walk_fields<'a>(
    ((live, before), (result, after)): ((&'a Value, &Managed), (&'a Value, &Managed)),
    c: &'a Comparison,
    (forced, me, migrated): (&'a [(Path, ManagerId)], &ManagerId, &[String]),
    types: (&'a Schema, TypeRef),
    fork: bool,
) -> Vec<Field> {
    let (before_ids, before_sets) = owner_ids(before);
    let (after_ids, after_sets) = owner_ids(after);
    // Owners are compared as indices into one table of the managers before and after.
    let mut ids: Vec<ManagerId> = Vec::new();
    let mut index_of = |id: ManagerId| match ids.iter().position(|o| *o == id) {
        Some(i) => i,
        None => {
            ids.push(id);
            ids.len() - 1
        }
    };
    let before_ix: Vec<usize> = before_ids.into_iter().map(&mut index_of).collect();
    let after_ix: Vec<usize> = after_ids.into_iter().map(&mut index_of).collect();
    let me_ix = ids.iter().position(|o| o == me);
    let upgraded = ids
        .iter()
        .map(|o| o.operation == Operation::Update && migrated.contains(&o.manager))
        .collect();
    let mut walk = Walk {
        said: Said::default(),
        forced,
        forced_set: Set::from_unsorted_paths(forced.iter().map(|(p, _)| p.clone()).collect()),
        me: me_ix,
        ids,
        upgraded,
        before: before_ix,
        after: after_ix,
        path: Vec::new(),
        places: [Vec::new(), Vec::new()],
        // Room for the fields is made where the walk forks ([`fork`]), for each half.
        out: Vec::new(),
        fork,
        owners: Default::default(),
        cursors: Vec::new(),
        ties: Vec::new(),
        heads: Vec::new(),
        routes: Vec::new(),
        types,
    };
    let root = At {
        changed: [Some(&c.added), Some(&c.removed), Some(&c.modified)],
        sets: before_sets
            .into_iter()
            .chain(after_sets)
            .map(Some)
            .collect(),
        live: Some(live),
        result: Some(result),
        under: [false; 2],
        said: [false; 3],
    };
    // Room for about every field a manager owns (a field of the plan is one of them, mostly).
    walk.out
        .reserve(fork::room(&root, walk::Between::default()));
    walk.visit(&root);
    walk.out
}

/// The walk's node: a path's place in every set and in both objects.
struct At<'a> {
    /// Added, removed, modified.
    changed: [Option<&'a Set>; 3],
    /// The node in the set of each manager before, then after (`Walk::before.len()` of them
    /// first).
    sets: Vec<Option<&'a Set>>,
    live: Option<&'a Value>,
    result: Option<&'a Value>,
    /// Whether a path above or at this node was added, removed.
    under: [bool; 2],
    /// Per changed set: whether a path above or at this node is in it and owned.
    said: [bool; 3],
}

struct Walk<'a> {
    forced: &'a [(Path, ManagerId)],
    forced_set: Set,
    /// The applier's index in `ids`, if it owned or owns anything.
    me: Option<usize>,
    /// Every manager before and after, once.
    ids: Vec<ManagerId>,
    /// Per manager of `ids`: an Update entry the csaupgrade migrated.
    upgraded: Vec<bool>,
    /// The index in `ids` of each manager before, after.
    before: Vec<usize>,
    after: Vec<usize>,
    path: Path,
    /// Where the node is in the object before and in the one after: the position of each
    /// step down (`u32::MAX` below a step that is not there).
    places: [Vec<u32>; 2],
    out: Vec<Field>,
    /// Whether the walk may still hand half of a long list to another core.
    fork: bool,
    /// The owner lists and rules already written, to share.
    said: Said,
    /// Buffers for the owners of a path before and after.
    owners: (Vec<usize>, Vec<usize>),
    /// The places the walk reached in the members of each node's sets, a stack of them for
    /// the nodes being walked ([`walk`]'s children).
    cursors: Vec<usize>,
    /// The sets that hold the next element, a stack of them for the nodes being walked
    /// ([`walk`]).
    ties: Vec<usize>,
    /// The members of a node's sets and a cursor in each (per set, by its slot), for
    /// [`walk`]'s members.
    heads: Vec<walk::Head<'a, PathElement>>,
    /// The children of the sets of the nodes being walked and a cursor in each, a stack of
    /// them ([`walk`]'s children).
    routes: Vec<walk::Head<'a, (PathElement, Set)>>,
    /// The objects' schema and type, for a list item whose key field is missing (named with
    /// the field's default, [`find::Finder::child_at_named`]).
    types: (&'a Schema, TypeRef),
}

const ADDED: usize = 0;
const REMOVED: usize = 1;
const MODIFIED: usize = 2;

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk's lookup finds what [`value_at`] finds, in long lists too: the first of
    /// repeated keys, no item for a missing key field, floats and ints told apart.
    #[test]
    fn long_lists_are_looked_up_as_value_at_does() {
        let mut items: Vec<String> = (0..20)
            .map(|i| format!(r#"{{"name":"c{i}","port":{i},"n":{i}}}"#))
            .collect();
        items.push(r#"{"name":"c3","port":99,"n":100}"#.to_owned());
        items.push(r#"{"name":"x","port":5.0,"n":101}"#.to_owned());
        items.push(r#"{"port":7,"n":102}"#.to_owned());
        let v: Value = serde_json::from_str(&format!("[{}]", items.join(","))).unwrap();
        let key = |name: Option<&str>, port: Value| {
            let mut fields = vec![("port".into(), port)];
            if let Some(n) = name {
                fields.push(("name".into(), Value::from(n)));
            }
            PathElement::key(fields)
        };
        let float: Value = serde_json::from_str("5.0").unwrap();
        let mut finder = find::Finder::new(Some(&v));
        for pe in [
            key(Some("c3"), Value::from(3)),
            key(None, Value::from(99)),
            key(None, Value::from(7)),
            key(Some("x"), Value::from(5)),
            key(Some("x"), float),
            key(Some("c3"), Value::from(4)),
            PathElement::key(vec![("name".into(), Value::from("c3"))]),
            PathElement::Index(21),
        ] {
            assert_eq!(
                finder.child(&pe),
                value_at(&v, std::slice::from_ref(&pe)),
                "{pe}"
            );
        }
    }

    /// One walk finds the scalar paths that a lookup per path finds: in a long keyed list
    /// (looked up by an index), through maps and lists, for paths that lead nowhere, and not
    /// inside `metadata.managedFields`.
    #[test]
    fn scalar_paths_are_the_paths_whose_value_is_a_scalar() {
        let items: Vec<String> = (0..30)
            .map(|i| {
                format!(r#"{{"name":"c{i}","image":"i{i}","env":[{{"name":"A","value":"{i}"}}]}}"#)
            })
            .collect();
        let obj: Value = serde_json::from_str(&format!(
            r#"{{"metadata":{{"name":"x","labels":{{"a":"b"}},"managedFields":[{{"manager":"m"}}]}},"spec":{{"replicas":2,"containers":[{}]}}}}"#,
            items.join(",")
        ))
        .unwrap();
        let f = PathElement::field;
        let c = |n: &str| PathElement::key(vec![("name".into(), Value::from(n))]);
        let mut paths: Vec<Path> = vec![
            vec![f("metadata"), f("name")],
            vec![f("metadata"), f("labels")],
            vec![f("metadata"), f("labels"), f("a")],
            vec![f("metadata"), f("managedFields")],
            vec![f("metadata"), f("missing")],
            vec![f("spec"), f("replicas")],
            vec![f("spec"), f("containers")],
            vec![f("spec"), f("containers"), c("c99"), f("image")],
        ];
        for i in (0..30).step_by(3) {
            let item = [f("spec"), f("containers"), c(&format!("c{i}"))];
            paths.push(item.to_vec());
            paths.push([&item[..], &[f("image")]].concat());
            paths.push([&item[..], &[f("env"), c("A"), f("value")]].concat());
        }
        let set = Set::from_unsorted_paths(paths.clone());
        let bare = without_managed_fields(&obj);
        let looked_up: Vec<Path> = paths
            .into_iter()
            .filter(|p| value_at(&bare, p).is_some_and(|v| !v.is_object() && !v.is_array()))
            .collect();
        assert_eq!(looked_up.len(), 1 + 1 + 1 + 2 * 10);
        assert_eq!(
            scalar_paths(&obj, &set),
            Set::from_unsorted_paths(looked_up)
        );
    }

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
