//! `plan --server-side` on files: the local object, the live one (with its
//! `metadata.managedFields`) or none, planned by the pure SSA engine
//! ([`crate::engine::ssa::kubectl::apply_server_side`]): every request kubectl would make, the
//! object left, and per field what happened and who owns it before and after.

use crate::engine::ssa::kubectl::{Step, StepKind, apply_server_side};
use crate::engine::ssa::kubernetes;
use crate::engine::ssa::managed::{self, Managed, ManagerId, Operation};
use crate::engine::ssa::path::{Path, PathElement, path_string};
use crate::engine::ssa::request::{Request, RequestError};
use crate::engine::ssa::schema::UNTYPED_DEDUCED;
use crate::engine::ssa::set::Set;
use crate::engine::ssa::typed::{self, Comparison};
use crate::error::Error;
use crate::value::{Map, Value};

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

/// What a field becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Add,
    Set,
    /// Pruned: the applier owned it, the file dropped it, nobody else owns it.
    Remove,
    /// The value stays while its ownership changes (kept by another manager, shared, moved).
    Keep,
    /// Another manager owned it and the file changes it (taken with `--force-conflicts`).
    Conflict,
}

impl Action {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Add => "add",
            Action::Set => "set",
            Action::Remove => "remove",
            Action::Keep => "keep",
            Action::Conflict => "conflict",
        }
    }
}

/// One field of the plan.
#[derive(Clone, Debug)]
pub struct Field {
    /// As the API server prints it (`.spec.replicas`).
    pub path: String,
    pub action: Action,
    pub before: Option<Value>,
    pub after: Option<Value>,
    pub owners_before: Vec<ManagerId>,
    pub owners_after: Vec<ManagerId>,
    /// The rule that decided, in words.
    pub rule: String,
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

fn managed_of(obj: &Value) -> Managed {
    managed::decode(obj.get("metadata").and_then(|m| m.get("managedFields"))).unwrap_or_default()
}

fn without_managed_fields(obj: &Value) -> Value {
    let mut obj = obj.clone();
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.shift_remove("managedFields");
    }
    if obj.is_null() {
        obj = Value::Object(Map::new());
    }
    obj
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
    let result = steps
        .last()
        .map_or_else(|| live.clone(), |s| s.object.clone());
    let compare = |a: &Value, b: &Value| {
        typed::compare(
            &kube.schema,
            root,
            &without_managed_fields(a),
            &without_managed_fields(b),
        )
        .map_err(|e| Error::Input(format!("{}: {e}", input.live_name)))
    };
    let mut step_changes = Vec::new();
    let mut prev = &live;
    for step in &steps {
        let c = compare(prev, &step.object)?;
        step_changes.push(changes(&c));
        prev = &step.object;
    }
    let comparison = compare(&live, &result)?;
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

fn changes(c: &Comparison) -> Vec<(String, Action)> {
    let mut out = Vec::new();
    for (set, action) in [
        (&c.added, Action::Add),
        (&c.modified, Action::Set),
        (&c.removed, Action::Remove),
    ] {
        for p in set.paths() {
            out.push((path_string(&p), action));
        }
    }
    out
}

fn owners(m: &Managed, path: &[PathElement]) -> Vec<ManagerId> {
    m.fields
        .iter()
        .filter(|(_, vs)| vs.set.has(path))
        .filter_map(|(k, _)| ManagerId::from_key(k))
        .collect()
}

/// The part of a set under a path.
fn descend<'s>(mut s: &'s Set, path: &[PathElement]) -> Option<&'s Set> {
    for pe in path {
        s = s.child(pe)?;
    }
    Some(s)
}

/// The value at a path of an object.
#[must_use]
pub fn value_at<'v>(v: &'v Value, path: &[PathElement]) -> Option<&'v Value> {
    let mut cur = v;
    for pe in path {
        cur = match pe {
            PathElement::Field(name) => cur.get(name.as_str())?,
            PathElement::Key(keys) => cur.as_array()?.iter().find(|item| {
                keys.iter()
                    .all(|(k, want)| item.get(k.as_str()).is_some_and(|got| got == want))
            })?,
            PathElement::Value(want) => cur.as_array()?.iter().find(|item| *item == want)?,
            PathElement::Index(i) => cur.as_array()?.get(usize::try_from(*i).ok()?)?,
        };
    }
    Some(cur)
}

fn names(ids: &[ManagerId]) -> String {
    ids.iter()
        .map(|m| m.manager.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn fields(
    live: &Value,
    result: &Value,
    c: &Comparison,
    forced: &[(Path, ManagerId)],
    me: &ManagerId,
    migrated: &[String],
) -> Vec<Field> {
    let (before, after) = (managed_of(live), managed_of(result));
    let mut all = Set::new();
    for m in [&before, &after] {
        for vs in m.fields.values() {
            all = all.union(&vs.set);
        }
    }
    all = all.union(&c.added).union(&c.modified).union(&c.removed);
    let under = |set: &Set, p: &[PathElement]| (1..p.len()).any(|n| set.has(&p[..n]));
    let (live, result) = (without_managed_fields(live), without_managed_fields(result));
    let mut out = Vec::new();
    for p in all.paths() {
        let changed = [&c.added, &c.removed, &c.modified]
            .into_iter()
            .find(|s| s.has(&p));
        let (ob, oa) = (owners(&before, &p), owners(&after, &p));
        let owned =
            |q: &[PathElement]| !owners(&before, q).is_empty() || !owners(&after, q).is_empty();
        // An item added or removed whole (someone owns it as such) says it for what is
        // inside; a container nobody owns (a route) is said by what is inside it.
        let said_above = |s: &Set| (1..p.len()).any(|n| s.has(&p[..n]) && owned(&p[..n]));
        match changed {
            Some(s) if said_above(s) => continue,
            Some(s)
                if ob.is_empty()
                    && oa.is_empty()
                    && descend(s, &p).is_some_and(|d| !d.is_empty()) =>
            {
                continue;
            }
            None if under(&c.added, &p) || under(&c.removed, &p) => continue,
            _ => {}
        }
        // Nobody owns the identity (`stripmeta`): not a field of the plan.
        if ob.is_empty()
            && oa.is_empty()
            && p.first()
                .and_then(PathElement::as_field)
                .is_some_and(|f| ["apiVersion", "kind", "metadata"].contains(&f))
        {
            continue;
        }
        let had = ob.contains(me);
        let upgraded = ob
            .iter()
            .any(|o| o.operation == Operation::Update && migrated.contains(&o.manager));
        let annotation = p
            .last()
            .and_then(PathElement::as_field)
            .is_some_and(|f| f == crate::engine::ssa::lastapplied::ANNOTATION);
        let (action, rule) = if let Some((_, m)) =
            forced.iter().find(|(fp, _)| fp.as_slice() == p.as_slice())
        {
            (
                Action::Conflict,
                format!(
                    "conflict: {} owned it and the file sets another value; --force-conflicts takes it",
                    m.manager
                ),
            )
        } else if annotation && (c.modified.has(&p) || c.added.has(&p) || ob != oa) {
            (
                Action::Set,
                "rewritten by the API server from the applied object (lastAppliedUpdater); kubectl saves it as kubectl-last-applied so that no apply prunes it".to_owned(),
            )
        } else if c.removed.has(&p) {
            let rule = if had {
                "pruned: you owned it, the file dropped it, and nobody else owns it".to_owned()
            } else if upgraded {
                format!(
                    "pruned by the second apply: the csaupgrade made {}'s fields yours, the file dropped it, and nobody else owns it (kubernetes#99003)",
                    names(&ob)
                )
            } else {
                "removed: its owners dropped it".to_owned()
            };
            (Action::Remove, rule)
        } else if (c.added.has(&p) || c.modified.has(&p))
            && oa.contains(me)
            && let Some(lost) = ob.iter().find(|o| *o != me && !oa.contains(o))
        {
            // Taken without --force-conflicts: only kubectl's last-applied excusal forces.
            (
                Action::Conflict,
                format!(
                    "conflict excused: {} owned it, but kubectl's last-applied annotation still holds the live value, so the API server forces the apply",
                    lost.manager
                ),
            )
        } else if c.added.has(&p) {
            (Action::Add, "added: the file sets it".to_owned())
        } else if c.modified.has(&p) {
            (Action::Set, "set: the file sets another value".to_owned())
        } else if ob != oa
            && !(oa.is_empty()
                && p.last().and_then(PathElement::as_field).is_some()
                && value_at(&result, &p).is_some_and(Value::is_object))
        {
            let rule = if had && !oa.contains(me) {
                format!("kept: the file dropped it, but {} also owns it", names(&oa))
            } else if !had && oa.contains(me) && ob.iter().any(|o| !oa.contains(o)) {
                format!("ownership moved from {} (csaupgrade or forced)", names(&ob))
            } else if !had && oa.contains(me) {
                format!("shared: the file sets the value {} already set", names(&ob))
            } else {
                "owners change; the value stays".to_owned()
            };
            (Action::Keep, rule)
        } else {
            continue;
        };
        out.push(Field {
            path: path_string(&p),
            action,
            before: value_at(&live, &p).cloned(),
            after: value_at(&result, &p).cloned(),
            owners_before: ob,
            owners_after: oa,
            rule,
        });
    }
    out
}

/// `Apply` or `Update`, for the writers.
#[must_use]
pub fn operation(id: &ManagerId) -> &'static str {
    match id.operation {
        Operation::Apply => "Apply",
        Operation::Update => "Update",
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

    #[test]
    fn values_at_paths() {
        let v: Value = serde_json::from_str(
            r#"{"spec":{"containers":[{"name":"web","env":[{"name":"B","value":"2"}]}],"args":["a","b"],"set":["x"]}}"#,
        )
        .unwrap();
        let path = [
            PathElement::field("spec"),
            PathElement::field("containers"),
            PathElement::key(vec![("name".into(), Value::from("web"))]),
            PathElement::field("env"),
            PathElement::key(vec![("name".into(), Value::from("B"))]),
            PathElement::field("value"),
        ];
        assert_eq!(value_at(&v, &path), Some(&Value::from("2")));
        let args = [
            PathElement::field("spec"),
            PathElement::field("args"),
            PathElement::Index(1),
        ];
        assert_eq!(value_at(&v, &args), Some(&Value::from("b")));
        let set = [
            PathElement::field("spec"),
            PathElement::field("set"),
            PathElement::Value(Value::from("x")),
        ];
        assert_eq!(value_at(&v, &set), Some(&Value::from("x")));
        assert_eq!(value_at(&v, &[PathElement::field("status")]), None);
    }
}
