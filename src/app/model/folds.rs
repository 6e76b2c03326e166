//! Folding: a field folded or unfolded, and what the folds leave visible in the navigation
//! and in each pane.

use super::{Model, NONE};
use crate::app::lines::Visible;
use crate::engine::plan::FieldId;

impl Model {
    /// Fold or unfold the selected field.
    pub(crate) fn toggle_fold(&mut self) {
        let Some(field) = self.current_field() else {
            return;
        };
        let id = self.current_path();
        if !self.folded.remove(&id) {
            let has_children = self
                .plan
                .tree
                .nth(field + 1)
                .is_some_and(|next| self.plan.tree.is_strict_ancestor(id, next));
            if !has_children {
                self.notice = Some("nothing to fold here".into());
                return;
            }
            self.folded.insert(id);
        }
        self.refold();
        if let Some(pos) = self.nav.position(u32::try_from(field).unwrap_or(NONE)) {
            self.cursor = pos;
        }
    }

    fn hidden(&self, id: FieldId) -> bool {
        !self.folded.is_empty()
            && self
                .folded
                .iter()
                .any(|f| self.plan.tree.is_strict_ancestor(*f, id))
    }

    /// Recompute what folds leave visible.
    pub(in crate::app) fn refold(&mut self) {
        let fields = self.plan.tree.len();
        let nav: Vec<u32> = (0..fields)
            .filter(|f| self.plan.tree.nth(*f).is_some_and(|id| !self.hidden(id)))
            .filter_map(|f| u32::try_from(f).ok())
            .collect();
        let visible: Vec<Visible> = self
            .panes
            .iter()
            .map(|pane| {
                let mut folded_block = None;
                let shown = pane
                    .lines
                    .iter()
                    .enumerate()
                    .filter(|(_, line)| {
                        // Continuation lines of a folded block scalar fold with their key.
                        let cont = !line.has_key() && !line.dash();
                        let show =
                            !(self.hidden(line.path) || (cont && folded_block == Some(line.path)));
                        if line.has_key() && self.folded.contains(&line.path) {
                            folded_block = Some(line.path);
                        }
                        show
                    })
                    .filter_map(|(i, _)| u32::try_from(i).ok())
                    .collect();
                Visible::of(pane.lines.len(), shown)
            })
            .collect();
        for (pane, v) in self.panes.iter_mut().zip(visible) {
            pane.visible = v;
        }
        self.nav = Visible::of(fields, nav);
        self.cursor = self.cursor.min(self.nav.len().saturating_sub(1));
    }
}
