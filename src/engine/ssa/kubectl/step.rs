//! One request of kubectl's sequence and the object it leaves ([`Step`]).

use std::sync::{Arc, OnceLock};

use super::StepKind;
use crate::engine::ssa::managed::{Managed, Written, encode, encoded};
use crate::engine::ssa::request::{Answer, with_encoded};
use crate::engine::ssa::typed::Comparison;
use crate::value::Value;

/// One request and the object it leaves: the object without its `metadata.managedFields`
/// (shared with the step before when the request changes only them, and read as it is by the
/// plan's comparisons), and those apart, as the API server writes them: from the managers the
/// request left, when first asked (a big object's are as big as it, and a plan asks for the
/// last step's beside its comparisons).
#[derive(Clone, Debug)]
pub struct Step {
    pub kind: StepKind,
    /// The body sent ([`Step::body`]).
    body: Body,
    /// The object left, without `metadata.managedFields`.
    pub object: Arc<Value>,
    /// The managers left, when `written` is not yet.
    managed: Managed,
    /// `metadata.managedFields` (`None`: none; shared with the body that sent them).
    written: OnceLock<Option<Arc<Value>>>,
    /// The object the request read compared with [`Step::object`], when a request compared
    /// them (a plan compares them itself otherwise).
    pub compared: Option<Comparison>,
}

/// What a step sent.
#[derive(Clone, Debug)]
enum Body {
    /// This (the apply configuration, shared with the plan and the other applies of it, or
    /// the new `metadata.managedFields` given written).
    Sent(Arc<Value>),
    /// Its object's `metadata.managedFields` (a csaupgrade's, written from its managers when
    /// first asked); an empty list for none.
    Entries,
}

/// The body of a csaupgrade that leaves no entry.
static NO_ENTRIES: Value = Value::Array(Vec::new());

impl Step {
    /// A step whose `metadata.managedFields` are these.
    #[must_use]
    pub fn new(
        kind: StepKind,
        body: Arc<Value>,
        object: Arc<Value>,
        managed_fields: Option<Arc<Value>>,
    ) -> Step {
        Step {
            kind,
            body: Body::Sent(body),
            object,
            managed: Managed::default(),
            written: OnceLock::from(managed_fields),
            compared: None,
        }
    }

    /// A csaupgrade's step (or a migration's): the new entries (`None`: none left) are both
    /// its body and its object's `metadata.managedFields`.
    #[must_use]
    pub fn upgraded(kind: StepKind, object: Arc<Value>, entries: Option<Value>) -> Step {
        let some = entries.is_some();
        let body = Arc::new(entries.unwrap_or(Value::Array(Vec::new())));
        let written = some.then(|| Arc::clone(&body));
        Step::new(kind, body, object, written)
    }

    /// A csaupgrade's step from the managers it leaves: their entries, written when first
    /// asked, are both its body and its object's `metadata.managedFields` (the entries the
    /// upgrade of the written ones leaves: [`crate::engine::ssa::csaupgrade::upgrade_managers`]).
    pub(super) fn upgraded_managers(kind: StepKind, object: Arc<Value>, managed: Managed) -> Step {
        Step {
            kind,
            body: Body::Entries,
            object,
            managed,
            written: OnceLock::new(),
            compared: None,
        }
    }

    /// A request's step from its answer: its managers written as `metadata.managedFields`
    /// when first asked.
    pub(super) fn answered(kind: StepKind, body: Arc<Value>, answer: Answer) -> Step {
        Step {
            kind,
            body: Body::Sent(body),
            object: answer.object,
            managed: answer.managed,
            written: OnceLock::new(),
            compared: Some(answer.compared),
        }
    }

    /// The body sent: the apply configuration, or the new `metadata.managedFields`.
    #[must_use]
    pub fn body(&self) -> &Value {
        match &self.body {
            Body::Sent(body) => body,
            Body::Entries => self.managed_fields().unwrap_or(&NO_ENTRIES),
        }
    }

    /// The object's `metadata.managedFields` (`None`: it has none).
    #[must_use]
    pub fn managed_fields(&self) -> Option<&Value> {
        self.written
            .get_or_init(|| encode(&self.managed).map(Arc::new))
            .as_deref()
    }

    /// [`Step::managed_fields`] for a writer: as written when they were asked for before, else
    /// written from the managers as they are serialized (a big object's, as big as it, are
    /// never built as a value then).
    #[must_use]
    pub fn managed_fields_written(&self) -> Option<Written<'_>> {
        match self.written.get() {
            Some(written) => written.as_deref().map(Written::Value),
            None => encoded(&self.managed).map(Written::Managers),
        }
    }

    /// [`Step::body`] for a writer, as [`Step::managed_fields_written`].
    #[must_use]
    pub fn body_written(&self) -> Written<'_> {
        match &self.body {
            Body::Sent(body) => Written::Value(body),
            Body::Entries => self
                .managed_fields_written()
                .unwrap_or(Written::Value(&NO_ENTRIES)),
        }
    }

    /// The object as stored (a copy): [`Step::object`] with [`Step::managed_fields`] last in
    /// its `metadata`, as a request's answer has them.
    #[must_use]
    pub fn stored(&self) -> Value {
        with_encoded((*self.object).clone(), self.managed_fields().cloned())
    }

    /// [`Step::managed_fields`] as a list (empty when none).
    #[must_use]
    pub fn entries(&self) -> &[Value] {
        self.managed_fields()
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }
}

impl PartialEq for Step {
    fn eq(&self, other: &Step) -> bool {
        self.kind == other.kind
            && self.body() == other.body()
            && self.object == other.object
            && self.managed_fields() == other.managed_fields()
    }
}

impl Eq for Step {}
