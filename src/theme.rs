//! Every style of the TUI, in one place: each meaning has one style, and no `Color` appears
//! anywhere else. Colour is never the only signal: every action also has a gutter glyph.
//!
//! [`Theme::monochrome`] has no colours at all (used when `NO_COLOR` is set); it marks the
//! cursor and emphasis with modifiers only.

use ratatui::style::{Color, Modifier, Style};

use crate::engine::plan::Action;
use crate::engine::ssa::explain::Action as SsaAction;
use crate::session::risk::Risk;

/// The kind of a scalar value, for syntax colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Str,
    Num,
    Bool,
    Null,
    /// `{}`, `[]`, `|` and other YAML punctuation.
    Punct,
    /// A masked secret.
    Masked,
}

/// Named styles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    pub colour: bool,
    pub add: Style,
    pub set: Style,
    pub clear: Style,
    pub retain: Style,
    pub unchanged: Style,
    pub warning: Style,
    pub key: Style,
    pub string: Style,
    pub number: Style,
    pub boolean: Style,
    pub null: Style,
    pub punct: Style,
    pub masked: Style,
    pub cursor: Style,
    pub absent: Style,
    pub folded: Style,
    pub border: Style,
    pub border_focus: Style,
    pub title: Style,
    pub header: Style,
    pub status: Style,
    pub hint_key: Style,
    pub muted: Style,
    pub selected_row: Style,
    pub directive: Style,
    pub word_insert: Style,
    pub word_delete: Style,
    pub search: Style,
    pub error: Style,
    /// Edited in last-applied, not yet committed.
    pub edited: Style,
    /// A server-side conflict: another manager owns the field and the file changes it.
    pub conflict: Style,
}

impl Default for Theme {
    fn default() -> Self {
        Theme::colour()
    }
}

impl Theme {
    /// The colour theme.
    #[must_use]
    pub fn colour() -> Theme {
        let fg = |c: Color| Style::new().fg(c);
        Theme {
            colour: true,
            add: fg(Color::Green),
            set: fg(Color::Yellow),
            clear: fg(Color::Red),
            retain: fg(Color::Cyan),
            unchanged: Style::new(),
            warning: fg(Color::LightRed).add_modifier(Modifier::BOLD),
            key: fg(Color::Blue),
            string: Style::new(),
            number: fg(Color::Magenta),
            boolean: fg(Color::Magenta),
            null: fg(Color::DarkGray),
            punct: fg(Color::DarkGray),
            masked: fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
            cursor: Style::new().bg(Color::Indexed(237)),
            absent: fg(Color::LightMagenta).add_modifier(Modifier::ITALIC),
            folded: fg(Color::DarkGray),
            border: fg(Color::DarkGray),
            border_focus: fg(Color::White).add_modifier(Modifier::BOLD),
            title: Style::new().add_modifier(Modifier::BOLD),
            header: Style::new().fg(Color::Black).bg(Color::Cyan),
            status: Style::new().bg(Color::Indexed(236)),
            hint_key: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            muted: fg(Color::DarkGray),
            selected_row: Style::new()
                .bg(Color::Indexed(238))
                .add_modifier(Modifier::BOLD),
            directive: fg(Color::LightMagenta),
            word_insert: fg(Color::Green).add_modifier(Modifier::UNDERLINED),
            word_delete: fg(Color::Red).add_modifier(Modifier::CROSSED_OUT),
            search: Style::new().fg(Color::Black).bg(Color::Yellow),
            error: fg(Color::Red).add_modifier(Modifier::BOLD),
            edited: fg(Color::LightYellow).add_modifier(Modifier::BOLD),
            conflict: Style::new()
                .fg(Color::White)
                .bg(Color::Red)
                .add_modifier(Modifier::BOLD),
        }
    }

    /// No colours: modifiers only (`NO_COLOR`).
    #[must_use]
    pub fn monochrome() -> Theme {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let dim = Style::new().add_modifier(Modifier::DIM);
        let rev = Style::new().add_modifier(Modifier::REVERSED);
        Theme {
            colour: false,
            add: bold,
            set: bold,
            clear: bold,
            retain: plain,
            unchanged: plain,
            warning: bold,
            key: plain,
            string: plain,
            number: plain,
            boolean: plain,
            null: dim,
            punct: dim,
            masked: dim,
            cursor: rev,
            absent: Style::new().add_modifier(Modifier::ITALIC),
            folded: dim,
            border: dim,
            border_focus: bold,
            title: bold,
            header: rev,
            status: plain,
            hint_key: bold,
            muted: dim,
            selected_row: rev,
            directive: bold,
            word_insert: Style::new().add_modifier(Modifier::UNDERLINED),
            word_delete: Style::new().add_modifier(Modifier::CROSSED_OUT),
            search: rev,
            error: bold,
            edited: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            conflict: Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
        }
    }

    /// The theme the environment asks for: none of colour when `NO_COLOR` is set and not empty
    /// (<https://no-color.org>).
    #[must_use]
    pub fn from_no_color(no_color: Option<&str>) -> Theme {
        match no_color {
            Some(v) if !v.is_empty() => Theme::monochrome(),
            _ => Theme::colour(),
        }
    }

    /// The style of an action.
    #[must_use]
    pub fn action(&self, action: Action) -> Style {
        match action {
            Action::Add => self.add,
            Action::Set => self.set,
            Action::Clear | Action::Delete => self.clear,
            Action::Retain | Action::Keep => self.retain,
            Action::Unchanged => self.unchanged,
        }
    }

    /// The style of a server-side field action: the client-side palette (add, set, remove as
    /// clear, keep as retain), and its own for a conflict.
    #[must_use]
    pub fn ssa_action(&self, action: SsaAction) -> Style {
        match action {
            SsaAction::Add => self.add,
            SsaAction::Set => self.set,
            SsaAction::Remove => self.clear,
            SsaAction::Keep => self.retain,
            SsaAction::Conflict => self.conflict,
        }
    }

    /// The style of an object list row's risk class.
    #[must_use]
    pub fn risk(&self, risk: Risk) -> Style {
        match risk {
            Risk::Error | Risk::Rejects => self.error,
            Risk::Warning => self.warning,
            Risk::Notice => self.directive,
            Risk::Removes => self.clear,
            Risk::Changes => self.set,
            Risk::Adds => self.add,
            Risk::None => self.muted,
        }
    }

    /// The style of a scalar.
    #[must_use]
    pub fn token(&self, tok: Tok) -> Style {
        match tok {
            Tok::Str => self.string,
            Tok::Num => self.number,
            Tok::Bool => self.boolean,
            Tok::Null => self.null,
            Tok::Punct => self.punct,
            Tok::Masked => self.masked,
        }
    }
}

/// The gutter glyph of an action: the signal that does not depend on colour.
#[must_use]
pub fn glyph(action: Action) -> char {
    match action {
        Action::Add => '+',
        Action::Set => '~',
        Action::Clear | Action::Delete => '-',
        Action::Retain | Action::Keep => '=',
        Action::Unchanged => ' ',
    }
}

/// The gutter glyph of a server-side field action (the client-side ones, `×` a conflict).
#[must_use]
pub fn ssa_glyph(action: SsaAction) -> char {
    match action {
        SsaAction::Add => '+',
        SsaAction::Set => '~',
        SsaAction::Remove => '-',
        SsaAction::Keep => '=',
        SsaAction::Conflict => '×',
    }
}

/// What each server-side action means, for the legend.
#[must_use]
pub fn ssa_meaning(action: SsaAction) -> &'static str {
    match action {
        SsaAction::Add => "added: the file sets it",
        SsaAction::Set => "set: the file sets another value",
        SsaAction::Remove => "pruned: you owned it, the file dropped it, nobody else owns it",
        SsaAction::Keep => "the value stays, its owners change (kept, shared, moved)",
        SsaAction::Conflict => "another manager owned it and the file changes it",
    }
}

/// The glyph of a field with a warning (or a conflict).
pub const WARNING_GLYPH: char = '!';

/// The glyph of a last-applied line edited and not yet committed.
pub const EDIT_GLYPH: char = '*';

/// What each action means, for the legend.
#[must_use]
pub fn meaning(action: Action) -> &'static str {
    match action {
        Action::Add => "absent from live, set from the file",
        Action::Set => "in live, changed to the file's value",
        Action::Clear => "removed from live (dropped from the file, or an explicit null)",
        Action::Retain => "live-only, kept: not in the file, never in last-applied",
        Action::Unchanged => "the same before and after",
        Action::Delete => "list element removed from live",
        Action::Keep => "live-only list element, kept",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_a_glyph_and_changes_are_visible_without_colour() {
        let mono = Theme::monochrome();
        for a in Action::ALL {
            let g = glyph(a);
            if a == Action::Unchanged {
                assert_eq!(g, ' ');
            } else {
                assert_ne!(g, ' ', "{a:?}");
            }
            assert!(mono.action(a).fg.is_none());
        }
    }

    #[test]
    fn no_color_means_no_colour() {
        assert!(!Theme::from_no_color(Some("1")).colour);
        assert!(Theme::from_no_color(Some("")).colour);
        assert!(Theme::from_no_color(None).colour);
    }
}
