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

struct Walker<'s> {
    schema: &'s Schema,
    path: Path,
    remove: Set,
    add: Set,
    changed: bool,
    errs: Vec<String>,
}

impl Walker<'_> {
    fn reconcile(&mut self, set: Option<&Set>, tr: TypeRef, is_atomic: bool, depth: usize) {
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
                if set.is_some_and(|s| s.size() > 0) {
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
        self.remove.insert(&self.path);
        self.add.insert(&self.path);
        self.changed = true;
    }

    fn visit(&mut self, set: &Set, ty: impl Fn(&PathElement) -> Option<TypeRef>) {
        let depth = self.path.len();
        let handle = |w: &mut Self, pe: &PathElement, is_member: bool| {
            let Some(t) = ty(pe) else {
                return;
            };
            let child = set.child(pe);
            w.path.push(pe.clone());
            w.reconcile(child, t, is_member && child.is_none(), depth + 1);
            w.path.pop();
        };
        for (pe, _) in set.children() {
            if !set.has_member(pe) {
                handle(self, pe, false);
            }
        }
        for pe in set.members() {
            handle(self, pe, true);
        }
    }
}
