//! The object in the cluster, as the TUI holds it: where it lives, the patch metadata chosen
//! for it, the live object as served.

use crate::cluster::{self, Choice, Conn, Loaded, SchemaSource, Target};
use crate::value::Value;

/// What the TUI knows about the object in the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterSession {
    pub conn: Conn,
    /// The server's URL (for titles).
    pub server: String,
    pub target: Target,
    pub choice: Choice,
    /// The metadata source the current plan used.
    pub source: SchemaSource,
    /// The namespace given to the plan as `-n`.
    pub namespace: Option<String>,
    /// The live object as served (`managedFields` included).
    pub live: Option<Value>,
    /// Show `metadata.managedFields` (hidden by default).
    pub show_managed: bool,
    /// A commit got 409: the next reload is shown as what changed, and the commit asked again.
    pub after_conflict: bool,
}

impl ClusterSession {
    /// The session of an object read with `conn` from `server`, planned with `used`.
    #[must_use]
    pub fn new(conn: Conn, server: String, loaded: Loaded, used: SchemaSource) -> ClusterSession {
        ClusterSession {
            conn,
            server,
            target: loaded.target,
            choice: loaded.choice,
            source: used,
            namespace: loaded.namespace,
            live: loaded.live,
            show_managed: false,
            after_conflict: false,
        }
    }

    /// The live object as the panes show it.
    #[must_use]
    pub fn shown_live(&self) -> Option<Value> {
        self.live.as_ref().map(|l| {
            if self.show_managed {
                l.clone()
            } else {
                cluster::without_managed_fields(l)
            }
        })
    }
}
