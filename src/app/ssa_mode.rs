//! The apply mode the run follows, pure: the mode kubectl will use (an explicit
//! `--server-side[=BOOL]`, else kubectl's kuberc; resolved once by `session::kuberc` and carried
//! in the run's options) decides the view an object opens in, and the status line says which
//! mode and where it came from. `--field-manager` (else the kuberc's) is the manager the
//! server-side view applies as; the kuberc's `force-conflicts` is honoured too.

use super::Model;
use crate::session::kuberc::{ApplyMode, ModeSource};

/// An object opened with the run's options takes its field manager and kubectl's warnings
/// about the kuberc: whether it opens in the server-side view (`ssa::start` asks for the plan).
pub(super) fn opens_server_side(model: &mut Model) -> bool {
    let options = &model.edit.options;
    let Some(mode) = options.mode.as_ref() else {
        return false;
    };
    if let Some(manager) = options
        .field_manager
        .as_ref()
        .or(mode.field_manager.as_ref())
    {
        model.field_manager.clone_from(manager);
    }
    if !mode.warnings.is_empty() {
        model.notice = Some(format!("kuberc: {}", mode.warnings.join("; ")));
    }
    mode.server_side && model.server.is_none()
}

/// `--force-conflicts` as the kuberc sets it (the TUI has no flag for it).
#[must_use]
pub fn force_conflicts(model: &Model) -> bool {
    model
        .edit
        .options
        .mode
        .as_ref()
        .and_then(|m| m.force_conflicts)
        .unwrap_or(false)
}

/// The mode a flag or a kuberc chose (none when kubectl's default did).
fn chosen(model: &Model) -> Option<&ApplyMode> {
    model
        .edit
        .options
        .mode
        .as_ref()
        .filter(|m| m.source != ModeSource::Default)
}

/// The status line's words on the apply shown: `server-side (field manager kubectl; default
/// kuberc /home/me/.kube/kuberc)`; the run's mode when the view is the other one (`S`).
#[must_use]
pub fn label(model: &Model) -> Option<String> {
    let run = chosen(model);
    match (model.server.as_deref(), run) {
        (Some(s), None) => Some(format!("server-side (field manager {})", s.request.manager)),
        (Some(s), Some(m)) if m.server_side => Some(format!(
            "server-side (field manager {}; {})",
            s.request.manager, m.source
        )),
        (Some(s), Some(m)) => Some(format!(
            "server-side (field manager {}; S: the run's {})",
            s.request.manager,
            m.describe()
        )),
        (None, Some(m)) if !m.server_side => Some(format!("client-side ({})", m.source)),
        (None, Some(m)) => Some(format!("client-side (S: the run's {})", m.describe())),
        (None, None) => None,
    }
}
