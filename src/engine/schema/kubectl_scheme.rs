//! The group versions kubectl's Go scheme still compiles in that the embedded Kubernetes 1.36
//! OpenAPI document (what a 1.36 server serves) no longer describes.
//!
//! kubectl chooses the patch by its compiled-in Go types, not by what a server serves
//! (`patcher.go`: a JSON merge patch only when `scheme.Scheme.New(gvk)` does not know the kind),
//! so a file at `apps/v1beta2` still gets a strategic merge patch. Each row names where the
//! embedded schema finds the kind's patch metadata: the same kind in the version that replaced
//! it, whose struct tags (merge keys, patch strategies) these versions share. Checked one by one
//! against kubectl 1.37.1 with the oracle (`tests/cases/105-107, 112`); absent on purpose, as
//! kubectl sends them a JSON merge patch: `autoscaling/v2beta1`, `autoscaling/v2beta2`,
//! `batch/v2alpha1`, `scheduling.k8s.io/v1alpha1`, `policy/v1beta1` `PodSecurityPolicy`.

/// (group, version, kinds (empty: every kind the target version has), target group, target
/// version).
const OLD_VERSIONS: &[(&str, &str, &[&str], &str, &str)] = &[
    (
        "apps",
        "v1beta1",
        &["Deployment", "StatefulSet", "ControllerRevision"],
        "apps",
        "v1",
    ),
    ("apps", "v1beta2", &[], "apps", "v1"),
    (
        "extensions",
        "v1beta1",
        &["Deployment", "DaemonSet", "ReplicaSet"],
        "apps",
        "v1",
    ),
    (
        "extensions",
        "v1beta1",
        &["Ingress", "NetworkPolicy"],
        "networking.k8s.io",
        "v1",
    ),
    ("batch", "v1beta1", &["CronJob"], "batch", "v1"),
    (
        "policy",
        "v1beta1",
        &["PodDisruptionBudget"],
        "policy",
        "v1",
    ),
    (
        "rbac.authorization.k8s.io",
        "v1beta1",
        &[],
        "rbac.authorization.k8s.io",
        "v1",
    ),
    (
        "networking.k8s.io",
        "v1beta1",
        &["Ingress", "IngressClass"],
        "networking.k8s.io",
        "v1",
    ),
    ("discovery.k8s.io", "v1beta1", &[], "discovery.k8s.io", "v1"),
    ("events.k8s.io", "v1beta1", &[], "events.k8s.io", "v1"),
    (
        "admissionregistration.k8s.io",
        "v1beta1",
        &[],
        "admissionregistration.k8s.io",
        "v1",
    ),
    (
        "admissionregistration.k8s.io",
        "v1alpha1",
        &[
            "ValidatingAdmissionPolicy",
            "ValidatingAdmissionPolicyBinding",
        ],
        "admissionregistration.k8s.io",
        "v1",
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        &[],
        "flowcontrol.apiserver.k8s.io",
        "v1",
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta3",
        &[],
        "flowcontrol.apiserver.k8s.io",
        "v1",
    ),
    ("node.k8s.io", "v1beta1", &[], "node.k8s.io", "v1"),
    (
        "scheduling.k8s.io",
        "v1beta1",
        &[],
        "scheduling.k8s.io",
        "v1",
    ),
    ("storage.k8s.io", "v1beta1", &[], "storage.k8s.io", "v1"),
    (
        "coordination.k8s.io",
        "v1beta1",
        &["Lease"],
        "coordination.k8s.io",
        "v1",
    ),
];

/// Where the embedded schema finds a kind of an old group version kubectl still compiles in:
/// `(group, version)` of the version that replaced it, or `None`.
#[must_use]
pub(super) fn replaced_by(
    group: &str,
    version: &str,
    kind: &str,
) -> Option<(&'static str, &'static str)> {
    OLD_VERSIONS
        .iter()
        .find(|(g, v, kinds, _, _)| {
            *g == group && *v == version && (kinds.is_empty() || kinds.contains(&kind))
        })
        .map(|&(_, _, _, to_group, to_version)| (to_group, to_version))
}

#[cfg(test)]
mod tests {
    use crate::engine::schema::Schema;

    #[test]
    fn old_versions_kubectl_compiles_in_find_their_successors_kind() {
        let schema = Schema::embedded();
        for (api_version, kind, definition) in [
            (
                "apps/v1beta2",
                "Deployment",
                "io.k8s.api.apps.v1.Deployment",
            ),
            (
                "extensions/v1beta1",
                "Ingress",
                "io.k8s.api.networking.v1.Ingress",
            ),
            ("batch/v1beta1", "CronJob", "io.k8s.api.batch.v1.CronJob"),
            ("apps/v1", "Deployment", "io.k8s.api.apps.v1.Deployment"),
        ] {
            assert_eq!(
                schema.definition_for_gvk(api_version, kind),
                Some(definition),
                "{api_version} {kind}"
            );
        }
        assert_eq!(
            schema.is_namespaced("extensions/v1beta1", "Deployment"),
            Some(true)
        );
        assert_eq!(
            schema.is_namespaced("rbac.authorization.k8s.io/v1beta1", "ClusterRole"),
            Some(false)
        );
        // kubectl has no Go types for these any more: a JSON merge patch, like a custom resource.
        for (api_version, kind) in [
            ("autoscaling/v2beta2", "HorizontalPodAutoscaler"),
            ("batch/v2alpha1", "CronJob"),
            ("policy/v1beta1", "PodSecurityPolicy"),
            ("extensions/v1beta1", "PodSecurityPolicy"),
        ] {
            assert!(
                schema.root_for_gvk(api_version, kind).is_none(),
                "{api_version} {kind}"
            );
        }
    }
}
