//! Go's `sort.Sort` (pattern-defeating quicksort, Go ≥ 1.19), step by step.
//!
//! The reference sorts merge-list items by the `%v` text of their merge key with `sort.Sort` and
//! a comparator that is not strict (`less(i, j) = text(i) <= text(j)`). Items with equal keys (the
//! same env name twice) end up in an order that only Go's algorithm gives, and that order decides
//! which duplicate is diffed against last-applied: the patch kubectl sends depends on it. So the
//! algorithm is reproduced here as Go's `src/sort/zsortinterface.go` writes it (insertion sort
//! up to 12 items, then pdqsort with its pivot choice, pattern breaking and heapsort fallback).

/// `sort.Sort(data)` with `less` as `data.Less`.
pub fn sort<T>(data: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = data.len();
    if n <= 1 {
        return;
    }
    let limit = bits_len(n);
    let mut s = Sorter { data, less };
    s.pdqsort(0, n, limit);
}

/// `bits.Len(uint(n))`.
fn bits_len(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

#[derive(Clone, Copy, PartialEq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct Sorter<'d, T, L> {
    data: &'d mut [T],
    less: L,
}

impl<T, L: Fn(&T, &T) -> bool> Sorter<'_, T, L> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.data[i], &self.data[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.data.swap(i, j);
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: usize, b: usize) {
        let (first, hi) = (a, b - a);
        for i in (0..hi.div_ceil(2)).rev() {
            self.sift_down(i, hi, first);
        }
        for i in (0..hi).rev() {
            self.swap(first, first + i);
            self.sift_down(0, i, first);
        }
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: usize) {
        const MAX_INSERTION: usize = 12;
        let (mut was_balanced, mut was_partitioned) = (true, true);
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced
                && was_partitioned
                && hint == Hint::Increasing
                && self.partial_insertion_sort(a, b)
            {
                return;
            }
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already) = self.partition(a, b, pivot);
            was_partitioned = already;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    /// `partition`: `data[a]` (the pivot, swapped there) ends at the returned index.
    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.swap(a, pivot);
        // Go's i and j are ints; j may pass below i but never below a.
        let (mut i, mut j) = (a + 1, b - 1);
        while i <= j && self.less(i, a) {
            i += 1;
        }
        while i <= j && !self.less(j, a) {
            j -= 1;
        }
        if i > j {
            self.swap(j, a);
            return (j, true);
        }
        self.swap(i, j);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(i, a) {
                i += 1;
            }
            while i <= j && !self.less(j, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
        self.swap(j, a);
        (j, false)
    }

    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        loop {
            while i <= j && !self.less(a, i) {
                i += 1;
            }
            while i <= j && self.less(a, j) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
        i
    }

    fn partial_insertion_sort(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                for j in i + 1..b {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                }
            }
        }
        false
    }

    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length >= 8 {
            let mut random = length as u64;
            let modulus = 1usize << bits_len(length);
            let start = a + (length / 4) * 2 - 1;
            for idx in start..=start + 2 {
                random ^= random << 13;
                random ^= random >> 7;
                random ^= random << 17;
                // Go: int(uint(random.Next()) & (modulus - 1)).
                let mut other = (random as usize) & (modulus - 1);
                if other >= length {
                    other -= length;
                }
                self.swap(idx, a + other);
            }
        }
    }

    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, Hint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0;
        let (mut i, mut j, mut k) = (a + l / 4, a + l / 4 * 2, a + l / 4 * 3);
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    fn order2(&self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            return (b, a);
        }
        (a, b)
    }

    fn median(&self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, _) = self.order2(b, c, swaps);
        let (_, b) = self.order2(a, b, swaps);
        b
    }

    fn reverse_range(&mut self, a: usize, b: usize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorted by key with Go's non-strict comparator (`<=`), every item kept.
    #[test]
    fn sorts_and_keeps_items() {
        for n in [0, 1, 2, 12, 13, 40, 49, 50, 51, 200] {
            let mut items: Vec<(u32, usize)> =
                (0..n).map(|i| ((i * 7919 % 13) as u32, i)).collect();
            sort(&mut items, |a, b| a.0 <= b.0);
            assert!(items.windows(2).all(|w| w[0].0 <= w[1].0), "{n}");
            let mut ids: Vec<usize> = items.iter().map(|x| x.1).collect();
            ids.sort_unstable();
            assert_eq!(ids, (0..n).collect::<Vec<_>>());
        }
    }

    /// Reverse-sorted input takes the decreasing-hint path (reverse, then partial insertion).
    #[test]
    fn reversed_and_heap_paths() {
        let mut items: Vec<u32> = (0..100).rev().collect();
        sort(&mut items, |a, b| a < b);
        assert_eq!(items, (0..100).collect::<Vec<_>>());
        let mut s = Sorter {
            data: &mut [5, 3, 9, 1, 7][..],
            less: |a: &i32, b: &i32| a < b,
        };
        s.heap_sort(0, 5);
        assert_eq!(s.data, &[1, 3, 5, 7, 9]);
    }
}
