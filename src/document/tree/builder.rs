//! The nodes of a tree as they are read, from saphyr's events or from the flow reader.

use std::collections::HashMap;

use saphyr_parser::ScalarStyle;

use super::{Kind, NodeId, Places, Rewrites, Scalar, Tree};
use crate::document::source;
use crate::document::{Fail, MAX_DEPTH, Origin, Pos};

/// A scalar's text: bytes `from..to` of the builder's text, written as they are, or its value.
#[derive(Debug)]
pub(in crate::document) enum ScalarText {
    Written(usize, usize),
    Owned(String),
}

/// A collection being read: its node, where its children start on the scratch list, whether an
/// alias may reach it, whether it is a flow collection, and its column.
struct Open {
    id: NodeId,
    scratch: usize,
    shared: bool,
    flow: bool,
    col: u32,
}

/// A tree being built, node by node, in the order they are written.
pub(in crate::document) struct Builder<'a> {
    text: &'a str,
    origin: Origin,
    record: bool,
    nodes: Vec<Kind>,
    children: Vec<NodeId>,
    recorded: Vec<[u32; 4]>,
    texts: Vec<String>,
    tags: Vec<Box<str>>,
    tag_ids: HashMap<Box<str>, u32>,
    names: Vec<&'a str>,
    scratch: Vec<NodeId>,
    stack: Vec<Open>,
    anchors: HashMap<&'a str, NodeId>,
    root: Option<NodeId>,
    root_is_flow: bool,
}

impl<'a> Builder<'a> {
    pub(super) fn new(text: &'a str, origin: Origin, record: bool) -> Self {
        // Manifests hold about one node per 10 bytes; a vector that must grow does so once or
        // twice.
        Builder {
            text,
            origin,
            record,
            nodes: Vec::with_capacity(text.len() / 10),
            children: Vec::with_capacity(text.len() / 10),
            recorded: Vec::with_capacity(if record { text.len() / 10 } else { 0 }),
            texts: Vec::new(),
            tags: Vec::new(),
            tag_ids: HashMap::new(),
            names: Vec::new(),
            scratch: Vec::new(),
            stack: Vec::new(),
            anchors: HashMap::new(),
            root: None,
            root_is_flow: false,
        }
    }

    /// The file position of saphyr's `line` (from 1) and `col` (from 0).
    pub(in crate::document) fn pos(&self, line: usize, col: usize) -> Pos {
        source::file_pos(self.origin, line, col)
    }

    fn place_pos(&self, p: [u32; 2]) -> Pos {
        self.pos(p[0] as usize, p[1] as usize)
    }

    /// Whether the top node is read.
    pub(super) fn has_root(&self) -> bool {
        self.root.is_some()
    }

    /// Whether the top node is read and is a flow collection.
    pub(super) fn root_is_flow(&self) -> bool {
        self.root_is_flow
    }

    /// Whether no collection is open.
    pub(super) fn is_closed(&self) -> bool {
        self.stack.is_empty()
    }

    /// Whether a node was anchored as `name`.
    pub(super) fn knows_anchor(&self, name: &str) -> bool {
        self.anchors.contains_key(name)
    }

    /// Whether the next node is a mapping's key.
    pub(super) fn at_key(&self) -> bool {
        self.stack.last().is_some_and(|open| {
            matches!(self.nodes[open.id as usize], Kind::Map { .. })
                && (self.scratch.len() - open.scratch).is_multiple_of(2)
        })
    }

    /// The indentation of the innermost open block collection (libyaml's `parser.indent`),
    /// -1 if there is none.
    pub(in crate::document) fn block_indent(&self) -> isize {
        (self.stack.iter().rev())
            .find(|o| !o.flow)
            .map_or(-1, |o| o.col as isize)
    }

    /// `n` as a node id or index, or the error for a document with more nodes than those hold.
    fn count(&self, n: usize, at: [u32; 2]) -> Result<u32, Fail> {
        u32::try_from(n).map_err(|_| {
            let msg = format!("document has more than {} nodes", u32::MAX);
            Fail::new(self.place_pos(at), msg)
        })
    }

    fn tag_id(&mut self, tag: Option<&str>, at: [u32; 2]) -> Result<u32, Fail> {
        let Some(t) = tag else { return Ok(0) };
        if let Some(&i) = self.tag_ids.get(t) {
            return Ok(i);
        }
        self.tags.push(t.into());
        let i = self.count(self.tags.len(), at)?;
        self.tag_ids.insert(t.into(), i);
        Ok(i)
    }

    fn shared(&self) -> bool {
        self.stack.last().is_some_and(|o| o.shared)
    }

    /// Adds a scalar.
    pub(in crate::document) fn scalar(
        &mut self,
        text: ScalarText,
        style: ScalarStyle,
        tag: Option<&str>,
        anchor: Option<&'a str>,
        (start, end): ([u32; 2], [u32; 2]),
    ) -> Result<(), Fail> {
        let tag = self.tag_id(tag, start)?;
        let (at, len, owned) = match text {
            ScalarText::Written(from, to) => (
                self.count(from, start)?,
                self.count(to.saturating_sub(from), start)?,
                false,
            ),
            ScalarText::Owned(s) => {
                self.texts.push(s);
                (self.count(self.texts.len() - 1, start)?, 0, true)
            }
        };
        let scalar = Scalar {
            at,
            len,
            tag,
            style,
            shared: self.shared() || anchor.is_some(),
            owned,
        };
        self.add(Kind::Scalar(scalar), anchor, start, end, false)
            .map(drop)
    }

    /// Adds an alias of the node last anchored as `name`.
    pub(in crate::document) fn alias(
        &mut self,
        name: &'a str,
        start: [u32; 2],
        end: [u32; 2],
    ) -> Result<(), Fail> {
        let Some(&target) = self.anchors.get(name) else {
            let msg = format!("unknown anchor '{name}' referenced");
            return Err(Fail::new(self.place_pos(start), msg));
        };
        self.names.push(name);
        let name = self.count(self.names.len() - 1, start)?;
        self.add(Kind::Alias { target, name }, None, start, end, false)
            .map(drop)
    }

    /// Opens a mapping (`map`) or a sequence, a flow collection if `flow`.
    pub(in crate::document) fn open(
        &mut self,
        map: bool,
        anchor: Option<&'a str>,
        start: [u32; 2],
        flow: bool,
    ) -> Result<(), Fail> {
        if self.stack.len() >= MAX_DEPTH {
            let msg = format!("document nests deeper than {MAX_DEPTH} levels");
            return Err(Fail::new(self.place_pos(start), msg));
        }
        let kind = match map {
            true => Kind::Map { start: 0, len: 0 },
            false => Kind::Seq { start: 0, len: 0 },
        };
        let shared = self.shared() || anchor.is_some();
        let id = self.add(kind, anchor, start, start, flow)?;
        self.stack.push(Open {
            id,
            scratch: self.scratch.len(),
            shared,
            flow,
            col: start[1],
        });
        Ok(())
    }

    /// Closes the innermost open collection, which ends at `end`.
    pub(in crate::document) fn close(&mut self, end: [u32; 2]) -> Result<(), Fail> {
        let Some(open) = self.stack.pop() else {
            return Ok(());
        };
        let start = self.count(self.children.len(), end)?;
        let len = self.count(self.scratch.len() - open.scratch, end)?;
        self.children.extend(self.scratch.drain(open.scratch..));
        let node = &mut self.nodes[open.id as usize];
        *node = match node {
            Kind::Map { .. } => Kind::Map { start, len },
            _ => Kind::Seq { start, len },
        };
        if let Some(p) = self.recorded.get_mut(open.id as usize) {
            [p[2], p[3]] = end;
        }
        Ok(())
    }

    fn add(
        &mut self,
        kind: Kind,
        anchor: Option<&'a str>,
        start: [u32; 2],
        end: [u32; 2],
        flow: bool,
    ) -> Result<NodeId, Fail> {
        let id = self.count(self.nodes.len(), start)?;
        if let Some(name) = anchor {
            self.anchors.insert(name, id);
        }
        let is_collection = matches!(kind, Kind::Seq { .. } | Kind::Map { .. });
        self.nodes.push(kind);
        if self.record {
            self.recorded.push([start[0], start[1], end[0], end[1]]);
        }
        if self.stack.is_empty() {
            self.root = Some(id);
            self.root_is_flow = is_collection && flow;
        } else {
            self.scratch.push(id);
        }
        Ok(id)
    }

    /// The tree, if a top node was read.
    pub(super) fn finish(self, original: &'a str, rewrites: &Rewrites) -> Option<Tree<'a>> {
        let root = self.root?;
        Some(Tree {
            nodes: self.nodes,
            children: self.children,
            text: self.text,
            texts: self.texts,
            tags: self.tags,
            names: self.names,
            places: Places {
                text: self.text,
                original,
                masks: Rewrites {
                    quoted: HashMap::new(),
                    flows: rewrites.flows.clone(),
                    aliases: rewrites.aliases.clone(),
                    tags: rewrites.tags.clone(),
                },
                origin: self.origin,
                recorded: self.recorded,
            },
            root,
            root_is_flow: self.root_is_flow,
        })
    }
}
