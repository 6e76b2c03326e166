//! The model: the plan, the four panes as YAML lines aligned by field path, the cursor (a
//! field of the plan), folds, and the mode.

use crate::value::Value;

use super::edit::EditState;
use super::files::Docs;
use super::marks;
use super::patch::{PatchDoc, patch_docs};
use super::yaml::{self, ANNOTATION_WIDTH, DocLine, ElemSeg, PathId, Paths, Render, Side};
use super::{Mode, Search, Source, is_change};
use crate::cli::CliError;
use crate::engine::gofmt::{FastMap, FastSet, sprint};
use crate::engine::plan::{Action, Plan, Seg as PlanSeg};

/// How the last-applied annotation's path ends.
const ANNOTATION_PATH_TAIL: &str = "[\"kubectl.kubernetes.io/last-applied-configuration\"]";

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
    pub lines: Vec<DocLine>,
    /// The first line of each path (by [`PathId`]), or `u32::MAX`.
    line_of: Vec<u32>,
    /// Indices of the lines folds leave visible, ascending.
    pub visible: Vec<u32>,
    /// The result pane shows the server's dry-run answer, not the planned result.
    pub server_answer: bool,
}

impl Pane {
    /// The line showing a path, or the nearest ancestor's line (`exact` false).
    #[must_use]
    pub fn locate(&self, paths: &Paths, id: PathId) -> Option<(u32, bool)> {
        let mut at = Some(id);
        let mut exact = true;
        while let Some(i) = at {
            if let Some(&line) = self.line_of.get(i as usize)
                && line != NONE
            {
                return Some((line, exact));
            }
            exact = false;
            at = paths.parent(i);
        }
        None
    }
}

/// The TUI's state.
#[derive(Debug)]
pub struct Model {
    pub title: String,
    pub about: String,
    pub plan: Plan,
    /// The documents the plan was computed from (an edit replaces `last_applied`).
    pub docs: Docs,
    /// Edits of last-applied: options, the committed document, undo and redo.
    pub edit: EditState,
    /// The paths where last-applied differs from the committed one (the topmost of each change).
    pub edited: Vec<PathId>,
    /// The last-applied pane's lines that carry an edit mark.
    pub edit_lines: FastSet<u32>,
    /// A Secret: `data`/`stringData` are masked unless revealed.
    pub secret: bool,
    pub paths: Paths,
    pub panes: Vec<Pane>,
    /// Each plan field's path.
    pub field_path: Vec<PathId>,
    /// The plan field at each path, or `u32::MAX`.
    field_at: Vec<u32>,
    /// Each plan field's first warning.
    pub field_warning: Vec<Option<usize>>,
    /// Fields `n`/`N` stop at: the deepest changes, and the tops of added/removed subtrees.
    pub stops: Vec<bool>,
    /// The fields folds leave visible (plan indices, ascending): what the cursor moves over.
    pub nav: Vec<u32>,
    /// Position in `nav`.
    pub cursor: usize,
    /// The focused pane (narrow layouts show only it).
    pub focus: usize,
    pub folded: FastSet<PathId>,
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
    /// How each list names its elements (for rendering a document aligned with the plan).
    lists: FastMap<String, ElemSeg>,
    /// Last-applied differs from the committed one (`edit.base`), computed once per plan: the
    /// comparison walks both documents, and every frame asks.
    pub(super) pending_edits: bool,
}

impl Model {
    /// Plan the source's documents and build the model.
    ///
    /// # Errors
    /// The plan's [`CliError`] (inputs kubectl would refuse).
    pub fn new(source: Source) -> Result<Model, CliError> {
        let plan = crate::cli::plan::compute(&source.docs, None, true)?;
        Ok(Model::with_plan(source, plan))
    }

    /// Build the model of a computed plan.
    #[must_use]
    pub fn with_plan(source: Source, plan: Plan) -> Model {
        let edit = EditState::new(plan.last_applied.clone());
        Model::build(
            source.title,
            source.about,
            Docs::from_plan_docs(source.docs),
            plan,
            edit,
            false,
        )
    }

    /// Build the model of a computed plan with an edit state; `pending`: whether last-applied
    /// differs from `edit.base` (the caller knows without comparing the documents, or compares).
    pub(super) fn build(
        title: String,
        about: String,
        docs: Docs,
        plan: Plan,
        edit: EditState,
        pending: bool,
    ) -> Model {
        let mut paths = Paths::new();
        let (field_path, lists) = intern_fields(&mut paths, &plan);
        let secret = yaml::is_secret(&docs.local);
        let last_applied = plan.last_applied.as_ref();
        let sources: [(PaneKind, Option<&Value>, Option<&Value>, Side); 4] = [
            (
                PaneKind::LastApplied,
                last_applied,
                Some(&docs.local),
                Side::Before,
            ),
            (
                PaneKind::Local,
                Some(&docs.local),
                last_applied,
                Side::After,
            ),
            (
                PaneKind::Live,
                docs.live.as_ref(),
                Some(&plan.result),
                Side::Before,
            ),
            (
                PaneKind::Result,
                Some(&plan.result),
                docs.live.as_ref(),
                Side::After,
            ),
        ];
        let mut expected = 0;
        let mut panes: Vec<Pane> = sources
            .iter()
            .map(|(kind, doc, counterpart, side)| {
                let how = Render {
                    lists: &lists,
                    counterpart: *counterpart,
                    side: *side,
                    secret,
                    annotation_width: ANNOTATION_WIDTH,
                    word_diff: *kind == PaneKind::Result,
                };
                let lines = doc.map_or_else(Vec::new, |d| {
                    yaml::render_sized(d, &mut paths, &how, expected)
                });
                expected = expected.max(lines.len() + lines.len() / 16);
                Pane {
                    kind: *kind,
                    present: doc.is_some(),
                    visible: (0..u32::try_from(lines.len()).unwrap_or(NONE)).collect(),
                    lines,
                    line_of: Vec::new(),
                    server_answer: false,
                }
            })
            .collect();
        // The committed last-applied's paths too, so edits that removed something have a path
        // (its lines are not kept: only the paths they intern).
        if let (Some(base), true) = (&edit.base, pending) {
            let how = Render {
                lists: &lists,
                counterpart: Some(&docs.local),
                side: Side::Before,
                secret,
                annotation_width: ANNOTATION_WIDTH,
                word_diff: false,
            };
            yaml::render(base, &mut paths, &how);
        }
        for pane in &mut panes {
            pane.line_of = vec![NONE; paths.len()];
            for (i, line) in pane.lines.iter().enumerate() {
                let i = u32::try_from(i).unwrap_or(NONE);
                for id in std::iter::once(line.path).chain(line.also) {
                    if let Some(slot) = pane.line_of.get_mut(id as usize)
                        && *slot == NONE
                    {
                        *slot = i;
                    }
                }
            }
        }
        let mut field_at = vec![NONE; paths.len()];
        for (i, id) in field_path.iter().enumerate() {
            if let Some(slot) = field_at.get_mut(*id as usize) {
                *slot = u32::try_from(i).unwrap_or(NONE);
            }
        }
        let mut field_warning = vec![None; plan.tree.len()];
        for (w, warning) in plan.warnings.iter().enumerate() {
            if let Some(i) = warning
                .path
                .as_deref()
                .and_then(|p| paths.find(p))
                .and_then(|id| field_at.get(id as usize))
                .filter(|i| **i != NONE)
                && let Some(slot) = field_warning.get_mut(*i as usize)
            {
                slot.get_or_insert(w);
            }
        }
        let stops = stops(&plan, &field_path, &field_at, &paths);
        let nav = (0..u32::try_from(plan.tree.len()).unwrap_or(NONE)).collect();
        let mut counts = [0; 7];
        for id in plan.tree.ids() {
            if let Some(i) = Action::ALL.iter().position(|a| *a == plan.tree.action(id)) {
                counts[i] += 1;
            }
        }
        let (edited, edit_lines) = if pending {
            let edited = marks::edited(
                &paths,
                &lists,
                edit.base.as_ref(),
                plan.last_applied.as_ref(),
            );
            let lines = panes
                .iter()
                .find(|p| p.kind == PaneKind::LastApplied)
                .map(|p| marks::lines(p, &paths, &edited))
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
            paths,
            panes,
            field_path,
            field_at,
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
            lists,
            plan,
        }
    }

    /// Show the server's dry-run answer in the result pane, aligned with the other panes, until
    /// the next plan (`R`, an edit) brings the planned result back.
    pub(crate) fn show_server_result(&mut self, answer: &Value) {
        let Some(index) = self.panes.iter().position(|p| p.kind == PaneKind::Result) else {
            return;
        };
        let how = Render {
            lists: &self.lists,
            counterpart: self.docs.live.as_ref(),
            side: Side::After,
            secret: self.secret,
            annotation_width: ANNOTATION_WIDTH,
            word_diff: true,
        };
        let lines = yaml::render(answer, &mut self.paths, &how);
        let mut line_of = vec![NONE; self.paths.len()];
        for (i, line) in lines.iter().enumerate() {
            let i = u32::try_from(i).unwrap_or(NONE);
            for id in std::iter::once(line.path).chain(line.also) {
                if let Some(slot) = line_of.get_mut(id as usize)
                    && *slot == NONE
                {
                    *slot = i;
                }
            }
        }
        if let Some(pane) = self.panes.get_mut(index) {
            pane.lines = lines;
            pane.line_of = line_of;
            pane.present = true;
            pane.server_answer = true;
        }
        self.refold();
    }

    /// The selected plan field.
    #[must_use]
    pub fn current_field(&self) -> Option<usize> {
        self.nav.get(self.cursor).map(|i| *i as usize)
    }

    /// The selected path (the root when there are no fields).
    #[must_use]
    pub fn current_path(&self) -> PathId {
        self.current_field()
            .and_then(|f| self.field_path.get(f).copied())
            .unwrap_or(Paths::ROOT)
    }

    /// The action shown for a path: its own field's, or its nearest ancestor's; and whether
    /// that field has a warning.
    #[must_use]
    pub fn action_at(&self, id: PathId) -> Option<(Action, bool)> {
        let mut at = Some(id);
        while let Some(i) = at {
            if let Some(&f) = self.field_at.get(i as usize)
                && f != NONE
            {
                let f = f as usize;
                let action = self.plan.tree.action(self.plan.tree.nth(f)?);
                let warned = self.field_warning.get(f).copied().flatten().is_some();
                return Some((action, warned));
            }
            at = self.paths.parent(i);
        }
        None
    }

    /// The plan field of a path, or of its nearest ancestor that is one.
    #[must_use]
    pub fn field_of_path(&self, id: PathId) -> Option<usize> {
        let mut at = Some(id);
        while let Some(i) = at {
            if let Some(&f) = self.field_at.get(i as usize)
                && f != NONE
            {
                return Some(f as usize);
            }
            at = self.paths.parent(i);
        }
        None
    }

    /// The text width inside a full-width overlay (border and margins off).
    #[must_use]
    pub fn overlay_width(&self) -> usize {
        usize::from(self.size.0.saturating_sub(6)).max(1)
    }

    /// How many fields a page moves.
    #[must_use]
    pub fn page(&self) -> isize {
        (isize::try_from(self.size.1).unwrap_or(isize::MAX) - 10).max(1)
    }

    pub(crate) fn move_by(&mut self, by: isize) {
        let last = self.nav.len().saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(by).min(last);
    }

    pub(crate) fn next_change(&mut self, forward: bool) {
        let n = self.nav.len();
        if n == 0 {
            return;
        }
        let is_stop = |pos: usize| {
            self.nav
                .get(pos)
                .and_then(|f| self.stops.get(*f as usize))
                .copied()
                .unwrap_or(false)
        };
        for step in 1..=n {
            let pos = if forward {
                (self.cursor + step) % n
            } else {
                (self.cursor + n * 2 - step) % n
            };
            if is_stop(pos) {
                let wrapped = if forward {
                    pos <= self.cursor
                } else {
                    pos >= self.cursor
                };
                if wrapped {
                    self.notice = Some(if forward {
                        "search wrapped to the first change".into()
                    } else {
                        "search wrapped to the last change".into()
                    });
                }
                self.cursor = pos;
                return;
            }
        }
        self.notice = Some("no changes: kubectl leaves the live object as it is".into());
    }

    /// Select a plan field, unfolding what hides it.
    pub(crate) fn select_field(&mut self, field: usize) {
        let Some(&id) = self.field_path.get(field) else {
            return;
        };
        let hidden: Vec<PathId> = self
            .folded
            .iter()
            .copied()
            .filter(|f| self.paths.is_strict_ancestor(*f, id))
            .collect();
        if !hidden.is_empty() {
            for f in hidden {
                self.folded.remove(&f);
            }
            self.refold();
        }
        let f = u32::try_from(field).unwrap_or(NONE);
        if let Ok(pos) = self.nav.binary_search(&f) {
            self.cursor = pos;
        }
    }

    /// Fold or unfold the selected field.
    pub(crate) fn toggle_fold(&mut self) {
        let Some(field) = self.current_field() else {
            return;
        };
        let id = self.current_path();
        if !self.folded.remove(&id) {
            let has_children = self
                .field_path
                .get(field + 1)
                .is_some_and(|next| self.paths.is_strict_ancestor(id, *next));
            if !has_children {
                self.notice = Some("nothing to fold here".into());
                return;
            }
            self.folded.insert(id);
        }
        self.refold();
        if let Ok(pos) = self
            .nav
            .binary_search(&u32::try_from(field).unwrap_or(NONE))
        {
            self.cursor = pos;
        }
    }

    fn hidden(&self, id: PathId) -> bool {
        !self.folded.is_empty()
            && self
                .folded
                .iter()
                .any(|f| self.paths.is_strict_ancestor(*f, id))
    }

    /// Recompute what folds leave visible.
    pub(super) fn refold(&mut self) {
        let nav: Vec<u32> = (0..self.field_path.len())
            .filter(|f| !self.hidden(self.field_path[*f]))
            .filter_map(|f| u32::try_from(f).ok())
            .collect();
        let visible: Vec<Vec<u32>> = self
            .panes
            .iter()
            .map(|pane| {
                let mut folded_block = None;
                pane.lines
                    .iter()
                    .enumerate()
                    .filter(|(_, line)| {
                        // Continuation lines of a folded block scalar fold with their key.
                        let cont = line.key.is_none() && !line.dash;
                        let show =
                            !(self.hidden(line.path) || (cont && folded_block == Some(line.path)));
                        if line.key.is_some() && self.folded.contains(&line.path) {
                            folded_block = Some(line.path);
                        }
                        show
                    })
                    .filter_map(|(i, _)| u32::try_from(i).ok())
                    .collect()
            })
            .collect();
        for (pane, v) in self.panes.iter_mut().zip(visible) {
            pane.visible = v;
        }
        self.nav = nav;
        self.cursor = self.cursor.min(self.nav.len().saturating_sub(1));
    }

    /// Find the fields matching the query (paths and values, ignoring case) and go to the first
    /// one after where the search started.
    pub(crate) fn run_search(&mut self, s: &mut Search) {
        s.matches.clear();
        s.at = 0;
        if s.query.is_empty() {
            self.cursor = s.origin;
            return;
        }
        let q = s.query.to_lowercase();
        let hit = |text: &str| text.to_lowercase().contains(&q);
        for &f in &self.nav {
            let f = f as usize;
            let Some(field) = self.plan.nth_field(f) else {
                continue;
            };
            let path = self.field_path.get(f).map_or("", |id| self.paths.text(*id));
            let value = |v: Option<&Value>| {
                v.is_some_and(|v| !v.is_object() && !v.is_array() && hit(&sprint(v)))
            };
            // The annotation's value repeats the whole configuration: match its path only.
            let annotation = path.ends_with(ANNOTATION_PATH_TAIL);
            if hit(path) || (!annotation && (value(field.result) || value(field.live))) {
                s.matches.push(f);
            }
        }
        let origin = self.nav.get(s.origin).copied().unwrap_or(0) as usize;
        s.at = s.matches.iter().position(|f| *f >= origin).unwrap_or(0);
        match s.matches.get(s.at) {
            Some(&f) => self.select_field(f),
            None => self.cursor = s.origin,
        }
    }

    /// The field a warning concerns.
    #[must_use]
    pub fn warning_field(&self, warning: usize) -> Option<usize> {
        self.field_warning
            .iter()
            .position(|w| *w == Some(warning))
            .or_else(|| {
                let path = self.plan.warnings.get(warning)?.path.as_deref()?;
                let id = self.paths.find(path)?;
                let f = *self.field_at.get(id as usize)?;
                (f != NONE).then_some(f as usize)
            })
    }

    pub(crate) fn ensure_patches(&mut self) {
        if self.patches.is_none() {
            self.patches = Some(patch_docs(
                &self.plan,
                self.docs.live.as_ref(),
                self.secret,
                self.reveal,
            ));
        }
    }
}

/// Every plan field's path id, interned step by step (the fields come parent first, so each
/// reuses the steps it shares with the one before), and how each list names its elements
/// (merge key, set item or position: the panes name their lines the same way).
fn intern_fields(paths: &mut Paths, plan: &Plan) -> (Vec<PathId>, FastMap<String, ElemSeg>) {
    let mut lists: FastMap<String, ElemSeg> = FastMap::default();
    let tree = &plan.tree;
    // The path of every node (the root's first); a node comes after its parent.
    let mut ids = Vec::with_capacity(tree.len() + 1);
    ids.push(Paths::ROOT);
    paths.reserve(tree.len());
    for f in tree.ids() {
        let parent = tree
            .parent(f)
            .and_then(|p| ids.get(p.index()).copied())
            .unwrap_or(Paths::ROOT);
        if let Some(seg) = tree.step(f) {
            let (id, elem) = match seg {
                PlanSeg::Key(k) => (paths.child_key(parent, k), None),
                PlanSeg::Merge { key, value } => (
                    paths.child(
                        parent,
                        yaml::Seg::Merge {
                            key: key.to_string(),
                            value: value.to_string(),
                        },
                    ),
                    Some(ElemSeg::Merge(key.to_string())),
                ),
                PlanSeg::Item(value) => (
                    paths.child(parent, yaml::Seg::Item(value.to_string())),
                    Some(ElemSeg::Item),
                ),
                PlanSeg::Index(i) => (
                    paths.child(parent, yaml::Seg::Index(*i)),
                    Some(ElemSeg::Index),
                ),
            };
            if let Some(elem) = elem
                && !lists.contains_key(paths.text(parent))
            {
                lists.insert(paths.text(parent).to_owned(), elem);
            }
            ids.push(id);
        }
    }
    ids.remove(0);
    (ids, lists)
}

/// Which fields `n`/`N` stop at.
fn stops(plan: &Plan, field_path: &[PathId], field_at: &[u32], paths: &Paths) -> Vec<bool> {
    let fields: Vec<Action> = plan.tree.ids().map(|id| plan.tree.action(id)).collect();
    let action_of_path = |id: PathId| {
        field_at
            .get(id as usize)
            .filter(|f| **f != NONE)
            .and_then(|f| fields.get(*f as usize))
            .copied()
    };
    fields
        .iter()
        .enumerate()
        .map(|(i, &action)| {
            if !is_change(action) {
                return false;
            }
            let id = field_path.get(i).copied().unwrap_or(Paths::ROOT);
            if action == Action::Set {
                let below = fields[i + 1..]
                    .iter()
                    .zip(&field_path[i + 1..])
                    .take_while(|(_, p)| paths.is_strict_ancestor(id, **p));
                return !below.into_iter().any(|(g, _)| is_change(*g));
            }
            let parent = paths.parent(id).and_then(action_of_path);
            parent != Some(action) && !(action == Action::Clear && parent == Some(Action::Delete))
        })
        .collect()
}
