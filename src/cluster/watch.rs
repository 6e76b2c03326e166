//! Watching the requests a [`super::Cluster`] sends, for whoever waits on them (the session's
//! progress: the TUI's status line, the command line's progress on stderr). Each request is
//! told when it goes out, in words a reader waiting on it understands
//! (`reading deployments.apps/web from https://…`, `OpenAPI v3 apps/v1`), and when it ends
//! (answered, failed, timed out or abandoned). Pure: the client calls the watcher.

use std::sync::Arc;

use super::{Request, Verb};

/// A request going out, or ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Request `id` went out; `what` it is, for a reader.
    Sent { id: u64, what: String },
    /// Request `id` ended (answered, failed or abandoned).
    Ended { id: u64 },
}

/// Who is told of every [`Activity`].
pub type Watcher = Arc<dyn Fn(Activity) + Send + Sync>;

/// What a request is, for someone waiting on it.
#[must_use]
pub fn waiting_for(request: &Request, server: &str) -> String {
    if request.resource == "openapi" {
        return openapi_document(&request.path);
    }
    let object = format!("{}/{}", request.resource, request.name);
    match request.verb {
        Verb::Get => format!("reading {object} from {server}"),
        Verb::Patch | Verb::Post => {
            let dry = request.query.iter().any(|(k, _)| k == "dryRun");
            let what = if dry { " (server dry run)" } else { "" };
            format!("{} {object}{what} to {server}", request.verb.as_str())
        }
    }
}

/// The discovery request of a group-version.
#[cfg(feature = "cluster")]
#[must_use]
pub fn discovery(api_version: &str) -> String {
    format!("discovery {api_version}")
}

/// `OpenAPI v3 index`, `OpenAPI v3 apps/v1`, `OpenAPI v2`.
fn openapi_document(path: &str) -> String {
    let path = path.split('?').next().unwrap_or(path);
    if let Some(rest) = path.strip_prefix("/openapi/v3") {
        let gv = rest.trim_start_matches('/');
        let gv = gv
            .strip_prefix("apis/")
            .or_else(|| gv.strip_prefix("api/"))
            .unwrap_or(gv);
        if gv.is_empty() {
            return "OpenAPI v3 index".into();
        }
        return format!("OpenAPI v3 {gv}");
    }
    if path.starts_with("/openapi/v2") {
        return "OpenAPI v2".into();
    }
    format!("GET {path}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{Target, get};

    fn openapi(path: &str) -> Request {
        Request {
            verb: Verb::Get,
            path: path.into(),
            query: Vec::new(),
            content_type: None,
            body: None,
            resource: "openapi".into(),
            name: path.into(),
        }
    }

    #[test]
    fn requests_are_named_for_a_reader() {
        let target = Target {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            plural: "deployments".into(),
            namespace: Some("team".into()),
            name: "web".into(),
        };
        assert_eq!(
            waiting_for(&get(&target), "https://k"),
            "reading deployments.apps/web from https://k"
        );
        assert_eq!(
            waiting_for(&openapi("/openapi/v3"), "s"),
            "OpenAPI v3 index"
        );
        assert_eq!(
            waiting_for(&openapi("/openapi/v3/apis/apps/v1?hash=AB"), "s"),
            "OpenAPI v3 apps/v1"
        );
        assert_eq!(
            waiting_for(&openapi("/openapi/v3/api/v1"), "s"),
            "OpenAPI v3 v1"
        );
        assert_eq!(waiting_for(&openapi("/openapi/v2"), "s"), "OpenAPI v2");
        #[cfg(feature = "cluster")]
        assert_eq!(discovery("apps/v1"), "discovery apps/v1");
    }
}
