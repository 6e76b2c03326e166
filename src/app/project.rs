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
    Scan, Text, escape, needs_escape, scalar, string_text_with, truncate, word_diff,
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
    let mut out = Lines::with_capacity(expected);
    let root = FieldId::ROOT;
    match doc {
        Value::Object(map) if !map.is_empty() => {
            let at = At::new(root, 0, 0, false, how.counterpart);
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
/// the list dash, and the counterpart's value at the same place (for word diffs and masks;
/// looked up step by step beside the walk, not from the root per line).
#[derive(Clone, Copy)]
struct At<'o> {
    parent: FieldId,
    depth: usize,
    indent: usize,
    dash: bool,
    other: Option<&'o Value>,
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
        }
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
        let first = dash && i == 0;
        let id = match kids.planned(tree, i) {
            Some(id) if tree.key(id) == Some(k.as_str()) => id,
            _ => tree.add(parent, Seg::Key(k.as_str().into())),
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
                let at = At::new(id, depth + 1, inner + 2, false, counter);
                object(m, at, tree, how, out);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push(line);
                let at = At::new(id, depth + 1, inner, false, counter);
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
                let (text, tok) = match v {
                    Value::String(s) => (string_text_with(s, scan), Tok::Str),
                    _ => scalar(v),
                };
                line.masked = masked();
                if how.word_diff
                    && let Value::String(new) = v
                    && let Some(Value::String(old)) = counter
                    && old != new
                {
                    line.words = Some(word_diff(old, new).into_boxed_slice());
                }
                line.value = Some(text);
                line.tok = tok;
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
        let id = match planned {
            Some(id) => id,
            None => {
                let s = seg.unwrap_or_else(|| elem.step(i, item));
                tree.add(parent, s)
            }
        };
        match item {
            Value::Object(m) if !m.is_empty() => {
                let at = At::new(id, depth + 1, indent, true, counter);
                object(m, at, tree, how, out);
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push(NewLine::new(id, indent, true));
                let at = At::new(id, depth + 1, indent + 2, false, counter);
                array(inner, at, tree, how, out);
            }
            _ => {
                let mut line = NewLine::new(id, indent, true);
                let (text, tok) = scalar(item);
                line.value = Some(text);
                line.tok = tok;
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
