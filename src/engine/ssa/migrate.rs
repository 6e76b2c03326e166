//! The ownership upgrade other tools run when they switch a release from client-side to
//! server-side apply, before their first server-side apply: Helm 4 (`upgradeClientSideFieldManager`,
//! its own manager `helm`), Argo CD (`--client-side-apply-migration-manager`), Flux. Each calls
//! client-go's csaupgrade ([`super::csaupgrade::upgrade_managed_fields`]) with the Update
//! managers to migrate and its own apply manager, sends the new `metadata.managedFields` as a
//! JSON patch, then applies. kubectl migrates only its own client-side managers, and only after
//! its apply ([`super::kubectl`]).
//!
//! [`migrate_then_apply`]: step [`StepKind::MigrateManagers`] (when it changes anything), then
//! kubectl's sequence on the upgraded object, so the first apply already prunes what the
//! migrated managers owned and the file dropped.

use super::csaupgrade;
use super::kubectl::{Step, StepKind, apply_server_side_read};
use std::sync::Arc;

use super::managed::{Managed, decode};
use super::request::{Live, Request, RequestError};
use crate::value::Value;

fn has_update_entry(obj: &Value, manager: &str) -> bool {
    obj.get("metadata")
        .and_then(|m| m.get("managedFields"))
        .and_then(Value::as_array)
        .is_some_and(|entries| {
            entries.iter().any(|e| {
                let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
                s("manager") == manager && s("operation") == "Update" && s("subresource").is_empty()
            })
        })
}

/// The Update managers of `migrate` the live object has (main resource), in the given order,
/// each once.
#[must_use]
pub fn present(live: &Value, migrate: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in migrate {
        if has_update_entry(live, m) && !out.contains(m) {
            out.push(m.clone());
        }
    }
    out
}

/// Migrate `migrate`'s Update entries into `manager`'s Apply entry, then run kubectl's
/// server-side apply sequence. `live` as stored, and `read`, the same object as the caller
/// read it ([`Live`]: the first request reads that, when nothing is migrated). With the
/// managers of the object left.
///
/// # Errors
/// As [`super::kubectl::apply_server_side`]; bad managedFields.
pub fn migrate_then_apply(
    req: &Request<'_>,
    (live, read): (&Value, Live<'_>),
    file: &Arc<Value>,
    manager: &str,
    force: bool,
    migrate: &[String],
) -> Result<(Vec<Step>, Managed), RequestError> {
    let from = present(live, migrate);
    if from.is_empty() {
        return apply_server_side_read(req, read, file, manager, force);
    }
    let mut upgraded = live.clone();
    let names: Vec<&str> = from.iter().map(String::as_str).collect();
    csaupgrade::upgrade_managed_fields(&mut upgraded, &names, manager, "")?;
    if &upgraded == live {
        return apply_server_side_read(req, read, file, manager, force);
    }
    // The upgraded object read once: the step keeps it without its managedFields, and the
    // first apply reads it so (its managers decoded).
    let meta = upgraded.get_mut("metadata").and_then(Value::as_object_mut);
    let entries = meta.and_then(|m| m.shift_remove("managedFields"));
    let managed = decode(entries.as_ref())?;
    let object = Arc::new(upgraded);
    let mut steps = vec![Step::upgraded(
        StepKind::MigrateManagers { from },
        Arc::clone(&object),
        entries,
    )];
    let read = Live::Read {
        object: &object,
        managed,
    };
    let (more, managed) = apply_server_side_read(req, read, file, manager, force)?;
    steps.extend(more);
    Ok((steps, managed))
}
