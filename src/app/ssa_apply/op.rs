//! The server-side apply the runtime sends for `P` (kubectl's sequence, then a read and a plan
//! again), and what it reports back.

use crate::cluster::{self, ClusterError, Conn, Request, Target, Validation};
use crate::error::Error;
use crate::session::ssa::apply::{Applied, SsaSend, dry_run, send_server_side};
use crate::session::ssa::{SsaOutcome, SsaRequest};
use crate::value::Value;

/// The server-side apply of the opened object, for the runtime to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SsaApplyOp {
    pub conn: Conn,
    pub target: Target,
    /// The body kubectl sends.
    pub body: Value,
    pub manager: String,
    pub force: bool,
    pub validation: Validation,
    /// The server dry run of the first apply only.
    pub dry_run: bool,
    /// The server-side plan shown, planned again against the object as read after the apply.
    pub replan: SsaRequest,
}

/// What the runtime reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SsaApplyReply {
    /// The dry run's answer.
    DryRun(Result<Value, ClusterError>),
    /// The sequence sent; then the object read again (`None`: not read, the apply failed) and
    /// planned again.
    Applied {
        applied: Result<Applied, ClusterError>,
        live: Option<Result<Option<Value>, ClusterError>>,
        replanned: Option<Result<SsaOutcome, Error>>,
    },
}

type Transport<'a> = dyn FnMut(&Request) -> Result<Option<Value>, ClusterError> + 'a;

impl SsaApplyOp {
    pub(super) fn send(&self) -> SsaSend<'_> {
        SsaSend {
            target: &self.target,
            body: &self.body,
            manager: &self.manager,
            force: self.force,
            validation: self.validation,
        }
    }

    /// Send it through `transport`; the plan again is made at the time `now` says then.
    pub fn run(&self, transport: &mut Transport<'_>, now: &dyn Fn() -> String) -> SsaApplyReply {
        let send = self.send();
        if self.dry_run {
            return SsaApplyReply::DryRun(dry_run(&send, transport).map(|(_, answer)| answer));
        }
        let applied = send_server_side(&send, transport);
        if applied.is_err() {
            return SsaApplyReply::Applied {
                applied,
                live: None,
                replanned: None,
            };
        }
        let live = transport(&cluster::get(&self.target));
        let replanned = live.as_ref().ok().map(|object| {
            let mut request = self.replan.clone();
            request.live.clone_from(object);
            request.plan(&now())
        });
        SsaApplyReply::Applied {
            applied,
            live: Some(live),
            replanned,
        }
    }
}
