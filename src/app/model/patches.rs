//! The patch view's texts: written while no key waits, so `p` opens at once (but for a large
//! object, where they would hold as much again as the panes: `p` writes them); the JSON Patch's
//! tab when it is first shown.

use super::Model;
use crate::app::cluster;
use crate::app::patch::{json_patch_doc, patch_docs};

impl Model {
    /// Is there work to do while no key waits: the patch view's texts, written ahead so `p`
    /// opens at once, unless the object is large ([`Plan::is_large`](crate::engine::plan::Plan::is_large)): there they would hold
    /// as much again as the panes, and `p` writes them.
    #[must_use]
    pub fn has_idle_work(&self) -> bool {
        self.patches.is_none() && !self.plan.is_large()
    }

    pub(crate) fn ensure_patches(&mut self) {
        if self.patches.is_none() {
            let halves = cluster::halves(&self.edit, &self.plan);
            self.patches = Some(patch_docs(
                &self.plan,
                halves.as_ref(),
                self.secret,
                self.reveal,
            ));
        }
    }

    /// The patch view's tab `tab` written, if it waits to be ([`PatchDoc::pending`](crate::app::patch::PatchDoc::pending)).
    pub(crate) fn ensure_patch_tab(&mut self, tab: usize) {
        let mask = self.secret && !self.reveal;
        let live = self.docs.live.as_ref().or(self.plan.live.as_ref());
        if let Some(doc) = self.patches.as_mut().and_then(|d| d.get_mut(tab))
            && doc.pending
        {
            *doc = json_patch_doc(live, &self.plan.result, mask);
        }
    }

    /// The work done while no key waits ([`Model::has_idle_work`]).
    pub(crate) fn idle(&mut self) {
        if self.has_idle_work() {
            self.ensure_patches();
        }
    }
}
