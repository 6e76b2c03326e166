//! Key and field-name equality and order, compared in place a word (eight bytes) at a time:
//! names are short and compared very often (an object's key lookups, the schema's field
//! lookups, the keys of two objects side by side, every set operation on paths), where a call
//! of `memcmp` for each, or a branch per byte, costs more than the comparison.

use std::cmp::Ordering;

/// Whether `a` and `b` hold the same bytes (names of more than sixteen bytes are rare: they are
/// compared out of line).
#[inline(always)]
#[must_use]
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        // Two words that overlap where n < 16: each byte is in one of them.
        8..=16 => {
            let word = |s: &[u8], at: usize| u64::from_ne_bytes(word(s, at));
            word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8)
        }
        4..=7 => {
            let half = |s: &[u8], at: usize| u32::from_ne_bytes(half(s, at));
            half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4)
        }
        // The first, middle and last bytes: every byte of a name of one to three.
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        0 => true,
        _ => same_long(a, b),
    }
}

/// Names in byte order (Go's string comparison), without a loop over bytes. As in [`same`],
/// the last word of a name overlaps the one before: its bytes up to there are equal already,
/// so the first difference decides either way.
#[inline]
#[must_use]
pub fn order(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len().min(b.len());
    let word = |s: &[u8], at: usize| u64::from_be_bytes(word(s, at));
    let half = |s: &[u8], at: usize| u32::from_be_bytes(half(s, at));
    let common = match n {
        8.. => {
            let mut at = 0;
            loop {
                let order = word(a, at).cmp(&word(b, at));
                if order.is_ne() || at + 8 >= n {
                    break order;
                }
                at = (at + 8).min(n - 8);
            }
        }
        4..=7 => half(a, 0)
            .cmp(&half(b, 0))
            .then_with(|| half(a, n - 4).cmp(&half(b, n - 4))),
        1..=3 => a[0]
            .cmp(&b[0])
            .then(a[n / 2].cmp(&b[n / 2]))
            .then(a[n - 1].cmp(&b[n - 1])),
        0 => Ordering::Equal,
    };
    common.then(a.len().cmp(&b.len()))
}

/// The eight bytes of `s` from `at`.
#[inline(always)]
fn word(s: &[u8], at: usize) -> [u8; 8] {
    s[at..at + 8].try_into().unwrap_or_default()
}

/// The four bytes of `s` from `at`.
#[inline(always)]
fn half(s: &[u8], at: usize) -> [u8; 4] {
    s[at..at + 4].try_into().unwrap_or_default()
}

/// [`same`] of two of more than sixteen bytes, of one length.
#[inline(never)]
fn same_long(a: &[u8], b: &[u8]) -> bool {
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every pair of lengths up to 20 (each word and overlap), equal, one a prefix of the
    /// other, or differing at any one byte, lower or higher: the order of their bytes.
    #[test]
    fn names_compare_as_bytes_at_every_length_and_place() {
        let base = "abcdefghijklmnopqrstuv";
        let mut names: Vec<String> = Vec::new();
        for len in 0..=20 {
            names.push(base[..len].to_owned());
            for at in 0..len {
                for c in ['A', '~'] {
                    let mut n = base[..len].to_owned();
                    n.replace_range(at..=at, &c.to_string());
                    names.push(n);
                }
            }
        }
        for a in &names {
            for b in &names {
                assert_eq!(order(a, b), a.as_bytes().cmp(b.as_bytes()), "{a:?} {b:?}");
            }
        }
    }

    /// Names compare as their bytes do, whatever their lengths and wherever they differ
    /// (inside a word, in the tail, one a prefix of the other; bytes past 0x7f).
    #[test]
    fn names_compare_as_bytes() {
        let names = [
            "",
            "a",
            "b",
            "ab",
            "abcdefgh",
            "abcdefgi",
            "abcdefgh1",
            "abcdefghabcdefgh",
            "abcdefghabcdefgha",
            "abcdefghabcdefgi",
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzz",
            "é",
            "éa",
            "\u{ff}",
            "apiVersion",
            "api",
            "apiVersionX",
            "metadata",
            "metadataa",
        ];
        for a in names {
            for b in names {
                assert_eq!(order(a, b), a.as_bytes().cmp(b.as_bytes()), "{a:?} {b:?}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]
        /// Names of every length up to three words, mostly equal or sharing their first bytes.
        #[test]
        fn names_are_the_same_when_their_bytes_are(
            a in "(abcdefgh)?[ab\\x00\u{e9}]{0,20}",
            b in "(abcdefgh)?[ab\\x00\u{e9}]{0,20}",
        ) {
            prop_assert_eq!(same(&a, &b), a == b);
            prop_assert!(same(&a, &a.clone()));
        }

        /// Every byte counts: a name of any length up to three words differs from itself
        /// with any one byte changed.
        #[test]
        fn one_byte_changed_is_another_name(
            a in "[a-z]{1,40}",
            at in any::<prop::sample::Index>(),
            to in b'A'..=b'Z',
        ) {
            let mut bytes = a.clone().into_bytes();
            bytes[at.index(a.len())] = to;
            let b = String::from_utf8(bytes).unwrap();
            prop_assert!(!same(&a, &b));
            prop_assert!(same(&a, &a.clone()));
        }
    }
}
