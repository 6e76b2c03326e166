//! The connection: the kubeconfig as kubectl finds it (`--kubeconfig`, `KUBECONFIG`,
//! `~/.kube/config`, else the in-cluster service account), `--context`, bounded timeouts, no
//! retries, a User-Agent; and the one place requests go out ([`Cluster::send`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::Mutex;

use crate::value::Value;
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

use super::{Activity, ClusterError, Conn, Request, Watcher, chain, status_error, waiting_for};

/// Connecting may take this long.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Each read (and write) on the connection may take this long.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// A whole request (answer included) may take this long.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// A connected client: the kube-rs client, the small runtime it runs on, and what discovery
/// and OpenAPI have told so far.
pub struct Cluster {
    pub(super) rt: tokio::runtime::Runtime,
    pub(super) client: Client,
    /// The context's namespace (else `default`; in-cluster: the service account's).
    pub default_namespace: String,
    /// The server's URL, for titles.
    pub server: String,
    pub conn: Conn,
    pub(super) discovery: Mutex<HashMap<String, super::discovery::Served>>,
    pub(super) openapi: Mutex<super::openapi::Cache>,
    /// A whole request may take this long.
    pub(super) request_timeout: Duration,
    /// Told of every request going out and ending.
    watcher: Option<Watcher>,
    /// The next request's id (for the watcher).
    next_id: AtomicU64,
}

/// Tells the watcher that a request ended when dropped: answered, failed, timed out, or its
/// future abandoned.
pub(super) struct Watched<'a> {
    watcher: Option<&'a Watcher>,
    id: u64,
}

impl Drop for Watched<'_> {
    fn drop(&mut self) {
        if let Some(w) = self.watcher {
            w(Activity::Ended { id: self.id });
        }
    }
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

/// An answer: the status and the body.
pub(super) struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Cluster {
    /// Read the configuration and build the client (nothing is sent yet).
    ///
    /// # Errors
    /// [`ClusterError::Config`] when no configuration can be found or read.
    pub fn connect(conn: &Conn) -> Result<Cluster, ClusterError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ClusterError::Local(format!("cannot start the runtime: {e}")))?;
        let mut config = rt.block_on(config(conn))?;
        let request_timeout = conn.request_timeout.unwrap_or(REQUEST_TIMEOUT);
        config.connect_timeout = Some(CONNECT_TIMEOUT.min(request_timeout));
        config.read_timeout = Some(READ_TIMEOUT.min(request_timeout));
        config.write_timeout = Some(READ_TIMEOUT.min(request_timeout));
        config.default_retry = false;
        let agent = format!("applyscope/{}", env!("CARGO_PKG_VERSION"));
        if let Ok(value) = http::HeaderValue::from_str(&agent) {
            config.headers.push((http::header::USER_AGENT, value));
        }
        let server = config.cluster_url.to_string();
        let default_namespace = config.default_namespace.clone();
        let client = {
            let _guard = rt.enter();
            Client::try_from(config).map_err(|e| {
                ClusterError::Config(format!(
                    "cannot set up a client for {server}: {}",
                    chain(&e)
                ))
            })?
        };
        Ok(Cluster {
            rt,
            client,
            default_namespace,
            server: server.trim_end_matches('/').to_owned(),
            conn: conn.clone(),
            discovery: Mutex::new(HashMap::new()),
            openapi: Mutex::new(super::openapi::Cache::default()),
            request_timeout,
            watcher: None,
            next_id: AtomicU64::new(0),
        })
    }

    /// Tell `watcher` of every request from now on (replacing any watcher before).
    pub fn watch(&mut self, watcher: Option<Watcher>) {
        self.watcher = watcher;
    }

    /// Tell the watcher that a request for `what` goes out; it hears of the end when the
    /// returned guard is dropped.
    pub(super) fn sent(&self, what: impl FnOnce() -> String) -> Watched<'_> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if let Some(w) = &self.watcher {
            w(Activity::Sent { id, what: what() });
        }
        Watched {
            watcher: self.watcher.as_ref(),
            id,
        }
    }

    /// The namespace a namespaced object goes to when its file names none: `-n`, else the
    /// context's.
    #[must_use]
    pub fn namespace(&self) -> &str {
        self.conn
            .namespace
            .as_deref()
            .unwrap_or(&self.default_namespace)
    }

    /// Send a request. A GET answered 404 is `Ok(None)`; every other error status is a
    /// [`ClusterError::Status`].
    ///
    /// # Errors
    /// Transport errors, timeouts, error statuses, an answer that is not a JSON object.
    pub fn send(&self, request: &Request) -> Result<Option<Value>, ClusterError> {
        self.rt.block_on(self.send_async(request))
    }

    pub(super) async fn send_async(
        &self,
        request: &Request,
    ) -> Result<Option<Value>, ClusterError> {
        let answer = self.raw(request).await?;
        if answer.status == 404 && request.verb == super::Verb::Get {
            return Ok(None);
        }
        if !(200..300).contains(&answer.status) {
            return Err(status_error(request, answer.status, &answer.body));
        }
        let v: Value = serde_json::from_slice(&answer.body).map_err(|e| {
            ClusterError::Local(format!(
                "{} {}: the answer is not JSON: {e}",
                request.verb.as_str(),
                request.path
            ))
        })?;
        Ok(Some(v))
    }

    /// Send a request; any status is an answer.
    pub(super) async fn raw(&self, request: &Request) -> Result<Answer, ClusterError> {
        let mut builder = http::Request::builder()
            .method(request.verb.as_str())
            .uri(request.uri())
            .header(http::header::ACCEPT, "application/json");
        if let Some(ct) = request.content_type {
            builder = builder.header(http::header::CONTENT_TYPE, ct);
        }
        let body = request.body.clone().unwrap_or_default().into_bytes();
        let http_request = builder
            .body(kube::client::Body::from(body))
            .map_err(|e| ClusterError::Local(format!("bad request {}: {e}", request.uri())))?;
        let what = format!("{} {}{}", request.verb.as_str(), self.server, request.path);
        let _watched = self.sent(|| waiting_for(request, &self.server));
        let exchange = async {
            let response = self.client.send(http_request).await?;
            let status = response.status().as_u16();
            let body = response.into_body().collect_bytes().await?;
            Ok::<_, kube::Error>(Answer {
                status,
                body: body.to_vec(),
            })
        };
        match tokio::time::timeout(self.request_timeout, exchange).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(transport(&what, &e)),
            Err(_) => Err(ClusterError::Transport(format!(
                "{what}: timed out: no answer within {:?}",
                self.request_timeout
            ))),
        }
    }
}

/// The configuration, as kubectl finds it.
async fn config(conn: &Conn) -> Result<Config, ClusterError> {
    let options = KubeConfigOptions {
        context: conn.context.clone(),
        ..KubeConfigOptions::default()
    };
    if let Some(path) = &conn.kubeconfig {
        let kubeconfig = Kubeconfig::read_from(path)
            .map_err(|e| ClusterError::Config(format!("{}: {}", path.display(), chain(&e))))?;
        return Config::from_custom_kubeconfig(kubeconfig, &options)
            .await
            .map_err(|e| ClusterError::Config(format!("{}: {}", path.display(), chain(&e))));
    }
    match Config::from_kubeconfig(&options).await {
        Ok(c) => Ok(c),
        Err(kubeconfig_error) => {
            let explicit = conn.context.is_some() || std::env::var_os("KUBECONFIG").is_some();
            if !explicit && let Ok(c) = Config::incluster() {
                return Ok(c);
            }
            Err(ClusterError::Config(format!(
                "no cluster configuration: {} (pass --kubeconfig FILE, set KUBECONFIG, or read the live object from a file with --live FILE)",
                chain(&kubeconfig_error)
            )))
        }
    }
}

/// A transport error in one line: what was sent, and why it failed (TLS, refused, timeout).
fn transport(what: &str, e: &kube::Error) -> ClusterError {
    let why = chain(e);
    let lower = why.to_lowercase();
    let kind = if lower.contains("certificate") || lower.contains("tls") {
        "TLS error"
    } else if lower.contains("timed out") || lower.contains("timeout") || lower.contains("elapsed")
    {
        "timed out"
    } else if lower.contains("connect") {
        "cannot reach the server"
    } else {
        "request failed"
    };
    ClusterError::Transport(format!("{what}: {kind}: {why}"))
}
