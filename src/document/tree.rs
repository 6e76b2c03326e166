//! YAML events (from saphyr-parser) to a tree of nodes, the way go-yaml v2 builds its nodes.
//!
//! The tree keeps what the decoder needs and saphyr's loader would lose or change: the raw
//! text, style and tag of every scalar, aliases as references to the anchored node (not
//! copies, so that expansion can be counted and bounded as go-yaml does), and positions. It is
//! built with an explicit stack, never recursion, and refuses nesting deeper than
//! [`MAX_DEPTH`] as soon as it is seen. Only the first document of the text
//! is read: go-yaml does the same with each piece kubectl gives it.
//!
//! For speed, children live in one shared list and scalar texts in another, which the decoder
//! empties as it goes (a text that an alias may reach again is copied instead).

use std::borrow::Cow;
use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use super::quoted;
use super::source::{self, Source};
use super::{Fail, MAX_DEPTH, Origin, Pos};

pub(super) type NodeId = usize;

#[derive(Debug)]
pub(super) enum Kind<'a> {
    /// `text` indexes [`Tree::texts`]; `shared` if an alias may reach the node (it is anchored,
    /// or inside an anchored collection).
    Scalar {
        text: usize,
        style: ScalarStyle,
        tag: Option<Box<str>>,
        shared: bool,
    },
    /// `children[start..start + len]`.
    Seq { start: usize, len: usize },
    /// `children[start..start + len]`: keys and values, alternating.
    Map { start: usize, len: usize },
    /// An alias (`*name`) of the node anchored as `name`.
    Alias { target: NodeId, name: &'a str },
}

#[derive(Debug)]
pub(super) struct Node<'a> {
    pub kind: Kind<'a>,
    pub pos: Pos,
    pub end: Pos,
}

/// One document's nodes; `nodes[root]` is its top.
#[derive(Debug)]
pub(super) struct Tree<'a> {
    pub nodes: Vec<Node<'a>>,
    pub children: Vec<NodeId>,
    pub texts: Vec<Cow<'a, str>>,
    pub root: NodeId,
    /// Whether the top node is a flow collection (`{…}` or `[…]`).
    pub root_is_flow: bool,
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
/// (only comments or blank lines).
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
) -> Result<Option<Tree<'a>>, BuildError> {
    let source = Source::new(text, origin);
    let mut parser = Parser::new_from_str(text);
    let mut nodes: Vec<Node<'a>> = Vec::with_capacity(text.len() / 16);
    let mut texts: Vec<Cow<'a, str>> = Vec::with_capacity(text.len() / 24);
    let mut children: Vec<NodeId> = Vec::with_capacity(text.len() / 24);
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
        let (pos, end) = (source.pos(span.start), source.pos(span.end));
        let in_shared = stack.last().is_some_and(|o| o.shared);
        let (kind, anchor) = match event {
            Event::Nothing | Event::StreamStart | Event::DocumentStart(_) => continue,
            Event::StreamEnd | Event::DocumentEnd => break,
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = stack.pop() {
                    let start = children.len();
                    let len = scratch.len() - open.scratch;
                    children.extend(scratch.drain(open.scratch..));
                    let node = &mut nodes[open.id];
                    node.end = end;
                    node.kind = match node.kind {
                        Kind::Map { .. } => Kind::Map { start, len },
                        _ => Kind::Seq { start, len },
                    };
                }
                continue;
            }
            Event::Alias(anchor) => {
                let name = source.checked_name(span.start)?;
                let Some(&target) = anchors.get(&anchor) else {
                    let msg = format!("unknown anchor '{name}' referenced");
                    return Err(Fail::new(pos, msg).into());
                };
                (Kind::Alias { target, name }, 0)
            }
            Event::Scalar(value, style, anchor, tag) => {
                if style == ScalarStyle::DoubleQuoted && value.contains('/') {
                    source.check_escapes(span.start)?;
                }
                let masked = (style == ScalarStyle::DoubleQuoted && !quoted.is_empty())
                    .then(|| quoted.get(&source.quote_at(span.start)))
                    .flatten();
                let value = masked.map_or(value, |v| Cow::Owned(v.clone()));
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix).into_boxed_str());
                texts.push(value);
                let shared = in_shared || anchor > 0;
                (
                    Kind::Scalar {
                        text: texts.len() - 1,
                        style,
                        tag,
                        shared,
                    },
                    anchor,
                )
            }
            Event::SequenceStart(anchor, _) => (Kind::Seq { start: 0, len: 0 }, anchor),
            Event::MappingStart(anchor, _) => (Kind::Map { start: 0, len: 0 }, anchor),
        };
        let id = nodes.len();
        let is_collection = matches!(kind, Kind::Seq { .. } | Kind::Map { .. });
        if is_collection && stack.len() >= MAX_DEPTH {
            let msg = format!("document nests deeper than {MAX_DEPTH} levels");
            return Err(Fail::new(pos, msg).into());
        }
        if anchor > 0 {
            source.checked_name(span.start)?;
            anchors.insert(anchor, id);
        }
        // Block scalars (`? |`) can only be explicit keys; the others may be implicit ones.
        let may_be_implicit_key = match &kind {
            Kind::Scalar { style, .. } => {
                !matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
            }
            Kind::Alias { .. } => true,
            Kind::Seq { .. } | Kind::Map { .. } => false,
        };
        nodes.push(Node { kind, pos, end });
        match stack.last() {
            Some(open) => {
                let is_key = matches!(nodes[open.id].kind, Kind::Map { .. })
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
        texts,
        root,
        root_is_flow,
    }))
}
