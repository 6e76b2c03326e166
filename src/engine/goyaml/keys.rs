//! go-yaml's mapping key order (`sorter.go`): letters after other characters, digit runs
//! compared as numbers.

/// go-yaml's key order (`keyList.Less` for two strings).
pub(super) fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    if a == b {
        return Ordering::Equal;
    }
    if key_less(a, b) {
        Ordering::Less
    } else if key_less(b, a) {
        Ordering::Greater
    } else {
        a.cmp(b)
    }
}

pub(super) fn key_less(a: &str, b: &str) -> bool {
    // ASCII keys (nearly all) are compared as they are, without a copy.
    if a.is_ascii() && b.is_ascii() {
        return less(a.as_bytes(), b.as_bytes());
    }
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    less(&ar, &br)
}

/// [`key_less`] over the keys' characters (bytes for ASCII keys: the same order).
fn less<C: Copy + Into<char>>(a: &[C], b: &[C]) -> bool {
    let ar = |i: usize| -> char { a[i].into() };
    let br = |i: usize| -> char { b[i].into() };
    let digit = |c: char| c.is_ascii_digit();
    for i in 0..a.len().min(b.len()) {
        if ar(i) == br(i) {
            continue;
        }
        let al = ar(i).is_alphabetic();
        let bl = br(i).is_alphabetic();
        if al && bl {
            return ar(i) < br(i);
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar(i) == '0' || br(i) == '0' {
            let mut j = i;
            while j > 0 && digit(ar(j - 1)) {
                j -= 1;
                if ar(j) != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < a.len() && digit(ar(ai)) {
            an = an
                .wrapping_mul(10)
                .wrapping_add(i64::from(u32::from(ar(ai)) - u32::from('0')));
            ai += 1;
        }
        let mut bi = i;
        while bi < b.len() && digit(br(bi)) {
            bn = bn
                .wrapping_mul(10)
                .wrapping_add(i64::from(u32::from(br(bi)) - u32::from('0')));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar(i) < br(i);
    }
    a.len() < b.len()
}
