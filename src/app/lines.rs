//! A pane's lines, kept compact: a big object has close to a million of them over the four
//! panes. A line ([`DocLine`], 16 bytes) holds its node, indent, flags and token; the key is the
//! node's step (written as YAML when shown, [`Lines::key`]); every line's value text sits in
//! one string of the pane, one after another; the few masked values and word diffs are kept
//! aside by line.

use crate::engine::gofmt::FastMap;
use crate::engine::plan::{FieldId, Tree};
use crate::theme::Tok;

use super::yaml::{Text, Word, key_text};

const DASH: u8 = 1;
const KEY: u8 = 2;
const VALUE: u8 = 4;
const EXTRA: u8 = 8;

/// One line of a pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocLine {
    /// The node the line shows.
    pub path: FieldId,
    /// A second node shown on this line: the first key of a map list item, on the dash line
    /// ([`FieldId::ROOT`]: none; the root is never a key).
    also: FieldId,
    /// Where the line's value text ends in [`Lines`]'s text (it starts where the line
    /// before's ends).
    end: u32,
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
    /// The value text, if this line shows one (escaped, quoted).
    pub value: Option<Text>,
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
    /// Every line's value text, one after another.
    text: String,
    /// Masked values and word diffs, by line.
    extras: FastMap<u32, Extra>,
}

impl Lines {
    /// Room for `lines` lines.
    pub(super) fn with_capacity(lines: usize) -> Lines {
        Lines {
            lines: Vec::with_capacity(lines),
            ..Lines::default()
        }
    }

    /// Give back the room made for more lines and text than came (the text grows by doubling).
    pub(super) fn finish(&mut self) {
        self.lines.shrink_to_fit();
        self.text.shrink_to_fit();
    }

    pub(super) fn push(&mut self, line: NewLine) {
        if let Some(v) = &line.value {
            self.text.push_str(v);
        }
        let mut flags = 0;
        for (on, flag) in [
            (line.dash, DASH),
            (line.key, KEY),
            (line.value.is_some(), VALUE),
            (line.masked.is_some() || line.words.is_some(), EXTRA),
        ] {
            if on {
                flags |= flag;
            }
        }
        if flags & EXTRA != 0 {
            let at = u32::try_from(self.lines.len()).unwrap_or(u32::MAX);
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
            end: u32::try_from(self.text.len()).unwrap_or(u32::MAX),
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

    /// The value text of line `i`, if it shows one (escaped, quoted).
    #[must_use]
    pub fn value(&self, i: usize) -> Option<&str> {
        let line = self.lines.get(i).filter(|l| l.has_value())?;
        let start = match i.checked_sub(1) {
            Some(before) => self.lines.get(before).map_or(0, |l| l.end),
            None => 0,
        };
        self.text.get(start as usize..line.end as usize)
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
    pub fn shown_value(&self, i: usize, reveal: bool) -> Option<&str> {
        match (self.masked(i), reveal) {
            (Some(m), false) => Some(m),
            _ => self.value(i),
        }
    }

    /// Line `i` as plain text (secrets as shown).
    #[must_use]
    pub fn text(&self, i: usize, tree: &Tree, reveal: bool) -> String {
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
        if let Some(v) = self.shown_value(i, reveal) {
            s.push_str(v);
        }
        s
    }
}

/// The lines of a pane that folds leave visible, ascending: every one (nothing folded there,
/// the usual case: no index is kept) or those listed.
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
    fn a_line_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<DocLine>(), 16);
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
        assert_eq!(lines.text(0, &tree, false), "a b: 1");
        assert_eq!(lines.text(1, &tree, false), "  - ");
        assert_eq!(lines.value(1), None);
        assert_eq!(lines.text(2, &tree, false), "  ***");
        assert_eq!(lines.text(2, &tree, true), "  xyz");
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
            assert_eq!(v.from(1).collect::<Vec<_>>(), [1, 2, 3]);
            assert_eq!(v.from(7).count(), 0);
        }
        let some = Visible::of(4, vec![0, 3]);
        assert_eq!(some.before(3), 1);
        assert_eq!(some.from(1).collect::<Vec<_>>(), [3]);
    }
}
