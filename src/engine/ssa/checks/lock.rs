//! The registry's lock on `metadata.resourceVersion` ([`crate::engine::lock`]) in
//! `kubectl apply --server-side`: the body is the file, so a file that carries a
//! resourceVersion (`kubectl get -o yaml` writes one) sends it with every apply.
//!
//! - The first apply: another number than the live object's is the API server's 409
//!   (`stale-resource-version`); kubectl prints it with its conflict help and exits 1
//!   ([`refusal`]).
//! - The re-apply after the csaupgrade: the requests before it wrote the object, so the same
//!   number is stale then; the API server refuses it and kubectl only warns
//!   (`warningMigrationReapplyFailed`) and exits 0: the sequence ends with the csaupgrade and
//!   nothing the file dropped is pruned (`ssa-reapply-refused`, [`reapply_refused`]).

use crate::engine::lock::{self, Lock, conflict_message, group_resource, resource_version};
use crate::engine::object::ObjectRef;
use crate::engine::plan::{Code, Warning, WayOut};
use crate::engine::schema::go_quote;
use crate::engine::ssa::kubectl::{Step, StepKind};
use crate::value::Value;

use super::config::Refusal;
use super::warning;

/// The first apply's lock: `file`'s resourceVersion against `live`'s (`written`: a request
/// before it wrote the object: `--migrate-manager`'s). `resource`: the kind's resource when
/// discovery told it ([`group_resource`]).
#[must_use]
pub fn refusal(
    file: &Value,
    live: &Value,
    written: bool,
    resource: Option<&str>,
) -> Option<Refusal> {
    if live.is_null() {
        return None;
    }
    let lock = lock::check(resource_version(file), resource_version(live), written);
    let (message, reason) = match &lock {
        Lock::Holds => return None,
        Lock::Stale { .. } => {
            let object = ObjectRef::of(file);
            let message = conflict_message(&group_resource(&object, resource), object.name);
            (message, "Conflict")
        }
        Lock::Unreadable { message, .. } => (message.clone(), ""),
    };
    Some(Refusal {
        message,
        reason,
        warnings: lock::warning(&lock, live, resource).into_iter().collect(),
    })
}

/// `ssa-reapply-refused`: the sequence ended with the csaupgrade because the re-apply would
/// carry the file's resourceVersion after the object changed (the engine's
/// [`crate::engine::ssa::kubectl::apply_server_side_read`] stops there).
#[must_use]
pub fn reapply_refused(steps: &[Step], file: &Value, resource: Option<&str>) -> Option<Warning> {
    let last = steps.last()?;
    if !matches!(last.kind, StepKind::UpgradeManagedFields { .. }) {
        return None;
    }
    let sent = resource_version(file)?;
    let object = ObjectRef::of(file);
    let error = conflict_message(&group_resource(&object, resource), object.name);
    Some(warning(
        Code::SsaReapplyRefused,
        Some("metadata.resourceVersion".to_owned()),
        None,
        &[WayOut::EditFile],
        format!(
            "the file carries metadata.resourceVersion {}: the first apply passes (it is the live object's), but the csaupgrade changes the object, and kubectl's re-apply of the same file carries it again: the API server refuses it (409 Conflict: {error}). kubectl prints \"Warning: failed to re-apply configuration after performing Server-Side Apply migration. This is non-fatal and will be retried next time you apply\" and exits 0, so nothing the file dropped is pruned, and every later apply of this file is refused (`stale-resource-version`). Remove metadata.resourceVersion from the file",
            go_quote(sent)
        ),
    ))
}
