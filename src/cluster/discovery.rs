//! Discovery: an object's apiVersion/kind → its resource (plural) and scope, as kubectl's REST
//! mapper finds them. One `GET /api/v1` or `/apis/G/V` per group-version (kube-rs's
//! `discovery::pinned_group`), kept for the session. This works on every server: aggregated
//! discovery (`Discovery::run_aggregated`) answers empty where a server does not offer it, and
//! would fetch every group where one is needed.

use kube::discovery::{self, Scope};

use super::{Cluster, ClusterError, chain};
use crate::engine::object::GroupVersion;

/// What a group-version serves: `(kind, plural, namespaced)`, or why it could not be read.
#[derive(Clone, Debug)]
pub(crate) struct Served(Result<Vec<(String, String, bool)>, ClusterError>);

impl Cluster {
    /// The resource (plural) of a kind and whether it is namespaced.
    ///
    /// # Errors
    /// [`ClusterError::NotServed`] when the server does not serve the kind; transport and
    /// status errors of the discovery request.
    pub(super) async fn resource(
        &self,
        api_version: &str,
        kind: &str,
    ) -> Result<(String, bool), ClusterError> {
        // Held while fetching: objects loading at once share one request per group-version.
        let mut cache = self.discovery.lock().await;
        let gv = match cache.get(api_version) {
            Some(gv) => gv.clone(),
            None => {
                let gv = Served(self.fetch(api_version).await);
                cache.insert(api_version.to_owned(), gv.clone());
                gv
            }
        };
        drop(cache);
        let kinds = gv.0?;
        kinds
            .iter()
            .find(|(k, _, _)| k == kind)
            .map(|(_, plural, namespaced)| (plural.clone(), *namespaced))
            .ok_or_else(|| {
                ClusterError::NotServed(format!(
                    "the server does not serve kind {kind:?} in {api_version} (it serves: {})",
                    kinds
                        .iter()
                        .map(|(k, _, _)| k.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }

    async fn fetch(&self, api_version: &str) -> Result<Vec<(String, String, bool)>, ClusterError> {
        let GroupVersion { group, version } = GroupVersion::parse(api_version);
        let gv = kube::core::GroupVersion::gv(group, version);
        let path = if group.is_empty() {
            format!("/api/{version}")
        } else {
            format!("/apis/{api_version}")
        };
        let _watched = self.sent(|| super::watch::discovery(api_version));
        let found = tokio::time::timeout(
            self.request_timeout,
            discovery::pinned_group(&self.client, &gv),
        )
        .await
        .map_err(|_| {
            ClusterError::Transport(format!(
                "GET {}{path}: timed out: no answer within {:?}",
                self.server, self.request_timeout
            ))
        })?;
        let group = found.map_err(|e| match &e {
            kube::Error::Api(s) if s.code == 404 => ClusterError::NotServed(format!(
                "the server does not serve apiVersion {api_version:?} (GET {path}: 404)"
            )),
            kube::Error::Api(s) if s.code == 401 || s.code == 403 => ClusterError::Status {
                code: s.code,
                message: format!(
                    "{}: cannot get the API discovery document {path}: {}",
                    s.code, s.message
                ),
            },
            kube::Error::Api(s) => ClusterError::Status {
                code: s.code,
                message: format!("GET {path}: {}: {}", s.code, s.message),
            },
            other => ClusterError::Transport(format!(
                "GET {}{path}: cannot reach the server: {}",
                self.server,
                chain(other)
            )),
        })?;
        Ok(group
            .versioned_resources(version)
            .into_iter()
            .map(|(ar, caps)| (ar.kind, ar.plural, caps.scope == Scope::Namespaced))
            .collect())
    }
}
