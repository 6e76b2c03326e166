//! The mode `kubectl apply` will use, as kubectl 1.37 decides it: an explicit
//! `--server-side[=true|false]` wins; else the `apply` defaults of kubectl's preferences file
//! (kuberc); else client-side apply. [`resolve`] is the one place this is decided; every front
//! end (`plan`, `diff`, `apply`, the TUI) asks it and shows [`ApplyMode::source`].
//!
//! Which kuberc (kubectl `pkg/kuberc/kuberc.go` `LoadKuberc`, `DefaultGetPreferences`;
//! `pkg/cmd/cmd.go`; each rule recorded with kubectl 1.37.1 in `tests/kuberc/expected.json`):
//!
//! | situation | kubectl |
//! |---|---|
//! | `KUBECTL_KUBERC=false` (any case) | no kuberc; `--kuberc` is an unknown flag |
//! | `KUBERC=off` | no kuberc; with `--kuberc` an error (mutually exclusive) |
//! | `--kuberc PATH` | that file, named explicitly |
//! | else `$KUBERC` (not empty) | that file, named explicitly |
//! | else `~/.kube/kuberc` | the default file |
//! | a named file missing, unreadable, not YAML, no valid `Preference` | an error: every command fails |
//! | the default file missing | nothing, silently |
//! | the default file unreadable, not YAML, no valid `Preference` | a warning; no preferences |
//! | unknown fields | a warning; the file is used |
//! | a bad option (dashed name, a flag `apply` lacks, a bad boolean), wherever the file is | an error |
//!
//! The file's reading and checking is `kuberc/preference.rs`.

pub mod preference;

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use super::Error;
use preference::ApplyDefaults;

/// Where a kuberc file was named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KubercFrom {
    /// `--kuberc PATH`.
    Flag,
    /// `$KUBERC`.
    Env,
    /// `~/.kube/kuberc`.
    Home,
}

/// Where the apply mode came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModeSource {
    /// `--server-side[=true|false]` on the command line.
    Flag,
    /// A kuberc file's `apply` defaults.
    Kuberc { path: PathBuf, from: KubercFrom },
    /// Nothing set it: kubectl's default, client-side apply.
    Default,
}

/// The mode `kubectl apply` will use, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApplyMode {
    pub server_side: bool,
    pub source: ModeSource,
    /// The field manager and `--force-conflicts`, when the command line did not give them and
    /// the kuberc did.
    pub field_manager: Option<String>,
    pub force_conflicts: Option<bool>,
    /// kubectl's warnings about the kuberc (a bad default file, unknown fields), one line each.
    pub warnings: Vec<String>,
}

impl ApplyMode {
    /// `server-side` / `client-side`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        if self.server_side {
            "server-side"
        } else {
            "client-side"
        }
    }

    /// Whether a kuberc chose the mode (the case the outputs name).
    #[must_use]
    pub fn from_kuberc(&self) -> bool {
        matches!(self.source, ModeSource::Kuberc { .. })
    }

    /// One line: `server-side apply (kuberc /home/me/.kube/kuberc)`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!("{} apply ({})", self.name(), self.source)
    }
}

impl fmt::Display for ModeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModeSource::Flag => f.write_str("--server-side on the command line"),
            ModeSource::Default => f.write_str("kubectl's default"),
            ModeSource::Kuberc { path, from } => {
                let how = match from {
                    KubercFrom::Flag => "--kuberc",
                    KubercFrom::Env => "$KUBERC",
                    KubercFrom::Home => "default kuberc",
                };
                write!(f, "{how} {}", path.display())
            }
        }
    }
}

impl ModeSource {
    /// The JSON name of the source: `flag`, `kuberc`, `default`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            ModeSource::Flag => "flag",
            ModeSource::Kuberc { .. } => "kuberc",
            ModeSource::Default => "default",
        }
    }
}

/// What the resolution reads: the command line and the environment.
#[derive(Clone, Debug, Default)]
pub struct ModeRequest {
    /// `--server-side[=BOOL]`, if given.
    pub server_side: Option<bool>,
    /// Whether `--field-manager` / `--force-conflicts` were given.
    pub field_manager_given: bool,
    pub force_conflicts_given: bool,
    /// `--kuberc PATH`.
    pub kuberc: Option<PathBuf>,
    /// `$KUBERC`, `$KUBECTL_KUBERC`, `$HOME`.
    pub env_kuberc: Option<OsString>,
    pub env_kubectl_kuberc: Option<OsString>,
    pub home: Option<PathBuf>,
}

impl ModeRequest {
    /// The flags, with the process's environment.
    #[must_use]
    pub fn from_env(server_side: Option<bool>, kuberc: Option<PathBuf>) -> ModeRequest {
        ModeRequest {
            server_side,
            kuberc,
            env_kuberc: std::env::var_os("KUBERC"),
            env_kubectl_kuberc: std::env::var_os("KUBECTL_KUBERC"),
            home: std::env::var_os("HOME").map(PathBuf::from),
            ..ModeRequest::default()
        }
    }
}

fn kuberc_error(path: &Path, what: &str) -> Error {
    Error::Input(format!("kuberc {}: {what}", path.display()))
}

/// Which file kubectl reads, if any.
///
/// # Errors
/// `--kuberc` with kuberc turned off.
fn locate(req: &ModeRequest) -> Result<Option<(PathBuf, KubercFrom)>, Error> {
    let off_gate = req
        .env_kubectl_kuberc
        .as_ref()
        .is_some_and(|v| v.to_string_lossy().eq_ignore_ascii_case("false"));
    if off_gate {
        if req.kuberc.is_some() {
            return Err(Error::Input(
                "--kuberc: kuberc is turned off (KUBECTL_KUBERC=false), where kubectl has no --kuberc flag".into(),
            ));
        }
        return Ok(None);
    }
    let env = req.env_kuberc.as_ref().filter(|v| !v.is_empty());
    if env.is_some_and(|v| v == "off") {
        if req.kuberc.is_some() {
            return Err(Error::Input(
                "--kuberc: disabling kuberc via KUBERC=off and passing kuberc flag are mutually exclusive (kubectl's error)".into(),
            ));
        }
        return Ok(None);
    }
    let home = req.home.as_ref().map(|h| h.join(".kube").join("kuberc"));
    match (&req.kuberc, env) {
        // kubectl: a --kuberc naming the default file gives way to $KUBERC.
        (Some(flag), Some(env)) if Some(flag) == home.as_ref() => {
            Ok(Some((PathBuf::from(env), KubercFrom::Env)))
        }
        (Some(flag), _) => Ok(Some((flag.clone(), KubercFrom::Flag))),
        (None, Some(env)) => Ok(Some((PathBuf::from(env), KubercFrom::Env))),
        (None, None) => Ok(home.map(|h| (h, KubercFrom::Home))),
    }
}

/// The apply mode for this command line and environment.
///
/// # Errors
/// [`Error::Input`] (exit 2, naming the file) where kubectl fails every command: a kuberc named
/// with `--kuberc` or `$KUBERC` that cannot be read or holds no valid preferences, and a bad
/// option in any kuberc.
pub fn resolve(req: &ModeRequest) -> Result<ApplyMode, Error> {
    let mut mode = ApplyMode {
        server_side: req.server_side.unwrap_or(false),
        source: if req.server_side.is_some() {
            ModeSource::Flag
        } else {
            ModeSource::Default
        },
        field_manager: None,
        force_conflicts: None,
        warnings: Vec::new(),
    };
    let Some((path, from)) = locate(req)? else {
        return Ok(mode);
    };
    let named = from != KubercFrom::Home;
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if !named && e.kind() == std::io::ErrorKind::NotFound => return Ok(mode),
        Err(e) if named => return Err(kuberc_error(&path, &e.to_string())),
        Err(e) => {
            mode.warnings.push(format!(
                "kuberc: no preferences loaded from {}: {e}",
                path.display()
            ));
            return Ok(mode);
        }
    };
    let shown = path.display().to_string();
    let preference = match preference::parse(&bytes, &shown) {
        Ok(Some(p)) => p,
        Ok(None) => return Ok(mode),
        Err(e) if named => return Err(kuberc_error(&path, &e.to_string())),
        Err(e) => {
            mode.warnings
                .push(format!("kuberc: no preferences loaded from {shown}: {e}"));
            return Ok(mode);
        }
    };
    if let Some(strict) = &preference.strict {
        mode.warnings.push(format!(
            "kuberc: ignoring strict decoding error in {shown}: {strict}"
        ));
    }
    preference
        .validate()
        .map_err(|e| kuberc_error(&path, &e.to_string()))?;
    let mut explicit = Vec::new();
    if req.server_side.is_some() {
        explicit.push("server-side");
    }
    if req.field_manager_given {
        explicit.push("field-manager");
    }
    if req.force_conflicts_given {
        explicit.push("force-conflicts");
    }
    let ApplyDefaults {
        server_side,
        field_manager,
        force_conflicts,
    } = preference
        .apply_defaults(&explicit)
        .map_err(|e| kuberc_error(&path, &e.to_string()))?;
    if let Some(s) = server_side {
        mode.server_side = s;
        mode.source = ModeSource::Kuberc { path, from };
    }
    mode.field_manager = field_manager;
    mode.force_conflicts = force_conflicts;
    Ok(mode)
}
