//! The body `kubectl apply --server-side` sends for a file's object: the namespace
//! cli-runtime's builder gives it.

use std::borrow::Cow;

use crate::engine::plan::kubectl_namespace;
use crate::engine::schema::Schema;
use crate::error::Error;
use crate::value::Value;

/// The object as kubectl sends it, for the API server's messages: the body the front end
/// made ([`kubectl_body`], [`super::cluster::apply_body`]), or the builder's namespace given
/// here to one that came without (`default` or the live object's; none when cluster-scoped).
pub(super) fn as_sent<'a>(local: &'a Value, live: Option<&Value>) -> Cow<'a, Value> {
    kubectl_namespace(local.clone(), live, None, Schema::embedded())
        .map_or(Cow::Borrowed(local), Cow::Owned)
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
    kubectl_namespace(local, live, namespace, Schema::embedded()).map_err(|source| Error::Plan {
        input: local_name.to_owned(),
        source,
    })
}
