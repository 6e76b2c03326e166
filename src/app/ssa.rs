//! Server-side apply in the TUI, pure: `S` switches the object between the client-side plan
//! and what `kubectl apply --server-side` does (planned by the runtime, which owns the clock:
//! [`Command::PlanServerSide`], reported as [`Message::ServerSidePlanned`](crate::app::Message::ServerSidePlanned)); `o` shows each
//! line's owners (the managers whose field sets hold it); `t` lists kubectl's requests and what
//! each changed.
//!
//! The model holds results only: the outcome, and per pane and line what the session found
//! ([`NodeFacts`]: owners, the plan field shown).

use super::{Command, Mode, Model, PaneKind};
use crate::engine::plan::{Doc, FieldId, Seg};
use crate::engine::ssa::explain::without_managed_fields;
use crate::engine::ssa::kubectl::StepKind;
use crate::error::Error;
use crate::session::ssa::{
    Field, NodeFacts, SsaOutcome, SsaPlan, SsaRequest, kubectl_body, managers_of, node_facts,
};
use crate::value::Value;
use std::borrow::Cow;

/// The field manager the TUI applies as (kubectl's default).
pub const FIELD_MANAGER: &str = "kubectl";

/// The server-side view: what was planned and what came of it.
#[derive(Debug, PartialEq, Eq)]
pub struct ServerSide {
    pub request: SsaRequest,
    pub outcome: SsaOutcome,
    /// Each conflict's node (in the live pane), for the warnings list.
    pub conflict_nodes: Vec<Option<FieldId>>,
    /// The plan fields `n`/`N` stop at: the first node showing each server-side change.
    pub stops: Vec<bool>,
    /// The warnings list as shown, and the fields per action (in `Action::ALL`'s order),
    /// written once: the header shows them at every frame, and a big migrated object has
    /// hundreds of thousands of fields.
    warnings: Vec<String>,
    counts: [usize; 5],
}

impl ServerSide {
    /// The server-side view of `outcome`, its warnings and counts read once.
    #[must_use]
    pub fn new(
        request: SsaRequest,
        outcome: SsaOutcome,
        conflict_nodes: Vec<Option<FieldId>>,
    ) -> ServerSide {
        let warnings = match &outcome {
            SsaOutcome::Planned(p) => p.warnings.iter().map(warning_text).collect(),
            SsaOutcome::Conflicts { conflicts: c, .. } => {
                c.0.iter().map(ToString::to_string).collect()
            }
            SsaOutcome::Refused(r) => std::iter::once(r.message.clone())
                .chain(r.warnings.iter().map(warning_text))
                .collect(),
        };
        let mut counts = [0; 5];
        if let SsaOutcome::Planned(p) = &outcome {
            for f in &p.fields {
                if let Some(i) = crate::session::ssa::Action::ALL
                    .iter()
                    .position(|a| *a == f.action)
                {
                    counts[i] += 1;
                }
            }
        }
        ServerSide {
            request,
            outcome,
            conflict_nodes,
            stops: Vec::new(),
            warnings,
            counts,
        }
    }

    /// How many fields of the plan take each action, in `Action::ALL`'s order (none when
    /// there is no plan).
    #[must_use]
    pub fn counts(&self) -> [usize; 5] {
        self.counts
    }

    /// The plan (none when the API server refuses the apply).
    #[must_use]
    pub fn plan(&self) -> Option<&SsaPlan> {
        match &self.outcome {
            SsaOutcome::Planned(p) => Some(p),
            SsaOutcome::Conflicts { .. } | SsaOutcome::Refused(_) => None,
        }
    }

    /// The warnings list: the plan's warnings, or each conflict as the API server names it.
    #[must_use]
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Does kubectl move a client-side object's fields (the csaupgrade and a second apply)?
    #[must_use]
    pub fn migrates(&self) -> bool {
        self.plan().is_some_and(|p| {
            p.steps
                .iter()
                .any(|s| matches!(s.kind, StepKind::UpgradeManagedFields { .. }))
        })
    }
}

/// A coded server-side warning in the list: its code, the path the API server names, the words.
fn warning_text(w: &crate::engine::plan::Warning) -> String {
    match &w.path {
        Some(path) => format!("{} {path}: {}", w.code, w.message),
        None => format!("{}: {}", w.code, w.message),
    }
}

/// The live object as the server-side plan reads it: with its `metadata.managedFields` (in
/// cluster mode the object as served, which the panes show without them by default).
fn live_with_managers(model: &Model) -> Option<&Value> {
    match model.edit.cluster.as_deref() {
        Some(session) => session.live.as_ref(),
        None => model.live(),
    }
}

fn request(model: &Model) -> SsaRequest {
    let live = live_with_managers(model).cloned();
    // The namespace the client-side plan gave the object (`-n`, the live object's, `default`,
    // none for a cluster-scoped kind) is the one kubectl's builder gives it: the file's when it
    // names one, so the body cannot fail the `-n` check.
    let namespace = crate::engine::object::ObjectRef::of(&model.plan.modified).namespace;
    let local = kubectl_body(
        model.plan.local(),
        live.as_ref(),
        Some(namespace).filter(|ns| !ns.is_empty()),
        &model.title,
    )
    .unwrap_or_else(|_| model.plan.local());
    SsaRequest {
        local,
        live,
        local_name: format!("{} (local)", model.title),
        live_name: format!("{} (live)", model.title),
        manager: model.field_manager.clone(),
        force: super::ssa_mode::force_conflicts(model),
    }
}

/// An object opened with the run's options (`ssa_mode`): when the run's mode is server-side,
/// the server-side plan asked for.
pub(super) fn start(model: &mut Model) -> Vec<Command> {
    if super::ssa_mode::opens_server_side(model) {
        toggle(model)
    } else {
        Vec::new()
    }
}

/// `S`: plan server-side (the runtime runs it), or back to the client-side plan.
pub(super) fn toggle(model: &mut Model) -> Vec<Command> {
    if model.server.take().is_some() {
        model.show_planned_result();
        refresh(model);
        model.notice = Some("client-side apply (S: server-side)".into());
        return Vec::new();
    }
    vec![Command::PlanServerSide(Box::new(request(model)))]
}

/// The runtime planned it.
pub(super) fn planned(model: &mut Model, result: Result<SsaOutcome, Error>) {
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(e) => {
            model.notice = Some(format!("cannot plan server-side: {e}"));
            return;
        }
    };
    show(model, request(model), outcome);
    model.owners = true;
    model.notice = Some(match model.server.as_deref().map(|s| &s.outcome) {
        Some(SsaOutcome::Refused(r)) => {
            format!(
                "the API server refuses the apply: {} (! lists why)",
                r.message
            )
        }
        Some(SsaOutcome::Conflicts { conflicts: c, .. }) => format!(
            "the API server refuses the apply: {} conflict{} (! lists them)",
            c.0.len(),
            if c.0.len() == 1 { "" } else { "s" }
        ),
        _ => format!(
            "{}: S returns to the client-side plan, t lists kubectl's requests",
            super::ssa_mode::label(model).unwrap_or_default()
        ),
    });
    refresh(model);
}

/// Show an outcome: the result pane shows what the apply leaves (the live object when it is
/// refused).
fn show(model: &mut Model, request: SsaRequest, outcome: SsaOutcome) {
    // The result's managedFields are shown as the owners column, not as lines.
    let result = match &outcome {
        SsaOutcome::Planned(p) => Some(Cow::Borrowed(&*p.result)),
        SsaOutcome::Conflicts { .. } | SsaOutcome::Refused(_) => request
            .live
            .as_ref()
            .map(|l| Cow::Owned(without_managed_fields(l))),
    };
    match result {
        Some(doc) => model.show_result(&doc, None),
        None => model.show_planned_result(),
    }
    let conflicts: Vec<&crate::engine::ssa::Path> = match &outcome {
        SsaOutcome::Conflicts { conflicts: c, .. } => c.0.iter().map(|c| &c.path).collect(),
        SsaOutcome::Planned(_) | SsaOutcome::Refused(_) => Vec::new(),
    };
    let live_pane = model
        .pane_index(PaneKind::Live)
        .and_then(|i| model.panes.get(i));
    let conflict_nodes = match (&request.live, live_pane) {
        (Some(live), Some(pane)) if !conflicts.is_empty() => {
            let ids = pane.lines.iter().map(|l| l.node());
            managers_of(live, "")
                .map(|m| node_facts(&model.plan.tree, live, &m, None, &conflicts, ids).found)
                .unwrap_or_default()
        }
        _ => Vec::new(),
    };
    model.server = Some(Box::new(ServerSide::new(request, outcome, conflict_nodes)));
}

/// After a replan: the server-side view stays when what it planned is unchanged (an edit of
/// last-applied changes neither the file nor the live object); else it closes.
pub(super) fn carry(model: &mut Model, server: Option<Box<ServerSide>>, owners: bool) {
    model.owners = owners;
    if let Some(s) = server {
        if s.request == request(model) {
            let ServerSide {
                request, outcome, ..
            } = *s;
            show(model, request, outcome);
        } else {
            model.notice =
                Some("the inputs changed: client-side plan again (S plans server-side)".into());
        }
    }
    refresh(model);
}

/// `o`: show or hide the owners column.
pub(super) fn toggle_owners(model: &mut Model) {
    model.owners = !model.owners;
    refresh(model);
    if model.owners && model.facts.iter().all(Option::is_none) {
        model.notice = Some("no owners: the live object has no metadata.managedFields".into());
    }
}

/// `t`: kubectl's requests, when there is a server-side plan.
pub(super) fn open_steps(model: &mut Model) -> Mode {
    if model.server.as_deref().and_then(ServerSide::plan).is_none() {
        model.notice = Some("no server-side plan (S plans one)".into());
        return Mode::Browse;
    }
    Mode::Steps(0)
}

/// The live pane without `metadata.managedFields` while the owners column or the server-side
/// view shows them (they are the column), with them again after.
fn sync_live(model: &mut Model) {
    let Some(live) = model.live().cloned() else {
        return;
    };
    let has = live
        .get("metadata")
        .and_then(|m| m.get("managedFields"))
        .is_some();
    let path = [
        Seg::Key("metadata".into()),
        Seg::Key("managedFields".into()),
    ];
    let shown = model.plan.tree.find(&path).is_some_and(|id| {
        model
            .pane_index(PaneKind::Live)
            .and_then(|i| model.panes.get(i)?.locate(&model.plan.tree, id))
            .is_some_and(|(_, exact)| exact)
    });
    let hide = model.owners || model.server.is_some();
    if !has || shown != hide {
        return;
    }
    if hide {
        model.show_in(PaneKind::Live, &without_managed_fields(&live), None);
    } else {
        model.show_in(PaneKind::Live, &live, Some(Doc::Live));
    }
}

/// The facts each pane's lines need now: owners (live and result panes) when the column is
/// shown, the server-side field of every line in server-side mode.
pub(crate) fn refresh(model: &mut Model) {
    sync_live(model);
    let server = model.server.as_deref();
    let plan = server.and_then(ServerSide::plan);
    let fields: Option<&[Field]> = plan.map(|p| p.fields.as_slice());
    let live = live_with_managers(model);
    // The file's object as read, for the server-side view's local pane (the plan holds it).
    let local = server.map(|_| model.plan.local());
    let mut notice = None;
    let facts: Vec<Option<NodeFacts>> = model
        .panes
        .iter()
        .map(|pane| {
            // The planned result's managers come decoded with it; a document's are read.
            let read = |doc: &Value| managers_of(doc, &model.title).map(Cow::Owned);
            let (doc, managed) = match pane.kind {
                PaneKind::LastApplied => None,
                PaneKind::Local if server.is_some() => local.as_ref().map(|d| (d, read(d))),
                PaneKind::Local => None,
                PaneKind::Live if server.is_some() || model.owners => live.map(|d| (d, read(d))),
                PaneKind::Result if server.is_some() => match plan {
                    Some(p) => Some((&*p.result, Ok(Cow::Borrowed(&p.managers)))),
                    None => live.map(|d| (d, read(d))),
                },
                PaneKind::Live | PaneKind::Result => None,
            }?;
            let ids = pane.lines.iter().map(|l| l.node());
            match managed {
                Ok(m) => Some(node_facts(&model.plan.tree, doc, &m, fields, &[], ids)),
                Err(e) => {
                    notice = Some(format!("cannot read the owners: {e}"));
                    None
                }
            }
        })
        .collect();
    model.facts = facts;
    if notice.is_some() {
        model.notice = notice;
    }
    let stops = model.server.as_deref().map(|_| ssa_stops(model));
    if let (Some(server), Some(stops)) = (model.server.as_deref_mut(), stops) {
        server.stops = stops;
    }
}

/// The first plan field showing each server-side change (not a keep).
fn ssa_stops(model: &Model) -> Vec<bool> {
    let Some(plan) = model.server.as_deref().and_then(ServerSide::plan) else {
        return vec![false; model.plan.tree.len()];
    };
    let mut seen = vec![false; plan.fields.len()];
    model
        .plan
        .tree
        .ids()
        .map(|id| {
            let Some(i) = model.ssa_field_index(id) else {
                return false;
            };
            let change = plan
                .fields
                .get(i)
                .is_some_and(|f| f.action != crate::session::ssa::Action::Keep);
            let first = seen.get_mut(i).is_some_and(|s| !std::mem::replace(s, true));
            change && first
        })
        .collect()
}

impl Model {
    /// The result pane shows the planned result again.
    fn show_planned_result(&mut self) {
        let result = self.plan.result.clone();
        self.show_result(&result, Some(Doc::Result));
    }

    pub(super) fn pane_index(&self, kind: PaneKind) -> Option<usize> {
        self.panes.iter().position(|p| p.kind == kind)
    }

    /// The server-side field a pane's line shows.
    #[must_use]
    pub fn ssa_field_at(&self, pane: usize, line: u32) -> Option<&Field> {
        let plan = self.server.as_deref()?.plan()?;
        let f = self.facts.get(pane)?.as_ref()?.fields.get(line as usize)?;
        plan.fields.get((*f)? as usize)
    }

    /// The server-side field of the selected node: in the result pane, else in the live pane.
    #[must_use]
    pub fn current_ssa_field(&self) -> Option<&Field> {
        let i = self.ssa_field_index(self.current_path())?;
        self.server.as_deref()?.plan()?.fields.get(i)
    }

    /// The server-side field a node shows (its line in the result pane, else the live or the
    /// local pane's), as an index into the plan's fields.
    fn ssa_field_index(&self, id: FieldId) -> Option<usize> {
        [PaneKind::Result, PaneKind::Live, PaneKind::Local]
            .into_iter()
            .filter_map(|k| self.pane_index(k))
            .find_map(|i| {
                let (line, exact) = self.panes.get(i)?.locate(&self.plan.tree, id)?;
                let facts = self.facts.get(i)?.as_ref()?;
                exact.then(|| facts.fields.get(line as usize).copied().flatten())?
            })
            .map(|f| f as usize)
    }

    /// The owners of a pane's line (none when the column is off or the pane shows none).
    #[must_use]
    pub fn owners_at(&self, pane: usize, line: u32) -> &[crate::session::ssa::Owner] {
        self.facts
            .get(pane)
            .and_then(Option::as_ref)
            .and_then(|f| {
                let set = *f.owners.get(line as usize)?;
                f.owner_sets.get(set as usize)
            })
            .map_or(&[], Vec::as_slice)
    }

    /// The owners of the selected node (the result pane's, else the live pane's).
    #[must_use]
    pub fn current_owners(&self, kind: PaneKind) -> &[crate::session::ssa::Owner] {
        let id = self.current_path();
        self.pane_index(kind)
            .and_then(|i| {
                let (line, exact) = self.panes.get(i)?.locate(&self.plan.tree, id)?;
                exact.then(|| self.owners_at(i, line))
            })
            .unwrap_or(&[])
    }

    /// The field a server-side warning concerns (a conflict's), as a plan field.
    #[must_use]
    pub fn ssa_warning_field(&self, warning: usize) -> Option<usize> {
        let id = (*self.server.as_deref()?.conflict_nodes.get(warning)?)?;
        self.field_of_path(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Message, Source, update};
    use crate::session::Docs;

    fn doc(yaml: &str) -> Value {
        crate::document::parse_documents(yaml, "t.yaml")
            .unwrap()
            .remove(0)
            .value
    }

    const LIVE: &str = r#"
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  managedFields:
  - manager: kubectl
    operation: Apply
    apiVersion: v1
    time: "2026-11-20T08:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:data":{"f:a":{},"f:b":{}}}
  - manager: editor
    operation: Update
    apiVersion: v1
    time: "2026-11-21T08:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:data":{"f:c":{}}}
data:
  a: "1"
  b: "2"
  c: "3"
"#;

    fn model(local: &str, live: &str) -> Model {
        let source = Source {
            title: "t".into(),
            about: String::new(),
            docs: Docs {
                local: doc(local),
                live: Some(doc(live)),
                last_applied: None,
            },
        };
        Model::new(source).unwrap()
    }

    /// The keys a pane's lines show.
    fn keys(m: &Model, pane: usize) -> Vec<Option<crate::app::yaml::Text>> {
        let lines = &m.panes[pane].lines;
        (0..lines.len())
            .map(|i| lines.key(i, &m.plan.tree))
            .collect()
    }

    /// Press `S` and run the command as the runtime does, at a fixed time.
    fn switch(m: &mut Model) {
        let commands = update(m, Message::ToggleServerSide);
        let [Command::PlanServerSide(req)] = commands.as_slice() else {
            panic!("{commands:?}");
        };
        let reply = req.plan("2026-11-25T10:00:00Z");
        assert!(update(m, Message::ServerSidePlanned(Box::new(reply))).is_empty());
    }

    #[test]
    fn s_plans_server_side_and_switches_back() {
        let local = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \"9\"\n";
        let mut m = model(local, LIVE);
        let client = keys(&m, 3);
        switch(&mut m);
        let s = m.server.as_deref().unwrap();
        assert_eq!(s.request.manager, "kubectl");
        let plan = s.plan().unwrap();
        let action = |path: &str| {
            plan.fields
                .iter()
                .find(|f| f.path() == path)
                .map(|f| f.action)
        };
        assert_eq!(action(".data.a"), Some(crate::session::ssa::Action::Set));
        assert_eq!(action(".data.b"), Some(crate::session::ssa::Action::Remove));
        assert!(m.owners, "the owners column comes on");
        // The result pane shows the server-side result: `b` pruned, `c` kept (the editor's).
        let result = m.pane_index(PaneKind::Result).unwrap();
        let shown: Vec<_> = keys(&m, result).into_iter().flatten().collect();
        assert!(
            shown.iter().any(|k| k == "c") && !shown.iter().any(|k| k == "b"),
            "{shown:?}"
        );
        // Its `a` line shows the set, with its new owner.
        let a = keys(&m, result)
            .iter()
            .position(|k| k.as_deref() == Some("a"))
            .unwrap() as u32;
        assert_eq!(
            m.ssa_field_at(result, a).map(|f| f.action),
            Some(crate::session::ssa::Action::Set)
        );
        let owners: Vec<_> = m
            .owners_at(result, a)
            .iter()
            .map(|o| o.id.manager.as_str())
            .collect();
        assert_eq!(owners, ["kubectl"]);
        assert_eq!(
            m.owners_at(result, a)[0].time.as_deref(),
            Some("2026-11-25T10:00:00Z")
        );
        // The header's counts, read once when the plan came: one per field of each action.
        let s = m.server.as_deref().unwrap();
        let plan = s.plan().unwrap();
        let counted = crate::session::ssa::Action::ALL
            .map(|a| plan.fields.iter().filter(|f| f.action == a).count());
        assert_eq!(s.counts(), counted);
        assert!(counted.iter().sum::<usize>() > 0);
        update(&mut m, Message::ToggleServerSide);
        assert!(m.server.is_none());
        let back = keys(&m, 3);
        assert_eq!(back, client, "the client-side result again");
    }

    #[test]
    fn conflicts_keep_the_live_object_and_fill_the_warnings() {
        let local = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \"1\"\n  b: \"2\"\n  c: \"4\"\n";
        let mut m = model(local, LIVE);
        switch(&mut m);
        let s = m.server.as_deref().unwrap();
        assert!(s.plan().is_none());
        assert_eq!(
            s.warnings(),
            [r#"conflict with "editor" using v1: .data.c"#]
        );
        let field = m.ssa_warning_field(0).unwrap();
        assert_eq!(
            m.plan.path(m.plan.tree.nth(field).unwrap()).to_string(),
            "data.c"
        );
        update(&mut m, Message::OpenWarnings);
        assert_eq!(m.mode, Mode::Warnings(0));
        update(&mut m, Message::Accept);
        assert_eq!(m.current_field(), Some(field));
        assert_eq!(update(&mut m, Message::OpenSteps), Vec::new());
        assert_eq!(m.mode, Mode::Browse, "no steps without a plan");
    }

    #[test]
    fn o_shows_the_live_owners_in_the_client_side_plan() {
        let local = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \"1\"\n";
        let mut m = model(local, LIVE);
        assert!(m.facts.iter().all(Option::is_none));
        update(&mut m, Message::ToggleOwners);
        let live = m.pane_index(PaneKind::Live).unwrap();
        let c = keys(&m, live)
            .iter()
            .position(|k| k.as_deref() == Some("c"))
            .unwrap() as u32;
        let owners: Vec<_> = m
            .owners_at(live, c)
            .iter()
            .map(|o| o.id.to_string())
            .collect();
        assert_eq!(owners, [r#""editor" using v1"#]);
        assert!(
            m.owners_at(m.pane_index(PaneKind::Result).unwrap(), 0)
                .is_empty()
        );
        update(&mut m, Message::ToggleOwners);
        assert!(m.owners_at(live, c).is_empty());
    }
}
