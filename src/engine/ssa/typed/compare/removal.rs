//! [`super::compare_within`] of a value and what a removal leaves of it, gathered by the
//! removal's own walk ([`remove_items_compared`]): prune at the merge's fixed point (kubectl's
//! second apply) compares the object it read with what it left, along the same paths.

use super::{Comparison, Found, Node, Walker, loses_key_field};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Schema, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::remove::{Watch, remove_watched};
use crate::value::Value;

/// [`crate::engine::ssa::typed::remove_items_owned`] of `v`, with the comparison of `v` with
/// what is left ([`super::compare_within`] of them within `set`), when the removal's walk can
/// tell it: `None` where a node is emptied (it becomes `null`), a list item reached cannot be
/// named or is named twice, a removal takes a key field, or a value does not fit the schema.
#[must_use]
pub fn remove_items_compared(
    schema: &Schema,
    tr: TypeRef,
    v: Value,
    set: &Set,
) -> (Value, Option<Comparison>) {
    let mut gather = Gather {
        walker: Walker::new(schema, true),
        lost: false,
    };
    let (left, root) = remove_watched(schema, tr, v, set, &mut gather);
    let compared = match root {
        Some(node) if !gather.lost => super::Comparer(gather.walker).finish(node.found()).ok(),
        _ => None,
    };
    (left, compared)
}

/// What the removal's walk found at one node: gathered below it, or by the comparison's own
/// walk of the node whole.
#[derive(Default)]
struct At {
    below: Node,
    whole: Option<Found>,
}

impl At {
    fn found(self) -> Found {
        match self.whole {
            Some(found) => found,
            None => self.below.finish(),
        }
    }
}

/// The comparison's nodes, gathered as the removal goes.
struct Gather<'s> {
    walker: Walker<'s>,
    lost: bool,
}

impl Watch for Gather<'_> {
    const TOLD: bool = true;
    type Node = At;

    /// Removed whole: the comparison's walk of a value on the left alone.
    fn removed(&mut self, node: &mut At, pe: &PathElement, v: &Value, tr: TypeRef, depth: usize) {
        let found = self.walker.compare(Some(v), None, tr, None, depth);
        node.below.add_child(pe, found);
    }

    fn kept(&mut self, node: &mut At, pe: &PathElement, child: At) {
        node.below.add_child(pe, child.found());
    }

    fn lost(&mut self) {
        self.lost = true;
    }

    /// A list whose removal reaches a key field of an item is compared whole (an item that
    /// lost one is another item now, maybe one the list holds too).
    fn whole_list(&mut self, set: &Set) -> bool {
        loses_key_field(set)
    }

    fn whole(&mut self, before: &Value, after: &Value, tr: TypeRef, depth: usize) -> At {
        let found = self
            .walker
            .compare(Some(before), Some(after), tr, None, depth);
        At {
            below: Node::default(),
            whole: Some(found),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::kubernetes;
    use crate::engine::ssa::typed::samples::object;
    use crate::engine::ssa::typed::{compare_within, remove_items_owned, to_field_set};

    /// The removal is the plain one, and where the walk tells a comparison it is the one
    /// `compare_within` finds, on 4,000 generated Deployments, each less a random part of its
    /// own paths (members and routes, items whole, key fields) or of another object's.
    #[test]
    fn the_removal_compared_is_the_removal_then_the_comparison() {
        let kube = kubernetes::embedded();
        let (schema, root) = (
            &kube.schema,
            kube.root_for_gvk("apps/v1", "Deployment").unwrap(),
        );
        let mut seed = 7u64;
        let next = |n: u64, seed: &mut u64| {
            *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (*seed >> 33) % n
        };
        let (mut told, mut changed) = (0, 0);
        for _ in 0..4000 {
            let v = object(&mut seed);
            let from = if next(4, &mut seed) == 0 {
                object(&mut seed)
            } else {
                v.clone()
            };
            let Ok(all) = to_field_set(schema, root, &from) else {
                continue;
            };
            let paths: Vec<_> = all
                .paths()
                .into_iter()
                .filter(|_| next(3, &mut seed) == 0)
                .collect();
            let set = Set::from_unsorted_paths(paths);
            let (left, compared) = remove_items_compared(schema, root, v.clone(), &set);
            assert_eq!(
                left,
                remove_items_owned(schema, root, v.clone(), &set),
                "{v} {set:?}"
            );
            if let Some(c) = compared {
                let expected = compare_within(schema, root, &v, &left, &set);
                assert_eq!(Ok(&c), expected.as_ref(), "{v} less {set:?}");
                told += 1;
                changed += usize::from(!c.is_same());
            }
        }
        assert!(told > 1500 && changed > 1000, "{told} {changed}");
    }
}
