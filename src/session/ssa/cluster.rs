//! `plan --server-side` and `apply --server-side` with the live objects read from the cluster:
//! each local object's live object as served (its `metadata.managedFields` included), the
//! body kubectl sends (the file with the namespace kubectl's builder gives it), and the plan.
//! The schema is the embedded table's for the built-in kinds, else the cluster's OpenAPI v3
//! document of the object's group version (custom resources), read once per group version.

use std::collections::HashMap;

use super::{SsaInput, SsaOutcome, plan_server_side};
use crate::cluster::{Conn, Loaded, Target};
use crate::engine::ssa::kubernetes;
use crate::engine::ssa::openapi::{OpenApiSchema, from_openapi};
use crate::error::Error;
use crate::session::objects::{Object, Pair};
use crate::value::{Map, Value};

#[cfg(feature = "cluster")]
use crate::cluster::Cluster;

/// How the apply is made.
#[derive(Clone, Copy, Debug)]
pub struct SsaSettings<'a> {
    /// `--field-manager`.
    pub manager: &'a str,
    /// `--force-conflicts`.
    pub force: bool,
    /// `--migrate-manager`.
    pub migrate: &'a [String],
    /// Now, as the API server writes it.
    pub time: &'a str,
}

/// One object read from the cluster and planned.
pub struct SsaObject {
    pub pair: Pair,
    pub loaded: Loaded,
    /// The body kubectl sends.
    pub body: std::sync::Arc<Value>,
    pub outcome: Result<SsaOutcome, Error>,
}

/// The objects, read and planned, and the connection they were read with.
pub struct SsaPlanned {
    #[cfg(feature = "cluster")]
    pub cluster: Cluster,
    pub objects: Vec<SsaObject>,
}

/// The body kubectl sends for a local object: the object, with `metadata.namespace` set to the
/// namespace it goes to when it names none (kubectl's builder sets it before encoding), and
/// without the file's namespace when the kind is cluster-scoped (`FilterNamespace`).
#[must_use]
pub fn apply_body(local: &Value, target: &Target) -> Value {
    let mut body = local.clone();
    let Some(obj) = body.as_object_mut() else {
        return body;
    };
    match &target.namespace {
        None => {
            if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.shift_remove("namespace");
            }
        }
        Some(ns) => {
            let meta = obj
                .entry("metadata")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(meta) = meta.as_object_mut()
                && meta
                    .get("namespace")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
            {
                meta.insert("namespace", Value::from(ns.as_str()));
            }
        }
    }
    body
}

/// The cluster's schema for a kind the embedded table lacks, read once per group version.
pub struct Schemas<F> {
    fetch: F,
    read: HashMap<String, Option<OpenApiSchema>>,
}

impl<F: FnMut(&str) -> Option<std::sync::Arc<Value>>> Schemas<F> {
    /// `fetch` gives the OpenAPI v3 document of a group version.
    pub fn new(fetch: F) -> Schemas<F> {
        Schemas {
            fetch,
            read: HashMap::new(),
        }
    }

    /// The schema to plan a `kind` of `api_version` with: `None` for an embedded kind (or
    /// when the server has no readable document).
    pub fn for_kind(&mut self, api_version: &str, kind: &str) -> Option<&OpenApiSchema> {
        if kubernetes::embedded()
            .root_for_gvk(api_version, kind)
            .is_some()
        {
            return None;
        }
        let fetch = &mut self.fetch;
        self.read
            .entry(api_version.to_owned())
            .or_insert_with(|| fetch(api_version).and_then(|doc| from_openapi(&doc).ok()))
            .as_ref()
    }
}

/// Plan one loaded object.
pub fn plan_loaded<F: FnMut(&str) -> Option<std::sync::Arc<Value>>>(
    pair: Pair,
    loaded: Loaded,
    settings: &SsaSettings<'_>,
    schemas: &mut Schemas<F>,
) -> SsaObject {
    let body = std::sync::Arc::new(apply_body(&pair.local.value, &loaded.target));
    let schema = schemas.for_kind(&loaded.target.api_version, &loaded.target.kind);
    let outcome = plan_server_side(&SsaInput {
        local: &body,
        live: loaded.live.as_ref(),
        local_name: &pair.local.source,
        live_name: pair.live.as_ref().map_or("", |l| l.source.as_str()),
        manager: settings.manager,
        force: settings.force,
        migrate: settings.migrate,
        time: settings.time,
        schema,
        resource: Some(&loaded.target.plural),
    });
    SsaObject {
        pair,
        loaded,
        body,
        outcome,
    }
}

/// Read every local object's live object from the cluster and plan its server-side apply.
///
/// # Errors
/// Any cluster error (exit 2, naming the object's file).
#[cfg(feature = "cluster")]
pub fn load_and_plan_server_side(
    locals: Vec<Object>,
    conn: &Conn,
    settings: &SsaSettings<'_>,
) -> Result<SsaPlanned, Error> {
    let cluster = crate::session::cluster::connect(conn)?;
    // kubectl's server-side apply reads no patch metadata.
    let (pairs, loaded) = crate::session::cluster::load_pairs(&cluster, locals, false)?;
    let mut schemas = Schemas::new(|api_version: &str| cluster.openapi_v3(api_version));
    let objects = pairs
        .into_iter()
        .zip(loaded)
        .map(|(pair, loaded)| plan_loaded(pair, loaded, settings, &mut schemas))
        .collect();
    Ok(SsaPlanned { cluster, objects })
}

/// # Errors
/// Always: this build has no cluster access.
#[cfg(not(feature = "cluster"))]
pub fn load_and_plan_server_side(
    _: Vec<Object>,
    _: &Conn,
    _: &SsaSettings<'_>,
) -> Result<SsaPlanned, Error> {
    Err(crate::session::cluster::not_built())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn the_body_gets_the_namespace_it_goes_to() {
        let t = |ns: Option<&str>| Target {
            api_version: "v1".into(),
            kind: "ConfigMap".into(),
            plural: "configmaps".into(),
            namespace: ns.map(Into::into),
            name: "a".into(),
        };
        let local = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}});
        assert_eq!(
            apply_body(&local, &t(Some("dev")))["metadata"]["namespace"],
            "dev"
        );
        assert_eq!(apply_body(&local, &t(None)), local);
        let named = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "x"}});
        assert_eq!(apply_body(&named, &t(Some("dev"))), named);
        // A cluster-scoped kind loses the file's namespace, as kubectl's `FilterNamespace`
        // drops it (kube-prometheus writes one on its ClusterRoles).
        assert_eq!(apply_body(&named, &t(None)), local);
    }
}
