use super::*;
use crate::json;

fn float(f: f64) -> String {
    let mut s = String::new();
    write_float(f, &mut s).unwrap();
    s
}

fn roundtrip(text: &str) -> String {
    to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
}

#[test]
fn marshal_sorts_keys_by_bytes_and_is_compact() {
    let v = json!({"b": 1, "a": [true, null], "B": {}, "é": "x", "a0": []});
    assert_eq!(
        to_string(&v).unwrap(),
        r#"{"B":{},"a":[true,null],"a0":[],"b":1,"é":"x"}"#
    );
}

#[test]
fn in_order_keeps_value_key_order() {
    let v = json!({"b": 1, "a": {"z": 1, "y": 2}});
    assert_eq!(
        to_string_in_order(&v).unwrap(),
        r#"{"b":1,"a":{"z":1,"y":2}}"#
    );
}

#[test]
fn marshal_indent_two_spaces_with_compact_empties() {
    let v = json!({"b": [1, {"c": null}], "a": {}, "d": []});
    let want = "{\n  \"a\": {},\n  \"b\": [\n    1,\n    {\n      \"c\": null\n    }\n  ],\n  \"d\": []\n}";
    assert_eq!(to_string_pretty(&v).unwrap(), want);
    assert_eq!(to_string_pretty(&json!(5)).unwrap(), "5");
}

#[test]
fn strings_escape_html_and_line_separators() {
    let v = json!("<a href=\"x\">&</a>\u{2028}\u{2029}");
    assert_eq!(
        to_string(&v).unwrap(),
        r#""\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e\u2028\u2029""#
    );
}

#[test]
fn strings_escape_the_same_inside_long_plain_runs() {
    // The run-copying writer against a character-at-a-time reference.
    fn reference(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                    out.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }
    for s in [
        "",
        "plain text",
        "é€😀 \u{2027}\u{2028}x\u{2029}\u{202a}",
        "a\"b\\c\nd\u{1}e\u{7f}<tag>&amp;",
        "\u{e2}\u{80}",
        "ends with \u{2028}",
        "\u{0}\u{1f}\u{8}\u{c}\t\r",
    ] {
        let mut out = String::new();
        write_string(s, &mut out);
        assert_eq!(out, reference(s), "{s:?}");
    }
    // Longer texts (plain runs are passed over eight bytes at a time): each character that
    // may need an escape at every place, alone and next to another.
    for c in [
        '"', '\\', '<', '>', '&', '\n', '\u{1f}', '\u{0}', '\u{2028}', '\u{2029}', '\u{2027}', 'é',
        '\u{7f}', ' ',
    ] {
        for at in 0..26 {
            let mut s: String = "abcdefghijklmnopqrstuvwxy".chars().take(at).collect();
            s.push(c);
            s.push_str("0123456789ABCDEFGHIJ");
            s.insert(s.len() - at.min(9), '"');
            let mut out = String::new();
            write_string(&s, &mut out);
            assert_eq!(out, reference(&s), "{s:?}");
        }
    }
}

#[test]
fn strings_escape_control_chars_short_for_b_f_n_r_t() {
    let v = json!("\u{0}\u{1}\u{8}\u{c}\n\r\t\u{b}\u{1f}\u{7f}\\é😀");
    assert_eq!(
        to_string(&v).unwrap(),
        "\"\\u0000\\u0001\\b\\f\\n\\r\\t\\u000b\\u001f\u{7f}\\\\é😀\""
    );
}

#[test]
fn integers_are_decimal_including_extremes() {
    assert_eq!(
        roundtrip("[0,-1,9223372036854775807,-9223372036854775808]"),
        "[0,-1,9223372036854775807,-9223372036854775808]"
    );
    // Beyond int64 Go holds a float64.
    assert_eq!(roundtrip("18446744073709551615"), "18446744073709552000");
}

#[test]
fn float_f_format_between_1e_minus6_and_1e21() {
    assert_eq!(float(1.0), "1");
    assert_eq!(float(0.0), "0");
    assert_eq!(float(-0.0), "-0");
    assert_eq!(float(1.5), "1.5");
    assert_eq!(float(0.1 + 0.2), "0.30000000000000004");
    assert_eq!(float(0.000001), "0.000001");
    assert_eq!(float(1e20), "100000000000000000000");
    assert_eq!(float(123456789.125), "123456789.125");
    assert_eq!(float(-2.5e-5), "-0.000025");
}

#[test]
fn float_e_format_outside_range_with_go_exponent() {
    assert_eq!(float(1e-7), "1e-7");
    assert_eq!(float(1.5e-10), "1.5e-10");
    assert_eq!(float(9.99e-7), "9.99e-7");
    assert_eq!(float(1e21), "1e+21");
    assert_eq!(float(-1.2345e100), "-1.2345e+100");
    assert_eq!(float(f64::MAX), "1.7976931348623157e+308");
    assert_eq!(float(5e-324), "5e-324");
    assert_eq!(float(3.4028234663852886e38), "3.4028234663852886e+38");
}

#[test]
fn float_nan_and_inf_are_unsupported_values() {
    let mut s = String::new();
    assert_eq!(
        write_float(f64::NAN, &mut s).unwrap_err().to_string(),
        "json: unsupported value: NaN"
    );
    assert_eq!(
        write_float(f64::INFINITY, &mut s).unwrap_err().to_string(),
        "json: unsupported value: +Inf"
    );
    assert_eq!(
        write_float(f64::NEG_INFINITY, &mut s)
            .unwrap_err()
            .to_string(),
        "json: unsupported value: -Inf"
    );
}

#[test]
fn exact_text_from_reference_round_trips() {
    // smp-number-precision.json `exactText` values, as Go wrote them.
    for text in [
        "{}",
        r#"{"int64":9223372036854775807,"name":"newname"}"#,
        r#"{"int64":9223372036854775807}"#,
        r#"{"float32":3.4028234663852886e+38,"name":"newname"}"#,
        r#"{"float32":3.4028234663852886e+38}"#,
    ] {
        assert_eq!(roundtrip(text), text);
    }
}

#[test]
fn format_g_matches_strconv_shortest() {
    assert_eq!(go_format_g(1.0), "1");
    assert_eq!(go_format_g(100000.0), "100000");
    assert_eq!(go_format_g(1e6), "1e+06");
    assert_eq!(go_format_g(1234567.0), "1.234567e+06");
    assert_eq!(go_format_g(0.0001), "0.0001");
    assert_eq!(go_format_g(0.00001), "1e-05");
    assert_eq!(go_format_g(3.4028234663852886e38), "3.4028234663852886e+38");
    assert_eq!(go_format_g(1e100), "1e+100");
}

#[test]
fn too_deep_is_an_error_not_a_stack_overflow() {
    let mut v = json!(1);
    for _ in 0..=MAX_DEPTH {
        v = json!([v]);
    }
    assert_eq!(to_string(&v), Err(GoJsonError::TooDeep));
}

#[test]
fn value_equality_keeps_int_and_float_apart() {
    assert_ne!(json!(0), json!(0.0));
    assert_eq!(json!(0.0), json!(-0.0));
    // serde_json reads "-0" as float -0.0; Go (apimachinery's json) reads it as int64 0.
    let minus_zero = serde_json::from_str::<Value>("-0").unwrap();
    assert_eq!(minus_zero, json!(0.0));
    assert_eq!(to_string(&minus_zero).unwrap(), "-0");
}

/// Within its limit the bounded writer writes what [`to_string`] writes; one byte short of
/// the text's length, it says too long; a value too deep says so whatever its length.
#[test]
fn a_bounded_write_is_the_write_or_too_long() {
    let v = json!({"b": [1, "two", {"c": null, "a": 1.5}], "a": {"x": true}, "e": []});
    let text = to_string(&v).unwrap();
    assert_eq!(to_string_within(&v, text.len()).unwrap(), text);
    assert_eq!(to_string_within(&v, usize::MAX).unwrap(), text);
    for limit in 0..text.len() {
        assert_eq!(
            to_string_within(&v, limit),
            Err(GoJsonError::TooLong(limit)),
            "{limit}"
        );
    }
    let mut deep = json!([]);
    for _ in 0..MAX_DEPTH {
        deep = json!([deep]);
    }
    assert_eq!(to_string(&deep), Err(GoJsonError::TooDeep));
    for limit in [0, 10, 1 << 20] {
        assert_eq!(to_string_within(&deep, limit), Err(GoJsonError::TooDeep));
    }
    let long_then_deep = json!({"a": "x".repeat(100), "z": deep});
    assert_eq!(
        to_string_within(&long_then_deep, 50),
        Err(GoJsonError::TooDeep)
    );
}

/// The start of the text is the text's start, whole exactly when nothing was left out; the
/// text cut to a width is the whole text cut there (multi-byte characters, escapes, long
/// lists), and a value too deep is an error or empty however far the writing went.
#[test]
fn the_start_and_the_cut_are_those_of_the_whole_text() {
    let items: Vec<Value> = (0..300).map(|i| json!({"é": i, "<x>": "✓\n"})).collect();
    for v in [
        json!(items),
        json!("short"),
        json!({"b": [1, 2], "a": null}),
    ] {
        let whole = to_string(&v).unwrap();
        let n = whole.chars().count();
        for limit in [0, 1, 7, 40, 200, whole.len(), whole.len() + 1] {
            let (start, done) = to_string_upto(&v, limit).unwrap();
            assert!(whole.starts_with(&start), "{limit}");
            assert_eq!(done, start == whole, "{limit}");
            assert!(done || start.len() > limit, "{limit}");
        }
        for width in [0, 1, 2, 10, 40, n - 1, n, n + 1] {
            let cut = if n > width {
                format!(
                    "{}…",
                    whole
                        .chars()
                        .take(width.saturating_sub(1))
                        .collect::<String>()
                )
            } else {
                whole.clone()
            };
            assert_eq!(to_string_cut(&v, width), cut, "{width}");
        }
    }
    let mut deep = json!([]);
    for _ in 0..MAX_DEPTH {
        deep = json!([deep]);
    }
    let long_then_deep = json!({"a": "x".repeat(100), "z": deep});
    assert_eq!(
        to_string_upto(&long_then_deep, 10),
        Err(GoJsonError::TooDeep)
    );
    assert_eq!(to_string_cut(&long_then_deep, 10), "");
}
