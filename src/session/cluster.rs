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
use super::progress::Progress;
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
    /// What was read of each pair (of each pair read, with `fail_alone`).
    pub loaded: Vec<Loaded>,
    pub plans: Vec<Result<Plan, Error>>,
}

impl Planned {
    /// Each object that was read, with its plan; the first that failed to plan is the error,
    /// named by the object (the commands that send requests stop at it).
    pub fn each_planned(&self) -> impl Iterator<Item = Result<(&Pair, &Loaded, &Plan), Error>> {
        self.pairs.iter().zip(&self.loaded).zip(&self.plans).map(
            |((pair, loaded), plan)| match plan {
                Ok(plan) => Ok((pair, loaded, plan)),
                Err(e) => Err(e.clone().context(pair.key.to_string())),
            },
        )
    }
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
    let progress = Progress::none();
    let read = Read {
        openapi_patch,
        overwrite,
        fail_alone: false,
    };
    load_and_plan_reporting(locals, conn, read, last_applied, &progress)
}

/// How objects are read and planned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    /// Use the server's OpenAPI documents for the patch metadata (`--openapi-patch`).
    pub openapi_patch: bool,
    /// `--overwrite`.
    pub overwrite: bool,
    /// An object that cannot be read (or is given twice) is that object's failed plan, not
    /// the run's error (the TUI's list: the other objects stay usable).
    pub fail_alone: bool,
}

/// Connect with the settings, the requests reported to `progress`.
///
/// # Errors
/// The configuration cannot be read.
#[cfg(feature = "cluster")]
pub fn connect_reporting(conn: &Conn, progress: &Progress) -> Result<Cluster, Error> {
    let mut cluster = connect(conn)?;
    cluster.watch(progress.watcher());
    Ok(cluster)
}

/// [`load_and_plan`], reporting each request, the count of objects read, and each object's
/// row as it is planned (objects are planned as they arrive, in order).
///
/// # Errors
/// As [`load_and_plan`]: the first object's error, in the files' order (unless
/// `read.fail_alone`).
#[cfg(feature = "cluster")]
pub fn load_and_plan_reporting(
    locals: Vec<Object>,
    conn: &Conn,
    read: Read,
    last_applied: Option<&Value>,
    progress: &Progress,
) -> Result<Planned, Error> {
    let Read {
        openapi_patch,
        overwrite,
        fail_alone,
    } = read;
    use super::objects::Key;
    use super::progress::Event;
    let cluster = connect_reporting(conn, progress)?;
    let values: Vec<Value> = locals.iter().map(|o| o.value.clone()).collect();
    let total = locals.len();
    let mut locals = locals.into_iter();
    let mut pairs: Vec<Pair> = Vec::with_capacity(total);
    let mut loaded = Vec::with_capacity(total);
    let mut plans = Vec::with_capacity(total);
    let mut failed: Option<Error> = None;
    progress.report(Event::Count { done: 0, total });
    cluster.load_each(&values, openapi_patch, |i, result| {
        progress.report(Event::Count { done: i + 1, total });
        let Some(local) = locals.next() else { return };
        if failed.is_some() {
            return;
        }
        let mut key = Key::of(&local.value);
        let problem = match &result {
            Ok(l) => {
                key.namespace = l.target.namespace.clone().unwrap_or_default();
                pairs.iter().find(|p: &&Pair| p.key == key).map(|first| {
                    Error::Input(format!(
                        "{}: {key} is also in {}",
                        local.source, first.local.source
                    ))
                })
            }
            Err(e) => Some(Error::from(e.clone()).context(local.source.clone())),
        };
        let l = match (result, problem) {
            (Ok(l), None) => l,
            (_, Some(e)) if fail_alone => {
                let plan = Err(e);
                report_row(progress, &key, &local, None, &plan);
                pairs.push(Pair {
                    key,
                    local,
                    live: None,
                });
                plans.push(plan);
                return;
            }
            (_, e) => {
                failed = e;
                return;
            }
        };
        let live = l.live.as_ref().map(|v| Object {
            value: v.clone(),
            source: format!("{}{}", cluster.server, l.target.path()),
        });
        let pair = Pair { key, local, live };
        let plan = plan_one(&pair, &l, overwrite, last_applied).map(|(p, _)| p);
        report_row(progress, &pair.key, &pair.local, pair.live.as_ref(), &plan);
        pairs.push(pair);
        loaded.push(l);
        plans.push(plan);
    });
    if let Some(e) = failed {
        return Err(e);
    }
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

/// An object's row, to a listener that wants rows.
#[cfg(feature = "cluster")]
fn report_row(
    progress: &Progress,
    key: &super::objects::Key,
    local: &Object,
    live: Option<&Object>,
    plan: &Result<Plan, Error>,
) {
    use super::progress::{Event, RowHead};
    if progress.wants_rows() {
        progress.report(Event::Row(Box::new(RowHead {
            key: key.clone(),
            source: local.source.clone(),
            live_source: live.map(|l| l.source.clone()),
            summary: super::risk::Summary::of_result(plan),
        })));
    }
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

/// # Errors
/// Always: this build has no cluster access.
#[cfg(not(feature = "cluster"))]
pub fn load_and_plan_reporting(
    _: Vec<Object>,
    _: &Conn,
    _: Read,
    _: Option<&Value>,
    _: &Progress,
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
    let progress = Progress::none();
    open_one_reporting(
        conn,
        local,
        last_applied,
        openapi_patch,
        local_name,
        &progress,
    )
}

/// [`open_one`], its requests reported to `progress`.
///
/// # Errors
/// As [`open_one`].
#[cfg(feature = "cluster")]
pub fn open_one_reporting(
    conn: &Conn,
    local: Value,
    last_applied: Option<Value>,
    openapi_patch: bool,
    local_name: &str,
    progress: &Progress,
) -> Result<(Source, Plan, Opened), Error> {
    let failed = |e: ClusterError| Error::from(e).context(local_name);
    let mut cluster = Cluster::connect(conn).map_err(failed)?;
    cluster.watch(progress.watcher());
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

/// # Errors
/// Always: this build has no cluster access.
#[cfg(not(feature = "cluster"))]
pub fn open_one_reporting(
    _: &Conn,
    _: Value,
    _: Option<Value>,
    _: bool,
    _: &str,
    _: &Progress,
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
