//! How the binary was called, and what it says about itself: shell completions and the man page,
//! generated from the clap definition so they never drift from it.
//!
//! kubectl runs a plugin by finding an executable named `kubectl-applyscope` on `PATH` and
//! starting it with that path as its first argument: run that way, help, usage and errors name
//! the command `kubectl applyscope`, as the user typed it.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::OnceLock;

use clap::CommandFactory as _;

use super::Cli;
use crate::error::Error;

/// The executable's name as a kubectl plugin (`kubectl applyscope …`).
pub const PLUGIN_FILE: &str = "kubectl-applyscope";

/// The binary's own name.
pub const BIN: &str = "applyscope";

static NAME: OnceLock<&'static str> = OnceLock::new();

/// The command as the user typed it, from the program's first argument: `kubectl applyscope`
/// when it is the plugin executable (`kubectl-applyscope`, `.exe` on Windows), else `applyscope`.
#[must_use]
pub fn name_for(argv0: Option<&OsStr>) -> &'static str {
    let stem = argv0
        .and_then(|a| Path::new(a).file_stem())
        .and_then(OsStr::to_str);
    if stem == Some(PLUGIN_FILE) {
        "kubectl applyscope"
    } else {
        BIN
    }
}

/// Remember how the program was called (once, at start; later calls change nothing).
pub fn set_name(name: &'static str) {
    let _ = NAME.set(name);
}

/// The command's name as called (`applyscope` until [`set_name`]).
#[must_use]
pub fn name() -> &'static str {
    NAME.get().copied().unwrap_or(BIN)
}

/// The clap command, named as called (usage lines and errors say `kubectl applyscope` in the
/// plugin).
#[must_use]
pub fn command() -> clap::Command {
    let name = name();
    Cli::command().name(name).bin_name(name)
}

/// `applyscope completions SHELL`: the completion script for the binary `applyscope` (and,
/// installed under that name, for the plugin executable `kubectl-applyscope`).
///
/// # Errors
/// Never in practice: the script is UTF-8 text.
pub fn completions(shell: clap_complete::Shell, bin: &str) -> Result<String, Error> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), bin, &mut out);
    String::from_utf8(out).map_err(|e| Error::Failed(format!("completions: {e}")))
}

/// `applyscope man`: the man page (roff): synopsis, options, and every subcommand with what it
/// does (`applyscope help COMMAND` has each one's options).
///
/// # Errors
/// Never in practice: the page is written to memory.
pub fn man() -> Result<String, Error> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| Error::Failed(format!("man: {e}")))?;
    String::from_utf8(out).map_err(|e| Error::Failed(format!("man: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_executable_is_named_as_kubectl_calls_it() {
        for argv0 in [
            "/usr/local/bin/kubectl-applyscope",
            "kubectl-applyscope",
            "C:\\bin\\kubectl-applyscope.exe",
        ] {
            let want = if argv0.contains('\\') && !cfg!(windows) {
                BIN
            } else {
                "kubectl applyscope"
            };
            assert_eq!(name_for(Some(OsStr::new(argv0))), want, "{argv0}");
        }
        for argv0 in [
            "applyscope",
            "/x/target/release/applyscope",
            "kubectl-applyscopes",
        ] {
            assert_eq!(name_for(Some(OsStr::new(argv0))), BIN, "{argv0}");
        }
        assert_eq!(name_for(None), BIN);
    }
}
