//! Cluster mode: the live object read from a Kubernetes API server, and commits sent to it.
//!
//! This file and `request` are pure and always built: what to send ([`Request`], built from a
//! [`Target`] and a plan, in `request`), the connection settings ([`Conn`]), what was read
//! ([`Loaded`]), and the errors ([`ClusterError`]), so the TUI's `update` can describe requests
//! as data. The I/O is behind the `cluster` cargo feature, in the submodules: `client`
//! (kubeconfig, context, timeouts), `discovery` (apiVersion/kind → resource and scope),
//! `openapi` (the patch metadata source, as kubectl 1.37 picks it), `load` (GET, several objects
//! at once, bounded) and `send` (PATCH/POST). kube-rs is async; tokio stays inside these
//! modules: a small current-thread runtime and `block_on` at the edge. A [`Cluster`] keeps its
//! runtime, client and caches: the session keeps one for a TUI run. A [`Watcher`] given to a
//! [`Cluster`] is told of every request going out and ending (`watch`: what each is, in words).

#[cfg(feature = "cluster")]
mod client;
#[cfg(feature = "cluster")]
mod discovery;
#[cfg(feature = "cluster")]
mod load;
#[cfg(feature = "cluster")]
mod openapi;
mod request;
#[cfg(feature = "cluster")]
mod send;
pub mod ssa;
mod watch;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use crate::value::{Map, Value};

#[cfg(feature = "cluster")]
pub use client::Cluster;
pub use request::{
    Purpose, Request, Target, Verb, annotation_patch, apply_request, get, status_error,
};
pub use watch::{Activity, Watcher, waiting_for};

use crate::engine::object::ObjectRef;
use crate::engine::schema::Schema;

/// The field manager kubectl's client-side apply sends.
pub const FIELD_MANAGER: &str = "kubectl-client-side-apply";

/// How many objects are read at once.
pub const LOAD_CONCURRENCY: usize = 8;

/// How a request connects: the kubectl flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conn {
    /// `--kubeconfig` (else `KUBECONFIG`, `~/.kube/config`, in-cluster).
    pub kubeconfig: Option<PathBuf>,
    /// `--context` (else the current context).
    pub context: Option<String>,
    /// `-n/--namespace` (else the context's namespace, else `default`).
    pub namespace: Option<String>,
    /// `--validate`: the `fieldValidation` sent with PATCH and POST.
    pub validation: Validation,
    /// `--request-timeout`: how long a whole request may take (default 60 s).
    pub request_timeout: Option<std::time::Duration>,
}

/// `kubectl apply --validate`: what the server does with unknown or duplicate fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Validation {
    /// kubectl's default (`--validate=true`): the server rejects unknown fields.
    #[default]
    #[value(alias = "true")]
    Strict,
    /// The server warns about unknown fields and drops them.
    Warn,
    /// `--validate=false`: the server drops unknown fields silently.
    #[value(alias = "false")]
    Ignore,
}

impl Validation {
    /// The `fieldValidation` query value.
    #[must_use]
    pub fn query(self) -> &'static str {
        match self {
            Validation::Strict => "Strict",
            Validation::Warn => "Warn",
            Validation::Ignore => "Ignore",
        }
    }
}

/// Where patch metadata came from, as kubectl 1.37 decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaSource {
    /// The server's OpenAPI v3 document of the group-version lists strategic merge patch.
    ServerV3,
    /// The server's OpenAPI v2 document lists strategic merge patch for the kind.
    ServerV2,
    /// Neither (or `--openapi-patch=false`): the embedded schema; a kind it does not know
    /// (a custom resource) gets the JSON merge patch.
    Embedded,
}

impl fmt::Display for SchemaSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaSource::ServerV3 => f.write_str("server openapi v3"),
            SchemaSource::ServerV2 => f.write_str("server openapi v2"),
            SchemaSource::Embedded => write!(
                f,
                "embedded {}",
                crate::engine::schema::EMBEDDED_KUBERNETES_VERSION
            ),
        }
    }
}

/// The patch metadata chosen for a kind, and where it came from.
#[derive(Clone, Debug)]
pub struct Choice {
    pub source: SchemaSource,
    /// `None`: the embedded schema.
    pub schema: Option<Arc<Schema>>,
}

impl PartialEq for Choice {
    fn eq(&self, other: &Choice) -> bool {
        self.source == other.source
            && match (&self.schema, &other.schema) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl Eq for Choice {}

impl Choice {
    /// The embedded schema.
    #[must_use]
    pub fn embedded() -> Choice {
        Choice {
            source: SchemaSource::Embedded,
            schema: None,
        }
    }

    #[must_use]
    pub fn schema(&self) -> &Schema {
        self.schema.as_deref().unwrap_or_else(|| Schema::embedded())
    }
}

/// One object as read from the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub target: Target,
    /// The live object as served (`managedFields` included); `None`: not found (a create).
    pub live: Option<Value>,
    pub choice: Choice,
    /// The namespace given to the plan as `-n`.
    pub namespace: Option<String>,
}

/// `metadata.resourceVersion` of an object.
#[must_use]
pub fn resource_version(obj: &Value) -> Option<&str> {
    obj.pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
}

/// The object without `metadata.managedFields` (how live objects are shown by default).
#[must_use]
pub fn without_managed_fields(obj: &Value) -> Value {
    let mut v = obj.clone();
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    v
}

/// Why a cluster operation failed. Every message is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClusterError {
    /// No usable kubeconfig or in-cluster configuration.
    #[error("{0}")]
    Config(String),
    /// The server could not be reached, or did not answer in time, or TLS failed.
    #[error("{0}")]
    Transport(String),
    /// The server answered with an error status.
    #[error("{message}")]
    Status { code: u16, message: String },
    /// A server-side apply refused (409) because other managers own fields it changes: the
    /// server's message as it prints it (`Apply failed with 1 conflict: …`, one line per
    /// conflict when there are several).
    #[error("{0}")]
    ApplyConflicts(String),
    /// The server does not serve the kind.
    #[error("{0}")]
    NotServed(String),
    /// Something on our side (an unreadable answer).
    #[error("{0}")]
    Local(String),
    /// This build has no cluster support.
    #[error(
        "this applyscope was built without the `cluster` feature: pass --live FILE or --no-live"
    )]
    NotBuilt,
}

impl ClusterError {
    /// The HTTP status, for a server answer.
    #[must_use]
    pub fn code(&self) -> Option<u16> {
        match self {
            ClusterError::Status { code, .. } => Some(*code),
            ClusterError::ApplyConflicts(_) => Some(409),
            _ => None,
        }
    }

    /// Is this a 409 Conflict (the object changed since it was read)?
    #[must_use]
    pub fn is_conflict(&self) -> bool {
        matches!(self, ClusterError::Status { code: 409, .. })
    }
}

/// An error and its sources, joined with `: ` (repeated texts dropped).
#[cfg(feature = "cluster")]
fn chain(e: &dyn std::error::Error) -> String {
    let mut parts: Vec<String> = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

/// The namespace the plan is given as `-n`: the flag, else (when the file names none) the
/// context's default. A file's own namespace wins over the context default, as in kubectl;
/// an explicit `-n` that differs is the plan's error, as in kubectl.
#[must_use]
pub fn plan_namespace<'a>(
    flag: Option<&'a str>,
    context_default: &'a str,
    local: &Value,
) -> Option<&'a str> {
    if flag.is_some() {
        return flag;
    }
    ObjectRef::of(local)
        .namespace
        .is_empty()
        .then_some(context_default)
}

/// The empty object.
#[must_use]
pub fn empty() -> Value {
    Value::Object(Map::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn plan_namespace_prefers_the_file_over_the_context() {
        let with = json!({"metadata": {"namespace": "a"}});
        let without = json!({"metadata": {}});
        assert_eq!(plan_namespace(None, "ctx", &with), None);
        assert_eq!(plan_namespace(None, "ctx", &without), Some("ctx"));
        assert_eq!(plan_namespace(Some("b"), "ctx", &with), Some("b"));
    }
}
