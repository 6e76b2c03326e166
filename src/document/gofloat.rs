//! Go's number formatting, reproduced where kubectl's reading of YAML depends on it.
//!
//! sigs.k8s.io/yaml writes go-yaml's values as JSON text (`encoding/json`), turns float map
//! keys into strings with `strconv.FormatFloat(f, 'g', -1, 32)`, and kubectl decodes that JSON
//! text again: int64 if the number text parses as one, float64 otherwise. So `1.0` becomes the
//! integer 1, a key `1e7` becomes `"1e+07"`, and `.inf` cannot be written at all.

use crate::value::{Number, Value};

/// A float64 as kubectl ends up holding it after sigs.k8s.io/yaml's JSON round trip.
///
/// Go writes a float64 as JSON with the shortest digits that read back the same, in plain
/// notation when `1e-6 <= |f| < 1e21`; kubectl then reads the number as int64 when the text
/// parses as one. So an integral float below 1e21 whose shortest digits (padded with zeros)
/// fit in int64 becomes that integer: `1.0` → 1, `4611686018427387904.0` → 4611686018427388000.
/// Everything else stays a float. `None` for infinities and NaN, which Go cannot write.
pub(super) fn float_to_json(f: f64) -> Option<Number> {
    if !f.is_finite() {
        return None;
    }
    if f.fract() == 0.0 && f.abs() < 1e21 {
        // Rust's `Display` for f64 is Go's `'f', -1`: shortest digits, zero padded, no exponent.
        if let Ok(i) = format!("{f}").parse::<i64>() {
            return Some(Number::from(i));
        }
    }
    Number::from_f64(f)
}

/// A uint64 above int64's range, as kubectl reads it back: a float64.
pub(super) fn uint_to_json(u: u64) -> Value {
    match i64::try_from(u) {
        Ok(i) => Value::from(i),
        Err(_) => Number::from_f64(u as f64).map_or(Value::Null, Value::Number),
    }
}

/// Go's message for a float that `encoding/json` refuses: `+Inf`, `-Inf` or `NaN`.
pub(super) fn go_nonfinite_name(f: f64) -> &'static str {
    if f.is_nan() {
        "NaN"
    } else if f > 0.0 {
        "+Inf"
    } else {
        "-Inf"
    }
}

/// `strconv.FormatFloat(f, 'g', -1, 32)` with go-yaml's `.inf`/`-.inf`/`.nan` spellings: how
/// sigs.k8s.io/yaml turns a float map key into a string (`1.5: x` → `"1.5"`, `1e7: x` → `"1e+07"`).
pub(super) fn float_key(f: f64) -> String {
    // Go rounds to float32 first; Rust's `as` rounds to nearest as well.
    let g = f as f32;
    if g.is_nan() {
        return ".nan".to_owned();
    }
    if g.is_infinite() {
        return if g > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    // Shortest float32 digits via Rust's `{:e}`: "-1.2345679e8", "1e-7", "0e0".
    let e = format!("{g:e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((e.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let nd = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    // %g with shortest digits uses exponent form when exp < -4 || exp >= 6.
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let a = exp.unsigned_abs();
        if a < 10 {
            out.push('0');
        }
        out.push_str(&a.to_string());
        return out;
    }
    // Plain notation with max(nd - dp, 0) fraction digits, dp = exp + 1.
    let dp = exp + 1;
    if dp <= 0 {
        out.push_str("0.");
        for _ in 0..-dp {
            out.push('0');
        }
        out.push_str(&digits);
    } else if dp >= nd {
        out.push_str(&digits);
        for _ in 0..dp - nd {
            out.push('0');
        }
    } else {
        let split = usize::try_from(dp).unwrap_or(0);
        out.push_str(&digits[..split]);
        out.push('.');
        out.push_str(&digits[split..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_become_ints_as_in_kubectl() {
        let j = |f: f64| float_to_json(f).map(|n| n.to_string());
        assert_eq!(j(1.0).as_deref(), Some("1"));
        assert_eq!(j(-0.0).as_deref(), Some("0"));
        assert_eq!(j(1500.0).as_deref(), Some("1500"));
        assert_eq!(
            j(4611686018427387904.0).as_deref(),
            Some("4611686018427388000")
        );
        let f = |f: f64| float_to_json(f).and_then(|n| n.as_f64());
        assert!(float_to_json(9.223_372_036_854_776e18).is_some_and(|n| n.is_f64()));
        assert_eq!(f(1e20), Some(1e20));
        assert_eq!(f(1e21), Some(1e21));
        assert_eq!(j(0.5).as_deref(), Some("0.5"));
        assert!(float_to_json(f64::INFINITY).is_none());
        assert!(float_to_json(4611686018427387904.0).is_some_and(|n| n.is_i64()));
        assert!(float_to_json(1e20).is_some_and(|n| n.is_f64()));
    }

    #[test]
    fn float_keys_like_format_float_g_32() {
        let cases = [
            (1.0, "1"),
            (1000.0, "1000"),
            (1500.0, "1500"),
            (0.0015, "0.0015"),
            (0.001, "0.001"),
            (0.5, "0.5"),
            (-0.5, "-0.5"),
            (-0.0, "-0"),
            (0.0, "0"),
            (0.1, "0.1"),
            (9.5, "9.5"),
            (1e21, "1e+21"),
            (1e20, "1e+20"),
            (1e-7, "1e-07"),
            (1e-6, "1e-06"),
            (2.5e-5, "2.5e-05"),
            (6.02e23, "6.02e+23"),
            (4611686018427387904.0, "4.611686e+18"),
            (-9223372036854775809.0, "-9.223372e+18"),
            (1.8446744073709552e19, "1.8446744e+19"),
            (1.2345678901234567e19, "1.2345679e+19"),
            (1.7976931348623157e308, ".inf"),
            (5e-324, "0"),
            (1e30, "1e+30"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (f64::NEG_INFINITY, "-.inf"),
            (f64::NAN, ".nan"),
        ];
        for (f, want) in cases {
            assert_eq!(float_key(f), want, "{f}");
        }
    }
}
