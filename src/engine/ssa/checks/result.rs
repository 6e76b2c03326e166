//! The merged object the API server's validation refuses (HTTP 422) because a field another
//! manager owns is kept beside what the file sets: server-side apply prunes only what the
//! applier owned, so a member of a one-of, a `rollingUpdate` or a renamed port's old entry stays.
//!
//! | rule | code | the API server's error |
//! | --- | --- | --- |
//! | a probe or lifecycle handler with two handlers | `union-two-members` (shared with the client-side plan) | `…livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type` |
//! | a volume with two sources | `union-two-members` | `…volumes[0].configMap: Forbidden: may not specify more than 1 volume type` |
//! | a Deployment's `strategy.type: Recreate` with a `rollingUpdate` | `ssa-result-invalid` | ``spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'`` |
//! | two ports of one container with one name (kubernetes#131147) | `ssa-result-invalid` | `…ports[1].name: Duplicate value: "http"` |
//!
//! The error names the member found second in the order the API server's validation checks
//! them, with the list indexes of the merged object; the message is
//! `Deployment.apps "web" is invalid: <field error>`.

use crate::engine::plan::{Code, Warning, WayOut};
use crate::engine::ssa::explain::{self, managed_of};
use crate::engine::ssa::managed::{Managed, ManagerId};
use crate::engine::ssa::path::{PathElement, path_string};
use crate::engine::ssa::set::Set;
use crate::value::Value;

use super::{Planned, warning};

/// Handlers of a probe, in the order validation checks them.
const PROBE_HANDLERS: [&str; 4] = ["exec", "httpGet", "tcpSocket", "grpc"];
/// Handlers of a lifecycle hook, in the order validation checks them.
const HOOK_HANDLERS: [&str; 4] = ["exec", "httpGet", "tcpSocket", "sleep"];
/// Volume sources, in the order validation checks them.
const VOLUME_SOURCES: [&str; 30] = [
    "emptyDir",
    "hostPath",
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "flocker",
    "persistentVolumeClaim",
    "rbd",
    "cinder",
    "cephfs",
    "quobyte",
    "downwardAPI",
    "fc",
    "flexVolume",
    "configMap",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "storageos",
    "projected",
    "scaleIO",
    "csi",
    "ephemeral",
    "image",
];

/// A place in the merged object: the SSA path and the API server's field path.
#[derive(Clone)]
struct At {
    ssa: Vec<PathElement>,
    api: String,
}

impl At {
    fn field(&self, name: &str) -> At {
        let mut ssa = self.ssa.clone();
        ssa.push(PathElement::field(name));
        let api = if self.api.is_empty() {
            name.to_owned()
        } else {
            format!("{}.{name}", self.api)
        };
        At { ssa, api }
    }

    fn item(&self, key: PathElement, index: usize) -> At {
        let mut ssa = self.ssa.clone();
        ssa.push(key);
        At {
            ssa,
            api: format!("{}[{index}]", self.api),
        }
    }
}

fn key_of(item: &Value, fields: &[(&str, Option<&str>)]) -> Option<PathElement> {
    let mut key = Vec::new();
    for (name, default) in fields {
        match (item.get(*name), default) {
            (Some(v), _) => key.push(((*name).into(), v.clone())),
            (None, Some(d)) => key.push(((*name).into(), Value::from(*d))),
            (None, None) => return None,
        }
    }
    Some(PathElement::key(key))
}

/// The pod spec of a workload kind, if it has one.
fn pod_spec(obj: &Value) -> Option<(At, &Value)> {
    let kind = obj.get("kind").and_then(Value::as_str)?;
    let path: &[&str] = match kind {
        "Pod" => &["spec"],
        "Deployment"
        | "ReplicaSet"
        | "StatefulSet"
        | "DaemonSet"
        | "Job"
        | "ReplicationController" => &["spec", "template", "spec"],
        "CronJob" => &["spec", "jobTemplate", "spec", "template", "spec"],
        _ => return None,
    };
    let mut at = At {
        ssa: Vec::new(),
        api: String::new(),
    };
    let mut v = obj;
    for name in path {
        v = v.get(*name)?;
        at = at.field(name);
    }
    Some((at, v))
}

/// `Deployment.apps "web"`: the qualified kind and the name, as validation errors start.
fn subject(obj: &Value) -> String {
    let r = crate::engine::object::ObjectRef::of(obj);
    match r.group() {
        "" => format!("{} {:?}", r.kind, r.name),
        g => format!("{}.{g} {:?}", r.kind, r.name),
    }
}

/// Who owns the path or anything below it, but the applier.
fn keepers(m: &Managed, path: &[PathElement], me: &ManagerId) -> Vec<ManagerId> {
    let owns = |set: &Set| {
        if set.has(path) {
            return true;
        }
        let mut s = set;
        for pe in path {
            match s.child(pe) {
                Some(c) => s = c,
                None => return false,
            }
        }
        !s.is_empty()
    };
    m.fields
        .iter()
        .filter(|(_, vs)| owns(&vs.set))
        .filter_map(|(k, _)| ManagerId::from_key(k))
        .filter(|id| id != me)
        .collect()
}

struct Found {
    code: Code,
    /// The place the API server names.
    at: At,
    /// The parts in the way of each other (one of them kept by another manager).
    parts: Vec<At>,
    /// The field error after the path (`Forbidden: may not …`).
    error: String,
    /// What the rule is, in words.
    rule: &'static str,
}

/// The warnings for a plan's merged object.
pub(super) fn check(p: &Planned<'_>) -> Vec<Warning> {
    let mut found = Vec::new();
    if let Some((at, spec)) = pod_spec(p.result) {
        pod(&at, spec, &mut found);
    }
    if p.result.get("kind").and_then(Value::as_str) == Some("Deployment")
        && let Some(strategy) = p.result.get("spec").and_then(|s| s.get("strategy"))
        && strategy.get("type").and_then(Value::as_str) == Some("Recreate")
        && strategy.get("rollingUpdate").is_some_and(|r| !r.is_null())
    {
        let at = At {
            ssa: Vec::new(),
            api: String::new(),
        };
        found.push(Found {
            code: Code::SsaResultInvalid,
            at: at.field("spec").field("strategy").field("rollingUpdate"),
            parts: vec![at.field("spec").field("strategy").field("rollingUpdate")],
            error: "Forbidden: may not be specified when strategy `type` is 'Recreate'".into(),
            rule: "a Recreate strategy may not have a rollingUpdate",
        });
    }
    let managed = managed_of(p.result);
    let subject = subject(p.result);
    found
        .into_iter()
        .map(|f| {
            let kept = f
                .parts
                .iter()
                .map(|part| (part, keepers(&managed, &part.ssa, p.me)))
                .find(|(_, k)| !k.is_empty());
            let (path, keep) = match kept {
                Some((part, k)) => (path_string(&part.ssa), k),
                None => (path_string(&f.at.ssa), Vec::new()),
            };
            let api = format!("{subject} is invalid: {}: {}", f.at.api, f.error);
            let in_file = f
                .parts
                .iter()
                .all(|part| explain::value_at(p.local, &part.ssa).is_some());
            let (manager, way_out, why) = match keep.first() {
                Some(m) => (
                    Some(m.manager.clone()),
                    vec![WayOut::HandOver, WayOut::EditFile],
                    format!(
                        "{path} is kept because {m} owns it, and server-side apply prunes only what the applier owned. Have that manager drop it (or remove it once by hand, e.g. kubectl edit), or change the file to agree with it"
                    ),
                ),
                None if in_file => (
                    None,
                    vec![WayOut::EditFile],
                    "The file itself sets all of it. Edit the file".to_owned(),
                ),
                None => (
                    None,
                    vec![WayOut::EditFile],
                    format!(
                        "{path} is kept because nobody owns it (a default the API server filled in, or a field set before anyone tracked it), and server-side apply prunes only what the applier owned; a null in the file does not clear it either (the merge keeps the live map). Remove it once by hand with the change (kubectl edit, or a JSON patch), or make this one change with client-side apply"
                    ),
                ),
            };
            warning(
                f.code,
                Some(path),
                manager.as_deref(),
                &way_out,
                format!(
                    "the merged object breaks a rule the API server validates ({}), so it refuses the apply: {api}. {why}",
                    f.rule
                ),
            )
        })
        .collect()
}

fn pod(at: &At, spec: &Value, found: &mut Vec<Found>) {
    for list in ["initContainers", "containers"] {
        let Some(items) = spec.get(list).and_then(Value::as_array) else {
            continue;
        };
        for (i, c) in items.iter().enumerate() {
            let Some(key) = key_of(c, &[("name", None)]) else {
                continue;
            };
            let c_at = at.field(list).item(key, i);
            for probe in ["livenessProbe", "readinessProbe", "startupProbe"] {
                if let Some(v) = c.get(probe) {
                    union(&c_at.field(probe), v, &PROBE_HANDLERS, "handler", found);
                }
            }
            if let Some(lc) = c.get("lifecycle") {
                for hook in ["postStart", "preStop"] {
                    if let Some(v) = lc.get(hook) {
                        let hook_at = c_at.field("lifecycle").field(hook);
                        union(&hook_at, v, &HOOK_HANDLERS, "handler", found);
                    }
                }
            }
            ports(&c_at, c, found);
        }
    }
    if let Some(volumes) = spec.get("volumes").and_then(Value::as_array) {
        for (i, v) in volumes.iter().enumerate() {
            if let Some(key) = key_of(v, &[("name", None)]) {
                let v_at = at.field("volumes").item(key, i);
                union(&v_at, v, &VOLUME_SOURCES, "volume", found);
            }
        }
    }
}

/// A one-of with a second member: the error at the second, in validation's order.
fn union(at: &At, v: &Value, members: &[&str], what: &str, found: &mut Vec<Found>) {
    let present: Vec<&str> = members
        .iter()
        .copied()
        .filter(|m| v.get(*m).is_some_and(|x| !x.is_null()))
        .collect();
    if let [_, second, ..] = present.as_slice() {
        found.push(Found {
            code: Code::UnionTwoMembers,
            at: at.field(second),
            parts: present.iter().map(|m| at.field(m)).collect(),
            error: format!("Forbidden: may not specify more than 1 {what} type"),
            rule: if what == "volume" {
                "a volume may have only one source"
            } else {
                "a probe or lifecycle handler may have only one handler"
            },
        });
    }
}

/// Two ports of one container with one name: the error at the second one's name.
fn ports(c_at: &At, c: &Value, found: &mut Vec<Found>) {
    let Some(ports) = c.get("ports").and_then(Value::as_array) else {
        return;
    };
    let port_key = [("containerPort", None), ("protocol", Some("TCP"))];
    let mut seen: Vec<(&str, At)> = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        let Some(name) = port
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
        else {
            continue;
        };
        let Some(key) = key_of(port, &port_key) else {
            continue;
        };
        let here = c_at.field("ports").item(key, i);
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
            {
                found.push(Found {
                    code: Code::SsaResultInvalid,
                    at: here.field("name"),
                    parts: vec![first.clone(), here.clone()],
                    error: format!("Duplicate value: {name:?}"),
                    rule: "the ports of a container have different names",
                });
            }
        } else {
            seen.push((name, here));
        }
    }
}
