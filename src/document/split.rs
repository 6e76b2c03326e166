//! How kubectl cuts a YAML stream into documents, before any YAML parsing.
//!
//! kubectl does not let the YAML parser find document boundaries: its `YAMLReader` reads
//! lines, and every line that starts with `---` ends the current document. Only spaces or a
//! comment may follow the `---` (`--- {a: 1}` and `----` are errors), a `---` line inside a
//! block scalar still cuts, and each piece is then parsed on its own, so anchors do not cross
//! `---`. Empty pieces are dropped. go-yaml also refuses control characters anywhere in a
//! document, comments included; [`check_chars`] does that check for the whole stream.

use super::{Fail, Origin, Pos};

/// One document's text, as kubectl hands it to the YAML parser.
#[derive(Debug, Clone, Copy)]
pub(super) struct Chunk<'a> {
    pub text: &'a str,
    /// Where `text` starts in the file.
    pub origin: Origin,
}

/// The position of byte `at` of `src`, which starts at `origin`.
pub(super) fn pos_of(src: &str, origin: Origin, at: usize) -> Pos {
    let mut at = at.min(src.len());
    while !src.is_char_boundary(at) {
        at -= 1;
    }
    let before = &src[..at];
    match before.rfind('\n') {
        Some(nl) => Pos {
            line: origin.line + before.matches('\n').count(),
            col: before[nl + 1..].chars().count() + 1,
        },
        None => Pos {
            line: origin.line,
            col: origin.col0 + before.chars().count() + 1,
        },
    }
}

/// go-yaml's (libyaml's) allowed characters: tab, line breaks, printable ASCII, NEL, and
/// Unicode from U+00A0 on, except U+FFFE and U+FFFF.
fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}')
        || (c >= '\u{A0}' && c != '\u{FFFE}' && c != '\u{FFFF}')
}

/// Refuses control characters (NUL, ESC, DEL, C1 controls…) as go-yaml does.
pub(super) fn check_chars(src: &str, origin: Origin) -> Result<(), Fail> {
    match src.char_indices().find(|&(_, c)| !allowed(c)) {
        None => Ok(()),
        Some((at, c)) => Err(Fail::new(
            pos_of(src, origin, at),
            format!(
                "control characters are not allowed (found U+{:04X})",
                u32::from(c)
            ),
        )),
    }
}

/// Splits a YAML stream at `---` lines, as kubectl's `YAMLReader` does: the pieces before the
/// first bad separator line, and the error for that line if there is one.
pub(super) fn split(src: &str, origin: Origin) -> (Vec<Chunk<'_>>, Option<Fail>) {
    let mut chunks = Vec::new();
    let mut current: Option<(usize, Origin)> = None;
    let mut line = origin.line;
    let mut at = 0;
    while at < src.len() {
        let end = src[at..].find('\n').map_or(src.len(), |i| at + i + 1);
        let text = &src[at..end];
        let content = text.strip_suffix('\n').unwrap_or(text);
        let content = content.strip_suffix('\r').unwrap_or(content);
        let col0 = if at == 0 { origin.col0 } else { 0 };
        if let Some(rest) = content.strip_prefix("---") {
            let trimmed = rest.trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                let col = col0 + 4 + (rest.chars().count() - rest.trim_start().chars().count());
                let msg = format!("invalid YAML document separator: {trimmed}");
                return (chunks, Some(Fail::new(Pos { line, col }, msg)));
            }
            if let Some((start, origin)) = current.take() {
                chunks.push(Chunk {
                    text: &src[start..at],
                    origin,
                });
            }
        } else if current.is_none() {
            current = Some((at, Origin { line, col0 }));
        }
        at = end;
        line += 1;
    }
    if let Some((start, origin)) = current {
        chunks.push(Chunk {
            text: &src[start..],
            origin,
        });
    }
    (chunks, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const O: Origin = Origin { line: 1, col0: 0 };

    fn texts(src: &str) -> Vec<(&str, usize)> {
        let (chunks, _) = split(src, O);
        chunks.iter().map(|c| (c.text, c.origin.line)).collect()
    }

    #[test]
    fn cuts_at_dashes() {
        assert_eq!(texts("a: 1\n---\nb: 2\n"), [("a: 1\n", 1), ("b: 2\n", 3)]);
        assert_eq!(texts("---\na: 1\n--- # c\n---\n"), [("a: 1\n", 2)]);
        assert_eq!(texts("a: |\n  x\n---\n"), [("a: |\n  x\n", 1)]);
        assert_eq!(texts("a: 1\r\n---\r\nb: 2"), [("a: 1\r\n", 1), ("b: 2", 3)]);
        assert_eq!(texts(""), []);
        assert_eq!(texts("\n"), [("\n", 1)]);
    }

    #[test]
    fn refuses_content_after_dashes() {
        // kubectl fails while reading the piece the bad line ends: that piece is never parsed.
        let (chunks, e) = split("a: 1\n---\nb: 2\n--- {a: 1}\n", O);
        assert_eq!(chunks.len(), 1);
        assert_eq!(
            e.map(|f| (f.pos, f.msg)),
            Some((
                Pos { line: 4, col: 5 },
                "invalid YAML document separator: {a: 1}".to_owned()
            ))
        );
        assert!(split("----\n", O).1.is_some());
        assert!(split("---x\n", O).1.is_some());
    }

    #[test]
    fn control_characters() {
        assert!(check_chars("a: b\tc\r\n\u{85}é\u{FEFF}", O).is_ok());
        let e = check_chars("a: 1\nb: x\u{1}", O).err();
        assert_eq!(e.map(|f| f.pos), Some(Pos { line: 2, col: 5 }));
        assert!(check_chars("\u{7F}", O).is_err());
        assert!(check_chars("\u{9F}", O).is_err());
    }

    #[test]
    fn positions() {
        let o = Origin { line: 3, col0: 5 };
        assert_eq!(pos_of("ab\ncd", o, 1), Pos { line: 3, col: 7 });
        assert_eq!(pos_of("ab\ncé", o, 6), Pos { line: 4, col: 3 });
        assert_eq!(
            pos_of("ab\ncé", o, 5),
            Pos { line: 4, col: 2 },
            "inside a character"
        );
    }
}
