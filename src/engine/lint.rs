//! Hazard lints: what `kubectl apply` will do that an operator would not expect, each with a
//! code, the field it concerns, and a message saying what will happen and what to do. Pure:
//! documents in, [`Warning`]s out; [`plan`](super::plan::plan) adds them to every plan's
//! `warnings`.
//!
//! | code | hazard | where |
//! | --- | --- | --- |
//! | `duplicate-merge-key` | a merge-keyed list names the same key twice (e.g. an env var): apply merges them into one, and removing the duplicate later deletes every copy (kubernetes#58477) | [`keys`] |
//! | `port-protocol-merged` | two ports share `containerPort` (or a Service `port`) with different protocols: strategic merge keys ports by number alone (kubernetes#39188) | [`keys`] |
//! | `annotation-too-large` | the last-applied annotation, or all annotations together, over 262,144 bytes: the server rejects the object | [`size`] |
//! | `hpa-replicas-reset` | `spec.replicas` in the file while something else (a HorizontalPodAutoscaler) scaled the object: apply resets it | [`replicas`] |
//! | `replicas-removed` | `spec.replicas` removed from the file while last-applied has it: apply deletes it and the server defaults it to 1 | [`replicas`] |
//! | `immutable-field` | a field the server refuses to change (Deployment `spec.selector`, StatefulSet `volumeClaimTemplates`/`serviceName`, Job `spec.template`, Service `clusterIP`, ...) | [`immutable`] |
//! | `secret-in-annotation` | a Secret's data copied in clear into the last-applied annotation | [`secret`] |
//! | `result-invalid` | the object after the apply breaks a rule the API server validates: two ports of one name, `Recreate` beside a `rollingUpdate` | [`valid`] |
//! | `status-ignored` | the file carries `status` that changes the object's: the main endpoint of a built-in kind keeps its status, the changes do not happen | [`status`] |
//! | `stale-resource-version` | the file carries a `metadata.resourceVersion` (an export of `kubectl get -o yaml`) that is not the live object's: the patch sends it and the API server refuses the apply (409) | [`super::lock`] |
//!
//! Hazards the plan already reports (`plan/warnings.rs`), not repeated here:
//! `missing-annotation` (no last-applied: a two-way merge, nothing is deleted),
//! `union-two-members` (a one-of such as a probe handler or a volume source changed without
//! `$retainKeys` or a last-applied entry to delete the old member: both remain, the server
//! rejects), `list-items-lost` (a replaced list, e.g. any list of a custom resource, drops the
//! live-only items it names) and `clear-changed-live`.

pub mod immutable;
pub mod keys;
pub mod replicas;
pub mod secret;
pub mod size;
pub mod status;
pub mod valid;

use crate::value::Value;

use super::plan::warnings::{Code, Warning};
use super::schema::Meta;

/// The codes this module emits, with a one-line summary (for documentation and listings).
pub const CODES: [(Code, &str); 10] = [
    (
        Code::DuplicateMergeKey,
        "a merge-keyed list names the same key twice",
    ),
    (
        Code::PortProtocolMerged,
        "ports share a number with different protocols",
    ),
    (
        Code::AnnotationTooLarge,
        "annotations over 262,144 bytes: the server rejects the object",
    ),
    (
        Code::HpaReplicasReset,
        "spec.replicas resets what an autoscaler set",
    ),
    (
        Code::ReplicasRemoved,
        "spec.replicas removed without the hand-over: the server defaults it to 1",
    ),
    (
        Code::ImmutableField,
        "an immutable field changes: the server rejects the apply",
    ),
    (
        Code::SecretInAnnotation,
        "Secret data copied in clear into the last-applied annotation",
    ),
    (
        Code::ResultInvalid,
        "the object after the apply breaks a validation rule: the server rejects it",
    ),
    (
        Code::StaleResourceVersion,
        "the file's resourceVersion is not the live object's: the server refuses the apply (409)",
    ),
    (
        Code::StatusIgnored,
        "the file's status: the server keeps the object's own, the changes do not happen",
    ),
];

/// What the lints look at.
#[derive(Clone, Copy, Debug)]
pub struct LintInput<'a> {
    /// The object kubectl sends (the file, namespace filled in, new annotation set).
    pub local: &'a Value,
    /// The live object (`None`: a create).
    pub live: Option<&'a Value>,
    /// The last-applied configuration the plan started from (`None`: none).
    pub last_applied: Option<&'a Value>,
    /// The object after the apply.
    pub result: &'a Value,
    /// The new last-applied annotation, as it would be stored.
    pub annotation: &'a str,
    /// Strategic merge metadata of the object's kind (`None`: a JSON merge patch).
    pub meta: Option<Meta<'a>>,
}

/// Every lint's warnings, in the order of the table above.
#[must_use]
pub fn check(input: &LintInput<'_>) -> Vec<Warning> {
    let mut out = keys::check(input);
    out.extend(size::check(input));
    out.extend(replicas::check(input));
    out.extend(immutable::check(input));
    out.extend(secret::check(input));
    out.extend(valid::check(input));
    out.extend(stale_resource_version(input));
    out.extend(status::check(input));
    out
}

/// `stale-resource-version`: the object after the patch carries the resourceVersion the
/// API server's lock reads ([`super::lock`]); a create ignores it.
fn stale_resource_version(input: &LintInput<'_>) -> Option<Warning> {
    use super::lock::{check, resource_version, warning};
    let live = input.live?;
    let lock = check(
        resource_version(input.result),
        resource_version(live),
        false,
    );
    warning(&lock, live, None)
}

/// `apiVersion` and `kind` of an object.
fn gvk(obj: &Value) -> (&str, &str) {
    let r = super::object::ObjectRef::of(obj);
    (r.api_version, r.kind)
}

/// The API group of an object (`""` for the core group).
fn group(obj: &Value) -> &str {
    super::object::ObjectRef::of(obj).group()
}

/// A value in a message: strings quoted, long values cut.
fn show(v: &Value) -> String {
    let s = match v {
        Value::String(s) => format!("{s:?}"),
        other => super::gojson::to_string(other).unwrap_or_default(),
    };
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(59).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the lints' unit tests: plan a case with the embedded schema.

    use crate::value::Value;

    use crate::engine::plan::{Code, LastApplied, Plan, PlanError, PlanInput, Warning, plan};
    use crate::engine::schema::Schema;

    /// The plan of local against live (last-applied from `last_applied`, else the live
    /// annotation).
    pub fn plan_of(
        local: &Value,
        live: Option<&Value>,
        last_applied: Option<&Value>,
    ) -> Result<Plan, PlanError> {
        let input = PlanInput {
            local,
            live,
            last_applied: last_applied.map_or(LastApplied::FromLive, LastApplied::Given),
            namespace: None,
            overwrite: true,
        };
        plan(&input, Schema::embedded())
    }

    /// The warnings with this code.
    pub fn with_code(warnings: &[Warning], code: Code) -> Vec<&Warning> {
        warnings.iter().filter(|w| w.code == code).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{plan_of, with_code};
    use crate::engine::plan::Code;
    use crate::json;

    #[test]
    fn a_stale_resource_version_in_the_file_is_refused() {
        let cm = |rv: &str, a: &str| {
            json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "c", "namespace": "default", "resourceVersion": rv},
                "data": {"a": a}})
        };
        let live = cm("9", "1");
        let warned = |local| {
            let p = plan_of(&local, Some(&live), Some(&cm("", "1"))).unwrap();
            with_code(&p.warnings, Code::StaleResourceVersion)
                .into_iter()
                .map(|w| w.message.clone())
                .collect::<Vec<_>>()
        };
        let stale = warned(cm("5", "2"));
        assert_eq!(stale.len(), 1);
        assert!(
            stale[0].contains("\"5\"")
                && stale[0].contains("at \"9\"")
                && stale[0].contains("Operation cannot be fulfilled on configmaps \"c\""),
            "{}",
            stale[0]
        );
        assert!(warned(cm("9", "2")).is_empty());
        assert!(warned(cm("0", "2")).is_empty());
        assert!(warned(cm("", "2")).is_empty());
        assert_eq!(warned(cm("v9", "2")).len(), 1);
        // A create: kubectl clears it.
        let p = plan_of(&cm("5", "2"), None, None).unwrap();
        assert!(with_code(&p.warnings, Code::StaleResourceVersion).is_empty());
    }
}
