//! Walks over sorted elements: two lists merged, two child lists zipped, and a cursor that
//! finds ascending elements in a sorted list (galloping, so a walk costs about the shorter
//! list's length times the log of the gaps, and reads the longer list in order).

use std::cmp::Ordering;

use super::Set;
use crate::engine::ssa::path::PathElement;

/// An element of a sorted list, by its path element.
pub(super) trait Keyed {
    fn element(&self) -> &PathElement;
}

impl Keyed for PathElement {
    fn element(&self) -> &PathElement {
        self
    }
}

impl Keyed for (PathElement, Set) {
    fn element(&self) -> &PathElement {
        &self.0
    }
}

/// Finds elements in a sorted list, asked in ascending order.
pub(super) struct Seek<'a, T> {
    rest: &'a [T],
}

impl<'a, T: Keyed> Seek<'a, T> {
    pub(super) fn new(sorted: &'a [T]) -> Seek<'a, T> {
        Seek { rest: sorted }
    }

    /// The entry for `pe`, if any; `pe` must be above every element asked before (as the
    /// members or children of a set are, in their order).
    pub(super) fn find(&mut self, pe: &PathElement) -> Option<&'a T> {
        let rest = self.rest;
        let first = rest.first()?;
        match first.element().cmp(pe) {
            Ordering::Equal => {
                self.rest = &rest[1..];
                return Some(first);
            }
            Ordering::Greater => return None,
            Ordering::Less => {}
        }
        // rest[lo - 1] < pe; the first element not below `pe` is found between lo and bound.
        let below = |x: &T| x.element().cmp(pe) == Ordering::Less;
        let (mut lo, mut bound) = (1, 2);
        while bound < rest.len() && below(&rest[bound - 1]) {
            lo = bound;
            bound *= 2;
        }
        let at = lo + rest[lo..bound.min(rest.len())].partition_point(below);
        match rest.get(at) {
            Some(x) if x.element() == pe => {
                self.rest = &rest[at + 1..];
                Some(x)
            }
            _ => {
                self.rest = &rest[at..];
                None
            }
        }
    }
}

pub(super) fn merge_sorted(a: &[PathElement], b: &[PathElement]) -> Vec<PathElement> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Walks two sorted child lists together; `f` decides each element's node.
pub(super) fn zip_children(
    a: &[(PathElement, Set)],
    b: &[(PathElement, Set)],
    f: impl Fn(Option<&Set>, Option<&Set>) -> Option<Set>,
) -> Vec<(PathElement, Set)> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let ord = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.0.cmp(&y.0),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        let (pe, node) = match ord {
            Ordering::Less => {
                i += 1;
                (&a[i - 1].0, f(Some(&a[i - 1].1), None))
            }
            Ordering::Greater => {
                j += 1;
                (&b[j - 1].0, f(None, Some(&b[j - 1].1)))
            }
            Ordering::Equal => {
                i += 1;
                j += 1;
                (&a[i - 1].0, f(Some(&a[i - 1].1), Some(&b[j - 1].1)))
            }
        };
        if let Some(node) = node {
            out.push((pe.clone(), node));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seek_finds_what_binary_search_finds() {
        let list: Vec<PathElement> = (0..100).map(|i| PathElement::Index(i * 3)).collect();
        for step in [1, 2, 5, 40, 301] {
            let mut seek = Seek::new(list.as_slice());
            for q in (-3..310).step_by(step) {
                let pe = PathElement::Index(q);
                assert_eq!(
                    seek.find(&pe).is_some(),
                    list.binary_search(&pe).is_ok(),
                    "step {step}, {q}"
                );
            }
        }
        assert!(
            Seek::<PathElement>::new(&[])
                .find(&PathElement::Index(0))
                .is_none()
        );
    }
}
