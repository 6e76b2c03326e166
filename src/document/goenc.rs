//! Two Go library behaviours go-yaml leans on: `base64.StdEncoding` for `!!binary`, and
//! `time.Parse` with go-yaml's four timestamp layouts for `!!timestamp`.

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Go's `base64.StdEncoding`: the standard alphabet, padding required, stray bits in the last
/// character ignored (Go checks them only in `Strict` mode).
const GO_STD_ENCODING: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
);

/// Decodes a `!!binary` scalar as go-yaml does (`base64.StdEncoding`, which skips `\r` and `\n`),
/// then makes a string of the bytes as Go's JSON encoder would: each byte that is not part of
/// valid UTF-8 becomes U+FFFD.
pub(super) fn base64_to_string(text: &str) -> Result<String, String> {
    let input: Vec<u8> = text
        .bytes()
        .filter(|b| !matches!(b, b'\r' | b'\n'))
        .collect();
    GO_STD_ENCODING
        .decode(input)
        .map(|bytes| go_lossy_utf8(&bytes))
        .map_err(|_| "!!binary value contains invalid base64 data".to_owned())
}

/// `string(bytes)` as Go's `encoding/json` writes it: one U+FFFD per invalid byte.
fn go_lossy_utf8(mut bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(valid) => {
                s.push_str(valid);
                return s;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                s.push_str(std::str::from_utf8(valid).unwrap_or_default());
                s.push('\u{FFFD}');
                bytes = rest.get(1..).unwrap_or_default();
            }
        }
    }
}

/// Reads 1 or 2 ASCII digits (Go's `getnum(value, false)`).
fn num12(s: &[u8], i: &mut usize) -> Option<u32> {
    let d1 = s.get(*i).filter(|c| c.is_ascii_digit())?;
    *i += 1;
    let mut n = u32::from(d1 - b'0');
    if let Some(d2) = s.get(*i).filter(|c| c.is_ascii_digit()) {
        *i += 1;
        n = n * 10 + u32::from(d2 - b'0');
    }
    Some(n)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// go-yaml v2's `parseTimestamp`: `2006-1-2`, `2006-1-2 15:4:5.999999999`, or
/// `2006-1-2T15:4:5.999999999Z07:00` (also with a lower-case `t`), checked as `time.Parse` does.
pub(super) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let year = b[..4].iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'));
    let mut i = 5;
    let Some(month) = num12(b, &mut i) else {
        return false;
    };
    if b.get(i) != Some(&b'-') {
        return false;
    }
    i += 1;
    let Some(day) = num12(b, &mut i) else {
        return false;
    };
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return false;
    }
    let zone = match b.get(i) {
        None => return true,
        Some(b'T' | b't') => true,
        Some(b' ') => false,
        Some(_) => return false,
    };
    i += 1;
    let Some(hour) = num12(b, &mut i) else {
        return false;
    };
    let mut fields = [hour, 0, 0];
    for f in &mut fields[1..] {
        if b.get(i) != Some(&b':') {
            return false;
        }
        i += 1;
        let Some(n) = num12(b, &mut i) else {
            return false;
        };
        *f = n;
    }
    if fields[0] > 23 || fields[1] > 59 || fields[2] > 59 {
        return false;
    }
    if matches!(b.get(i), Some(b'.' | b',')) && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if !zone {
        return i == b.len();
    }
    match &b[i..] {
        [b'Z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit())
                && (h1 - b'0') * 10 + (h2 - b'0') < 24
                && (m1 - b'0') * 10 + (m2 - b'0') < 60
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_like_go() {
        assert_eq!(base64_to_string("aGVsbG8="), Ok("hello".to_owned()));
        assert_eq!(base64_to_string("aGVs\nbG8="), Ok("hello".to_owned()));
        assert_eq!(base64_to_string(""), Ok(String::new()));
        assert!(base64_to_string("aGVs bG8=").is_err());
        assert!(base64_to_string("aGVsbG8").is_err());
        assert!(base64_to_string("aG=sbG8=").is_err());
        // 0xE2 0x82 (a cut UTF-8 sequence) is two invalid bytes for Go.
        assert_eq!(base64_to_string("4oI="), Ok("\u{FFFD}\u{FFFD}".to_owned()));
        // Stray bits in the last character are ignored, as Go's non-strict decoder does.
        assert_eq!(base64_to_string("aGVsbG9="), Ok("hello".to_owned()));
        assert!(base64_to_string("aGVsbG8=aGVs").is_err());
        assert!(base64_to_string("a===").is_err());
    }

    #[test]
    fn timestamps() {
        for s in [
            "2001-12-14",
            "2002-1-2",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14T21:59:43Z",
            "2001-12-14 21:59:43.10",
            "2000-2-29",
        ] {
            assert!(is_timestamp(s), "{s}");
        }
        for s in [
            "2001-12-14 21:59:43.10 -5",
            "2001-13-01",
            "2001-2-29",
            "200-1-1",
            "2001-1-1x",
        ] {
            assert!(!is_timestamp(s), "{s}");
        }
    }
}
