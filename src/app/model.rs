//! The model: the plan, the four panes as YAML lines aligned by field path, the cursor (a
//! field of the plan), folds, and the mode.
//!
//! | file | owns |
//! |---|---|
//! | `model.rs` | [`Model`] and its panes: building them from a plan, what is at a node |
//! | `model/navigate.rs` | moving the cursor: lines, pages, next change, a field, a warning |
//! | `model/folds.rs` | folding and what stays visible |
//! | `model/search.rs` | search matches |
//! | `model/docs.rs` | the documents planned, the live object held once |
//! | `model/patches.rs` | the patch view's texts: while idle, or when first shown |

mod docs;
mod folds;
mod navigate;
mod patches;
mod search;

use crate::value::Value;

use super::edit::EditState;
use super::lines::{Lines, Visible};
use super::marks;
use super::patch::PatchDoc;
use super::project::{self, ANNOTATION_WIDTH, Metadata, Render, Side};
use super::{Mode, Source};
use crate::engine::gofmt::{FastMap, FastSet};
use crate::engine::plan::{Action, Doc, FieldId, Plan, Tree};
use crate::error::Error;
use crate::session::Docs;
pub use docs::Held;
use navigate::stops;

/// Absent in a `Vec<u32>` index.
const NONE: u32 = u32::MAX;

/// Which document a pane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaneKind {
    LastApplied,
    Local,
    Live,
    Result,
}

impl PaneKind {
    pub const ALL: [PaneKind; 4] = [
        PaneKind::LastApplied,
        PaneKind::Local,
        PaneKind::Live,
        PaneKind::Result,
    ];

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            PaneKind::LastApplied => "last-applied",
            PaneKind::Local => "local",
            PaneKind::Live => "live",
            PaneKind::Result => "result",
        }
    }

    /// The plan's document the pane shows (the file's and the live object as the plan read
    /// them: their items are where the plan's are).
    #[must_use]
    pub fn doc(self) -> Doc {
        match self {
            PaneKind::LastApplied => Doc::LastApplied,
            PaneKind::Local => Doc::Local,
            PaneKind::Live => Doc::Live,
            PaneKind::Result => Doc::Result,
        }
    }

    /// What an empty pane means.
    #[must_use]
    pub fn absent(self) -> &'static str {
        match self {
            PaneKind::LastApplied => "(none: no last-applied annotation; the merge is two-way)",
            PaneKind::Local => "(no local file)",
            PaneKind::Live => "(none: the object does not exist yet; apply creates it)",
            PaneKind::Result => "(no result)",
        }
    }
}

/// One pane: a document's lines, where each path is, and which lines folds leave visible.
#[derive(Debug)]
pub struct Pane {
    pub kind: PaneKind,
    /// Does the document exist?
    pub present: bool,
    pub lines: Lines,
    /// The first line of each node (by [`FieldId`]), or `u32::MAX`.
    line_of: Vec<u32>,
    /// Indices of the lines folds leave visible, ascending.
    pub visible: Visible,
    /// The result pane shows the server's dry-run answer, not the planned result.
    pub server_answer: bool,
}

impl Pane {
    /// The lines showing these nodes, or for a node not shown (a removed path), its nearest
    /// ancestor's: the (edited) last-applied pane's lines to mark.
    #[must_use]
    pub fn lines_of(&self, tree: &Tree, ids: &[FieldId]) -> FastSet<u32> {
        ids.iter()
            .filter_map(|id| self.locate(tree, *id).map(|(line, _)| line))
            .collect()
    }

    /// The line showing a node, or the nearest ancestor's line (`exact` false).
    #[must_use]
    pub fn locate(&self, tree: &Tree, id: FieldId) -> Option<(u32, bool)> {
        let mut at = Some(id);
        let mut exact = true;
        while let Some(i) = at {
            if let Some(&line) = self.line_of.get(i.index())
                && line != NONE
            {
                return Some((line, exact));
            }
            exact = false;
            at = tree.parent(i);
        }
        None
    }

    /// Note the first line of each node (`nodes`: how many the tree has).
    fn index_lines(&mut self, nodes: usize) {
        self.line_of = vec![NONE; nodes];
        for (i, line) in self.lines.iter().enumerate() {
            let i = u32::try_from(i).unwrap_or(NONE);
            for id in std::iter::once(line.path).chain(line.also()) {
                if let Some(slot) = self.line_of.get_mut(id.index())
                    && *slot == NONE
                {
                    *slot = i;
                }
            }
        }
    }
}

/// The TUI's state.
#[derive(Debug)]
pub struct Model {
    pub title: String,
    pub about: String,
    pub plan: Plan,
    /// The documents the plan was computed from that it does not hold (an edit replaces
    /// `last_applied`): the file's object is the plan's ([`Plan::local`]), and so is the live
    /// object when the plan holds it as read (no last-applied given: `live` is then `None`).
    /// Read it with [`Model::live`].
    pub docs: Held,
    /// Edits of last-applied: options, the committed document, undo and redo.
    pub edit: EditState,
    /// The nodes where last-applied differs from the committed one (the topmost of each change).
    pub edited: Vec<FieldId>,
    /// The last-applied pane's lines that carry an edit mark.
    pub edit_lines: FastSet<u32>,
    /// A Secret: `data`/`stringData` are masked unless revealed.
    pub secret: bool,
    pub panes: Vec<Pane>,
    /// The first warning of each plan field that has one (most have none: no slot per field).
    field_warning: FastMap<u32, u32>,
    /// Fields `n`/`N` stop at: the deepest changes, and the tops of added/removed subtrees.
    pub stops: Vec<bool>,
    /// The fields folds leave visible (plan indices, ascending): what the cursor moves over.
    pub nav: Visible,
    /// Position in `nav`.
    pub cursor: usize,
    /// The focused pane (narrow layouts show only it).
    pub focus: usize,
    pub folded: FastSet<FieldId>,
    pub why: bool,
    pub reveal: bool,
    pub mode: Mode,
    /// A one-line message for the status bar.
    pub notice: Option<String>,
    /// The terminal's size, as last reported.
    pub size: (u16, u16),
    /// The patch view's documents, computed when first shown.
    pub patches: Option<Vec<PatchDoc>>,
    /// How many fields have each action (in [`Action::ALL`] order).
    pub counts: [usize; 7],
    /// Last-applied differs from the committed one (`edit.base`), computed once per plan: the
    /// comparison walks both documents, and every frame asks.
    pub(super) pending_edits: bool,
    /// The field manager a server-side plan applies as.
    pub field_manager: String,
    /// The server-side view (`S`); `None`: the client-side plan.
    pub server: Option<Box<super::ssa::ServerSide>>,
    /// Show each line's owners (`o`).
    pub owners: bool,
    /// Per pane, what the session found for each line (owners, the server-side field); `None`
    /// for a pane that shows neither.
    pub facts: Vec<Option<crate::session::ssa::NodeFacts>>,
}

impl Model {
    /// Plan the source's documents and build the model.
    ///
    /// # Errors
    /// The plan's [`Error`] (inputs kubectl would refuse).
    pub fn new(mut source: Source) -> Result<Model, Error> {
        let plan = crate::session::plan::compute_sharing(&mut source.docs)?;
        Ok(Model::with_plan(source, plan))
    }

    /// Build the model of a computed plan.
    #[must_use]
    pub fn with_plan(source: Source, plan: Plan) -> Model {
        let edit = EditState::default();
        Model::build(source.title, source.about, source.docs, plan, edit, false)
    }

    /// Build the model of a computed plan with an edit state; `pending`: whether last-applied
    /// differs from `edit.base` (the caller knows without comparing the documents, or compares).
    pub(super) fn build(
        title: String,
        about: String,
        docs: Docs,
        mut plan: Plan,
        edit: EditState,
        pending: bool,
    ) -> Model {
        // The file's object is the plan's (`Plan::local`): a copy of it is dropped here.
        let Docs {
            live, last_applied, ..
        } = docs;
        let mut docs = Held { live, last_applied };
        if docs.last_applied.is_none() && plan.live.is_some() {
            // The plan holds the live object as read: the one copy (see `Model::docs`).
            docs.live = None;
        }
        let secret = plan.is_secret();
        // The live pane draws the plan's live object unless a copy as read is kept.
        let live_is_plans = docs.live.is_none();
        let file_metadata = plan.file_metadata().cloned();
        let Plan {
            tree,
            last_applied,
            result,
            live: plan_live,
            modified,
            ..
        } = &mut plan;
        let local = &*modified;
        let last_applied = last_applied.as_ref();
        let live = docs.live.as_ref().or(plan_live.as_ref());
        // The local pane draws kubectl's object as the file's: with the file's `metadata`.
        // (Counterparts are read for masks and word diffs only, outside `metadata`.)
        let sources: [(PaneKind, Option<&Value>, Option<&Value>, Side); 4] = [
            (
                PaneKind::LastApplied,
                last_applied,
                Some(local),
                Side::Before,
            ),
            (PaneKind::Local, Some(local), last_applied, Side::After),
            (PaneKind::Live, live, Some(&*result), Side::Before),
            (PaneKind::Result, Some(&*result), live, Side::After),
        ];
        let mut expected = 0;
        let mut panes: Vec<Pane> = sources
            .iter()
            .map(|(kind, doc, counterpart, side)| {
                let how = Render {
                    doc: Some(kind.doc()),
                    counterpart: *counterpart,
                    side: *side,
                    secret,
                    annotation_width: ANNOTATION_WIDTH,
                    word_diff: *kind == PaneKind::Result,
                    metadata: match kind {
                        PaneKind::Local => Metadata::File(file_metadata.as_ref()),
                        _ => Metadata::Own,
                    },
                    placed: *kind != PaneKind::Live || live_is_plans,
                };
                let lines = doc.map_or_else(Lines::default, |d| {
                    project::pane_lines_sized(d, tree, &how, expected)
                });
                expected = expected.max(lines.len() + lines.len() / 16);
                Pane {
                    kind: *kind,
                    present: doc.is_some(),
                    visible: Visible::All(u32::try_from(lines.len()).unwrap_or(NONE)),
                    lines,
                    line_of: Vec::new(),
                    server_answer: false,
                }
            })
            .collect();
        // The committed last-applied's nodes too, so edits that removed something have a node
        // (its lines are not kept: only the nodes they add).
        if let (Some(base), true) = (edit.base(last_applied), pending) {
            let how = Render {
                doc: None,
                counterpart: Some(local),
                side: Side::Before,
                secret,
                annotation_width: ANNOTATION_WIDTH,
                word_diff: false,
                metadata: Metadata::Own,
                placed: false,
            };
            project::pane_lines(base, tree, &how);
        }
        for pane in &mut panes {
            pane.index_lines(tree.node_count());
        }
        let field_warning = field_warnings(&plan);
        let stops = stops(&plan.tree);
        let nav = Visible::All(u32::try_from(plan.tree.len()).unwrap_or(NONE));
        let mut counts = [0; 7];
        for action in plan.tree.actions() {
            if let Some(i) = Action::ALL.iter().position(|a| *a == action) {
                counts[i] += 1;
            }
        }
        let (edited, edit_lines) = if pending {
            let base = edit.base(plan.last_applied.as_ref());
            let edited = marks::edited(&plan.tree, base, plan.last_applied.as_ref());
            let lines = panes
                .iter()
                .find(|p| p.kind == PaneKind::LastApplied)
                .map(|p| p.lines_of(&plan.tree, &edited))
                .unwrap_or_default();
            (edited, lines)
        } else {
            (Vec::new(), FastSet::default())
        };
        Model {
            counts,
            title,
            about,
            docs,
            edit,
            edited,
            edit_lines,
            secret,
            panes,
            field_warning,
            stops,
            nav,
            cursor: 0,
            focus: PaneKind::ALL.len() - 1,
            folded: FastSet::default(),
            why: true,
            reveal: false,
            mode: Mode::Browse,
            notice: None,
            size: (80, 24),
            patches: None,
            pending_edits: pending,
            plan,
            field_manager: super::ssa::FIELD_MANAGER.to_owned(),
            server: None,
            owners: false,
            facts: Vec::new(),
        }
    }

    /// Show the server's dry-run answer in the result pane, aligned with the other panes, until
    /// the next plan (`R`, an edit) brings the planned result back.
    pub(crate) fn show_server_result(&mut self, answer: &Value) {
        self.show_result(answer, None);
        if let Some(pane) = self.panes.iter_mut().find(|p| p.kind == PaneKind::Result) {
            pane.server_answer = true;
        }
        super::ssa::refresh(self);
    }

    /// The result pane shows `value` (`doc`: which of the plan's documents it is, if one; else
    /// its nodes are found by step).
    pub(super) fn show_result(&mut self, value: &Value, doc: Option<Doc>) {
        self.show_in(PaneKind::Result, value, doc);
        if let Some(pane) = self.panes.iter_mut().find(|p| p.kind == PaneKind::Result) {
            pane.server_answer = false;
        }
    }

    /// A pane shows `value`, rendered as [`Model::build`] renders that pane's document.
    pub(super) fn show_in(&mut self, kind: PaneKind, value: &Value, doc: Option<Doc>) {
        let Some(index) = self.panes.iter().position(|p| p.kind == kind) else {
            return;
        };
        let (counterpart, side) = match kind {
            PaneKind::Live => (Some(&self.plan.result), Side::Before),
            _ => (
                self.docs.live.as_ref().or(self.plan.live.as_ref()),
                Side::After,
            ),
        };
        let how = Render {
            doc,
            counterpart,
            side,
            secret: self.secret,
            annotation_width: ANNOTATION_WIDTH,
            word_diff: kind == PaneKind::Result,
            metadata: Metadata::Own,
            // The plan's document itself: its values are written from it when shown.
            placed: doc.is_some_and(|d| {
                self.plan.docs()[d as usize].is_some_and(|p| std::ptr::eq(p, value))
            }),
        };
        let lines = project::pane_lines(value, &mut self.plan.tree, &how);
        let nodes = self.plan.tree.node_count();
        if let Some(pane) = self.panes.get_mut(index) {
            pane.lines = lines;
            pane.present = true;
        }
        // Every pane: the document may have added nodes.
        for pane in &mut self.panes {
            pane.index_lines(nodes);
        }
        self.refold();
    }

    /// The plan's document a pane's values not kept are written from ([`Lines::value`]).
    #[must_use]
    pub fn lines_doc(&self, lines: &Lines) -> Option<&Value> {
        lines.from().and_then(|d| self.plan.docs()[d as usize])
    }

    /// The selected plan field.
    #[must_use]
    pub fn current_field(&self) -> Option<usize> {
        self.nav.get(self.cursor).map(|i| i as usize)
    }

    /// The selected node (the root when there are no fields).
    #[must_use]
    pub fn current_path(&self) -> FieldId {
        self.current_field()
            .and_then(|f| self.plan.tree.nth(f))
            .unwrap_or(FieldId::ROOT)
    }

    /// The action shown for a node: its own field's, or its nearest ancestor's; and whether
    /// that field has a warning.
    #[must_use]
    pub fn action_at(&self, id: FieldId) -> Option<(Action, bool)> {
        let f = self.field_of_path(id)?;
        let action = self.plan.tree.action(self.plan.tree.nth(f)?);
        let warned = self.field_warning(f).is_some();
        Some((action, warned))
    }

    /// The plan field of a node, or of its nearest ancestor that is one.
    #[must_use]
    pub fn field_of_path(&self, id: FieldId) -> Option<usize> {
        let tree = &self.plan.tree;
        let mut at = Some(id);
        while let Some(i) = at {
            if tree.is_field(i) {
                return tree.position(i);
            }
            at = tree.parent(i);
        }
        None
    }

    /// The first warning of the `f`-th plan field (an index into the plan's warnings).
    #[must_use]
    pub fn field_warning(&self, f: usize) -> Option<usize> {
        let f = u32::try_from(f).ok()?;
        self.field_warning.get(&f).map(|w| *w as usize)
    }

    /// The text width inside a full-width overlay (border and margins off).
    #[must_use]
    pub fn overlay_width(&self) -> usize {
        usize::from(self.size.0.saturating_sub(6)).max(1)
    }
}

/// The first warning of each plan field that has one.
fn field_warnings(plan: &Plan) -> FastMap<u32, u32> {
    let mut first = FastMap::default();
    for w in 0..plan.warnings.len() {
        if let Some(f) = plan
            .warning_field(w)
            .and_then(|id| plan.tree.position(id))
            .and_then(|f| u32::try_from(f).ok())
            && let Ok(w) = u32::try_from(w)
        {
            first.entry(f).or_insert(w);
        }
    }
    first
}
