//! The body `kubectl apply --server-side` sends for a file's object: the namespace
//! cli-runtime's builder gives it.

use crate::engine::plan::kubectl_namespace;
use crate::error::Error;
use crate::value::Value;

/// The object as kubectl sends it, for the API server's messages: a namespaced object without
/// a namespace gets `default` (kubectl fills in the context's).
pub(super) fn as_sent(local: &Value) -> std::borrow::Cow<'_, Value> {
    let r = crate::engine::object::ObjectRef::of(local);
    let namespaced = crate::engine::schema::Schema::embedded()
        .is_namespaced(r.api_version, r.kind)
        .unwrap_or(true);
    if !namespaced || !r.namespace.is_empty() {
        return std::borrow::Cow::Borrowed(local);
    }
    let mut sent = local.clone();
    if let Some(meta) = sent.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("namespace", Value::from("default"));
    }
    std::borrow::Cow::Owned(sent)
}

/// The body `kubectl apply --server-side` sends for a file's object read from files (the
/// cluster's targets say the scope themselves: [`super::cluster::apply_body`]): its namespace as
/// cli-runtime's builder gives it ([`kubectl_namespace`]: `-n`, else the live object's, else
/// `default`; none for a cluster-scoped kind). `local_name` names the file in the error.
///
/// # Errors
/// A namespace in the file that differs from `-n` (kubectl's message).
pub fn kubectl_body(
    local: Value,
    live: Option<&Value>,
    namespace: Option<&str>,
    local_name: &str,
) -> Result<Value, Error> {
    kubectl_namespace(
        local,
        live,
        namespace,
        crate::engine::schema::Schema::embedded(),
    )
    .map_err(|source| Error::Plan {
        input: local_name.to_owned(),
        source,
    })
}
