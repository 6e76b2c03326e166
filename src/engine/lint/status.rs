//! `status-ignored`: a file that carries `status` (an export of `kubectl get -o yaml`, a CRD
//! manifest with `status: {acceptedNames: …, storedVersions: []}`) has kubectl send it: the
//! three-way patch sets every status field that differs from the live object's, a create posts
//! it. But the main endpoint of a built-in kind resets `status` (its registry strategy keeps
//! the old status on an update, `PrepareForUpdate`, and starts without one on a create,
//! `PrepareForCreate`; status is written through the `/status` subresource, by the kind's
//! controller): those changes never happen, while the plan's result, which is kubectl's merge,
//! shows them. The kinds are the server-side engine's (`reset_fields`: every built-in kind
//! with a `status`).

use crate::value::Value;

use super::{LintInput, gvk};
use crate::engine::plan::warnings::{Code, Warning};

/// How many status fields a message names.
const NAMED: usize = 6;

pub(super) fn check(input: &LintInput<'_>) -> Option<Warning> {
    let status = input.local.get("status").filter(|s| !is_empty(s))?;
    let (api_version, kind) = gvk(input.local);
    let resets = crate::engine::ssa::kubernetes::embedded()
        .reset_fields(api_version, kind)
        .contains_key(api_version);
    if !resets {
        return None;
    }
    let changed = match input.live {
        None => keys(status),
        Some(live) => changed_keys(live.get("status"), input.result.get("status")),
    };
    if changed.is_empty() {
        return None;
    }
    let mut named: Vec<String> = changed
        .iter()
        .take(NAMED)
        .map(|k| format!("status.{k}"))
        .collect();
    if changed.len() > NAMED {
        named.push(format!("{} more", changed.len() - NAMED));
    }
    let what = if input.live.is_some() {
        "kubectl's patch changes it"
    } else {
        "kubectl's create sends it"
    };
    Some(Warning {
        manager: None,
        way_out: Vec::new(),
        field: None,
        code: Code::StatusIgnored,
        path: Some("status".to_owned()),
        message: format!(
            "the file carries status (as `kubectl get -o yaml` writes it) and {what} ({}), but the API server keeps a {kind}'s status on this endpoint (the status is written through the /status subresource, by its controller): those changes do not happen, and the result shown here, kubectl's merge, has a status the object will not have. Remove status from the file.",
            named.join(", ")
        ),
    })
}

/// The top-level keys of `after` whose value is not `before`'s, then those only `before` has
/// (none when `after` is no map).
fn changed_keys(before: Option<&Value>, after: Option<&Value>) -> Vec<String> {
    let Some(after) = after.and_then(Value::as_object) else {
        return Vec::new();
    };
    let before = before.and_then(Value::as_object);
    let mut names: Vec<String> = after
        .iter()
        .filter(|(k, v)| before.and_then(|b| b.get(k.as_str())) != Some(*v))
        .map(|(k, _)| k.to_string())
        .collect();
    names.extend(
        before
            .into_iter()
            .flatten()
            .filter(|(k, _)| !after.contains_key(k.as_str()))
            .map(|(k, _)| k.to_string()),
    );
    names
}

/// The top-level keys of a status map.
fn keys(status: &Value) -> Vec<String> {
    status
        .as_object()
        .map(|m| m.keys().map(ToString::to_string).collect())
        .unwrap_or_default()
}

/// `null` or `{}`: a status that sets nothing.
fn is_empty(v: &Value) -> bool {
    v.is_null() || v.as_object().is_some_and(crate::value::Map::is_empty)
}

#[cfg(test)]
mod tests {
    use crate::engine::lint::testing::{plan_of, with_code};
    use crate::engine::plan::Code;
    use crate::json;
    use crate::value::Value;

    fn deploy(status: Value) -> Value {
        let mut d = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default"},
            "spec": {"replicas": 2}});
        if !status.is_null() {
            d["status"] = status;
        }
        d
    }

    #[test]
    fn a_status_in_the_file_is_not_applied() {
        let live = deploy(json!({"replicas": 2, "readyReplicas": 2}));
        let warned = |local| {
            let p = plan_of(&local, Some(&live), Some(&deploy(Value::Null))).unwrap();
            with_code(&p.warnings, Code::StatusIgnored)
                .into_iter()
                .map(|w| w.message.clone())
                .collect::<Vec<_>>()
        };
        let stale = warned(deploy(json!({"replicas": 3, "readyReplicas": 2})));
        assert_eq!(stale.len(), 1);
        assert!(
            stale[0].contains("(status.replicas)") && stale[0].contains("a Deployment's status"),
            "{}",
            stale[0]
        );
        // The live status as it is, or none: nothing changes.
        assert!(warned(deploy(json!({"replicas": 2, "readyReplicas": 2}))).is_empty());
        assert!(warned(deploy(Value::Null)).is_empty());
        // A create posts it.
        let p = plan_of(&deploy(json!({"replicas": 3})), None, None).unwrap();
        assert_eq!(with_code(&p.warnings, Code::StatusIgnored).len(), 1);
        // A kind without a status (a ConfigMap's `status` is no field of its schema).
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
            "status": {"x": 1}});
        let p = plan_of(&cm, None, None).unwrap();
        assert!(with_code(&p.warnings, Code::StatusIgnored).is_empty());
    }
}
