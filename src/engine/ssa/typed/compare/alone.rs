//! [`Walker::compare`] of a value on one side alone (removed or added, with nothing to compare
//! it with): every node of it is removed (added), and nothing else is found. Walked here with
//! one set per node instead of three; the same sets, errors and error order as the whole walk,
//! which treats the two sides alike.

use super::Walker;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Relationship, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::{Part, deduce, enter, pick};
use crate::value::Value;

impl Walker<'_> {
    /// `compare(Some(v), None)` (or `compare(None, Some(v))`) with no limit on where they
    /// differ: the removed (added) paths below `v`, and whether `v` itself is.
    pub(super) fn alone(&mut self, v: &Value, tr: TypeRef, depth: usize) -> (Set, bool) {
        let Some(r) = enter(self.schema, tr, depth, &mut self.errs) else {
            return (Set::new(), false);
        };
        let mut members: Vec<PathElement> = Vec::new();
        let mut children: Vec<(PathElement, Set)> = Vec::new();
        match pick(&r, deduce(&r, Some(v))) {
            Err(e) => self.errs.push(e),
            Ok(Part::Scalar(_)) => return (Set::new(), true),
            Ok(Part::List(t)) => {
                // An atomic or empty list, or no list at all, is a leaf.
                let Some(items) = v.as_array().filter(|items| !items.is_empty()) else {
                    return (Set::new(), true);
                };
                if t.rel == Relationship::Atomic {
                    return (Set::new(), true);
                }
                // A repeated item is removed (added) as the item only.
                let (order, by) = self.items(&t, items);
                for pe in order {
                    match by.get(&pe).map(Vec::as_slice) {
                        Some([item]) => {
                            let n = self.errs.len();
                            let found = self.alone(item, t.elem, depth + 1);
                            self.under(n, &pe);
                            add(&mut members, &mut children, pe, found);
                        }
                        Some(_) => members.push(pe),
                        None => {}
                    }
                }
            }
            Ok(Part::Map(t)) => {
                let Some(m) = v.as_object().filter(|m| !m.is_empty()) else {
                    return (Set::new(), true);
                };
                if t.rel == Relationship::Atomic {
                    return (Set::new(), true);
                }
                for (k, lv) in m {
                    let pe = PathElement::Field(k.clone());
                    let n = self.errs.len();
                    let found = self.alone(lv, t.field_type(k), depth + 1);
                    self.under(n, &pe);
                    add(&mut members, &mut children, pe, found);
                }
            }
        }
        (Set::from_unsorted_parts(members, children), true)
    }
}

/// A child's findings on its node (`Node::add_child`, one side alone).
fn add(
    members: &mut Vec<PathElement>,
    children: &mut Vec<(PathElement, Set)>,
    pe: PathElement,
    (set, own): (Set, bool),
) {
    if own {
        members.push(pe.clone());
    }
    if !set.is_empty() {
        children.push((pe, set));
    }
}
