//! Moving the cursor: by a line or a page, `n`/`N` to the next change (and which fields they
//! stop at), to a chosen field (unfolding what hides it), to a warning's field.

use super::{Model, NONE};
use crate::engine::plan::{Action, FieldId, Tree};

impl Model {
    /// How many warnings the list shows: the server-side plan's in server-side mode.
    #[must_use]
    pub fn warning_count(&self) -> usize {
        match self.server.as_deref() {
            Some(s) => s.warnings().len(),
            None => self.plan.warnings.len(),
        }
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
        // In the server-side view, its changes.
        let stops = self.server.as_deref().map_or(&self.stops, |s| &s.stops);
        let is_stop = |pos: usize| {
            self.nav
                .get(pos)
                .and_then(|f| stops.get(f as usize))
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
        let Some(id) = self.plan.tree.nth(field) else {
            return;
        };
        let hidden: Vec<FieldId> = self
            .folded
            .iter()
            .copied()
            .filter(|f| self.plan.tree.is_strict_ancestor(*f, id))
            .collect();
        if !hidden.is_empty() {
            for f in hidden {
                self.folded.remove(&f);
            }
            self.refold();
        }
        let f = u32::try_from(field).unwrap_or(NONE);
        if let Some(pos) = self.nav.position(f) {
            self.cursor = pos;
        }
    }

    /// The field a warning concerns.
    #[must_use]
    pub fn warning_field(&self, warning: usize) -> Option<usize> {
        let id = self.plan.warning_field(warning)?;
        self.plan.tree.position(id)
    }
}

/// Which fields `n`/`N` stop at.
pub(super) fn stops(tree: &Tree) -> Vec<bool> {
    let actions: Vec<Action> = tree.actions().collect();
    let action_of = |id: FieldId| tree.is_field(id).then(|| tree.action(id));
    tree.ids()
        .enumerate()
        .map(|(i, id)| {
            let action = tree.action(id);
            if !action.is_change() {
                return false;
            }
            if action == Action::Set {
                let below = tree
                    .ids()
                    .skip(i + 1)
                    .zip(actions.iter().skip(i + 1))
                    .take_while(|(p, _)| tree.is_strict_ancestor(id, *p));
                return !below.into_iter().any(|(_, g)| g.is_change());
            }
            let parent = tree.parent(id).and_then(action_of);
            parent != Some(action) && !(action == Action::Clear && parent == Some(Action::Delete))
        })
        .collect()
}
