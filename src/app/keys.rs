//! The keymap's table, as data: one row per `(mode, key notation, message, description,
//! hint)`. The runtime's `keymap` reads keys against it; the help screen, the key-hint bar and
//! the help's scroll limit ([`help_len`]) are made from it, so they cannot drift from what the
//! keys do. Key notation: see `keymap`.

use super::{Message, ModeKind};

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
        "cluster: apply (server dry run, then confirm; server-side in S)",
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

/// The bindings of a mode, in table order.
pub fn bindings(mode: ModeKind) -> impl Iterator<Item = &'static Binding> {
    BINDINGS.iter().filter(move |b| b.mode == mode)
}

/// The help screen's groups for a mode, in table order: the keys of one description together
/// (their notation as written in the table), and for search the row of typed characters.
#[must_use]
pub fn help_groups(mode: ModeKind) -> Vec<(Vec<&'static str>, &'static str)> {
    let mut groups: Vec<(Vec<&'static str>, &'static str)> = Vec::new();
    for b in bindings(mode) {
        match groups.iter_mut().find(|(_, d)| *d == b.description) {
            Some((keys, _)) => keys.push(b.key),
            None => groups.push((vec![b.key], b.description)),
        }
    }
    if mode == ModeKind::Search {
        groups.push((vec![TYPED], "type into the query"));
    }
    groups
}

/// The key column of search's row of typed characters.
pub const TYPED: &str = "any";

/// Lines the help screen shows: each mode with keys, a title line and its rows.
#[must_use]
pub fn help_len() -> usize {
    ModeKind::ALL
        .iter()
        .map(|m| help_groups(*m).len())
        .filter(|n| *n > 0)
        .map(|n| n + 1)
        .sum()
}
