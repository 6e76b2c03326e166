//! The TUI's modes: what the keys act on (browsing the panes, a search being typed, the patch
//! view, the warnings list, an overlay, a commit to confirm), each with its own state, and
//! their kinds, which name the keymap's sections.

use super::{AnnotationPreview, CommitPreview, EditorSession};

/// The search being typed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Search {
    pub query: String,
    /// Matching fields (indices into the plan's fields, in order).
    pub matches: Vec<usize>,
    /// Which match the cursor is on.
    pub at: usize,
    /// The cursor before the search (restored on cancel).
    pub origin: usize,
}

/// The patch view's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PatchView {
    pub tab: usize,
    pub scroll: usize,
}

/// What the screen shows, with the data each mode needs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// The panes.
    #[default]
    Browse,
    Search(Search),
    Patch(PatchView),
    /// The warnings list, with the selected warning.
    Warnings(usize),
    /// The help screen, scrolled, over the mode it came from.
    Help {
        scroll: usize,
        back: Box<Mode>,
    },
    Legend,
    /// The commit confirmation: the diff, the sizes, what `y` writes.
    Confirm(Box<CommitPreview>),
    /// The annotation a commit would store, scrolled.
    Annotation {
        scroll: usize,
        preview: Box<AnnotationPreview>,
    },
    /// A write was refused (the file changed on disk): the message; reload is offered.
    Refused(String),
    /// The editor is open (the runtime runs it).
    Editor(Box<EditorSession>),
    /// kubectl's server-side requests and what each changed, scrolled.
    Steps(usize),
}

/// A mode's name, for the keymap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModeKind {
    Browse,
    Search,
    Patch,
    Warnings,
    Help,
    Legend,
    Confirm,
    Annotation,
    Refused,
    Editor,
    /// The object list (input holding several objects).
    List,
    /// The screen before the run knows what it opens (not in the help screen: the status bar
    /// shows its few keys).
    Loading,
    Steps,
}

impl ModeKind {
    /// Every mode, in help order.
    pub const ALL: [ModeKind; 12] = [
        ModeKind::Browse,
        ModeKind::Search,
        ModeKind::Patch,
        ModeKind::Warnings,
        ModeKind::Steps,
        ModeKind::Confirm,
        ModeKind::Annotation,
        ModeKind::Refused,
        ModeKind::Help,
        ModeKind::Legend,
        ModeKind::Editor,
        ModeKind::List,
    ];

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ModeKind::Browse => "panes",
            ModeKind::Search => "search",
            ModeKind::Patch => "patch view",
            ModeKind::Warnings => "warnings",
            ModeKind::Help => "help",
            ModeKind::Legend => "legend",
            ModeKind::Confirm => "commit",
            ModeKind::Annotation => "annotation",
            ModeKind::Refused => "commit refused",
            ModeKind::Editor => "editor",
            ModeKind::List => "object list",
            ModeKind::Loading => "loading",
            ModeKind::Steps => "server-side steps",
        }
    }
}

impl Mode {
    #[must_use]
    pub fn kind(&self) -> ModeKind {
        match self {
            Mode::Browse => ModeKind::Browse,
            Mode::Search(_) => ModeKind::Search,
            Mode::Patch(_) => ModeKind::Patch,
            Mode::Warnings(_) => ModeKind::Warnings,
            Mode::Help { .. } => ModeKind::Help,
            Mode::Legend => ModeKind::Legend,
            Mode::Confirm(_) => ModeKind::Confirm,
            Mode::Annotation { .. } => ModeKind::Annotation,
            Mode::Refused(_) => ModeKind::Refused,
            Mode::Editor(_) => ModeKind::Editor,
            Mode::Steps(_) => ModeKind::Steps,
        }
    }
}
