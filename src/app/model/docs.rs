//! The documents the model was planned from. The file's object is held once: by the plan
//! (its `modified`, with the file's `metadata` beside it: [`crate::engine::plan::Plan::local`]).
//! The live object is held once: by the plan when it holds it as read (no last-applied given),
//! else in [`Model::docs`].

use super::Model;
use crate::engine::plan::{FieldPath, Seg};
use crate::session::Docs;
use crate::value::Value;

/// The documents a model's plan was computed from that the plan does not hold: the live
/// object when the plan does not hold it as read, and a given last-applied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Held {
    pub live: Option<Value>,
    /// Given explicitly (`--last-applied`, an example, or an edit); `None`: the live annotation.
    pub last_applied: Option<Value>,
}

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
            local: self.plan.local(),
            live,
            last_applied: self.docs.last_applied.clone(),
        }
    }

    /// Are `docs` the documents the plan was computed from?
    #[must_use]
    pub fn holds(&self, docs: &Docs) -> bool {
        self.plan.planned_from(&docs.local)
            && docs.live.as_ref() == self.live()
            && docs.last_applied == self.docs.last_applied
    }

    /// Does the file's object have something at `path`?
    #[must_use]
    pub fn in_file(&self, path: &FieldPath) -> bool {
        match path.0.split_first() {
            Some((Seg::Key(k), rest)) if &**k == "metadata" => self
                .plan
                .file_metadata()
                .is_some_and(|m| FieldPath(rest.to_vec()).lookup(m).is_some()),
            _ => path.lookup(&self.plan.modified).is_some(),
        }
    }
}
