//! The command line: arguments (clap), reading inputs, running the engine, writing results.
//!
//! Exit status: 0 success, 1 the operation failed (e.g. a three-way conflict, a patch the
//! reference rejects), 2 bad input (unreadable or malformed files, bad arguments).

mod input;
mod patch;
pub mod plan;

use std::fmt;

use clap::{Parser, Subcommand};

pub use patch::PatchCommand;

/// See what `kubectl apply` will do to a live Kubernetes object, field by field, and why.
#[derive(Debug, Parser)]
#[command(name = "applyscope", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Strategic merge patch / JSON merge patch / JSON patch primitives.
    #[command(subcommand)]
    Patch(PatchCommand),
    /// What `kubectl apply` would send, the live object after it, and every field's action and why.
    Plan(plan::PlanArgs),
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
        None => example_plan(&crate::examples::EXAMPLES[0]),
    }
}

/// The plan of a built-in example, as text.
fn example_plan(example: &crate::examples::Example) -> Result<String, CliError> {
    let parse = |text: &str, name: &str| -> Result<serde_json::Value, CliError> {
        let mut docs = crate::document::parse_documents(text, name)
            .map_err(|e| CliError::Input(e.to_string()))?;
        if docs.len() == 1 {
            Ok(docs.remove(0).value)
        } else {
            Err(CliError::Input(format!("{name}: expected one document")))
        }
    };
    let docs = plan::PlanDocs {
        local: parse(example.local, "local.yaml")?,
        live: example.live.map(|t| parse(t, "live.yaml")).transpose()?,
        last_applied: example
            .last_applied
            .map(|t| parse(t, "last-applied.yaml"))
            .transpose()?,
    };
    let p = plan::compute(&docs, None, true)?;
    let mut out = format!("example {}: {}\n", example.name, example.about.trim());
    out.push_str(&plan::render(&p, plan::Format::Text)?);
    Ok(out)
}
