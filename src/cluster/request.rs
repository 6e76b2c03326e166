//! Requests as data: where an object lives on the server ([`Target`]), what is sent
//! ([`Request`]: a GET, the annotation's JSON merge patch, the apply's PATCH or POST) and the
//! one-line error for an error status. Built here, sent only by `client` (kube-core's split).

use crate::engine::gojson;
use crate::engine::object::GroupVersion;
use crate::engine::plan::{LAST_APPLIED, PatchType, Plan};
use crate::json;
use crate::value::Value;

use super::{ClusterError, FIELD_MANAGER, Validation};

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
        let gv = GroupVersion::parse(&self.api_version);
        if gv.is_core() {
            self.plural.clone()
        } else {
            format!("{}.{}", self.plural, gv.group)
        }
    }

    /// The collection's path (a POST goes there).
    #[must_use]
    pub fn collection_path(&self) -> String {
        let base = if GroupVersion::parse(&self.api_version).is_core() {
            format!("/api/{}", self.api_version)
        } else {
            format!("/apis/{}", self.api_version)
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
    let field_manager_conflict = status
        .pointer("/details/causes")
        .and_then(Value::as_array)
        .is_some_and(|cs| {
            cs.iter()
                .any(|c| c.get("type").and_then(Value::as_str) == Some("FieldManagerConflict"))
        });
    if code == 409 && field_manager_conflict && !server.is_empty() {
        return ClusterError::ApplyConflicts(server.to_owned());
    }
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
}
