//! Two pieces of Go's string handling that field lookup needs, written out so the messages and
//! matches come out as apimachinery's:
//! - [`equal_fold`]: `bytes.EqualFold`, the case-insensitive match `encoding/json` (and so the
//!   forked `LookupPatchMetadataForStruct`) falls back to;
//! - [`quote`]: `strconv.Quote`, what `%q` prints in `unable to find api field ... %q`.

/// Go's `bytes.EqualFold` on two strings: equal under simple Unicode case folding, rune by rune
/// (`K` = `k` = U+212A KELVIN SIGN, `S` = `s` = U+017F LONG S; `İ` folds to nothing else).
pub(super) fn equal_fold(a: &str, b: &str) -> bool {
    let (mut x, mut y) = (a.chars(), b.chars());
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(c), Some(d)) if rune_fold_eq(c, d) => {}
            _ => return false,
        }
    }
}

fn rune_fold_eq(c: char, d: char) -> bool {
    if c == d {
        return true;
    }
    if c.is_ascii() && d.is_ascii() {
        return c.eq_ignore_ascii_case(&d);
    }
    // Go walks the `unicode.SimpleFold` orbit. Single-rune case mappings reach the same
    // orbit for every pair that matters here (Kelvin, long s, final sigma, sharp s).
    let (lc, ld) = (simple_lower(c), simple_lower(d));
    lc == ld || simple_upper(c) == simple_upper(d) || lc == d || ld == c
}

fn simple_lower(c: char) -> char {
    let mut it = c.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

fn simple_upper(c: char) -> char {
    let mut it = c.to_uppercase();
    match (it.next(), it.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// Go's `strconv.Quote`: double quotes, `\"` and `\\`, the C escapes, `\xHH` for other ASCII
/// control bytes, `\uHHHH`/`\UHHHHHHHH` for runes Go does not print; printable runes as they are.
pub(crate) fn quote(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if c < ' ' || c == '\u{7f}' => _ = write!(out, "\\x{:02x}", u32::from(c)),
            c if is_go_printable(c) => out.push(c),
            c if u32::from(c) < 0x1_0000 => _ = write!(out, "\\u{:04x}", u32::from(c)),
            c => _ = write!(out, "\\U{:08x}", u32::from(c)),
        }
    }
    out.push('"');
    out
}

/// `unicode.IsPrint`, except that unassigned code points count as printable (std has no table).
fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = u32::from(c);
    let format_or_private = matches!(
        u,
        0xad | 0x600..=0x605
            | 0x61c
            | 0x6dd
            | 0x70f
            | 0x890..=0x891
            | 0x8e2
            | 0x180e
            | 0x200b..=0x200f
            | 0x202a..=0x202e
            | 0x2060..=0x2064
            | 0x2066..=0x206f
            | 0xe000..=0xf8ff
            | 0xfeff
            | 0xfff9..=0xfffb
            | 0x110bd
            | 0x110cd
            | 0x1bca0..=0x1bca3
            | 0x1d173..=0x1d17a
            | 0xe0001
            | 0xe0020..=0xe007f
            | 0xf0000..
    );
    !format_or_private
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_fold_is_ascii_case_insensitive() {
        assert!(equal_fold("mergingList", "MERGINGLIST"));
        assert!(equal_fold("", ""));
        assert!(!equal_fold("name", "names"));
        assert!(!equal_fold("a-b", "a_b"));
    }

    #[test]
    fn equal_fold_follows_go_special_folds() {
        assert!(equal_fold("kind", "\u{212a}IND"), "Kelvin sign folds to k");
        assert!(equal_fold("status", "\u{17f}tatus"), "long s folds to s");
        assert!(equal_fold("\u{3c3}", "\u{3c2}"), "sigma and final sigma");
        assert!(
            !equal_fold("i", "\u{130}"),
            "dotted capital I has no simple fold to i"
        );
    }

    #[test]
    fn quote_matches_go_strconv_quote() {
        assert_eq!(quote("bogus"), r#""bogus""#);
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("\n\t\u{1b}\u{7f}"), r#""\n\t\x1b\x7f""#);
        assert_eq!(quote("é\u{a0}\u{200b}"), "\"é\\u00a0\\u200b\"");
        assert_eq!(quote("\u{f0000}"), r#""\U000f0000""#);
    }
}
