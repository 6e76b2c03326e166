//! go-yaml v2's scanner in the flow context: one outermost flow collection to tokens.
//!
//! Follows `scannerc.go` (go.yaml.in/yaml/v2 v2.4.2) for what a flow collection can hold:
//! indicators, simple keys (a `KEY` token put before a node that a `:` follows on the same line,
//! within 1024 characters), anchors, tags, quoted and plain scalars. Indentation is not looked
//! at, as libyaml does not in the flow context.

use super::super::quoted;

/// A place in the text: byte offset, character index, line (from 1) and column (from 0, in
/// characters), as saphyr counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::document) struct Mark {
    pub byte: usize,
    pub index: usize,
    pub line: usize,
    pub col: usize,
}

/// A scalar's text: bytes of the text read (`Written(start, end)`) when it is written as it
/// is, or the decoded value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Text {
    Written(usize, usize),
    Owned(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    SeqStart,
    SeqEnd,
    MapStart,
    MapEnd,
    Entry,
    BlockEntry,
    Key,
    Value,
    /// `&name`: the name's bytes.
    Anchor(usize, usize),
    /// `*name`: the name's bytes.
    Alias(usize, usize),
    /// A tag: its handle (`!`, `!!`, `!x!`, or empty for `!<…>` and the lone `!`) and suffix.
    Tag(String, String),
    Scalar(Text, Style),
    /// `---` or `...` at the start of a line.
    Document,
    End,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    Single,
    Double,
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub kind: Kind,
    pub start: Mark,
    pub end: Mark,
}

/// A scanner error: go-yaml's message, at a mark.
#[derive(Debug)]
pub(super) struct ScanError {
    pub at: Mark,
    pub msg: String,
}

fn err<T>(at: Mark, msg: impl Into<String>) -> Result<T, ScanError> {
    Err(ScanError {
        at,
        msg: msg.into(),
    })
}

#[derive(Debug, Clone, Copy)]
struct SimpleKey {
    possible: bool,
    token: usize,
    mark: Mark,
}

struct Scanner<'t> {
    text: &'t str,
    b: &'t [u8],
    m: Mark,
    /// The enclosing block collection's indentation (libyaml's `parser.indent`), -1 at the top.
    indent: isize,
    allowed: bool,
    /// The possible simple key of each open flow collection (libyaml's `simple_keys`; their
    /// number is the flow level).
    keys: Vec<SimpleKey>,
    tokens: Vec<Token>,
}

mod props;

/// go-yaml's `is_alpha`: the characters of anchor names and tag handles.
pub(in crate::document) fn is_alpha(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

impl<'t> Scanner<'t> {
    fn new(text: &'t str, start: Mark, indent: isize, allowed: bool) -> Self {
        Scanner {
            text,
            b: text.as_bytes(),
            m: start,
            indent,
            allowed,
            keys: Vec::new(),
            tokens: Vec::new(),
        }
    }

    fn at(&self, i: usize) -> u8 {
        self.b.get(self.m.byte + i).copied().unwrap_or(0)
    }

    fn is_break(&self, i: usize) -> bool {
        matches!(self.at(i), b'\r' | b'\n')
    }

    fn is_blankz(&self, i: usize) -> bool {
        matches!(self.at(i), b' ' | b'\t' | b'\r' | b'\n' | 0)
    }

    fn is_end(&self) -> bool {
        self.m.byte >= self.b.len()
    }

    /// Moves past one character (not a line break).
    fn skip(&mut self) {
        let width = self.text[self.m.byte..]
            .chars()
            .next()
            .map_or(1, char::len_utf8);
        self.m.byte += width;
        self.m.index += 1;
        self.m.col += 1;
    }

    /// Moves past one line break (`\r\n`, `\r` or `\n`).
    fn skip_line(&mut self) {
        let width = if self.at(0) == b'\r' && self.at(1) == b'\n' {
            2
        } else {
            1
        };
        self.m.byte += width;
        self.m.index += width;
        self.m.line += 1;
        self.m.col = 0;
    }

    fn push(&mut self, kind: Kind, start: Mark) {
        let end = self.m;
        self.tokens.push(Token { kind, start, end });
    }

    fn save_key(&mut self) {
        if self.allowed
            && let Some(k) = self.keys.last_mut()
        {
            *k = SimpleKey {
                possible: true,
                token: self.tokens.len(),
                mark: self.m,
            };
        }
    }

    fn remove_key(&mut self) {
        if let Some(k) = self.keys.last_mut() {
            k.possible = false;
        }
    }

    fn skip_to_token(&mut self) {
        loop {
            while matches!(self.at(0), b' ' | b'\t') {
                self.skip();
            }
            if self.at(0) == b'#' {
                while !self.is_end() && !self.is_break(0) {
                    self.skip();
                }
            }
            if self.is_break(0) {
                self.skip_line();
            } else {
                return;
            }
        }
    }

    /// Scans the next token (an `End` token at the end of the text).
    fn next(&mut self) -> Result<(), ScanError> {
        self.skip_to_token();
        let start = self.m;
        if self.is_end() {
            self.push(Kind::End, start);
            return Ok(());
        }
        let c = self.at(0);
        if self.m.col == 0
            && (self.text[self.m.byte..].starts_with("---")
                || self.text[self.m.byte..].starts_with("..."))
            && self.is_blankz(3)
        {
            for _ in 0..3 {
                self.skip();
            }
            self.push(Kind::Document, start);
            return Ok(());
        }
        match c {
            b'[' | b'{' => {
                self.save_key();
                self.keys.push(SimpleKey {
                    possible: false,
                    token: self.tokens.len(),
                    mark: self.m,
                });
                self.allowed = true;
                self.skip();
                let kind = if c == b'[' {
                    Kind::SeqStart
                } else {
                    Kind::MapStart
                };
                self.push(kind, start);
            }
            b']' | b'}' => {
                self.remove_key();
                self.keys.pop();
                self.allowed = false;
                self.skip();
                let kind = if c == b']' {
                    Kind::SeqEnd
                } else {
                    Kind::MapEnd
                };
                self.push(kind, start);
            }
            b',' => {
                self.remove_key();
                self.allowed = true;
                self.skip();
                self.push(Kind::Entry, start);
            }
            b'-' if self.is_blankz(1) => {
                self.remove_key();
                self.allowed = true;
                self.skip();
                self.push(Kind::BlockEntry, start);
            }
            b'?' => {
                self.remove_key();
                self.allowed = false;
                self.skip();
                self.push(Kind::Key, start);
            }
            b':' => self.value(),
            b'*' | b'&' => self.anchor(c == b'&')?,
            b'!' => self.tag()?,
            b'\'' | b'"' => self.quoted(c == b'\'')?,
            b'|' | b'>' | b'#' | b'%' | b'@' | b'`' => {
                return err(start, "found character that cannot start any token");
            }
            _ => self.plain()?,
        }
        Ok(())
    }

    /// `:`, with a `KEY` before the simple key it ends, if there is one.
    fn value(&mut self) {
        let here = self.m;
        if let Some(k) = self.keys.last_mut() {
            let valid = k.possible && k.mark.line == here.line && k.mark.index + 1024 >= here.index;
            if valid {
                let key = Token {
                    kind: Kind::Key,
                    start: k.mark,
                    end: k.mark,
                };
                let at = k.token.min(self.tokens.len());
                k.possible = false;
                self.tokens.insert(at, key);
            }
        }
        self.allowed = false;
        self.skip();
        self.push(Kind::Value, here);
    }

    fn quoted(&mut self, single: bool) -> Result<(), ScanError> {
        self.save_key();
        self.allowed = false;
        let start = self.m;
        let (value, end) = match quoted::decode_quoted(self.text, start.byte, single) {
            Ok(v) => v,
            Err(msg) => return err(start, msg),
        };
        // Walk to the end, counting lines and characters.
        while self.m.byte < end {
            if self.is_break(0) {
                self.skip_line();
            } else {
                self.skip();
            }
        }
        let inner = &self.text[start.byte + 1..end - 1];
        let text = if inner == value {
            Text::Written(start.byte + 1, end - 1)
        } else {
            Text::Owned(value)
        };
        let style = if single { Style::Single } else { Style::Double };
        self.push(Kind::Scalar(text, style), start);
        Ok(())
    }

    /// A plain scalar, as `yaml_parser_scan_plain_scalar` in the flow context.
    fn plain(&mut self) -> Result<(), ScanError> {
        self.save_key();
        self.allowed = false;
        let start = self.m;
        let indent = self.indent + 1;
        let mut out = String::new();
        let mut owned = false;
        let mut end = self.m;
        let mut whitespace = String::new();
        let mut leading_blanks = false;
        let mut trailing_breaks = 0usize;
        loop {
            if self.m.col == 0
                && (self.text[self.m.byte..].starts_with("---")
                    || self.text[self.m.byte..].starts_with("..."))
                && self.is_blankz(3)
            {
                break;
            }
            if self.at(0) == b'#' {
                break;
            }
            while !self.is_blankz(0) {
                let c = self.at(0);
                if (c == b':' && self.is_blankz(1)) || b",?[]{}".contains(&c) {
                    break;
                }
                if leading_blanks {
                    out.push_str(&if trailing_breaks == 0 {
                        " ".to_owned()
                    } else {
                        "\n".repeat(trailing_breaks)
                    });
                    owned = true;
                    trailing_breaks = 0;
                    leading_blanks = false;
                } else if !whitespace.is_empty() {
                    out.push_str(&whitespace);
                    whitespace.clear();
                }
                let from = self.m.byte;
                self.skip();
                out.push_str(&self.text[from..self.m.byte]);
                end = self.m;
            }
            if !matches!(self.at(0), b' ' | b'\t' | b'\r' | b'\n') {
                break;
            }
            while matches!(self.at(0), b' ' | b'\t' | b'\r' | b'\n') {
                if matches!(self.at(0), b' ' | b'\t') {
                    if leading_blanks && (self.m.col as isize) < indent && self.at(0) == b'\t' {
                        return err(start, "found a tab character that violates indentation");
                    }
                    if !leading_blanks {
                        whitespace.push(self.at(0) as char);
                    }
                    self.skip();
                } else {
                    if leading_blanks {
                        trailing_breaks += 1;
                    } else {
                        whitespace.clear();
                        leading_blanks = true;
                    }
                    self.skip_line();
                }
            }
        }
        if leading_blanks {
            self.allowed = true;
        }
        let text = if owned {
            Text::Owned(out)
        } else {
            Text::Written(start.byte, end.byte)
        };
        self.tokens.push(Token {
            kind: Kind::Scalar(text, Style::Plain),
            start,
            end,
        });
        Ok(())
    }
}

/// The tag token at `start` (a `!`), scanned as in any context.
pub(super) fn tag(text: &str, start: Mark) -> Result<Token, ScanError> {
    let mut s = Scanner::new(text, start, -1, false);
    s.tag()?;
    s.tokens.pop().ok_or(ScanError {
        at: start,
        msg: "did not find expected '!'".to_owned(),
    })
}

/// The tokens of the flow collection whose `[` or `{` is at `start`, up to its closing bracket
/// (or the end of the text, an `End` token). `indent` is the enclosing block's indentation.
pub(super) fn tokens(text: &str, start: Mark, indent: isize) -> Result<Vec<Token>, ScanError> {
    let mut s = Scanner::new(text, start, indent, true);
    loop {
        s.next()?;
        let last = s.tokens.last().map(|t| &t.kind);
        if s.keys.is_empty() || matches!(last, Some(Kind::End)) {
            return Ok(s.tokens);
        }
    }
}
