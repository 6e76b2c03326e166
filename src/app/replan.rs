//! Planning again after an edit or a reload: the new model keeps what the user sees (the
//! selected path or its nearest ancestor, the focused pane, folds, the why panel, revealed
//! secrets).

use super::edit::Base;
use super::model::Model;
use crate::engine::plan::Seg;
use crate::session::{Docs, Error};

impl Model {
    /// Plan `docs` again and rebuild the model, keeping what the user sees: the selected path
    /// (or its nearest ancestor), the focused pane, folds, the why panel, revealed secrets.
    ///
    /// # Errors
    /// The plan's [`Error`]; the model is then unchanged.
    pub fn replan(&mut self, docs: Docs) -> Result<(), Error> {
        self.replan_with(docs, false)
    }

    /// [`Model::replan`], and take the new last-applied as committed (after a write or a reload).
    ///
    /// # Errors
    /// As [`Model::replan`].
    pub fn replan_rebased(&mut self, docs: Docs) -> Result<(), Error> {
        self.replan_with(docs, true)
    }

    fn replan_with(&mut self, mut docs: Docs, rebase: bool) -> Result<(), Error> {
        let plan = super::cluster::compute_plan(&self.edit, &mut docs)?;
        if rebase {
            self.edit.base = Base::Plan;
        } else if matches!(self.edit.base, Base::Plan) {
            // The first edit since the commit: the committed document is the plan's until now.
            self.edit.base = Base::Kept(self.plan.last_applied.take());
        }
        // The selected node and its ancestors, and the folds, as steps: found again in the new
        // plan's tree.
        let tree = &self.plan.tree;
        let mut trail = Vec::new();
        let mut at = Some(self.current_path());
        while let Some(id) = at {
            trail.push(tree.field_path(id).0);
            at = tree.parent(id);
        }
        let folded: Vec<Vec<Seg>> = self
            .folded
            .iter()
            .map(|id| tree.field_path(*id).0)
            .collect();
        let edit = std::mem::take(&mut self.edit);
        let pending = edit.differs(plan.last_applied.as_ref());
        let mut next = Model::build(
            std::mem::take(&mut self.title),
            std::mem::take(&mut self.about),
            docs,
            plan,
            edit,
            pending,
        );
        next.focus = self.focus.min(next.panes.len().saturating_sub(1));
        next.why = self.why;
        next.reveal = self.reveal;
        next.size = self.size;
        next.field_manager = std::mem::take(&mut self.field_manager);
        next.notice = self.notice.take();
        next.mode = std::mem::take(&mut self.mode);
        next.folded = folded
            .iter()
            .filter_map(|t| next.plan.tree.find(t))
            .collect();
        if !next.folded.is_empty() {
            next.refold();
        }
        let field = trail
            .iter()
            .filter_map(|t| next.plan.tree.find(t))
            .find_map(|id| next.field_of_path(id));
        if let Some(f) = field {
            next.select_field(f);
        }
        let (server, owners) = (self.server.take(), self.owners);
        *self = next;
        super::ssa::carry(self, server, owners);
        Ok(())
    }
}
