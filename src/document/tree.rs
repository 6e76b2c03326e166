//! YAML events (from saphyr-parser) to a tree of nodes, the way go-yaml v2 builds its nodes.
//!
//! The tree keeps what the decoder needs and saphyr's loader would lose or change: the raw
//! text, style and tag of every scalar, aliases as references to the anchored node (not
//! copies, so that expansion can be counted and bounded as go-yaml does), and positions. It is
//! built with an explicit stack and refuses nesting deeper than [`MAX_DEPTH`](super::MAX_DEPTH)
//! as soon as it is seen. Flow collections are read by the flow reader (`super::flow`), which
//! follows go-yaml's flow rules, into the same [`Builder`] (it recurses once per collection it
//! opens, so no deeper than that). Only the first document of the text is read: go-yaml does
//! the same with each piece kubectl gives it.
//!
//! A large document has a million nodes, so the tree is compact (16 bytes a node; a 10 MB
//! file's tree takes about 30 MB): children live in one shared list; a scalar written as it
//! is (most of them) points into the text, and only the others keep saphyr's string, in a list
//! the decoder empties as it goes (a text that an alias may reach again is copied instead);
//! positions are kept only when asked for (see [`Places`]).

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::source::{self, Source};
use super::{Fail, Origin, Pos, flow};

mod builder;
mod retry;

pub(super) use builder::{Builder, ScalarText};
pub(super) use retry::{BuildError, Rewrites};
use retry::{flow_ahead, masked, masked_alias, masked_tag, on_error};

/// A node's index in [`Tree::nodes`]; a document has at most `u32::MAX` nodes.
pub(super) type NodeId = u32;

/// One node, in 16 bytes: a large document has a million of them.
#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    Scalar(Scalar),
    /// `children[start..start + len]`.
    Seq {
        start: u32,
        len: u32,
    },
    /// `children[start..start + len]`: keys and values, alternating.
    Map {
        start: u32,
        len: u32,
    },
    /// An alias (`*name`, the name is `names[name]`) of the node anchored as `name`.
    Alias {
        target: NodeId,
        name: u32,
    },
}

/// A scalar node.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scalar {
    /// Where its text is: bytes `at..at + len` of [`Tree::text`] when the text is written
    /// there as it is (most plain and quoted scalars), else (`owned`) [`Tree::texts`]`[at]`.
    pub at: u32,
    pub len: u32,
    /// Its tag, `tags[tag - 1]`; 0 if it has none.
    pub tag: u32,
    pub style: ScalarStyle,
    /// Whether an alias may reach the node (it is anchored, or inside an anchored collection).
    pub shared: bool,
    pub owned: bool,
}

const _: () = assert!(std::mem::size_of::<Kind>() <= 16);

/// One document's nodes; `nodes[root]` is its top.
#[derive(Debug)]
pub(super) struct Tree<'a> {
    pub nodes: Vec<Kind>,
    pub children: Vec<NodeId>,
    /// The text the tree was read from.
    pub text: &'a str,
    /// The texts of the scalars not written as they are (escapes, folded lines, blocks).
    pub texts: Vec<String>,
    /// Scalar tags, each once.
    pub tags: Vec<Box<str>>,
    /// Alias names.
    pub names: Vec<&'a str>,
    pub places: Places<'a>,
    pub root: NodeId,
    /// Whether the top node is a flow collection (`{…}` or `[…]`).
    pub root_is_flow: bool,
}

/// Where the nodes of a tree were written.
///
/// Recorded only when asked (see [`build`]): otherwise only an error needs a node's position,
/// and the text is read again to find it. (Positions are saphyr's lines and columns, which do
/// not always follow from a byte offset: a byte order mark at the start of a line takes no
/// column, for one. Reading the text again gives them exactly.)
#[derive(Debug)]
pub(super) struct Places<'a> {
    text: &'a str,
    /// The text as written, and what was masked in `text` (see [`build`]; the quoted scalars'
    /// values are not needed for places).
    original: &'a str,
    masks: Rewrites,
    origin: Origin,
    /// Each node's start and end as saphyr's (line, column, line, column), if recorded.
    recorded: Vec<[u32; 4]>,
}

impl Places<'_> {
    /// The start of node `id`.
    pub(super) fn start(&self, id: NodeId) -> Pos {
        self.span(id).0
    }

    /// The start and end (just past it) of node `id`.
    pub(super) fn span(&self, id: NodeId) -> (Pos, Pos) {
        let at = |p: &[u32; 4]| {
            let pos =
                |line: u32, col: u32| source::file_pos(self.origin, line as usize, col as usize);
            (pos(p[0], p[1]), pos(p[2], p[3]))
        };
        if let Some(p) = self.recorded.get(id as usize) {
            return at(p);
        }
        // Not recorded: read the same text again, recording (the same nodes come out).
        let again = build(self.text, self.original, self.origin, &self.masks, true);
        match again {
            Ok(Some(tree)) if (id as usize) < tree.places.recorded.len() => {
                at(&tree.places.recorded[id as usize])
            }
            // Not met: the same text gives the same tree.
            _ => {
                let start = source::file_pos(self.origin, 1, 0);
                (start, start)
            }
        }
    }
}

/// The flow collection being skipped in saphyr's events (it was read by [`flow::read`]): how
/// deep saphyr's events are in it, and its bytes.
struct Skip {
    depth: usize,
    start: usize,
    end: usize,
}

/// Reads the first document of `text` into a tree; `Ok(None)` if there is no document at all
/// (only comments or blank lines). With `record`, the position of every node is kept (see
/// [`Places`]).
///
/// `text` is `original` as rewritten for saphyr by earlier readings (`rewrites`); each keeps
/// every character's byte, line and column. Flow collections are read by [`flow::read`] from
/// `original`.
///
/// Like go-yaml, it stops at the end of that document and does not look further. But saphyr
/// scans ahead past a top-level flow collection (`{a: 1} }`) and may fail there; so on a
/// failure outside a block collection it asks to read the text up to the failure instead.
pub(super) fn build<'a>(
    text: &'a str,
    original: &'a str,
    origin: Origin,
    rewrites: &Rewrites,
    record: bool,
) -> Result<Option<Tree<'a>>, BuildError> {
    if text.len() > MAX_TEXT {
        let pos = source::file_pos(origin, 1, 0);
        let msg = format!("a document of {} bytes: at most 4 GiB are read", text.len());
        return Err(Fail::new(pos, msg).into());
    }
    let source = Source::new(text, origin);
    let mut parser = Parser::new_from_str(text);
    let mut b = Builder::new(text, origin, record);
    // Flow scalars point into the text only where it is the text as written.
    let borrow = std::ptr::eq(text, original);
    let mut skip: Option<Skip> = None;
    // The last flow collection read, for a comment right after it (`[a]#c`): go-yaml takes it.
    let mut last_flow = (usize::MAX, usize::MAX);
    let mut last = saphyr_parser::Marker::new(0, 1, 0);
    while let Some(next) = parser.next_event() {
        let (event, span) = match next {
            Ok(ev) => ev,
            Err(e) => {
                if let Some(s) = &skip {
                    return Err(masked(&source, &b, (s.start, s.end), *e.marker()));
                }
                // Errors saphyr finds after the document, where go-yaml does not look.
                if b.has_root() && b.is_closed() && source::beyond_document(&e) {
                    break;
                }
                let at = source.byte_of(*e.marker());
                let (_, end) = last_flow;
                if (end.saturating_sub(1)..=end).contains(&at) && text[end..].starts_with('#') {
                    return Err(masked(&source, &b, last_flow, *e.marker()));
                }
                // A flow collection saphyr was scanning into comes first: what is in it is
                // the flow reader's.
                if let Some(retry) = flow_ahead(&source, original, &b, last, &e) {
                    return Err(retry);
                }
                if let Some(retry) = masked_tag(&source, original, &b, &e) {
                    return Err(retry);
                }
                if let Some(retry) = masked_alias(&source, &b, &e) {
                    return Err(retry);
                }
                let maybe_flow_root = !b.has_root() || b.root_is_flow();
                return Err(on_error(&source, text, &e, maybe_flow_root));
            }
        };
        last = span.end;
        if let Some(s) = &mut skip {
            match event {
                Event::SequenceStart(..) | Event::MappingStart(..) => s.depth += 1,
                Event::SequenceEnd | Event::MappingEnd => {
                    s.depth -= 1;
                    if s.depth == 0 {
                        let (start, end) = (s.start, s.end);
                        skip = None;
                        // saphyr's collection ends elsewhere: it read it otherwise.
                        if source.byte_of(span.end) != end {
                            return Err(masked(&source, &b, (start, end), span.start));
                        }
                    }
                }
                Event::StreamEnd | Event::DocumentEnd => {
                    return Err(masked(&source, &b, (s.start, s.end), span.start));
                }
                _ => {}
            }
            continue;
        }
        let place = (place(span.start), place(span.end));
        match event {
            Event::Nothing | Event::StreamStart | Event::DocumentStart(_) => {}
            Event::StreamEnd | Event::DocumentEnd => break,
            Event::SequenceEnd | Event::MappingEnd => b.close(place.1)?,
            Event::Alias(_) => {
                let name = source.checked_name(span.start)?;
                b.alias(name, place.0, place.1)?;
            }
            Event::Scalar(..)
                if !rewrites.aliases.is_empty()
                    && (rewrites.aliases)
                        .binary_search(&source.quote_at(span.start))
                        .is_ok() =>
            {
                // A masked alias: its name is in the text as written.
                let at = source.quote_at(span.start) + 1;
                let len = original[at..]
                    .bytes()
                    .take_while(|&c| flow::is_name(c))
                    .count();
                b.alias(&original[at..at + len], place.0, place.1)?;
            }
            Event::Scalar(_, _, anchor, _)
                if !rewrites.flows.is_empty()
                    && (rewrites.flows)
                        .binary_search(&source.quote_at(span.start))
                        .is_ok() =>
            {
                // A masked flow collection: read it from the text as written.
                let anchor = anchor_name(&source, anchor, span.start)?;
                let at = source.quote_at(span.start);
                let mark = source.mark_at(span.start, at);
                last_flow = (at, flow::read(&mut b, original, mark, anchor, false)?.byte);
            }
            Event::Scalar(value, style, anchor, tag) => {
                if style == ScalarStyle::DoubleQuoted && value.contains('/') {
                    source.check_escapes(span.start)?;
                }
                let masked = (style == ScalarStyle::DoubleQuoted && !rewrites.quoted.is_empty())
                    .then(|| rewrites.quoted.get(&source.quote_at(span.start)))
                    .flatten();
                let tag = match tag {
                    Some(_) => Some(block_tag(&source, original, rewrites, &b, span.start)?),
                    None => None,
                };
                let scalar = match masked {
                    Some(v) => ScalarText::Owned(v.clone()),
                    None => match as_written(&source, text, &value, style, span) {
                        Some((at, len)) => ScalarText::Written(at as usize, (at + len) as usize),
                        None => ScalarText::Owned(value.into_owned()),
                    },
                };
                let anchor = anchor_name(&source, anchor, span.start)?;
                // Block scalars (`? |`) can only be explicit keys; the others may be implicit.
                if b.at_key() && !matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
                    source.check_implicit_key(span)?;
                }
                b.scalar(scalar, style, tag.as_deref(), anchor, place)?;
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                let map = matches!(event, Event::MappingStart(..));
                let anchor = anchor_name(&source, anchor, span.start)?;
                // A collection's tag changes nothing, but go-yaml may refuse it.
                if tag.is_some() {
                    block_tag(&source, original, rewrites, &b, span.start)?;
                }
                if source.is_flow_collection(span.start) {
                    let at = source.quote_at(span.start);
                    let mark = source.mark_at(span.start, at);
                    let end = flow::read(&mut b, original, mark, anchor, borrow)?;
                    last_flow = (at, end.byte);
                    skip = Some(Skip {
                        depth: 1,
                        start: at,
                        end: end.byte,
                    });
                } else {
                    b.open(map, anchor, place.0, false)?;
                }
            }
        }
    }
    Ok(b.finish(original, rewrites))
}

/// The tag of the node whose properties start at `m` (block context), as go-yaml reads it, or
/// go-yaml's error for it (see [`flow::block_tag`]).
fn block_tag(
    source: &Source<'_>,
    original: &str,
    rewrites: &Rewrites,
    b: &Builder<'_>,
    m: saphyr_parser::Marker,
) -> Result<String, Fail> {
    let from = source.byte_of(m);
    let mut at = from;
    let text = source.text();
    if text[at..].starts_with('&') {
        at += text[at..]
            .find(char::is_whitespace)
            .unwrap_or(text.len() - at);
        at = text.len() - text[at..].trim_start().len();
    }
    if let Some(tag) = rewrites.tags.get(&at) {
        return Ok(tag.clone());
    }
    match flow::block_tag(original, source.mark_at(m, at)) {
        Ok((_, tag)) => Ok(tag),
        Err((m, msg)) => Err(Fail::new(b.pos(m.line, m.col), msg)),
    }
}

/// The name of saphyr's anchor `id` at `m`, checked as libyaml checks it; `None` for 0.
fn anchor_name<'a>(
    source: &Source<'a>,
    id: usize,
    m: saphyr_parser::Marker,
) -> Result<Option<&'a str>, Fail> {
    if id == 0 {
        return Ok(None);
    }
    source.checked_name(m).map(Some)
}

/// A saphyr marker as (line, column), as [`Places`] keeps it: they fit in `u32`s as the text is
/// shorter than [`MAX_TEXT`].
fn place(m: saphyr_parser::Marker) -> [u32; 2] {
    let to = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    [to(m.line()), to(m.col())]
}

/// The longest document text read (positions, byte offsets and node ids are `u32`s).
const MAX_TEXT: usize = u32::MAX as usize - 4;

/// Where scalar `value` is written as it is in `text` (its bytes `at..at + len`), if it is:
/// a plain scalar on one line, or a quoted one without escapes or line breaks. Then the tree
/// borrows it and saphyr's copy is freed at once.
fn as_written(
    source: &Source<'_>,
    text: &str,
    value: &str,
    style: ScalarStyle,
    span: saphyr_parser::Span,
) -> Option<(u32, u32)> {
    // The span starts at the node's properties (`&a !t`), if any, and ends after the scalar
    // (after its closing quote).
    let (from, to) = (source.byte_of(span.start), source.byte_of(span.end));
    let written = text.get(from..to)?;
    let written = match style {
        ScalarStyle::Plain => written,
        ScalarStyle::SingleQuoted => written.strip_suffix('\'')?,
        ScalarStyle::DoubleQuoted => written.strip_suffix('"')?,
        ScalarStyle::Literal | ScalarStyle::Folded => return None,
    };
    if !written.ends_with(value) {
        return None;
    }
    let at = u32::try_from(from + written.len() - value.len()).ok()?;
    Some((at, u32::try_from(value.len()).ok()?))
}

#[cfg(test)]
mod tests;
