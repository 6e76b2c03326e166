//! A saved request made ready to send, in both modes: the [`Request`] it is (only the methods
//! and content types kubectl sends are accepted), as a server dry run (`dryRun=All` first in
//! the query), and with the `metadata.resourceVersion` guard in its body.
//!
//! The guard is the API server's optimistic lock: a PATCH's result carries the body's
//! `metadata.resourceVersion` and the registry refuses (409, "the object has been modified")
//! an update whose resourceVersion is not the stored one (apiserver
//! `registry/generic/registry/store.go`, `Update`). A server-side apply is such an update: its
//! result is the merge of the live object and the applied configuration, the configuration's
//! `metadata.resourceVersion` included (apimachinery `managedfields/internal/structuredmerge.go`,
//! `Apply`; the field is owned by nobody, `stripmeta.go`).

use crate::cluster::{Request, Verb};
use crate::engine::gojson;
use crate::value::{Map, Value};

use super::{Error, SavedRequest};

/// The content types a saved request may carry: kubectl's.
const CONTENT_TYPES: [&str; 5] = [
    "application/strategic-merge-patch+json",
    "application/merge-patch+json",
    "application/json",
    "application/apply-patch+yaml",
    "application/json-patch+json",
];

impl SavedRequest {
    /// The request as saved; `object` names it in errors, `resource` and `name` in the
    /// server's messages.
    ///
    /// # Errors
    /// A method or content type kubectl does not send (exit 2).
    pub fn to_request(&self, object: &str, resource: &str, name: &str) -> Result<Request, Error> {
        let bad = |what: String| Error::Input(format!("{object}: saved request {what}"));
        let verb = match self.method.as_str() {
            "PATCH" => Verb::Patch,
            "POST" => Verb::Post,
            m => return Err(bad(format!("method {m:?} is not sent"))),
        };
        let content_type = match self.content_type.as_deref() {
            None => None,
            Some(ct) => Some(
                CONTENT_TYPES
                    .into_iter()
                    .find(|k| *k == ct)
                    .ok_or_else(|| bad(format!("content type {ct:?} is not sent")))?,
            ),
        };
        Ok(Request {
            verb,
            path: self.path.clone(),
            query: self.query.clone(),
            content_type,
            body: self.body.clone(),
            resource: resource.to_owned(),
            name: name.to_owned(),
        })
    }
}

/// `request` as a server dry run.
#[must_use]
pub fn dry_run(request: &Request) -> Request {
    let mut r = request.clone();
    r.query.insert(0, ("dryRun".to_owned(), "All".to_owned()));
    r
}

/// `request` with `metadata.resourceVersion` set to `resource_version` in its JSON body,
/// written as Go writes JSON (a trailing newline kept).
///
/// # Errors
/// The body is not a JSON object.
pub fn guarded(request: &Request, resource_version: &str) -> Result<Request, Error> {
    let bad = |what: String| {
        Error::Input(format!(
            "{} {}: saved body {what}",
            request.verb.as_str(),
            request.path
        ))
    };
    let Some(text) = &request.body else {
        return Ok(request.clone());
    };
    let mut v: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let Some(object) = v.as_object_mut() else {
        return Err(bad("is not a JSON object".into()));
    };
    let meta = object
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(meta) = meta.as_object_mut() else {
        return Err(bad("has a metadata that is not an object".into()));
    };
    meta.insert("resourceVersion", Value::from(resource_version));
    let mut body = gojson::to_string(&v).map_err(|e| bad(e.to_string()))?;
    if text.ends_with('\n') {
        body.push('\n');
    }
    let mut r = request.clone();
    r.body = Some(body);
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved(ct: &str, body: &str) -> SavedRequest {
        SavedRequest {
            step: None,
            method: "PATCH".into(),
            path: "/api/v1/namespaces/d/configmaps/a".into(),
            query: vec![("fieldManager".into(), "kubectl".into())],
            content_type: Some(ct.into()),
            body: Some(body.into()),
            decided_at_send: Vec::new(),
        }
    }

    #[test]
    fn a_saved_request_is_sent_as_saved_with_the_guard_added() {
        let r = saved(
            "application/apply-patch+yaml",
            "{\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n",
        )
        .to_request("ConfigMap d/a", "configmaps", "a")
        .unwrap();
        assert_eq!(r.content_type, Some("application/apply-patch+yaml"));
        let g = guarded(&r, "7").unwrap();
        assert_eq!(
            g.body.as_deref(),
            Some(
                "{\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"7\"}}\n"
            )
        );
        assert_eq!(
            dry_run(&g).query,
            [
                ("dryRun".to_owned(), "All".to_owned()),
                ("fieldManager".to_owned(), "kubectl".to_owned())
            ]
        );
        let g = guarded(
            &saved("application/merge-patch+json", "{}")
                .to_request("x", "r", "n")
                .unwrap(),
            "8",
        )
        .unwrap();
        assert_eq!(
            g.body.as_deref(),
            Some("{\"metadata\":{\"resourceVersion\":\"8\"}}")
        );
    }

    #[test]
    fn what_kubectl_does_not_send_is_refused() {
        let e = saved("text/plain", "{}")
            .to_request("ConfigMap d/a", "configmaps", "a")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "ConfigMap d/a: saved request content type \"text/plain\" is not sent"
        );
        let r = saved("application/json-patch+json", "[]")
            .to_request("x", "r", "n")
            .unwrap();
        assert!(guarded(&r, "1").is_err(), "a JSON patch is not an object");
    }
}
