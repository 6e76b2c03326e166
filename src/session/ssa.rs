//! `plan --server-side`: the local object, the live one (with its `metadata.managedFields`) or
//! none, planned by the pure SSA engine ([`crate::engine::ssa::kubectl::apply_server_side`]):
//! every request kubectl would make, the object left, and per field what happened and who owns
//! it before and after. The live objects come from files, or from the cluster ([`cluster`]:
//! read, planned, and the requests sent as kubectl sends them, [`apply`]).

pub mod apply;
pub mod cluster;

use crate::engine::plan::{Code, Warning};
use crate::engine::ssa::checks::{self, Planned, config::Refusal};
use crate::engine::ssa::explain::{changes, fields, managed_of};
use crate::engine::ssa::kubectl::{Step, StepKind};
use crate::engine::ssa::managed::{Managed, ManagerId, Written};
use crate::engine::ssa::migrate::{migrate_then_apply, present};
use crate::engine::ssa::openapi::OpenApiSchema;
use crate::engine::ssa::par;
use crate::engine::ssa::path::Path;
use crate::engine::ssa::request::{
    ApiConflicts, Live, Request, RequestError, with_encoded, without_managed_fields,
};
use crate::engine::ssa::typed;
use crate::error::Error;
use crate::value::Value;
use std::sync::Arc;

pub use crate::engine::ssa::explain::{Action, Field, Sides, operation, value_at};
pub use body::kubectl_body;
pub use nodes::{NodeFacts, Owner, managers_of, node_facts};

mod body;
mod chosen;
#[cfg(test)]
mod metadata_tests;
mod nodes;
mod refused;
#[cfg(test)]
pub(crate) mod test_objects;
#[cfg(test)]
mod walk_tests;

use body::as_sent;
use chosen::choose;
use refused::refused;

/// What the command line says after the conflicts (kubectl's advice, shortened).
pub const CONFLICT_REMEDY: &str = "(pass --force-conflicts to take these fields, drop them from the file, or set the values they have to share them)";

/// What to plan.
pub struct SsaInput<'a> {
    /// Shared with the plan (its patch and the steps that send it), not copied.
    pub local: &'a Arc<Value>,
    /// `None`: the object does not exist yet (a create).
    pub live: Option<&'a Value>,
    /// The files' names, for errors.
    pub local_name: &'a str,
    pub live_name: &'a str,
    pub manager: &'a str,
    pub force: bool,
    /// `--migrate-manager`: Update managers whose fields move to `manager` before the apply,
    /// as Helm 4 and Argo CD do on their switch to server-side apply.
    pub migrate: &'a [String],
    /// Now, as the API server writes it (`2026-11-25T19:00:00Z`).
    pub time: &'a str,
    /// The cluster's schema (its OpenAPI v3), for a kind the embedded table lacks (a custom
    /// resource); `None` from files.
    pub schema: Option<&'a OpenApiSchema>,
    /// The resource (plural) discovery serves the kind as, for the API server's messages;
    /// `None` from files (the embedded schema's, else guessed: [`crate::engine::lock`]).
    pub resource: Option<&'a str>,
}

/// What a front end asks to plan (owned: it travels as a command to the runtime, which adds
/// the clock).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SsaRequest {
    pub local: Value,
    /// With its `metadata.managedFields`; `None`: a create.
    pub live: Option<Value>,
    pub local_name: String,
    pub live_name: String,
    pub manager: String,
    pub force: bool,
}

impl SsaRequest {
    /// Plan it at `time`.
    ///
    /// # Errors
    /// As [`plan_server_side`].
    pub fn plan(&self, time: &str) -> Result<SsaOutcome, Error> {
        plan_server_side(&SsaInput {
            local: &Arc::new(self.local.clone()),
            live: self.live.as_ref(),
            local_name: &self.local_name,
            live_name: &self.live_name,
            manager: &self.manager,
            force: self.force,
            migrate: &[],
            time,
            schema: None,
            resource: None,
        })
    }
}

/// The plan of one `kubectl apply --server-side`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SsaPlan {
    /// The body kubectl sends (the file; shared with the steps that apply it).
    pub patch: Arc<Value>,
    pub steps: Vec<Step>,
    /// What each step changed (paths and actions), in the order of `steps`.
    pub step_changes: Vec<Vec<(String, Action)>>,
    /// The object the apply leaves, without its `metadata.managedFields` (as `live`): the
    /// last request's answer, shared with its step ([`SsaPlan::stored_result`] adds them).
    pub result: Arc<Value>,
    /// The managers it leaves (its `metadata.managedFields`, decoded).
    pub managers: Managed,
    /// The live object without its `metadata.managedFields` (null for a create):
    /// with `result`, what the fields' values are read in ([`SsaPlan::objects`]). Shared with
    /// the first step when that request left it as it was.
    pub live: Arc<Value>,
    pub fields: Vec<Field>,
    /// Coded, as the client-side plan's ([`crate::engine::ssa::checks`]).
    pub warnings: Vec<Warning>,
}

impl SsaPlan {
    /// The result's `metadata.managedFields` as the API server stores them (`None`: none):
    /// the last request's, written when first asked (the TUI and `-o text` never ask).
    #[must_use]
    pub fn result_managed_fields(&self) -> Option<&Value> {
        self.steps.last().and_then(Step::managed_fields)
    }

    /// [`SsaPlan::result_managed_fields`] for a writer ([`Step::managed_fields_written`]).
    #[must_use]
    pub fn result_managed_fields_written(&self) -> Option<Written<'_>> {
        self.steps.last().and_then(Step::managed_fields_written)
    }

    /// The result as the API server stores it, its managedFields last in its metadata (a
    /// copy).
    #[must_use]
    pub fn stored_result(&self) -> Value {
        with_encoded(
            (*self.result).clone(),
            self.result_managed_fields().cloned(),
        )
    }

    /// The objects its fields' values are read in ([`Field::before`], [`Field::after`]).
    #[must_use]
    pub fn objects(&self) -> Sides<'_> {
        Sides {
            before: &self.live,
            after: &self.result,
        }
    }
}

/// The plan, or the API server's refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SsaOutcome {
    Planned(Box<SsaPlan>),
    /// The 409: its `Display` is the message exactly as the API server prints it; each
    /// conflict's, the manager and the path as the message names them. With the
    /// `ssa-controller-owns-field` warnings naming the manager of each field (from the plan
    /// with force).
    Conflicts {
        conflicts: ApiConflicts,
        warnings: Vec<Warning>,
    },
    /// The API server refuses the applied configuration before any merge (a duplicate key,
    /// a strategic-merge directive): its message and the coded warnings.
    Refused(Box<Refusal>),
}

/// Plan the apply.
///
/// # Errors
/// [`Error::ManagedFields`] for a live object whose managedFields cannot be read (naming the
/// file and the entry), [`Error::Input`] for an object the API server would refuse.
pub fn plan_server_side(input: &SsaInput<'_>) -> Result<SsaOutcome, Error> {
    let live = input.live.unwrap_or(&Value::Null);
    // Every object of the plan is made of these two: counted once, for all of them.
    let scale = par::Scale::of(&[live, &**input.local]);
    // Read once, beside the copy of the object without them that the requests and the
    // comparisons read, and the file's that the plan and its applies share (two cores for a
    // big object): a bad entry is named here, and the first request, the plan's walk and its
    // checks ask these.
    let (before, (bare, file)) = par::both(
        scale.is_big(live),
        || managers_of(live, input.live_name),
        || {
            (
                Arc::new(without_managed_fields(live)),
                Arc::clone(input.local),
            )
        },
    );
    let before = before?;
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let (api_version, kind) = (s(input.local, "apiVersion"), s(input.local, "kind"));
    let mut warnings = Vec::new();
    let chosen = choose(&api_version, &kind, input.schema, &mut warnings)?;
    // The API server refuses a configuration that does not validate (a duplicate key, a
    // strategic-merge directive) before anything else. The first request validates it as
    // well, so it is looked at only when the requests fail: the refusal comes first then.
    let refusal = || {
        checks::config::refusal(
            chosen.schema,
            chosen.root,
            &as_sent(input.local, input.live),
        )
    };
    let req = Request {
        schema: chosen.schema,
        root: chosen.root,
        api_version: &api_version,
        types: &*chosen.types,
        ignored: Some(&chosen.ignored),
        time: input.time,
        subresource: "",
        scale,
    };
    let bad = |e: RequestError, name: &str| match e {
        RequestError::Managed(source) => Error::ManagedFields {
            input: name.to_owned(),
            source,
        },
        e => Error::Input(format!("{name}: {e}")),
    };
    // First without force: the conflicts that `--force-conflicts` takes are part of the plan.
    for m in input.migrate {
        if !present(live, std::slice::from_ref(m)).contains(m) {
            warnings.push(checks::warning(
                Code::SsaMigrateManager,
                None,
                Some(m),
                &[],
                format!(
                    "--migrate-manager {m}: the live object has no Update entry of {m:?}: nothing to migrate"
                ),
            ));
        }
    }
    let apply = |force| {
        let read = Live::Read {
            object: &bare,
            managed: before.clone(),
        };
        migrate_then_apply(
            &req,
            (live, read),
            &file,
            input.manager,
            force,
            input.migrate,
        )
    };
    let ((steps, after), forced) = match apply(false) {
        Ok(done) => {
            debug_assert!(
                refusal().is_none(),
                "a refused file fails the first request"
            );
            (done, Vec::new())
        }
        Err(RequestError::Conflicts(c)) if input.force => {
            let done = apply(true).map_err(|e| bad(e, input.local_name))?;
            (done, c.0)
        }
        Err(RequestError::Conflicts(c)) => {
            return Ok(SsaOutcome::Conflicts {
                conflicts: c,
                warnings: conflict_warnings(input)?,
            });
        }
        Err(e) => return refused(refusal(), e).map_err(|e| bad(e, input.local_name)),
    };
    // The registry's lock, once the first apply merged (conflicts come first): on the file's
    // resourceVersion (`--migrate-manager` wrote the object before).
    let written =
        matches!(steps.first(), Some(s) if matches!(s.kind, StepKind::MigrateManagers { .. }));
    if let Some(refusal) = checks::lock::refusal(input.local, live, written, input.resource) {
        return Ok(SsaOutcome::Refused(Box::new(refusal)));
    }
    let after = after.as_stored();
    // The comparisons read the steps' objects as they are (without managedFields); the
    // result is the last one as stored: copied after them, its managedFields written beside
    // (two cores for a big object).
    let empty = Value::Object(crate::value::Map::new());
    let compare = |a: &Value, b: &Value| {
        let bare = |v| if Value::is_null(v) { &empty } else { v };
        typed::compare(chosen.schema, chosen.root, bare(a), bare(b))
            .map_err(|e| Error::Input(format!("{}: {e}", input.live_name)))
    };
    // Each step's comparison (the csaupgrade's none: it changes only managedFields).
    let mut compared = Vec::with_capacity(steps.len());
    let mut prev: &Value = &bare;
    for step in &steps {
        compared.push(match (&step.kind, &step.compared) {
            (StepKind::UpgradeManagedFields { .. }, _) => None,
            // The request's own comparison, when it compared the objects as they are.
            (_, Some(c)) => {
                debug_assert!(
                    compare(prev, &step.object).is_ok_and(|d| d == *c),
                    "the request compared what the plan compares"
                );
                Some(std::borrow::Cow::Borrowed(c))
            }
            (_, None) => Some(std::borrow::Cow::Owned(compare(prev, &step.object)?)),
        });
        prev = &*step.object;
    }
    let Some(last) = steps.last() else {
        return Err(Error::Input(format!(
            "{}: the apply made no request",
            input.local_name
        )));
    };
    let result = Arc::clone(&last.object);
    debug_assert_eq!(
        after,
        managed_of(&last.stored()),
        "the managers handed back"
    );
    // What each step changed, as printed, beside the whole command's comparison composed
    // from the steps' (`None`: one that membership alone cannot compose).
    let step_changes = || {
        compared
            .iter()
            .map(|c| c.as_deref().map(changes).unwrap_or_default())
            .collect::<Vec<_>>()
    };
    let composed = || {
        let mut whole = compared.iter().flatten();
        let first = whole.next().map(|c| c.clone().into_owned());
        whole.try_fold(first?, |w, c| w.then(c))
    };
    let (step_changes, composed) = par::both(scale.is_big(&result), step_changes, composed);
    let comparison = match composed {
        Some(c) => {
            debug_assert!(
                compare(&bare, &result).is_ok_and(|d| d == c),
                "the steps' comparisons compose into the whole command's"
            );
            c
        }
        None => compare(&bare, &result)?,
    };
    let forced: Vec<(Path, ManagerId)> = forced.into_iter().map(|c| (c.path, c.manager)).collect();
    // The client-side managers whose fields the csaupgrade made the applier's.
    let migrated: Vec<String> = steps
        .iter()
        .filter_map(|s| match &s.kind {
            StepKind::UpgradeManagedFields { from } | StepKind::MigrateManagers { from } => {
                Some(from.clone())
            }
            _ => None,
        })
        .flatten()
        .collect();
    let me = ManagerId::apply(input.manager);
    let mut fields = fields(
        (&bare, &before),
        (&result, &after),
        &comparison,
        (&forced, &me, &migrated),
        (chosen.schema, chosen.root),
    );
    let planned = Planned {
        local: input.local,
        live,
        result: &result,
        before: &before,
        after: &after,
        steps: &steps,
        step_changes: &step_changes,
        fields: &fields,
        me: &me,
        forced: &forced,
        migrated: &migrated,
        api_version: &api_version,
        kind: &kind,
    };
    let (checked, hidden) = checks::after_apply(&planned);
    warnings.extend(checked);
    warnings.extend(checks::lock::reapply_refused(
        &steps,
        input.local,
        input.resource,
    ));
    for i in hidden {
        if let Some(f) = fields.get_mut(i) {
            f.hidden_from_diff = true;
        }
    }
    for step in &steps {
        if let StepKind::MigrateManagers { from } = &step.kind {
            warnings.push(checks::warning(
                Code::SsaMigrateManager,
                None,
                Some(&from.join(", ")),
                &[],
                format!(
                    "migrated before the apply (as Helm 4 and Argo CD do on their switch to server-side apply): the Update entries of {} became {}'s Apply entry, so the apply prunes what they owned and the file dropped; kubectl apply --server-side would not do this",
                    from.join(", "),
                    input.manager
                ),
            ));
        }
    }
    Ok(SsaOutcome::Planned(Box::new(SsaPlan {
        patch: file,
        steps,
        step_changes,
        result,
        managers: after,
        live: bare,
        fields,
        warnings,
    })))
}

/// The `ssa-controller-owns-field` warnings of an apply the API server refuses with conflicts:
/// the fields `--force-conflicts` would take from another manager, each with that manager
/// (the plan with force, read for them).
///
/// # Errors
/// As [`plan_server_side`].
fn conflict_warnings(input: &SsaInput<'_>) -> Result<Vec<Warning>, Error> {
    let forced = SsaInput {
        force: true,
        ..*input
    };
    Ok(match plan_server_side(&forced)? {
        SsaOutcome::Planned(plan) => plan
            .warnings
            .into_iter()
            .filter(|w| w.code == Code::SsaControllerOwnsField)
            .collect(),
        SsaOutcome::Conflicts { .. } | SsaOutcome::Refused(_) => Vec::new(),
    })
}

/// Now in UTC, as the API server writes times (`2026-11-25T19:00:00Z`).
#[must_use]
pub fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// Seconds since 1970 in UTC, as the API server writes times.
fn rfc3339(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_as_the_api_server_writes_them() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_709_211_909), "2024-02-29T13:05:09Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }
}
