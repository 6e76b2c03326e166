//! The command line: arguments (clap), reading inputs, running the engine, writing results.
//!
//! Exit status: 0 success, 1 the operation failed (e.g. a three-way conflict, a patch the
//! reference rejects), 2 bad input (unreadable or malformed files, bad arguments).

mod cluster;
pub mod diff;
mod input;
pub mod invocation;
mod last_applied;
pub mod list;
pub mod objects;
mod patch;
pub mod plan;

use std::fmt;
use std::io::IsTerminal as _;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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

/// Why a command failed, and so its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    /// Bad input: exit 2. The message names the file and place.
    Input(String),
    /// The operation failed: exit 1.
    Failed(String),
}

impl CliError {
    /// The process exit status for this error.
    #[must_use]
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    /// Always one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (CliError::Input(m) | CliError::Failed(m)) = self;
        let one_line: Vec<&str> = m.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        f.write_str(&one_line.join(" "))
    }
}

/// Run a parsed command line; returns what to print on stdout.
///
/// # Errors
/// [`CliError`] with the exit status and the one-line message for stderr.
pub fn run(cli: Cli) -> Result<String, CliError> {
    match cli.command {
        Some(Command::Patch(cmd)) => patch::run(&cmd),
        Some(Command::Plan(args)) => plan::run(&args),
        Some(Command::Diff(args)) => diff::main(&args),
        Some(Command::LastApplied(cmd)) => last_applied::run(&cmd),
        Some(Command::Examples) => Ok(list_examples()),
        Some(Command::Completions { shell }) => invocation::completions(shell, invocation::BIN),
        Some(Command::Man) => invocation::man(),
        Some(Command::Apply(args)) => cluster::apply(&args),
        None => open(&cli.open),
    }
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

/// The no-command run: the TUI on a terminal, the text plan otherwise.
fn open(args: &OpenArgs) -> Result<String, CliError> {
    let example = match &args.example {
        Some(name) => Some(crate::examples::find(name).ok_or_else(|| {
            CliError::Input(format!(
                "no example {name:?}; `{} examples` lists them",
                invocation::name()
            ))
        })?),
        None if args.local.is_empty() => crate::examples::EXAMPLES.first(),
        None => None,
    };
    let tty = std::io::stdout().is_terminal();
    let source = match (example, args.local.as_slice()) {
        (Some(e), _) if !tty => return example_plan(e),
        (Some(e), _) => crate::app::Source::from_example(e)?,
        (None, []) => return Err(CliError::Input("no examples built in".into())),
        (None, [local]) if args.live.is_empty() && !args.no_live && !list::many_sources(local) => {
            // One read decides: several objects open the list; one opens its panes; none, or a
            // file that does not parse, gets the one-object reading's error.
            let mut stdin_used = false;
            return match objects::read_all(std::slice::from_ref(local), false, &mut stdin_used) {
                Ok(objs) if objs.len() > 1 => list::open_cluster(args, tty, Some(objs)),
                Ok(mut objs) if objs.len() == 1 => {
                    open_cluster(args, local, objs.remove(0).value, tty)
                }
                _ => open_cluster(args, local, input::read_one_object(local)?, tty),
            };
        }
        (None, [local]) if list::single_candidate(args) => match files_source(args, local) {
            Ok(source) => source,
            Err(e) => return list::open(args, tty, Some(e)),
        },
        (None, _) => return list::open(args, tty, None),
    };
    if !tty {
        let p = plan::compute(&source.docs, None, true)?;
        return plan::render(&p, plan::Format::Text);
    }
    let model = crate::app::Model::new(source)?;
    let options = crate::app::EditOptions {
        read_only: args.read_only,
        dry_run: args.dry_run,
        write_last_applied: args.write_last_applied.clone(),
    };
    let files = match (example, args.local.first()) {
        (None, Some(local)) => Some(crate::app::Files {
            local: local.clone(),
            live: args.live.first().cloned(),
            last_applied: args.last_applied.clone(),
        }),
        _ => None,
    };
    let model = crate::tui::prepare(model, options, files).map_err(CliError::Input)?;
    run_tui(crate::app::App::One(Box::new(model)))
}

/// Run the TUI until the user quits, in the theme `NO_COLOR` asks for; nothing to print.
///
/// # Errors
/// [`CliError::Failed`] on a terminal error.
pub(crate) fn run_tui(app: crate::app::App) -> Result<String, CliError> {
    let no_color = std::env::var("NO_COLOR").ok();
    let theme = crate::theme::Theme::from_no_color(no_color.as_deref());
    crate::tui::run_app(app, &theme).map_err(|e| CliError::Failed(format!("terminal: {e}")))?;
    Ok(String::new())
}

/// `-f LOCAL` with neither `--live` nor `--no-live`: the live object comes from the cluster.
#[cfg(feature = "cluster")]
fn open_cluster(
    args: &OpenArgs,
    local: &std::path::Path,
    local_obj: crate::value::Value,
    tty: bool,
) -> Result<String, CliError> {
    if args.write_last_applied.is_some() {
        return Err(CliError::Input(
            "--write-last-applied works with --live FILE; in cluster mode a commit patches the object's annotation".into(),
        ));
    }
    let last_applied = args
        .last_applied
        .as_deref()
        .map(input::read_object)
        .transpose()?;
    let conn = args.cluster.conn(args.namespace.as_deref());
    let (source, session) = crate::cluster::open(
        &conn,
        local_obj,
        last_applied,
        args.cluster.openapi_patch,
        &local.display().to_string(),
    )
    .map_err(|e| CliError::Input(format!("{}: {e}", local.display())))?;
    let model = crate::app::Model::from_cluster(source, session)?;
    if !tty {
        return plan::render(&model.plan, plan::Format::Text);
    }
    let mut model = model;
    model.edit.options = crate::app::EditOptions {
        read_only: args.read_only,
        dry_run: args.dry_run,
        write_last_applied: None,
    };
    run_tui(crate::app::App::One(Box::new(model)))
}

#[cfg(not(feature = "cluster"))]
fn open_cluster(
    _: &OpenArgs,
    _: &std::path::Path,
    _: crate::value::Value,
    _: bool,
) -> Result<String, CliError> {
    Err(cluster::not_built())
}

/// The documents named by `-f`, `--live`, `--last-applied`.
fn files_source(args: &OpenArgs, local: &std::path::Path) -> Result<crate::app::Source, CliError> {
    let live = match (args.live.first(), args.no_live) {
        (Some(path), _) => Some(input::read_one_object(path)?),
        (None, true) => None,
        (None, false) => {
            return Err(CliError::Input(
                "no live object: pass --live FILE, or --no-live for a create".into(),
            ));
        }
    };
    let title = match args.live.first() {
        Some(l) => format!("{} → {}", local.display(), l.display()),
        None => format!("{} (create)", local.display()),
    };
    Ok(crate::app::Source {
        title,
        about: String::new(),
        docs: plan::PlanDocs {
            local: input::read_one_object(local)?,
            live,
            last_applied: args
                .last_applied
                .as_deref()
                .map(input::read_object)
                .transpose()?,
        },
    })
}

/// The plan of a built-in example, as text.
fn example_plan(example: &crate::examples::Example) -> Result<String, CliError> {
    let source = crate::app::Source::from_example(example)?;
    let p = plan::compute(&source.docs, None, true)?;
    let mut out = format!("example {}: {}\n", example.name, example.about.trim());
    out.push_str(&plan::render(&p, plan::Format::Text)?);
    Ok(out)
}
