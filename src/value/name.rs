//! Key and field-name equality, compared in place a word (eight bytes) at a time: names are
//! short and compared very often (an object's key lookups, the schema's field lookups, the
//! keys of two objects side by side), where a call of `memcmp` for each costs more than the
//! comparison.

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
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        // The first, middle and last bytes: every byte of a name of one to three.
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        0 => true,
        _ => same_long(a, b),
    }
}

#[inline(always)]
fn word(s: &[u8], at: usize) -> u64 {
    s[at..at + 8].try_into().map_or(0, u64::from_ne_bytes)
}

#[inline(always)]
fn half(s: &[u8], at: usize) -> u32 {
    s[at..at + 4].try_into().map_or(0, u32::from_ne_bytes)
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
