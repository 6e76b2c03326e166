//! `ReconcileFieldSetWithSchema` (`typed/reconcile_schema.go`): after a schema change, an
//! owner of anything inside a container that became atomic owns the container itself (and
//! nothing inside); deduced maps are left alone.

use crate::engine::ssa::path::{Path, PathElement};
use crate::engine::ssa::schema::{Relationship, Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::{TypedError, check_depth};

/// The reconciled set, or `None` when nothing changes.
///
/// # Errors
/// When a type cannot be resolved.
pub fn reconcile_field_set(
    schema: &Schema,
    tr: TypeRef,
    set: &Set,
) -> Result<Option<Set>, TypedError> {
    let mut w = Walker {
        schema,
        path: Vec::new(),
        remove: Set::new(),
        add: Set::new(),
        changed: false,
        errs: Vec::new(),
    };
    w.reconcile(Some(set), tr, false, 0);
    if !w.errs.is_empty() {
        return Err(TypedError(w.errs));
    }
    if !w.changed {
        return Ok(None);
    }
    Ok(Some(set.recursive_difference(&w.remove).union(&w.add)))
}

struct Walker<'s, 'p> {
    schema: &'s Schema,
    /// The path of the node walked (copied only where the set changes).
    path: Vec<&'p PathElement>,
    remove: Set,
    add: Set,
    changed: bool,
    errs: Vec<String>,
}

impl<'p> Walker<'_, 'p> {
    fn reconcile(&mut self, set: Option<&'p Set>, tr: TypeRef, is_atomic: bool, depth: usize) {
        if let Err(e) = check_depth(depth) {
            self.errs.push(e);
            return;
        }
        let Some(r) = self.schema.resolve(tr) else {
            self.errs.push("could not resolve type".to_owned());
            return;
        };
        if let Some(m) = r.map() {
            if self.schema.is_untyped_deduced_ref(m.map.elem) && m.map.fields.is_empty() {
                return;
            }
            if !is_atomic && m.rel == Relationship::Atomic {
                if set.is_some_and(|s| !s.is_empty()) {
                    self.replace();
                }
                return;
            }
            if let Some(set) = set {
                let schema = self.schema;
                let map = m.map;
                self.visit(set, move |pe| {
                    let t = match pe {
                        PathElement::Field(name) => map.field_type(name),
                        _ => map.elem,
                    };
                    (!schema.is_empty_ref(t)).then_some(t)
                });
            }
        } else if r.scalar().is_none()
            && let Some(l) = r.list()
        {
            if !is_atomic && l.rel == Relationship::Atomic {
                self.replace();
                return;
            }
            if let Some(set) = set {
                let elem = l.elem;
                self.visit(set, |_| Some(elem));
            }
        }
    }

    fn replace(&mut self) {
        let path: Path = self.path.iter().map(|&pe| pe.clone()).collect();
        self.remove.insert(&path);
        self.add.insert(&path);
        self.changed = true;
    }

    /// The children that are not members, then the members (each with its child, if any),
    /// in order: both lists are sorted alike, so each is read beside the other by a cursor
    /// rather than searched per element.
    fn visit(&mut self, set: &'p Set, ty: impl Fn(&PathElement) -> Option<TypeRef>) {
        let depth = self.path.len();
        let handle =
            |w: &mut Self, pe: &'p PathElement, child: Option<&'p Set>, is_member: bool| {
                let Some(t) = ty(pe) else {
                    return;
                };
                w.path.push(pe);
                w.reconcile(child, t, is_member && child.is_none(), depth + 1);
                w.path.pop();
            };
        let (members, children) = (set.members(), set.children());
        let mut m = 0;
        for (pe, child) in children {
            while members.get(m).is_some_and(|x| x < pe) {
                m += 1;
            }
            if members.get(m) != Some(pe) {
                handle(self, pe, Some(child), false);
            }
        }
        let mut c = 0;
        for pe in members {
            while children.get(c).is_some_and(|(x, _)| x < pe) {
                c += 1;
            }
            let child = children.get(c).filter(|(x, _)| x == pe).map(|(_, s)| s);
            handle(self, pe, child, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    /// `{outer: {inner: {a, b} (atomic), c}}`.
    fn schema() -> (Schema, TypeRef) {
        let types: Value = serde_json::from_str(
            r#"[
              {"name": "root", "map": {"fields": [{"name": "outer", "type": {"namedType": "outer"}}]}},
              {"name": "outer", "map": {"fields": [
                {"name": "inner", "type": {"namedType": "inner"}},
                {"name": "c", "type": {"scalar": "string"}}]}},
              {"name": "inner", "map": {"elementRelationship": "atomic", "fields": [
                {"name": "a", "type": {"scalar": "string"}},
                {"name": "b", "type": {"scalar": "string"}}]}}
            ]"#,
        )
        .unwrap();
        let schema = Schema::from_smd_types(&types).unwrap();
        let root = schema.named("root").unwrap();
        (schema, root)
    }

    fn set(paths: &[&[&str]]) -> Set {
        Set::from_unsorted_paths(
            paths
                .iter()
                .map(|p| p.iter().map(|f| PathElement::field(*f)).collect())
                .collect(),
        )
    }

    /// An owner of fields inside a container that is atomic owns the container and nothing
    /// inside, wherever it is reached from: below a member that has children (`outer` owned
    /// itself and walked into), below a route that is not a member, and not when it owns
    /// nothing inside. A set that obeys the schema is left as it is (`None`).
    #[test]
    fn fields_inside_an_atomic_container_become_the_container() {
        let (schema, root) = schema();
        let reconcile = |s: &Set| reconcile_field_set(&schema, root, s).unwrap();
        let inner = &["outer", "inner"][..];
        for owned in [
            set(&[&["outer"], &["outer", "inner", "a"], &["outer", "c"]]),
            set(&[&["outer", "inner", "a"], &["outer", "inner", "b"]]),
            set(&[&["outer"], &["outer", "inner"], &["outer", "inner", "b"]]),
        ] {
            let got = reconcile(&owned).expect("a change");
            let want = owned
                .paths()
                .into_iter()
                .filter(|p| p.len() < 3)
                .chain(std::iter::once(
                    inner.iter().map(|f| PathElement::field(*f)).collect(),
                ));
            assert_eq!(got, Set::from_unsorted_paths(want.collect()), "{owned:?}");
        }
        for fine in [
            set(&[&["outer"], &["outer", "inner"], &["outer", "c"]]),
            set(&[&["outer", "c"]]),
            Set::new(),
        ] {
            assert_eq!(reconcile(&fine), None, "{fine:?}");
        }
    }
}
