//! List order after a merge: `$setElementOrder` > order in the patch > order in the live list.
//!
//! kubectl's surprising order (a live-only item lands before newly added ones, oracle example b)
//! comes from here: patch items are sorted by the patch order, live-only items by the live order,
//! and the two runs are interleaved by live positions where both are known.

use crate::value::Value;

use super::SmpError;
use crate::engine::gofmt::{FirstIndex, GoPanic, go_hash_key};

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
    let mut keep: Vec<(Result<Option<usize>, GoPanic>, Value)> = Vec::with_capacity(to_sort.len());
    let mut to_delete = Vec::new();
    for v in to_sort {
        let pos = if is_map {
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
            index.go_index(key)
        } else {
            index.go_index(&v)
        };
        keep.push((pos, v));
    }
    if keep.iter().all(|(pos, _)| matches!(pos, Ok(Some(_)))) {
        // Every item has a position: the comparator is a strict order, and any stable sort
        // gives Go's result (linear on already-ordered input).
        keep.sort_by_key(|(pos, _)| (*pos).ok().flatten());
    } else {
        // Go's comparator: less(i, j) = both found ? pos(i) < pos(j) : true, where pos(j) is
        // only looked up when pos(i) was found. It is not a strict order when an item is
        // missing, so the result depends on the sort algorithm: use Go's. A lookup that would
        // panic (a map merge key against a map key in `order`) panics only if Go's sort
        // evaluates it: the first one evaluated is the crash.
        let panic = std::cell::Cell::new(None);
        let crash = |p: &GoPanic| {
            if panic.get().is_none() {
                panic.set(Some(*p));
            }
            true
        };
        go_stable_sort(&mut keep, |(a, _), (b, _)| match a {
            Err(p) => crash(p),
            Ok(None) => true,
            Ok(Some(pa)) => match b {
                Err(p) => crash(p),
                Ok(None) => true,
                Ok(Some(pb)) => pa < pb,
            },
        });
        if let Some(p) = panic.get() {
            return Err(p.into());
        }
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
    merge_sorted_slice(
        server_only,
        patch,
        server_order,
        is_map.then_some(merge_key),
    )
    .map_err(SmpError::from)
}

/// The reference's `mergeSortedSlice`: insert `left` items into `right`, before the first
/// `right` item that comes later in `server_order`. Its `less` looks up the left item, then the
/// right one, each with Go's `==` scan, which may panic.
fn merge_sorted_slice(
    left: Vec<Value>,
    right: Vec<Value>,
    server_order: &[Value],
    merge_key: Option<&str>,
) -> Result<Vec<Value>, GoPanic> {
    let index = FirstIndex::new(server_order);
    let pos = |v: &Value| index.go_index_item(v, merge_key);
    let left_pos: Vec<Result<Option<usize>, GoPanic>> = left.iter().map(pos).collect();
    let right_pos: Vec<Result<Option<usize>, GoPanic>> = right.iter().map(pos).collect();
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().zip(left_pos).peekable();
    let mut right = right.into_iter().zip(right_pos).peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((_, lp)), Some((_, rp))) => {
                let (l, r) = ((*lp)?, (*rp)?);
                matches!((l, r), (Some(l), Some(r)) if l < r)
            }
        };
        let next = if take_left { left.next() } else { right.next() };
        if let Some((v, _)) = next {
            out.push(v);
        }
    }
    Ok(out)
}

/// Partition `merged` into items present in the key list `keys` (by merge key for maps, by value
/// for primitives) and the others, keeping relative order
/// (`partitionPrimitivesByPresentInList` / `partitionMapsByPresentInList`). The primitives'
/// version puts `keys` in a Go map first, then looks each item up (hashing a map or a slice
/// panics); the maps' version scans `keys` with `==` for each item in turn.
pub(super) fn partition_by_present(
    merged: Vec<Value>,
    keys: &[Value],
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), SmpError> {
    let mut patch = Vec::with_capacity(merged.len());
    let mut server_only = Vec::with_capacity(merged.len());
    if merge_key.is_empty() {
        let mut present: crate::engine::gofmt::FastSet<_> =
            crate::engine::gofmt::FastSet::with_capacity_and_hasher(keys.len(), Default::default());
        for k in keys {
            present.insert(go_hash_key(k)?);
        }
        for v in merged {
            if present.contains(&go_hash_key(&v)?) {
                patch.push(v);
            } else {
                server_only.push(v);
            }
        }
        return Ok((patch, server_only));
    }
    let index = FirstIndex::new(keys);
    for v in merged {
        let Value::Object(m) = &v else {
            return Err(super::bad_arg_type_map(&v));
        };
        let Some(kv) = m.get(merge_key) else {
            return Err(super::no_merge_key(m, merge_key));
        };
        if index.go_index(kv)?.is_some() {
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
    use crate::engine::gofmt::GoType;
    use crate::json;

    const MAP_PANIC: GoPanic = GoPanic::Uncomparable(GoType::Map);

    #[test]
    fn normalize_slice_order_panics_only_where_go_sort_looks() {
        let order = vec![json!("a"), json!({"value": "data"})];
        // less(z, map): z is not in the order, so the map (whose lookup panics) is never
        // looked up.
        let x = json!({"name": {"value": "x"}});
        let z = json!({"name": "z"});
        let sorted = normalize_slice_order(vec![x.clone(), z.clone()], &order, "name", true);
        assert_eq!(sorted, Ok(vec![z.clone(), x.clone()]));
        // less(map, z) looks the map up first: panic.
        let sorted = normalize_slice_order(vec![z.clone(), x.clone()], &order, "name", true);
        assert_eq!(sorted, Err(MAP_PANIC.into()));
        // No map key in the order: the map key is just not found.
        let order = vec![json!("a"), json!("z")];
        let sorted = normalize_slice_order(vec![x.clone(), z.clone()], &order, "name", true);
        assert_eq!(sorted, Ok(vec![z, x]));
    }

    #[test]
    fn merge_sorted_slice_looks_up_the_left_item_first() {
        let left = vec![json!({"name": {"value": "data"}})];
        let right = vec![json!({"name": "a"})];
        let order = vec![json!({"value": "data"}), json!("a")];
        let merged = merge_sorted_slice(left.clone(), right.clone(), &order, Some("name"));
        assert_eq!(merged, Err(MAP_PANIC));
        let merged = merge_sorted_slice(left.clone(), right.clone(), &order[1..], Some("name"));
        assert_eq!(merged, Ok(vec![right[0].clone(), left[0].clone()]));
    }

    #[test]
    fn partition_scans_maps_and_hashes_primitives() {
        let merged = vec![json!({"name": "a"}), json!({"name": {"value": "data"}})];
        let (patch, server_only) =
            partition_by_present(merged.clone(), &[json!("a")], "name").unwrap();
        assert_eq!((patch.len(), server_only.len()), (1, 1));
        let keys = [json!("a"), json!({"value": "other"})];
        assert_eq!(
            partition_by_present(merged, &keys, "name"),
            Err(MAP_PANIC.into())
        );
        // `map[interface{}]bool`: the keys are hashed first, then each item.
        let unhashable = |t| SmpError::from(GoPanic::Unhashable(t));
        let keys = [json!("x"), json!([1])];
        assert_eq!(
            partition_by_present(vec![json!({})], &keys, ""),
            Err(unhashable(GoType::Slice))
        );
        assert_eq!(
            partition_by_present(vec![json!("x"), json!({})], &keys[..1], ""),
            Err(unhashable(GoType::Map))
        );
        let (patch, server_only) =
            partition_by_present(vec![json!("x"), json!("y")], &keys[..1], "").unwrap();
        assert_eq!((patch, server_only), (vec![json!("x")], vec![json!("y")]));
    }

    #[test]
    fn go_stable_sort_is_stable_for_a_strict_order() {
        let mut v: Vec<(u32, usize)> = (0..100).map(|i| ((i * 7) % 5, i as usize)).collect();
        go_stable_sort(&mut v, |a, b| a.0 < b.0);
        for w in v.windows(2) {
            assert!(w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1));
        }
    }
}
