//! The text of one YAML document, looked at directly where saphyr's events say too little.
//!
//! saphyr-parser reads YAML 1.2; go-yaml (libyaml) reads YAML 1.1 and has a few rules of its
//! own. Where they disagree on text that appears in manifests, the tree builder asks this module:
//! - anchor and alias names may only use ASCII letters, digits, `-` and `_`;
//! - `\/` is not an escape in double quotes;
//! - an implicit key must be on one line and at most 1024 characters long, even in flow
//!   collections;
//! - a tab after `:` is fine (saphyr refuses it before `-` or a letter): see [`rewrite`].

use std::cell::{Cell, OnceCell};

use saphyr_parser::{Marker, ScanError, Span};

use super::{Fail, MAX_DEPTH, Origin, Pos, flow};

/// One document's text and where it starts in the file.
#[derive(Debug)]
pub(super) struct Source<'a> {
    text: &'a str,
    origin: Origin,
    /// Byte offsets of every 64th character, or `None` if the text is ASCII (computed once).
    char_table: OnceCell<Option<Vec<usize>>>,
    /// The last (character, byte) offset found in a text that is not ASCII: the tree builder
    /// asks for markers in order, so each search starts from the one before.
    last: Cell<(usize, usize)>,
}

impl<'a> Source<'a> {
    pub(super) fn new(text: &'a str, origin: Origin) -> Self {
        Source {
            text,
            origin,
            char_table: OnceCell::new(),
            last: Cell::new((0, 0)),
        }
    }

    /// File position of a saphyr marker (line from 1, column from 0, relative to this text).
    pub(super) fn pos(&self, m: Marker) -> Pos {
        file_pos(self.origin, m.line(), m.col())
    }

    /// Byte offset of a marker in the text (markers count characters).
    pub(super) fn byte_of(&self, m: Marker) -> usize {
        let index = m.index();
        let table = self.char_table.get_or_init(|| {
            if self.text.is_ascii() {
                return None;
            }
            // The byte offset of every 64th character.
            Some(
                self.text
                    .char_indices()
                    .step_by(64)
                    .map(|(i, _)| i)
                    .collect(),
            )
        });
        let Some(table) = table else {
            return index.min(self.text.len());
        };
        let (last_char, last_byte) = self.last.get();
        let (from_char, from) = if index >= last_char && index - last_char < 64 {
            (last_char, last_byte)
        } else {
            let Some(&from) = table.get(index / 64) else {
                return self.text.len();
            };
            (index - index % 64, from)
        };
        let rest = &self.text[from..];
        match rest.char_indices().nth(index - from_char) {
            Some((i, _)) => {
                self.last.set((index, from + i));
                from + i
            }
            None => self.text.len(),
        }
    }

    /// The text read.
    pub(super) fn text(&self) -> &'a str {
        self.text
    }

    /// The place of byte `at`, which lies at or after marker `m`, as a flow reader's mark.
    pub(super) fn mark_at(&self, m: Marker, at: usize) -> flow::Mark {
        let from = self.byte_of(m).min(at);
        let mut mark = flow::Mark {
            byte: from,
            index: m.index(),
            line: m.line(),
            col: m.col(),
        };
        for c in self.text[from..at].chars() {
            mark.byte += c.len_utf8();
            mark.index += 1;
            if c == '\n' {
                mark.line += 1;
                mark.col = 0;
            } else {
                mark.col += 1;
            }
        }
        mark
    }

    /// The text from a marker to the end.
    fn rest_at(&self, m: Marker) -> &'a str {
        &self.text[self.byte_of(m)..]
    }

    /// The text at `m` after any node properties (`&anchor`, `!tag`).
    fn after_properties(&self, m: Marker) -> &'a str {
        let mut s = self.rest_at(m);
        while s.starts_with(['&', '!']) {
            let end = s.find(char::is_whitespace).unwrap_or(s.len());
            s = s[end..].trim_start();
        }
        s
    }

    /// The byte of the opening quote of the quoted scalar whose node starts at `m`.
    pub(super) fn quote_at(&self, m: Marker) -> usize {
        // The quote follows the node's properties (`&anchor`, `!tag`), if any.
        self.text.len() - self.after_properties(m).len()
    }

    /// Whether the node starting at `m` is a flow collection (`[…]` or `{…}`).
    pub(super) fn is_flow_collection(&self, m: Marker) -> bool {
        self.after_properties(m).starts_with(['[', '{'])
    }

    /// The anchor or alias name written at `m` (after `&` or `*`, possibly after a tag).
    pub(super) fn name_at(&self, m: Marker) -> Option<&'a str> {
        let mut s = self.rest_at(m);
        for _ in 0..3 {
            if let Some(name) = s.strip_prefix(['&', '*']) {
                let end = name
                    .find(|c: char| c.is_whitespace() || ",[]{}".contains(c))
                    .unwrap_or(name.len());
                return Some(&name[..end]);
            }
            if !s.starts_with('!') {
                return None;
            }
            let tag_end = s.find(char::is_whitespace).unwrap_or(s.len());
            s = s[tag_end..].trim_start();
        }
        None
    }

    /// The anchor or alias name at `m`, checked as libyaml's `yaml_parser_scan_anchor` does.
    pub(super) fn checked_name(&self, m: Marker) -> Result<&'a str, Fail> {
        let valid = |n: &str| {
            !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        };
        // What may follow a name (libyaml: a blank or one of these indicators; not `[` or `{`).
        let ends = |n: &str| {
            let end = n.as_ptr() as usize - self.text.as_ptr() as usize + n.len();
            self.text[end..]
                .chars()
                .next()
                .is_none_or(|c| matches!(c, ' ' | '\t' | '\r' | '\n') || "?:,]}%@`".contains(c))
        };
        match self.name_at(m) {
            Some(n) if valid(n) && ends(n) => Ok(n),
            Some(n) => Err(Fail::new(
                self.pos(m),
                format!(
                    "did not find expected alphabetic or numeric character: anchor and alias \
                     names may only use letters, digits, '-' and '_' (found {n:?})"
                ),
            )),
            None => Ok(""),
        }
    }

    /// The file position of byte `at`, which lies after marker `m`.
    fn pos_after(&self, m: Marker, at: usize) -> Pos {
        let mark = self.mark_at(m, at);
        file_pos(self.origin, mark.line, mark.col)
    }

    /// Refuses `\/` in a double-quoted scalar starting at `m` (an escape in YAML 1.2 only).
    pub(super) fn check_escapes(&self, m: Marker) -> Result<(), Fail> {
        let s = self.rest_at(m);
        let Some(quote) = s.find('"') else {
            return Ok(());
        };
        let mut chars = s[quote + 1..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Ok(()),
                '\\' if chars.next().map(|(_, c)| c) == Some('/') => {
                    let at = self.byte_of(m) + quote + 1 + i;
                    let msg = "found unknown escape character '\\/' (YAML 1.1 has no such escape)";
                    return Err(Fail::new(self.pos_after(m, at), msg));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Refuses an implicit key longer than 1024 characters or spread over several lines, as
    /// libyaml does (it forgets a possible key after that). `span` is the key node's.
    pub(super) fn check_implicit_key(&self, span: Span) -> Result<(), Fail> {
        let (start, end) = (span.start, span.end);
        if start.line() == end.line() && end.index() <= start.index() + 1024 {
            return Ok(());
        }
        if self.text[..self.byte_of(start)].trim_end().ends_with('?') {
            return Ok(()); // an explicit key (`? key`)
        }
        if !self.text[self.byte_of(end)..].trim_start().starts_with(':') {
            return Ok(()); // a flow entry without value (`{a}`): libyaml never checks those
        }
        Err(Fail::new(
            self.pos(start),
            "could not find expected ':' (an implicit key must fit on one line and in 1024 \
             characters)",
        ))
    }
}

/// The file position of saphyr's `line` (from 1) and `col` (from 0) in a text that starts at
/// `origin`.
pub(super) fn file_pos(origin: Origin, line: usize, col: usize) -> Pos {
    let first = line <= 1;
    Pos {
        line: origin.line + line.saturating_sub(1),
        col: col + 1 + if first { origin.col0 } else { 0 },
    }
}

/// A saphyr error at its position, said the way go-yaml says it where they differ.
pub(super) fn scan_fail(source: &Source<'_>, e: &ScanError) -> Fail {
    let m = *e.marker();
    if e.info() == "recursion limit exceeded" {
        return Fail::new(
            source.pos(m),
            format!("document nests deeper than {MAX_DEPTH} levels"),
        );
    }
    if e.info().contains("unknown anchor")
        && let Some(name) = source.name_at(m)
    {
        return Fail::new(source.pos(m), format!("unknown anchor '{name}' referenced"));
    }
    Fail::new(source.pos(m), e.info().replace('\n', " "))
}

/// Whether a saphyr error met once the top-level node is complete is one go-yaml never meets,
/// because it stops reading there: an unbalanced bracket (libyaml's scanner does not check
/// those) or a directive after an implicitly ended document.
pub(super) fn beyond_document(e: &ScanError) -> bool {
    matches!(
        e.info(),
        "misplaced bracket" | "missing explicit document end marker before directive"
    )
}

/// The byte of the `[` or `{` that starts a flow collection between bytes `from` and `to` of
/// `text`, if one does: `from` is where saphyr's last event ended, and only separators
/// (blanks, line breaks, comments, `:`, `-` and `?` indicators, node properties) lie before it.
pub(super) fn next_flow_start(text: &str, from: usize, to: usize) -> Option<usize> {
    let b = text.as_bytes();
    let blank_at = |i: usize| b.get(i).is_none_or(|c| c.is_ascii_whitespace());
    let mut i = from;
    while i < to.min(b.len()) {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'#' => i += text[i..].find('\n').unwrap_or(text.len() - i),
            b':' | b'-' | b'?' if blank_at(i + 1) => i += 1,
            b'&' | b'!' => {
                i += text[i..]
                    .find(char::is_whitespace)
                    .unwrap_or(text.len() - i)
            }
            b'[' | b'{' => return Some(i),
            _ => return None,
        }
    }
    None
}

/// A rewrite of the text that saphyr accepts where go-yaml accepts the original, without moving
/// any character: a tab after `:` becomes a space.
pub(super) fn rewrite(source: &Source<'_>, e: &ScanError) -> Option<String> {
    if e.info() != "':' must be followed by a valid YAML whitespace" {
        return None;
    }
    let at = source.byte_of(*e.marker());
    let gap = source.text[..at].trim_end_matches([' ', '\t']);
    if !gap.ends_with(':') || !source.text[gap.len()..at].contains('\t') {
        return None;
    }
    let mut patched = source.text.to_owned();
    patched.replace_range(gap.len()..at, &" ".repeat(at - gap.len()));
    Some(patched)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `byte_of` finds the same byte whichever order markers are asked in.
    #[test]
    fn byte_of_any_order() {
        let text: String = (0..300)
            .map(|i| match i % 7 {
                0 => '\u{e9}',
                3 => '\u{1f600}',
                5 => '\n',
                _ => 'a',
            })
            .collect();
        let bytes: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        let source = Source::new(&text, Origin { line: 1, col0: 0 });
        let mut order: Vec<usize> = (0..bytes.len() + 5).collect();
        order.extend((0..bytes.len() + 5).rev());
        order.extend((0..bytes.len()).map(|i| (i * 97) % (bytes.len() + 3)));
        for index in order {
            let want = bytes.get(index).copied().unwrap_or(text.len());
            assert_eq!(source.byte_of(Marker::new(index, 1, 0)), want, "{index}");
        }
    }
}
