//! Where patch metadata comes from, in kubectl 1.37's order (`pkg/cmd/apply/patcher.go`):
//!
//! 1. OpenAPI v3: `GET /openapi/v3` (the index), then the group-version's document. If its
//!    PATCH operation for the kind (`x-kubernetes-group-version-kind`) accepts
//!    `application/strategic-merge-patch+json`, the strategic merge patch is built from that
//!    document's schemas.
//! 2. OpenAPI v2: `GET /openapi/v2`. If the kind's PATCH operation `consumes` the strategic
//!    merge patch, the patch is built from its definitions.
//! 3. The embedded schema (kubectl's compiled-in types); a kind it does not know (a custom
//!    resource) gets the JSON merge patch.
//!
//! A document that cannot be read (404, an error, no answer) counts as absent, as in kubectl.
//! `--openapi-patch=false` skips 1 and 2. Documents and schemas are kept for the session.

use std::collections::HashMap;
use std::sync::Arc;

use crate::value::Value;

use super::{Choice, Cluster, Request, SchemaSource, Verb};
use crate::engine::object::GroupVersion;
use crate::engine::schema::Schema;

const SMP: &str = "application/strategic-merge-patch+json";

/// A fetched document and its schema (read when first needed).
type Fetched = (Arc<Value>, Option<Arc<Schema>>);

/// What was fetched so far.
#[derive(Default)]
pub(crate) struct Cache {
    /// The v3 index's paths (`apis/apps/v1` → server-relative URL); `Some(None)`: absent.
    v3_index: Option<Option<HashMap<String, String>>>,
    /// Group-version documents and their schemas (`None`: absent or unreadable).
    v3: HashMap<String, Option<Fetched>>,
    /// The v2 document and its schema.
    v2: Option<Option<Fetched>>,
}

fn get(path: &str) -> Request {
    Request {
        verb: Verb::Get,
        path: path.to_owned(),
        query: Vec::new(),
        content_type: None,
        body: None,
        resource: "openapi".into(),
        name: path.to_owned(),
    }
}

/// Does the operation's `x-kubernetes-group-version-kind` name this kind?
fn names_gvk(op: &Value, group: &str, version: &str, kind: &str) -> bool {
    let Some(gvk) = op.get("x-kubernetes-group-version-kind") else {
        return false;
    };
    let s = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("");
    s("group") == group && s("version") == version && s("kind") == kind
}

/// kubectl's `gvkSupportsPatchOpenAPIV3`: the first PATCH operation for the kind decides.
#[must_use]
pub fn v3_supports_smp(doc: &Value, group: &str, version: &str, kind: &str) -> bool {
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
        return false;
    };
    for item in paths.values() {
        let Some(op) = item.get("patch") else {
            continue;
        };
        if names_gvk(op, group, version, kind) {
            return op
                .pointer("/requestBody/content")
                .and_then(Value::as_object)
                .is_some_and(|c| c.contains_key(SMP));
        }
    }
    false
}

/// kubectl's `getPatchTypeFromOpenAPI` on v2: the kind's PATCH `consumes` lists SMP.
#[must_use]
pub fn v2_supports_smp(doc: &Value, group: &str, version: &str, kind: &str) -> bool {
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
        return false;
    };
    paths.values().any(|item| {
        item.get("patch").is_some_and(|op| {
            names_gvk(op, group, version, kind)
                && op
                    .get("consumes")
                    .and_then(Value::as_array)
                    .is_some_and(|c| c.iter().any(|t| t == SMP))
        })
    })
}

impl Cluster {
    /// The patch metadata for a kind, as kubectl 1.37 picks it.
    pub(super) async fn patch_schema(
        &self,
        api_version: &str,
        kind: &str,
        openapi_patch: bool,
    ) -> Choice {
        if !openapi_patch {
            return Choice::embedded();
        }
        // Held while fetching: objects loading at once share each document.
        let mut cache = self.openapi.lock().await;
        let GroupVersion { group, version } = GroupVersion::parse(api_version);
        if let Some(schema) = self
            .v3_schema(&mut cache, api_version, group, version, kind)
            .await
        {
            return Choice {
                source: SchemaSource::ServerV3,
                schema: Some(schema),
            };
        }
        if let Some(schema) = self
            .v2_schema(&mut cache, api_version, group, version, kind)
            .await
        {
            return Choice {
                source: SchemaSource::ServerV2,
                schema: Some(schema),
            };
        }
        Choice::embedded()
    }

    async fn fetch_json(&self, path: &str) -> Option<Value> {
        match self.send_async(&get(path)).await {
            Ok(Some(v)) => Some(v),
            _ => None,
        }
    }

    async fn v3_schema(
        &self,
        cache: &mut Cache,
        api_version: &str,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Option<Arc<Schema>> {
        let key = v3_key(api_version, group, version);
        self.v3_document(cache, &key).await?;
        let slot = cache.v3.get_mut(&key)?.as_mut()?;
        pick(slot, api_version, group, version, kind, v3_supports_smp)
    }

    /// The server's OpenAPI v3 document of a group version (`apps/v1`, `v1`), fetched once
    /// per session (with the index); `None` when the server serves none. The server-side
    /// apply plan reads the schema of the kinds the embedded table lacks from it.
    pub fn openapi_v3(&self, api_version: &str) -> Option<Arc<Value>> {
        let GroupVersion { group, version } = GroupVersion::parse(api_version);
        let key = v3_key(api_version, group, version);
        self.rt.block_on(async {
            let mut cache = self.openapi.lock().await;
            self.v3_document(&mut cache, &key).await
        })
    }

    async fn v3_document(&self, cache: &mut Cache, key: &str) -> Option<Arc<Value>> {
        if cache.v3_index.is_none() {
            let index = self.fetch_json("/openapi/v3").await.map(|doc| {
                doc.get("paths")
                    .and_then(Value::as_object)
                    .map(|paths| {
                        paths
                            .iter()
                            .filter_map(|(k, v)| {
                                let url = v.get("serverRelativeURL")?.as_str()?;
                                Some((k.to_string(), url.to_owned()))
                            })
                            .collect::<HashMap<_, _>>()
                    })
                    .unwrap_or_default()
            });
            cache.v3_index = Some(index);
        }
        let url = cache.v3_index.as_ref()?.as_ref()?.get(key)?.clone();
        if !cache.v3.contains_key(key) {
            let entry = self.fetch_json(&url).await.map(|doc| (Arc::new(doc), None));
            cache.v3.insert(key.to_owned(), entry);
        }
        cache.v3.get(key)?.as_ref().map(|(doc, _)| doc.clone())
    }

    async fn v2_schema(
        &self,
        cache: &mut Cache,
        api_version: &str,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Option<Arc<Schema>> {
        if cache.v2.is_none() {
            let entry = self
                .fetch_json("/openapi/v2")
                .await
                .map(|doc| (Arc::new(doc), None));
            cache.v2 = Some(entry);
        }
        let slot = cache.v2.as_mut()?.as_mut()?;
        pick(slot, api_version, group, version, kind, v2_supports_smp)
    }
}

/// The v3 index's name of a group version's document (`api/v1`, `apis/apps/v1`).
fn v3_key(api_version: &str, group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{api_version}")
    }
}

/// The schema of a fetched document for a kind, if the document lists strategic merge patch
/// for it (the schema is read once per document).
fn pick(
    slot: &mut Fetched,
    api_version: &str,
    group: &str,
    version: &str,
    kind: &str,
    supports: fn(&Value, &str, &str, &str) -> bool,
) -> Option<Arc<Schema>> {
    let (doc, schema) = slot;
    if !supports(doc, group, version, kind) {
        return None;
    }
    if schema.is_none() {
        *schema = Schema::from_openapi(doc).ok().map(Arc::new);
    }
    let schema = schema.as_ref()?;
    schema.root_for_gvk(api_version, kind)?;
    Some(schema.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn the_first_patch_operation_for_the_kind_decides() {
        let doc = json!({"paths": {
            "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}": {"patch": {
                "x-kubernetes-group-version-kind": {"group": "example.com", "version": "v1", "kind": "Widget"},
                "requestBody": {"content": {"application/merge-patch+json": {}, "application/json-patch+json": {}}}
            }}
        }});
        assert!(!v3_supports_smp(&doc, "example.com", "v1", "Widget"));
        let doc = json!({"paths": {
            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}": {"patch": {
                "x-kubernetes-group-version-kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
                "requestBody": {"content": {"application/strategic-merge-patch+json": {}}}
            }}
        }});
        assert!(v3_supports_smp(&doc, "apps", "v1", "Deployment"));
        assert!(!v3_supports_smp(&doc, "apps", "v1", "StatefulSet"));
        let v2 = json!({"paths": {"/x": {"patch": {
            "x-kubernetes-group-version-kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
            "consumes": ["application/json-patch+json", "application/strategic-merge-patch+json"]
        }}}});
        assert!(v2_supports_smp(&v2, "", "v1", "ConfigMap"));
    }
}
