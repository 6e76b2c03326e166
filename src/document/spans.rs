//! Where every key and value of a loaded document was written, looked up by path.
//!
//! Built while the document is read: one entry per value (the root included), with its parent
//! and name. The hash map from (parent entry, key or index) to the child entry is built on the
//! first lookup: most documents are never asked (`plan` reads its inputs for their values
//! only), and filling it cost 5 % of a 10 MB plan. A lookup costs one hash probe per path
//! segment; building costs no allocation per key.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

type Children = HashMap<(u32, u64), u32, BuildHasherDefault<FxHasher>>;

/// A place in the source file. Lines and columns both start at 1; columns count characters
/// (Unicode scalar values), not bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

/// Where one value of the document was written.
///
/// For a value reached through an alias (`*name`), `value` is where the alias is written, and
/// the values inside it point into the anchored original. Values merged in by `<<` point to the
/// mapping they were merged from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The start of the mapping key naming this value; `None` for sequence items and the root.
    pub key: Option<Pos>,
    /// The start of the value (of its anchor or tag, if it has one).
    pub value: Pos,
    /// Just past the end of the value (for a block collection: where the next token starts).
    pub end: Pos,
}

/// One step of a path into a document: a mapping key or a sequence index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSeg {
    Key(String),
    Index(usize),
}

impl From<&str> for PathSeg {
    fn from(key: &str) -> Self {
        PathSeg::Key(key.to_owned())
    }
}

impl From<usize> for PathSeg {
    fn from(index: usize) -> Self {
        PathSeg::Index(index)
    }
}

/// The positions of one document's values; see [`Spans::get`].
#[derive(Clone, Debug, Default)]
pub struct Spans {
    spans: Vec<Span>,
    /// For each entry, what its parent calls it: a key (a range of `keys`) or an index.
    names: Vec<Name>,
    /// Every key, one after the other (one allocation for all of them).
    keys: String,
    /// Each entry's parent entry (`u32::MAX`: the root, or not recorded).
    parents: Vec<u32>,
    /// (parent entry, hash of the name) → child entry, built from `parents` and `names` when
    /// first needed. The name is compared on lookup, so a hash collision can at worst hide a
    /// span, never give a wrong one.
    children: OnceLock<Children>,
    /// Nothing is recorded (the reader wants the values only).
    off: bool,
}

#[derive(Clone, Copy, Debug)]
enum Name {
    Root,
    Key { start: u32, len: u32 },
    Index(u32),
}

/// FxHash (rustc's hasher): fast, and good enough for keys chosen by whoever wrote the file.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

fn key_hash(key: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(key.as_bytes());
    h.write_u64(key.len() as u64);
    h.finish() | 1
}

fn index_hash(index: usize) -> u64 {
    (index as u64) << 1
}

impl Spans {
    /// The span of the value at `path` (`[]` is the whole document).
    #[must_use]
    pub fn get(&self, path: &[PathSeg]) -> Option<Span> {
        let mut id = 0;
        for seg in path {
            id = match seg {
                PathSeg::Key(k) => self.child_key(id, k)?,
                PathSeg::Index(i) => self.child_index(id, *i)?,
            };
        }
        self.spans.get(id).copied()
    }

    /// Like [`Spans::get`], with every segment written as text, the way JSON paths usually
    /// are: `["spec", "containers", "0", "image"]`. A segment names a mapping key if there is
    /// one by that name, else, if it is a number, a sequence index.
    #[must_use]
    pub fn get_str<S: AsRef<str>>(&self, path: &[S]) -> Option<Span> {
        let mut id = 0;
        for seg in path {
            let seg = seg.as_ref();
            id = match self.child_key(id, seg) {
                Some(child) => child,
                None => self.child_index(id, seg.parse().ok()?)?,
            };
        }
        self.spans.get(id).copied()
    }

    /// The span of the whole document.
    #[must_use]
    pub fn root(&self) -> Option<Span> {
        self.spans.first().copied()
    }

    /// How many values have a recorded span (values replaced by a later duplicate key count too).
    #[must_use]
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether nothing was recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The child index, built on first use: entries in the order they were read, so a later
    /// duplicate key replaces an earlier one (the last one wins, as in kubectl).
    fn children(&self) -> &Children {
        self.children.get_or_init(|| {
            let mut children =
                Children::with_capacity_and_hasher(self.spans.len(), BuildHasherDefault::default());
            for (id, (parent, name)) in self.parents.iter().zip(&self.names).enumerate() {
                let hash = match *name {
                    Name::Root => continue,
                    Name::Key { start, len } => {
                        let (start, len) = (start as usize, len as usize);
                        match self.keys.get(start..start + len) {
                            Some(key) => key_hash(key),
                            None => continue,
                        }
                    }
                    Name::Index(i) => index_hash(i as usize),
                };
                if let (true, Ok(child)) = (*parent != u32::MAX, u32::try_from(id)) {
                    children.insert((*parent, hash), child);
                }
            }
            children
        })
    }

    fn child_key(&self, parent: usize, key: &str) -> Option<usize> {
        let parent = u32::try_from(parent).ok()?;
        let child = *self.children().get(&(parent, key_hash(key)))? as usize;
        match self.names.get(child)? {
            Name::Key { start, len } => {
                let (start, len) = (*start as usize, *len as usize);
                (self.keys.get(start..start + len)? == key).then_some(child)
            }
            Name::Root | Name::Index(_) => None,
        }
    }

    fn child_index(&self, parent: usize, index: usize) -> Option<usize> {
        let parent = u32::try_from(parent).ok()?;
        let child = *self.children().get(&(parent, index_hash(index)))? as usize;
        match self.names.get(child)? {
            Name::Index(i) if *i as usize == index => Some(child),
            _ => None,
        }
    }

    /// Starts a table whose root (entry 0) has `span`, with room for `capacity` entries.
    pub(super) fn with_capacity(span: Span, capacity: usize) -> Self {
        let mut spans = Vec::with_capacity(capacity);
        spans.push(span);
        let mut names = Vec::with_capacity(capacity);
        names.push(Name::Root);
        let mut parents = Vec::with_capacity(capacity);
        parents.push(u32::MAX);
        Spans {
            spans,
            names,
            keys: String::new(),
            parents,
            children: OnceLock::new(),
            off: false,
        }
    }

    /// A table that records nothing: every lookup finds nothing.
    pub(super) fn off() -> Self {
        Spans {
            off: true,
            ..Spans::default()
        }
    }

    /// Whether this table records nothing ([`Spans::off`]).
    pub(super) fn is_off(&self) -> bool {
        self.off
    }

    /// Starts a table whose root (entry 0) has `span`.
    pub(super) fn with_root(span: Span) -> Self {
        Spans {
            spans: vec![span],
            names: vec![Name::Root],
            parents: vec![u32::MAX],
            ..Spans::default()
        }
    }

    fn push(&mut self, parent: usize, name: Name, span: Span) -> usize {
        let id = self.spans.len();
        self.spans.push(span);
        self.names.push(name);
        // Past 4 billion values, spans are no longer recorded (the document still loads).
        let recorded = u32::try_from(id).is_ok();
        self.parents.push(
            u32::try_from(parent)
                .ok()
                .filter(|_| recorded)
                .unwrap_or(u32::MAX),
        );
        self.children.take();
        id
    }

    /// Records the child `key` of entry `parent`, replacing an earlier child of that name (a
    /// duplicate key: the last one wins, as in kubectl). Returns the new entry.
    pub(super) fn push_key(&mut self, parent: usize, key: &str, span: Span) -> usize {
        if self.off {
            return 0;
        }
        let name = match (u32::try_from(self.keys.len()), u32::try_from(key.len())) {
            (Ok(start), Ok(len)) => Name::Key { start, len },
            _ => Name::Root,
        };
        self.keys.push_str(key);
        self.push(parent, name, span)
    }

    /// Records the item `index` of entry `parent`. Returns the new entry.
    pub(super) fn push_index(&mut self, parent: usize, index: usize, span: Span) -> usize {
        if self.off {
            return 0;
        }
        let name = u32::try_from(index).map_or(Name::Root, Name::Index);
        self.push(parent, name, span)
    }

    /// Sets where entry `id` ends (known only once its value has been read).
    pub(super) fn set_end(&mut self, id: usize, end: Pos) {
        if let Some(s) = self.spans.get_mut(id) {
            s.end = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(line: usize) -> Span {
        Span {
            key: None,
            value: Pos { line, col: 1 },
            end: Pos { line, col: 2 },
        }
    }

    #[test]
    fn lookup_by_path() {
        let mut s = Spans::with_root(span(1));
        let a = s.push_key(0, "a", span(2));
        let a0 = s.push_index(a, 0, span(3));
        s.push_key(a, "0", span(4));
        assert_eq!(s.get(&[]), Some(span(1)));
        assert_eq!(s.get(&["a".into(), 0.into()]), Some(span(3)));
        assert_eq!(
            s.get_str(&["a", "0"]),
            Some(span(4)),
            "a key named 0 comes first"
        );
        assert_eq!(s.get_str(&["a"]).map(|x| x.value.line), Some(2));
        assert_eq!(s.get_str(&["b"]), None);
        let _ = a0;
        // A later duplicate replaces the earlier one.
        s.push_key(0, "a", span(9));
        assert_eq!(s.get_str(&["a"]).map(|x| x.value.line), Some(9));
        assert_eq!(s.get_str(&["a", "0"]), None);
    }
}
