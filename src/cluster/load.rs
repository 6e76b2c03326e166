//! Reading live objects: discovery, then a GET of each object as raw JSON (never a typed
//! struct: those drop unknown fields and an explicit `creationTimestamp: null`), then the
//! patch metadata source. Several objects load at once, at most [`LOAD_CONCURRENCY`].

use crate::engine::object::ObjectRef;
use crate::value::Value;
use futures::StreamExt as _;

use super::{Cluster, ClusterError, LOAD_CONCURRENCY, Loaded, Target, get, plan_namespace};

impl Cluster {
    /// Read the live objects of local objects, in their order, at most
    /// [`LOAD_CONCURRENCY`] at once.
    pub fn load(&self, locals: &[Value], openapi_patch: bool) -> Vec<Result<Loaded, ClusterError>> {
        let mut all = Vec::with_capacity(locals.len());
        self.load_each(locals, openapi_patch, |_, result| all.push(result));
        all
    }

    /// Read the live objects of local objects, at most [`LOAD_CONCURRENCY`] at once, giving
    /// each to `each` (with its index) as soon as it and those before it are read.
    pub fn load_each(
        &self,
        locals: &[Value],
        openapi_patch: bool,
        mut each: impl FnMut(usize, Result<Loaded, ClusterError>),
    ) {
        self.rt.block_on(
            futures::stream::iter(locals)
                .map(|local| self.load_one(local, openapi_patch))
                .buffered(LOAD_CONCURRENCY)
                .enumerate()
                .for_each(|(i, result)| {
                    each(i, result);
                    std::future::ready(())
                }),
        );
    }

    /// Where a local object lives on the server (discovery only).
    ///
    /// # Errors
    /// As [`Cluster::load`].
    pub fn target(&self, local: &Value) -> Result<Target, ClusterError> {
        self.rt.block_on(self.target_async(local))
    }

    async fn target_async(&self, local: &Value) -> Result<Target, ClusterError> {
        let ObjectRef {
            api_version,
            kind,
            namespace: ns,
            name,
        } = ObjectRef::of(local);
        if api_version.is_empty() || kind.is_empty() || name.is_empty() {
            return Err(ClusterError::Local(
                "the object has no apiVersion, kind or metadata.name".into(),
            ));
        }
        let (plural, namespaced) = self.resource(api_version, kind).await?;
        let namespace = namespaced.then(|| {
            if ns.is_empty() {
                self.namespace().to_owned()
            } else {
                ns.to_owned()
            }
        });
        Ok(Target {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
            plural,
            namespace,
            name: name.to_owned(),
        })
    }

    async fn load_one(&self, local: &Value, openapi_patch: bool) -> Result<Loaded, ClusterError> {
        let target = self.target_async(local).await?;
        let live = self.send_async(&get(&target)).await?;
        let choice = self
            .patch_schema(&target.api_version, &target.kind, openapi_patch)
            .await;
        let namespace = plan_namespace(
            self.conn.namespace.as_deref(),
            &self.default_namespace,
            local,
        )
        .map(str::to_owned);
        Ok(Loaded {
            target,
            live,
            choice,
            namespace,
        })
    }

    /// GET the object again (a reload).
    ///
    /// # Errors
    /// Transport and status errors (404 is `Ok(None)`).
    pub fn get(&self, target: &Target) -> Result<Option<Value>, ClusterError> {
        self.send(&get(target))
    }
}
