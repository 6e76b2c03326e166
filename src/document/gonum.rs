//! Go's number parsing, reproduced where kubectl's reading of YAML depends on it.
//!
//! go-yaml v2 types plain scalars with `strconv.ParseInt(s, 0, 64)`, `strconv.ParseUint` and
//! `strconv.ParseFloat`, after its own float pattern; each leaves a trace in the result (`08` is
//! 8 through the float parser, `0b-1` is -1, `1e400` stays a string), so each is reproduced
//! here with the same edge cases. The way back to text is in `gofloat`.

/// Why a number could not be read: Go's `strconv.ErrSyntax` or `strconv.ErrRange`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NumError {
    Syntax,
    Range,
}

/// `strconv.ParseUint(s, base, 64)`; base 0 means "from the prefix" (`0x`, `0o`, `0b`, `0`).
///
/// Callers strip underscores first (go-yaml does), so underscores are a syntax error here.
pub(super) fn parse_uint(s: &str, base: u32) -> Result<u64, NumError> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err(NumError::Syntax);
    }
    let (base, digits) = if base == 0 {
        if b[0] == b'0' {
            match b.get(1).map(u8::to_ascii_lowercase) {
                Some(b'b') if b.len() >= 3 => (2, &b[2..]),
                Some(b'o') if b.len() >= 3 => (8, &b[2..]),
                Some(b'x') if b.len() >= 3 => (16, &b[2..]),
                _ => (8, &b[1..]),
            }
        } else {
            (10, b)
        }
    } else {
        (base, b)
    };
    let mut n: u64 = 0;
    let mut overflow = false;
    for &c in digits {
        let d = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'a'..=b'z' => u32::from(c - b'a') + 10,
            b'A'..=b'Z' => u32::from(c - b'A') + 10,
            _ => return Err(NumError::Syntax),
        };
        if d >= base {
            return Err(NumError::Syntax);
        }
        match n
            .checked_mul(u64::from(base))
            .and_then(|m| m.checked_add(u64::from(d)))
        {
            Some(m) => n = m,
            None => overflow = true,
        }
    }
    if overflow {
        Err(NumError::Range)
    } else {
        Ok(n)
    }
}

/// `strconv.ParseInt(s, base, 64)`: an optional sign, then [`parse_uint`].
pub(super) fn parse_int(s: &str, base: u32) -> Result<i64, NumError> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        Some(_) => (false, s),
        None => return Err(NumError::Syntax),
    };
    let un = parse_uint(rest, base)?;
    const CUTOFF: u64 = 1 << 63;
    if neg {
        if un > CUTOFF {
            return Err(NumError::Range);
        }
        // -(2^63) wraps to itself, which is i64::MIN: exactly the value wanted.
        Ok((un as i64).wrapping_neg())
    } else if un >= CUTOFF {
        Err(NumError::Range)
    } else {
        Ok(un as i64)
    }
}

/// Go's `underscoreOK`: underscores only between digits (or after a base prefix).
fn underscore_ok(s: &str) -> bool {
    let mut b = s.as_bytes();
    if let Some(b'+' | b'-') = b.first() {
        b = &b[1..];
    }
    let mut saw = b'^';
    let mut i = 0;
    let mut hex = false;
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1].to_ascii_lowercase(), b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = b[1].eq_ignore_ascii_case(&b'x');
    }
    while i < b.len() {
        let c = b[i];
        i += 1;
        if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw = b'0';
            continue;
        }
        if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
            continue;
        }
        if saw == b'_' {
            return false;
        }
        saw = b'!';
    }
    saw != b'_'
}

/// Whether `s` is a decimal float in Go's syntax: digits with at most one `.`, at least one
/// digit, then an optional exponent (`e`, optional sign, at least one digit). Signs allowed.
fn decimal_float_syntax(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let mut digits = 0;
    let mut dot = false;
    while i < b.len() {
        match b[i] {
            b'0'..=b'9' => digits += 1,
            b'.' if !dot => dot = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return false;
    }
    if i == b.len() {
        return true;
    }
    if !matches!(b[i], b'e' | b'E') {
        return false;
    }
    i += 1;
    if let Some(b'+' | b'-') = b.get(i) {
        i += 1;
    }
    let exp_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i == b.len() && i > exp_start
}

/// `strconv.ParseFloat(s, 64)` for decimal input (what go-yaml can hand it: hex floats,
/// `inf` and `nan` never reach it). Overflow is an error, as in Go; underflow gives zero.
pub(super) fn parse_float(s: &str) -> Result<f64, NumError> {
    let cleaned;
    let s = if s.contains('_') {
        if !underscore_ok(s) {
            return Err(NumError::Syntax);
        }
        cleaned = s.replace('_', "");
        cleaned.as_str()
    } else {
        s
    };
    if !decimal_float_syntax(s) {
        return Err(NumError::Syntax);
    }
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(f),
        Ok(_) => Err(NumError::Range),
        Err(_) => Err(NumError::Syntax),
    }
}

/// go-yaml v2's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
pub(super) fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if int_digits == 0 && i == frac_start {
            return false;
        }
    } else if int_digits == 0 {
        return false;
    }
    if i == b.len() {
        return true;
    }
    if !matches!(b[i], b'e' | b'E') {
        return false;
    }
    i += 1;
    if let Some(b'+' | b'-') = b.get(i) {
        i += 1;
    }
    let exp_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i == b.len() && i > exp_start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_int_base0_like_go() {
        assert_eq!(parse_int("0x10", 0), Ok(16));
        assert_eq!(parse_int("-0x10", 0), Ok(-16));
        assert_eq!(parse_int("010", 0), Ok(8));
        assert_eq!(parse_int("0", 0), Ok(0));
        assert_eq!(parse_int("00", 0), Ok(0));
        assert_eq!(parse_int("08", 0), Err(NumError::Syntax));
        assert_eq!(parse_int("0x", 0), Err(NumError::Syntax));
        assert_eq!(parse_int("0b101", 0), Ok(5));
        assert_eq!(parse_int("0O17", 0), Ok(15));
        assert_eq!(parse_int("9223372036854775807", 0), Ok(i64::MAX));
        assert_eq!(parse_int("-9223372036854775808", 0), Ok(i64::MIN));
        assert_eq!(parse_int("9223372036854775808", 0), Err(NumError::Range));
        assert_eq!(parse_int("-1", 2), Ok(-1));
        assert_eq!(parse_int("", 0), Err(NumError::Syntax));
        assert_eq!(parse_int("+", 0), Err(NumError::Syntax));
        assert_eq!(parse_uint("18446744073709551615", 0), Ok(u64::MAX));
        assert_eq!(parse_uint("18446744073709551616", 0), Err(NumError::Range));
        assert_eq!(parse_uint("+1", 0), Err(NumError::Syntax));
    }

    #[test]
    fn parse_float_like_go() {
        assert_eq!(parse_float(".5_5"), Ok(0.55));
        assert_eq!(parse_float("._5"), Err(NumError::Syntax));
        assert_eq!(parse_float(".5_"), Err(NumError::Syntax));
        assert_eq!(parse_float(".e3"), Err(NumError::Syntax));
        assert_eq!(parse_float(".5e3"), Ok(500.0));
        assert_eq!(parse_float("1e400"), Err(NumError::Range));
        assert_eq!(parse_float("1e-400"), Ok(0.0));
        assert_eq!(parse_float("1."), Ok(1.0));
        assert_eq!(parse_float("inf"), Err(NumError::Syntax));
    }

    #[test]
    fn yaml_float_regex() {
        for s in [
            "1", "1.", ".5", "-.5", "+1.5e3", "1e3", "1E+3", "08", "09.5",
        ] {
            assert!(yaml_style_float(s), "{s}");
        }
        for s in [
            "", ".", "e3", ".e3", "1e", "1e+", "1.2.3", "+", "0x1p3", "1,0",
        ] {
            assert!(!yaml_style_float(s), "{s}");
        }
    }
}
