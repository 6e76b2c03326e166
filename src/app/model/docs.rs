//! The documents the model was planned from. The live object is held once: by the plan when
//! it holds it as read (no last-applied given), else in [`Model::docs`].

use super::Model;
use crate::session::Docs;
use crate::value::Value;

impl Model {
    /// The live object as read (`None`: there is none; the apply creates it).
    #[must_use]
    pub fn live(&self) -> Option<&Value> {
        self.docs.live.as_ref().or(self.plan.live.as_ref())
    }

    /// The documents the plan was computed from, whole (for planning them again).
    #[must_use]
    pub fn full_docs(&self) -> Docs {
        self.docs_with_live(self.live().cloned())
    }

    /// The documents the plan was computed from, with another live object.
    #[must_use]
    pub fn docs_with_live(&self, live: Option<Value>) -> Docs {
        Docs {
            local: self.docs.local.clone(),
            live,
            last_applied: self.docs.last_applied.clone(),
        }
    }

    /// Are `docs` the documents the plan was computed from?
    #[must_use]
    pub fn holds(&self, docs: &Docs) -> bool {
        docs.local == self.docs.local
            && docs.live.as_ref() == self.live()
            && docs.last_applied == self.docs.last_applied
    }
}
