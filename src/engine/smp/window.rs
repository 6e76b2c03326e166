//! What the reference still sees of a list after merging into it in place.
//!
//! Go slices share their backing array. When the API server's merge code deletes items from a
//! live list (`$patch: delete`) it shifts the array left in place, and when it then appends new
//! items they may land in the same array's spare capacity. The caller that orders the merged
//! list (`$setElementOrder`) reads the live list through its old slice header and so sees those
//! writes: the order of the result depends on them (conformance case "add map and delete map
//! from merging list"). [`Window`] replays those writes on the list's merge keys.
//!
//! The spare capacity is that of a list decoded from JSON by Go (`append` from empty: powers of
//! two up to 256 items, then Go's growth rule and malloc size classes), which is how kubectl and
//! the reference tests read documents.

use crate::engine::gofmt;
use crate::value::Value;

/// The keys of a live list as its original slice header sees them.
#[derive(Debug)]
pub(super) struct Window {
    keys: Vec<Value>,
    len: usize,
    cap: usize,
    attached: bool,
}

impl Window {
    /// A window over a list (given by its order keys) as decoded from JSON.
    pub(super) fn new(keys: Vec<Value>) -> Window {
        let len = keys.len();
        Window {
            keys,
            len,
            cap: go_decoded_cap(len),
            attached: true,
        }
    }

    /// `append(s[:i], s[i+1:]...)`: shift left in place.
    pub(super) fn remove(&mut self, i: usize) {
        if !self.attached || i >= self.len {
            return;
        }
        let end = self.len.min(self.keys.len());
        for j in i..end.saturating_sub(1) {
            self.keys[j] = self.keys[j + 1].clone();
        }
        self.len -= 1;
    }

    /// `append(s, item)`: written in place while capacity lasts.
    pub(super) fn push(&mut self, key: Value) {
        if !self.attached {
            return;
        }
        if self.len < self.cap {
            if let Some(slot) = self.keys.get_mut(self.len) {
                *slot = key;
            }
            self.len += 1;
        } else {
            // Reallocated: later writes go to a new array.
            self.attached = false;
        }
    }

    /// `deduplicateScalars(append(s, patch...))` on a list of primitives: when the append fits
    /// in the spare capacity, the deduplication's writes (`s[j] = s[last]`) land in this array.
    ///
    /// # Errors
    /// The panic of the deduplication's `==` (see [`gofmt::deduplicate_scalars`]), which the
    /// merged list's own deduplication meets too.
    pub(super) fn append_dedup_scalars(&mut self, patch: &[Value]) -> Result<(), gofmt::GoPanic> {
        if !self.attached {
            return Ok(());
        }
        if self.len + patch.len() > self.cap {
            // Reallocated: the deduplication writes to a new array.
            self.attached = false;
            return Ok(());
        }
        let mut backing: Vec<Value> = self.keys.iter().take(self.len).cloned().collect();
        backing.extend(patch.iter().cloned());
        if gofmt::has_duplicate_scalars(&backing) {
            go_dedup_writes(&mut backing)?;
            for (slot, v) in self.keys.iter_mut().zip(backing) {
                *slot = v;
            }
        }
        Ok(())
    }

    /// The keys as the old slice header sees them so far.
    pub(super) fn keys(&self) -> &[Value] {
        &self.keys
    }

    /// The list was replaced by another slice: no more writes reach this array.
    pub(super) fn detach(&mut self) {
        self.attached = false;
    }

    /// The keys as the old slice header sees them now.
    pub(super) fn into_keys(self) -> Vec<Value> {
        self.keys
    }
}

/// The writes of the reference's `deduplicateScalars` to its array, which is not truncated: a
/// later duplicate's slot gets a copy of the current last element, whose own slot keeps it.
fn go_dedup_writes(s: &mut [Value]) -> Result<(), gofmt::GoPanic> {
    let Some(mut length) = s.len().checked_sub(1) else {
        return Ok(());
    };
    let mut i = 0;
    while i < length {
        let mut j = i + 1;
        while j <= length {
            if gofmt::go_eq(&s[i], &s[j])? {
                s[j] = s[length].clone();
                length -= 1;
            } else {
                j += 1;
            }
        }
        i += 1;
    }
    Ok(())
}

/// Capacity of a `[]interface{}` of `len` items built by `append` from `make([]any, 0)`, as Go's
/// JSON decoder builds arrays (Go ≥ 1.20 `growslice`, 16-byte elements, malloc size classes).
#[must_use]
pub(super) fn go_decoded_cap(len: usize) -> usize {
    let mut cap = 0usize;
    while cap < len {
        cap = grow(cap, cap + 1);
    }
    cap
}

fn grow(old_cap: usize, new_len: usize) -> usize {
    let double = old_cap * 2;
    let mut new_cap = if new_len > double {
        new_len
    } else if old_cap < 256 {
        double
    } else {
        let mut c = old_cap;
        while c < new_len {
            c += (c + 3 * 256) >> 2;
        }
        c
    };
    new_cap = round_up_size(new_cap * 16) / 16;
    new_cap.max(new_len)
}

/// Go's malloc size classes (bytes) up to 32 KiB; larger objects are rounded up to 8 KiB pages.
const SIZE_CLASSES: [usize; 67] = [
    8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352,
    384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
    2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728,
    10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672,
    32768,
];

fn round_up_size(bytes: usize) -> usize {
    match SIZE_CLASSES.iter().find(|&&c| c >= bytes) {
        Some(&c) => c,
        None => bytes.div_ceil(8192) * 8192,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoded_capacity_doubles_then_follows_size_classes() {
        assert_eq!(go_decoded_cap(0), 0);
        assert_eq!(go_decoded_cap(1), 1);
        assert_eq!(go_decoded_cap(3), 4);
        assert_eq!(go_decoded_cap(5), 8);
        assert_eq!(go_decoded_cap(256), 256);
        assert_eq!(go_decoded_cap(257), 512);
        assert_eq!(go_decoded_cap(513), 848);
    }

    #[test]
    fn window_sees_deduplication_writes_in_spare_capacity() {
        // [3, 0, 1, 2, 9, 3] (cap 8) + [7]: the second 3 gets the 7 in place.
        let v = |xs: &[i64]| xs.iter().map(|&x| Value::from(x)).collect::<Vec<_>>();
        let mut w = Window::new(v(&[3, 0, 1, 2, 9, 3]));
        w.append_dedup_scalars(&v(&[7])).unwrap();
        assert_eq!(w.keys(), v(&[3, 0, 1, 2, 9, 7]).as_slice());
        // [1, 2, 1, 2] (cap 4) + [5]: reallocated, nothing written.
        let mut w = Window::new(v(&[1, 2, 1, 2]));
        w.append_dedup_scalars(&v(&[5])).unwrap();
        assert_eq!(w.keys(), v(&[1, 2, 1, 2]).as_slice());
    }

    #[test]
    fn window_sees_in_place_shift_and_append() {
        // [1, 2, 4] (cap 4): delete 1 → [2, 4, 4]; append 3 → [2, 4, 3].
        let mut w = Window::new(vec![Value::from(1), Value::from(2), Value::from(4)]);
        w.remove(0);
        w.push(Value::from(3));
        assert_eq!(
            w.into_keys(),
            vec![Value::from(2), Value::from(4), Value::from(3)]
        );
    }
}
