//! List order after a merge: `$setElementOrder` > order in the patch > order in the live list.
//!
//! kubectl's surprising order (a live-only item lands before newly added ones, oracle example b)
//! comes from here: patch items are sorted by the patch order, live-only items by the live order,
//! and the two runs are interleaved by live positions where both are known.

use crate::value::Value;

use super::SmpError;
use crate::engine::gofmt::{FirstIndex, ScalarKey};

/// The keys a list is ordered by: the merge key's value of each map item (validated: every item
/// must be a map holding the merge key), or each primitive item itself.
pub(super) fn order_keys(
    list: &[Value],
    merge_key: &str,
    is_map: bool,
) -> Result<Vec<Value>, SmpError> {
    if !is_map {
        return Ok(list.to_vec());
    }
    list.iter()
        .map(|item| {
            let Value::Object(m) = item else {
                return Err(super::bad_arg_type_map(item));
            };
            m.get(merge_key)
                .cloned()
                .ok_or_else(|| super::no_merge_key(m, merge_key))
        })
        .collect()
}

/// The reference's `normalizeSliceOrder`: sort `to_sort` by the positions of its items in the
/// list whose keys are `order` (see [`order_keys`]), keeping `$patch: delete` items at the end.
pub(super) fn normalize_slice_order(
    to_sort: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    is_map: bool,
) -> Result<Vec<Value>, SmpError> {
    let index = FirstIndex::new(order);
    let mut keep: Vec<(Option<usize>, Value)> = Vec::with_capacity(to_sort.len());
    let mut to_delete = Vec::new();
    for v in to_sort {
        let key = if is_map {
            let Value::Object(m) = &v else {
                return Err(super::bad_arg_type_map(&v));
            };
            let Some(key) = m.get(merge_key) else {
                return Err(super::no_merge_key(m, merge_key));
            };
            if m.get(super::DIRECTIVE_MARKER).and_then(Value::as_str) == Some(super::DELETE) {
                to_delete.push(v);
                continue;
            }
            ScalarKey::of(key)
        } else {
            ScalarKey::of(&v)
        };
        keep.push((key.and_then(|k| index.get_key(k)), v));
    }
    if keep.iter().all(|(pos, _)| pos.is_some()) {
        // Every item has a position: the comparator is a strict order, and any stable sort
        // gives Go's result (linear on already-ordered input).
        keep.sort_by_key(|(pos, _)| *pos);
    } else {
        // Go's comparator: less(i, j) = both found ? pos(i) < pos(j) : true. It is not a strict
        // order when an item is missing, so the result depends on the sort algorithm: use Go's.
        go_stable_sort(&mut keep, |(a, _), (b, _)| match (a, b) {
            (Some(pa), Some(pb)) => pa < pb,
            _ => true,
        });
    }
    let mut sorted: Vec<Value> = keep.into_iter().map(|(_, v)| v).collect();
    sorted.extend(to_delete);
    Ok(sorted)
}

/// The reference's `normalizeElementOrder`: sort patch items by `patch_order` and server-only
/// items by `server_order` (both key lists, see [`order_keys`]), then interleave them.
pub(super) fn normalize_element_order(
    patch: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    merge_key: &str,
    is_map: bool,
) -> Result<Vec<Value>, SmpError> {
    let patch = normalize_slice_order(patch, patch_order, merge_key, is_map)?;
    let server_only = normalize_slice_order(server_only, server_order, merge_key, is_map)?;
    Ok(merge_sorted_slice(
        server_only,
        patch,
        server_order,
        is_map.then_some(merge_key),
    ))
}

/// The reference's `mergeSortedSlice`: insert `left` items into `right`, before the first
/// `right` item that comes later in `server_order`.
fn merge_sorted_slice(
    left: Vec<Value>,
    right: Vec<Value>,
    server_order: &[Value],
    merge_key: Option<&str>,
) -> Vec<Value> {
    let index = FirstIndex::new(server_order);
    let left_pos: Vec<Option<usize>> = left.iter().map(|v| index.get(v, merge_key)).collect();
    let right_pos: Vec<Option<usize>> = right.iter().map(|v| index.get(v, merge_key)).collect();
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().zip(left_pos).peekable();
    let mut right = right.into_iter().zip(right_pos).peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((_, lp)), Some((_, rp))) => matches!((lp, rp), (Some(l), Some(r)) if l < r),
        };
        let next = if take_left { left.next() } else { right.next() };
        if let Some((v, _)) = next {
            out.push(v);
        }
    }
    out
}

/// Partition `merged` into items present in the key list `keys` (by merge key for maps, by value
/// for primitives) and the others, keeping relative order
/// (`partitionPrimitivesByPresentInList` / `partitionMapsByPresentInList`).
pub(super) fn partition_by_present(
    merged: Vec<Value>,
    keys: &[Value],
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), SmpError> {
    let present: crate::engine::gofmt::FastSet<ScalarKey<'_>> =
        keys.iter().filter_map(ScalarKey::of).collect();
    let mut patch = Vec::with_capacity(merged.len());
    let mut server_only = Vec::with_capacity(merged.len());
    for v in merged {
        let found = if merge_key.is_empty() {
            ScalarKey::of(&v).is_some_and(|k| present.contains(&k))
        } else {
            let Value::Object(m) = &v else {
                return Err(super::bad_arg_type_map(&v));
            };
            let Some(kv) = m.get(merge_key) else {
                return Err(super::no_merge_key(m, merge_key));
            };
            ScalarKey::of(kv).is_some_and(|k| present.contains(&k))
        };
        if found {
            patch.push(v);
        } else {
            server_only.push(v);
        }
    }
    Ok((patch, server_only))
}

/// Go's `sort.SliceStable` (insertion sort on blocks of 20, then `symMerge`), reproduced step by
/// step because the reference's comparator is not a strict order and the result depends on it.
pub(super) fn go_stable_sort<T>(data: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, &less);
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, &less);
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(data, a, a + block, b, &less, 0);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(data, a, m, n, &less, 0);
        }
        block *= 2;
    }
}

fn insertion_sort<T>(data: &mut [T], a: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1]) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sym_merge<T>(
    data: &mut [T],
    a: usize,
    m: usize,
    b: usize,
    less: &impl Fn(&T, &T) -> bool,
    depth: usize,
) {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&data[h], &data[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = a;
        while k + 1 < i {
            data.swap(k, k + 1);
            k += 1;
        }
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if less(&data[m], &data[h]) {
                j = h;
            } else {
                i = h + 1;
            }
        }
        let mut k = m;
        while k > i {
            data.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if less(&data[p - c], &data[c]) {
            r = c;
        } else {
            start = c + 1;
        }
    }
    let end = n - start;
    if start < m && m < end {
        data[start..end].rotate_left(m - start);
    }
    // Depth is logarithmic in the length; the guard only documents that.
    if depth < 128 {
        if a < start && start < mid {
            sym_merge(data, a, start, mid, less, depth + 1);
        }
        if mid < end && end < b {
            sym_merge(data, mid, end, b, less, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_stable_sort_is_stable_for_a_strict_order() {
        let mut v: Vec<(u32, usize)> = (0..100).map(|i| ((i * 7) % 5, i as usize)).collect();
        go_stable_sort(&mut v, |a, b| a.0 < b.0);
        for w in v.windows(2) {
            assert!(w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1));
        }
    }
}
