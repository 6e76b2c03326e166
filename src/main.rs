//! The `applyscope` binary: a thin wrapper over the library. It parses the command line (`cli`),
//! and either prints what the command made or hands what it opened to the TUI (`tui`).

use std::io::Write as _;
use std::process::ExitCode;

use applyscope::cli::{self, Run};
use clap::Parser as _;

fn main() -> ExitCode {
    let out = match cli::run(cli::Cli::parse()) {
        Ok(Run::Print(out)) => out,
        Ok(Run::Tui(open)) => match applyscope::tui::run(*open) {
            Ok(()) => String::new(),
            Err(e) => return failed(&e),
        },
        Err(e) => return failed(&e),
    };
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// The one-line message on stderr, and the error's exit status.
fn failed(e: &applyscope::session::Error) -> ExitCode {
    eprintln!("applyscope: {e}");
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
}
