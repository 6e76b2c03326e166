//! `Set.EnsureNamedFieldsAreMembers`: what prune reads a set as.

use super::{Set, merge_sorted};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Schema, TypeRef};

impl Set {
    /// `Set.EnsureNamedFieldsAreMembers`: every route through a struct field declared by the
    /// schema also becomes a member (prune treats a struct as owned by whoever owns inside it).
    #[must_use]
    pub fn ensure_named_fields_are_members(&self, schema: &Schema, tr: TypeRef) -> Set {
        self.clone().into_named_fields_as_members(schema, tr)
    }

    /// [`Set::ensure_named_fields_are_members`] in place: the set is changed, not copied
    /// (shared nodes are copied only where a member is added).
    #[must_use]
    pub fn into_named_fields_as_members(mut self, schema: &Schema, tr: TypeRef) -> Set {
        self.name_fields_as_members(schema, tr);
        self
    }

    fn name_fields_as_members(&mut self, schema: &Schema, tr: TypeRef) {
        if self.children().is_empty() {
            return;
        }
        let atom = schema.resolve(tr);
        let map = atom.as_ref().and_then(|a| a.map());
        let list = atom.as_ref().and_then(|a| a.list());
        let added: Vec<PathElement> = self
            .children()
            .iter()
            .filter(|(pe, _)| match (pe, map) {
                (PathElement::Field(name), Some(m)) => m.field(name).is_some(),
                _ => false,
            })
            .filter(|(pe, _)| !self.has_member(pe))
            .map(|(pe, _)| pe.clone())
            .collect();
        let node = self.node_mut();
        if !added.is_empty() {
            node.members = merge_sorted(&node.members, &added);
        }
        for (pe, c) in &mut node.children {
            let child_tr = match (&*pe, map, list) {
                (PathElement::Field(name), Some(m), _) => m.field_type(name),
                (PathElement::Key(_), _, Some(l)) => l.elem,
                _ => schema.empty_ref(),
            };
            c.name_fields_as_members(schema, child_tr);
        }
    }
}
