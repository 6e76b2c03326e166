//! The text in a pane's YAML lines (`super::lines`, drawn by `super::project`).
//!
//! Block style as `kubectl get -o yaml` prints it, but in the document's own key order; list
//! items as `- `, with the first key of a map item on the dash line. Scalars are quoted where
//! YAML would misread them, and every control character, escape sequence or bidi override is
//! written as an escape: nothing in a document can drive the terminal.

use crate::value::Value;
use compact_str::{CompactString, format_compact};

use crate::engine::gofmt;
use crate::theme::Tok;

/// A line's text: short keys and values (most of them) are kept inline, without an allocation.
pub type Text = CompactString;

/// A piece of a word diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Word {
    Same(String),
    Old(String),
    New(String),
}

/// The words of `new` against `old` (escaped): runs of letters and digits, and single other
/// characters, so `nginx:1.7.9` → `nginx:1.11.9` changes only `7` to `11`.
#[must_use]
pub fn word_diff(old: &str, new: &str) -> Vec<Word> {
    let (a, b) = (tokens(old), tokens(new));
    let diff = similar::TextDiff::from_slices(&a, &b);
    let mut out: Vec<Word> = Vec::new();
    for c in diff.iter_all_changes() {
        let text = escape(c.value());
        let tag = c.tag();
        match (out.last_mut(), tag) {
            (Some(Word::Same(t)), similar::ChangeTag::Equal)
            | (Some(Word::Old(t)), similar::ChangeTag::Delete)
            | (Some(Word::New(t)), similar::ChangeTag::Insert) => t.push_str(&text),
            _ => out.push(match tag {
                similar::ChangeTag::Equal => Word::Same(text),
                similar::ChangeTag::Delete => Word::Old(text),
                similar::ChangeTag::Insert => Word::New(text),
            }),
        }
    }
    out
}

fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_word = false;
    for (i, c) in s.char_indices() {
        let word = c.is_alphanumeric();
        if i > start && !(word && in_word) {
            out.push(&s[start..i]);
            start = i;
        }
        in_word = word;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

pub(super) fn truncate(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(width.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// A scalar's text and token.
#[must_use]
pub fn scalar(v: &Value) -> (Text, Tok) {
    let text = match v {
        Value::Null => "null".into(),
        Value::Bool(b) => if *b { "true" } else { "false" }.into(),
        Value::Number(n) => gofmt::sprint(&Value::Number(n.clone())).into(),
        Value::String(s) => string_text(s),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    };
    (text, scalar_tok(v))
}

/// A scalar's token ([`scalar`]'s, without writing its text).
#[must_use]
pub fn scalar_tok(v: &Value) -> Tok {
    match v {
        Value::Null => Tok::Null,
        Value::Bool(_) => Tok::Bool,
        Value::Number(_) => Tok::Num,
        Value::String(_) => Tok::Str,
        Value::Array(_) | Value::Object(_) => Tok::Punct,
    }
}

/// Characters that must never reach the terminal as themselves: C0/C1 controls (ESC, BEL,
/// CR ...), DEL, and bidi overrides/isolates that reorder what is shown.
#[must_use]
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{FEFF}' | '\u{200B}')
}

/// `s.chars().any(is_unsafe)`, deciding printable ASCII (most text) byte by byte.
fn has_unsafe(s: &str) -> bool {
    !s.bytes().all(|b| (0x20..0x7f).contains(&b)) && s.chars().any(is_unsafe)
}

pub(super) fn needs_escape(s: &str) -> bool {
    s.chars().any(|c| c != '\n' && is_unsafe(c))
}

/// Text with every unsafe character written as an escape (`\e`, `\t`, `\u{202e}`).
#[must_use]
pub fn escape(s: &str) -> String {
    if !has_unsafe(s) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A key as YAML shows it.
pub(super) fn key_text(k: &str) -> Text {
    string_text(k)
}

/// A string as a YAML scalar: plain when safe, `"…"` when it would read as another type or
/// holds escapes, `'…'` when it starts with an indicator.
#[must_use]
pub fn string_text(s: &str) -> Text {
    string_text_with(s, Scan::of(s))
}

/// [`string_text`], the string already scanned.
pub(super) fn string_text_with(s: &str, scan: Scan) -> Text {
    if (scan.special && has_unsafe(s)) || crate::document::resolves_to_non_string(s) {
        return format_compact!("\"{}\"", escape(s).replace('"', "\\\""));
    }
    let unsafe_plain = s.as_bytes().first().is_some_and(|b| {
        matches!(
            b,
            b'-' | b'?'
                | b':'
                | b','
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
                | b' '
        )
    }) || s.ends_with(' ')
        || s.ends_with(':')
        || scan.pair;
    if unsafe_plain {
        format_compact!("'{}'", s.replace('\'', "''"))
    } else {
        s.into()
    }
}

/// What one pass over a string's bytes finds (most values are short: one loop, no searcher
/// set up per call).
#[derive(Clone, Copy, Default)]
pub(super) struct Scan {
    /// A byte outside printable ASCII (a control character, or UTF-8 to look at closer).
    special: bool,
    pub(super) newline: bool,
    /// `": "` or `" #"`, which end a plain scalar.
    pair: bool,
}

impl Scan {
    pub(super) fn of(s: &str) -> Scan {
        let bytes = s.as_bytes();
        // Without early exits, so the compiler can use vector instructions.
        let special = bytes
            .iter()
            .fold(false, |acc, b| acc | (b.wrapping_sub(0x20) >= 0x5f));
        let pair = bytes
            .iter()
            .zip(bytes.iter().skip(1))
            .fold(false, |acc, (a, b)| {
                acc | ((*a == b':') & (*b == b' ')) | ((*a == b' ') & (*b == b'#'))
            });
        Scan {
            special,
            newline: special && bytes.contains(&b'\n'),
            pair,
        }
    }
}

/// Does `s` hold `": "` or `" #"` (which end a plain scalar)?
#[cfg(test)]
fn has_pair(s: &str) -> bool {
    Scan::of(s).pair
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::project::{ANNOTATION_WIDTH, Render, pane_lines};
    use crate::engine::plan::{LAST_APPLIED, Tree};
    use crate::json;

    fn lines(v: &Value) -> Vec<String> {
        let mut tree = Tree::empty();
        let lines = pane_lines(v, &mut tree, &Render::alone());
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                format!(
                    "{} @{}",
                    lines.text(i, &tree, None, true),
                    tree.path(l.path)
                )
            })
            .collect()
    }

    #[test]
    fn block_style_in_document_order_with_paths() {
        let v = json!({"b": {"q": 1, "x": "yes"}, "a": [{"name": "m", "v": null}, "s"], "e": {}});
        assert_eq!(
            lines(&v),
            [
                "b: @b",
                "  q: 1 @b.q",
                "  x: \"yes\" @b.x",
                "a: @a",
                "- name: m @a[0]",
                "  v: null @a[0].v",
                "- s @a[1]",
                "e: {} @e",
            ]
        );
    }

    #[test]
    fn control_characters_and_bidi_are_escaped() {
        let v = json!({"k\u{1b}[31m": "a\u{1b}]0;x\u{7}b\u{202e}c", "m": "l1\nl2\n"});
        let out = lines(&v);
        assert_eq!(
            out[0],
            "\"k\\e[31m\": \"a\\e]0;x\\u{7}b\\u{202e}c\" @[\"k\\u001b[31m\"]"
        );
        assert_eq!(out[1..], ["m: | @m", "  l1 @m", "  l2 @m"]);
        for l in &out {
            assert!(!l.chars().any(|c| c.is_control()), "{l:?}");
        }
    }

    /// Only the annotation's head is escaped; what is shown is what escaping it whole and
    /// cutting it to the width shows.
    #[test]
    fn the_annotation_shows_its_escaped_head() {
        for text in [
            "{\"a\":\"\u{1b}[31m\u{202e}x\"}\n".to_owned(),
            format!("{{\"k\":\"{}\u{1b}\"}}", "é".repeat(60)),
            "short\u{7}".to_owned(),
            "\u{1b}".repeat(ANNOTATION_WIDTH),
        ] {
            let v = json!({"metadata": {"annotations": {LAST_APPLIED: text}}});
            let shown = lines(&v)[2].clone();
            let whole = truncate(&escape(text.trim_end()), ANNOTATION_WIDTH);
            assert!(
                shown.contains(&format!(": {whole} @")),
                "{shown} vs {whole}"
            );
        }
    }

    #[test]
    fn ambiguous_scalars_are_quoted() {
        for s in ["yes", "010", "1_000", "0x1F", "", "~", "1.5", "on"] {
            assert!(string_text(s).starts_with('"'), "{s}");
        }
        assert_eq!(string_text("a: b"), "'a: b'");
        assert_eq!(string_text("nginx:1.7.9"), "nginx:1.7.9");
    }
}

#[cfg(test)]
mod pair_tests {
    use super::*;

    #[test]
    fn plain_scalar_enders_are_found() {
        for (s, want) in [
            ("a: b", true),
            ("a #b", true),
            ("a:b", false),
            ("a#b", false),
            ("a:", false),
            ("", false),
            (": ", true),
        ] {
            assert_eq!(has_pair(s), want, "{s:?}");
        }
        assert_eq!(string_text("a: b"), "'a: b'");
        assert_eq!(string_text("value 12"), "value 12");
    }
}
