//! Two cores for one big object: independent halves of a request or of a walk run side by
//! side ([`crate::engine::smp::both`]) when the object is big enough for a thread to pay.
//! The results are the same either way; only the time differs.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::value::Value;

/// Nodes (values) past which an object is worth a second thread: a thread costs tens of
/// microseconds, a walk of this many nodes costs about a millisecond.
const BIG: usize = 20_000;

/// Whether `v` has more than [`BIG`] nodes (counted up to there, not further).
#[must_use]
pub fn is_big(v: &Value) -> bool {
    past_big(std::iter::once(v), 0)
}

/// How big the objects of a request are, for its choice of threads: each counted when asked
/// ([`is_big`]), or known ahead for all of them (a caller that counted the objects they are
/// made of: a merge holds no more nodes than its live object and its configuration together).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    #[default]
    Count,
    Known(bool),
}

impl Scale {
    /// Known from the objects everything else is made of: big when any of them is.
    #[must_use]
    pub fn of(objects: &[&Value]) -> Scale {
        Scale::Known(objects.iter().any(|v| is_big(v)))
    }

    /// Whether `v`, one of the request's objects, is big.
    #[must_use]
    pub fn is_big(self, v: &Value) -> bool {
        match self {
            Scale::Count => is_big(v),
            Scale::Known(big) => big,
        }
    }
}

/// Whether the items of lists hold more than [`BIG`] nodes together (a walk that may split
/// a long list asks it there, of that list only, instead of of the whole object first).
#[must_use]
pub fn are_big<'v>(items: impl IntoIterator<Item = &'v Value>) -> bool {
    past_big(items, 1)
}

/// Whether `values`, at `depth`, hold more than [`BIG`] nodes (counted up to there).
fn past_big<'v>(values: impl IntoIterator<Item = &'v Value>, depth: usize) -> bool {
    let mut budget = BIG;
    for v in values {
        if budget == 0 {
            break;
        }
        count(v, &mut budget, depth);
    }
    budget == 0
}

fn count(v: &Value, budget: &mut usize, depth: usize) {
    if *budget == 0 || depth > crate::engine::MAX_DEPTH {
        return;
    }
    *budget -= 1;
    match v {
        Value::Array(items) => count_children(items.len(), items.iter(), budget, depth),
        Value::Object(m) => count_children(m.len(), m.iter().map(|(_, c)| c), budget, depth),
        _ => {}
    }
}

/// The `n` children are counted at once, and only the containers among them walked (their
/// own node counted there again, so one less here for each).
#[inline]
fn count_children<'v>(
    n: usize,
    children: impl Iterator<Item = &'v Value>,
    budget: &mut usize,
    depth: usize,
) {
    *budget = budget.saturating_sub(n);
    for c in children {
        if *budget == 0 {
            return;
        }
        if matches!(c, Value::Array(_) | Value::Object(_)) {
            *budget += 1;
            count(c, budget, depth + 1);
        }
    }
}

pub(crate) use crate::engine::smp::both;

/// Frees `garbage` on another thread when it is big enough for that to pay (a set or an
/// object of a big object takes milliseconds to free, node by node): the caller goes on
/// meanwhile. Nothing is observable but the time (and, briefly, the memory).
pub fn drop_aside<T: Send + 'static>(garbage: T, big: bool) {
    if !big {
        return;
    }
    // When no thread can be started, the closure (and with it the garbage) is freed here.
    let _ = std::thread::Builder::new()
        .name("drop".to_owned())
        .spawn(move || drop(garbage));
}

/// Whether a split of a walk between the two cores is under way.
static SPLIT: AtomicBool = AtomicBool::new(false);

/// A walk split between the two cores ([`map_halves`], the set operations' long child
/// lists): one at a time, the rest walk on one core. Dropping it (even by a panic) lets the
/// next split happen.
pub struct Split(());

impl Split {
    /// The split, unless another is under way.
    #[must_use]
    pub fn take() -> Option<Split> {
        SPLIT
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
            .then_some(Split(()))
    }
}

impl Drop for Split {
    fn drop(&mut self) {
        SPLIT.store(false, Ordering::Release);
    }
}

/// `items` mapped by `f`, in order; when there are at least `at_least` of them and no other
/// split is under way, the second half on another core.
pub fn map_halves<T: Sync, R: Send>(
    items: &[T],
    at_least: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let one = |part: &[T]| part.iter().map(&f).collect::<Vec<R>>();
    let Some(_split) = (items.len() >= at_least).then(Split::take).flatten() else {
        return one(items);
    };
    let (first, second) = items.split_at(items.len() / 2);
    let (mut rest, mut out) = both(true, || one(second), || one(first));
    out.append(&mut rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value is a node, a container and each scalar in it: an object of [`BIG`] nodes
    /// is big, one of a node fewer is not, however they nest.
    #[test]
    fn big_is_counted_in_nodes() {
        let flat = |n: usize| {
            Value::Array(
                (0..n)
                    .map(|i| Value::from(i64::try_from(i).unwrap()))
                    .collect(),
            )
        };
        assert!(is_big(&flat(BIG - 1)));
        assert!(!is_big(&flat(BIG - 2)));
        // Lists of two scalars (three nodes each) in a list: 1 + 3k nodes.
        let nested = |k: usize| {
            Value::Array(
                (0..k)
                    .map(|_| Value::Array(vec![Value::Null, Value::from("x")]))
                    .collect(),
            )
        };
        assert!(is_big(&nested((BIG - 1).div_ceil(3))));
        assert!(!is_big(&nested((BIG - 1).div_ceil(3) - 1)));
        assert!(!is_big(&Value::from("x")));
    }
}
