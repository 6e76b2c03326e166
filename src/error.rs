//! The one error of a run: what the library, the command line and the TUI runtime report, with
//! its sources (the engine's and the document reader's typed errors, I/O errors with the file
//! they were about) and the exit status of the command that fails with it.
//!
//! | variant | exit | message |
//! |---|---|---|
//! | [`Error::Input`] | 2 | built by hand, naming the file and place |
//! | [`Error::Failed`] | 1 | built by hand |
//! | [`Error::Read`] | 2 | `PATH: reason` (its source: the [`io::Error`]) |
//! | [`Error::Io`] | 2 | `PATH: the system's reason` (its source: the [`io::Error`]) |
//! | [`Error::Document`] | 2 | `FILE:LINE:COL: message` ([`LoadError`]) |
//! | [`Error::Plan`] | 2 for an input, 1 for kubectl's refusal or a conflict | `NAME: message` for an input ([`PlanError`]) |
//! | [`Error::ManagedFields`] | 2 | `FILE: managedFields entry N (manager "m"): reason` |
//! | [`Error::Schema`] | 2 | the engine's ([`SchemaError`]) |
//! | [`Error::Smp`], [`Error::JsonMerge`], [`Error::JsonPatch`], [`Error::GoJson`], [`Error::Edit`] | 1 | the engine's |
//! | [`Error::Cluster`] | 2 | the cluster's one line ([`ClusterError`]) |
//! | [`Error::Context`] | its source's | `CONTEXT: source` |
//! | [`Error::Changed`], [`Error::Write`] | 1 | a guarded write that did not happen ([`WriteError`]) |
//! | [`Error::Terminal`] | 1 | `terminal: reason` |
//! | [`Error::TempFile`], [`Error::EditorStart`], [`Error::EditorExit`] | 1 | the editor's file, start, exit status |
//! | [`Error::Output`] | 1, and nothing said | standard output closed (a pipe's reader gone) |
//!
//! Every message is displayed on one line: the lines of a hand-built message are trimmed and
//! joined by spaces.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cluster::ClusterError;
use crate::document::LoadError;
use crate::engine::edit::EditError;
use crate::engine::error::SmpError;
use crate::engine::gojson::GoJsonError;
use crate::engine::jsonmerge::JsonMergeError;
use crate::engine::jsonpatch::JsonPatchError;
use crate::engine::plan::PlanError;
use crate::engine::schema::SchemaError;
use crate::fsutil::WriteError;

/// Why a command, an input or a TUI action failed.
///
/// I/O sources are shared (`Arc`) so that an error can be cloned: one failed plan is shown in
/// several places (its entry, the stderr line, the list screen).
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// Bad input (exit 2); the message names the file and place.
    #[error("{}", one_line(.0))]
    Input(String),
    /// The operation failed (exit 1).
    #[error("{}", one_line(.0))]
    Failed(String),
    /// A file could not be read (exit 2).
    #[error("{}", one_line(&format!("{}: {}", path.display(), io_reason(source))))]
    Read {
        path: PathBuf,
        #[source]
        source: Arc<io::Error>,
    },
    /// A file or directory could not be read or listed (exit 2), in the system's words: a
    /// directory of inputs, standard input, the TUI's reload, its editor's file.
    #[error("{}", one_line(&format!("{}: {source}", path.display())))]
    Io {
        path: PathBuf,
        #[source]
        source: Arc<io::Error>,
    },
    /// A file's text is not the YAML or JSON it should be (exit 2).
    #[error("{}", one_line(&.0.to_string()))]
    Document(#[from] LoadError),
    /// The engine made no plan; `input` names the document a [`PlanError::Input`] is about.
    #[error("{}", plan_message(input, source))]
    Plan {
        input: String,
        #[source]
        source: PlanError,
    },
    /// A live object's `metadata.managedFields` cannot be read (exit 2): `FILE: entry N …`.
    #[error("{}", one_line(&format!("{input}: {source}")))]
    ManagedFields {
        input: String,
        #[source]
        source: crate::engine::ssa::managed::ManagedFieldsError,
    },
    /// A `--schema` document is not an OpenAPI schema (exit 2).
    #[error("{}", one_line(&.0.to_string()))]
    Schema(#[from] SchemaError),
    /// A strategic merge patch could not be made or applied (exit 1).
    #[error("{}", one_line(&.0.to_string()))]
    Smp(#[from] SmpError),
    /// A JSON merge patch could not be made or applied (exit 1).
    #[error("{}", one_line(&.0.to_string()))]
    JsonMerge(#[from] JsonMergeError),
    /// A JSON patch could not be applied (exit 1).
    #[error("{}", one_line(&.0.to_string()))]
    JsonPatch(#[from] JsonPatchError),
    /// A value could not be written as Go's JSON (exit 1).
    #[error("{}", one_line(&.0.to_string()))]
    GoJson(#[from] GoJsonError),
    /// A last-applied edit (drop, adopt) could not be made (exit 1).
    #[error("{}", one_line(&.0.to_string()))]
    Edit(#[from] EditError),
    /// A cluster operation failed (exit 2).
    #[error("{}", one_line(&.0.to_string()))]
    Cluster(#[from] ClusterError),
    /// Another error, said of something (an object, a file): `CONTEXT: source`.
    #[error("{context}: {source}")]
    Context {
        context: String,
        #[source]
        source: Box<Error>,
    },
    /// The TUI's terminal failed (exit 1).
    #[error("terminal: {0}")]
    Terminal(#[source] Arc<io::Error>),
    /// The editor's temporary file could not be made.
    #[error("temp file: {0}")]
    TempFile(#[source] Arc<io::Error>),
    /// The editor could not be started.
    #[error("cannot run {editor:?}: {source}")]
    EditorStart {
        editor: String,
        #[source]
        source: Arc<io::Error>,
    },
    /// The editor ended with a failure status.
    #[error("{editor:?} exited with {status}")]
    EditorExit {
        editor: String,
        status: std::process::ExitStatus,
    },
    /// The file changed on disk since it was read: nothing was written (exit 1).
    #[error(
        "{}: changed on disk since applyscope read it; nothing was written (reload and try again)",
        path.display()
    )]
    Changed { path: PathBuf },
    /// A file could not be written; the original is unchanged (exit 1).
    #[error("{}: {source}; the original is unchanged", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: Arc<io::Error>,
    },
    /// Standard output could not be written (exit 1, silently: its reader is gone).
    #[error("standard output: {0}")]
    Output(#[source] Arc<io::Error>),
}

impl Error {
    /// The process exit status for this error.
    #[must_use]
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_)
            | Error::Read { .. }
            | Error::Document(_)
            | Error::Cluster(_)
            | Error::Io { .. }
            | Error::Schema(_)
            | Error::ManagedFields { .. } => 2,
            Error::Plan {
                source: PlanError::Input { .. },
                ..
            } => 2,
            Error::Failed(_)
            | Error::Plan { .. }
            | Error::Smp(_)
            | Error::JsonMerge(_)
            | Error::JsonPatch(_)
            | Error::GoJson(_)
            | Error::Edit(_)
            | Error::Changed { .. }
            | Error::Write { .. }
            | Error::Terminal(_)
            | Error::TempFile(_)
            | Error::EditorStart { .. }
            | Error::EditorExit { .. }
            | Error::Output(_) => 1,
            Error::Context { source, .. } => source.exit_code(),
        }
    }

    /// A file that could not be read.
    #[must_use]
    pub fn read(path: &Path, source: io::Error) -> Error {
        Error::Read {
            path: path.to_path_buf(),
            source: Arc::new(source),
        }
    }

    /// A file or directory that could not be read or listed.
    #[must_use]
    pub fn io(path: &Path, source: io::Error) -> Error {
        Error::Io {
            path: path.to_path_buf(),
            source: Arc::new(source),
        }
    }

    /// Standard output that could not be written.
    #[must_use]
    pub fn output(source: io::Error) -> Error {
        Error::Output(Arc::new(source))
    }

    /// This error, said of `context` (`CONTEXT: message`, the same exit status).
    #[must_use]
    pub fn context(self, context: impl Into<String>) -> Error {
        Error::Context {
            context: context.into(),
            source: Box::new(self),
        }
    }

    /// Whether trying again may help: the cluster did not answer, or answered an error status
    /// (not bad input, a configuration, or a kind the server does not serve).
    #[must_use]
    pub fn is_transient(&self) -> bool {
        match self {
            Error::Cluster(ClusterError::Transport(_) | ClusterError::Status { .. }) => true,
            Error::Context { source, .. } => source.is_transient(),
            _ => false,
        }
    }

    /// Whether the engine refused the plan as kubectl would (not an input error).
    #[must_use]
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Error::Plan {
                source: PlanError::Kubectl(_) | PlanError::Conflict(_),
                ..
            }
        )
    }
}

/// A guarded write that did not happen.
impl From<WriteError> for Error {
    fn from(e: WriteError) -> Error {
        match e {
            WriteError::Changed(path) => Error::Changed { path },
            WriteError::Io(path, source) => Error::Write {
                path,
                source: Arc::new(source),
            },
        }
    }
}

/// Two errors are equal when they are the same kind and say the same (I/O errors have no
/// equality of their own).
impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
            && self.exit_code() == other.exit_code()
            && self.to_string() == other.to_string()
    }
}

impl Eq for Error {}

/// A message's lines, trimmed, without the empty ones, joined by spaces.
fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" ")
}

/// What went wrong reading a file, in the words of the messages (`no such file`, …).
fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn plan_message(input: &str, e: &PlanError) -> String {
    match e {
        PlanError::Input { message, .. } => one_line(&format!("{input}: {message}")),
        PlanError::Kubectl(m) | PlanError::Conflict(m) => one_line(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::InputDoc;
    use std::error::Error as _;

    fn plan(source: PlanError) -> Error {
        Error::Plan {
            input: "local.yaml".into(),
            source,
        }
    }

    #[test]
    fn exit_codes_per_variant() {
        let not_found = || io::Error::from(io::ErrorKind::NotFound);
        let load = LoadError {
            file: "f.yaml".into(),
            line: 1,
            col: 2,
            message: "bad".into(),
        };
        let cases = [
            (Error::Input("x".into()), 2),
            (Error::Failed("x".into()), 1),
            (Error::read(Path::new("a.yaml"), not_found()), 2),
            (Error::io(Path::new("a.yaml"), not_found()), 2),
            (Error::Document(load), 2),
            (
                plan(PlanError::Input {
                    about: InputDoc::Local,
                    message: "no kind".into(),
                }),
                2,
            ),
            (plan(PlanError::Kubectl("refused".into())), 1),
            (plan(PlanError::Conflict("changed".into())), 1),
            (Error::Cluster(ClusterError::NotBuilt), 2),
            (Error::Failed("x".into()).context("apps/Deployment web"), 1),
            (Error::Input("x".into()).context("apps/Deployment web"), 2),
            (
                Error::from(WriteError::Changed(PathBuf::from("live.yaml"))),
                1,
            ),
            (
                Error::from(WriteError::Io(PathBuf::from("live.yaml"), not_found())),
                1,
            ),
            (Error::Terminal(Arc::new(not_found())), 1),
            (Error::TempFile(Arc::new(not_found())), 1),
            (
                Error::EditorStart {
                    editor: "vi".into(),
                    source: Arc::new(not_found()),
                },
                1,
            ),
            (Error::output(io::Error::from(io::ErrorKind::BrokenPipe)), 1),
        ];
        for (e, code) in cases {
            assert_eq!(e.exit_code(), code, "{e:?}");
        }
    }

    #[test]
    fn read_names_the_file_and_keeps_the_io_error_as_source() {
        let e = Error::read(
            Path::new("dir/live.yaml"),
            io::Error::from(io::ErrorKind::NotFound),
        );
        assert_eq!(e.to_string(), "dir/live.yaml: no such file");
        let source = e.source().map(ToString::to_string);
        assert_eq!(
            source,
            Some(io::Error::from(io::ErrorKind::NotFound).to_string())
        );
        let io = e
            .source()
            .and_then(|s| s.downcast_ref::<Arc<io::Error>>())
            .map(|e| e.kind());
        assert_eq!(io, Some(io::ErrorKind::NotFound));
        // Said of an object, the chain still reaches the file and the I/O error.
        let e = e.context("v1/ConfigMap x");
        assert_eq!(e.to_string(), "v1/ConfigMap x: dir/live.yaml: no such file");
        let file = e.source().map(ToString::to_string);
        assert_eq!(file.as_deref(), Some("dir/live.yaml: no such file"));
        assert!(e.source().and_then(std::error::Error::source).is_some());
    }

    #[test]
    fn messages_are_one_line() {
        let e = Error::Input("a.yaml: first\n   second  \n\nthird".into());
        assert_eq!(e.to_string(), "a.yaml: first second third");
        let e = plan(PlanError::Input {
            about: InputDoc::Live,
            message: "no\nkind".into(),
        });
        assert_eq!(e.to_string(), "local.yaml: no kind");
    }

    #[test]
    fn plan_errors_keep_the_engine_error_as_source() {
        let e = plan(PlanError::Kubectl("refused".into()));
        assert!(e.is_refusal());
        let source = e.source().and_then(|s| s.downcast_ref::<PlanError>());
        assert_eq!(source, Some(&PlanError::Kubectl("refused".into())));
    }
}
