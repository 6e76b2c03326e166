//! The keymap is data: one table of `(mode, key, message, description)`. `resolve` looks a key
//! up for a mode; the help screen and the key-hint bar are generated from the same table, so
//! they cannot drift from what the keys do.
//!
//! Key notation (shared with the tests' key scripts): a single character (`j`, `G`, `?`, `/`),
//! or a name in angle brackets with optional modifiers: `<Down>`, `<PageUp>`, `<S-Tab>`,
//! `<C-c>`, `<Esc>`, `<Enter>`, `<BS>`, `<Space>`, `<Home>`, `<End>`, `<Left>`, `<Right>`.

use std::fmt;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::{Message, ModeKind};

/// A key, normalised: shifted characters carry no `SHIFT` (`G`, not `S-g`), `BackTab` is
/// `<S-Tab>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

impl Key {
    /// A terminal key event, normalised.
    #[must_use]
    pub fn from_event(ev: &KeyEvent) -> Key {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let code = match ev.code {
            KeyCode::Tab if ev.modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            c => c,
        };
        Key { code, ctrl }
    }
}

/// A key notation that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown key notation {0:?}")]
pub struct BadKey(pub String);

/// Parse one key notation.
///
/// # Errors
/// [`BadKey`] for anything not in the notation above.
pub fn parse_key(s: &str) -> Result<Key, BadKey> {
    let bad = || BadKey(s.to_owned());
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Ok(Key {
            code: KeyCode::Char(c),
            ctrl: false,
        });
    }
    let inner = s
        .strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'))
        .ok_or_else(bad)?;
    let (ctrl, shift, name) = match inner.split_once('-') {
        Some(("C", n)) if !n.is_empty() => (true, false, n),
        Some(("S", n)) if !n.is_empty() => (false, true, n),
        _ => (false, false, inner),
    };
    let code = match name {
        "Tab" if shift => KeyCode::BackTab,
        "Tab" => KeyCode::Tab,
        "BackTab" => KeyCode::BackTab,
        "Up" => KeyCode::Up,
        "Down" => KeyCode::Down,
        "Left" => KeyCode::Left,
        "Right" => KeyCode::Right,
        "PageUp" => KeyCode::PageUp,
        "PageDown" => KeyCode::PageDown,
        "Home" => KeyCode::Home,
        "End" => KeyCode::End,
        "Esc" => KeyCode::Esc,
        "Enter" => KeyCode::Enter,
        "BS" => KeyCode::Backspace,
        "Space" => KeyCode::Char(' '),
        "lt" => KeyCode::Char('<'),
        n if n.chars().count() == 1 && !shift => KeyCode::Char(n.chars().next().ok_or_else(bad)?),
        _ => return Err(bad()),
    };
    Ok(Key { code, ctrl })
}

/// Parse a key script: notations separated by spaces (`"j j <Tab> / n g <Enter>"`).
///
/// # Errors
/// The first [`BadKey`].
pub fn parse_keys(script: &str) -> Result<Vec<Key>, BadKey> {
    script.split_whitespace().map(parse_key).collect()
}

impl fmt::Display for Key {
    /// The short form shown in help and hints: `j`, `↓`, `S-Tab`, `C-c`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("C-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::BackTab => f.write_str("S-Tab"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::PageUp => f.write_str("PgUp"),
            KeyCode::PageDown => f.write_str("PgDn"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Backspace => f.write_str("BS"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// One row of the keymap.
#[derive(Clone, Debug)]
pub struct Binding {
    pub mode: ModeKind,
    /// Key notation.
    pub key: &'static str,
    pub message: Message,
    /// What the key does (help screen).
    pub description: &'static str,
    /// A short label for the key-hint bar; empty: not shown there.
    pub hint: &'static str,
}

const fn b(
    mode: ModeKind,
    key: &'static str,
    message: Message,
    description: &'static str,
    hint: &'static str,
) -> Binding {
    Binding {
        mode,
        key,
        message,
        description,
        hint,
    }
}

use ModeKind::{
    Annotation, Browse, Confirm, Help, Legend, List, Loading, Patch, Refused, Search, Steps,
    Warnings,
};

/// The whole keymap. In search mode, any other printable character is typed into the query.
pub static BINDINGS: &[Binding] = &[
    b(Loading, "q", Message::Quit, "quit", "quit"),
    b(Loading, "<Esc>", Message::Quit, "quit", ""),
    b(Loading, "<C-c>", Message::Quit, "quit", ""),
    b(
        Loading,
        "r",
        Message::Retry,
        "try again (after a failure)",
        "retry",
    ),
    b(List, "j", Message::Down, "next object", "move"),
    b(List, "<Down>", Message::Down, "next object", ""),
    b(List, "k", Message::Up, "previous object", ""),
    b(List, "<Up>", Message::Up, "previous object", ""),
    b(List, "<PageDown>", Message::PageDown, "a page down", ""),
    b(List, "<C-d>", Message::PageDown, "a page down", ""),
    b(List, "<PageUp>", Message::PageUp, "a page up", ""),
    b(List, "<C-u>", Message::PageUp, "a page up", ""),
    b(List, "g", Message::Top, "first object", ""),
    b(List, "<Home>", Message::Top, "first object", ""),
    b(List, "G", Message::Bottom, "last object", ""),
    b(List, "<End>", Message::Bottom, "last object", ""),
    b(
        List,
        "<Enter>",
        Message::Accept,
        "open the object's panes (Esc returns)",
        "open",
    ),
    b(
        List,
        "r",
        Message::Retry,
        "after a failure: read all again",
        "",
    ),
    b(List, "?", Message::OpenHelp, "help", "help"),
    b(List, "q", Message::Quit, "quit", "quit"),
    b(List, "<C-c>", Message::Quit, "quit", ""),
    b(List, "<Esc>", Message::Quit, "quit", ""),
    b(Browse, "j", Message::Down, "next field", "move"),
    b(Browse, "<Down>", Message::Down, "next field", ""),
    b(Browse, "k", Message::Up, "previous field", ""),
    b(Browse, "<Up>", Message::Up, "previous field", ""),
    b(Browse, "<PageDown>", Message::PageDown, "a page down", ""),
    b(Browse, "<C-d>", Message::PageDown, "a page down", ""),
    b(Browse, "<PageUp>", Message::PageUp, "a page up", ""),
    b(Browse, "<C-u>", Message::PageUp, "a page up", ""),
    b(Browse, "g", Message::Top, "first field", ""),
    b(Browse, "<Home>", Message::Top, "first field", ""),
    b(Browse, "G", Message::Bottom, "last field", ""),
    b(Browse, "<End>", Message::Bottom, "last field", ""),
    b(Browse, "n", Message::NextChange, "next change", "change"),
    b(Browse, "N", Message::PrevChange, "previous change", ""),
    b(Browse, "<Tab>", Message::NextPane, "next pane", "pane"),
    b(Browse, "<S-Tab>", Message::PrevPane, "previous pane", ""),
    b(Browse, "w", Message::ToggleWhy, "why panel on/off", "why"),
    b(Browse, "p", Message::TogglePatch, "patch view", "patch"),
    b(Browse, "!", Message::OpenWarnings, "warnings", "warnings"),
    b(
        Browse,
        "/",
        Message::OpenSearch,
        "search paths and values",
        "search",
    ),
    b(Browse, "z", Message::Fold, "fold/unfold the field", "fold"),
    b(
        Browse,
        "s",
        Message::ToggleSecrets,
        "reveal/mask secrets",
        "",
    ),
    b(Browse, "l", Message::OpenLegend, "legend", "legend"),
    b(
        Browse,
        "x",
        Message::DropField,
        "drop from last-applied (hand it over)",
        "",
    ),
    b(
        Browse,
        "a",
        Message::AdoptField,
        "adopt the live value (take it over)",
        "",
    ),
    b(
        Browse,
        "e",
        Message::EditLastApplied,
        "edit last-applied in $EDITOR",
        "",
    ),
    b(Browse, "u", Message::Undo, "undo an edit", ""),
    b(Browse, "<C-r>", Message::Redo, "redo an edit", ""),
    b(
        Browse,
        "A",
        Message::ShowAnnotation,
        "annotation preview: bytes, sizes",
        "",
    ),
    b(
        Browse,
        "W",
        Message::Commit,
        "commit the edited last-applied",
        "",
    ),
    b(
        Browse,
        "R",
        Message::Reload,
        "reload the files (discards edits)",
        "",
    ),
    b(
        Browse,
        "P",
        Message::ClusterApply,
        "cluster: apply (server dry run, then confirm)",
        "",
    ),
    b(
        Browse,
        "m",
        Message::ToggleManagedFields,
        "cluster: show/hide managedFields",
        "",
    ),
    b(
        Browse,
        "S",
        Message::ToggleServerSide,
        "server-side / client-side apply",
        "",
    ),
    b(
        Browse,
        "o",
        Message::ToggleOwners,
        "owners column (managedFields) on/off",
        "",
    ),
    b(
        Browse,
        "t",
        Message::OpenSteps,
        "server-side: kubectl's requests, step by step",
        "",
    ),
    b(Browse, "?", Message::OpenHelp, "help", "help"),
    b(Browse, "q", Message::Quit, "quit", "quit"),
    b(
        Browse,
        "<Esc>",
        Message::Back,
        "back to the object list (one object: quit)",
        "",
    ),
    b(Browse, "<C-c>", Message::Quit, "quit", ""),
    b(Search, "<Enter>", Message::Accept, "go to the match", "go"),
    b(Search, "<Down>", Message::Down, "next match", "next"),
    b(Search, "<C-n>", Message::Down, "next match", ""),
    b(Search, "<Up>", Message::Up, "previous match", "previous"),
    b(Search, "<C-p>", Message::Up, "previous match", ""),
    b(Search, "<BS>", Message::Backspace, "delete a character", ""),
    b(Search, "<Esc>", Message::Back, "cancel", "cancel"),
    b(Search, "<C-c>", Message::Back, "cancel", ""),
    b(Patch, "<Tab>", Message::NextPane, "next patch", "next"),
    b(Patch, "<Right>", Message::NextPane, "next patch", ""),
    b(Patch, "<S-Tab>", Message::PrevPane, "previous patch", ""),
    b(Patch, "<Left>", Message::PrevPane, "previous patch", ""),
    b(Patch, "j", Message::Down, "scroll down", "scroll"),
    b(Patch, "<Down>", Message::Down, "scroll down", ""),
    b(Patch, "k", Message::Up, "scroll up", ""),
    b(Patch, "<Up>", Message::Up, "scroll up", ""),
    b(Patch, "<PageDown>", Message::PageDown, "a page down", ""),
    b(Patch, "<PageUp>", Message::PageUp, "a page up", ""),
    b(Patch, "g", Message::Top, "top", ""),
    b(Patch, "G", Message::Bottom, "bottom", ""),
    b(Patch, "p", Message::Back, "back to the panes", "back"),
    b(Patch, "<Esc>", Message::Back, "back to the panes", ""),
    b(Patch, "?", Message::OpenHelp, "help", "help"),
    b(Patch, "q", Message::Quit, "quit", "quit"),
    b(Warnings, "j", Message::Down, "next warning", "move"),
    b(Warnings, "<Down>", Message::Down, "next warning", ""),
    b(Warnings, "k", Message::Up, "previous warning", ""),
    b(Warnings, "<Up>", Message::Up, "previous warning", ""),
    b(
        Warnings,
        "<Enter>",
        Message::Accept,
        "jump to the field",
        "jump",
    ),
    b(Warnings, "!", Message::Back, "close", "close"),
    b(Warnings, "<Esc>", Message::Back, "close", ""),
    b(Warnings, "q", Message::Quit, "quit", "quit"),
    b(Confirm, "y", Message::Confirm, "write it", "write"),
    b(Confirm, "<Enter>", Message::Confirm, "write it", ""),
    b(Confirm, "n", Message::Back, "cancel", "cancel"),
    b(Confirm, "<Esc>", Message::Back, "cancel", ""),
    b(Confirm, "q", Message::Back, "cancel", ""),
    b(Confirm, "j", Message::Down, "scroll down", "scroll"),
    b(Confirm, "<Down>", Message::Down, "scroll down", ""),
    b(Confirm, "k", Message::Up, "scroll up", ""),
    b(Confirm, "<Up>", Message::Up, "scroll up", ""),
    b(Confirm, "<PageDown>", Message::PageDown, "a page down", ""),
    b(Confirm, "<PageUp>", Message::PageUp, "a page up", ""),
    b(Confirm, "g", Message::Top, "top", ""),
    b(Annotation, "j", Message::Down, "scroll down", "scroll"),
    b(Annotation, "<Down>", Message::Down, "scroll down", ""),
    b(Annotation, "k", Message::Up, "scroll up", ""),
    b(Annotation, "<Up>", Message::Up, "scroll up", ""),
    b(Annotation, "A", Message::Back, "close", "close"),
    b(Annotation, "<Esc>", Message::Back, "close", ""),
    b(Annotation, "q", Message::Back, "close", ""),
    b(
        Refused,
        "r",
        Message::Reload,
        "reload the files (discards edits)",
        "reload",
    ),
    b(Refused, "<Esc>", Message::Back, "keep the edits", "back"),
    b(Refused, "q", Message::Back, "keep the edits", ""),
    b(Steps, "j", Message::Down, "scroll down", "scroll"),
    b(Steps, "<Down>", Message::Down, "scroll down", ""),
    b(Steps, "k", Message::Up, "scroll up", ""),
    b(Steps, "<Up>", Message::Up, "scroll up", ""),
    b(Steps, "t", Message::Back, "close", "close"),
    b(Steps, "<Esc>", Message::Back, "close", ""),
    b(Steps, "q", Message::Back, "close", ""),
    b(Help, "j", Message::Down, "scroll down", "scroll"),
    b(Help, "<Down>", Message::Down, "scroll down", ""),
    b(Help, "k", Message::Up, "scroll up", ""),
    b(Help, "<Up>", Message::Up, "scroll up", ""),
    b(Help, "?", Message::Back, "close", "close"),
    b(Help, "<Esc>", Message::Back, "close", ""),
    b(Help, "q", Message::Back, "close", ""),
    b(Legend, "l", Message::Back, "close", "close"),
    b(Legend, "<Esc>", Message::Back, "close", ""),
    b(Legend, "q", Message::Back, "close", ""),
];

/// The message a key sends in a mode, if any.
#[must_use]
pub fn resolve(mode: ModeKind, key: Key) -> Option<Message> {
    let found = BINDINGS
        .iter()
        .filter(|b| b.mode == mode)
        .find(|b| parse_key(b.key).is_ok_and(|k| k == key))
        .map(|b| b.message.clone());
    match (found, mode, key.code) {
        (Some(m), _, _) => Some(m),
        (None, ModeKind::Search, KeyCode::Char(c)) if !key.ctrl => Some(Message::Type(c)),
        _ => None,
    }
}

/// The bindings of a mode, in table order.
pub fn bindings(mode: ModeKind) -> impl Iterator<Item = &'static Binding> {
    BINDINGS.iter().filter(move |b| b.mode == mode)
}

/// The first key bound to a message in a mode, in the short form (`W`).
#[must_use]
pub fn key_for(mode: ModeKind, message: &Message) -> Option<String> {
    bindings(mode)
        .find(|b| b.message == *message)
        .map(|b| parse_key(b.key).map_or_else(|_| b.key.to_owned(), |k| k.to_string()))
}

/// The hint bar of a mode: `j move  n change  …`.
#[must_use]
pub fn hints(mode: ModeKind) -> Vec<(String, &'static str)> {
    bindings(mode)
        .filter(|b| !b.hint.is_empty())
        .map(|b| {
            let key = parse_key(b.key).map_or_else(|_| b.key.to_owned(), |k| k.to_string());
            (key, b.hint)
        })
        .collect()
}

/// The help screen's rows for a mode: every key of a message on one row.
#[must_use]
pub fn help_rows(mode: ModeKind) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(String, &'static str)> = Vec::new();
    for b in bindings(mode) {
        let key = parse_key(b.key).map_or_else(|_| b.key.to_owned(), |k| k.to_string());
        match rows.iter_mut().find(|(_, d)| *d == b.description) {
            Some((keys, _)) => {
                keys.push_str(", ");
                keys.push_str(&key);
            }
            None => rows.push((key, b.description)),
        }
    }
    if mode == ModeKind::Search {
        rows.push(("any".into(), "type into the query"));
    }
    rows
}

/// Lines the help screen shows: each mode with keys, a title line and its rows.
#[must_use]
pub fn help_len() -> usize {
    ModeKind::ALL
        .iter()
        .map(|m| help_rows(*m).len())
        .filter(|n| *n > 0)
        .map(|n| n + 1)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binding_parses_and_no_key_is_bound_twice_in_a_mode() {
        let mut seen = std::collections::HashSet::new();
        for b in BINDINGS {
            let k = parse_key(b.key).unwrap();
            assert!(
                seen.insert((b.mode, k)),
                "{:?} {} bound twice",
                b.mode,
                b.key
            );
        }
    }

    #[test]
    fn notation_round_trips_and_normalises() {
        assert_eq!(parse_key("<S-Tab>"), parse_key("<BackTab>"));
        assert_eq!(
            parse_key("<C-c>").unwrap(),
            Key {
                code: KeyCode::Char('c'),
                ctrl: true
            }
        );
        assert!(parse_key("<Nope>").is_err());
        assert!(parse_key("jj").is_err());
        let ev = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(Key::from_event(&ev), parse_key("G").unwrap());
        let ev = KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(Key::from_event(&ev), parse_key("<S-Tab>").unwrap());
    }

    #[test]
    fn search_types_unbound_characters() {
        let j = parse_key("j").unwrap();
        assert_eq!(resolve(ModeKind::Search, j), Some(Message::Type('j')));
        assert_eq!(resolve(ModeKind::Browse, j), Some(Message::Down));
        assert_eq!(resolve(ModeKind::Browse, parse_key("X").unwrap()), None);
        assert_eq!(resolve(ModeKind::Editor, parse_key("q").unwrap()), None);
    }
}
