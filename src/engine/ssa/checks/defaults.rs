//! The fields the API server defaults after the merge, for `ssa-pruned-redefaulted`: a pruned
//! one comes back with its default. Only for the types whose defaulting functions set it (the
//! built-in kinds at the versions served today): a custom resource is defaulted by its own
//! schema, and a field of the same name elsewhere (a CRD's `.spec.replicas`, a ConfigMap's
//! `data`) by nobody the plan knows of.

/// A type as the defaulting functions are registered for it: apiVersion and kind.
type Type = (&'static str, &'static str);

/// The kinds with a pod template (or a pod spec) but the Jobs: `SetDefaults_PodSpec`,
/// `SetDefaults_Container` and `SetDefaults_ContainerPort` run on theirs.
const WORKLOADS: &[Type] = &[
    ("v1", "Pod"),
    ("v1", "PodTemplate"),
    ("v1", "ReplicationController"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "DaemonSet"),
];

/// The Jobs' pod templates are defaulted as [`WORKLOADS`]' are, but for `restartPolicy`: its
/// default (`Always`) is one a Job's pods may not have, so the API server refuses the apply.
const JOBS: &[Type] = &[("batch/v1", "Job"), ("batch/v1", "CronJob")];

const REPLICATED: &[Type] = &[
    ("v1", "ReplicationController"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("apps/v1", "StatefulSet"),
];

const HISTORY: &[Type] = &[
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "DaemonSet"),
];

const DEPLOYMENT: &[Type] = &[("apps/v1", "Deployment")];

const SERVICE: &[Type] = &[("v1", "Service")];

const STATEFUL_SET: &[Type] = &[("apps/v1", "StatefulSet")];

const DAEMON_SET: &[Type] = &[("apps/v1", "DaemonSet")];

/// A NetworkPolicy's ports take `TCP` too (`SetDefaults_NetworkPolicyPort`).
const NETWORK_POLICY: &[Type] = &[("networking.k8s.io/v1", "NetworkPolicy")];

const POD_SPEC: &[&[Type]] = &[WORKLOADS, JOBS];

/// Where a default applies: the end of the path as printed (a whole path when it starts with
/// `.spec.`), the types defaulting it (in groups), and the value it comes back with.
struct Default {
    end: &'static str,
    types: &'static [&'static [Type]],
    value: &'static str,
}

const DEFAULTS: &[Default] = &[
    Default {
        end: ".spec.replicas",
        types: &[REPLICATED],
        value: "1",
    },
    Default {
        end: ".spec.revisionHistoryLimit",
        types: &[HISTORY],
        value: "10",
    },
    Default {
        end: ".spec.progressDeadlineSeconds",
        types: &[DEPLOYMENT],
        value: "600",
    },
    Default {
        end: ".spec.strategy",
        types: &[DEPLOYMENT],
        value: "RollingUpdate with maxSurge and maxUnavailable 25%",
    },
    Default {
        end: ".spec.sessionAffinity",
        types: &[SERVICE],
        value: "None",
    },
    Default {
        end: "spec.restartPolicy",
        types: &[WORKLOADS],
        value: "Always",
    },
    Default {
        end: "spec.dnsPolicy",
        types: POD_SPEC,
        value: "ClusterFirst",
    },
    Default {
        end: "spec.terminationGracePeriodSeconds",
        types: POD_SPEC,
        value: "30",
    },
    Default {
        end: "spec.schedulerName",
        types: POD_SPEC,
        value: "default-scheduler",
    },
    Default {
        end: "].imagePullPolicy",
        types: POD_SPEC,
        value: "IfNotPresent (Always for a :latest image)",
    },
    Default {
        end: "].terminationMessagePath",
        types: POD_SPEC,
        value: "/dev/termination-log",
    },
    Default {
        end: "].terminationMessagePolicy",
        types: POD_SPEC,
        value: "File",
    },
    Default {
        end: ".spec.podManagementPolicy",
        types: &[STATEFUL_SET],
        value: "OrderedReady",
    },
    Default {
        end: ".spec.updateStrategy",
        types: &[STATEFUL_SET],
        value: "RollingUpdate with partition 0",
    },
    Default {
        end: ".spec.persistentVolumeClaimRetentionPolicy",
        types: &[STATEFUL_SET],
        value: "Retain when deleted and when scaled",
    },
    Default {
        end: ".spec.updateStrategy",
        types: &[DAEMON_SET],
        value: "RollingUpdate with maxUnavailable 1 and maxSurge 0",
    },
    Default {
        end: ".spec.type",
        types: &[SERVICE],
        value: "ClusterIP",
    },
    Default {
        end: ".spec.internalTrafficPolicy",
        types: &[SERVICE],
        value: "Cluster (but for an ExternalName Service)",
    },
    Default {
        end: "].targetPort",
        types: &[SERVICE],
        value: "the port's own number",
    },
    // Any probe's (`livenessProbe`, `readinessProbe`, `startupProbe`).
    Default {
        end: "Probe.timeoutSeconds",
        types: POD_SPEC,
        value: "1",
    },
    Default {
        end: "Probe.periodSeconds",
        types: POD_SPEC,
        value: "10",
    },
    Default {
        end: "Probe.successThreshold",
        types: POD_SPEC,
        value: "1",
    },
    Default {
        end: "Probe.failureThreshold",
        types: POD_SPEC,
        value: "3",
    },
    // A probe's or a lifecycle hook's.
    Default {
        end: ".httpGet.path",
        types: POD_SPEC,
        value: "/",
    },
    Default {
        end: ".httpGet.scheme",
        types: POD_SPEC,
        value: "HTTP",
    },
    Default {
        end: ".configMap.defaultMode",
        types: POD_SPEC,
        value: "420 (0644)",
    },
    Default {
        end: ".secret.defaultMode",
        types: POD_SPEC,
        value: "420 (0644)",
    },
    // A port's, whose list names it `protocol="TCP"` with the field or without it.
    Default {
        end: "].protocol",
        types: &[WORKLOADS, JOBS, SERVICE, NETWORK_POLICY],
        value: "TCP",
    },
];

/// The default a pruned field of an object of `api_version` and `kind` comes back with, if the
/// API server defaults it there.
pub(super) fn server_default(api_version: &str, kind: &str, path: &str) -> Option<&'static str> {
    if !path.starts_with(".spec.") {
        return None;
    }
    DEFAULTS
        .iter()
        .find(|d| {
            let at = if d.end.starts_with(".spec.") {
                path == d.end
            } else {
                path.ends_with(d.end)
            };
            at && d
                .types
                .iter()
                .any(|group| group.contains(&(api_version, kind)))
        })
        .map(|d| d.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPLOY: (&str, &str) = ("apps/v1", "Deployment");

    fn default(of: (&str, &str), path: &str) -> Option<&'static str> {
        server_default(of.0, of.1, path)
    }

    #[test]
    fn only_fields_the_api_server_defaults_come_back() {
        assert_eq!(default(DEPLOY, ".spec.replicas"), Some("1"));
        assert_eq!(
            default(
                DEPLOY,
                ".spec.template.spec.containers[name=\"a\"].imagePullPolicy"
            ),
            Some("IfNotPresent (Always for a :latest image)")
        );
        assert_eq!(
            default(DEPLOY, ".spec.template.spec.restartPolicy"),
            Some("Always")
        );
        assert_eq!(
            default(
                DEPLOY,
                ".spec.template.spec.containers[name=\"a\"].ports[containerPort=80,protocol=\"TCP\"].protocol"
            ),
            Some("TCP")
        );
        assert_eq!(
            default(
                ("v1", "Service"),
                ".spec.ports[port=53,protocol=\"UDP\"].protocol"
            ),
            Some("TCP")
        );
        assert_eq!(
            default(
                DEPLOY,
                ".spec.template.spec.containers[name=\"a\"].terminationMessagePolicy"
            ),
            Some("File")
        );
        assert_eq!(default(("v1", "ConfigMap"), ".data.replicas"), None);
        assert_eq!(default(DEPLOY, ".spec.template.spec.replicas"), None);
        assert_eq!(default(("v1", "ConfigMap"), ".data.legacy"), None);
    }

    /// A default belongs to its types: a custom resource's `.spec.replicas` is not the
    /// Deployment's, a Service has no `revisionHistoryLimit` default, and a Job's pods take no
    /// `restartPolicy` of `Always`.
    #[test]
    fn a_default_comes_back_only_in_the_types_defaulting_it() {
        assert_eq!(
            default(("example.com/v1", "Widget"), ".spec.replicas"),
            None
        );
        assert_eq!(
            default(("example.com/v1", "Deployment"), ".spec.replicas"),
            None
        );
        assert_eq!(
            default(("apps/v1", "StatefulSet"), ".spec.replicas"),
            Some("1")
        );
        assert_eq!(default(("apps/v1", "DaemonSet"), ".spec.replicas"), None);
        assert_eq!(
            default(("apps/v1", "DaemonSet"), ".spec.revisionHistoryLimit"),
            Some("10")
        );
        assert_eq!(
            default(("v1", "Service"), ".spec.revisionHistoryLimit"),
            None
        );
        assert_eq!(default(DEPLOY, ".spec.sessionAffinity"), None);
        assert_eq!(
            default(("v1", "Service"), ".spec.sessionAffinity"),
            Some("None")
        );
        assert_eq!(
            default(("batch/v1", "Job"), ".spec.template.spec.restartPolicy"),
            None
        );
        assert_eq!(
            default(
                ("batch/v1", "CronJob"),
                ".spec.jobTemplate.spec.template.spec.dnsPolicy"
            ),
            Some("ClusterFirst")
        );
        assert_eq!(
            default(
                ("networking.k8s.io/v1", "NetworkPolicy"),
                ".spec.ingress[0].ports[0].protocol"
            ),
            Some("TCP")
        );
        assert_eq!(
            default(
                ("example.com/v1", "Widget"),
                ".spec.template.spec.containers[name=\"a\"].imagePullPolicy"
            ),
            None
        );
        // One path, a default per kind.
        assert_eq!(
            default(("apps/v1", "StatefulSet"), ".spec.updateStrategy"),
            Some("RollingUpdate with partition 0")
        );
        assert_eq!(
            default(("apps/v1", "DaemonSet"), ".spec.updateStrategy"),
            Some("RollingUpdate with maxUnavailable 1 and maxSurge 0")
        );
        assert_eq!(default(DEPLOY, ".spec.updateStrategy"), None);
        assert_eq!(
            default(
                ("v1", "Service"),
                ".spec.ports[port=80,protocol=\"TCP\"].targetPort"
            ),
            Some("the port's own number")
        );
        assert_eq!(
            default(
                DEPLOY,
                ".spec.template.spec.containers[name=\"a\"].ports[containerPort=80,protocol=\"TCP\"].targetPort"
            ),
            None
        );
        assert_eq!(
            default(
                DEPLOY,
                ".spec.template.spec.containers[name=\"a\"].readinessProbe.periodSeconds"
            ),
            Some("10")
        );
        assert_eq!(
            default(
                ("v1", "Pod"),
                ".spec.containers[name=\"a\"].lifecycle.preStop.httpGet.scheme"
            ),
            Some("HTTP")
        );
        assert_eq!(
            default(
                DEPLOY,
                ".spec.template.spec.volumes[name=\"c\"].configMap.defaultMode"
            ),
            Some("420 (0644)")
        );
    }
}
