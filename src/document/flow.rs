//! Flow collections (`[…]`, `{…}`) read as go-yaml v2 reads them.
//!
//! saphyr-parser reads them by YAML 1.2's rules; go-yaml v2 (libyaml) has its own, and they
//! differ on text people write:
//! - a line of a flow collection may be indented less than its block (libyaml does not look at
//!   indentation in the flow context; saphyr refuses `args: ["sh", "-c",` with the next line
//!   under `args`);
//! - `?` and `:` are always indicators in a flow collection: `[?x]` is the map `{x: null}`,
//!   `[a?b]` and `[:x]` are errors (a URL with a query in a flow sequence fails in kubectl);
//! - a plain scalar goes on through a `:` that `,` or `]` follows (`[x:]` is `["x:"]`);
//! - a tag takes `,`, `[`, `]` and `!` (`[!!str, .5]` is one item) and must end at a space;
//! - `#` at a token's start begins a comment even without a space before it.
//!
//! So the tree builder reads every outermost flow collection here: [`scan`] is libyaml's
//! scanner in the flow context, and [`read`] its parser's flow states (`parserc.go`), giving the
//! builder the same nodes saphyr's events would. saphyr's own events for the collection are
//! skipped; where saphyr fails inside it, the builder reads the text again with the collection
//! masked ([`mask`]) and reads the collection here from the text as written.

mod scan;

use saphyr_parser::ScalarStyle;

use super::tree::{Builder, ScalarText};
use super::{Fail, MAX_DEPTH};
use scan::{Kind, Style, Text, Token};
pub(super) use scan::{Mark, is_alpha as is_name};

/// The byte after the closing bracket of the flow collection whose `[` or `{` is at `start`, or
/// go-yaml's error for it. `indent` is the enclosing block's indentation (-1 at the top).
pub(super) fn extent(text: &str, start: Mark, indent: isize) -> Result<usize, (Mark, String)> {
    let tokens = scan::tokens(text, start, indent).map_err(|e| (e.at, e.msg))?;
    match tokens.last() {
        Some(t) if matches!(t.kind, Kind::SeqEnd | Kind::MapEnd) => Ok(t.end.byte),
        Some(t) => Err((t.start, "did not find expected ',' or ']'".to_owned())),
        None => Err((start, "did not find expected node content".to_owned())),
    }
}

/// Reads the flow collection whose `[` or `{` is at `start` of `text` into `b`, anchored as
/// `anchor`; returns the mark after its closing bracket. With `borrow`, scalars written as they
/// are point into `text` (it is the builder's text); otherwise they are copied.
pub(super) fn read<'a>(
    b: &mut Builder<'a>,
    text: &'a str,
    start: Mark,
    anchor: Option<&'a str>,
    borrow: bool,
) -> Result<Mark, Fail> {
    let indent = b.block_indent();
    let tokens = match scan::tokens(text, start, indent) {
        Ok(t) => t,
        Err(e) => return Err(Fail::new(b.pos(e.at.line, e.at.col), e.msg)),
    };
    let mut p = Parser {
        b,
        text,
        tokens,
        next: 0,
        borrow,
    };
    // The collection's own properties were read by saphyr; the first token is its bracket.
    let first = p.peek().clone();
    p.collection(&first, anchor, 1)?;
    Ok(p.tokens
        .get(p.next.saturating_sub(1))
        .map_or(start, |t| t.end))
}

/// A tag as go-yaml resolves its handle (`!!` is `tag:yaml.org,2002:`); `None` for a handle
/// no `%TAG` directive defines (only `!` and `!!` are known here).
fn full_tag(handle: &str, suffix: String) -> Option<String> {
    match handle {
        "" => Some(suffix),
        "!" => Some(format!("!{suffix}")),
        "!!" => Some(format!("tag:yaml.org,2002:{suffix}")),
        _ => None,
    }
}

/// The tag written at `start` (block context), read as go-yaml reads it: the byte after it and
/// the tag, or go-yaml's error. go-yaml's tags take `,`, `[`, `]` and `!`, and not `#`; a tag
/// must end at a blank.
pub(super) fn block_tag(text: &str, start: Mark) -> Result<(usize, String), (Mark, String)> {
    let token = scan::tag(text, start).map_err(|e| (e.at, e.msg))?;
    match token.kind {
        Kind::Tag(handle, suffix) => match full_tag(&handle, suffix) {
            Some(tag) => Ok((token.end.byte, tag)),
            None => Err((start, "found undefined tag handle".to_owned())),
        },
        _ => Err((start, "did not find expected '!'".to_owned())),
    }
}

/// `text` with the tag at bytes `start..end` masked for saphyr: the characters saphyr's tags
/// do not take (`,`, `[`, `]`, and `!` past the handle) become `.`.
pub(super) fn mask_tag(text: &str, start: usize, end: usize) -> Option<String> {
    let mut out = text.as_bytes().to_vec();
    let tag = out.get_mut(start..end)?;
    // The handle: `!`, then letters, then `!` if it is one.
    let mut i = 1;
    while tag.get(i).is_some_and(|&c| scan::is_alpha(c)) {
        i += 1;
    }
    if tag.get(i) == Some(&b'!') {
        i += 1;
    } else {
        i = 1;
    }
    for c in tag.iter_mut().skip(i) {
        if matches!(*c, b',' | b'[' | b']' | b'!') {
            *c = b'.';
        }
    }
    String::from_utf8(out).ok()
}

/// `text` with the flow collection at bytes `start..end` masked for saphyr, keeping every
/// character's byte, line and column: its first line becomes a double-quoted scalar of `x`s
/// (a plain `x` if it has one character) and its later lines comments. The builder then reads
/// the collection from the unmasked text. The error says why it cannot be masked: what follows
/// the collection on its last line is neither a comment nor (on one line) a `:`, which go-yaml
/// refuses too. For the `top` node, what follows is dropped instead, as go-yaml reads no further.
pub(super) fn mask(
    text: &str,
    start: usize,
    end: usize,
    top: bool,
) -> Result<String, &'static str> {
    const AFTER: &str = "did not find expected key (text after a flow collection)";
    let bytes = text.as_bytes();
    let region = text.get(start..end).ok_or(AFTER)?;
    let line_end = text[end..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| end + i);
    let after = text[end..line_end].trim_start_matches([' ', '\t']);
    let one_line = !region.contains(['\n', '\r']);
    let cut = top && !after.starts_with(':');
    if !(cut || after.is_empty() || after.starts_with('#') || (one_line && after.starts_with(':')))
    {
        return Err(AFTER);
    }
    let mut out = bytes.to_vec();
    if cut {
        out.truncate(end);
        out.push(b'\n');
    }
    let line_one_end = region.find(['\n', '\r']).map_or(end, |i| start + i);
    let mut first_end = line_one_end;
    // A comment right after the closing bracket needs a blank before it in saphyr's eyes.
    if one_line && !cut && bytes.get(end) == Some(&b'#') {
        first_end -= 1;
        out[first_end] = b' ';
    }
    // The first line: a scalar.
    let quote = first_end - start >= 2 && bytes[first_end - 1].is_ascii();
    for at in start..first_end {
        if bytes[at].is_ascii() {
            let edge = at == start || at + 1 == first_end;
            out[at] = if quote && edge { b'"' } else { b'x' };
        }
    }
    // The later lines: comments.
    let mut line_start = line_one_end;
    while line_start < end {
        let from = line_start
            + region[line_start - start..]
                .find(|c| c != '\n' && c != '\r')
                .unwrap_or(end - line_start);
        let to = text[from..end].find(['\n', '\r']).map_or(end, |i| from + i);
        if let Some(p) = text[from..to]
            .find(|c| c != ' ' && c != '\t')
            .map(|i| from + i)
        {
            // `#`, and blanks for the rest of a character that is not ASCII (then the line has
            // more characters, but nothing on it is read).
            let width = text[p..].chars().next().map_or(1, char::len_utf8);
            out[p] = b'#';
            out[p + 1..p + width].fill(b' ');
        }
        line_start = to;
    }
    String::from_utf8(out).map_err(|_| AFTER)
}

struct Parser<'p, 'a> {
    b: &'p mut Builder<'a>,
    text: &'a str,
    tokens: Vec<Token>,
    next: usize,
    borrow: bool,
}

const EMPTY: Token = Token {
    kind: Kind::End,
    start: Mark {
        byte: 0,
        index: 0,
        line: 0,
        col: 0,
    },
    end: Mark {
        byte: 0,
        index: 0,
        line: 0,
        col: 0,
    },
};

impl<'a> Parser<'_, 'a> {
    fn peek(&self) -> &Token {
        self.tokens.get(self.next).unwrap_or(&EMPTY)
    }

    fn kind(&self) -> &Kind {
        &self.peek().kind
    }

    fn bump(&mut self) {
        self.next += 1;
    }

    fn fail<T>(&self, at: Mark, msg: &str) -> Result<T, Fail> {
        Err(Fail::new(self.b.pos(at.line, at.col), msg))
    }

    /// `parse_node` in the flow context.
    fn node(&mut self, depth: usize) -> Result<(), Fail> {
        let t = self.peek().clone();
        if let Kind::Alias(from, to) = t.kind {
            self.bump();
            return self
                .b
                .alias(&self.text[from..to], pos2(t.start), pos2(t.end));
        }
        let start = t.start;
        let mut end = t.start;
        let mut anchor = None;
        let mut tag: Option<(String, String, Mark)> = None;
        for _ in 0..2 {
            match self.peek().kind.clone() {
                Kind::Anchor(from, to) if anchor.is_none() => {
                    anchor = Some(&self.text[from..to]);
                    end = self.peek().end;
                    self.bump();
                }
                Kind::Tag(handle, suffix) if tag.is_none() => {
                    tag = Some((handle, suffix, self.peek().start));
                    end = self.peek().end;
                    self.bump();
                }
                _ => break,
            }
        }
        let tag = match tag {
            None => None,
            Some((handle, suffix, at)) => match full_tag(&handle, suffix) {
                Some(t) => Some(t),
                None => return self.fail(at, "found undefined tag handle"),
            },
        };
        let t = self.peek().clone();
        match t.kind {
            Kind::Scalar(text, style) => {
                self.bump();
                let style = match style {
                    Style::Plain => ScalarStyle::Plain,
                    Style::Single => ScalarStyle::SingleQuoted,
                    Style::Double => ScalarStyle::DoubleQuoted,
                };
                let text = match text {
                    Text::Written(from, to) if self.borrow => ScalarText::Written(from, to),
                    Text::Written(from, to) => ScalarText::Owned(self.text[from..to].to_owned()),
                    Text::Owned(s) => ScalarText::Owned(s),
                };
                let place = (pos2(start), pos2(t.end));
                self.b.scalar(text, style, tag.as_deref(), anchor, place)
            }
            Kind::SeqStart | Kind::MapStart => self.collection(&t, anchor, depth + 1),
            _ if anchor.is_some() || tag.is_some() => {
                let place = (pos2(start), pos2(end));
                let text = ScalarText::Owned(String::new());
                self.b
                    .scalar(text, ScalarStyle::Plain, tag.as_deref(), anchor, place)
            }
            _ => self.fail(t.start, "did not find expected node content"),
        }
    }

    fn empty(&mut self, at: Mark) -> Result<(), Fail> {
        let place = (pos2(at), pos2(at));
        let text = ScalarText::Owned(String::new());
        self.b.scalar(text, ScalarStyle::Plain, None, None, place)
    }

    /// A flow sequence or mapping from its opening bracket (the next token, `open`).
    fn collection(
        &mut self,
        open: &Token,
        anchor: Option<&'a str>,
        depth: usize,
    ) -> Result<(), Fail> {
        if depth > MAX_DEPTH {
            let msg = format!("document nests deeper than {MAX_DEPTH} levels");
            return self.fail(open.start, &msg);
        }
        let map = matches!(open.kind, Kind::MapStart);
        self.b.open(map, anchor, pos2(open.start), true)?;
        self.bump();
        if map {
            self.mapping(depth)
        } else {
            self.sequence(depth)
        }
    }

    /// Before an entry that is not the first: the `,`, unless the collection ends (`end`).
    fn separator(&mut self, end: &Kind, msg: &str) -> Result<(), Fail> {
        match self.kind() {
            k if k == end => Ok(()),
            Kind::Entry => {
                self.bump();
                Ok(())
            }
            _ => self.fail(self.peek().start, msg),
        }
    }

    fn sequence(&mut self, depth: usize) -> Result<(), Fail> {
        let mut first = true;
        loop {
            if !first {
                self.separator(&Kind::SeqEnd, "did not find expected ',' or ']'")?;
            }
            first = false;
            let t = self.peek().clone();
            match t.kind {
                Kind::SeqEnd => {
                    self.bump();
                    return self.b.close(pos2(t.end));
                }
                Kind::Key => {
                    // A single pair: `[? a : b]` or `[a: b]`.
                    self.b.open(true, None, pos2(t.start), true)?;
                    self.bump();
                    let k = self.peek().clone();
                    if matches!(k.kind, Kind::Value | Kind::Entry | Kind::SeqEnd) {
                        // go-yaml skips that token here (`parse_flow_sequence_entry_mapping_key`).
                        self.bump();
                        self.empty(k.end)?;
                    } else {
                        self.node(depth + 1)?;
                    }
                    self.pair_value(Kind::SeqEnd, depth)?;
                    let at = self.peek().start;
                    self.b.close(pos2(at))?;
                }
                _ => self.node(depth)?,
            }
        }
    }

    /// The value after a key: `: node`, or empty.
    fn pair_value(&mut self, end: Kind, depth: usize) -> Result<(), Fail> {
        if *self.kind() == Kind::Value {
            self.bump();
            let k = self.kind();
            if *k != Kind::Entry && *k != end {
                return self.node(depth + 1);
            }
        }
        let at = self.peek().start;
        self.empty(at)
    }

    fn mapping(&mut self, depth: usize) -> Result<(), Fail> {
        let mut first = true;
        loop {
            if !first {
                self.separator(&Kind::MapEnd, "did not find expected ',' or '}'")?;
            }
            first = false;
            let t = self.peek().clone();
            match t.kind {
                Kind::MapEnd => {
                    self.bump();
                    return self.b.close(pos2(t.end));
                }
                Kind::Key => {
                    self.bump();
                    let k = self.peek().clone();
                    if matches!(k.kind, Kind::Value | Kind::Entry | Kind::MapEnd) {
                        self.empty(k.start)?;
                    } else {
                        self.node(depth + 1)?;
                    }
                    self.pair_value(Kind::MapEnd, depth)?;
                }
                _ => {
                    self.node(depth + 1)?;
                    let at = self.peek().start;
                    self.empty(at)?;
                }
            }
        }
    }
}

/// A mark as the builder keeps places: saphyr's (line, column).
fn pos2(m: Mark) -> [u32; 2] {
    let to = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    [to(m.line), to(m.col)]
}

#[cfg(test)]
mod tests;
