//! The table for Kubernetes' built-in kinds, compiled into the binary.
//!
//! `assets/schema/k8s-1.36.json` is derived data: `examples/gen_schema.rs` writes it from the
//! Kubernetes 1.36 OpenAPI v2 document, in the form [`Schema::to_compact`] gives. It is parsed
//! once, on first use.

use std::sync::OnceLock;

use super::{Schema, SchemaError};

/// The Kubernetes minor version the embedded table was generated from.
pub const EMBEDDED_KUBERNETES_VERSION: &str = "1.36";

/// The embedded table, as checked in.
const ASSET: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/schema/k8s-1.36.json"
));

static EMBEDDED: OnceLock<Result<Schema, SchemaError>> = OnceLock::new();
static EMPTY: OnceLock<Schema> = OnceLock::new();

impl Schema {
    /// The built-in kinds of Kubernetes [`EMBEDDED_KUBERNETES_VERSION`], parsed on first use.
    ///
    /// Should the asset ever fail to parse (a test guards it), this is an empty schema, so
    /// every lookup fails; [`Schema::try_embedded`] tells why.
    #[must_use]
    pub fn embedded() -> &'static Schema {
        match Schema::try_embedded() {
            Ok(schema) => schema,
            Err(_) => EMPTY.get_or_init(Schema::default),
        }
    }

    /// The built-in kinds, or why the embedded asset could not be read.
    ///
    /// # Errors
    /// When the checked-in asset is not a valid compact schema.
    pub fn try_embedded() -> Result<&'static Schema, &'static SchemaError> {
        EMBEDDED
            .get_or_init(|| {
                let mut b = Schema::compact_builder(ASSET)?;
                super::kubectl_scheme::add_old_versions(&mut b)?;
                Ok(b.finish())
            })
            .as_ref()
    }

    /// The embedded asset's text.
    #[must_use]
    pub fn embedded_asset() -> &'static str {
        ASSET
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::schema::{Kind, ListType, MapType, Strategies};

    fn deployment() -> crate::engine::schema::Meta<'static> {
        let schema = Schema::try_embedded().expect("embedded asset parses");
        schema
            .root_for_gvk("apps/v1", "Deployment")
            .expect("apps/v1 Deployment")
    }

    #[test]
    fn embedded_asset_parses_and_has_the_built_in_kinds() {
        let schema = Schema::try_embedded().expect("embedded asset parses");
        assert!(
            schema.definition_count() > 700,
            "{}",
            schema.definition_count()
        );
        assert_eq!(
            schema.definition_for_gvk("apps/v1", "Deployment"),
            Some("io.k8s.api.apps.v1.Deployment")
        );
        assert_eq!(
            schema.definition_for_gvk("v1", "ConfigMap"),
            Some("io.k8s.api.core.v1.ConfigMap")
        );
        assert_eq!(schema.definition_for_gvk("v1", "NoSuchKind"), None);
        assert!(std::ptr::eq(Schema::embedded(), schema));
    }

    #[test]
    fn embedded_round_trips_to_the_same_bytes() {
        let schema = Schema::from_compact(ASSET).expect("embedded asset parses");
        assert_eq!(schema.to_compact(), ASSET);
    }

    #[test]
    fn deployment_containers_merge_by_name() {
        let (template, _) = deployment()
            .lookup_struct("spec")
            .and_then(|(spec, _)| spec.lookup_struct("template"))
            .expect("spec.template");
        let (pod_spec, _) = template.lookup_struct("spec").expect("template.spec");
        let (container, meta) = pod_spec.lookup_slice("containers").expect("containers");
        assert_eq!(
            meta.strategies,
            Strategies {
                merge: true,
                ..Strategies::default()
            }
        );
        assert_eq!(meta.merge_key, Some("name"));
        assert_eq!(container.definition(), Some("io.k8s.api.core.v1.Container"));
        let info = pod_spec.field_info("containers").expect("containers info");
        assert_eq!(info.list_type, Some(ListType::Map));
        assert_eq!(
            info.list_map_keys.iter().map(|k| &**k).collect::<Vec<_>>(),
            ["name"]
        );
        let (arg, args) = container.lookup_slice("args").expect("args");
        assert_eq!(args, crate::engine::schema::PatchMeta::default());
        assert_eq!(arg.kind(), Kind::Scalar);
    }

    #[test]
    fn deployment_strategy_retains_keys() {
        let (spec, _) = deployment().lookup_struct("spec").expect("spec");
        let (strategy, meta) = spec.lookup_struct("strategy").expect("strategy");
        assert_eq!(
            meta.strategies,
            Strategies {
                retain_keys: true,
                ..Strategies::default()
            }
        );
        assert_eq!(meta.merge_key, None);
        assert_eq!(
            strategy.definition(),
            Some("io.k8s.api.apps.v1.DeploymentStrategy")
        );
    }

    #[test]
    fn metadata_finalizers_merge_without_key() {
        let (metadata, _) = deployment().lookup_struct("metadata").expect("metadata");
        let (_, meta) = metadata.lookup_slice("finalizers").expect("finalizers");
        assert_eq!(
            meta.strategies,
            Strategies {
                merge: true,
                ..Strategies::default()
            }
        );
        assert_eq!(meta.merge_key, None);
    }

    #[test]
    fn built_in_kinds_know_their_scope() {
        let schema = Schema::try_embedded().expect("embedded asset parses");
        let namespaced = [
            ("v1", "Pod"),
            ("apps/v1", "Deployment"),
            ("v1", "Service"),
            ("v1", "ConfigMap"),
            ("v1", "Secret"),
            ("rbac.authorization.k8s.io/v1", "Role"),
            ("rbac.authorization.k8s.io/v1", "RoleBinding"),
            ("networking.k8s.io/v1", "Ingress"),
            ("batch/v1", "Job"),
            ("batch/v1", "CronJob"),
            ("coordination.k8s.io/v1", "Lease"),
            ("v1", "Event"),
            ("events.k8s.io/v1", "Event"),
            ("v1", "Binding"),
            ("authorization.k8s.io/v1", "LocalSubjectAccessReview"),
        ];
        let cluster = [
            ("v1", "Namespace"),
            ("v1", "Node"),
            ("v1", "PersistentVolume"),
            ("rbac.authorization.k8s.io/v1", "ClusterRole"),
            ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
            ("storage.k8s.io/v1", "StorageClass"),
            ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
            ("scheduling.k8s.io/v1", "PriorityClass"),
            ("networking.k8s.io/v1", "IngressClass"),
            ("apiregistration.k8s.io/v1", "APIService"),
            (
                "admissionregistration.k8s.io/v1",
                "MutatingWebhookConfiguration",
            ),
            ("storage.k8s.io/v1", "CSIDriver"),
            ("node.k8s.io/v1", "RuntimeClass"),
            ("authorization.k8s.io/v1", "SubjectAccessReview"),
            ("v1", "ComponentStatus"),
        ];
        for (api_version, kind) in namespaced {
            assert_eq!(
                schema.is_namespaced(api_version, kind),
                Some(true),
                "{api_version} {kind}"
            );
        }
        for (api_version, kind) in cluster {
            assert_eq!(
                schema.is_namespaced(api_version, kind),
                Some(false),
                "{api_version} {kind}"
            );
        }
    }

    #[test]
    fn kinds_without_resource_paths_have_no_scope() {
        let schema = Schema::embedded();
        // Known kinds, served only as subresources or lists, or not at all.
        for (api_version, kind) in [
            ("autoscaling/v1", "Scale"),
            ("policy/v1", "Eviction"),
            ("authentication.k8s.io/v1", "TokenRequest"),
            ("apps/v1", "DeploymentList"),
            ("v1", "Status"),
            ("v1", "DeleteOptions"),
        ] {
            assert!(
                schema.root_for_gvk(api_version, kind).is_some(),
                "{api_version} {kind}"
            );
            assert_eq!(
                schema.is_namespaced(api_version, kind),
                None,
                "{api_version} {kind}"
            );
        }
        // Unknown kinds, and a known kind under the wrong group or version.
        assert_eq!(schema.is_namespaced("v1", "NoSuchKind"), None);
        assert_eq!(schema.is_namespaced("example.com/v1", "Widget"), None);
        assert_eq!(schema.is_namespaced("apps/v1", "Pod"), None);
        assert_eq!(schema.is_namespaced("v2", "Pod"), None);
    }

    #[test]
    fn quantity_and_int_or_string_are_go_structs() {
        let schema = Schema::embedded();
        let q = schema
            .root("io.k8s.apimachinery.pkg.api.resource.Quantity")
            .expect("Quantity");
        assert_eq!(q.kind(), Kind::Scalar);
        assert_eq!(
            q.lookup_struct("x").expect_err("not a struct").0,
            r#"unable to find api field in struct Quantity for the json field "x""#
        );
        let raw = schema
            .root("io.k8s.apimachinery.pkg.runtime.RawExtension")
            .expect("RawExtension");
        assert!(raw.is_opaque());
    }

    #[test]
    fn label_selector_is_an_atomic_struct() {
        let schema = Schema::embedded();
        let sel = schema
            .root("io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector")
            .expect("LabelSelector");
        assert_eq!(sel.map_type(), Some(MapType::Atomic));
        let pod_spec = schema.root("io.k8s.api.core.v1.PodSpec").expect("PodSpec");
        let node_selector = pod_spec.field_info("nodeSelector").expect("nodeSelector");
        assert_eq!(node_selector.map_type, Some(MapType::Atomic));
        assert_eq!(node_selector.meta.kind(), Kind::Map);
    }
}
