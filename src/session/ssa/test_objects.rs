//! Objects the server-side tests plan against.

use crate::engine::plan::encode_annotation;
use crate::engine::ssa::request::Request;
use crate::json;
use crate::session::ssa::SsaInput;
use crate::value::Value;
use std::sync::Arc;

/// What `plan --server-side -f local.yaml --live live.yaml` asks of the plan, by kubectl, at
/// the tests' time, with or without `--force-conflicts`.
pub(crate) fn input<'a>(
    local: &'a Arc<Value>,
    live: Option<&'a Value>,
    force: bool,
) -> SsaInput<'a> {
    SsaInput {
        local,
        live,
        local_name: "local.yaml",
        live_name: "live.yaml",
        manager: "kubectl",
        force,
        migrate: &[],
        time: "2026-11-25T10:00:00Z",
        schema: None,
        resource: None,
    }
}

/// The Deployment `created` (what the API server stored for the configuration `original`:
/// with its defaults) as client-side apply made it: `original` as its last-applied
/// annotation, every field owned by `kubectl-client-side-apply`'s Update entry.
pub(crate) fn made_by_client_side_apply(original: &Value, mut created: Value) -> Value {
    created["metadata"]["annotations"] = json!({
        "kubectl.kubernetes.io/last-applied-configuration": encode_annotation(original).unwrap()
    });
    let req = Request::embedded("apps/v1", "Deployment", "2026-01-01T00:00:00Z").unwrap();
    req.update(&Value::Null, &created, "kubectl-client-side-apply")
        .unwrap()
}
