//! A document as YAML lines, each carrying the field path it shows, so panes align by path.
//!
//! Block style as `kubectl get -o yaml` prints it, but in the document's own key order; list
//! items as `- `, with the first key of a map item on the dash line. Scalars are quoted where
//! YAML would misread them, and every control character, escape sequence or bidi override is
//! written as an escape: nothing in a document can drive the terminal.

use std::hash::BuildHasher;

use crate::value::{Map, Value};
use compact_str::{CompactString, format_compact};

use crate::engine::gofmt::{self, FastMap};
use crate::engine::plan::LAST_APPLIED;
use crate::engine::secret;
use crate::theme::Tok;

/// A line's text: short keys and values (most of them) are kept inline, without an allocation.
pub type Text = CompactString;

/// A path, interned: an index into [`Paths`].
pub type PathId = u32;

/// A step that can append itself to a path's text.
trait WriteSeg {
    fn write_to(&self, out: &mut String);
}

impl WriteSeg for Seg {
    fn write_to(&self, out: &mut String) {
        self.write(out);
    }
}

/// A key step, borrowed.
struct KeyRef<'a>(&'a str);

impl WriteSeg for KeyRef<'_> {
    fn write_to(&self, out: &mut String) {
        write_key(self.0, out);
    }
}

/// Append an object key step to a path's text, exactly as `FieldPath`'s `Display` does.
fn write_key(k: &str, out: &mut String) {
    if is_plain(k) {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(k);
    } else {
        out.push('[');
        out.push_str(&json_quoted(k));
        out.push(']');
    }
}

/// One step of a path, named as the plan names it (`engine::plan`'s path segments, whose type
/// that module keeps private): the text form is what ties a line to its field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Key(String),
    Merge { key: String, value: String },
    Item(String),
    Index(usize),
}

impl Seg {
    /// Append this step to a path's text, exactly as `FieldPath`'s `Display` does.
    fn write(&self, out: &mut String) {
        match self {
            Seg::Key(k) => write_key(k, out),
            Seg::Merge { key, value } => {
                out.push('[');
                out.push_str(key);
                out.push('=');
                out.push_str(&bracket_text(value));
                out.push(']');
            }
            Seg::Item(value) => {
                out.push_str("[=");
                out.push_str(&bracket_text(value));
                out.push(']');
            }
            Seg::Index(n) => {
                out.push('[');
                out.push_str(&n.to_string());
                out.push(']');
            }
        }
    }

    /// The value this step selects in `v`.
    fn select<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        match (self, v) {
            (Seg::Key(k), Value::Object(m)) => m.get(k),
            (Seg::Merge { key, value }, Value::Array(items)) => items
                .iter()
                .find(|i| i.get(key).is_some_and(|x| gofmt::sprint(x) == *value)),
            (Seg::Item(value), Value::Array(items)) => {
                items.iter().find(|i| gofmt::sprint(i) == *value)
            }
            (Seg::Index(i), Value::Array(items)) => items.get(*i),
            _ => None,
        }
    }
}

fn is_plain(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '-')
}

fn json_quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn bracket_text(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@".contains(c))
    {
        s.to_owned()
    } else {
        json_quoted(s)
    }
}

#[derive(Debug)]
struct PathRec {
    text: String,
    seg: Option<Seg>,
    parent: Option<PathId>,
    depth: usize,
    /// The first key child met under this path, and the key child met after this one: where
    /// a walk of the same map in another pane most likely goes next (no hashing; see
    /// [`Paths::child_key_after`]). `NO_PATH` when not known.
    first: PathId,
    next: PathId,
}

/// No path (in [`PathRec`]'s hints).
const NO_PATH: PathId = PathId::MAX;

/// Every field path the panes and the plan mention, interned by their text, with each one's
/// parent.
#[derive(Debug)]
pub struct Paths {
    list: Vec<PathRec>,
    /// Ids by their path's text (kept once, in `list`).
    ids: hashbrown::HashTable<PathId>,
    hasher: foldhash::fast::RandomState,
    /// Where a child's text is built to look it up (most lookups find it: four panes show
    /// mostly the same paths), so a known path costs no allocation.
    scratch: String,
    /// Map keys already interned, by parent and the key's hash: a known key is found without
    /// building its path's text (checked against the path's step, so a collision only costs
    /// the slower lookup).
    keys: FastMap<(PathId, u64), PathId>,
}

impl Default for Paths {
    fn default() -> Self {
        Paths::new()
    }
}

impl Paths {
    /// The root path's id is 0.
    pub const ROOT: PathId = 0;

    #[must_use]
    pub fn new() -> Paths {
        let hasher = foldhash::fast::RandomState::default();
        let mut ids = hashbrown::HashTable::new();
        ids.insert_unique(hasher.hash_one(""), 0, |_| 0);
        Paths {
            list: vec![PathRec {
                text: String::new(),
                seg: None,
                parent: None,
                depth: 0,
                first: NO_PATH,
                next: NO_PATH,
            }],
            ids,
            hasher,
            scratch: String::new(),
            keys: FastMap::default(),
        }
    }

    /// Make room for `n` more paths.
    pub fn reserve(&mut self, n: usize) {
        self.list.reserve(n);
        let (list, hasher) = (&self.list, &self.hasher);
        self.ids.reserve(n, |i| {
            hasher.hash_one(list.get(*i as usize).map_or("", |r| r.text.as_str()))
        });
        self.keys.reserve(n);
    }

    /// The id of `parent`'s child.
    pub fn child(&mut self, parent: PathId, seg: Seg) -> PathId {
        self.child_with(parent, &seg, |_| seg.clone())
    }

    /// The id of `parent`'s child `key`.
    pub fn child_key(&mut self, parent: PathId, key: &str) -> PathId {
        let hash = self.keys.hasher().hash_one(key);
        if let Some(id) = self.key_hit(parent, key, hash) {
            return id;
        }
        let id = self.child_with(parent, &KeyRef(key), |_| Seg::Key(key.to_owned()));
        if self.is_key(id, key) {
            self.keys.insert((parent, hash), id);
        }
        id
    }

    /// Is `id` a map key step named `key`?
    fn is_key(&self, id: PathId, key: &str) -> bool {
        matches!(self.list.get(id as usize).and_then(|r| r.seg.as_ref()),
            Some(Seg::Key(k)) if k == key)
    }

    /// `parent`'s child `key` from the table of keys by parent and hash (checked against the
    /// step, so a collision only costs the slower lookup).
    fn key_hit(&self, parent: PathId, key: &str, hash: u64) -> Option<PathId> {
        self.keys
            .get(&(parent, hash))
            .copied()
            .filter(|id| self.is_key(*id, key))
    }

    /// The id of `parent`'s child `key`, met right after the key child `prev` (or first).
    ///
    /// The four panes show mostly the same maps with their keys in the same order, so the child
    /// that followed `prev` the last time is checked first: found without hashing the key or
    /// probing a table of every path (cache misses, at 100,000 keys).
    fn child_key_after(&mut self, parent: PathId, prev: Option<PathId>, key: &str) -> PathId {
        let rec = |id: PathId| self.list.get(id as usize);
        let hint = match prev {
            Some(p) => rec(p).map_or(NO_PATH, |r| r.next),
            None => rec(parent).map_or(NO_PATH, |r| r.first),
        };
        if rec(hint).is_some_and(|r| r.parent == Some(parent)) && self.is_key(hint, key) {
            return hint;
        }
        let id = self.child_key(parent, key);
        let slot = match prev {
            Some(p) => self.list.get_mut(p as usize).map(|r| &mut r.next),
            None => self.list.get_mut(parent as usize).map(|r| &mut r.first),
        };
        if let Some(slot) = slot
            && *slot == NO_PATH
        {
            *slot = id;
        }
        id
    }

    /// The id of `parent`'s child at `seg`, if it is interned.
    #[must_use]
    pub fn child_of(&self, parent: PathId, seg: &Seg) -> Option<PathId> {
        if let Seg::Key(k) = seg {
            return self.child_key_of(parent, k);
        }
        let mut text = self.text(parent).to_owned();
        seg.write(&mut text);
        self.find(&text)
    }

    /// The id of `parent`'s child `key`, if it is interned.
    #[must_use]
    pub fn child_key_of(&self, parent: PathId, key: &str) -> Option<PathId> {
        if let Some(id) = self.key_hit(parent, key, self.keys.hasher().hash_one(key)) {
            return Some(id);
        }
        let mut text = self.text(parent).to_owned();
        write_key(key, &mut text);
        self.find(&text)
    }

    /// The id of the child at `seg`; `owned` makes the step to keep when the path is new.
    fn child_with<S: WriteSeg>(
        &mut self,
        parent: PathId,
        seg: &S,
        owned: impl FnOnce(&S) -> Seg,
    ) -> PathId {
        self.scratch.clear();
        self.scratch.push_str(
            self.list
                .get(parent as usize)
                .map_or("", |r| r.text.as_str()),
        );
        seg.write_to(&mut self.scratch);
        let hash = self.hasher.hash_one(self.scratch.as_str());
        if let Some(id) = self.find_hashed(&self.scratch, hash) {
            return id;
        }
        let text = self.scratch.clone();
        let seg = owned(seg);
        self.push(hash, text, Some(seg), parent)
    }

    /// The id of a path's text, given its hash.
    fn find_hashed(&self, text: &str, hash: u64) -> Option<PathId> {
        let list = &self.list;
        self.ids
            .find(hash, |id| {
                list.get(*id as usize).is_some_and(|r| r.text == text)
            })
            .copied()
    }

    /// Intern a new path.
    fn push(&mut self, hash: u64, text: String, seg: Option<Seg>, parent: PathId) -> PathId {
        let id = PathId::try_from(self.list.len()).unwrap_or(PathId::MAX);
        let depth = self.depth(parent) + 1;
        let (list, hasher) = (&self.list, &self.hasher);
        self.ids.insert_unique(hash, id, |i| {
            hasher.hash_one(list.get(*i as usize).map_or("", |r| r.text.as_str()))
        });
        self.list.push(PathRec {
            text,
            seg,
            parent: Some(parent),
            depth,
            first: NO_PATH,
            next: NO_PATH,
        });
        id
    }

    /// A path known only by its text (a plan field no pane shows).
    pub fn opaque(&mut self, parent: PathId, text: &str) -> PathId {
        let hash = self.hasher.hash_one(text);
        match self.find_hashed(text, hash) {
            Some(id) => id,
            None => self.push(hash, text.to_owned(), None, parent),
        }
    }

    /// A path's text, as the plan prints it (`spec.containers[name=nginx].image`).
    #[must_use]
    pub fn text(&self, id: PathId) -> &str {
        self.list.get(id as usize).map_or("", |r| r.text.as_str())
    }

    /// The id of a path's text.
    #[must_use]
    pub fn find(&self, text: &str) -> Option<PathId> {
        self.find_hashed(text, self.hasher.hash_one(text))
    }

    #[must_use]
    pub fn parent(&self, id: PathId) -> Option<PathId> {
        self.list.get(id as usize).and_then(|r| r.parent)
    }

    #[must_use]
    pub fn depth(&self, id: PathId) -> usize {
        self.list.get(id as usize).map_or(0, |r| r.depth)
    }

    /// The last step's key, if it is an object key.
    #[must_use]
    pub fn key(&self, id: PathId) -> Option<&str> {
        match self.list.get(id as usize).and_then(|r| r.seg.as_ref()) {
            Some(Seg::Key(k)) => Some(k),
            _ => None,
        }
    }

    /// Is `ancestor` a strict ancestor of `id`?
    #[must_use]
    pub fn is_strict_ancestor(&self, ancestor: PathId, id: PathId) -> bool {
        let mut at = self.parent(id);
        while let Some(p) = at {
            if p == ancestor {
                return true;
            }
            at = self.parent(p);
        }
        false
    }

    /// The value at a path in a document.
    #[must_use]
    pub fn lookup<'v>(&self, id: PathId, doc: &'v Value) -> Option<&'v Value> {
        // Steps from the root, without allocating for the usual shallow path.
        let mut chain: [Option<&Seg>; 16] = [None; 16];
        let mut more = Vec::new();
        let mut n = 0;
        let mut at = Some(id);
        while let Some(i) = at {
            if let Some(seg) = self.list.get(i as usize).and_then(|r| r.seg.as_ref()) {
                match chain.get_mut(n) {
                    Some(slot) => *slot = Some(seg),
                    None => more.push(seg),
                }
                n += 1;
            }
            at = self.parent(i);
        }
        more.iter()
            .rev()
            .copied()
            .chain(chain.iter().take(n).rev().flatten().copied())
            .try_fold(doc, |v, seg| seg.select(v))
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// How a list's elements are named in paths (from the plan: merge key, set, or position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElemSeg {
    Merge(String),
    Item,
    Index,
}

/// A masked secret value, and the revealed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Masked {
    pub text: Text,
}

/// One line of a pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocLine {
    pub path: PathId,
    /// A second path shown on this line: the first key of a map list item, on the dash line.
    pub also: Option<PathId>,
    pub indent: u16,
    pub dash: bool,
    /// The key, quoted and escaped as needed (`None` for list items and continuation lines).
    pub key: Option<Text>,
    /// The value text, if this line shows one (escaped, quoted).
    pub value: Option<Text>,
    pub tok: Tok,
    /// What to show instead of the value while secrets are hidden.
    pub masked: Option<Box<Masked>>,
    /// A word diff from the value before the apply (result pane, changed strings).
    pub words: Option<Box<[Word]>>,
}

impl DocLine {
    fn new(path: PathId, indent: usize, dash: bool) -> DocLine {
        DocLine {
            path,
            also: None,
            indent: u16::try_from(indent).unwrap_or(u16::MAX),
            dash,
            key: None,
            value: None,
            tok: Tok::Punct,
            masked: None,
            words: None,
        }
    }

    /// The whole line as plain text (secrets as shown).
    #[must_use]
    pub fn text(&self, reveal: bool) -> String {
        let mut s = " ".repeat(self.indent as usize);
        if self.dash {
            s.push_str("- ");
        }
        if let Some(k) = &self.key {
            s.push_str(k);
            s.push(':');
            if self.value.is_some() {
                s.push(' ');
            }
        }
        if let Some(v) = self.shown_value(reveal) {
            s.push_str(v);
        }
        s
    }

    /// The value text as shown: masked unless revealed.
    #[must_use]
    pub fn shown_value(&self, reveal: bool) -> Option<&str> {
        match (&self.masked, reveal) {
            (Some(m), false) => Some(&m.text),
            _ => self.value.as_deref(),
        }
    }
}

/// A piece of a word diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Word {
    Same(String),
    Old(String),
    New(String),
}

/// The words of `new` against `old` (escaped): runs of letters and digits, and single other
/// characters, so `nginx:1.7.9` → `nginx:1.11.9` changes only `7` to `11`.
#[must_use]
pub fn word_diff(old: &str, new: &str) -> Vec<Word> {
    let (a, b) = (tokens(old), tokens(new));
    let diff = similar::TextDiff::from_slices(&a, &b);
    let mut out: Vec<Word> = Vec::new();
    for c in diff.iter_all_changes() {
        let text = escape(c.value());
        let tag = c.tag();
        match (out.last_mut(), tag) {
            (Some(Word::Same(t)), similar::ChangeTag::Equal)
            | (Some(Word::Old(t)), similar::ChangeTag::Delete)
            | (Some(Word::New(t)), similar::ChangeTag::Insert) => t.push_str(&text),
            _ => out.push(match tag {
                similar::ChangeTag::Equal => Word::Same(text),
                similar::ChangeTag::Delete => Word::Old(text),
                similar::ChangeTag::Insert => Word::New(text),
            }),
        }
    }
    out
}

fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_word = false;
    for (i, c) in s.char_indices() {
        let word = c.is_alphanumeric();
        if i > start && !(word && in_word) {
            out.push(&s[start..i]);
            start = i;
        }
        in_word = word;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Which side of a before/after pair a pane shows, for secret masking.
pub use crate::engine::secret::Side;

/// How to render one document.
pub struct Render<'a> {
    pub lists: &'a FastMap<String, ElemSeg>,
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
impl<'a> Render<'a> {
    /// A document drawn on its own (no counterpart, not a Secret, no word diff), for tests.
    pub(crate) fn alone(lists: &'a FastMap<String, ElemSeg>) -> Render<'a> {
        Render {
            lists,
            counterpart: None,
            side: Side::After,
            secret: false,
            annotation_width: ANNOTATION_WIDTH,
            word_diff: false,
        }
    }
}

/// The lines of a document.
pub fn render(doc: &Value, paths: &mut Paths, how: &Render<'_>) -> Vec<DocLine> {
    render_sized(doc, paths, how, 0)
}

/// The lines of a document, room for `expected` of them made at once (the panes of one plan
/// have about as many lines each: growing a vector of 100,000 lines step by step costs more
/// than rendering them).
pub fn render_sized(
    doc: &Value,
    paths: &mut Paths,
    how: &Render<'_>,
    expected: usize,
) -> Vec<DocLine> {
    let mut out = Vec::with_capacity(expected);
    let root = Paths::ROOT;
    match doc {
        Value::Object(map) if !map.is_empty() => {
            object(
                map,
                At::new(root, 0, false, how.counterpart),
                paths,
                how,
                &mut out,
            );
        }
        _ => {
            let mut line = DocLine::new(root, 0, false);
            let (text, tok) = scalar(doc);
            line.value = Some(text);
            line.tok = tok;
            out.push(line);
        }
    }
    out
}

/// Where a container's lines go: its path, indent, whether its first line carries the list
/// dash, and the counterpart's value at the same path (for word diffs and masks; looked up
/// step by step beside the walk, not from the root per line).
#[derive(Clone, Copy)]
struct At<'o> {
    parent: PathId,
    indent: usize,
    dash: bool,
    other: Option<&'o Value>,
}

impl<'o> At<'o> {
    fn new(parent: PathId, indent: usize, dash: bool, other: Option<&'o Value>) -> At<'o> {
        At {
            parent,
            indent,
            dash,
            other,
        }
    }
}

fn object(map: &Map, at: At<'_>, paths: &mut Paths, how: &Render<'_>, out: &mut Vec<DocLine>) {
    let At {
        parent,
        indent,
        dash,
        other,
    } = at;
    // The counterpart is only read for word diffs and masks.
    let other = other
        .filter(|_| how.word_diff || how.secret)
        .and_then(Value::as_object);
    let depth = paths.depth(parent);
    if depth > crate::document::MAX_DEPTH {
        return;
    }
    let inner = if dash { indent + 2 } else { indent };
    let mut prev = None;
    for (i, (k, v)) in map.iter().enumerate() {
        let first = dash && i == 0;
        let id = paths.child_key_after(parent, prev, k);
        prev = Some(id);
        let counter = other.and_then(|o| o.get(k));
        let mut line = DocLine::new(id, if first { indent } else { inner }, first);
        if first {
            // The dash line shows the element and its first key.
            line.path = parent;
            line.also = Some(id);
        }
        line.key = Some(key_text(k));
        let annotation = k == LAST_APPLIED && depth == 2;
        let scan = match v {
            Value::String(s) if !annotation => Scan::of(s),
            _ => Scan::default(),
        };
        match v {
            Value::Object(m) if !m.is_empty() => {
                out.push(line);
                object(m, At::new(id, inner + 2, false, counter), paths, how, out);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push(line);
                array(items, At::new(id, inner, false, counter), paths, how, out);
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
                    line.masked = Some(Box::new(Masked {
                        text: truncate(&escape(&hidden), how.annotation_width).into(),
                    }));
                }
                out.push(line);
            }
            Value::String(s) if scan.newline && !needs_escape(s) => {
                line.value = Some(if s.ends_with('\n') { "|" } else { "|-" }.into());
                line.tok = Tok::Punct;
                let masked = mask(how, paths, id, v, counter);
                let block = s.strip_suffix('\n').unwrap_or(s);
                line.masked = masked.clone();
                out.push(line);
                for text in block.split('\n') {
                    let mut cont = DocLine::new(id, inner + 2, false);
                    cont.value = Some(text.into());
                    cont.tok = Tok::Str;
                    if masked.is_some() {
                        cont.masked = Some(Box::new(Masked { text: "…".into() }));
                    }
                    out.push(cont);
                }
            }
            _ => {
                let (text, tok) = match v {
                    Value::String(s) => (string_text_with(s, scan), Tok::Str),
                    _ => scalar(v),
                };
                line.masked = mask(how, paths, id, v, counter);
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

fn array(items: &[Value], at: At<'_>, paths: &mut Paths, how: &Render<'_>, out: &mut Vec<DocLine>) {
    let At {
        parent,
        indent,
        other,
        ..
    } = at;
    let other = other.filter(|_| how.word_diff || how.secret);
    let elem = how
        .lists
        .get(paths.text(parent))
        .cloned()
        .unwrap_or(ElemSeg::Index);
    // The counterpart's elements by their step's text, each found once (`Seg::select` per
    // element would scan the list for every element: quadratic in a list of 6,000 containers).
    let others: FastMap<String, &Value> = match (&elem, other) {
        (ElemSeg::Merge(_) | ElemSeg::Item, Some(Value::Array(list))) => {
            let mut by = FastMap::default();
            for (i, x) in list.iter().enumerate().rev() {
                if let Seg::Merge { value, .. } | Seg::Item(value) = elem_step(&elem, i, x) {
                    by.insert(value, x);
                }
            }
            by
        }
        _ => FastMap::default(),
    };
    for (i, item) in items.iter().enumerate() {
        let seg = elem_step(&elem, i, item);
        let counter = match &seg {
            Seg::Merge { value, .. } | Seg::Item(value) => others.get(value).copied(),
            _ => other.and_then(|o| seg.select(o)),
        };
        let id = paths.child(parent, seg);
        match item {
            Value::Object(m) if !m.is_empty() => {
                object(m, At::new(id, indent, true, counter), paths, how, out);
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push(DocLine::new(id, indent, true));
                array(
                    inner,
                    At::new(id, indent + 2, false, counter),
                    paths,
                    how,
                    out,
                );
            }
            _ => {
                let mut line = DocLine::new(id, indent, true);
                let (text, tok) = scalar(item);
                line.value = Some(text);
                line.tok = tok;
                out.push(line);
            }
        }
    }
}

/// A list element's path step: by its merge key's value, as a set item, or by position (an
/// element without the merge key is named by position too).
#[must_use]
pub fn elem_step(elem: &ElemSeg, i: usize, item: &Value) -> Seg {
    match elem {
        ElemSeg::Merge(key) => match item.get(key) {
            Some(kv) => Seg::Merge {
                key: key.clone(),
                value: gofmt::sprint(kv),
            },
            None => Seg::Index(i),
        },
        ElemSeg::Item => Seg::Item(gofmt::sprint(item)),
        ElemSeg::Index => Seg::Index(i),
    }
}

/// `***`, `*** (before)` or `*** (after)` for a Secret's `data`/`stringData` value.
fn mask(
    how: &Render<'_>,
    paths: &Paths,
    id: PathId,
    v: &Value,
    other: Option<&Value>,
) -> Option<Box<Masked>> {
    if !how.secret || paths.depth(id) != 2 {
        return None;
    }
    let top = paths.parent(id).and_then(|p| paths.key(p));
    if !top.is_some_and(|t| secret::FIELDS.contains(&t)) {
        return None;
    }
    let text = secret::mask_text(v, other, how.side);
    Some(Box::new(Masked { text: text.into() }))
}

fn truncate(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(width.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// A scalar's text and token.
#[must_use]
pub fn scalar(v: &Value) -> (Text, Tok) {
    match v {
        Value::Null => ("null".into(), Tok::Null),
        Value::Bool(b) => (if *b { "true" } else { "false" }.into(), Tok::Bool),
        Value::Number(n) => (gofmt::sprint(&Value::Number(n.clone())).into(), Tok::Num),
        Value::String(s) => (string_text(s), Tok::Str),
        Value::Array(_) => ("[]".into(), Tok::Punct),
        Value::Object(_) => ("{}".into(), Tok::Punct),
    }
}

/// Characters that must never reach the terminal as themselves: C0/C1 controls (ESC, BEL,
/// CR ...), DEL, and bidi overrides/isolates that reorder what is shown.
#[must_use]
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{FEFF}' | '\u{200B}')
}

/// `s.chars().any(is_unsafe)`, deciding printable ASCII (most text) byte by byte.
fn has_unsafe(s: &str) -> bool {
    !s.bytes().all(|b| (0x20..0x7f).contains(&b)) && s.chars().any(is_unsafe)
}

fn needs_escape(s: &str) -> bool {
    s.chars().any(|c| c != '\n' && is_unsafe(c))
}

/// Text with every unsafe character written as an escape (`\e`, `\t`, `\u{202e}`).
#[must_use]
pub fn escape(s: &str) -> String {
    if !has_unsafe(s) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A key as YAML shows it.
fn key_text(k: &str) -> Text {
    string_text(k)
}

/// A string as a YAML scalar: plain when safe, `"…"` when it would read as another type or
/// holds escapes, `'…'` when it starts with an indicator.
#[must_use]
pub fn string_text(s: &str) -> Text {
    string_text_with(s, Scan::of(s))
}

/// [`string_text`], the string already scanned.
fn string_text_with(s: &str, scan: Scan) -> Text {
    if (scan.special && has_unsafe(s)) || crate::document::resolves_to_non_string(s) {
        return format_compact!("\"{}\"", escape(s).replace('"', "\\\""));
    }
    let unsafe_plain = s.as_bytes().first().is_some_and(|b| {
        matches!(
            b,
            b'-' | b'?'
                | b':'
                | b','
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
                | b' '
        )
    }) || s.ends_with(' ')
        || s.ends_with(':')
        || scan.pair;
    if unsafe_plain {
        format_compact!("'{}'", s.replace('\'', "''"))
    } else {
        s.into()
    }
}

/// What one pass over a string's bytes finds (most values are short: one loop, no searcher
/// set up per call).
#[derive(Clone, Copy, Default)]
struct Scan {
    /// A byte outside printable ASCII (a control character, or UTF-8 to look at closer).
    special: bool,
    newline: bool,
    /// `": "` or `" #"`, which end a plain scalar.
    pair: bool,
}

impl Scan {
    fn of(s: &str) -> Scan {
        let bytes = s.as_bytes();
        // Without early exits, so the compiler can use vector instructions.
        let special = bytes
            .iter()
            .fold(false, |acc, b| acc | (b.wrapping_sub(0x20) >= 0x5f));
        let pair = bytes
            .iter()
            .zip(bytes.iter().skip(1))
            .fold(false, |acc, (a, b)| {
                acc | ((*a == b':') & (*b == b' ')) | ((*a == b' ') & (*b == b'#'))
            });
        Scan {
            special,
            newline: special && bytes.contains(&b'\n'),
            pair,
        }
    }
}

/// Does `s` hold `": "` or `" #"` (which end a plain scalar)?
#[cfg(test)]
fn has_pair(s: &str) -> bool {
    Scan::of(s).pair
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn lines(v: &Value) -> Vec<String> {
        let mut paths = Paths::new();
        let lists = FastMap::default();
        render(v, &mut paths, &Render::alone(&lists))
            .iter()
            .map(|l| format!("{} @{}", l.text(true), paths.text(l.path)))
            .collect()
    }

    #[test]
    fn block_style_in_document_order_with_paths() {
        let v = json!({"b": {"q": 1, "x": "yes"}, "a": [{"name": "m", "v": null}, "s"], "e": {}});
        assert_eq!(
            lines(&v),
            [
                "b: @b",
                "  q: 1 @b.q",
                "  x: \"yes\" @b.x",
                "a: @a",
                "- name: m @a[0]",
                "  v: null @a[0].v",
                "- s @a[1]",
                "e: {} @e",
            ]
        );
    }

    #[test]
    fn control_characters_and_bidi_are_escaped() {
        let v = json!({"k\u{1b}[31m": "a\u{1b}]0;x\u{7}b\u{202e}c", "m": "l1\nl2\n"});
        let out = lines(&v);
        assert_eq!(
            out[0],
            "\"k\\e[31m\": \"a\\e]0;x\\u{7}b\\u{202e}c\" @[\"k\\u001b[31m\"]"
        );
        assert_eq!(out[1..], ["m: | @m", "  l1 @m", "  l2 @m"]);
        for l in &out {
            assert!(!l.chars().any(|c| c.is_control()), "{l:?}");
        }
    }

    /// Only the annotation's head is escaped; what is shown is what escaping it whole and
    /// cutting it to the width shows.
    #[test]
    fn the_annotation_shows_its_escaped_head() {
        for text in [
            "{\"a\":\"\u{1b}[31m\u{202e}x\"}\n".to_owned(),
            format!("{{\"k\":\"{}\u{1b}\"}}", "é".repeat(60)),
            "short\u{7}".to_owned(),
            "\u{1b}".repeat(ANNOTATION_WIDTH),
        ] {
            let v = json!({"metadata": {"annotations": {LAST_APPLIED: text}}});
            let shown = lines(&v)[2].clone();
            let whole = truncate(&escape(text.trim_end()), ANNOTATION_WIDTH);
            assert!(
                shown.contains(&format!(": {whole} @")),
                "{shown} vs {whole}"
            );
        }
    }

    #[test]
    fn ambiguous_scalars_are_quoted() {
        for s in ["yes", "010", "1_000", "0x1F", "", "~", "1.5", "on"] {
            assert!(string_text(s).starts_with('"'), "{s}");
        }
        assert_eq!(string_text("a: b"), "'a: b'");
        assert_eq!(string_text("nginx:1.7.9"), "nginx:1.7.9");
    }
}

#[cfg(test)]
mod pair_tests {
    use super::*;

    #[test]
    fn plain_scalar_enders_are_found() {
        for (s, want) in [
            ("a: b", true),
            ("a #b", true),
            ("a:b", false),
            ("a#b", false),
            ("a:", false),
            ("", false),
            (": ", true),
        ] {
            assert_eq!(has_pair(s), want, "{s:?}");
        }
        assert_eq!(string_text("a: b"), "'a: b'");
        assert_eq!(string_text("value 12"), "value 12");
    }
}
