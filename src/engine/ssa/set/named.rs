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

    /// [`Set::ensure_named_fields_are_members`] of a set given away: only the nodes that gain
    /// a member, and those on their way, are copied; the rest is shared (a set read from
    /// managedFields mostly has its named fields as members already).
    #[must_use]
    pub fn into_named_fields_as_members(self, schema: &Schema, tr: TypeRef) -> Set {
        self.named(schema, tr, 0).unwrap_or(self)
    }

    /// The set with named fields as members, or `None` when it has them all already.
    fn named(&self, schema: &Schema, tr: TypeRef, depth: usize) -> Option<Set> {
        if self.children().is_empty() || depth > crate::engine::MAX_DEPTH {
            return None;
        }
        let atom = schema.resolve(tr);
        let map = atom.as_ref().and_then(|a| a.map());
        let list = atom.as_ref().and_then(|a| a.list());
        // The declared fields with something inside that are not members yet; the children,
        // copied at the first that changes (one lookup of each field for both).
        let mut added: Vec<PathElement> = Vec::new();
        let mut children: Option<Vec<(PathElement, Set)>> = None;
        for (i, (pe, c)) in self.children().iter().enumerate() {
            let child_tr = match (pe, map, list) {
                (PathElement::Field(name), Some(m), _) => match m.field(name) {
                    Some(f) => {
                        if !self.has_member(pe) {
                            added.push(pe.clone());
                        }
                        f.ty
                    }
                    None => m.map.elem,
                },
                (PathElement::Key(_), _, Some(l)) => l.elem,
                _ => schema.empty_ref(),
            };
            if let Some(named) = c.named(schema, child_tr, depth + 1) {
                let copy = children.get_or_insert_with(|| self.children().to_vec());
                copy[i].1 = named;
            }
        }
        if added.is_empty() && children.is_none() {
            return None;
        }
        let members = if added.is_empty() {
            self.members().to_vec()
        } else {
            merge_sorted(self.members(), &added)
        };
        Some(Set::from_parts(
            members,
            children.unwrap_or_else(|| self.children().to_vec()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::ssa::kubernetes;
    use crate::engine::ssa::typed;
    use crate::json;

    /// A set gains its named fields as members as the walk of the object names them; a set
    /// that has them all is handed back as it is, not copied, and so are the subtrees of one
    /// that gains some elsewhere.
    #[test]
    fn named_fields_become_members_and_the_rest_is_shared() {
        let kube = kubernetes::embedded();
        let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
        let obj = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "d", "labels": {"a": "b"}},
            "spec": {"replicas": 2, "strategy": {"rollingUpdate": {"maxSurge": 1}},
                "template": {"spec": {"containers": [
                    {"name": "a", "image": "x", "resources": {"limits": {"cpu": "1"}},
                     "env": [{"name": "A", "value": "1"}]}]}}}});
        let plain = typed::to_field_set(&kube.schema, root, &obj).unwrap();
        let named = typed::to_field_set_named(&kube.schema, root, &obj).unwrap();
        assert_ne!(plain, named);
        let ensured = plain
            .clone()
            .into_named_fields_as_members(&kube.schema, root);
        assert_eq!(ensured, named);
        let again = ensured
            .clone()
            .into_named_fields_as_members(&kube.schema, root);
        assert!(
            again.same(&ensured),
            "a set with its named fields is not copied"
        );
        let child =
            |s: &super::Set, f: &str| s.child(&super::PathElement::field(f)).cloned().unwrap();
        // A route through `selector` (a struct field) makes it a member of `spec`: `spec` is
        // copied, `metadata` and `spec.template` stay shared.
        let mut half = named.clone();
        half.insert(&[
            super::PathElement::field("spec"),
            super::PathElement::field("selector"),
            super::PathElement::field("matchLabels"),
            super::PathElement::field("app"),
        ]);
        let after = half
            .clone()
            .into_named_fields_as_members(&kube.schema, root);
        assert!(child(&after, "spec").has_member(&super::PathElement::field("selector")));
        assert!(!child(&half, "spec").has_member(&super::PathElement::field("selector")));
        assert!(child(&after, "metadata").same(&child(&half, "metadata")));
        let template = |s: &super::Set| child(&child(s, "spec"), "template");
        assert!(template(&after).same(&template(&half)));
    }
}
