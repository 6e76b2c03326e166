//! Planning: the three documents of a plan, the engine's plan of them with the embedded schema
//! or a server's, and its failures as [`Error`]s that name the input document.
//!
//! Many objects are planned on every core ([`plan_all`], through
//! [`super::parallel::parallel_map`]): each object's plan is independent, the work is
//! CPU-bound and the embedded schema is shared read-only.

use crate::engine::plan::{
    self as engine_plan, InputDoc, LastApplied, Plan, PlanContext, PlanError,
};
use crate::engine::schema::Schema;
use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::value::Value;

use super::Error;
use super::objects::{Object, Pair};
use super::parallel::parallel_map;
use super::progress::{Event, Progress, RowHead};
use super::risk::Summary;
use crate::cluster::{Choice, SchemaSource};

/// The three documents of a plan, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Docs {
    pub local: Value,
    pub live: Option<Value>,
    /// Given explicitly (`--last-applied`, an example, or an edit); `None`: the live annotation.
    pub last_applied: Option<Value>,
}

/// Plan documents with the embedded schema.
pub fn compute(docs: &Docs, namespace: Option<&str>, overwrite: bool) -> Result<Plan, Error> {
    compute_named(docs, namespace, overwrite, &DocNames::default())
}

/// The names of the input documents, for messages.
pub struct DocNames {
    pub local: String,
    pub live: String,
    pub last_applied: String,
}

impl Default for DocNames {
    fn default() -> Self {
        DocNames {
            local: "local".into(),
            live: "live".into(),
            last_applied: "last-applied".into(),
        }
    }
}

/// Plan documents with the embedded schema; input errors name the document.
pub fn compute_named(
    docs: &Docs,
    namespace: Option<&str>,
    overwrite: bool,
    names: &DocNames,
) -> Result<Plan, Error> {
    compute_with(docs, namespace, overwrite, names, Schema::embedded())
}

/// Plan documents with a schema (a server's OpenAPI, or the embedded one); input errors name
/// the document.
pub fn compute_with(
    docs: &Docs,
    namespace: Option<&str>,
    overwrite: bool,
    names: &DocNames,
    schema: &Schema,
) -> Result<Plan, Error> {
    let context = PlanContext {
        live: docs.live.as_ref().map(Cow::Borrowed),
        last_applied: docs
            .last_applied
            .as_ref()
            .map_or(LastApplied::FromLive, LastApplied::Given),
        namespace,
        overwrite,
        live_last_applied: None,
    };
    // No one shows the three-way's halves but the TUI's patch view, which finds them again
    // (`engine::plan::halves`).
    engine_plan::plan_owned(docs.local.clone(), context, schema).map_err(|e| plan_error(e, names))
}

/// [`compute`], the documents moved into the plan: the file's object always (`docs.local` is
/// then `Value::Null`; the plan's `modified` holds it, [`Plan::local`]), the live object when
/// the plan holds it as it was read (no last-applied given: the plan reads the live
/// annotation; `docs.live` is then `None`: the plan's `live` is the one copy).
pub fn compute_sharing(docs: &mut Docs) -> Result<Plan, Error> {
    let local = std::mem::take(&mut docs.local);
    let (live, last_applied) = match &docs.last_applied {
        Some(given) => (
            docs.live.as_ref().map(Cow::Borrowed),
            LastApplied::Given(given),
        ),
        None => (docs.live.take().map(Cow::Owned), LastApplied::FromLive),
    };
    let context = PlanContext {
        live,
        last_applied,
        namespace: None,
        overwrite: true,
        live_last_applied: None,
    };
    engine_plan::plan_owned(local, context, Schema::embedded())
        .map_err(|e| plan_error(e, &DocNames::default()))
}

/// A plan's failure as a session error; input errors name the document.
pub fn plan_error(e: PlanError, names: &DocNames) -> Error {
    let input = match &e {
        PlanError::Input { about, .. } => match about {
            InputDoc::Local => names.local.clone(),
            InputDoc::Live => names.live.clone(),
            InputDoc::LastApplied => names.last_applied.clone(),
        },
        PlanError::Kubectl(_) | PlanError::Conflict(_) => String::new(),
    };
    Error::Plan { input, source: e }
}

/// Plan with the patch metadata chosen for the object's kind (cluster mode). As kubectl, when
/// the patch cannot be computed from the server's OpenAPI, it is computed from the embedded
/// schema (the source returned says which was used).
///
/// # Errors
/// The plan's [`Error`].
pub fn compute_chosen(
    choice: &Choice,
    docs: &Docs,
    namespace: Option<&str>,
    overwrite: bool,
    names: &DocNames,
) -> Result<(Plan, SchemaSource), Error> {
    match compute_with(docs, namespace, overwrite, names, choice.schema()) {
        Err(e) if e.is_refusal() && choice.schema.is_some() => {
            compute_with(docs, namespace, overwrite, names, Schema::embedded())
                .map(|p| (p, SchemaSource::Embedded))
        }
        other => other.map(|p| (p, choice.source)),
    }
}

/// Plans every pair, in parallel; results in the pairs' order.
#[must_use]
pub fn plan_all(
    pairs: &[Pair],
    namespace: Option<&str>,
    overwrite: bool,
) -> Vec<Result<Plan, Error>> {
    parallel_map(pairs, |p| plan_pair(p, namespace, overwrite))
}

/// [`plan_all`], reporting the count of objects planned and (to a listener that wants them)
/// each object's row as it is planned.
#[must_use]
pub fn plan_all_reporting(
    pairs: &[Pair],
    namespace: Option<&str>,
    overwrite: bool,
    progress: &Progress,
) -> Vec<Result<Plan, Error>> {
    let done = AtomicUsize::new(0);
    let total = pairs.len();
    parallel_map(pairs, |p| {
        let plan = plan_pair(p, namespace, overwrite);
        if progress.wants_rows() {
            progress.report(Event::Row(Box::new(RowHead {
                key: p.key.clone(),
                source: p.local.source.clone(),
                live_source: p.live.as_ref().map(|l| l.source.clone()),
                summary: Summary::of_result(&plan),
            })));
        }
        let done = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress.report(Event::Count { done, total });
        plan
    })
}

/// The plan of one pair.
///
/// # Errors
/// As [`compute_named`], naming the object's source.
pub fn plan_pair(p: &Pair, namespace: Option<&str>, overwrite: bool) -> Result<Plan, Error> {
    let docs = Docs {
        local: p.local.value.clone(),
        live: p.live.as_ref().map(|l| l.value.clone()),
        last_applied: None,
    };
    compute_named(&docs, namespace, overwrite, &names_of(p))
}

/// The plan of one object for the command line's outputs, which show no three-way halves:
/// it takes the local object (the plan keeps its document), the live one is only read, and
/// the halves are not kept. The plan is otherwise [`plan_pair`]'s.
///
/// # Errors
/// As [`compute_named`], naming the object's source.
pub fn plan_printed(
    local: Object,
    live: Option<&Object>,
    namespace: Option<&str>,
    overwrite: bool,
) -> Result<Plan, Error> {
    let Object { value, source } = local;
    let context = PlanContext {
        live: live.map(|l| Cow::Borrowed(&l.value)),
        last_applied: LastApplied::FromLive,
        namespace,
        overwrite,
        live_last_applied: None,
    };
    engine_plan::plan_owned(value, context, Schema::embedded())
        .map_err(|e| plan_error(e, &names(source, live)))
}

/// The names of a pair's documents, for messages.
fn names_of(p: &Pair) -> DocNames {
    names(p.local.source.clone(), p.live.as_ref())
}

/// The names of a local object read from `local` and of its live object (no last-applied
/// file: it is read from the live object).
fn names(local: String, live: Option<&Object>) -> DocNames {
    DocNames {
        local,
        live: live.map(|l| l.source.clone()).unwrap_or_default(),
        last_applied: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a given last-applied the live object moves into the plan, which is the plan
    /// `compute` makes; with one, the documents keep it. The file's object always moves: the
    /// plan gives it back as read.
    #[test]
    fn compute_sharing_moves_the_live_object_only_when_the_plan_holds_it_as_read() {
        let doc = |replicas: i64, annotation: Option<&str>| {
            let mut v = crate::json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "w"}, "spec": {"replicas": replicas}});
            if let Some(a) = annotation {
                let mut annotations = crate::value::Map::new();
                annotations.insert(engine_plan::LAST_APPLIED, Value::String(a.into()));
                v["metadata"]["annotations"] = Value::Object(annotations);
            }
            v
        };
        let applied = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w"},"spec":{"replicas":1}}"#;
        let docs = Docs {
            local: doc(2, None),
            live: Some(doc(3, Some(applied))),
            last_applied: None,
        };
        let mut shared = docs.clone();
        let plan = compute_sharing(&mut shared).unwrap();
        assert_eq!(shared.live, None);
        assert_eq!(shared.local, Value::Null);
        assert_eq!(plan.live, docs.live);
        assert_eq!(plan.local(), docs.local);
        assert!(plan.planned_from(&docs.local));
        assert!(!plan.planned_from(&doc(3, None)));
        let plain = compute(&docs, None, true).unwrap();
        assert_eq!(plan.patch, plain.patch);
        assert_eq!(plan.result, plain.result);
        let mut given = Docs {
            last_applied: Some(doc(1, None)),
            ..docs.clone()
        };
        let plan = compute_sharing(&mut given).unwrap();
        assert_eq!(given.live, docs.live);
        assert_eq!(plan.local(), docs.local);
    }
}
