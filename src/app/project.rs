//! A pane's lines: a document as YAML lines projected onto the plan's tree, each line carrying
//! the node (field path) it shows, so the panes align by node.
//!
//! A document the plan walked (last-applied, local, live, result) finds each item's node by the
//! item's place in the document (the tree records it); another one (the server's answer, the
//! committed last-applied) by the item's step, adding nodes for what no field is
//! ([`Tree::add`]).

use crate::value::{Map, Value};

use super::lines::{Lines, NewLine};
use super::yaml::{
    Scan, Text, escape, needs_escape, scalar, scalar_tok, string_text_with, truncate, word_diff,
};
use crate::engine::plan::{Doc, FieldId, LAST_APPLIED, Seg, Tree};
use crate::engine::secret;
use crate::theme::Tok;

/// Which side of a before/after pair a pane shows, for secret masking.
pub use crate::engine::secret::Side;

/// Past this many children, a node's children are found by position through a table.
const SCAN_MAX: usize = 16;

/// How to render one document.
pub struct Render<'a> {
    /// Which of the plan's documents this is (its items are found by their place): `None`, a
    /// document the plan did not walk (found by step).
    pub doc: Option<Doc>,
    /// The other document of the before/after pair (masking as `kubectl diff` does).
    pub counterpart: Option<&'a Value>,
    pub side: Side,
    /// Mask `data`/`stringData` (a Secret).
    pub secret: bool,
    /// Longest value shown for the last-applied annotation.
    pub annotation_width: usize,
    /// Attach the counterpart's value for a word diff of changed strings.
    pub word_diff: bool,
    /// The root's `metadata`: the document's, or another in its place.
    pub metadata: Metadata<'a>,
    /// The document is the plan's `doc` itself: a scalar whose node is found at its place
    /// there has its value text written from it when shown, not kept ([`Lines::value`]).
    pub placed: bool,
}

/// The root's `metadata` as a pane draws it.
#[derive(Clone, Copy, Debug)]
pub enum Metadata<'a> {
    /// The document's own.
    Own,
    /// The file's, in place of the document's: the local pane draws kubectl's object (the
    /// plan's `modified`) as the file's ([`crate::engine::plan::Plan::file_metadata`]; `None`:
    /// the file had none, none is drawn).
    File(Option<&'a Value>),
}

/// Longest annotation shown in a pane before `…`.
pub const ANNOTATION_WIDTH: usize = 48;

#[cfg(test)]
impl Render<'_> {
    /// A document drawn on its own (no counterpart, not a Secret, no word diff), for tests.
    pub(crate) fn alone() -> Render<'static> {
        Render {
            doc: None,
            counterpart: None,
            side: Side::After,
            secret: false,
            annotation_width: ANNOTATION_WIDTH,
            word_diff: false,
            metadata: Metadata::Own,
            placed: false,
        }
    }
}

/// The lines of a document.
pub fn pane_lines(doc: &Value, tree: &mut Tree, how: &Render<'_>) -> Lines {
    pane_lines_sized(doc, tree, how, 0)
}

/// The lines of a document, room for `expected` of them made at once (the panes of one plan
/// have about as many lines each: growing a vector of 100,000 lines step by step costs more
/// than rendering them).
pub fn pane_lines_sized(doc: &Value, tree: &mut Tree, how: &Render<'_>, expected: usize) -> Lines {
    let placed = how.placed && how.doc.is_some();
    let mut out = Lines::with_capacity(expected, how.doc.filter(|_| placed));
    let root = FieldId::ROOT;
    match doc {
        Value::Object(map) if !map.is_empty() => {
            let at = At::new(root, 0, 0, false, how.counterpart).placed(placed);
            object(map, at, tree, how, &mut out);
        }
        _ => {
            let mut line = NewLine::new(root, 0, false);
            let (text, tok) = scalar(doc);
            line.value = Some(text);
            line.tok = tok;
            out.push(line);
        }
    }
    out.finish();
    out
}

/// Where a container's lines go: its node and depth, indent, whether its first line carries
/// the list dash, the counterpart's value at the same place (for word diffs and masks;
/// looked up step by step beside the walk, not from the root per line), and whether the
/// node and its ancestors were found at their place in the plan's document (the node finds
/// the container there again).
#[derive(Clone, Copy)]
struct At<'o> {
    parent: FieldId,
    depth: usize,
    indent: usize,
    dash: bool,
    other: Option<&'o Value>,
    placed: bool,
}

impl<'o> At<'o> {
    fn new(
        parent: FieldId,
        depth: usize,
        indent: usize,
        dash: bool,
        other: Option<&'o Value>,
    ) -> At<'o> {
        At {
            parent,
            depth,
            indent,
            dash,
            other,
            placed: false,
        }
    }

    fn placed(self, placed: bool) -> At<'o> {
        At { placed, ..self }
    }
}

/// Finds the nodes of a container's items: by place in a document the plan walked, else (or
/// where the plan has no node there: a repeated merge key) by step.
struct Kids {
    parent: FieldId,
    doc: Option<Doc>,
    /// By position, for a node with many children.
    slots: Option<Vec<Option<FieldId>>>,
}

impl Kids {
    fn new(tree: &Tree, parent: FieldId, doc: Option<Doc>, len: usize) -> Kids {
        let slots = doc
            .filter(|_| tree.kids(parent).len() > SCAN_MAX)
            .map(|d| tree.kid_slots(parent, d, len));
        Kids { parent, doc, slots }
    }

    /// The planned node of the `i`-th item, if the document is the plan's.
    fn planned(&self, tree: &Tree, i: usize) -> Option<FieldId> {
        match (&self.slots, self.doc) {
            (Some(slots), _) => slots.get(i).copied().flatten(),
            (None, Some(doc)) => tree.kid_at(self.parent, doc, i),
            (None, None) => None,
        }
    }
}

fn object(map: &Map, at: At<'_>, tree: &mut Tree, how: &Render<'_>, out: &mut Lines) {
    let At {
        parent,
        depth,
        indent,
        dash,
        other,
        placed,
    } = at;
    // The counterpart is only read for word diffs and masks.
    let other = other
        .filter(|_| how.word_diff || how.secret)
        .and_then(Value::as_object);
    if depth > crate::document::MAX_DEPTH {
        return;
    }
    let kids = Kids::new(tree, parent, how.doc, map.len());
    let inner = if dash { indent + 2 } else { indent };
    for (i, (k, v)) in map.iter().enumerate() {
        let (v, own) = match how.metadata {
            Metadata::File(file) if depth == 0 && k == "metadata" => match file {
                Some(m) => (m, false),
                None => continue,
            },
            _ => (v, true),
        };
        let first = dash && i == 0;
        let (id, placed) = match kids.planned(tree, i) {
            Some(id) if tree.key(id) == Some(k.as_str()) => (id, placed && own),
            _ => (tree.add(parent, Seg::Key(k.as_str().into())), false),
        };
        let counter = other.and_then(|o| o.get(k));
        let mut line = NewLine::new(id, if first { indent } else { inner }, first);
        if first {
            // The dash line shows the element and its first key.
            line.path = parent;
            line.also = Some(id);
        }
        line.key = true;
        let annotation = k == LAST_APPLIED && depth == 2;
        let scan = match v {
            Value::String(s) if !annotation => Scan::of(s),
            _ => Scan::default(),
        };
        let masked = || mask(how, tree, id, depth + 1, v, counter);
        match v {
            Value::Object(m) if !m.is_empty() => {
                out.push(line);
                let at = At::new(id, depth + 1, inner + 2, false, counter).placed(placed);
                object(m, at, tree, how, out);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push(line);
                let at = At::new(id, depth + 1, inner, false, counter).placed(placed);
                array(items, at, tree, how, out);
            }
            Value::String(s) if annotation => {
                // The annotation: one line of JSON, truncated (the patch view shows it whole).
                // Only its head is escaped: it can be megabytes.
                let head: String = s
                    .trim_end()
                    .chars()
                    .take(how.annotation_width + 1)
                    .collect();
                line.value = Some(truncate(&escape(&head), how.annotation_width).into());
                line.tok = Tok::Str;
                if how.secret {
                    let hidden = secret::mask_annotation(s);
                    line.masked = Some(truncate(&escape(&hidden), how.annotation_width).into());
                }
                out.push(line);
            }
            Value::String(s) if scan.newline && !needs_escape(s) => {
                line.value = Some(if s.ends_with('\n') { "|" } else { "|-" }.into());
                line.tok = Tok::Punct;
                let masked = masked();
                let block = s.strip_suffix('\n').unwrap_or(s);
                line.masked = masked.clone();
                out.push(line);
                for text in block.split('\n') {
                    let mut cont = NewLine::new(id, inner + 2, false);
                    cont.value = Some(text.into());
                    cont.tok = Tok::Str;
                    if masked.is_some() {
                        cont.masked = Some("…".into());
                    }
                    out.push(cont);
                }
            }
            _ => {
                line.masked = masked();
                if how.word_diff
                    && let Value::String(new) = v
                    && let Some(Value::String(old)) = counter
                    && old != new
                {
                    line.words = Some(word_diff(old, new).into_boxed_slice());
                }
                line.tok = match v {
                    Value::String(_) => Tok::Str,
                    _ => scalar_tok(v),
                };
                if placed {
                    line.from_doc = true;
                } else {
                    line.value = Some(match v {
                        Value::String(s) => string_text_with(s, scan),
                        _ => scalar(v).0,
                    });
                }
                out.push(line);
            }
        }
    }
}

fn array(items: &[Value], at: At<'_>, tree: &mut Tree, how: &Render<'_>, out: &mut Lines) {
    let At {
        parent,
        depth,
        indent,
        other,
        placed,
        ..
    } = at;
    let other = other.filter(|_| how.word_diff || how.secret);
    let elem = tree.elem_step(parent);
    let kids = Kids::new(tree, parent, how.doc, items.len());
    // The counterpart's elements by their step, each found once (looking each element up in
    // the list would be quadratic in a list of 6,000 containers).
    let others: crate::engine::gofmt::FastMap<Seg, &Value> = match (&elem, other) {
        (crate::engine::plan::ElemStep::Index, _) | (_, None) => Default::default(),
        (_, Some(o)) => {
            let mut by = crate::engine::gofmt::FastMap::default();
            for (i, x) in o
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .enumerate()
                .rev()
            {
                by.insert(elem.step(i, x), x);
            }
            by
        }
    };
    for (i, item) in items.iter().enumerate() {
        let planned = kids.planned(tree, i);
        let mut seg = None;
        let counter = other.and_then(|o| {
            let s = seg.get_or_insert_with(|| elem.step(i, item));
            match s {
                Seg::Merge { .. } | Seg::Item(_) => others.get(s).copied(),
                _ => o.get(i),
            }
        });
        let (id, placed) = match planned {
            Some(id) => (id, placed),
            None => {
                let s = seg.unwrap_or_else(|| elem.step(i, item));
                (tree.add(parent, s), false)
            }
        };
        match item {
            Value::Object(m) if !m.is_empty() => {
                let at = At::new(id, depth + 1, indent, true, counter).placed(placed);
                object(m, at, tree, how, out);
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push(NewLine::new(id, indent, true));
                let at = At::new(id, depth + 1, indent + 2, false, counter).placed(placed);
                array(inner, at, tree, how, out);
            }
            _ => {
                let mut line = NewLine::new(id, indent, true);
                line.tok = scalar_tok(item);
                if placed {
                    line.from_doc = true;
                } else {
                    line.value = Some(scalar(item).0);
                }
                out.push(line);
            }
        }
    }
}

/// `***`, `*** (before)` or `*** (after)` for a Secret's `data`/`stringData` value (at `id`,
/// `depth` deep).
fn mask(
    how: &Render<'_>,
    tree: &Tree,
    id: FieldId,
    depth: usize,
    v: &Value,
    other: Option<&Value>,
) -> Option<Text> {
    if !how.secret || depth != 2 {
        return None;
    }
    let top = tree.parent(id).and_then(|p| tree.key(p));
    if !top.is_some_and(|t| secret::FIELDS.contains(&t)) {
        return None;
    }
    let text = secret::mask_text(v, other, how.side);
    Some(text.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::Plan;
    use crate::session::Docs;

    fn plan() -> Plan {
        let local = crate::json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "w", "labels": {"a": "1"}},
            "spec": {"replicas": 2, "template": {"spec": {"containers": [
                {"name": "c", "image": "nginx:1.2", "args": ["-v", "--x=1"],
                 "env": [{"name": "A", "value": "x\ny"}, {"name": "A", "value": "dup"},
                         {"name": "B", "value": "true"}]}]}}}});
        let live = crate::json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "w", "namespace": "default", "uid": "u"},
            "spec": {"replicas": 3, "paused": false, "template": {"spec": {"containers": [
                {"name": "c", "image": "nginx:1.1", "resources": {}}]}}}});
        let docs = Docs {
            local,
            live: Some(live),
            last_applied: None,
        };
        crate::session::plan::compute(&docs, None, true).unwrap()
    }

    /// A pane of one of the plan's documents writes its scalars' texts from the document when
    /// shown: the lines read as the ones that keep every text.
    #[test]
    fn values_written_from_the_document_read_as_kept_ones() {
        let plan = plan();
        let docs = plan.docs();
        let mut written = 0;
        for doc in [Doc::LastApplied, Doc::Local, Doc::Live, Doc::Result] {
            let Some(value) = docs[doc as usize] else {
                continue;
            };
            let texts = |placed: bool| {
                let mut tree = plan.tree.clone();
                let how = Render {
                    doc: Some(doc),
                    placed,
                    ..Render::alone()
                };
                let lines = pane_lines(value, &mut tree, &how);
                let from = lines.from().and_then(|d| docs[d as usize]);
                let kept = (0..lines.len())
                    .filter(|i| lines.value(*i, &tree, None).is_some())
                    .count();
                let texts: Vec<String> = (0..lines.len())
                    .map(|i| lines.text(i, &tree, from, true))
                    .collect();
                (texts, kept)
            };
            let (all, kept_all) = texts(false);
            let (placed, kept_placed) = texts(true);
            assert_eq!(placed, all, "{doc:?}");
            assert!(kept_placed < kept_all, "{doc:?}: some texts are not kept");
            written += kept_all - kept_placed;
        }
        assert!(written > 20);
    }
}
