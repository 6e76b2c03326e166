//! Saved server-side plans: what `plan --server-side --save` records for each object, and how
//! `apply --plan` sends it ([`send_saved`]).
//!
//! | request | saved | at send time |
//! | --- | --- | --- |
//! | `migrate-managers` (`--migrate-manager`) | the JSON patch, exactly (its resourceVersion is the live object's) | sent as saved |
//! | `apply` | kubectl's PATCH, exactly | sent as saved, `metadata.resourceVersion` added (the guard, see below) |
//! | `save-last-applied`, `apply-again` | as the plan predicts them | decided by [`next_step`] from the real answer; must equal the saved one |
//! | `upgrade-managed-fields` (csaupgrade) | as predicted; `decidedAtSend`: the resourceVersion and the entries' `time` | decided from the real answer; must equal the saved one but for those values |
//!
//! A follow-up that differs from the saved one (or one the answer calls for that was not
//! saved, or a saved one it does not call for) is not sent: the run stops and says so. So is
//! one after a failed request (kubectl would go on with a warning; a saved plan does not send
//! what it did not predict). A csaupgrade refused with 409 (the object changed between the
//! requests) is not retried either.
//!
//! **The guard.** The first apply carries the resourceVersion the plan was computed against,
//! a precondition the API server checks (see `send`'s header). Not when the manager is
//! `kubectl` and the applied object carries the last-applied annotation: the API server writes
//! the applied configuration, guard included, into that annotation (apimachinery
//! `lastappliedupdater.go`, `buildLastApplied`), where kubectl's own apply never puts a
//! resourceVersion. Then the guard is a guarded server dry run sent just before the apply.
//! kubectl itself sends no resourceVersion with an apply.

use crate::cluster::ssa::{apply_patch, upgrade_patch};
use crate::cluster::{ClusterError, Request, Target, Validation, resource_version};
use crate::engine::gojson;
use crate::engine::ssa::kubectl::{
    LAST_APPLIED_MANAGER, Next, StepKind, entries, managed_fields, next_step,
};
use crate::engine::ssa::lastapplied::ANNOTATION;
use crate::session::ssa::SsaPlan;
use crate::session::ssa::apply::{Sent, SsaRequest, SsaSend, apply_plan_requests};
use crate::session::ssa::cluster::SsaObject;
use crate::value::Value;

use super::send::{dry_run, guarded};
use super::{Error, LiveRef, SavedObject, SavedRequest, ServerSide, sha256};

/// What the answers decide in the csaupgrade's body: the resourceVersion of the answer
/// before it, and the API server's timestamps of the managedFields entries.
pub const UPGRADE_DECIDED_AT_SEND: [&str; 2] = ["/1/value", "/0/value/*/time"];

/// The live object as a server-side plan records it: uid, resourceVersion and a digest of
/// its managedFields.
#[must_use]
pub fn live_ref(live: &Value) -> LiveRef {
    let text = |p: &str| {
        live.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let owners = gojson::to_string(&Value::Array(managed_fields(live))).unwrap_or_default();
    LiveRef {
        uid: text("/metadata/uid"),
        resource_version: text("/metadata/resourceVersion"),
        managed_fields: Some(format!("sha256:{}", sha256(owners.as_bytes()))),
    }
}

/// One object planned from the cluster, as a server-side plan saves it: its identity, the
/// live object and kubectl's requests as the plan predicts them.
///
/// # Errors
/// A body cannot be written as JSON.
pub fn saved_object(
    o: &SsaObject,
    plan: &SsaPlan,
    how: &ServerSide,
    validation: Validation,
) -> Result<SavedObject, Error> {
    let t = &o.loaded.target;
    let send = SsaSend {
        target: t,
        body: &o.body,
        manager: &how.field_manager,
        force: how.force_conflicts,
        validation,
    };
    let requests = apply_plan_requests(&send, plan, o.loaded.live.as_ref())
        .map_err(|e| crate::session::cluster::error(&e).context(t.describe()))?;
    Ok(SavedObject {
        object: t.describe(),
        api_version: t.api_version.clone(),
        kind: t.kind.clone(),
        namespace: t.namespace.clone(),
        name: t.name.clone(),
        live: o.loaded.live.as_ref().map(live_ref),
        requests: saved_requests(&requests),
    })
}

/// A plan's requests as saved.
#[must_use]
pub fn saved_requests(requests: &[SsaRequest]) -> Vec<SavedRequest> {
    requests
        .iter()
        .map(|r| SavedRequest {
            step: Some(r.step.name().to_owned()),
            method: r.request.verb.as_str().to_owned(),
            path: r.request.path.clone(),
            query: r.request.query.clone(),
            content_type: r.request.content_type.map(str::to_owned),
            body: r.request.body.clone(),
            decided_at_send: match r.step {
                StepKind::UpgradeManagedFields { .. } => UPGRADE_DECIDED_AT_SEND
                    .iter()
                    .map(|p| (*p).to_owned())
                    .collect(),
                _ => Vec::new(),
            },
        })
        .collect()
}

/// Can the first apply carry the guard? `applied` is the object the plan predicts it leaves.
#[must_use]
pub fn guard_in_body(manager: &str, applied: &Value) -> bool {
    let annotation = applied
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(ANNOTATION))
        .and_then(Value::as_str);
    manager != "kubectl" || annotation.is_none_or(str::is_empty)
}

/// Does `built` (decided from the answers) equal `saved`, but for the values the answers
/// decide?
#[must_use]
pub fn same_request(saved: &SavedRequest, built: &Request) -> bool {
    let heads = saved.method == built.verb.as_str()
        && saved.path == built.path
        && saved.query == built.query
        && saved.content_type.as_deref() == built.content_type;
    heads
        && match (&saved.body, &built.body) {
            (Some(a), Some(b)) if !saved.decided_at_send.is_empty() => {
                let (a, b) = (
                    masked(a, &saved.decided_at_send),
                    masked(b, &saved.decided_at_send),
                );
                a.is_some() && a == b
            }
            (a, b) => a == b,
        }
}

fn masked(text: &str, pointers: &[String]) -> Option<Value> {
    let mut v: Value = serde_json::from_str(text).ok()?;
    for p in pointers {
        let path: Vec<&str> = p.split('/').skip(1).collect();
        blank(&mut v, &path);
    }
    Some(v)
}

fn blank(v: &mut Value, path: &[&str]) {
    let Some((first, rest)) = path.split_first() else {
        *v = Value::Null;
        return;
    };
    match v {
        Value::Array(items) if *first == "*" => {
            for item in items {
                blank(item, rest);
            }
        }
        Value::Array(items) => {
            if let Some(item) = first.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                blank(item, rest);
            }
        }
        Value::Object(map) => {
            if let Some(item) = map.get_mut(first) {
                blank(item, rest);
            }
        }
        _ => {}
    }
}

/// One object of a saved server-side plan, to send.
pub struct SavedSend<'a> {
    /// `ConfigMap team/test`.
    pub object: &'a str,
    pub target: &'a Target,
    pub manager: &'a str,
    pub validation: Validation,
    /// The resourceVersion the plan was computed against (`None`: a create).
    pub live_version: Option<&'a str>,
    /// The first apply carries the guard ([`guard_in_body`]).
    pub guard_in_body: bool,
    pub requests: &'a [SavedRequest],
}

/// Why the sequence stopped before its end.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    pub message: String,
    /// The server's refusal, when a request failed.
    pub error: Option<ClusterError>,
}

/// What was sent, and where it stopped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SavedApplied {
    pub sent: Vec<Sent>,
    pub stopped: Option<Stop>,
}

impl SavedApplied {
    fn stop(&mut self, message: String, error: Option<ClusterError>) {
        self.stopped = Some(Stop { message, error });
    }
}

type Transport<'t> = dyn FnMut(&Request) -> Result<Option<Value>, ClusterError> + 't;

fn step_of(name: Option<&str>) -> Option<StepKind> {
    match name? {
        "apply" => Some(StepKind::Apply),
        "save-last-applied" => Some(StepKind::SaveLastApplied),
        "apply-again" => Some(StepKind::ApplyAgain),
        "upgrade-managed-fields" => Some(StepKind::UpgradeManagedFields { from: Vec::new() }),
        "migrate-managers" => Some(StepKind::MigrateManagers { from: Vec::new() }),
        _ => None,
    }
}

impl SavedSend<'_> {
    /// The saved requests sent as saved (up to and with the first apply), and the saved
    /// follow-ups.
    fn split(&self) -> (&[SavedRequest], &[SavedRequest]) {
        let end = self
            .requests
            .iter()
            .position(|r| r.step.as_deref() == Some("apply"))
            .map_or(self.requests.len(), |i| i + 1);
        self.requests.split_at(end)
    }

    fn request(&self, r: &SavedRequest) -> Result<Request, Error> {
        r.to_request(self.object, &self.target.resource(), &self.target.name)
    }

    /// The saved requests sent as saved, checked before anything is sent.
    ///
    /// # Errors
    /// A step, method or content type kubectl does not send (exit 2).
    pub fn leading(&self) -> Result<Vec<(StepKind, Request)>, Error> {
        let (leading, _) = self.split();
        leading
            .iter()
            .map(|r| {
                let step = step_of(r.step.as_deref()).ok_or_else(|| {
                    Error::Input(format!(
                        "{}: saved request step {:?} is not one of kubectl's",
                        self.object, r.step
                    ))
                })?;
                Ok((step, self.request(r)?))
            })
            .collect()
    }

    /// The server dry run of the first request, guarded by the live resourceVersion (a dry
    /// run leaves nothing behind, so it is guarded in every case).
    ///
    /// # Errors
    /// A saved request kubectl does not send (exit 2).
    pub fn dry_run(&self) -> Result<Option<Request>, Error> {
        let Some((step, first)) = self.leading()?.into_iter().next() else {
            return Ok(None);
        };
        let first = match (step, self.live_version) {
            (StepKind::Apply, Some(rv)) => guarded(&first, rv)?,
            _ => first,
        };
        Ok(Some(dry_run(&first)))
    }
}

fn answered(
    answer: Result<Option<Value>, ClusterError>,
    request: &Request,
) -> Result<Value, ClusterError> {
    answer?.ok_or_else(|| {
        ClusterError::Local(format!(
            "{} {}: no object in the answer",
            request.verb.as_str(),
            request.path
        ))
    })
}

/// Send one object's saved requests: the leading ones as saved (the apply guarded), then each
/// follow-up [`next_step`] decides from the real answer, if it equals the saved one.
///
/// # Errors
/// A saved request kubectl does not send (exit 2; nothing of this object sent).
pub fn send_saved(
    send: &SavedSend<'_>,
    transport: &mut Transport<'_>,
) -> Result<SavedApplied, Error> {
    let leading = send.leading()?;
    let mut applied = SavedApplied::default();
    let mut version = send.live_version.map(str::to_owned);
    let mut object = None;
    let mut apply = None;
    for (step, request) in leading {
        let mut sends = Vec::with_capacity(2);
        if step == StepKind::Apply {
            apply = Some(request.clone());
            match &version {
                Some(rv) if send.guard_in_body => sends.push(guarded(&request, rv)?),
                // The guard as a dry run just before the apply (see the module's header).
                Some(rv) => sends.extend([dry_run(&guarded(&request, rv)?), request]),
                None => sends.push(request),
            }
        } else {
            sends.push(request);
        }
        for request in sends {
            let answer = answered(transport(&request), &request);
            let dry = request.is_dry_run();
            applied.sent.push(Sent {
                step: Some(step.clone()),
                request,
                answer: answer.clone(),
            });
            match answer {
                Ok(_) if dry => {}
                Ok(a) => {
                    version = resource_version(&a).map(str::to_owned);
                    object = Some(a);
                }
                Err(e) => {
                    let what = if dry {
                        "the guard's server dry run"
                    } else {
                        step.name()
                    };
                    applied.stop(format!("{}: {what}: {e}", send.object), Some(e));
                    return Ok(applied);
                }
            }
        }
    }
    let (Some(mut object), Some(apply)) = (object, apply) else {
        return Ok(applied);
    };
    let mut done = StepKind::Apply;
    let (_, saved) = send.split();
    let mut saved = saved.iter();
    loop {
        let expected = saved.next();
        let next = match next_step(&done, &object, send.manager) {
            Ok(Some(next)) => next,
            Ok(None) => {
                if let Some(r) = expected {
                    applied.stop(format!(
                        "{}: the server's answer calls for no further request, but the plan saved {} ({} {}): the saved plan no longer holds; check the object",
                        send.object,
                        r.step.as_deref().unwrap_or("?"),
                        r.method,
                        r.path
                    ), None);
                }
                return Ok(applied);
            }
            Err(e) => {
                applied.stop(format!(
                    "{}: the answer's managedFields cannot be read ({e}): the follow-ups were not sent",
                    send.object
                ), None);
                return Ok(applied);
            }
        };
        let (step, request) = follow_up(send, next, &object, &apply)
            .map_err(|e| Error::Input(format!("{}: {e}", send.object)))?;
        let holds = expected
            .is_some_and(|r| r.step.as_deref() == Some(step.name()) && same_request(r, &request));
        if !holds {
            let saved_as = expected.map_or("nothing".to_owned(), |r| {
                format!(
                    "{} {} {}",
                    r.step.as_deref().unwrap_or("?"),
                    r.method,
                    r.path
                )
            });
            applied.stop(format!(
                "{}: kubectl's next request, decided from the server's answer ({} {}), differs from the saved one ({saved_as}): not sent; the object was applied, its follow-ups were not (run `apply --server-side` to complete them)",
                send.object,
                step.name(),
                request.describe()
            ), None);
            return Ok(applied);
        }
        let answer = answered(transport(&request), &request);
        applied.sent.push(Sent {
            step: Some(step.clone()),
            request,
            answer: answer.clone(),
        });
        match answer {
            Ok(a) => {
                object = a;
                done = step;
            }
            Err(e) => {
                let why = if e.is_conflict() {
                    " (the object changed between the requests)"
                } else {
                    ""
                };
                applied.stop(format!(
                    "{}: {}{why}: {e}; the object was applied, the remaining follow-ups were not sent",
                    send.object,
                    step.name()
                ), Some(e));
                return Ok(applied);
            }
        }
    }
}

/// The request kubectl makes for `next`, decided from `object` (the answer before it).
fn follow_up(
    send: &SavedSend<'_>,
    next: Next,
    object: &Value,
    apply: &Request,
) -> Result<(StepKind, Request), ClusterError> {
    Ok(match next {
        Next::SaveLastApplied(body) => (
            StepKind::SaveLastApplied,
            apply_patch(
                send.target,
                &body,
                LAST_APPLIED_MANAGER,
                None,
                send.validation,
                false,
            )?,
        ),
        Next::UpgradeManagedFields { from, upgraded } => (
            StepKind::UpgradeManagedFields { from },
            upgrade_patch(
                send.target,
                entries(object),
                entries(&upgraded),
                resource_version(object).unwrap_or(""),
                send.manager,
                send.validation,
                false,
            )?,
        ),
        Next::ApplyAgain => (StepKind::ApplyAgain, apply.clone()),
    })
}

#[cfg(test)]
mod tests;
