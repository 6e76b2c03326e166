//! [`Walker::compare`] of a value on one side alone (removed or added, with nothing to compare
//! it with): every node of it is removed (added), and nothing else is found. Walked here with
//! one set per node instead of three; the same sets, errors and error order as the whole walk,
//! which treats the two sides alike. A long list of a big value (a live object's first
//! managers are its comparison with nothing) is split between two cores, once a walk.

use super::Walker;
use crate::engine::ssa::par;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{ListView, Relationship, TypeRef};
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::{Part, deduce, enter, list_item_element, pick, sorted_elements};
use crate::value::Value;

/// The items of a list past which its walk forks (when they are big, [`par::are_big`]).
const FORK_AT: usize = 512;

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
                return (self.items_alone(&t, items, depth), true);
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
                    if found.1 {
                        members.push(pe.clone());
                    }
                    if !found.0.is_empty() {
                        children.push((pe, found.0));
                    }
                }
            }
        }
        (Set::from_unsorted_parts(members, children), true)
    }

    /// The paths below a list's items, as [`Walker::alone`] finds them: each item's element
    /// (an item without one reported, as the whole walk reports it, and left out), a repeated
    /// element removed (added) as the item only, the others walked in the list's order.
    fn items_alone(&mut self, t: &ListView<'_>, items: &[Value], depth: usize) -> Set {
        let mut pes: Vec<PathElement> = Vec::with_capacity(items.len());
        let mut values: Vec<&Value> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match list_item_element(self.schema, t, item) {
                Err(e) => self.errs.push(format!("element {i}: {e}")),
                Ok(pe) => {
                    pes.push(pe);
                    values.push(item);
                }
            }
        }
        // Sorted once: the members and children come out in order.
        let (order, repeated) = sorted_elements(&pes);
        let walk = |w: &mut Walker<'_>, from: usize, to: usize| -> Vec<(Set, bool)> {
            (from..to)
                .map(|i| {
                    if repeated[i] {
                        return (Set::new(), true);
                    }
                    let n = w.errs.len();
                    let found = w.alone(values[i], t.elem, depth + 1);
                    w.under(n, &pes[i]);
                    found
                })
                .collect()
        };
        let mut found = if self.fork && pes.len() >= FORK_AT && par::are_big(items) {
            self.fork = false;
            let mid = pes.len() / 2;
            let mut other = self.beside();
            let (second, mut first) = par::both(
                true,
                || walk(&mut other, mid, pes.len()),
                || walk(self, 0, mid),
            );
            self.absorb(other);
            first.extend(second);
            first
        } else {
            walk(self, 0, pes.len())
        };
        let mut members: Vec<PathElement> = Vec::with_capacity(order.len());
        let mut children: Vec<(PathElement, Set)> = Vec::new();
        for i in order {
            let pe = std::mem::replace(&mut pes[i], PathElement::Index(0));
            let (set, own) = std::mem::take(&mut found[i]);
            // A repeated element's later items (each is the item only, as the first).
            if members.last() == Some(&pe) {
                continue;
            }
            if !set.is_empty() {
                children.push((pe.clone(), set));
            }
            if own {
                members.push(pe);
            }
        }
        Set::from_parts(members, children)
    }
}
