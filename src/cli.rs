//! The command line: arguments (clap), reading inputs, running the engine, writing results.
//!
//! Exit status: 0 success, 1 the operation failed (e.g. a three-way conflict, a patch the
//! reference rejects), 2 bad input (unreadable or malformed files, bad arguments).

mod apply_ssa;
mod args;
mod cluster;
pub mod diff;
pub mod external;
mod how;
pub mod invocation;
mod last_applied;
mod patch;
pub mod plan;
pub mod progress;
mod saved;

use std::io::IsTerminal as _;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::session::open::{Open, OpenRequest};
use crate::session::{EditOptions, input, objects};

use crate::error::Error;
pub use cluster::{ApplyArgs, ClusterArgs};
pub use patch::PatchCommand;

/// See what `kubectl apply` will do to a live Kubernetes object, field by field, and why.
#[derive(Debug, Parser)]
///
/// With no command it opens the TUI (when stdout is a terminal; otherwise it prints the text
/// plan): on the first built-in example, on `--example NAME`, or on files (`-f LOCAL --live LIVE`).
#[command(name = "applyscope", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub open: OpenArgs,
}

/// What the TUI opens.
#[derive(Debug, Default, Args)]
pub struct OpenArgs {
    /// The file you would apply (`--local` is an alias of `-f`); also a directory or `-`
    /// (standard input), repeatable: input holding several objects opens the object list.
    #[arg(
        short = 'f',
        long = "local",
        visible_alias = "filename",
        conflicts_with = "example",
        value_name = "FILE|DIR|-"
    )]
    pub local: Vec<PathBuf>,
    /// The live object, as a file (e.g. `kubectl get -o yaml`); with several objects, files or
    /// directories matched by group, kind, namespace and name. Repeatable.
    #[arg(
        long,
        requires = "local",
        conflicts_with = "no_live",
        value_name = "FILE|DIR|-"
    )]
    pub live: Vec<PathBuf>,
    /// Read directories recursively.
    #[arg(short = 'R', long, requires = "local")]
    pub recursive: bool,
    /// The object does not exist yet: a create.
    #[arg(long, requires = "local")]
    pub no_live: bool,
    /// The last-applied configuration (default: the live object's annotation).
    #[arg(long, requires = "local")]
    pub last_applied: Option<PathBuf>,
    /// A built-in example (`applyscope examples` lists them).
    #[arg(long, value_name = "NAME")]
    pub example: Option<String>,
    /// TUI: the keys that edit and commit last-applied are off.
    #[arg(long)]
    pub read_only: bool,
    /// TUI: a commit shows what it would write, and writes nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// TUI: a commit writes the last-applied document alone to PATH (not the live file).
    #[arg(long, value_name = "PATH")]
    pub write_last_applied: Option<PathBuf>,
    /// Cluster mode: the namespace for an object whose file names none (default: the
    /// context's).
    #[arg(long, short = 'n', requires = "local")]
    pub namespace: Option<String>,
    /// TUI: start in the server-side view (`=false`: the client-side plan). Without the flag,
    /// kubectl's preferences (kuberc) decide, as for `plan`.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub server_side: Option<bool>,
    /// TUI, server-side: the manager that applies (default `kubectl`, or the kuberc's).
    #[arg(long, value_name = "NAME")]
    pub field_manager: Option<String>,
    /// kubectl's preferences file (default: `$KUBERC`, else `~/.kube/kuberc`).
    #[arg(long, value_name = "PATH")]
    pub kuberc: Option<PathBuf>,
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Strategic merge patch / JSON merge patch / JSON patch primitives.
    #[command(subcommand)]
    Patch(PatchCommand),
    /// What `kubectl apply` would send, the live object after it, and every field's action and why.
    Plan(plan::PlanArgs),
    /// Like `kubectl diff`: a unified diff of each live object against the result of the apply
    /// (exit 0 no differences, 1 differences, 2 error).
    Diff(diff::DiffArgs),
    /// View or edit the last-applied annotation in a live object's file.
    #[command(subcommand, name = "last-applied")]
    LastApplied(last_applied::LastAppliedCommand),
    /// List the built-in examples (open one with `--example NAME`).
    Examples,
    /// Print the shell completion script: `applyscope completions bash > /etc/bash_completion.d/applyscope`.
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `applyscope man > ~/.local/share/man/man1/applyscope.1`.
    Man,
    /// Send what `kubectl apply` would send to the cluster (with `--yes`; a server dry run
    /// first). Without `--yes`, print the requests and send nothing.
    Apply(ApplyArgs),
}

/// What a run does once the command line is read: print, or open the TUI (the runtime's, in
/// `tui`, which `main` calls).
pub enum Run {
    /// Print this on standard output.
    Print(String),
    /// Open this in the TUI (the screen is up before it is read).
    Tui(Box<OpenRequest>),
    /// Show this in the TUI, then exit with this status (`kubectl diff`'s external diff: 1 when
    /// the objects differ).
    Explore(Box<Open>, u8),
    /// Print `stdout`, then each of `stderr` as a line naming the program, and exit with
    /// `code` (2 when `stdout` could not be written). The commands over many objects end so:
    /// `kubectl diff`'s contract is "exit 1 with the differences on stdout", and a plan over
    /// many objects prints every plan even when one object fails.
    Report {
        stdout: String,
        stderr: Vec<String>,
        code: u8,
    },
}

/// kubectl diff's call of its external diff program (`KUBECTL_EXTERNAL_DIFF=applyscope`):
/// `args` (without the program's name) are two directories named `LIVE-*` and `MERGED-*`, then
/// flags.
#[must_use]
pub fn kubectl_diff_call(args: &[std::ffi::OsString]) -> Option<crate::session::external::Call> {
    crate::session::external::recognise(args)
}

/// Run a parsed command line: what to print on stdout, or what the TUI opens.
///
/// # Errors
/// [`Error`] with the exit status and the one-line message for stderr.
pub fn run(cli: Cli) -> Result<Run, Error> {
    let out = match cli.command {
        Some(Command::Patch(cmd)) => patch::run(&cmd),
        Some(Command::Plan(args)) => return plan::run(&args),
        Some(Command::Diff(args)) => return diff::main(&args),
        Some(Command::LastApplied(cmd)) => last_applied::run(&cmd),
        Some(Command::Examples) => Ok(list_examples()),
        Some(Command::Completions { shell }) => invocation::completions(shell, invocation::BIN),
        Some(Command::Man) => invocation::man(),
        Some(Command::Apply(args)) => return saved::apply_command(&args),
        None => return open(&cli.open),
    };
    out.map(Run::Print)
}

/// `applyscope examples`: one line per example, its name and what it teaches.
fn list_examples() -> String {
    let width = crate::examples::EXAMPLES
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for e in crate::examples::EXAMPLES {
        let about = e.about.split_whitespace().collect::<Vec<_>>().join(" ");
        let about = match about.char_indices().nth(90) {
            Some((i, _)) => format!("{}…", &about[..i]),
            None => about,
        };
        out.push_str(&format!("{:<width$}  {about}\n", e.name));
    }
    out
}

impl OpenArgs {
    /// What these arguments ask to open, as the session reads it.
    ///
    /// # Errors
    /// [`Error::Input`] for an unknown `--example`, a kuberc kubectl cannot read.
    pub fn request(&self) -> Result<OpenRequest, Error> {
        let example = match &self.example {
            Some(name) => Some(crate::examples::find(name).ok_or_else(|| {
                Error::Input(format!(
                    "no example {name:?}; `{} examples` lists them",
                    invocation::name()
                ))
            })?),
            None => None,
        };
        Ok(OpenRequest {
            local: self.local.clone(),
            live: self.live.clone(),
            recursive: self.recursive,
            no_live: self.no_live,
            last_applied: self.last_applied.clone(),
            example,
            options: EditOptions {
                read_only: self.read_only,
                dry_run: self.dry_run,
                write_last_applied: self.write_last_applied.clone(),
                mode: Some(
                    how::ModeFlags {
                        server_side: self.server_side,
                        kuberc: self.kuberc.as_deref(),
                        field_manager: self.field_manager.as_deref(),
                        force_conflicts: None,
                    }
                    .resolve()?,
                ),
                field_manager: self.field_manager.clone(),
            },
            conn: self.cluster.conn(self.namespace.as_deref()),
            openapi_patch: self.cluster.openapi_patch,
            fail_alone: false,
        })
    }
}

/// The no-command run: the TUI on a terminal, the text plan otherwise.
fn open(args: &OpenArgs) -> Result<Run, Error> {
    let request = args.request()?;
    if std::io::stdout().is_terminal() {
        return Ok(Run::Tui(Box::new(request)));
    }
    let open = crate::session::open::open(&request)?;
    let run = match open {
        Open::One(one) => {
            let text = plan::render(&one.plan, plan::Format::Text)?;
            Run::Print(match one.example {
                Some(e) => format!("example {}: {}\n{text}", e.name, e.about.trim()),
                None => text,
            })
        }
        Open::Many(many) => plan::print_many(&many.pairs, &many.plans, plan::Format::Text)?,
    };
    // Without a terminal the text plan is client-side's: say so when the mode is not.
    Ok(
        match request.options.mode.as_ref().filter(|m| m.server_side) {
            Some(mode) => with_warnings(
                run,
                vec![format!(
                    "mode: {}; this text plan is client-side's: `{} plan` prints the server-side one",
                    mode.describe(),
                    invocation::name()
                )],
            ),
            None => run,
        },
    )
}

/// How a command over many objects ends: [`Run::Print`] when all went well, else
/// [`Run::Report`] with the failures' lines for stderr and the exit status `code`.
#[must_use]
pub fn finish(stdout: String, stderr: Vec<String>, code: i32) -> Run {
    if code == 0 && stderr.is_empty() {
        return Run::Print(stdout);
    }
    Run::Report {
        stdout,
        stderr,
        code: u8::try_from(code).unwrap_or(1),
    }
}

/// `run` with `warnings` for stderr (kubectl's kuberc warnings): before the failures' lines,
/// exit status unchanged. A TUI run shows them in its status line instead.
#[must_use]
pub fn with_warnings(run: Run, warnings: Vec<String>) -> Run {
    if warnings.is_empty() {
        return run;
    }
    match run {
        Run::Print(stdout) => Run::Report {
            stdout,
            stderr: warnings,
            code: 0,
        },
        Run::Report {
            stdout,
            stderr,
            code,
        } => Run::Report {
            stdout,
            stderr: warnings.into_iter().chain(stderr).collect(),
            code,
        },
        run => run,
    }
}
