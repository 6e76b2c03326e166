//! Live objects from the cluster, as data: each local object's live object read (`GET`, with
//! discovery and the server's patch metadata) and planned with that metadata; and the
//! [`Connection`] a TUI run keeps (the runtime, kubeconfig, discovery and OpenAPI caches are made
//! once, not per request). The requests themselves and the kube-rs I/O are `crate::cluster`'s.

use crate::cluster::{ClusterError, Conn, Loaded, Request, SchemaSource};
use crate::engine::plan::Plan;
use crate::value::Value;

use super::Error;
use super::objects::{Object, Pair};
use super::plan::{DocNames, Docs, compute_chosen};
use super::source::Source;

#[cfg(feature = "cluster")]
use crate::cluster::Cluster;

/// A cluster error as a session error: bad input (exit 2), one line.
#[must_use]
pub fn error(e: &ClusterError) -> Error {
    Error::Cluster(e.clone())
}

/// Cluster mode is not built in.
#[must_use]
pub fn not_built() -> Error {
    error(&ClusterError::NotBuilt)
}

/// Local objects, their live objects from the cluster, and their plans.
pub struct Planned {
    /// The connection they were read with.
    #[cfg(feature = "cluster")]
    pub cluster: Cluster,
    pub pairs: Vec<Pair>,
    pub loaded: Vec<Loaded>,
    pub plans: Vec<Result<Plan, Error>>,
}

/// Connect with the settings.
///
/// # Errors
/// The configuration cannot be read.
#[cfg(feature = "cluster")]
pub fn connect(conn: &Conn) -> Result<Cluster, Error> {
    Cluster::connect(conn).map_err(|e| error(&e))
}

/// Read every local object's live object from the cluster and plan it.
///
/// # Errors
/// Any cluster error (exit 2, naming the object's file).
#[cfg(feature = "cluster")]
pub fn load_and_plan(
    locals: Vec<Object>,
    conn: &Conn,
    openapi_patch: bool,
    overwrite: bool,
    last_applied: Option<&Value>,
) -> Result<Planned, Error> {
    let cluster = connect(conn)?;
    let (pairs, loaded) = load_pairs(&cluster, locals, openapi_patch)?;
    let plans = pairs
        .iter()
        .zip(&loaded)
        .map(|(pair, l)| plan_one(pair, l, overwrite, last_applied).map(|(p, _)| p))
        .collect();
    Ok(Planned {
        cluster,
        pairs,
        loaded,
        plans,
    })
}

/// Read every local object's live object from the cluster: the pairs (local, live as served,
/// `managedFields` included) and what was read, in the locals' order.
///
/// # Errors
/// Any cluster error (naming the object's file); an object given twice.
#[cfg(feature = "cluster")]
pub fn load_pairs(
    cluster: &Cluster,
    locals: Vec<Object>,
    openapi_patch: bool,
) -> Result<(Vec<Pair>, Vec<Loaded>), Error> {
    use super::objects::Key;
    let values: Vec<Value> = locals.iter().map(|o| o.value.clone()).collect();
    let results = cluster.load(&values, openapi_patch);
    let mut pairs = Vec::with_capacity(locals.len());
    let mut loaded = Vec::with_capacity(locals.len());
    for (local, result) in locals.into_iter().zip(results) {
        let l = result.map_err(|e| Error::from(e).context(local.source.clone()))?;
        let mut key = Key::of(&local.value);
        key.namespace = l.target.namespace.clone().unwrap_or_default();
        if let Some(first) = pairs.iter().find(|p: &&Pair| p.key == key) {
            return Err(Error::Input(format!(
                "{}: {key} is also in {}",
                local.source, first.local.source
            )));
        }
        let live = l.live.as_ref().map(|v| Object {
            value: v.clone(),
            source: format!("{}{}", cluster.server, l.target.path()),
        });
        pairs.push(Pair { key, local, live });
        loaded.push(l);
    }
    Ok((pairs, loaded))
}

/// # Errors
/// Always: this build has no cluster access.
#[cfg(not(feature = "cluster"))]
pub fn load_and_plan(
    _: Vec<Object>,
    _: &Conn,
    _: bool,
    _: bool,
    _: Option<&Value>,
) -> Result<Planned, Error> {
    Err(not_built())
}

/// The plan of one loaded object, with the metadata source used.
///
/// # Errors
/// The plan's error.
pub fn plan_one(
    pair: &Pair,
    loaded: &Loaded,
    overwrite: bool,
    last_applied: Option<&Value>,
) -> Result<(Plan, SchemaSource), Error> {
    let docs = Docs {
        local: pair.local.value.clone(),
        live: pair.live.as_ref().map(|l| l.value.clone()),
        last_applied: last_applied.cloned(),
    };
    let names = DocNames {
        local: pair.local.source.clone(),
        live: pair
            .live
            .as_ref()
            .map(|l| l.source.clone())
            .unwrap_or_default(),
        last_applied: "--last-applied".into(),
    };
    compute_chosen(
        &loaded.choice,
        &docs,
        loaded.namespace.as_deref(),
        overwrite,
        &names,
    )
}

/// One object opened from the cluster: where it lives, how it was planned, and the connection
/// it was read with (kept for the run's later requests).
pub struct Opened {
    pub connection: Connection,
    /// The settings it was read with.
    pub conn: Conn,
    /// The server's URL (for titles).
    pub server: String,
    pub loaded: Loaded,
    /// The metadata source the plan used.
    pub used: SchemaSource,
}

/// Read one object's live object and plan it: its documents (the live object shown without
/// `managedFields`), its plan, and what the TUI keeps of the cluster.
///
/// # Errors
/// Cluster errors (naming `local_name`), the plan's error.
#[cfg(feature = "cluster")]
pub fn open_one(
    conn: &Conn,
    local: Value,
    last_applied: Option<Value>,
    openapi_patch: bool,
    local_name: &str,
) -> Result<(Source, Plan, Opened), Error> {
    let failed = |e: ClusterError| Error::from(e).context(local_name);
    let cluster = Cluster::connect(conn).map_err(failed)?;
    let loaded = cluster
        .load(std::slice::from_ref(&local), openapi_patch)
        .into_iter()
        .next()
        .ok_or_else(|| ClusterError::Local("nothing loaded".into()))
        .and_then(|l| l)
        .map_err(failed)?;
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
        docs: Docs {
            local,
            live: loaded
                .live
                .as_ref()
                .map(crate::cluster::without_managed_fields),
            last_applied,
        },
    };
    let (plan, used) = compute_chosen(
        &loaded.choice,
        &source.docs,
        loaded.namespace.as_deref(),
        true,
        &DocNames::default(),
    )?;
    let opened = Opened {
        conn: conn.clone(),
        server: cluster.server.clone(),
        connection: Connection::of(cluster),
        loaded,
        used,
    };
    Ok((source, plan, opened))
}

/// # Errors
/// Always: this build has no cluster access.
#[cfg(not(feature = "cluster"))]
pub fn open_one(
    _: &Conn,
    _: Value,
    _: Option<Value>,
    _: bool,
    _: &str,
) -> Result<(Source, Plan, Opened), Error> {
    Err(not_built())
}

/// The TUI's connection to the cluster, kept for the whole run: made once (at open, or at the
/// first request), then every request goes through it, sharing its runtime, client,
/// discovery and OpenAPI caches. A request with other settings connects again.
#[derive(Debug, Default)]
pub struct Connection {
    #[cfg(feature = "cluster")]
    cluster: Option<Cluster>,
}

impl Connection {
    /// The connection of an open cluster.
    #[cfg(feature = "cluster")]
    #[must_use]
    pub fn of(cluster: Cluster) -> Connection {
        Connection {
            cluster: Some(cluster),
        }
    }

    /// Send a request with the connection of `conn`'s settings (connecting if there is none).
    ///
    /// # Errors
    /// As [`crate::cluster::Cluster::send`]; configuration errors when connecting.
    #[cfg(feature = "cluster")]
    pub fn send(&mut self, conn: &Conn, request: &Request) -> Result<Option<Value>, ClusterError> {
        let cluster = match self.cluster.take() {
            Some(c) if c.conn == *conn => c,
            _ => Cluster::connect(conn)?,
        };
        let cluster = self.cluster.insert(cluster);
        cluster.send(request)
    }

    /// # Errors
    /// Always: this build has no cluster access.
    #[cfg(not(feature = "cluster"))]
    pub fn send(&mut self, _: &Conn, _: &Request) -> Result<Option<Value>, ClusterError> {
        Err(ClusterError::NotBuilt)
    }
}
