//! YAML events (from saphyr-parser) to a tree of nodes, the way go-yaml v2 builds its nodes.
//!
//! The tree keeps what the decoder needs and saphyr's loader would lose or change: the raw
//! text, style and tag of every scalar, aliases as references to the anchored node (not
//! copies, so that expansion can be counted and bounded as go-yaml does), and positions. It is
//! built with an explicit stack, never recursion, and refuses nesting deeper than
//! [`MAX_DEPTH`] as soon as it is seen. Only the first document of the text
//! is read: go-yaml does the same with each piece kubectl gives it.
//!
//! A large document has a million nodes, so the tree is compact (16 bytes a node; a 10 MB
//! file's tree takes about 30 MB): children live in one shared list; a scalar written as it
//! is (most of them) points into the text, and only the others keep saphyr's string, in a list
//! the decoder empties as it goes (a text that an alias may reach again is copied instead);
//! positions are kept only when asked for (see [`Places`]).

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use super::quoted;
use super::source::{self, Source};
use super::{Fail, MAX_DEPTH, Origin, Pos};

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
        let again = build(self.text, self.origin, &HashMap::new(), true);
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

/// Why [`build`] stopped.
#[derive(Debug)]
pub(super) enum BuildError {
    Fail(Fail),
    /// Read `text` instead. With `otherwise`, `text` is the text before a failure, and is only
    /// the answer if it holds a top-level flow collection; else `otherwise` is the error. With
    /// `quoted`, a double-quoted scalar was masked: (byte of its opening quote, its value).
    Retry {
        text: String,
        otherwise: Option<Fail>,
        quoted: Option<(usize, String)>,
    },
}

impl From<Fail> for BuildError {
    fn from(f: Fail) -> Self {
        BuildError::Fail(f)
    }
}

/// What to do about a saphyr error met before the document was complete (see [`build`]).
fn on_error(source: &Source<'_>, text: &str, e: &ScanError, maybe_flow_root: bool) -> BuildError {
    let fail = source::scan_fail(source, e);
    if let Some(text) = source::rewrite(source, e) {
        return BuildError::Retry {
            text,
            otherwise: None,
            quoted: None,
        };
    }
    let at = source.byte_of(*e.marker());
    if e.info().ends_with("found unknown escape character") && text[at..].starts_with('"') {
        return match quoted::decode(text, at) {
            Ok((value, end)) => BuildError::Retry {
                text: quoted::mask(text, at, end),
                otherwise: None,
                quoted: Some((at, value)),
            },
            Err(msg) => Fail::new(fail.pos, msg).into(),
        };
    }
    if e.info() == "invalid indentation in quoted scalar"
        && let Some(quote) = text[at..]
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\''))
    {
        // go-yaml (libyaml) does not check the indentation of a quoted scalar's lines.
        return match quoted::decode_quoted(text, at, quote == '\'') {
            Ok((value, end)) => match quoted::mask_to_first_line(text, at, end) {
                Some(text) => BuildError::Retry {
                    text,
                    otherwise: None,
                    quoted: Some((at, value)),
                },
                None => BuildError::Fail(fail),
            },
            Err(msg) => Fail::new(fail.pos, msg).into(),
        };
    }
    if maybe_flow_root && at > 0 && at < text.len() {
        let text = format!("{}\n", &text[..at]);
        return BuildError::Retry {
            text,
            otherwise: Some(fail),
            quoted: None,
        };
    }
    BuildError::Fail(fail)
}

/// A collection being read: its node, where its children start on the scratch list, and
/// whether an alias may reach it.
struct Open {
    id: NodeId,
    scratch: usize,
    shared: bool,
}

/// Reads the first document of `text` into a tree; `Ok(None)` if there is no document at all
/// (only comments or blank lines). With `record`, the position of every node is kept (see
/// [`Places`]).
///
/// Like go-yaml, it stops at the end of that document and does not look further. But saphyr
/// scans ahead past a top-level flow collection (`{a: 1} }`) and may fail there; so on a
/// failure outside a block collection it asks to read the text up to the failure instead.
///
/// `quoted` holds the values of double-quoted scalars masked by an earlier attempt, by the byte
/// of their opening quote.
pub(super) fn build<'a>(
    text: &'a str,
    origin: Origin,
    quoted: &HashMap<usize, String>,
    record: bool,
) -> Result<Option<Tree<'a>>, BuildError> {
    if text.len() > MAX_TEXT {
        let pos = source::file_pos(origin, 1, 0);
        let msg = format!("a document of {} bytes: at most 4 GiB are read", text.len());
        return Err(Fail::new(pos, msg).into());
    }
    let source = Source::new(text, origin);
    let mut parser = Parser::new_from_str(text);
    // Manifests hold about one node per 10 bytes; a vector that must grow does so once or twice.
    let mut nodes: Vec<Kind> = Vec::with_capacity(text.len() / 10);
    let mut children: Vec<NodeId> = Vec::with_capacity(text.len() / 10);
    let mut recorded: Vec<[u32; 4]> = Vec::with_capacity(if record { text.len() / 10 } else { 0 });
    let mut texts: Vec<String> = Vec::new();
    let mut tags: Vec<Box<str>> = Vec::new();
    let mut tag_ids: HashMap<Box<str>, u32> = HashMap::new();
    let mut names: Vec<&'a str> = Vec::new();
    let mut scratch: Vec<NodeId> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut anchors: HashMap<usize, NodeId> = HashMap::new();
    let mut root = None;
    let mut root_is_flow = false;
    while let Some(next) = parser.next_event() {
        let (event, span) = match next {
            Ok(ev) => ev,
            // Errors saphyr finds after the document, where go-yaml does not look.
            Err(e) if root.is_some() && stack.is_empty() && source::beyond_document(&e) => break,
            Err(e) => return Err(on_error(&source, text, &e, root.is_none() || root_is_flow)),
        };
        let in_shared = stack.last().is_some_and(|o| o.shared);
        let (kind, anchor) = match event {
            Event::Nothing | Event::StreamStart | Event::DocumentStart(_) => continue,
            Event::StreamEnd | Event::DocumentEnd => break,
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = stack.pop() {
                    let start = count(children.len(), &source, span.start)?;
                    let len = count(scratch.len() - open.scratch, &source, span.start)?;
                    children.extend(scratch.drain(open.scratch..));
                    let node = &mut nodes[open.id as usize];
                    *node = match node {
                        Kind::Map { .. } => Kind::Map { start, len },
                        _ => Kind::Seq { start, len },
                    };
                    if let Some(p) = recorded.get_mut(open.id as usize) {
                        [p[2], p[3]] = place(span.end);
                    }
                }
                continue;
            }
            Event::Alias(anchor) => {
                let name = source.checked_name(span.start)?;
                let Some(&target) = anchors.get(&anchor) else {
                    let msg = format!("unknown anchor '{name}' referenced");
                    return Err(Fail::new(source.pos(span.start), msg).into());
                };
                names.push(name);
                let name = count(names.len() - 1, &source, span.start)?;
                (Kind::Alias { target, name }, 0)
            }
            Event::Scalar(value, style, anchor, tag) => {
                if style == ScalarStyle::DoubleQuoted && value.contains('/') {
                    source.check_escapes(span.start)?;
                }
                let masked = (style == ScalarStyle::DoubleQuoted && !quoted.is_empty())
                    .then(|| quoted.get(&source.quote_at(span.start)))
                    .flatten();
                let tag = match tag {
                    None => 0,
                    Some(t) => {
                        let t = format!("{}{}", t.handle, t.suffix).into_boxed_str();
                        match tag_ids.get(&t) {
                            Some(&i) => i,
                            None => {
                                tags.push(t.clone());
                                let i = count(tags.len(), &source, span.start)?;
                                tag_ids.insert(t, i);
                                i
                            }
                        }
                    }
                };
                let (at, len, owned) = match masked {
                    Some(v) => {
                        texts.push(v.clone());
                        (count(texts.len() - 1, &source, span.start)?, 0, true)
                    }
                    None => match as_written(&source, text, &value, style, span) {
                        Some((at, len)) => (at, len, false),
                        None => {
                            texts.push(value.into_owned());
                            (count(texts.len() - 1, &source, span.start)?, 0, true)
                        }
                    },
                };
                let shared = in_shared || anchor > 0;
                let scalar = Scalar {
                    at,
                    len,
                    tag,
                    style,
                    shared,
                    owned,
                };
                (Kind::Scalar(scalar), anchor)
            }
            Event::SequenceStart(anchor, _) => (Kind::Seq { start: 0, len: 0 }, anchor),
            Event::MappingStart(anchor, _) => (Kind::Map { start: 0, len: 0 }, anchor),
        };
        let id = count(nodes.len(), &source, span.start)?;
        let is_collection = matches!(kind, Kind::Seq { .. } | Kind::Map { .. });
        if is_collection && stack.len() >= MAX_DEPTH {
            let msg = format!("document nests deeper than {MAX_DEPTH} levels");
            return Err(Fail::new(source.pos(span.start), msg).into());
        }
        if anchor > 0 {
            source.checked_name(span.start)?;
            anchors.insert(anchor, id);
        }
        // Block scalars (`? |`) can only be explicit keys; the others may be implicit ones.
        let may_be_implicit_key = match &kind {
            Kind::Scalar(s) => !matches!(s.style, ScalarStyle::Literal | ScalarStyle::Folded),
            Kind::Alias { .. } => true,
            Kind::Seq { .. } | Kind::Map { .. } => false,
        };
        nodes.push(kind);
        if record {
            let [line, col] = place(span.start);
            let [end_line, end_col] = place(span.end);
            recorded.push([line, col, end_line, end_col]);
        }
        match stack.last() {
            Some(open) => {
                let is_key = matches!(nodes[open.id as usize], Kind::Map { .. })
                    && (scratch.len() - open.scratch).is_multiple_of(2);
                scratch.push(id);
                if is_key && may_be_implicit_key {
                    source.check_implicit_key(span)?;
                }
            }
            None => {
                root = Some(id);
                root_is_flow = is_collection && source.is_flow_collection(span.start);
            }
        }
        if is_collection {
            stack.push(Open {
                id,
                scratch: scratch.len(),
                shared: in_shared || anchor > 0,
            });
        }
    }
    Ok(root.map(|root| Tree {
        nodes,
        children,
        text,
        texts,
        tags,
        names,
        places: Places {
            text,
            origin,
            recorded,
        },
        root,
        root_is_flow,
    }))
}

/// `n` as a node id or index, or the error for a document with more nodes than those hold
/// (4 GiB of text at least).
fn count(n: usize, source: &Source<'_>, at: saphyr_parser::Marker) -> Result<u32, Fail> {
    u32::try_from(n).map_err(|_| {
        let msg = format!("document has more than {} nodes", u32::MAX);
        Fail::new(source.pos(at), msg)
    })
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
