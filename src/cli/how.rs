//! The manager, `--force-conflicts` and the mode of one `plan` or `apply` run (flags, else the
//! kuberc, else kubectl's defaults).

use std::path::Path;

use crate::error::Error;
use crate::session::kuberc::{ApplyMode, ModeRequest, ModeSource, resolve};
use crate::value::{Map, Value};

/// The flags of `plan` and `diff` that decide the apply mode.
pub struct ModeFlags<'a> {
    /// `--server-side[=BOOL]`.
    pub server_side: Option<bool>,
    /// `--kuberc PATH`.
    pub kuberc: Option<&'a Path>,
    pub field_manager: Option<&'a str>,
    pub force_conflicts: Option<bool>,
}

impl ModeFlags<'_> {
    /// The apply mode: the flags, else the kuberc (`session::kuberc`), with the process's
    /// environment.
    ///
    /// # Errors
    /// A kuberc kubectl would fail on (exit 2).
    pub fn resolve(&self) -> Result<ApplyMode, Error> {
        let mut req = ModeRequest::from_env(self.server_side, self.kuberc.map(Path::to_path_buf));
        req.field_manager_given = self.field_manager.is_some();
        req.force_conflicts_given = self.force_conflicts.is_some();
        resolve(&req)
    }
}

/// The manager, `--force-conflicts` and the mode's source of one run: the flags, else the
/// kuberc's `apply` defaults, else kubectl's defaults.
pub struct How {
    pub manager: String,
    pub force: bool,
    /// Set when a kuberc chose server-side: the outputs say so.
    pub mode: Option<ApplyMode>,
}

impl How {
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
        let Some(mode) = self.mode_value() else {
            return map;
        };
        let mut out = Map::new();
        out.insert("mode", mode);
        let mut map = map;
        out.append(&mut map);
        out
    }

    /// The outputs' `mode` (`serverSide`, `source`, `kuberc`, `description`), when a kuberc
    /// chose.
    #[must_use]
    pub fn mode_value(&self) -> Option<Value> {
        let mode = self.mode.as_ref()?;
        let mut m = Map::new();
        m.insert("serverSide", Value::Bool(mode.server_side));
        m.insert("source", Value::from(mode.source.kind()));
        if let ModeSource::Kuberc { path, .. } = &mode.source {
            m.insert("kuberc", Value::from(path.display().to_string()));
        }
        m.insert("description", Value::from(mode.describe()));
        Some(Value::Object(m))
    }
}
