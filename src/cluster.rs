//! Cluster mode: the live object read from a Kubernetes API server, and commits sent to it.
//!
//! This file is pure and always built: what to send ([`Request`], built from a [`Target`] and
//! a plan), the connection settings ([`Conn`]), and the errors ([`ClusterError`]), so the TUI's
//! `update` can describe requests as data. The I/O is behind the `cluster` cargo feature, in
//! the submodules: `client` (kubeconfig, context, timeouts), `discovery` (apiVersion/kind →
//! resource and scope), `openapi` (the patch metadata source, as kubectl 1.37 picks it),
//! `load` (GET, several objects at once, bounded) and `send` (PATCH/POST). kube-rs is async;
//! tokio stays inside these modules: a small current-thread runtime and `block_on` at the edge.

#[cfg(feature = "cluster")]
mod client;
#[cfg(feature = "cluster")]
mod discovery;
#[cfg(feature = "cluster")]
mod load;
#[cfg(feature = "cluster")]
mod openapi;
#[cfg(feature = "cluster")]
mod send;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use crate::json;
use crate::value::{Map, Value};

#[cfg(feature = "cluster")]
pub use client::Cluster;
#[cfg(feature = "cluster")]
pub use load::Loaded;

#[cfg(feature = "cluster")]
use crate::app::Source;
#[cfg(feature = "cluster")]
use crate::app::cluster::ClusterSession;
use crate::app::cluster::{ClusterOp, ClusterReply};
use crate::cli::CliError;
use crate::cli::plan::{DocNames, PlanDocs, compute_with};
use crate::engine::gojson;
use crate::engine::plan::{LAST_APPLIED, PatchType, Plan};
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

/// Read `--request-timeout` as kubectl writes it: a number of seconds, or with a unit (`500ms`,
/// `30s`, `2m`, `1h`). Zero (kubectl: no timeout) is refused: requests stay bounded.
///
/// # Errors
/// A message for clap.
pub fn parse_timeout(text: &str) -> Result<std::time::Duration, String> {
    let (digits, unit) = text
        .find(|c: char| !c.is_ascii_digit())
        .map_or((text, ""), |i| text.split_at(i));
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{text:?}: expected a duration such as 30s, 2m or 500ms"))?;
    let d = match unit {
        "" | "s" => std::time::Duration::from_secs(n),
        "ms" => std::time::Duration::from_millis(n),
        "m" => std::time::Duration::from_secs(n.saturating_mul(60)),
        "h" => std::time::Duration::from_secs(n.saturating_mul(3600)),
        _ => return Err(format!("{text:?}: unknown unit {unit:?} (ms, s, m, h)")),
    };
    if d.is_zero() {
        return Err("must be more than 0 (requests are always bounded)".into());
    }
    Ok(d)
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

/// Plan with the chosen metadata. As kubectl, when the patch cannot be computed from the
/// server's OpenAPI, it is computed from the embedded schema (the source says which was used).
///
/// # Errors
/// The plan's [`CliError`].
pub fn plan(
    choice: &Choice,
    docs: &PlanDocs,
    namespace: Option<&str>,
    overwrite: bool,
    names: &DocNames,
) -> Result<(Plan, SchemaSource), CliError> {
    match compute_with(docs, namespace, overwrite, names, choice.schema()) {
        Err(CliError::Failed(_)) if choice.schema.is_some() => {
            compute_with(docs, namespace, overwrite, names, Schema::embedded())
                .map(|p| (p, SchemaSource::Embedded))
        }
        other => other.map(|p| (p, choice.source)),
    }
}

/// One object on the server: what discovery said about its kind, and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `apps/v1`, or `v1` for the core group.
    pub api_version: String,
    pub kind: String,
    /// The resource (`deployments`).
    pub plural: String,
    /// `None`: cluster-scoped.
    pub namespace: Option<String>,
    pub name: String,
}

impl Target {
    /// `deployments.apps`, as the server names a resource in its messages.
    #[must_use]
    pub fn resource(&self) -> String {
        match self.api_version.split_once('/') {
            Some((group, _)) => format!("{}.{group}", self.plural),
            None => self.plural.clone(),
        }
    }

    /// The collection's path (a POST goes there).
    #[must_use]
    pub fn collection_path(&self) -> String {
        let base = if self.api_version.contains('/') {
            format!("/apis/{}", self.api_version)
        } else {
            format!("/api/{}", self.api_version)
        };
        match &self.namespace {
            Some(ns) => format!("{base}/namespaces/{}/{}", escape(ns), self.plural),
            None => format!("{base}/{}", self.plural),
        }
    }

    /// The object's path.
    #[must_use]
    pub fn path(&self) -> String {
        format!("{}/{}", self.collection_path(), escape(&self.name))
    }

    /// `Deployment default/web`.
    #[must_use]
    pub fn describe(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} {ns}/{}", self.kind, self.name),
            None => format!("{} {}", self.kind, self.name),
        }
    }
}

/// Percent-encode what may not stand in a path segment.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The HTTP method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Get,
    Patch,
    Post,
}

impl Verb {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "GET",
            Verb::Patch => "PATCH",
            Verb::Post => "POST",
        }
    }

    /// The verb as RBAC names it (for 401/403 messages).
    #[must_use]
    pub fn rbac(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::Patch => "patch",
            Verb::Post => "create",
        }
    }
}

/// What a commit is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Only the last-applied annotation (JSON merge patch, resourceVersion precondition).
    Annotation,
    /// The server's dry run of the apply (`dryRun=All`).
    DryRun,
    /// The apply itself.
    Apply,
}

/// A request to send, as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub verb: Verb,
    pub path: String,
    /// In order, unescaped.
    pub query: Vec<(String, String)>,
    pub content_type: Option<&'static str>,
    pub body: Option<String>,
    /// `deployments.apps "web"` in messages.
    pub resource: String,
    pub name: String,
}

impl Request {
    /// The path and the query string.
    #[must_use]
    pub fn uri(&self) -> String {
        if self.query.is_empty() {
            return self.path.clone();
        }
        let q: Vec<String> = self
            .query
            .iter()
            .map(|(k, v)| format!("{}={}", escape(k), escape(v)))
            .collect();
        format!("{}?{}", self.path, q.join("&"))
    }

    /// `PATCH /apis/...?... (application/merge-patch+json, 312 bytes)`.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut s = format!("{} {}", self.verb.as_str(), self.uri());
        if let (Some(ct), Some(body)) = (self.content_type, &self.body) {
            s.push_str(&format!(" ({ct}, {} bytes)", body.len()));
        }
        s
    }

    /// Is this a server dry run?
    #[must_use]
    pub fn is_dry_run(&self) -> bool {
        self.query.iter().any(|(k, v)| k == "dryRun" && v == "All")
    }
}

/// The query kubectl's client-side apply sends with PATCH and POST.
fn write_query(validation: Validation, dry_run: bool) -> Vec<(String, String)> {
    let mut q = Vec::new();
    if dry_run {
        q.push(("dryRun".to_owned(), "All".to_owned()));
    }
    q.push(("fieldManager".to_owned(), FIELD_MANAGER.to_owned()));
    q.push(("fieldValidation".to_owned(), validation.query().to_owned()));
    q
}

/// A GET of the object.
#[must_use]
pub fn get(target: &Target) -> Request {
    Request {
        verb: Verb::Get,
        path: target.path(),
        query: Vec::new(),
        content_type: None,
        body: None,
        resource: target.resource(),
        name: target.name.clone(),
    }
}

/// The commit of an edited last-applied: a JSON merge patch that sets only the annotation,
/// with `metadata.resourceVersion` in the body, so that the server answers 409 Conflict if the
/// object changed since it was read. `annotation` `None` removes the annotation.
///
/// # Errors
/// The annotation cannot be written as JSON (it always can: it is a string).
pub fn annotation_patch(
    target: &Target,
    resource_version: &str,
    annotation: Option<&str>,
    validation: Validation,
) -> Result<Request, ClusterError> {
    let value = annotation.map_or(Value::Null, |a| Value::String(a.into()));
    let body = json!({
        "metadata": {
            "annotations": { LAST_APPLIED: value },
            "resourceVersion": resource_version,
        }
    });
    Ok(Request {
        verb: Verb::Patch,
        path: target.path(),
        query: write_query(validation, false),
        content_type: Some(PatchType::Merge.content_type()),
        body: Some(encode(&body)?),
        resource: target.resource(),
        name: target.name.clone(),
    })
}

/// The apply of a plan: the PATCH kubectl would send (its patch type's content type, the
/// body as Go writes it), or the POST of a create. `None`: nothing to send (unchanged).
///
/// # Errors
/// The patch cannot be written as JSON.
pub fn apply_request(
    target: &Target,
    plan: &Plan,
    validation: Validation,
    dry_run: bool,
) -> Result<Option<Request>, ClusterError> {
    let query = write_query(validation, dry_run);
    if let Some(created) = plan.created() {
        return Ok(Some(Request {
            verb: Verb::Post,
            path: target.collection_path(),
            query,
            content_type: Some("application/json"),
            body: Some(encode(created)?),
            resource: target.resource(),
            name: target.name.clone(),
        }));
    }
    let (Some(patch_type), Some(patch)) = (plan.patch_type, &plan.patch) else {
        return Ok(None);
    };
    Ok(Some(Request {
        verb: Verb::Patch,
        path: target.path(),
        query,
        content_type: Some(patch_type.content_type()),
        body: Some(encode(patch)?),
        resource: target.resource(),
        name: target.name.clone(),
    }))
}

/// A body as Go's `json.Marshal` writes it (kubectl's bytes).
fn encode(v: &Value) -> Result<String, ClusterError> {
    gojson::to_string(v).map_err(|e| ClusterError::Local(e.to_string()))
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
            _ => None,
        }
    }

    /// Is this a 409 Conflict (the object changed since it was read)?
    #[must_use]
    pub fn is_conflict(&self) -> bool {
        self.code() == Some(409)
    }
}

/// The one-line error for an error status from the server: the verb and resource for 401/403,
/// the causes for 422, the server's message otherwise.
#[must_use]
pub fn status_error(request: &Request, code: u16, body: &[u8]) -> ClusterError {
    let status: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let text = |p: &str| status.pointer(p).and_then(Value::as_str).unwrap_or("");
    let server = text("/message");
    let what = format!("{} {:?}", request.resource, request.name);
    let verb = request.verb.rbac();
    let detail = if server.is_empty() {
        String::from_utf8_lossy(body)
            .trim()
            .chars()
            .take(300)
            .collect()
    } else {
        server.to_owned()
    };
    let message = match code {
        401 => format!(
            "401 Unauthorized: cannot {verb} {what}: the credentials of this context were not accepted ({detail})"
        ),
        403 => format!("403 Forbidden: not allowed to {verb} {what}: {detail}"),
        404 => format!("404 Not Found: {what}: {detail}"),
        409 => format!(
            "409 Conflict: {what} changed since it was read (resourceVersion no longer matches): {detail}"
        ),
        422 => {
            let causes: Vec<String> = status
                .pointer("/details/causes")
                .and_then(Value::as_array)
                .map(|cs| {
                    cs.iter()
                        .map(|c| {
                            let field = c.get("field").and_then(Value::as_str).unwrap_or("");
                            let msg = c.get("message").and_then(Value::as_str).unwrap_or("");
                            if field.is_empty() {
                                msg.to_owned()
                            } else {
                                format!("{field}: {msg}")
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            if causes.is_empty() {
                format!("422 Invalid: {what}: {detail}")
            } else {
                format!("422 Invalid: {what}: {}", causes.join("; "))
            }
        }
        _ => format!("{code}: {} {what}: {detail}", request.verb.as_str()),
    };
    let one_line: Vec<&str> = message.split_whitespace().collect();
    ClusterError::Status {
        code,
        message: one_line.join(" "),
    }
}

/// `apiVersion`, `kind`, `metadata.namespace`, `metadata.name` of a local object.
#[must_use]
pub fn identity(obj: &Value) -> (&str, &str, &str, &str) {
    let s = |p: &str| obj.pointer(p).and_then(Value::as_str).unwrap_or("");
    (
        s("/apiVersion"),
        s("/kind"),
        s("/metadata/namespace"),
        s("/metadata/name"),
    )
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
    identity(local).2.is_empty().then_some(context_default)
}

/// Run a TUI request (the runtime's side of [`crate::app::Command::Cluster`]): connect with
/// the op's settings and send it.
#[must_use]
pub fn perform(op: &ClusterOp) -> ClusterReply {
    #[cfg(feature = "cluster")]
    let result = Cluster::connect(&op.conn).and_then(|c| c.send(&op.request));
    #[cfg(not(feature = "cluster"))]
    let result = Err(ClusterError::NotBuilt);
    ClusterReply {
        purpose: op.purpose,
        result,
    }
}

/// Load one object for the TUI: the source to show and the session.
///
/// # Errors
/// Cluster errors; a plan error is the caller's (`Model::from_cluster`).
#[cfg(feature = "cluster")]
pub fn open(
    conn: &Conn,
    local: Value,
    last_applied: Option<Value>,
    openapi_patch: bool,
    local_name: &str,
) -> Result<(Source, ClusterSession), ClusterError> {
    let cluster = Cluster::connect(conn)?;
    let loaded = cluster
        .load(std::slice::from_ref(&local), openapi_patch)
        .into_iter()
        .next()
        .ok_or_else(|| ClusterError::Local("nothing loaded".into()))??;
    let what = if loaded.live.is_some() {
        ""
    } else {
        " (create)"
    };
    let source = Source {
        title: format!(
            "{local_name} → {} {}{what}",
            cluster.server,
            loaded.target.describe()
        ),
        about: String::new(),
        docs: PlanDocs {
            local,
            live: None,
            last_applied,
        },
    };
    let session = ClusterSession {
        conn: conn.clone(),
        server: cluster.server.clone(),
        target: loaded.target,
        source: loaded.choice.source,
        choice: loaded.choice,
        namespace: loaded.namespace,
        live: loaded.live,
        show_managed: false,
        after_conflict: false,
    };
    Ok((source, session))
}

/// The empty object.
#[must_use]
pub fn empty() -> Value {
    Value::Object(Map::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(ns: Option<&str>) -> Target {
        Target {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            plural: "deployments".into(),
            namespace: ns.map(Into::into),
            name: "web".into(),
        }
    }

    #[test]
    fn paths_of_namespaced_core_and_cluster_scoped_objects() {
        assert_eq!(
            target(Some("default")).path(),
            "/apis/apps/v1/namespaces/default/deployments/web"
        );
        let ns = Target {
            api_version: "v1".into(),
            kind: "Namespace".into(),
            plural: "namespaces".into(),
            namespace: None,
            name: "a b".into(),
        };
        assert_eq!(ns.path(), "/api/v1/namespaces/a%20b");
        assert_eq!(ns.resource(), "namespaces");
        assert_eq!(target(None).resource(), "deployments.apps");
    }

    #[test]
    fn annotation_patch_carries_the_resource_version() {
        let r =
            annotation_patch(&target(Some("d")), "42", Some("{}\n"), Validation::Ignore).unwrap();
        assert_eq!(
            r.body.as_deref(),
            Some(
                r#"{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}\n"},"resourceVersion":"42"}}"#
            )
        );
        assert_eq!(
            r.uri(),
            "/apis/apps/v1/namespaces/d/deployments/web?fieldManager=kubectl-client-side-apply&fieldValidation=Ignore"
        );
        assert_eq!(r.content_type, Some("application/merge-patch+json"));
    }

    #[test]
    fn status_errors_name_verb_resource_and_causes() {
        let r = get(&target(Some("d")));
        let e = status_error(&r, 403, br#"{"kind":"Status","message":"nope"}"#);
        assert_eq!(
            e.to_string(),
            "403 Forbidden: not allowed to get deployments.apps \"web\": nope"
        );
        let body = br#"{"message":"x","details":{"causes":[{"field":"spec.replicas","message":"must be >= 0"}]}}"#;
        let e = status_error(&r, 422, body);
        assert_eq!(
            e.to_string(),
            "422 Invalid: deployments.apps \"web\": spec.replicas: must be >= 0"
        );
    }

    #[test]
    fn timeouts_read_as_kubectl_writes_them() {
        use std::time::Duration;
        assert_eq!(parse_timeout("5"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_timeout("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_timeout("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("1d").is_err());
        assert!(parse_timeout("x").is_err());
    }

    #[test]
    fn plan_namespace_prefers_the_file_over_the_context() {
        let with = json!({"metadata": {"namespace": "a"}});
        let without = json!({"metadata": {}});
        assert_eq!(plan_namespace(None, "ctx", &with), None);
        assert_eq!(plan_namespace(None, "ctx", &without), Some("ctx"));
        assert_eq!(plan_namespace(Some("b"), "ctx", &with), Some("b"));
    }
}
