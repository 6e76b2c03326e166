//! A JSON reader with positions, following Go's `encoding/json` and kubectl's number rule.
//!
//! kubectl reads a file whose first non-space character is `{` as a stream of JSON values
//! (`{…}{…}` or one per line). Syntax is Go's: RFC 8259, no comments, no trailing commas,
//! control characters refused in strings, lone surrogate escapes replaced by U+FFFD, duplicate
//! keys allowed (last wins). Numbers are then typed as kubectl's unstructured decoder types
//! them: int64 when the literal parses as one (`1`, `-0`), float64 otherwise (`1.0`, `1e3`,
//! `9223372036854775808`), and a literal too large for float64 is an error. This is unlike
//! YAML, where `1.0` becomes 1.

use crate::value::{Map, Number, Str, Value};

use super::spans::{Span, Spans};
use super::{Fail, MAX_DEPTH, Origin, Pos};

/// Why a JSON value could not be read.
#[derive(Debug)]
pub(super) enum JsonError {
    /// Not JSON (kubectl then tries the rest of the stream as YAML).
    Syntax(Fail),
    /// Valid JSON that kubectl still refuses (a number beyond float64, nesting too deep).
    Value(Fail),
}

/// A cursor over JSON text that knows the line and column of where it is.
pub(super) struct Reader<'a> {
    src: &'a str,
    at: usize,
    origin: Origin,
    /// Line (relative, from 0) and byte start of that line, plus a column cache.
    line: usize,
    line_start: usize,
    col_cache: (usize, usize),
    /// The entries of the objects being read, innermost last: an object is made once all its
    /// entries are read, with room for exactly those (a large document holds a million small
    /// objects; grown one entry at a time, they took a fifth more memory).
    entries: Vec<(Str, Value)>,
    /// The same for the items of arrays.
    items: Vec<Value>,
}

impl<'a> Reader<'a> {
    pub(super) fn new(src: &'a str, origin: Origin) -> Self {
        Reader {
            src,
            at: 0,
            origin,
            line: 0,
            line_start: 0,
            col_cache: (0, 0),
            entries: Vec::new(),
            items: Vec::new(),
        }
    }

    /// Byte offset of the cursor.
    pub(super) fn offset(&self) -> usize {
        self.at
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.at).copied()
    }

    /// The file position of the cursor. Cheap when called at increasing offsets.
    pub(super) fn pos(&mut self) -> Pos {
        let (from, col) = if self.col_cache.0 >= self.line_start && self.col_cache.0 <= self.at {
            self.col_cache
        } else {
            (self.line_start, 0)
        };
        let col = col + self.src[from..self.at].chars().count();
        self.col_cache = (self.at, col);
        let col0 = if self.line == 0 { self.origin.col0 } else { 0 };
        Pos {
            line: self.origin.line + self.line,
            col: col0 + col + 1,
        }
    }

    /// Skips JSON whitespace; true if there is more input.
    pub(super) fn skip_ws(&mut self) -> bool {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.at += 1,
                b'\n' => {
                    self.at += 1;
                    self.line += 1;
                    self.line_start = self.at;
                }
                _ => return true,
            }
        }
        false
    }

    fn syntax(&mut self, what: &str) -> JsonError {
        let found = match self.src[self.at..].chars().next() {
            None => {
                return JsonError::Syntax(Fail::new(self.pos(), "unexpected end of JSON input"));
            }
            Some(c) => c,
        };
        JsonError::Syntax(Fail::new(
            self.pos(),
            format!("invalid character {found:?} {what}"),
        ))
    }

    fn expect(&mut self, b: u8, what: &str) -> Result<(), JsonError> {
        self.skip_ws();
        if self.peek() == Some(b) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.syntax(what))
        }
    }

    /// Reads one value (whitespace before it skipped) with the span table of its contents.
    /// With `record` false, the table records nothing.
    pub(super) fn document(&mut self, record: bool) -> Result<(Value, Spans), JsonError> {
        self.skip_ws();
        if !record {
            let mut spans = Spans::off();
            let value = self.value(&mut spans, 0, 1)?;
            return Ok((value, spans));
        }
        let start = self.pos();
        let mut spans = Spans::with_root(Span {
            key: None,
            value: start,
            end: start,
        });
        let value = self.value(&mut spans, 0, 1)?;
        let end = self.pos();
        spans.set_end(0, end);
        Ok((value, spans))
    }

    fn value(&mut self, spans: &mut Spans, span: usize, depth: usize) -> Result<Value, JsonError> {
        self.skip_ws();
        match self.peek() {
            Some(b'{') | Some(b'[') if depth > MAX_DEPTH => Err(JsonError::Value(Fail::new(
                self.pos(),
                format!("document nests deeper than {MAX_DEPTH} levels"),
            ))),
            Some(b'{') => self.object(spans, span, depth),
            Some(b'[') => self.array(spans, span, depth),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            _ => Err(self.syntax("looking for beginning of value")),
        }
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, JsonError> {
        for b in word.bytes() {
            if self.peek() != Some(b) {
                return Err(self.syntax(&format!("in literal {word} (expecting {:?})", b as char)));
            }
            self.at += 1;
        }
        Ok(v)
    }

    fn object(&mut self, spans: &mut Spans, span: usize, depth: usize) -> Result<Value, JsonError> {
        self.at += 1;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(Map::new()));
        }
        let base = self.entries.len();
        if let Err(e) = self.object_entries(spans, span, depth) {
            self.entries.truncate(base);
            return Err(e);
        }
        // Inserted in order, so a duplicate key keeps its first place and its last value.
        let mut map = Map::with_capacity(self.entries.len() - base);
        for (key, value) in self.entries.drain(base..) {
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }

    /// The entries of an object after its `{`, up to and including its `}`, onto `entries`.
    fn object_entries(
        &mut self,
        spans: &mut Spans,
        span: usize,
        depth: usize,
    ) -> Result<(), JsonError> {
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("looking for beginning of object key string"));
            }
            if spans.is_off() {
                let key = self.string()?;
                self.expect(b':', "after object key")?;
                let value = self.value(spans, 0, depth + 1)?;
                self.entries.push((key, value));
            } else {
                let key_pos = self.pos();
                let key = self.string()?;
                self.expect(b':', "after object key")?;
                self.skip_ws();
                let value_pos = self.pos();
                let child = spans.push_key(
                    span,
                    &key,
                    Span {
                        key: Some(key_pos),
                        value: value_pos,
                        end: value_pos,
                    },
                );
                let value = self.value(spans, child, depth + 1)?;
                let end = self.pos();
                spans.set_end(child, end);
                self.entries.push((key, value));
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.syntax("after object key:value pair")),
            }
        }
    }

    fn array(&mut self, spans: &mut Spans, span: usize, depth: usize) -> Result<Value, JsonError> {
        self.at += 1;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(Vec::new()));
        }
        let base = self.items.len();
        if let Err(e) = self.array_items(spans, span, depth, base) {
            self.items.truncate(base);
            return Err(e);
        }
        Ok(Value::Array(self.items.drain(base..).collect()))
    }

    /// The items of an array after its `[`, up to and including its `]`, onto `items` (the
    /// array's own start at `base`).
    fn array_items(
        &mut self,
        spans: &mut Spans,
        span: usize,
        depth: usize,
        base: usize,
    ) -> Result<(), JsonError> {
        loop {
            if spans.is_off() {
                let item = self.value(spans, 0, depth + 1)?;
                self.items.push(item);
            } else {
                self.skip_ws();
                let pos = self.pos();
                let child = spans.push_index(
                    span,
                    self.items.len() - base,
                    Span {
                        key: None,
                        value: pos,
                        end: pos,
                    },
                );
                let item = self.value(spans, child, depth + 1)?;
                self.items.push(item);
                let end = self.pos();
                spans.set_end(child, end);
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.syntax("after array element")),
            }
        }
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.at;
        let b = self.src.as_bytes();
        let digits = |i: &mut usize| {
            let s = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i > s
        };
        let mut i = self.at;
        if b[i] == b'-' {
            i += 1;
        }
        let bad = |r: &mut Self, i: usize, what: &str| {
            r.at = i;
            Err(r.syntax(what))
        };
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                digits(&mut i);
            }
            _ => return bad(self, i, "in numeric literal"),
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !digits(&mut i) {
                return bad(self, i, "after decimal point in numeric literal");
            }
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            if !digits(&mut i) {
                return bad(self, i, "in exponent of numeric literal");
            }
        }
        let text = &self.src[start..i];
        if let Ok(n) = text.parse::<i64>() {
            self.at = i;
            return Ok(Value::from(n));
        }
        match text.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => {
                self.at = i;
                Ok(Value::Number(n))
            }
            None => Err(JsonError::Value(Fail::new(
                self.pos(),
                format!("json: cannot unmarshal number {text} into Go value of type float64"),
            ))),
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut n = 0;
        for _ in 0..4 {
            let d = self.peek().and_then(|c| (c as char).to_digit(16));
            match d {
                Some(d) => n = n * 16 + d,
                None => return Err(self.syntax("in \\u hexadecimal character escape")),
            }
            self.at += 1;
        }
        Ok(n)
    }

    /// A string literal, the cursor on its opening quote.
    fn string(&mut self) -> Result<Str, JsonError> {
        self.at += 1;
        // Most strings have no escape: taken straight from the text (short ones inline).
        let stop = self.string_run();
        if self.peek() == Some(b'"') {
            let s = Str::from(&self.src[self.at - stop..self.at]);
            self.at += 1;
            return Ok(s);
        }
        let mut out = String::from(&self.src[self.at - stop..self.at]);
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(Str::from(out));
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                None => return Err(self.syntax("")),
                _ => return Err(self.syntax("in string literal")),
            }
            let stop = self.string_run();
            out.push_str(&self.src[self.at - stop..self.at]);
        }
    }

    /// Moves past the bytes of a string that stand for themselves (up to a quote, a backslash,
    /// a control character or the end) and returns how many there were. The bytes stopped at
    /// are ASCII, so the run ends on a character boundary.
    fn string_run(&mut self) -> usize {
        let rest = &self.src.as_bytes()[self.at..];
        let stop = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < b' ')
            .unwrap_or(rest.len());
        self.at += stop;
        stop
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.at += 1;
                let hi = self.hex4()?;
                let mut c = char::from_u32(hi);
                if (0xD800..0xDC00).contains(&hi) && self.src[self.at..].starts_with("\\u") {
                    let save = self.at;
                    self.at += 2;
                    let lo = self.hex4()?;
                    if (0xDC00..0xE000).contains(&lo) {
                        c = char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                    } else {
                        self.at = save;
                    }
                }
                out.push(c.unwrap_or('\u{FFFD}'));
                return Ok(());
            }
            _ => return Err(self.syntax("in string escape code")),
        };
        self.at += 1;
        out.push(c);
        Ok(())
    }
}
