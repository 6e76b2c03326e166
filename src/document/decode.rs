//! Node tree to JSON value, as go-yaml v2 decodes into `interface{}` and sigs.k8s.io/yaml
//! converts the result, with a [`Spans`] table built on the way.
//!
//! What this reproduces, each verified against kubectl 1.37:
//! - keys become strings (`y` → `"true"`, `0x10` → `"16"`, `1.5` → `"1.5"`); null, uint64,
//!   mapping and sequence keys are errors; duplicate keys are allowed and the last one wins;
//! - `<<` merges are applied **in document order** into the same map, so an explicit key
//!   written *before* `<<` is overwritten by the merged one and a key written after it wins;
//!   in `<<: [*a, *b]` the earlier mapping wins;
//! - aliases are expanded, an alias inside its own anchor is an error, and go-yaml's budget
//!   for alias expansion (`document contains excessive aliasing`) is applied with its formula;
//! - nesting through aliases is bounded by [`MAX_DEPTH`] too.

use std::borrow::Cow;

use crate::value::{Map, Value};

use super::resolve::{self, GoScalar};
use super::spans::{Span, Spans};
use super::tree::{Kind, NodeId, Places, Scalar, Tree};
use super::{Fail, MAX_DEPTH};

/// go-yaml v2's `allowedAliasRatio`: the share of decode steps that may come from aliases.
fn allowed_alias_ratio(decode_count: u64) -> f64 {
    const LOW: u64 = 400_000;
    const HIGH: u64 = 4_000_000;
    if decode_count <= LOW {
        0.99
    } else if decode_count >= HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((decode_count - LOW) as f64 / (HIGH - LOW) as f64)
    }
}

struct Decoder<'t, 'a> {
    nodes: &'t [Kind],
    children: &'t [NodeId],
    /// The text the tree was read from: most scalars' texts are in it.
    text: &'a str,
    /// The other scalar texts; those no alias can reach are moved out, the others copied.
    texts: &'t mut [String],
    tags: &'t [Box<str>],
    names: &'t [&'a str],
    places: &'t Places<'a>,
    spans: Spans,
    decode_count: u64,
    alias_count: u64,
    /// The alias nodes being expanded, innermost last (go-yaml's `d.aliases`).
    active: Vec<NodeId>,
}

const WANT_MAP: &str = "map merge requires map or sequence of maps as the value";

/// Decodes a document tree; the value and the span table of every value in it.
/// With `spans` false, the table records nothing.
pub(super) fn decode(tree: &mut Tree<'_>, spans: bool) -> Result<(Value, Spans), Fail> {
    let spans = if spans {
        let (value, end) = tree.places.span(tree.root);
        let span = Span {
            key: None,
            value,
            end,
        };
        Spans::with_capacity(span, tree.nodes.len())
    } else {
        Spans::off()
    };
    let mut d = Decoder {
        nodes: &tree.nodes,
        children: &tree.children,
        text: tree.text,
        texts: &mut tree.texts,
        tags: &tree.tags,
        names: &tree.names,
        places: &tree.places,
        spans,
        // go-yaml counts the document node too.
        decode_count: 1,
        alias_count: 0,
        active: Vec::new(),
    };
    let value = d.value(tree.root, 0, 1)?;
    Ok((value, d.spans))
}

impl<'t, 'a> Decoder<'t, 'a> {
    /// go-yaml's bookkeeping at the start of each `unmarshal` call.
    fn count(&mut self, id: NodeId) -> Result<(), Fail> {
        self.decode_count += 1;
        if !self.active.is_empty() {
            self.alias_count += 1;
        }
        if self.alias_count > 100
            && self.decode_count > 1000
            && self.alias_count as f64 / self.decode_count as f64
                > allowed_alias_ratio(self.decode_count)
        {
            return Err(self.fail(id, "document contains excessive aliasing".to_owned()));
        }
        Ok(())
    }

    fn fail(&self, id: NodeId, msg: String) -> Fail {
        Fail::new(self.places.start(id), msg)
    }

    fn node(&self, id: NodeId) -> &'t Kind {
        let nodes = self.nodes;
        &nodes[id as usize]
    }

    /// The children of a collection node (none for other nodes).
    fn items(&self, id: NodeId) -> &'t [NodeId] {
        match *self.node(id) {
            Kind::Seq { start, len } | Kind::Map { start, len } => {
                let (start, len) = (start as usize, len as usize);
                self.children.get(start..start + len).unwrap_or_default()
            }
            Kind::Scalar(_) | Kind::Alias { .. } => &[],
        }
    }

    /// Enters alias `id`, refusing an alias inside its own anchor.
    fn enter_alias(&mut self, id: NodeId) -> Result<(), Fail> {
        if self.active.contains(&id) {
            let name = match self.node(id) {
                Kind::Alias { name, .. } => self.names.get(*name as usize).copied(),
                _ => None,
            };
            let name = name.unwrap_or_default();
            return Err(self.fail(id, format!("anchor '{name}' value contains itself")));
        }
        self.active.push(id);
        Ok(())
    }

    fn span_of(&self, id: NodeId, key: Option<NodeId>) -> Span {
        let (value, end) = self.places.span(id);
        Span {
            key: key.map(|k| self.places.start(k)),
            value,
            end,
        }
    }

    /// A scalar's tag.
    fn tag(&self, s: &Scalar) -> Option<&'t str> {
        let tags = self.tags;
        let i = (s.tag as usize).checked_sub(1)?;
        tags.get(i).map(|t| &**t)
    }

    /// A scalar's text, to look at.
    fn text_of(&self, s: &Scalar) -> &str {
        if s.owned {
            return self.texts.get(s.at as usize).map_or("", String::as_str);
        }
        let (at, len) = (s.at as usize, s.len as usize);
        self.text.get(at..at + len).unwrap_or_default()
    }

    /// Resolves scalar node `id` to go-yaml's Go value.
    fn scalar(&mut self, id: NodeId, s: &Scalar) -> Result<GoScalar<'a>, Fail> {
        let value = if s.owned {
            match self.texts.get_mut(s.at as usize) {
                Some(t) if s.shared => Cow::Owned(t.clone()),
                Some(t) => Cow::Owned(std::mem::take(t)),
                None => Cow::Borrowed(""),
            }
        } else {
            let (at, len) = (s.at as usize, s.len as usize);
            Cow::Borrowed(self.text.get(at..at + len).unwrap_or_default())
        };
        resolve::scalar(value, s.style, self.tag(s)).map_err(|m| self.fail(id, m))
    }

    /// Decodes node `id`, whose span entry is `span`, at nesting `depth` (the root is 1).
    fn value(&mut self, id: NodeId, span: usize, depth: usize) -> Result<Value, Fail> {
        self.count(id)?;
        match self.node(id) {
            Kind::Alias { target, .. } => {
                self.enter_alias(id)?;
                let v = self.value(*target, span, depth);
                self.active.pop();
                v
            }
            Kind::Scalar(s) => {
                let go = self.scalar(id, s)?;
                resolve::to_json(go).map_err(|m| self.fail(id, m))
            }
            Kind::Seq { .. } => {
                self.check_depth(id, depth)?;
                let items = self.items(id);
                let mut out = Vec::with_capacity(items.len());
                for (i, &item) in items.iter().enumerate() {
                    let child = if self.spans.is_off() {
                        0
                    } else {
                        self.spans.push_index(span, i, self.span_of(item, None))
                    };
                    out.push(self.value(item, child, depth + 1)?);
                }
                Ok(Value::Array(out))
            }
            Kind::Map { len, .. } => {
                let len = *len as usize;
                self.check_depth(id, depth)?;
                let mut out = Map::with_capacity(len / 2);
                self.mapping_into(id, &mut out, span, depth)?;
                Ok(Value::Object(out))
            }
        }
    }

    fn check_depth(&self, id: NodeId, depth: usize) -> Result<(), Fail> {
        if depth > MAX_DEPTH {
            let msg = format!("document nests deeper than {MAX_DEPTH} levels (through aliases)");
            return Err(self.fail(id, msg));
        }
        Ok(())
    }

    /// Whether key node `k` is go-yaml's merge key `<<`.
    fn is_merge_key(&self, k: NodeId) -> bool {
        match self.node(k) {
            Kind::Scalar(s) => resolve::is_merge_key(self.text_of(s), s.style, self.tag(s)),
            _ => false,
        }
    }

    /// go-yaml's `mapping` into an existing map: pairs in order, `<<` merged where it stands.
    fn mapping_into(
        &mut self,
        id: NodeId,
        out: &mut Map,
        span: usize,
        depth: usize,
    ) -> Result<(), Fail> {
        for pair in self.items(id).chunks(2) {
            let [k, v] = *pair else { continue };
            if self.is_merge_key(k) {
                self.merge(v, out, span, depth)?;
                continue;
            }
            let key = self.key(k)?;
            let child = if self.spans.is_off() {
                0
            } else {
                self.spans.push_key(span, &key, self.span_of(v, Some(k)))
            };
            let value = self.value(v, child, depth + 1)?;
            out.insert(key, value);
        }
        Ok(())
    }

    /// A mapping key as sigs.k8s.io/yaml writes it.
    fn key(&mut self, id: NodeId) -> Result<crate::value::Str, Fail> {
        self.count(id)?;
        match self.node(id) {
            Kind::Alias { target, .. } => {
                self.enter_alias(id)?;
                let k = self.key(*target);
                self.active.pop();
                k
            }
            Kind::Scalar(s) => {
                let go = self.scalar(id, s)?;
                resolve::to_key(go).map_err(|m| self.fail(id, m))
            }
            Kind::Seq { .. } | Kind::Map { .. } => {
                let msg = "invalid map key: a mapping or a sequence cannot be a key";
                Err(self.fail(id, msg.to_owned()))
            }
        }
    }

    /// Whether node `n` is a mapping or an alias of one.
    fn is_map(&self, n: NodeId) -> bool {
        match self.node(n) {
            Kind::Map { .. } => true,
            Kind::Alias { target, .. } => matches!(self.node(*target), Kind::Map { .. }),
            _ => false,
        }
    }

    /// go-yaml's `merge`: a mapping, an alias of one, or a sequence of those (last first, so
    /// that the earlier ones win).
    fn merge(&mut self, id: NodeId, out: &mut Map, span: usize, depth: usize) -> Result<(), Fail> {
        if self.is_map(id) {
            return self.merge_one(id, out, span, depth);
        }
        if !matches!(self.node(id), Kind::Seq { .. }) {
            return Err(self.fail(id, WANT_MAP.to_owned()));
        }
        for &item in self.items(id).iter().rev() {
            if !self.is_map(item) {
                return Err(self.fail(item, WANT_MAP.to_owned()));
            }
            self.merge_one(item, out, span, depth)?;
        }
        Ok(())
    }

    /// Decodes one mapping (or alias of one) into `out`.
    fn merge_one(
        &mut self,
        id: NodeId,
        out: &mut Map,
        span: usize,
        depth: usize,
    ) -> Result<(), Fail> {
        self.count(id)?;
        if let Kind::Alias { target, .. } = *self.node(id) {
            self.enter_alias(id)?;
            self.count(target)?;
            let r = self.mapping_into(target, out, span, depth);
            self.active.pop();
            return r;
        }
        self.mapping_into(id, out, span, depth)
    }
}
