//! The requests of `kubectl apply --server-side` for one object, typed, for every front end:
//!
//! - [`apply_plan_requests`]: the requests a plan predicts (what is printed before sending);
//! - [`dry_run`]: the server dry run of the first apply (`dryRun=All`), sent before anything;
//! - [`send_server_side`]: the sequence kubectl sends, each follow-up decided from the answer
//!   before it, as `apply.go` decides it ([`next_step`]): the apply; the `kubectl-last-applied`
//!   apply; the csaupgrade JSON patch of `metadata.managedFields`, guarded by the answer's
//!   resourceVersion (on a 409 the object is read again and the patch made again, at most
//!   [`MAX_PATCH_RETRY`] times); the apply again. A failed follow-up is a warning, as in
//!   kubectl: the object was applied.
//!
//! The transport is a function (a [`crate::cluster::Cluster`]'s or the TUI's connection's
//! `send`), so the sequence is the same wherever it runs.

use super::SsaPlan;
use crate::cluster::ssa::{apply_patch, upgrade_patch};
use crate::cluster::{ClusterError, Request, Target, Validation, get, resource_version};
use crate::engine::ssa::csaupgrade;
use crate::engine::ssa::kubectl::{LAST_APPLIED_MANAGER, Next, StepKind, entries, next_step};
use crate::value::Value;

/// kubectl's `maxPatchRetry`: csaupgrade patches tried on 409 before giving up.
pub const MAX_PATCH_RETRY: usize = 5;

/// One of kubectl's requests: which step, and the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SsaRequest {
    pub step: StepKind,
    pub request: Request,
}

/// What is applied, where, and how.
#[derive(Clone, Copy, Debug)]
pub struct SsaSend<'a> {
    pub target: &'a Target,
    /// The body kubectl sends ([`super::cluster::apply_body`]).
    pub body: &'a Value,
    pub manager: &'a str,
    pub force: bool,
    pub validation: Validation,
}

impl SsaSend<'_> {
    fn apply(&self, dry_run: bool) -> Result<Request, ClusterError> {
        apply_patch(
            self.target,
            self.body,
            self.manager,
            Some(self.force),
            self.validation,
            dry_run,
        )
    }

    fn save_last_applied(&self, body: &Value) -> Result<Request, ClusterError> {
        apply_patch(
            self.target,
            body,
            LAST_APPLIED_MANAGER,
            None,
            self.validation,
            false,
        )
    }

    /// The csaupgrade's JSON patch from the entries `before` (of the object of this
    /// resourceVersion) to `after`.
    fn upgrade(
        &self,
        (before, version): (&[Value], &str),
        after: &[Value],
    ) -> Result<Request, ClusterError> {
        upgrade_patch(
            self.target,
            before,
            after,
            version,
            self.manager,
            self.validation,
            false,
        )
    }
}

/// The requests kubectl makes for `plan`, as the plan predicts them. The csaupgrade carries
/// the resourceVersion of the object planned from; sent, it carries the one of the answer
/// before it.
///
/// # Errors
/// A body cannot be written as JSON.
pub fn apply_plan_requests(
    send: &SsaSend<'_>,
    plan: &SsaPlan,
    live: Option<&Value>,
) -> Result<Vec<SsaRequest>, ClusterError> {
    let mut out = Vec::with_capacity(plan.steps.len());
    // The object before each step: its entries and its resourceVersion.
    let mut before = live.map_or((&[][..], ""), |live| {
        (entries(live), resource_version(live).unwrap_or(""))
    });
    for step in &plan.steps {
        let request = match &step.kind {
            StepKind::Apply | StepKind::ApplyAgain => send.apply(false)?,
            StepKind::SaveLastApplied => send.save_last_applied(step.body())?,
            // A migration (`--migrate-manager`) is sent as the csaupgrade is: a JSON patch of
            // the managedFields.
            StepKind::UpgradeManagedFields { .. } | StepKind::MigrateManagers { .. } => {
                send.upgrade(before, step.entries())?
            }
        };
        out.push(SsaRequest {
            step: step.kind.clone(),
            request,
        });
        before = (step.entries(), resource_version(&step.object).unwrap_or(""));
    }
    Ok(out)
}

/// The server dry run of the first apply, and the request sent.
///
/// # Errors
/// The server's refusal (conflicts as [`ClusterError::ApplyConflicts`]).
pub fn dry_run(
    send: &SsaSend<'_>,
    transport: &mut dyn FnMut(&Request) -> Result<Option<Value>, ClusterError>,
) -> Result<(Request, Value), ClusterError> {
    let request = send.apply(true)?;
    let answer = answered(transport(&request), &request)?;
    Ok((request, answer))
}

/// One request sent and the server's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// `None`: the GET that reads the object again after a csaupgrade's 409.
    pub step: Option<StepKind>,
    pub request: Request,
    pub answer: Result<Value, ClusterError>,
}

/// What the sequence did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    pub sent: Vec<Sent>,
    /// kubectl's warnings for a follow-up that failed (the object was applied).
    pub warnings: Vec<String>,
}

impl Applied {
    /// The object as the last successful answer left it.
    #[must_use]
    pub fn object(&self) -> Option<&Value> {
        self.sent
            .iter()
            .rev()
            .find_map(|s| s.answer.as_ref().ok().filter(|_| s.step.is_some()))
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

const LAST_APPLIED_FAILED: &str = "failed to migrate kubectl.kubernetes.io/last-applied-configuration for Server-Side Apply. This is non-fatal and will be retried next time you apply. Error: ";
const UPGRADE_FAILED: &str = "server rejected managed fields migration to Server-Side Apply. This is non-fatal and will be retried next time you apply. Error: ";
const REAPPLY_FAILED: &str = "failed to re-apply configuration after performing Server-Side Apply migration. This is non-fatal and will be retried next time you apply. Error: ";

/// Send kubectl's sequence for one object (after its dry run).
///
/// # Errors
/// The first apply's refusal; nothing else is sent then.
pub fn send_server_side(
    send: &SsaSend<'_>,
    transport: &mut dyn FnMut(&Request) -> Result<Option<Value>, ClusterError>,
) -> Result<Applied, ClusterError> {
    let first = send.apply(false)?;
    let mut object = answered(transport(&first), &first)?;
    let mut applied = Applied::default();
    applied.sent.push(Sent {
        step: Some(StepKind::Apply),
        request: first,
        answer: Ok(object.clone()),
    });
    let mut done = StepKind::Apply;
    loop {
        let next = match next_step(&done, &object, send.manager) {
            Ok(Some(next)) => next,
            Ok(None) => break,
            Err(e) => {
                applied.warnings.push(format!("{UPGRADE_FAILED}{e}"));
                break;
            }
        };
        let (step, result) = match next {
            Next::SaveLastApplied(body) => {
                let step = StepKind::SaveLastApplied;
                let request = send.save_last_applied(&body)?;
                let result = answered(transport(&request), &request);
                record(&mut applied, &step, request, &result);
                (
                    step,
                    result.map_err(|e| format!("{LAST_APPLIED_FAILED}{e}")),
                )
            }
            Next::UpgradeManagedFields { from, upgraded } => {
                let step = StepKind::UpgradeManagedFields { from };
                match upgrade(
                    send,
                    transport,
                    &mut applied,
                    &step,
                    object.clone(),
                    upgraded,
                )? {
                    Some(result) => (step, result.map_err(|e| format!("{UPGRADE_FAILED}{e}"))),
                    // Read again, nothing left to migrate: no migration, no second apply.
                    None => break,
                }
            }
            Next::ApplyAgain => {
                let step = StepKind::ApplyAgain;
                let request = send.apply(false)?;
                let result = answered(transport(&request), &request);
                record(&mut applied, &step, request, &result);
                (step, result.map_err(|e| format!("{REAPPLY_FAILED}{e}")))
            }
        };
        match result {
            Ok(answer) => {
                object = answer;
                done = step;
            }
            Err(warning) => {
                applied.warnings.push(warning);
                break;
            }
        }
    }
    Ok(applied)
}

fn record(
    applied: &mut Applied,
    step: &StepKind,
    request: Request,
    result: &Result<Value, ClusterError>,
) {
    applied.sent.push(Sent {
        step: Some(step.clone()),
        request,
        answer: result.clone(),
    });
}

/// The csaupgrade with kubectl's retries: on a 409 the object is read again and the same
/// managers merged on it. `None`: read again, there was nothing left to migrate.
fn upgrade(
    send: &SsaSend<'_>,
    transport: &mut dyn FnMut(&Request) -> Result<Option<Value>, ClusterError>,
    applied: &mut Applied,
    step: &StepKind,
    mut object: Value,
    mut upgraded: Value,
) -> Result<Option<Result<Value, ClusterError>>, ClusterError> {
    let StepKind::UpgradeManagedFields { from } = step else {
        return Ok(None);
    };
    let names: Vec<&str> = from.iter().map(String::as_str).collect();
    let mut last = None;
    for attempt in 0..MAX_PATCH_RETRY {
        if attempt > 0 {
            let request = get(send.target);
            let read = answered(transport(&request), &request);
            applied.sent.push(Sent {
                step: None,
                request,
                answer: read.clone(),
            });
            object = match read {
                Ok(o) => o,
                Err(e) => return Ok(Some(Err(e))),
            };
            upgraded = object.clone();
            if csaupgrade::upgrade_managed_fields(&mut upgraded, &names, send.manager, "").is_err()
                || entries(&upgraded) == entries(&object)
            {
                return Ok(None);
            }
        }
        let before = (entries(&object), resource_version(&object).unwrap_or(""));
        let request = send.upgrade(before, entries(&upgraded))?;
        let result = answered(transport(&request), &request);
        record(applied, step, request, &result);
        match result {
            Err(e) if e.is_conflict() => last = Some(Err(e)),
            result => return Ok(Some(result)),
        }
    }
    Ok(last)
}

#[cfg(test)]
mod tests;
