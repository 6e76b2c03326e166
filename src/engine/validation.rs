//! Rules the API server validates that a merge can break, read from the pod and deployment
//! validation (`pkg/apis/core/validation`, `pkg/apis/apps/validation`): the one home of these
//! rules for the client-side plan ([`crate::engine::plan`]'s `union-two-members`,
//! [`crate::engine::lint`]'s `result-invalid`) and the server-side checks
//! ([`crate::engine::ssa::checks::result`]). Pure: an object in, the broken rules out, each at a
//! place given as field names and list items, which each side writes in its own path form.
//!
//! | rule | the API server's field error |
//! | --- | --- |
//! | a probe handler (`exec`, `httpGet`, `tcpSocket`, `grpc`) or a lifecycle hook handler (`exec`, `httpGet`, `tcpSocket`, `sleep`) with two members | `…livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type` |
//! | a volume with two sources | `…volumes[0].configMap: Forbidden: may not specify more than 1 volume type` |
//! | two ports of one container with one name | `…ports[1].name: Duplicate value: "http"` |
//! | a Deployment's `strategy.type: Recreate` with a `rollingUpdate` | ``spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'`` |
//! | an update's `metadata.uid` not the stored one's ([`changed_uid`]) | `metadata.uid: Invalid value: "…": field is immutable` |
//!
//! Validation checks the members of a one-of in a fixed order and names each one after the
//! first; the error here names the second present, with the indexes of the object's lists.

use crate::value::Value;

/// A probe's handlers, in the order validation checks them.
pub const PROBE_HANDLERS: [&str; 4] = ["exec", "httpGet", "tcpSocket", "grpc"];
/// A lifecycle hook's handlers, in the order validation checks them.
pub const HOOK_HANDLERS: [&str; 4] = ["exec", "httpGet", "tcpSocket", "sleep"];
/// The fields holding a handler one-of.
pub const PROBES: [&str; 3] = ["livenessProbe", "readinessProbe", "startupProbe"];
/// The lifecycle hooks.
pub const HOOKS: [&str; 2] = ["postStart", "preStop"];
/// A volume's sources, in the order validation checks them, each with the name its error
/// prints (validation writes `cephFS` and `downwarAPI`).
pub const VOLUME_SOURCES: [(&str, &str); 30] = [
    ("emptyDir", "emptyDir"),
    ("hostPath", "hostPath"),
    ("gitRepo", "gitRepo"),
    ("gcePersistentDisk", "gcePersistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore"),
    ("secret", "secret"),
    ("nfs", "nfs"),
    ("iscsi", "iscsi"),
    ("glusterfs", "glusterfs"),
    ("flocker", "flocker"),
    ("persistentVolumeClaim", "persistentVolumeClaim"),
    ("rbd", "rbd"),
    ("cinder", "cinder"),
    ("cephfs", "cephFS"),
    ("quobyte", "quobyte"),
    ("downwardAPI", "downwarAPI"),
    ("fc", "fc"),
    ("flexVolume", "flexVolume"),
    ("configMap", "configMap"),
    ("azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk"),
    ("storageos", "storageos"),
    ("projected", "projected"),
    ("scaleIO", "scaleIO"),
    ("csi", "csi"),
    ("ephemeral", "ephemeral"),
    ("image", "image"),
];

/// One step of a place: a field, or an item of the list named by the step before.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step<'v> {
    Field(&'v str),
    Item { index: usize, item: &'v Value },
}

/// Which rule is broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A one-of with two members (`union-two-members`).
    Union,
    /// Two ports of a container with one name.
    DuplicatePortName,
    /// A Recreate strategy with a rollingUpdate.
    RecreateWithRollingUpdate,
}

impl Rule {
    /// The rule, in words.
    #[must_use]
    pub fn text(self, volume: bool) -> &'static str {
        match self {
            Rule::Union if volume => "a volume may have only one source",
            Rule::Union => "a probe or lifecycle handler may have only one handler",
            Rule::DuplicatePortName => "the ports of a container have different names",
            Rule::RecreateWithRollingUpdate => "a Recreate strategy may not have a rollingUpdate",
        }
    }
}

/// A broken rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Broken<'v> {
    pub rule: Rule,
    /// The place the API server's error names (its last step may be a name validation
    /// misspells: see [`Broken::error_path`]).
    pub at: Vec<Step<'v>>,
    /// The parts in the way of each other (both one-of members, both ports).
    pub parts: Vec<Vec<Step<'v>>>,
    /// The field error after the path (`Forbidden: may not specify …`).
    pub error: String,
    /// The name the error prints for the last step, when validation spells it otherwise.
    pub printed_as: Option<&'static str>,
    /// A volume's one-of.
    pub volume: bool,
}

impl Broken<'_> {
    /// The API server's field path (`spec.template.spec.containers[0].ports[1].name`).
    #[must_use]
    pub fn error_path(&self) -> String {
        let mut out = String::new();
        let last = self.at.len().saturating_sub(1);
        for (i, step) in self.at.iter().enumerate() {
            match step {
                Step::Field(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(self.printed_as.filter(|_| i == last).unwrap_or(name));
                }
                Step::Item { index, .. } => out.push_str(&format!("[{index}]")),
            }
        }
        out
    }

    /// The API server's message: `Deployment.apps "web" is invalid: <path>: <error>`.
    #[must_use]
    pub fn api_error(&self, obj: &Value) -> String {
        invalid(obj, &self.error_path(), &self.error)
    }
}

/// `Deployment.apps "web" is invalid: <path>: <error>` (apimachinery `NewInvalid`).
fn invalid(obj: &Value, path: &str, error: &str) -> String {
    let r = crate::engine::object::ObjectRef::of(obj);
    let kind = match r.group() {
        "" => r.kind.to_owned(),
        g => format!("{}.{g}", r.kind),
    };
    format!("{kind} {:?} is invalid: {path}: {error}", r.name)
}

/// `metadata.uid` on an update (`ValidateObjectMetaUpdate`): a uid other than the stored
/// one's is refused; an empty one keeps it (`BeforeUpdate`). The two, live then new, and the
/// API server's message.
#[must_use]
pub fn changed_uid<'v>(live: &'v Value, new: &'v Value) -> Option<(&'v str, &'v str, String)> {
    fn uid(v: &Value) -> Option<&str> {
        v.get("metadata")?
            .get("uid")?
            .as_str()
            .filter(|s| !s.is_empty())
    }
    let (before, after) = (uid(live)?, uid(new)?);
    (before != after).then(|| {
        let error = format!(
            "Invalid value: {}: field is immutable",
            crate::engine::schema::go_quote(after)
        );
        (before, after, invalid(new, "metadata.uid", &error))
    })
}

/// The field names leading to a kind's pod spec.
fn pod_spec_path(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "Pod" => &["spec"],
        "Deployment"
        | "ReplicaSet"
        | "StatefulSet"
        | "DaemonSet"
        | "Job"
        | "ReplicationController" => &["spec", "template", "spec"],
        "CronJob" => &["spec", "jobTemplate", "spec", "template", "spec"],
        _ => return None,
    })
}

fn with<'v>(at: &[Step<'v>], more: &[Step<'v>]) -> Vec<Step<'v>> {
    let mut out = at.to_vec();
    out.extend_from_slice(more);
    out
}

/// Every rule `obj` breaks.
#[must_use]
pub fn broken(obj: &Value) -> Vec<Broken<'_>> {
    let mut out = Vec::new();
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    if let Some(path) = pod_spec_path(kind) {
        let mut at = Vec::new();
        let mut spec = Some(obj);
        for name in path {
            spec = spec.and_then(|v| v.get(*name));
            at.push(Step::Field(name));
        }
        if let Some(spec) = spec {
            pod(&at, spec, &mut out);
        }
    }
    if kind == "Deployment"
        && let Some(strategy) = obj.get("spec").and_then(|s| s.get("strategy"))
        && strategy.get("type").and_then(Value::as_str) == Some("Recreate")
        && strategy.get("rollingUpdate").is_some_and(|r| !r.is_null())
    {
        let at = vec![
            Step::Field("spec"),
            Step::Field("strategy"),
            Step::Field("rollingUpdate"),
        ];
        out.push(Broken {
            rule: Rule::RecreateWithRollingUpdate,
            parts: vec![at.clone()],
            at,
            error: "Forbidden: may not be specified when strategy `type` is 'Recreate'".into(),
            printed_as: None,
            volume: false,
        });
    }
    out
}

fn pod<'v>(at: &[Step<'v>], spec: &'v Value, out: &mut Vec<Broken<'v>>) {
    if let Some(volumes) = spec.get("volumes").and_then(Value::as_array) {
        for (index, v) in volumes.iter().enumerate() {
            let v_at = with(at, &[Step::Field("volumes"), Step::Item { index, item: v }]);
            let present: Vec<(&str, &str)> = VOLUME_SOURCES
                .iter()
                .copied()
                .filter(|(m, _)| v.get(*m).is_some_and(|x| !x.is_null()))
                .collect();
            if let [_, (second, printed), ..] = present.as_slice() {
                out.push(Broken {
                    rule: Rule::Union,
                    at: with(&v_at, &[Step::Field(second)]),
                    parts: present
                        .iter()
                        .map(|(m, _)| with(&v_at, &[Step::Field(m)]))
                        .collect(),
                    error: "Forbidden: may not specify more than 1 volume type".into(),
                    printed_as: (printed != second).then_some(*printed),
                    volume: true,
                });
            }
        }
    }
    for list in ["initContainers", "containers"] {
        let Some(items) = spec.get(list).and_then(Value::as_array) else {
            continue;
        };
        for (index, c) in items.iter().enumerate() {
            let c_at = with(at, &[Step::Field(list), Step::Item { index, item: c }]);
            ports(&c_at, c, out);
            for probe in PROBES {
                if let Some(v) = c.get(probe) {
                    union(&with(&c_at, &[Step::Field(probe)]), v, &PROBE_HANDLERS, out);
                }
            }
            for hook in HOOKS {
                if let Some(v) = c.get("lifecycle").and_then(|l| l.get(hook)) {
                    let hook_at = with(&c_at, &[Step::Field("lifecycle"), Step::Field(hook)]);
                    union(&hook_at, v, &HOOK_HANDLERS, out);
                }
            }
        }
    }
}

fn union<'v>(at: &[Step<'v>], v: &'v Value, members: &[&'static str], out: &mut Vec<Broken<'v>>) {
    let present: Vec<&'static str> = members
        .iter()
        .copied()
        .filter(|m| v.get(*m).is_some_and(|x| !x.is_null()))
        .collect();
    if let [_, second, ..] = present.as_slice() {
        out.push(Broken {
            rule: Rule::Union,
            at: with(at, &[Step::Field(second)]),
            parts: present
                .iter()
                .map(|m| with(at, &[Step::Field(m)]))
                .collect(),
            error: "Forbidden: may not specify more than 1 handler type".into(),
            printed_as: None,
            volume: false,
        });
    }
}

fn ports<'v>(c_at: &[Step<'v>], c: &'v Value, out: &mut Vec<Broken<'v>>) {
    let Some(ports) = c.get("ports").and_then(Value::as_array) else {
        return;
    };
    let mut seen: Vec<(&str, Vec<Step<'v>>)> = Vec::new();
    for (index, port) in ports.iter().enumerate() {
        let Some(name) = port
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
        else {
            continue;
        };
        let here = with(
            c_at,
            &[Step::Field("ports"), Step::Item { index, item: port }],
        );
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
            out.push(Broken {
                rule: Rule::DuplicatePortName,
                at: with(&here, &[Step::Field("name")]),
                parts: vec![first.clone(), here],
                error: format!("Duplicate value: {name:?}"),
                printed_as: None,
                volume: false,
            });
        } else {
            seen.push((name, here));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn each_rule_with_the_api_servers_text() {
        let d = v(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"strategy":{"type":"Recreate","rollingUpdate":{}},"template":{"spec":{
              "volumes":[{"name":"a","downwardAPI":{},"configMap":{}}],
              "containers":[{"name":"c","livenessProbe":{"tcpSocket":{},"exec":{}},"ports":[{"name":"http","containerPort":1},{"name":"http","containerPort":2}]}]}}}}"#,
        );
        let texts: Vec<String> = broken(&d).iter().map(|b| b.api_error(&d)).collect();
        assert_eq!(
            texts,
            [
                "Deployment.apps \"web\" is invalid: spec.template.spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type",
                "Deployment.apps \"web\" is invalid: spec.template.spec.containers[0].ports[1].name: Duplicate value: \"http\"",
                "Deployment.apps \"web\" is invalid: spec.template.spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type",
                "Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
            ]
        );
        let cephfs = v(
            r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"a","secret":{},"cephfs":{}}]}}"#,
        );
        assert_eq!(
            broken(&cephfs)[0].api_error(&cephfs),
            "Pod \"p\" is invalid: spec.volumes[0].cephFS: Forbidden: may not specify more than 1 volume type"
        );
    }

    #[test]
    fn valid_objects_break_nothing() {
        let d = v(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"strategy":{"type":"Recreate","rollingUpdate":null},"template":{"spec":{
              "volumes":[{"name":"a","configMap":{},"secret":null}],
              "containers":[{"name":"c","livenessProbe":{"httpGet":{}},"ports":[{"name":"http","containerPort":1},{"name":"","containerPort":2},{"containerPort":3}]}]}}}}"#,
        );
        assert!(broken(&d).is_empty());
        assert!(broken(&v(r#"{"kind":"ConfigMap"}"#)).is_empty());
    }
}
