//! The `applyscope` binary: a thin wrapper over the library.

use std::io::Write as _;
use std::process::ExitCode;

use applyscope::cli::{Cli, invocation};
use clap::FromArgMatches as _;

fn main() -> ExitCode {
    // Run as kubectl's plugin (`kubectl applyscope`), help and errors say so.
    let name = invocation::name_for(std::env::args_os().next().as_deref());
    invocation::set_name(name);
    let cli = match Cli::from_arg_matches(&invocation::command().get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match applyscope::cli::run(cli) {
        Ok(out) => {
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
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
        }
    }
}
