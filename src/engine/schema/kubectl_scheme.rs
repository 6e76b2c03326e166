//! The group versions kubectl's Go scheme still compiles in that the embedded Kubernetes 1.36
//! OpenAPI document (what a 1.36 server serves) no longer describes.
//!
//! kubectl chooses the patch by its compiled-in Go types, not by what a server serves
//! (`patcher.go`: a JSON merge patch only when `scheme.Scheme.New(gvk)` does not know the kind),
//! so a file at `apps/v1beta2` still gets a strategic merge patch. Each row names where the
//! embedded schema finds the kind's patch metadata: the same kind in the version that
//! replaced it, whose struct tags (merge keys, patch strategies) these versions mostly share.
//! Checked one by one against kubectl 1.37.1 with the oracle (`tests/cases/105-107, 112`);
//! absent on purpose, as kubectl sends them a JSON merge patch: `autoscaling/v2beta1`,
//! `autoscaling/v2beta2`, `batch/v2alpha1`, `scheduling.k8s.io/v1alpha1`, `policy/v1beta1`
//! `PodSecurityPolicy`.
//!
//! Where an old version's Go types differ from the successor's (a field without the
//! successor's patch strategy, a field the successor dropped), the kind gets its own types,
//! derived from the successor's by [`DIFFERENCES`] when the embedded schema is read
//! ([`add_old_versions`]). The rows come from comparing the struct tags of every type the old
//! and the new package share in `k8s.io/api` v0.37.1 (kubectl 1.37.1's), and the fields only
//! the old package has: everything else is the same. Checked with the oracle in
//! `tests/cases/126-131`.

use std::collections::HashSet;

use super::model::{Builder, Field, Gvk, Node, NodeId, Scalar, Shape, Struct};
use super::{SchemaError, Strategies};

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

/// How a field of an old version's Go type differs from the successor's.
#[derive(Clone, Copy, Debug)]
enum Differs {
    /// No patch strategy and no merge key (the successor has them).
    NoStrategy,
    /// Only the old version has the field, of this type.
    Only(Added),
}

/// The type of a field only an old version has.
#[derive(Clone, Copy, Debug)]
enum Added {
    Scalar(Scalar),
    /// `map[string]string`.
    StringMap,
    /// A named definition of the embedded schema.
    Named(&'static str),
    /// A struct of the old package: its Go name and its fields.
    Struct(&'static str, &'static [(&'static str, Added)]),
}

/// `RollbackConfig` of `apps/v1beta1` and `extensions/v1beta1`.
const ROLLBACK_CONFIG: Added = Added::Struct(
    "RollbackConfig",
    &[("revision", Added::Scalar(Scalar::Int64))],
);

/// `IngressBackend` of `extensions/v1beta1` and `networking.k8s.io/v1beta1`, as `spec.backend`
/// holds it (the rules' backends keep the successor's type: their extra fields are strings).
const INGRESS_BACKEND: Added = Added::Struct(
    "IngressBackend",
    &[
        ("serviceName", Added::Scalar(Scalar::String)),
        (
            "servicePort",
            Added::Named("io.k8s.apimachinery.pkg.util.intstr.IntOrString"),
        ),
        (
            "resource",
            Added::Named("io.k8s.api.core.v1.TypedLocalObjectReference"),
        ),
    ],
);

/// (group, version, kind, the field's path from the object (`[]`: a list's element), how it
/// differs from the successor [`replaced_by`] names).
const DIFFERENCES: &[(&str, &str, &str, &[&str], Differs)] = &[
    (
        "policy",
        "v1beta1",
        "PodDisruptionBudget",
        &["spec", "selector"],
        Differs::NoStrategy,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "FlowSchema",
        &["status", "conditions"],
        Differs::NoStrategy,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "PriorityLevelConfiguration",
        &["status", "conditions"],
        Differs::NoStrategy,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "PriorityLevelConfiguration",
        &["spec", "limited", "assuredConcurrencyShares"],
        Differs::Only(Added::Scalar(Scalar::Int32)),
    ),
    (
        "apps",
        "v1beta1",
        "Deployment",
        &["spec", "rollbackTo"],
        Differs::Only(ROLLBACK_CONFIG),
    ),
    (
        "extensions",
        "v1beta1",
        "Deployment",
        &["spec", "rollbackTo"],
        Differs::Only(ROLLBACK_CONFIG),
    ),
    (
        "extensions",
        "v1beta1",
        "DaemonSet",
        &["spec", "templateGeneration"],
        Differs::Only(Added::Scalar(Scalar::Int64)),
    ),
    (
        "extensions",
        "v1beta1",
        "Ingress",
        &["spec", "backend"],
        Differs::Only(INGRESS_BACKEND),
    ),
    (
        "networking.k8s.io",
        "v1beta1",
        "Ingress",
        &["spec", "backend"],
        Differs::Only(INGRESS_BACKEND),
    ),
    (
        "discovery.k8s.io",
        "v1beta1",
        "EndpointSlice",
        &["endpoints", "[]", "topology"],
        Differs::Only(Added::StringMap),
    ),
];

/// Gives the kinds of [`DIFFERENCES`] their own types in the embedded schema's nodes: each a
/// copy of the successor's kind, the types on the way to a differing field copied too (named
/// as the old package's), the rest shared.
pub(super) fn add_old_versions(b: &mut Builder) -> Result<(), SchemaError> {
    // The copies made so far: a row reaching one changes it in place.
    let mut copies: HashSet<NodeId> = HashSet::new();
    let mut roots: Vec<((&str, &str, &str), NodeId)> = Vec::new();
    for &(group, version, kind, path, differs) in DIFFERENCES {
        let key = (group, version, kind);
        let package = package(group, version);
        let root = match roots.iter().find(|(k, _)| *k == key) {
            Some(&(_, id)) => id,
            None => {
                let (to_group, to_version) = replaced_by(group, version, kind)
                    .ok_or_else(|| missing(group, version, kind))?;
                let (source, namespaced, resource) = b
                    .nodes
                    .iter()
                    .zip(0..)
                    .find_map(|(node, id)| {
                        node.gvks
                            .iter()
                            .find(|g| {
                                &*g.group == to_group
                                    && &*g.version == to_version
                                    && &*g.kind == kind
                            })
                            .map(|g| (id, g.namespaced, g.resource.clone()))
                    })
                    .ok_or_else(|| missing(to_group, to_version, kind))?;
                let id = copy(b, source, &package)?;
                if let Some(node) = b.nodes.get_mut(id as usize) {
                    node.gvks = Box::new([Gvk {
                        group: group.into(),
                        version: version.into(),
                        kind: kind.into(),
                        namespaced,
                        resource,
                    }]);
                }
                copies.insert(id);
                roots.push((key, id));
                id
            }
        };
        let (last, way) = path
            .split_last()
            .ok_or_else(|| missing(group, version, kind))?;
        let mut at = root;
        for step in way.iter().filter(|s| **s != "[]") {
            at = own_child(b, &mut copies, at, step, &package)
                .ok_or_else(|| missing(group, version, kind))??;
        }
        let edited = match differs {
            Differs::NoStrategy => edit_field(b, at, last, |f| {
                f.strategies = Strategies::default();
                f.patch_strategy = None;
                f.merge_key = None;
            }),
            Differs::Only(added) => {
                let field = plain_field(last, added_type(b, added, &package)?);
                edit_fields(b, at, |fields| {
                    fields.push(field);
                    true
                })
            }
        };
        if !edited {
            return Err(missing(group, version, kind));
        }
    }
    Ok(())
}

/// The definitions' prefix of an old group version's Go package: `io.k8s.api.policy.v1beta1`.
fn package(group: &str, version: &str) -> String {
    let short = group.split('.').next().unwrap_or(group);
    format!("io.k8s.api.{short}.{version}")
}

fn missing(group: &str, version: &str, kind: &str) -> SchemaError {
    SchemaError::Compact(format!(
        "kubectl's old types: no {group}/{version} {kind} to derive from"
    ))
}

/// A copy of a struct node, named as the same type of `package`.
fn copy(b: &mut Builder, id: NodeId, package: &str) -> Result<NodeId, SchemaError> {
    let Some(node) = b.nodes.get(id as usize) else {
        return Err(SchemaError::Compact(format!("no node {id}")));
    };
    let Shape::Struct(st) = &node.shape else {
        return Err(SchemaError::Compact(format!(
            "kubectl's old types: {} is not a struct",
            node.go_name()
        )));
    };
    let copied = Node {
        name: Some(format!("{package}.{}", node.go_name()).into()),
        gvks: Box::new([]),
        map_type: node.map_type,
        shape: Shape::Struct(Struct::new(st.fields().cloned().collect())),
    };
    b.push(copied)
}

/// The struct a step leads to from the copy `at` (for a list field, its element's; the path's
/// `[]` after it is then passed over), copied unless it is a copy already. `None` when the step
/// leads to no struct.
fn own_child(
    b: &mut Builder,
    copies: &mut HashSet<NodeId>,
    at: NodeId,
    step: &str,
    package: &str,
) -> Option<Result<NodeId, SchemaError>> {
    let Shape::Struct(st) = &b.nodes.get(at as usize)?.shape else {
        return None;
    };
    let child = st.find(step)?.ty;
    let (target, list) = match &b.nodes.get(child as usize)?.shape {
        Shape::Struct(_) => (child, false),
        Shape::List(elem) => (*elem, true),
        _ => return None,
    };
    if copies.contains(&target) {
        return Some(Ok(target));
    }
    if !matches!(b.nodes.get(target as usize)?.shape, Shape::Struct(_)) {
        return None;
    }
    Some(copy(b, target, package).inspect(|&id| {
        copies.insert(id);
        let ty = if list { b.list(id) } else { id };
        edit_field(b, at, step, |f| f.ty = ty);
    }))
}

/// [`edit_fields`] for the one field `name` of the struct `at`; whether it has one.
fn edit_field(b: &mut Builder, at: NodeId, name: &str, edit: impl FnOnce(&mut Field)) -> bool {
    edit_fields(b, at, |fields| {
        fields
            .iter_mut()
            .find(|f| &*f.name == name)
            .map(edit)
            .is_some()
    })
}

/// Rebuilds the struct `at` with its fields as `edit` leaves them; whether it was a struct
/// and `edit` found what it changes.
fn edit_fields(b: &mut Builder, at: NodeId, edit: impl FnOnce(&mut Vec<Field>) -> bool) -> bool {
    let Some(Node {
        shape: Shape::Struct(st),
        ..
    }) = b.nodes.get_mut(at as usize)
    else {
        return false;
    };
    let mut fields: Vec<Field> = st.fields().cloned().collect();
    let done = edit(&mut fields);
    *st = Struct::new(fields);
    done
}

/// A field with no patch metadata: what a Go struct field without tags is.
fn plain_field(name: &str, ty: NodeId) -> Field {
    Field {
        name: name.into(),
        ty,
        strategies: Strategies::default(),
        patch_strategy: None,
        merge_key: None,
        list_type: None,
        list_map_keys: Box::new([]),
        map_type: None,
    }
}

fn added_type(b: &mut Builder, added: Added, package: &str) -> Result<NodeId, SchemaError> {
    Ok(match added {
        Added::Scalar(s) => b.scalar(s),
        Added::StringMap => {
            let s = b.scalar(Scalar::String);
            b.map(s)
        }
        Added::Named(name) => b
            .nodes
            .iter()
            .zip(0..)
            .find(|(n, _)| n.name.as_deref() == Some(name))
            .map(|(_, id)| id)
            .ok_or_else(|| SchemaError::Compact(format!("kubectl's old types: no {name}")))?,
        Added::Struct(go_name, fields) => {
            let mut made = Vec::with_capacity(fields.len());
            for &(name, ty) in fields {
                made.push(plain_field(name, added_type(b, ty, package)?));
            }
            b.push(Node {
                name: Some(format!("{package}.{go_name}").into()),
                gvks: Box::new([]),
                map_type: None,
                shape: Shape::Struct(Struct::new(made)),
            })?
        }
    })
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
                "NetworkPolicy",
                "io.k8s.api.networking.v1.NetworkPolicy",
            ),
            (
                "extensions/v1beta1",
                "Ingress",
                "io.k8s.api.extensions.v1beta1.Ingress",
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

    /// The patch metadata at a path of `api_version` `kind` (`[]`: a list's element).
    fn meta_at(
        api_version: &str,
        kind: &str,
        path: &[&str],
    ) -> Result<crate::engine::schema::PatchMeta<'static>, String> {
        let mut at = Schema::embedded()
            .root_for_gvk(api_version, kind)
            .ok_or("no kind")?;
        let mut meta = crate::engine::schema::PatchMeta::default();
        let mut steps = path.iter().peekable();
        while let Some(step) = steps.next() {
            if *step == "[]" {
                continue;
            }
            let (next, m) = if steps.peek() == Some(&&"[]") {
                at.lookup_slice(step)
            } else {
                at.lookup_struct(step)
            }
            .map_err(|e| e.0)?;
            (at, meta) = (next, m);
        }
        Ok(meta)
    }

    #[test]
    fn old_versions_whose_go_types_differ_have_their_own() {
        use crate::engine::schema::Strategies;
        let replace = Strategies {
            replace: true,
            ..Strategies::default()
        };
        // policy/v1 replaces a changed selector whole; policy/v1beta1 merges it.
        let selector = ["spec", "selector"];
        assert_eq!(
            meta_at("policy/v1", "PodDisruptionBudget", &selector).map(|m| m.strategies),
            Ok(replace)
        );
        assert_eq!(
            meta_at("policy/v1beta1", "PodDisruptionBudget", &selector).map(|m| m.strategies),
            Ok(Strategies::default())
        );
        // The rest of the kind is the successor's: the selector's own fields, the metadata.
        assert!(
            meta_at(
                "policy/v1beta1",
                "PodDisruptionBudget",
                &["spec", "selector", "matchExpressions", "[]", "values"]
            )
            .is_ok()
        );
        let finalizers = meta_at(
            "policy/v1beta1",
            "PodDisruptionBudget",
            &["metadata", "finalizers"],
        );
        assert!(finalizers.is_ok_and(|m| m.strategies.merge));
        let schema = Schema::embedded();
        assert_eq!(
            schema.definition_for_gvk("policy/v1beta1", "PodDisruptionBudget"),
            Some("io.k8s.api.policy.v1beta1.PodDisruptionBudget")
        );
        assert_eq!(
            schema.is_namespaced("policy/v1beta1", "PodDisruptionBudget"),
            Some(true)
        );

        // flowcontrol v1beta2: status conditions without a merge key; a field v1 renamed.
        for kind in ["FlowSchema", "PriorityLevelConfiguration"] {
            let v1 = meta_at(
                "flowcontrol.apiserver.k8s.io/v1",
                kind,
                &["status", "conditions"],
            );
            assert_eq!(v1.map(|m| m.merge_key), Ok(Some("type")), "{kind}");
            let old = meta_at(
                "flowcontrol.apiserver.k8s.io/v1beta2",
                kind,
                &["status", "conditions"],
            );
            assert_eq!(
                old,
                Ok(crate::engine::schema::PatchMeta::default()),
                "{kind}"
            );
        }
        let shares = ["spec", "limited", "assuredConcurrencyShares"];
        let plc = "PriorityLevelConfiguration";
        assert!(meta_at("flowcontrol.apiserver.k8s.io/v1beta2", plc, &shares).is_ok());
        assert!(meta_at("flowcontrol.apiserver.k8s.io/v1beta3", plc, &shares).is_err());
        assert!(meta_at("flowcontrol.apiserver.k8s.io/v1", plc, &shares).is_err());

        // Fields only the old versions have.
        for (api_version, kind, path) in [
            (
                "apps/v1beta1",
                "Deployment",
                &["spec", "rollbackTo", "revision"][..],
            ),
            (
                "extensions/v1beta1",
                "Deployment",
                &["spec", "rollbackTo", "revision"],
            ),
            (
                "extensions/v1beta1",
                "DaemonSet",
                &["spec", "templateGeneration"],
            ),
            (
                "extensions/v1beta1",
                "Ingress",
                &["spec", "backend", "serviceName"],
            ),
            (
                "networking.k8s.io/v1beta1",
                "Ingress",
                &["spec", "backend", "resource", "kind"],
            ),
            (
                "discovery.k8s.io/v1beta1",
                "EndpointSlice",
                &["endpoints", "[]", "topology"],
            ),
        ] {
            assert!(
                meta_at(api_version, kind, path).is_ok(),
                "{api_version} {kind} {path:?}"
            );
            let (group, _) = api_version.split_once('/').unwrap_or(("", ""));
            let successor = match (group, kind) {
                ("extensions" | "apps", "Deployment" | "DaemonSet") => "apps/v1",
                ("discovery.k8s.io", _) => "discovery.k8s.io/v1",
                _ => "networking.k8s.io/v1",
            };
            assert!(
                meta_at(successor, kind, path).is_err(),
                "{successor} {kind} {path:?}"
            );
        }
        // Go's messages name the old package's types as Go does.
        assert_eq!(
            meta_at(
                "extensions/v1beta1",
                "Ingress",
                &["spec", "backend", "bogus"]
            ),
            Err(
                "unable to find api field in struct IngressBackend for the json field \"bogus\""
                    .to_owned()
            )
        );
    }
}
