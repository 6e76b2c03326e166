//! An in-process fake Kubernetes API server for cluster-mode tests: plain HTTP on 127.0.0.1,
//! std threads. It serves discovery (`/api`, `/api/v1`, `/apis`, `/apis/G/V`), GET of the
//! objects it holds, OpenAPI v3 (`/openapi/v3` and group-version documents) and v2 documents
//! that the test gives it (404 otherwise), PATCH (JSON merge patch applied as RFC 7386,
//! strategic merge patch with applyscope's engine and the embedded schema; server-side apply
//! and JSON patch with applyscope's SSA engine, in `ssa`; `dryRun=All` leaves the object
//! alone; a `metadata.resourceVersion` in the body is a precondition: 409 if it differs) and
//! POST. It can be told to answer a status for a method and path. It records every request,
//! and counts the connections it accepted.

#![cfg(feature = "cluster")]

mod setup;
pub mod ssa;

pub use setup::Cluster;

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// One request as received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// The raw query string (`""` when none).
    pub query: String,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn body_json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

/// A kind the server serves.
#[derive(Clone, Debug)]
pub struct Kind {
    pub api_version: String,
    pub kind: String,
    pub plural: String,
    pub namespaced: bool,
}

#[derive(Default)]
struct State {
    kinds: Vec<Kind>,
    /// Objects by path.
    objects: HashMap<String, Value>,
    /// `/openapi/v3/...` and `/openapi/v2` documents by path.
    openapi: HashMap<String, Value>,
    /// Forced answers: (method, path) → (status, body), used once each.
    forced: Vec<(String, String, u16, Value)>,
    requests: Vec<Recorded>,
    next_rv: u64,
}

/// A test value (the fake server's `serde_json` value) as the library's value type.
pub fn lib(v: &Value) -> applyscope::value::Value {
    applyscope::value::Value::from(v.clone())
}

/// A test value as Go's `json.Marshal` writes it (`gojson`).
pub fn go_json(v: &Value) -> String {
    applyscope::engine::gojson::to_string(&lib(v)).unwrap()
}

#[derive(Clone)]
pub struct FakeApi {
    state: Arc<Mutex<State>>,
    /// TCP connections accepted so far.
    accepted: Arc<AtomicUsize>,
    pub port: u16,
}

pub fn kind(api_version: &str, kind: &str, plural: &str, namespaced: bool) -> Kind {
    Kind {
        api_version: api_version.into(),
        kind: kind.into(),
        plural: plural.into(),
        namespaced,
    }
}

/// The kinds the fake serves by default.
pub fn default_kinds() -> Vec<Kind> {
    vec![
        kind("v1", "ConfigMap", "configmaps", true),
        kind("v1", "Secret", "secrets", true),
        kind("v1", "Service", "services", true),
        kind("v1", "ServiceAccount", "serviceaccounts", true),
        kind("v1", "Pod", "pods", true),
        kind(
            "v1",
            "PersistentVolumeClaim",
            "persistentvolumeclaims",
            true,
        ),
        kind("v1", "Namespace", "namespaces", false),
        kind("apps/v1", "Deployment", "deployments", true),
        kind("apps/v1", "StatefulSet", "statefulsets", true),
        kind("apps/v1", "DaemonSet", "daemonsets", true),
        kind("batch/v1", "Job", "jobs", true),
        kind("batch/v1", "CronJob", "cronjobs", true),
        kind("networking.k8s.io/v1", "Ingress", "ingresses", true),
        kind(
            "networking.k8s.io/v1",
            "NetworkPolicy",
            "networkpolicies",
            true,
        ),
        kind(
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            "clusterroles",
            false,
        ),
        kind("rbac.authorization.k8s.io/v1", "Role", "roles", true),
        kind("example.com/v1", "Widget", "widgets", true),
    ]
}

impl FakeApi {
    pub fn start() -> FakeApi {
        FakeApi::with_kinds(default_kinds())
    }

    pub fn with_kinds(kinds: Vec<Kind>) -> FakeApi {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State {
            kinds,
            next_rv: 100,
            ..State::default()
        }));
        let api = FakeApi {
            state,
            accepted: Arc::new(AtomicUsize::new(0)),
            port,
        };
        let server = api.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                server.accepted.fetch_add(1, Ordering::SeqCst);
                let s = server.clone();
                std::thread::spawn(move || s.serve(stream));
            }
        });
        api
    }

    /// A kubeconfig for the fake in `dir`, with the context's namespace.
    pub fn kubeconfig(&self, dir: &Path, namespace: &str) -> PathBuf {
        let path = dir.join("kubeconfig");
        std::fs::write(
            &path,
            format!(
                "apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster:\n    server: http://127.0.0.1:{}\ncontexts:\n- name: fake\n  context:\n    cluster: fake\n    user: fake\n    namespace: {namespace}\ncurrent-context: fake\nusers:\n- name: fake\n  user: {{}}\n",
                self.port
            ),
        )
        .unwrap();
        path
    }

    pub fn add_kind(&self, k: Kind) {
        self.state.lock().unwrap().kinds.push(k);
    }

    /// The path of an object, if its kind is served.
    pub fn path_of_opt(&self, obj: &Value) -> Option<String> {
        let st = self.state.lock().unwrap();
        object_path(&st.kinds, obj)
    }

    /// Hold an object (its resourceVersion is set if missing). Returns its path.
    pub fn put(&self, obj: Value) -> String {
        let mut st = self.state.lock().unwrap();
        let path = object_path(&st.kinds, &obj).expect("a served kind");
        let mut obj = obj;
        if obj.pointer("/metadata/resourceVersion").is_none() {
            st.next_rv += 1;
            obj["metadata"]["resourceVersion"] = json!(st.next_rv.to_string());
        }
        st.objects.insert(path.clone(), obj);
        path
    }

    pub fn object(&self, path: &str) -> Option<Value> {
        self.state.lock().unwrap().objects.get(path).cloned()
    }

    /// Change an object as another client would (a new resourceVersion).
    #[allow(dead_code)]
    pub fn change(&self, path: &str, f: impl FnOnce(&mut Value)) {
        let mut st = self.state.lock().unwrap();
        st.next_rv += 1;
        let rv = st.next_rv.to_string();
        let obj = st.objects.get_mut(path).expect("object");
        f(obj);
        obj["metadata"]["resourceVersion"] = json!(rv);
    }

    pub fn set_openapi(&self, path: &str, doc: Value) {
        self.state
            .lock()
            .unwrap()
            .openapi
            .insert(path.to_owned(), doc);
    }

    /// Answer the next `method path` only after `seconds` (a server that does not answer).
    pub fn hang_next(&self, method: &str, path: &str, seconds: u64) {
        self.state.lock().unwrap().forced.push((
            method.into(),
            path.into(),
            0,
            json!({"hang": seconds}),
        ));
    }

    /// Answer the next `method path` with `status` and a Status body.
    pub fn fail_next(&self, method: &str, path: &str, status: u16, body: Value) {
        self.state
            .lock()
            .unwrap()
            .forced
            .push((method.into(), path.into(), status, body));
    }

    /// How many TCP connections clients have opened.
    pub fn connections(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.clone()
    }

    /// The requests that write (PATCH, POST, PUT, DELETE).
    pub fn writes(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.method != "GET")
            .collect()
    }

    fn serve(&self, stream: TcpStream) {
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut out = stream;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let mut parts = line.split_whitespace();
            let method = parts.next().unwrap_or("").to_owned();
            let target = parts.next().unwrap_or("").to_owned();
            let mut headers = HashMap::new();
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 {
                    return;
                }
                let h = h.trim_end();
                if h.is_empty() {
                    break;
                }
                if let Some((k, v)) = h.split_once(':') {
                    headers.insert(k.trim().to_lowercase(), v.trim().to_owned());
                }
            }
            let len: usize = headers
                .get("content-length")
                .and_then(|l| l.parse().ok())
                .unwrap_or(0);
            let mut body = vec![0; len];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            let (path, query) = match target.split_once('?') {
                Some((p, q)) => (p.to_owned(), q.to_owned()),
                None => (target.clone(), String::new()),
            };
            let rec = Recorded {
                method,
                path,
                query,
                content_type: headers.get("content-type").cloned(),
                body,
            };
            let (status, answer) = self.answer(&rec);
            self.state.lock().unwrap().requests.push(rec);
            let text = answer.to_string();
            let reason = match status {
                200 => "OK",
                201 => "Created",
                404 => "Not Found",
                409 => "Conflict",
                _ => "Status",
            };
            let response = format!(
                "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
                text.len()
            );
            if out.write_all(response.as_bytes()).is_err() {
                return;
            }
        }
    }

    fn answer(&self, r: &Recorded) -> (u16, Value) {
        let mut st = self.state.lock().unwrap();
        if let Some(i) = st
            .forced
            .iter()
            .position(|(m, p, _, _)| *m == r.method && *p == r.path)
        {
            let (_, _, status, body) = st.forced.remove(i);
            if status == 0 {
                drop(st);
                let secs = body["hang"].as_u64().unwrap_or(5);
                std::thread::sleep(std::time::Duration::from_secs(secs));
                return self.answer(r);
            }
            return (status, body);
        }
        let dry_run = r.query.split('&').any(|kv| kv == "dryRun=All");
        match r.method.as_str() {
            "GET" => get(&st, &r.path),
            "PATCH" if ssa::handles(r) => {
                let current = st.objects.get(&r.path).cloned();
                let mut patched = match ssa::answer(current.as_ref(), r) {
                    Ok(v) => v,
                    Err(answer) => return answer,
                };
                if let Some(c) = &current
                    && patched.pointer("/metadata/resourceVersion")
                        != c.pointer("/metadata/resourceVersion")
                {
                    return status(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again",
                    );
                }
                let code = if current.is_some() { 200 } else { 201 };
                if dry_run {
                    return (code, patched);
                }
                st.next_rv += 1;
                patched["metadata"]["resourceVersion"] = json!(st.next_rv.to_string());
                st.objects.insert(r.path.clone(), patched.clone());
                (code, patched)
            }
            "PATCH" => {
                let Some(current) = st.objects.get(&r.path).cloned() else {
                    return status(404, "NotFound", "not found");
                };
                let Ok(patch) = serde_json::from_slice::<Value>(&r.body) else {
                    return status(400, "BadRequest", "body is not JSON");
                };
                if let Some(rv) = patch.pointer("/metadata/resourceVersion")
                    && Some(rv) != current.pointer("/metadata/resourceVersion")
                {
                    return status(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again",
                    );
                }
                let patched = match r.content_type.as_deref() {
                    Some("application/merge-patch+json") => {
                        let mut v = current.clone();
                        json_patch::merge(&mut v, &patch);
                        v
                    }
                    Some("application/strategic-merge-patch+json") => {
                        let (api_version, kind) = (
                            current["apiVersion"].as_str().unwrap_or(""),
                            current["kind"].as_str().unwrap_or(""),
                        );
                        let schema = applyscope::engine::schema::Schema::embedded();
                        // A kind the embedded schema does not know: answered unchanged (the
                        // tests check what was sent, not this answer).
                        let Some(meta) = schema.root_for_gvk(api_version, kind) else {
                            return (200, current);
                        };
                        match applyscope::engine::smp::apply(lib(&current), lib(&patch), meta) {
                            Ok(v) => serde_json::to_value(&v).unwrap(),
                            Err(e) => return status(422, "Invalid", &e.to_string()),
                        }
                    }
                    _ => return status(415, "UnsupportedMediaType", "content type"),
                };
                let mut patched = patched;
                if dry_run {
                    return (200, patched);
                }
                st.next_rv += 1;
                patched["metadata"]["resourceVersion"] = json!(st.next_rv.to_string());
                st.objects.insert(r.path.clone(), patched.clone());
                (200, patched)
            }
            "POST" => {
                let Ok(mut obj) = serde_json::from_slice::<Value>(&r.body) else {
                    return status(400, "BadRequest", "body is not JSON");
                };
                let Some(path) = object_path(&st.kinds, &obj) else {
                    return status(404, "NotFound", "kind");
                };
                if st.objects.contains_key(&path) {
                    return status(409, "AlreadyExists", "already exists");
                }
                if dry_run {
                    return (201, obj);
                }
                st.next_rv += 1;
                obj["metadata"]["resourceVersion"] = json!(st.next_rv.to_string());
                st.objects.insert(path, obj.clone());
                (201, obj)
            }
            _ => status(405, "MethodNotAllowed", "method"),
        }
    }
}

fn status(code: u16, reason: &str, message: &str) -> (u16, Value) {
    (
        code,
        json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": reason, "message": message, "code": code}),
    )
}

/// A Status body for `fail_next`.
pub fn status_body(code: u16, reason: &str, message: &str) -> Value {
    status(code, reason, message).1
}

fn get(st: &State, path: &str) -> (u16, Value) {
    if let Some(doc) = st.openapi.get(path) {
        return (200, doc.clone());
    }
    if path == "/api" {
        return (200, json!({"kind": "APIVersions", "versions": ["v1"]}));
    }
    if path == "/apis" {
        let mut groups: Vec<Value> = Vec::new();
        for k in &st.kinds {
            if let Some((g, v)) = k.api_version.split_once('/')
                && !groups.iter().any(|x| x["name"] == g)
            {
                groups.push(json!({"name": g, "versions": [{"groupVersion": k.api_version, "version": v}], "preferredVersion": {"groupVersion": k.api_version, "version": v}}));
            }
        }
        return (
            200,
            json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}),
        );
    }
    let gv = path
        .strip_prefix("/api/")
        .or_else(|| path.strip_prefix("/apis/"))
        .unwrap_or("");
    let kinds: Vec<&Kind> = st.kinds.iter().filter(|k| k.api_version == gv).collect();
    if !kinds.is_empty() {
        let resources: Vec<Value> = kinds
            .iter()
            .map(|k| json!({"name": k.plural, "singularName": "", "namespaced": k.namespaced, "kind": k.kind, "verbs": ["create", "delete", "get", "list", "patch", "update", "watch"]}))
            .collect();
        return (
            200,
            json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources}),
        );
    }
    match st.objects.get(path) {
        Some(o) => (200, o.clone()),
        None => status(404, "NotFound", &format!("{path} not found")),
    }
}

fn object_path(kinds: &[Kind], obj: &Value) -> Option<String> {
    let api_version = obj["apiVersion"].as_str()?;
    let kind = obj["kind"].as_str()?;
    let k = kinds
        .iter()
        .find(|k| k.api_version == api_version && k.kind == kind)?;
    let base = if api_version.contains('/') {
        format!("/apis/{api_version}")
    } else {
        format!("/api/{api_version}")
    };
    let name = obj.pointer("/metadata/name")?.as_str()?;
    Some(if k.namespaced {
        let ns = obj
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("default");
        format!("{base}/namespaces/{ns}/{}/{name}", k.plural)
    } else {
        format!("{base}/{}/{name}", k.plural)
    })
}
