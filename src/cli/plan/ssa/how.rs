//! The manager, `--force-conflicts` and the mode of one `plan` or `apply` run (flags, else the
//! kuberc, else kubectl's defaults).

use super::super::PlanArgs;
use crate::session::kuberc::{ApplyMode, ModeSource};
use crate::value::{Map, Value};

/// The manager, `--force-conflicts` and the mode's source of one run: the flags, else the
/// kuberc's `apply` defaults, else kubectl's defaults.
pub struct How {
    pub manager: String,
    pub force: bool,
    /// Set when a kuberc chose server-side: the outputs say so.
    pub mode: Option<ApplyMode>,
}

impl How {
    #[must_use]
    pub fn of(args: &PlanArgs, mode: &ApplyMode) -> How {
        How::from_flags(args.field_manager.as_deref(), args.force_conflicts, mode)
    }

    /// From `--field-manager` and `--force-conflicts` (`plan` and `apply` share them).
    #[must_use]
    pub fn from_flags(field_manager: Option<&str>, force: Option<bool>, mode: &ApplyMode) -> How {
        How {
            manager: field_manager
                .map(str::to_owned)
                .or_else(|| mode.field_manager.clone())
                .unwrap_or_else(|| "kubectl".to_owned()),
            force: force.or(mode.force_conflicts).unwrap_or(false),
            mode: mode.from_kuberc().then(|| mode.clone()),
        }
    }

    /// `mode: server-side apply (default kuberc PATH)` and a newline, when a kuberc chose.
    pub(super) fn header(&self) -> String {
        self.mode
            .as_ref()
            .map(|m| format!("mode: {}\n", m.describe()))
            .unwrap_or_default()
    }

    /// `mode: {serverSide, source, kuberc}` first in the output, when a kuberc chose.
    #[must_use]
    pub fn with_mode(&self, map: Map) -> Map {
        let Some(mode) = &self.mode else {
            return map;
        };
        let mut m = Map::new();
        m.insert("serverSide", Value::Bool(mode.server_side));
        m.insert("source", Value::from(mode.source.kind()));
        if let ModeSource::Kuberc { path, .. } = &mode.source {
            m.insert("kuberc", Value::from(path.display().to_string()));
        }
        m.insert("description", Value::from(mode.describe()));
        let mut out = Map::new();
        out.insert("mode", Value::Object(m));
        let mut map = map;
        out.append(&mut map);
        out
    }
}
