//! Walks over sorted elements: two lists merged, two child lists zipped, and a cursor that
//! finds ascending elements in a sorted list (galloping, so a walk costs about the shorter
//! list's length times the log of the gaps, and reads the longer list in order).

use std::cmp::Ordering;

use super::Set;
use crate::engine::ssa::par::Split;
use crate::engine::ssa::path::PathElement;

/// An element of a sorted list, by its path element.
pub(crate) trait Keyed {
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
pub(crate) struct Seek<'a, T> {
    rest: &'a [T],
}

impl<'a, T: Keyed> Seek<'a, T> {
    pub(crate) fn new(sorted: &'a [T]) -> Seek<'a, T> {
        Seek { rest: sorted }
    }

    /// The entry for `pe`, if any; `pe` must be above every element asked before (as the
    /// members or children of a set are, in their order).
    pub(crate) fn find(&mut self, pe: &PathElement) -> Option<&'a T> {
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

/// Children past which [`zip_children`] splits the walk between two cores: each child is a
/// set operation of its own, so a long list of them pays for a thread.
const FORK_AT: usize = 2048;

/// Walks two sorted child lists together; `f` decides each element's node. Long lists are
/// cut in two at one element (the same place in both) and the halves walked on two cores
/// (one split at a time, [`Split`]): the same nodes, in the same order.
pub(super) fn zip_children(
    a: &[(PathElement, Set)],
    b: &[(PathElement, Set)],
    f: impl Fn(Option<&Set>, Option<&Set>) -> Option<Set> + Sync,
) -> Vec<(PathElement, Set)> {
    let Some(_split) = (a.len() + b.len() >= FORK_AT).then(Split::take).flatten() else {
        return zip_one(a, b, &f);
    };
    let ((a1, a2), (b1, b2)) = cut(a, b);
    let (mut second, first) =
        crate::engine::smp::both(true, || zip_one(a2, b2, &f), || zip_one(a1, b1, &f));
    let mut out = first;
    out.append(&mut second);
    out
}

/// Both lists cut before the middle element of the longer one (each half keeps what sorts
/// before it, or from it on).
type Halves<'s> = (&'s [(PathElement, Set)], &'s [(PathElement, Set)]);
fn cut<'s>(a: &'s [(PathElement, Set)], b: &'s [(PathElement, Set)]) -> (Halves<'s>, Halves<'s>) {
    let (long, short, swapped) = if a.len() >= b.len() {
        (a, b, false)
    } else {
        (b, a, true)
    };
    let mid = long.len() / 2;
    let at = short.partition_point(|(pe, _)| *pe < long[mid].0);
    let (l, s) = (long.split_at(mid), short.split_at(at));
    if swapped { (s, l) } else { (l, s) }
}

fn zip_one(
    a: &[(PathElement, Set)],
    b: &[(PathElement, Set)],
    f: &impl Fn(Option<&Set>, Option<&Set>) -> Option<Set>,
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

    /// A child list of the indices `from..to` stepping by `step`, each child holding its
    /// index as a member.
    fn children(from: i64, to: i64, step: usize) -> Vec<(PathElement, Set)> {
        (from..to)
            .step_by(step)
            .map(|i| {
                let pe = PathElement::Index(i);
                (pe.clone(), Set::from_paths([std::slice::from_ref(&pe)]))
            })
            .collect()
    }

    #[test]
    fn a_walk_cut_in_two_gives_what_one_walk_gives() {
        let union = |a: Option<&Set>, b: Option<&Set>| match (a, b) {
            (Some(a), Some(b)) => Some(a.union(b)),
            (Some(x), None) | (None, Some(x)) => Some(x.clone()),
            (None, None) => None,
        };
        let only_both = |a: Option<&Set>, b: Option<&Set>| match (a, b) {
            (Some(a), Some(b)) => Some(a.intersection(b)),
            _ => None,
        };
        let cases = [
            (children(0, 3000, 1), children(0, 3000, 2)),
            (children(0, 10, 1), children(0, 5000, 3)),
            (children(0, 5000, 3), Vec::new()),
            (Vec::new(), children(-40, 2100, 1)),
            (children(1000, 4000, 1), children(0, 1000, 1)),
        ];
        for (a, b) in &cases {
            for (x, y) in [(a, b), (b, a)] {
                let one = zip_one(x, y, &union);
                let ((x1, x2), (y1, y2)) = cut(x, y);
                let mut two = zip_one(x1, y1, &union);
                two.extend(zip_one(x2, y2, &union));
                assert_eq!(two, one, "{} and {} children", x.len(), y.len());
                assert_eq!(zip_children(x, y, union), one);
                assert_eq!(zip_children(x, y, only_both), zip_one(x, y, &only_both));
            }
        }
    }
}
