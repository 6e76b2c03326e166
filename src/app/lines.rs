//! A pane's lines, kept compact: a big object has close to a million of them over the four
//! panes. A line ([`DocLine`], 12 bytes) holds its node, indent, flags and token; the key is the
//! node's step (written as YAML when shown, [`Lines::key`]); a scalar's value text is written
//! from the document when shown, where the line's node finds it there (a pane of one of the
//! plan's documents, [`Lines::value`]); the other lines' value texts sit in one string of the
//! pane, one after another, with where each ends by line; the few masked values and word
//! diffs are kept aside by line.

use std::borrow::Cow;

use crate::engine::gofmt::FastMap;
use crate::engine::plan::{Doc, FieldId, Tree};
use crate::theme::Tok;
use crate::value::Value;

use super::yaml::{Text, Word, key_text, scalar};

const DASH: u8 = 1;
const KEY: u8 = 2;
const VALUE: u8 = 4;
const EXTRA: u8 = 8;
/// The value text is written from the document when shown.
const FROM_DOC: u8 = 16;

/// One line of a pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocLine {
    /// The node the line shows.
    pub path: FieldId,
    /// A second node shown on this line: the first key of a map list item, on the dash line
    /// ([`FieldId::ROOT`]: none; the root is never a key).
    also: FieldId,
    pub indent: u16,
    flags: u8,
    pub tok: Tok,
}

impl DocLine {
    /// The first key of a map list item, shown on its dash line.
    #[must_use]
    pub fn also(&self) -> Option<FieldId> {
        (self.also != FieldId::ROOT).then_some(self.also)
    }

    /// The node whose step is the line's key, or whose item the line starts.
    #[must_use]
    pub fn node(&self) -> FieldId {
        self.also().unwrap_or(self.path)
    }

    /// Does the line start a list item (`- `)?
    #[must_use]
    pub fn dash(&self) -> bool {
        self.flags & DASH != 0
    }

    /// Does the line show a key?
    #[must_use]
    pub fn has_key(&self) -> bool {
        self.flags & KEY != 0
    }

    /// Does the line show a value?
    #[must_use]
    pub fn has_value(&self) -> bool {
        self.flags & VALUE != 0
    }
}

/// What few lines carry beside their text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Extra {
    /// What to show instead of the value while secrets are hidden.
    masked: Option<Text>,
    /// A word diff from the value before the apply (result pane, changed strings).
    words: Option<Box<[Word]>>,
}

/// A line as the projection makes it, before it is packed into [`Lines`].
pub(super) struct NewLine {
    pub path: FieldId,
    pub also: Option<FieldId>,
    pub indent: usize,
    pub dash: bool,
    /// The line shows its node's key.
    pub key: bool,
    /// The value text, if this line shows one (escaped, quoted) and it is kept.
    pub value: Option<Text>,
    /// The line shows its node's scalar value, written from the document when shown (not
    /// kept: [`Lines::value`]).
    pub from_doc: bool,
    pub tok: Tok,
    pub masked: Option<Text>,
    pub words: Option<Box<[Word]>>,
}

impl NewLine {
    pub(super) fn new(path: FieldId, indent: usize, dash: bool) -> NewLine {
        NewLine {
            path,
            also: None,
            indent,
            dash,
            key: false,
            value: None,
            from_doc: false,
            tok: Tok::Punct,
            masked: None,
            words: None,
        }
    }
}

/// A pane's lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    lines: Vec<DocLine>,
    /// The value texts kept, one after another.
    text: String,
    /// The lines whose value text is kept, ascending, and where each text ends in `text` (it
    /// starts where the one before ends).
    kept: Vec<(u32, u32)>,
    /// Masked values and word diffs, by line.
    extras: FastMap<u32, Extra>,
    /// The plan's document the values not kept are written from.
    from: Option<Doc>,
}

impl Lines {
    /// Room for `lines` lines; `from`: the plan's document the values not kept are written
    /// from.
    pub(super) fn with_capacity(lines: usize, from: Option<Doc>) -> Lines {
        Lines {
            lines: Vec::with_capacity(lines),
            from,
            ..Lines::default()
        }
    }

    /// The plan's document the values not kept are written from (`None`: all are kept).
    #[must_use]
    pub fn from(&self) -> Option<Doc> {
        self.from
    }

    /// Give back the room made for more lines and text than came (the text grows by doubling).
    pub(super) fn finish(&mut self) {
        self.lines.shrink_to_fit();
        self.text.shrink_to_fit();
        self.kept.shrink_to_fit();
    }

    pub(super) fn push(&mut self, line: NewLine) {
        let at = u32::try_from(self.lines.len()).unwrap_or(u32::MAX);
        if let Some(v) = &line.value {
            self.text.push_str(v);
            let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
            self.kept.push((at, end));
        }
        let mut flags = 0;
        for (on, flag) in [
            (line.dash, DASH),
            (line.key, KEY),
            (line.value.is_some() || line.from_doc, VALUE),
            (line.masked.is_some() || line.words.is_some(), EXTRA),
            (line.from_doc && line.value.is_none(), FROM_DOC),
        ] {
            if on {
                flags |= flag;
            }
        }
        if flags & EXTRA != 0 {
            self.extras.insert(
                at,
                Extra {
                    masked: line.masked,
                    words: line.words,
                },
            );
        }
        self.lines.push(DocLine {
            path: line.path,
            also: line.also.unwrap_or(FieldId::ROOT),
            indent: u16::try_from(line.indent).unwrap_or(u16::MAX),
            flags,
            tok: line.tok,
        });
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    #[must_use]
    pub fn get(&self, i: usize) -> Option<&DocLine> {
        self.lines.get(i)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, DocLine> {
        self.lines.iter()
    }

    /// The key line `i` shows, quoted and escaped as needed (`None` for list items and
    /// continuation lines).
    #[must_use]
    pub fn key(&self, i: usize, tree: &Tree) -> Option<Text> {
        let line = self.lines.get(i).filter(|l| l.has_key())?;
        tree.key(line.node()).map(key_text)
    }

    /// The value text of line `i`, if it shows one (escaped, quoted): kept, or written from
    /// `doc`, the plan's document [`Lines::from`] names.
    #[must_use]
    pub fn value(&self, i: usize, tree: &Tree, doc: Option<&Value>) -> Option<Cow<'_, str>> {
        let line = self.lines.get(i).filter(|l| l.has_value())?;
        if line.flags & FROM_DOC != 0 {
            let v = tree.value(line.node(), self.from?, doc)?;
            return Some(Cow::Owned(scalar(v).0.into_string()));
        }
        let k = self
            .kept
            .binary_search_by_key(&u32::try_from(i).ok()?, |(l, _)| *l)
            .ok()?;
        let start = match k.checked_sub(1) {
            Some(before) => self.kept.get(before).map_or(0, |(_, end)| *end),
            None => 0,
        };
        let end = self.kept.get(k)?.1;
        self.text
            .get(start as usize..end as usize)
            .map(Cow::Borrowed)
    }

    fn extra(&self, i: usize) -> Option<&Extra> {
        if self.lines.get(i)?.flags & EXTRA == 0 {
            return None;
        }
        self.extras.get(&u32::try_from(i).ok()?)
    }

    /// What line `i` shows instead of its value while secrets are hidden.
    #[must_use]
    pub fn masked(&self, i: usize) -> Option<&str> {
        self.extra(i)?.masked.as_deref()
    }

    /// The word diff of line `i` from the value before the apply.
    #[must_use]
    pub fn words(&self, i: usize) -> Option<&[Word]> {
        self.extra(i)?.words.as_deref()
    }

    /// The value text of line `i` as shown: masked unless revealed.
    #[must_use]
    pub fn shown_value(
        &self,
        i: usize,
        reveal: bool,
        tree: &Tree,
        doc: Option<&Value>,
    ) -> Option<Cow<'_, str>> {
        match (self.masked(i), reveal) {
            (Some(m), false) => Some(Cow::Borrowed(m)),
            _ => self.value(i, tree, doc),
        }
    }

    /// Line `i` as plain text (secrets as shown; `doc`: as for [`Lines::value`]).
    #[must_use]
    pub fn text(&self, i: usize, tree: &Tree, doc: Option<&Value>, reveal: bool) -> String {
        let Some(line) = self.lines.get(i) else {
            return String::new();
        };
        let mut s = " ".repeat(line.indent as usize);
        if line.dash() {
            s.push_str("- ");
        }
        if let Some(k) = self.key(i, tree) {
            s.push_str(&k);
            s.push(':');
            if line.has_value() {
                s.push(' ');
            }
        }
        if let Some(v) = self.shown_value(i, reveal, tree, doc) {
            s.push_str(&v);
        }
        s
    }
}

/// The lines of a pane (or the plan's fields, [`super::Model::nav`]) that folds leave visible,
/// ascending: every one (nothing folded there, the usual case: no index is kept) or those
/// listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Visible {
    /// The first this many lines: all of them.
    All(u32),
    Listed(Vec<u32>),
}

impl Visible {
    /// The visible lines among `count`, given which are (`shown`, ascending).
    #[must_use]
    pub fn of(count: usize, shown: Vec<u32>) -> Visible {
        if shown.len() == count {
            Visible::All(u32::try_from(count).unwrap_or(u32::MAX))
        } else {
            Visible::Listed(shown)
        }
    }

    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Visible::All(n) => *n as usize,
            Visible::Listed(v) => v.len(),
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th visible line.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            Visible::All(n) => u32::try_from(i).ok().filter(|i| i < n),
            Visible::Listed(v) => v.get(i).copied(),
        }
    }

    /// Where `line` is among the visible ones, if it is one.
    #[must_use]
    pub fn position(&self, line: u32) -> Option<usize> {
        match self {
            Visible::All(n) => (line < *n).then_some(line as usize),
            Visible::Listed(v) => v.binary_search(&line).ok(),
        }
    }

    /// How many visible lines come before `line`.
    #[must_use]
    pub fn before(&self, line: u32) -> usize {
        match self {
            Visible::All(n) => line.min(*n) as usize,
            Visible::Listed(v) => v.partition_point(|l| *l < line),
        }
    }

    /// The visible lines from the `first`-th on.
    pub fn from(&self, first: usize) -> impl Iterator<Item = u32> + '_ {
        let (all, listed) = match self {
            Visible::All(n) => (u32::try_from(first).unwrap_or(u32::MAX)..*n, &[][..]),
            Visible::Listed(v) => (0..0, v.get(first..).unwrap_or_default()),
        };
        all.chain(listed.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_twelve_bytes() {
        assert_eq!(std::mem::size_of::<DocLine>(), 12);
    }

    #[test]
    fn values_follow_one_another_and_extras_stay_with_their_line() {
        let mut tree = Tree::empty();
        let a = tree.add(FieldId::ROOT, crate::engine::plan::Seg::Key("a b".into()));
        let mut lines = Lines::default();
        let mut first = NewLine::new(a, 0, false);
        first.key = true;
        first.value = Some("1".into());
        lines.push(first);
        lines.push(NewLine::new(a, 2, true));
        let mut third = NewLine::new(a, 2, false);
        third.value = Some("xyz".into());
        third.masked = Some("***".into());
        lines.push(third);
        assert_eq!(lines.text(0, &tree, None, false), "a b: 1");
        assert_eq!(lines.text(1, &tree, None, false), "  - ");
        assert_eq!(lines.value(1, &tree, None), None);
        assert_eq!(lines.text(2, &tree, None, false), "  ***");
        assert_eq!(lines.text(2, &tree, None, true), "  xyz");
        assert_eq!(lines.masked(0), None);
    }

    #[test]
    fn all_lines_visible_keep_no_index_and_read_as_the_list_would() {
        let all = Visible::of(4, vec![0, 1, 2, 3]);
        assert_eq!(all, Visible::All(4));
        let listed = Visible::Listed(vec![0, 1, 2, 3]);
        for v in [&all, &listed] {
            assert_eq!(v.len(), 4);
            assert_eq!(v.get(3), Some(3));
            assert_eq!(v.get(4), None);
            assert_eq!(v.before(2), 2);
            assert_eq!(v.before(9), 4);
            assert_eq!(v.position(2), Some(2));
            assert_eq!(v.position(4), None);
            assert_eq!(v.from(1).collect::<Vec<_>>(), [1, 2, 3]);
            assert_eq!(v.from(7).count(), 0);
        }
        let some = Visible::of(4, vec![0, 3]);
        assert_eq!(some.before(3), 1);
        assert_eq!(some.position(3), Some(1));
        assert_eq!(some.position(2), None);
        assert_eq!(some.from(1).collect::<Vec<_>>(), [3]);
    }
}
