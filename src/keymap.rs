//! Keys read against the keymap, which is data: one table of `(mode, key, message,
//! description)` kept by the app (`app::keys`, where the help's scroll limit is counted from it
//! too). `resolve` looks a key up for a mode; the help screen and the key-hint bar are written
//! from the same table here, their keys in the short form, so they cannot drift from what the
//! keys do.
//!
//! Key notation (shared with the tests' key scripts): a single character (`j`, `G`, `?`, `/`),
//! or a name in angle brackets with optional modifiers: `<Down>`, `<PageUp>`, `<S-Tab>`,
//! `<C-c>`, `<Esc>`, `<Enter>`, `<BS>`, `<Space>`, `<Home>`, `<End>`, `<Left>`, `<Right>`.

use std::fmt;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::keys::{BINDINGS, bindings, help_groups};
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

/// A key notation of the table in the short form the screen shows (`<S-Tab>` for `<BackTab>`;
/// a notation that does not parse, such as search's `any`, as written).
fn short(notation: &str) -> String {
    parse_key(notation).map_or_else(|_| notation.to_owned(), |k| k.to_string())
}

/// The first key bound to a message in a mode, in the short form (`W`).
#[must_use]
pub fn key_for(mode: ModeKind, message: &Message) -> Option<String> {
    bindings(mode)
        .find(|b| b.message == *message)
        .map(|b| short(b.key))
}

/// The hint bar of a mode: `j move  n change  …`.
#[must_use]
pub fn hints(mode: ModeKind) -> Vec<(String, &'static str)> {
    bindings(mode)
        .filter(|b| !b.hint.is_empty())
        .map(|b| {
            let key = short(b.key);
            (key, b.hint)
        })
        .collect()
}

/// The help screen's rows for a mode: every key of a message on one row
/// ([`help_groups`]), each key in the short form.
#[must_use]
pub fn help_rows(mode: ModeKind) -> Vec<(String, &'static str)> {
    help_groups(mode)
        .into_iter()
        .map(|(keys, description)| {
            let shown: Vec<String> = keys.iter().map(|k| short(k)).collect();
            (shown.join(", "), description)
        })
        .collect()
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
