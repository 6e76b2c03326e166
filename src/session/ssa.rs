//! `plan --server-side` on files: the local object, the live one (with its
//! `metadata.managedFields`) or none, planned by the pure SSA engine
//! ([`crate::engine::ssa::kubectl::apply_server_side`]): every request kubectl would make, the
//! object left, and per field what happened and who owns it before and after.

use crate::engine::ssa::explain::{changes, fields};
use crate::engine::ssa::kubectl::{Step, StepKind, apply_server_side};
use crate::engine::ssa::kubernetes;
use crate::engine::ssa::managed::{self, ManagerId};
use crate::engine::ssa::path::Path;
use crate::engine::ssa::request::{Request, RequestError};
use crate::engine::ssa::schema::UNTYPED_DEDUCED;
use crate::engine::ssa::typed;
use crate::error::Error;
use crate::value::Value;

pub use crate::engine::ssa::explain::{Action, Field, operation, value_at};

/// What to plan.
pub struct SsaInput<'a> {
    pub local: &'a Value,
    /// `None`: the object does not exist yet (a create).
    pub live: Option<&'a Value>,
    /// The files' names, for errors.
    pub local_name: &'a str,
    pub live_name: &'a str,
    pub manager: &'a str,
    pub force: bool,
    /// Now, as the API server writes it (`2026-11-25T19:00:00Z`).
    pub time: &'a str,
}

/// The plan of one `kubectl apply --server-side`.
#[derive(Debug)]
pub struct SsaPlan {
    /// The body kubectl sends.
    pub patch: Value,
    pub steps: Vec<Step>,
    /// What each step changed (paths and actions), in the order of `steps`.
    pub step_changes: Vec<Vec<(String, Action)>>,
    pub result: Value,
    pub fields: Vec<Field>,
    pub warnings: Vec<String>,
}

/// The plan, or the API server's refusal.
#[derive(Debug)]
pub enum SsaOutcome {
    Planned(Box<SsaPlan>),
    /// The 409's message, exactly as the API server prints it.
    Conflicts(String),
}

fn types(api_version: &str, kind: &str) -> Option<crate::engine::ssa::TypeRef> {
    kubernetes::embedded().root_for_gvk(api_version, kind)
}

/// Plan the apply.
///
/// # Errors
/// [`Error::ManagedFields`] for a live object whose managedFields cannot be read (naming the
/// file and the entry), [`Error::Input`] for an object the API server would refuse.
pub fn plan_server_side(input: &SsaInput<'_>) -> Result<SsaOutcome, Error> {
    let live = input.live.cloned().unwrap_or(Value::Null);
    managed::decode_entries(live.get("metadata").and_then(|m| m.get("managedFields"))).map_err(
        |source| Error::ManagedFields {
            input: input.live_name.to_owned(),
            source,
        },
    )?;
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let (api_version, kind) = (s(input.local, "apiVersion"), s(input.local, "kind"));
    let kube = kubernetes::embedded();
    let mut warnings = Vec::new();
    let root = match kube.root_for_gvk(&api_version, &kind) {
        Some(root) => root,
        None => {
            warnings.push(format!(
                "{api_version} {kind} is not in the embedded schema: its fields are merged as the API server merges an unknown type (maps granular, lists atomic)"
            ));
            kube.schema
                .named(UNTYPED_DEDUCED)
                .ok_or_else(|| Error::Input("the embedded schema has no deduced type".into()))?
        }
    };
    let ignored = kube.reset_fields(&api_version, &kind);
    let req = Request {
        schema: &kube.schema,
        root,
        api_version: &api_version,
        types: &types,
        ignored: Some(&ignored),
        time: input.time,
        subresource: "",
    };
    let bad = |e: RequestError, name: &str| match e {
        RequestError::Managed(source) => Error::ManagedFields {
            input: name.to_owned(),
            source,
        },
        e => Error::Input(format!("{name}: {e}")),
    };
    // First without force: the conflicts that `--force-conflicts` takes are part of the plan.
    let (steps, forced) = match apply_server_side(&req, &live, input.local, input.manager, false) {
        Ok(steps) => (steps, Vec::new()),
        Err(RequestError::Conflicts(c)) if input.force => {
            let steps = apply_server_side(&req, &live, input.local, input.manager, true)
                .map_err(|e| bad(e, input.local_name))?;
            (steps, c.0)
        }
        Err(RequestError::Conflicts(c)) => return Ok(SsaOutcome::Conflicts(c.to_string())),
        Err(e) => return Err(bad(e, input.local_name)),
    };
    let mut steps = steps;
    let mut live = live;
    // The comparisons read the objects without `metadata.managedFields`: taken out of each
    // object (not copied) and put back in their place afterwards.
    let mut taken = vec![take_managed_fields(&mut live)];
    taken.extend(steps.iter_mut().map(|s| take_managed_fields(&mut s.object)));
    let empty = Value::Object(crate::value::Map::new());
    let compare = |a: &Value, b: &Value| {
        let bare = |v| if Value::is_null(v) { &empty } else { v };
        typed::compare(&kube.schema, root, bare(a), bare(b))
            .map_err(|e| Error::Input(format!("{}: {e}", input.live_name)))
    };
    let mut step_changes = Vec::new();
    let mut prev = &live;
    for step in &steps {
        // The csaupgrade changes only managedFields.
        if matches!(step.kind, StepKind::UpgradeManagedFields { .. }) {
            step_changes.push(Vec::new());
        } else {
            step_changes.push(changes(&compare(prev, &step.object)?));
        }
        prev = &step.object;
    }
    let comparison = compare(&live, steps.last().map_or(&live, |s| &s.object))?;
    let mut taken = taken.into_iter();
    put_back(&mut live, taken.next().flatten());
    for (step, t) in steps.iter_mut().zip(taken) {
        put_back(&mut step.object, t);
    }
    let result = steps
        .last()
        .map_or_else(|| live.clone(), |s| s.object.clone());
    let forced: Vec<(Path, ManagerId)> = forced.into_iter().map(|c| (c.path, c.manager)).collect();
    // The client-side managers whose fields the csaupgrade made the applier's.
    let migrated: Vec<String> = steps
        .iter()
        .filter_map(|s| match &s.kind {
            StepKind::UpgradeManagedFields { from } => Some(from.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let fields = fields(
        &live,
        &result,
        &comparison,
        &forced,
        &ManagerId::apply(input.manager),
        &migrated,
    );
    if steps
        .iter()
        .any(|s| matches!(s.kind, StepKind::UpgradeManagedFields { .. }))
    {
        warnings.push(
            "the object was made by client-side apply: kubectl moves the client-side manager's fields to the applier (csaupgrade) and applies again, so what the file dropped is pruned (kubernetes#99003); `kubectl diff --server-side` shows only the first apply".into(),
        );
    }
    if fields.iter().any(|f| f.action == Action::Remove) {
        warnings.push(
            "the API server re-defaults a pruned field that has a default (replicas → 1): not shown here".into(),
        );
    }
    Ok(SsaOutcome::Planned(Box::new(SsaPlan {
        patch: input.local.clone(),
        steps,
        step_changes,
        result,
        fields,
        warnings,
    })))
}

/// Takes `metadata.managedFields` out of `obj`: its place and value, for [`put_back`].
fn take_managed_fields(obj: &mut Value) -> Option<(usize, Value)> {
    let meta = obj.get_mut("metadata")?.as_object_mut()?;
    let at = meta.get_full("managedFields")?.0;
    meta.shift_remove("managedFields").map(|v| (at, v))
}

fn put_back(obj: &mut Value, taken: Option<(usize, Value)>) {
    if let (Some((at, v)), Some(meta)) = (
        taken,
        obj.get_mut("metadata").and_then(Value::as_object_mut),
    ) {
        meta.shift_insert(at, "managedFields", v);
    }
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
