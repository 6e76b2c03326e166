//! `Validate` (`typed/validate.go`): does a value fit its schema? An applied configuration is
//! validated strictly (a repeated list key is an error, kubernetes#113482); live objects allow
//! duplicates.

use std::collections::BTreeSet;

use super::{NO_TYPE, Part, check_depth, deduce, list_item_element, pick, scalar_error, smd_v};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Relationship, Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::TypedError;
use crate::value::Value;

/// What is wrong at a place (`typed.ValidationError`'s message, sorted by kind).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// `duplicate entries for key [name="A"]`: two items of an associative list with one key.
    DuplicateKey(PathElement),
    /// `field not declared in schema`: the path ends with the field's name.
    NotDeclared(String),
    /// Any other mismatch.
    Other,
}

/// One validation error: the path as the API server prints it (`.spec.replicas`, empty for the
/// root), the message, and its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
    pub kind: ProblemKind,
}

impl std::fmt::Display for Problem {
    /// `ValidationError.Error()`: `path: message`, or the message alone at the root.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// `TypedValue.Validate`, with `AllowDuplicates` when `allow_duplicates`.
///
/// # Errors
/// Every mismatch, prefixed with its path.
pub fn validate(
    schema: &Schema,
    tr: TypeRef,
    v: &Value,
    allow_duplicates: bool,
) -> Result<(), TypedError> {
    let errs = problems(schema, tr, v, allow_duplicates);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(TypedError(errs.iter().map(ToString::to_string).collect()))
    }
}

/// [`validate`] of a live object (duplicates allowed), and whether it also validates without
/// them (no list repeats a key), from one walk: the walk without duplicates finds every
/// problem the other finds, and the repeated keys besides.
pub fn validate_live(schema: &Schema, tr: TypeRef, v: &Value) -> (Result<(), TypedError>, bool) {
    let all = problems(schema, tr, v, false);
    let strict = all.is_empty();
    let errs: Vec<String> = all
        .iter()
        .filter(|p| !matches!(p.kind, ProblemKind::DuplicateKey(_)))
        .map(ToString::to_string)
        .collect();
    let result = if errs.is_empty() {
        Ok(())
    } else {
        Err(TypedError(errs))
    };
    (result, strict)
}

/// [`validate`] of an applied configuration (no duplicates), and its field set
/// ([`super::to_field_set`]) from the same walk.
///
/// # Errors
/// As [`validate`].
pub fn validate_owned(schema: &Schema, tr: TypeRef, v: &Value) -> Result<Set, TypedError> {
    let mut errs = Vec::new();
    let owned = walk::<true>(schema, tr, v, false, &String::new, 0, &mut errs);
    if !errs.is_empty() {
        return Err(TypedError(errs.iter().map(ToString::to_string).collect()));
    }
    match owned {
        Some((set, _)) => Ok(set),
        // A list the set cannot name items of: as the set's own walk says.
        None => super::to_field_set(schema, tr, v),
    }
}

/// [`validate`]'s errors, each with its path and kind.
#[must_use]
pub fn problems(schema: &Schema, tr: TypeRef, v: &Value, allow_duplicates: bool) -> Vec<Problem> {
    let mut errs = Vec::new();
    walk::<false>(schema, tr, v, allow_duplicates, &String::new, 0, &mut errs);
    errs
}

/// The items of a list past which the second half is validated on another core.
const SPLIT_AT: usize = 1024;

fn other(path: String, message: String) -> Problem {
    Problem {
        path,
        message,
        kind: ProblemKind::Other,
    }
}

/// What a value owns, when asked and there are no problems: the paths below it, and whether
/// the value itself is owned ([`super::toset`]'s rules); `None` when not asked, or the set
/// cannot be made (a list that is neither atomic nor associative).
type Owned = Option<(Set, bool)>;

/// [`walk`], building the set where `owned` too (never where the caller does not, `OWNED`).
#[inline(always)]
fn walk_if<const OWNED: bool>(
    owned: bool,
    (schema, tr, v): (&Schema, TypeRef, &Value),
    allow_duplicates: bool,
    at: &(dyn Fn() -> String + Sync),
    depth: usize,
    errs: &mut Vec<Problem>,
) -> Owned {
    if OWNED && owned {
        walk::<true>(schema, tr, v, allow_duplicates, at, depth, errs)
    } else {
        walk::<false>(schema, tr, v, allow_duplicates, at, depth, errs)
    }
}

/// Validates `v`; with `OWNED`, also what `v` owns (what it gives back is meaningless once a
/// problem is found).
#[allow(clippy::too_many_lines)]
fn walk<const OWNED: bool>(
    schema: &Schema,
    tr: TypeRef,
    v: &Value,
    allow_duplicates: bool,
    at: &(dyn Fn() -> String + Sync),
    depth: usize,
    errs: &mut Vec<Problem>,
) -> Owned {
    let fail = |errs: &mut Vec<Problem>, msg: String| errs.push(other(at(), msg));
    let leaf = || OWNED.then(|| (Set::new(), true));
    let none = || OWNED.then(|| (Set::new(), false));
    if let Err(e) = check_depth(depth) {
        fail(errs, e);
        return None;
    }
    let Some(r) = schema.resolve(tr) else {
        fail(errs, NO_TYPE.to_owned());
        return None;
    };
    match pick(&r, deduce(&r, Some(v))) {
        Err(e) => {
            fail(errs, e);
            None
        }
        Ok(Part::Scalar(t)) => {
            if let Some(e) = scalar_error(t, Some(v), "") {
                fail(errs, e);
            }
            leaf()
        }
        Ok(Part::List(t)) => {
            let atomic = t.rel == Relationship::Atomic;
            let list = match v {
                Value::Null if atomic => return leaf(),
                Value::Null => return none(),
                Value::Array(list) => list,
                other => {
                    fail(errs, format!("expected list, got {}", smd_v(other)));
                    return None;
                }
            };
            let assoc = t.rel == Relationship::Associative;
            // An atomic list is owned whole; any other list but an associative one cannot
            // name its items in a set.
            let items_owned = OWNED && assoc;
            // Each item's element and its own problems; a long list's second half on another
            // core (then every item is read, and what follows an item without its key is
            // dropped below, as a walk in turn stops there).
            let item = |&(i, child): &(usize, &Value)| {
                let pe = if assoc {
                    list_item_element(schema, &t, child).map_err(|e| format!("element {i}: {e}"))?
                } else {
                    PathElement::Index(i64::try_from(i).unwrap_or(i64::MAX))
                };
                let mut inside = Vec::new();
                let here = || format!("{}{pe}", at());
                // Items whose set cannot be named are not asked for one.
                let sub = walk_if::<OWNED>(
                    items_owned,
                    (schema, t.elem, child),
                    allow_duplicates,
                    &here,
                    depth + 1,
                    &mut inside,
                );
                Ok((pe, inside, sub))
            };
            let mut seen = BTreeSet::new();
            let mut complete = items_owned;
            let mut members = Vec::new();
            let mut children = Vec::new();
            // One item's result, in turn: `false` to stop.
            let mut take = |errs: &mut Vec<Problem>, one| {
                let (pe, inside, sub): (PathElement, Vec<Problem>, Owned) = match one {
                    Ok(read) => read,
                    Err(e) => {
                        fail(errs, e);
                        return false;
                    }
                };
                if assoc && !allow_duplicates && !seen.insert(pe.clone()) {
                    errs.push(Problem {
                        path: at(),
                        message: format!("duplicate entries for key {pe}"),
                        kind: ProblemKind::DuplicateKey(pe.clone()),
                    });
                }
                errs.extend(inside);
                match sub {
                    Some((sub, _)) => {
                        if !sub.is_empty() {
                            children.push((pe.clone(), sub));
                        }
                        members.push(pe);
                    }
                    None => complete = false,
                }
                true
            };
            // A short list is read item by item (nothing collected first).
            if list.len() < SPLIT_AT {
                for (i, child) in list.iter().enumerate() {
                    if !take(errs, item(&(i, child))) {
                        return None;
                    }
                }
            } else {
                let items: Vec<(usize, &Value)> = list.iter().enumerate().collect();
                for one in crate::engine::ssa::par::map_halves(&items, SPLIT_AT, item) {
                    if !take(errs, one) {
                        return None;
                    }
                }
            }
            if !OWNED || atomic {
                return leaf();
            }
            // Without duplicates (else a problem was found) every item is a member.
            complete.then(|| (Set::from_unsorted_parts(members, children), false))
        }
        Ok(Part::Map(t)) => {
            let atomic = t.rel == Relationship::Atomic;
            let m = match v {
                Value::Null if atomic => return leaf(),
                Value::Null => return none(),
                Value::Object(m) => m,
                other => {
                    fail(errs, format!("expected map, got {}", smd_v(other)));
                    return None;
                }
            };
            // Inside an atomic map nothing is owned but the map.
            let fields_owned = OWNED && !atomic;
            let (mut members, mut children) = (Vec::new(), Vec::new());
            if fields_owned {
                members.reserve_exact(m.len());
            }
            let mut complete = true;
            for (k, val) in m {
                let here = || format!("{}.{k}", at());
                let field = t.field(k);
                let ty = match field {
                    Some(f) => f.ty,
                    None if schema.is_empty_ref(t.map.elem) => {
                        errs.push(Problem {
                            path: here(),
                            message: "field not declared in schema".to_owned(),
                            kind: ProblemKind::NotDeclared(k.to_string()),
                        });
                        return None;
                    }
                    None => t.map.elem,
                };
                let node = (schema, ty, val);
                let sub =
                    walk_if::<OWNED>(fields_owned, node, allow_duplicates, &here, depth + 1, errs);
                if !fields_owned {
                    continue;
                }
                let Some((sub, leaf)) = sub else {
                    complete = false;
                    continue;
                };
                let pe = PathElement::Field(k.clone());
                let member = super::toset::owns_field(leaf, val, field.is_some(), false);
                if !sub.is_empty() {
                    children.push((pe.clone(), sub));
                }
                if member {
                    members.push(pe);
                }
            }
            if !OWNED || atomic {
                return leaf();
            }
            complete.then(|| (Set::from_unsorted_parts(members, children), false))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::kubernetes;
    use crate::engine::ssa::typed::samples::object;
    use crate::engine::ssa::typed::to_field_set;
    use crate::json;

    /// A list long enough to be validated on two cores gives its problems in the order of a
    /// walk in turn: a repeated key before the item's own problems, items of both halves in
    /// order, and nothing after an item without its key (the walk stops there).
    #[test]
    fn a_long_lists_problems_come_in_order_and_stop_at_an_item_without_its_key() {
        let kube = kubernetes::embedded();
        let root = kube.root_for_gvk("v1", "Pod").unwrap();
        let mut containers: Vec<Value> = (0..2000)
            .map(|i| json!({"name": format!("c{i}"), "image": "app"}))
            .collect();
        containers[10]["name"] = json!("c3");
        containers[10]["resources"] = json!(5);
        containers[20]["resources"] = json!(6);
        containers[1500]["name"] = json!("c5");
        containers[1600]["resources"] = json!(7);
        containers[1800]
            .as_object_mut()
            .unwrap()
            .shift_remove("name");
        containers[1900]["resources"] = json!(8);
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": containers}});
        let found: Vec<(String, bool)> = problems(&kube.schema, root, &pod, false)
            .into_iter()
            .map(|p| {
                let dup = matches!(p.kind, ProblemKind::DuplicateKey(_));
                (p.path, dup)
            })
            .collect();
        let at = ".spec.containers";
        let resources = |name: &str| (format!("{at}[name=\"{name}\"].resources"), false);
        assert_eq!(
            found,
            [
                (at.to_owned(), true),
                resources("c3"),
                resources("c20"),
                (at.to_owned(), true),
                resources("c1600"),
                (at.to_owned(), false),
            ]
        );
        let last = problems(&kube.schema, root, &pod, false).pop().unwrap();
        assert!(last.message.starts_with("element 1800: "), "{last}");
        // Duplicates allowed: the same without the repeated keys.
        let allowed = problems(&kube.schema, root, &pod, true);
        assert_eq!(allowed.len(), 4);
    }

    /// The walk that validates a configuration gives its set as the set's own walk does, and
    /// its errors as the validation does.
    #[test]
    fn a_configurations_set_comes_with_its_validation() {
        let kube = kubernetes::embedded();
        let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
        let mut seed = 5u64;
        let (mut valid, mut invalid) = (0, 0);
        for _ in 0..4000 {
            let config = object(&mut seed);
            let owned = validate_owned(&kube.schema, root, &config);
            match validate(&kube.schema, root, &config, false) {
                Ok(()) => {
                    assert_eq!(owned, to_field_set(&kube.schema, root, &config), "{config}");
                    valid += 1;
                }
                Err(e) => {
                    assert_eq!(owned, Err(e), "{config}");
                    invalid += 1;
                }
            }
        }
        assert!(valid > 1000 && invalid > 500, "{valid} {invalid}");
    }
}
