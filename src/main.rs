//! The `applyscope` binary: a thin wrapper over the library. It parses the command line (`cli`),
//! and either prints what the command made or hands what it opened to the TUI (`tui`).

use std::io::Write as _;
use std::process::ExitCode;

use applyscope::cli::{self, Cli, Run, invocation};
use applyscope::error::Error;
use clap::FromArgMatches as _;

/// jemalloc: big plans allocate and free many small sets and values, and glibc's malloc hands
/// large blocks back and takes new ones (the kernel zeroes every page again). Measured in the
/// README (issue 16): a fifth less CPU for a big server-side plan, a lower TUI peak.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    // Run as kubectl's plugin (`kubectl applyscope`), help and errors say so.
    let name = invocation::name_for(std::env::args_os().next().as_deref());
    invocation::set_name(name);
    // `KUBECTL_EXTERNAL_DIFF=applyscope kubectl diff`: kubectl's two directories, no command.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let run = match cli::kubectl_diff_call(&args) {
        Some(call) => cli::external::run(&call),
        None => match Cli::from_arg_matches(&invocation::command().get_matches()) {
            Ok(cli) => cli::run(cli),
            Err(e) => e.exit(),
        },
    };
    let out = match run {
        Ok(Run::Print(out)) => out,
        Ok(Run::Tui(request)) => match applyscope::tui::run_request(*request) {
            Ok(()) => String::new(),
            Err(e) => return failed(name, &e),
        },
        Ok(Run::Explore(open, code)) => match applyscope::tui::run(*open) {
            Ok(()) => return ExitCode::from(code),
            // kubectl diff reads 1 as "differences": any failure is more.
            Err(e) => {
                failed(name, &e);
                return ExitCode::from(2);
            }
        },
        Ok(Run::Report {
            stdout,
            stderr,
            code,
        }) => {
            let written = write_stdout(&stdout);
            for message in stderr {
                eprintln!("{name}: {message}");
            }
            return ExitCode::from(if written { code } else { 2 });
        }
        // Standard output closed (its reader is gone): exit 1, with nothing to say.
        Err(Error::Output(_)) => return ExitCode::from(1),
        Err(e) => return failed(name, &e),
    };
    if write_stdout(&out) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Write `out` on standard output; false when it could not be written (a closed pipe).
fn write_stdout(out: &str) -> bool {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .is_ok()
}

/// The one-line message on stderr, named as the program was called, and the error's exit
/// status.
fn failed(name: &str, e: &Error) -> ExitCode {
    eprintln!("{name}: {e}");
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
}
