//! `spec.replicas` and autoscalers.
//!
//! A HorizontalPodAutoscaler (or `kubectl scale`) changes `spec.replicas` in the live object;
//! last-applied keeps what the file said. So live replicas that differ from last-applied mean
//! something else manages the count.
//! - `hpa-replicas-reset`: the file sets `spec.replicas` while live differs from last-applied:
//!   apply sets it back to the file's number, and the autoscaler scales again afterwards (a
//!   scale-down, then up, on every apply).
//! - `replicas-removed`: the file no longer has `spec.replicas` but last-applied has: apply
//!   deletes the field and the server defaults it to 1, scaling the workload to one pod until
//!   the autoscaler reacts. The hand-over Kubernetes documents: first remove `spec.replicas`
//!   from the last-applied annotation only (`kubectl apply edit-last-applied`), then apply the
//!   file without it; the live count is kept.

use crate::value::Value;

use super::{LintInput, gvk, show};
use crate::engine::plan::warnings::{Code, Warning};

/// Kinds whose `spec.replicas` defaults to 1 when absent.
const DEFAULTS_TO_ONE: [(&str, &str); 4] = [
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "ReplicaSet"),
    ("v1", "ReplicationController"),
];

fn replicas(doc: Option<&Value>) -> Option<&Value> {
    doc?.get("spec")?.get("replicas").filter(|v| !v.is_null())
}

const HAND_OVER: &str = "To hand the count over to an autoscaler, first remove spec.replicas from the last-applied annotation only (`kubectl apply edit-last-applied`, or `applyscope last-applied drop --live LIVE spec.replicas`), then apply the file without it: the live count is kept.";

pub(super) fn check(input: &LintInput<'_>) -> Vec<Warning> {
    let Some(live_obj) = input.live else {
        return Vec::new();
    };
    let file = replicas(Some(input.local));
    let last = replicas(input.last_applied);
    let live = replicas(Some(live_obj));
    let result = replicas(Some(input.result));
    let path = Some("spec.replicas".to_owned());
    let scaled = matches!((last, live), (Some(l), Some(v)) if l != v);
    let mut out = Vec::new();
    match (file, last) {
        (Some(f), Some(l)) if scaled && live != Some(f) => {
            let live = live.map_or_else(|| "none".to_owned(), show);
            out.push(Warning {
                manager: None,
                way_out: Vec::new(),
                field: None,
                code: Code::HpaReplicasReset,
                path,
                message: format!(
                    "spec.replicas: live is {live} but the last apply set {}: something else scales this object, typically a HorizontalPodAutoscaler. This apply sets it back to {}, and the autoscaler scales it again afterwards. If an autoscaler manages it, remove spec.replicas from the file — with the hand-over, or the count drops to 1. {HAND_OVER}",
                    show(l),
                    show(f)
                ),
            });
        }
        (None, Some(l)) if result.is_none() => {
            let (api_version, kind) = gvk(input.local);
            let defaults_to_one = DEFAULTS_TO_ONE.contains(&(api_version, kind));
            let live_text = live.map_or_else(|| "none".to_owned(), show);
            let one = Value::from(1);
            if defaults_to_one && live == Some(&one) {
                return out;
            }
            let after = if defaults_to_one {
                format!(
                    "the server defaults it to 1: the workload scales from {live_text} to 1 pod until an autoscaler reacts"
                )
            } else {
                format!("the server's default applies (live is {live_text})")
            };
            let who = if scaled {
                format!(
                    " Live ({live_text}) differs from last-applied ({}): an autoscaler seems to manage it.",
                    show(l)
                )
            } else {
                String::new()
            };
            out.push(Warning {
                manager: None,
                way_out: Vec::new(),
                field: None,
                code: Code::ReplicasRemoved,
                path,
                message: format!(
                    "spec.replicas left the file but last-applied has it ({}): this apply deletes it and {after}.{who} {HAND_OVER}",
                    show(l)
                ),
            });
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;
    use crate::engine::lint::testing::{plan_of, with_code};

    fn deploy(replicas: Option<i64>, image: &str) -> Value {
        let mut d = json!({"apiVersion": "apps/v1", "kind": "Deployment",
               "metadata": {"name": "api", "namespace": "default"},
               "spec": {"selector": {"matchLabels": {"app": "api"}},
                        "template": {"metadata": {"labels": {"app": "api"}},
                                     "spec": {"containers": [{"name": "api", "image": image}]}}}});
        if let Some(r) = replicas {
            d["spec"]["replicas"] = json!(r);
        }
        d
    }

    #[test]
    fn file_replicas_reset_what_the_autoscaler_set() {
        let last = deploy(Some(3), "api:1");
        let live = deploy(Some(9), "api:1");
        let local = deploy(Some(3), "api:2");
        let p = plan_of(&local, Some(&live), Some(&last)).unwrap();
        let w = with_code(&p.warnings, Code::HpaReplicasReset);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert!(
            w[0].message.contains("live is 9 but the last apply set 3"),
            "{}",
            w[0].message
        );
        assert!(
            w[0].message.contains("sets it back to 3"),
            "{}",
            w[0].message
        );
        assert_eq!(p.result["spec"]["replicas"], 3);
        // Not scaled by anyone: no warning.
        let p = plan_of(&local, Some(&last), Some(&last)).unwrap();
        assert!(with_code(&p.warnings, Code::HpaReplicasReset).is_empty());
    }

    #[test]
    fn removing_replicas_without_the_hand_over() {
        let last = deploy(Some(3), "api:1");
        let live = deploy(Some(9), "api:1");
        let local = deploy(None, "api:1");
        let p = plan_of(&local, Some(&live), Some(&last)).unwrap();
        let w = with_code(&p.warnings, Code::ReplicasRemoved);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert!(
            w[0].message.contains("scales from 9 to 1 pod"),
            "{}",
            w[0].message
        );
        assert!(
            w[0].message.contains("edit-last-applied"),
            "{}",
            w[0].message
        );
        assert!(p.result["spec"].get("replicas").is_none());
        // After the hand-over (last-applied without replicas): kept, no warning.
        let handed = deploy(None, "api:1");
        let p = plan_of(&local, Some(&live), Some(&handed)).unwrap();
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert_eq!(p.result["spec"]["replicas"], 9);
    }
}
