//! Quoted scalars read as libyaml reads them where saphyr refuses them: the escape `\'`, and
//! lines indented less than their block.
//!
//! go-yaml accepts `"it\'s"` (YAML 1.1 has the escape, YAML 1.2 does not). When saphyr stops on
//! it, the scalar is decoded here, and saphyr is given the text again with the scalar masked
//! (same characters count and line breaks, so no position moves); the tree builder then puts the
//! value decoded here in place of the mask.
//!
//! The same for a multi-line quoted scalar (double or single) whose later lines are indented
//! less than its block: libyaml does not check that indentation, saphyr does. Those lines become
//! comments in the masked text ([`mask_to_first_line`]).

/// Decodes the double-quoted scalar whose opening quote is at byte `at` of `text`, as libyaml's
/// `yaml_parser_scan_flow_scalar` does. Returns the value and the byte after the closing quote;
/// the error is go-yaml's message.
pub(super) fn decode(text: &str, at: usize) -> Result<(String, usize), String> {
    decode_quoted(text, at, false)
}

/// As [`decode`], for the single- (`single`) or double-quoted scalar whose quote is at `at`.
pub(super) fn decode_quoted(
    text: &str,
    at: usize,
    single: bool,
) -> Result<(String, usize), String> {
    let b = text.as_bytes();
    let mut i = at + 1;
    let mut out = String::new();
    let eof = || "found unexpected end of stream".to_owned();
    loop {
        let mut leading_blanks = false;
        // Non-blank characters.
        loop {
            let c = text[i..].chars().next().ok_or_else(eof)?;
            match c {
                '\'' if single && b.get(i + 1) == Some(&b'\'') => {
                    out.push('\'');
                    i += 2;
                }
                '\'' if single => return Ok((out, i + 1)),
                '"' if !single => return Ok((out, i + 1)),
                ' ' | '\t' | '\n' | '\r' => break,
                '\\' if !single && matches!(b.get(i + 1), Some(b'\n' | b'\r')) => {
                    i += 1;
                    i += if b[i..].starts_with(b"\r\n") { 2 } else { 1 };
                    leading_blanks = true;
                    break;
                }
                '\\' if !single => i = escape(text, i, &mut out)?,
                c => {
                    out.push(c);
                    i += c.len_utf8();
                }
            }
        }
        // Blanks and line breaks, folded.
        let mut whitespace = String::new();
        let mut leading_break = false;
        let mut trailing_breaks = String::new();
        while let Some(&c) = b.get(i) {
            match c {
                b' ' | b'\t' => {
                    if !leading_blanks {
                        whitespace.push(c as char);
                    }
                    i += 1;
                }
                b'\n' | b'\r' => {
                    if leading_blanks {
                        trailing_breaks.push('\n');
                    } else {
                        whitespace.clear();
                        leading_break = true;
                        leading_blanks = true;
                    }
                    i += if b[i..].starts_with(b"\r\n") { 2 } else { 1 };
                }
                _ => break,
            }
        }
        if !leading_blanks {
            out.push_str(&whitespace);
        } else if leading_break && trailing_breaks.is_empty() {
            out.push(' ');
        } else {
            out.push_str(&trailing_breaks);
        }
    }
}

/// Reads the escape at byte `i` (a backslash) into `out`; returns the byte after it.
fn escape(text: &str, i: usize, out: &mut String) -> Result<usize, String> {
    let unknown = || "found unknown escape character".to_owned();
    let c = text[i + 1..].chars().next().ok_or_else(unknown)?;
    let simple = match c {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\u{b}',
        'f' => '\u{c}',
        'r' => '\r',
        'e' => '\u{1b}',
        ' ' | '"' | '\'' | '\\' => c,
        'N' => '\u{85}',
        '_' => '\u{a0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        'x' | 'u' | 'U' => {
            let len = match c {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let hex = text.get(i + 2..i + 2 + len).ok_or_else(unknown)?;
            if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                return Err("did not find expected hexdecimal number".to_owned());
            }
            let code = u32::from_str_radix(hex, 16).map_err(|_| unknown())?;
            let ch = char::from_u32(code)
                .ok_or_else(|| "found invalid Unicode character escape code".to_owned())?;
            out.push(ch);
            return Ok(i + 2 + len);
        }
        _ => return Err(unknown()),
    };
    out.push(simple);
    Ok(i + 1 + c.len_utf8())
}

/// `text` with bytes `at..end` (a quoted scalar) replaced by `"xx…"`: every character that is
/// not a space, tab or line break becomes `x`, so positions and line structure stay the same.
pub(super) fn mask(text: &str, at: usize, end: usize) -> String {
    let mut masked = String::with_capacity(text.len());
    masked.push_str(&text[..at]);
    masked.push('"');
    let inner = text.get(at + 1..end.saturating_sub(1)).unwrap_or_default();
    masked.extend(inner.chars().map(|c| {
        if matches!(c, ' ' | '\t' | '\n' | '\r') {
            c
        } else {
            'x'
        }
    }));
    masked.push('"');
    masked.push_str(&text[end..]);
    masked
}

/// For a multi-line quoted scalar (bytes `at..end`) whose later lines are indented less than
/// its block, which go-yaml reads and saphyr refuses: `text` with the scalar masked on its first
/// line as `"xx…"`, its middle lines turned into comments (`#x…`) and its part of the last line
/// blanked, so the character count and the line structure stay the same. `None` if that cannot
/// be done: the first line holds nothing after the quote, or what follows the closing quote is
/// neither a comment nor the end of a flow entry (`,` `]` `}`).
pub(super) fn mask_to_first_line(text: &str, at: usize, end: usize) -> Option<String> {
    let first_break = at + text.get(at..end)?.find('\n')?;
    let first = text[at + 1..first_break].trim_end_matches('\r');
    let line_end = text[end..].find('\n').map_or(text.len(), |n| end + n);
    let after = text[end..line_end].trim_start_matches([' ', '\t', '\r']);
    if first.is_empty() || !(after.is_empty() || after.starts_with(['#', ',', ']', '}'])) {
        return None;
    }
    let mut masked = String::with_capacity(text.len());
    masked.push_str(&text[..at]);
    masked.push('"');
    let n = first.chars().count();
    masked.extend(std::iter::repeat_n('x', n - 1));
    masked.push('"');
    masked.push_str(&text[at + 1 + first.len()..=first_break]);
    for line in text[first_break + 1..end].split_inclusive('\n') {
        if !line.ends_with('\n') {
            // The last line's part: blanks, so a flow indicator after it stays in place.
            masked.extend(line.chars().map(|c| if c == '\t' { c } else { ' ' }));
            continue;
        }
        let mut started = false;
        masked.extend(line.chars().map(|c| match c {
            ' ' | '\t' | '\n' | '\r' => c,
            _ if started => 'x',
            _ => {
                started = true;
                '#'
            }
        }));
    }
    masked.push_str(&text[end..]);
    Some(masked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dq(s: &str) -> Result<String, String> {
        decode(s, 0).map(|(v, _)| v)
    }

    #[test]
    fn escapes_and_folding() {
        assert_eq!(dq(r#""it\'s""#), Ok("it's".to_owned()));
        assert_eq!(
            dq(r#""a\x41\u00e9\U0001F600\tb""#),
            Ok("aAé😀\tb".to_owned())
        );
        assert_eq!(dq("\"a\n  b\""), Ok("a b".to_owned()));
        assert_eq!(dq("\"a  \n\n  b\""), Ok("a\nb".to_owned()));
        assert_eq!(dq("\"a\\\n  b\""), Ok("ab".to_owned()));
        assert_eq!(dq("\"a \\\n  b\""), Ok("a b".to_owned()));
        assert!(dq(r#""\/""#).is_err());
        assert!(dq(r#""\ud800""#).is_err());
        assert!(dq("\"open").is_err());
    }

    #[test]
    fn single_quoted_and_under_indented() {
        assert_eq!(
            decode_quoted("'fo''ld\n\n ed' # c", 0, true),
            Ok(("fo'ld\ned".to_owned(), 13))
        );
        assert_eq!(decode_quoted(r"'a\b'", 0, true), Ok((r"a\b".to_owned(), 5)));
        let t = "  k: \"fold\n ed\" # c\n  j: 1\n";
        let m = mask_to_first_line(t, 5, 15);
        assert_eq!(m.as_deref(), Some("  k: \"xxx\"\n     # c\n  j: 1\n"));
        let t = "k: ['a\n\n  b', c]\n";
        let m = mask_to_first_line(t, 4, 12);
        assert_eq!(m.as_deref(), Some("k: [\"\"\n\n    , c]\n"));
        assert_eq!(mask_to_first_line("k: \"a\nb\": 1\n", 3, 8), None);
        assert_eq!(mask_to_first_line("k: \"\nb\"\n", 3, 7), None);
    }

    #[test]
    fn masks_keep_positions() {
        let t = "a: \"x\\'y\n  z\" # c\n";
        let end = decode(t, 3).map(|(_, e)| e).unwrap_or(0);
        let m = mask(t, 3, end);
        assert_eq!(m, "a: \"xxxx\n  x\" # c\n");
        assert_eq!(m.chars().count(), t.chars().count());
    }
}
