//! The command line in cluster mode: the live objects read from the cluster (`plan`, `diff`,
//! `last-applied`, the TUI) when neither `--live` nor `--no-live` is given, and `apply`.
//! Every cluster error is one line and exit status 2; nothing is sent without `--yes`.

use std::path::PathBuf;

use clap::Args;

use crate::cluster::{Conn, Validation};
use crate::error::Error;

/// The kubectl flags of cluster mode.
#[derive(Debug, Clone, Args)]
pub struct ClusterArgs {
    /// The kubeconfig file (default: `KUBECONFIG`, else `~/.kube/config`, else in-cluster).
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context (default: the current context).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// With false, patch metadata comes from the embedded schema, not the server's OpenAPI.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub openapi_patch: bool,
    /// The server-side field validation of a PATCH or POST, as `kubectl apply --validate`.
    #[arg(long, value_enum, default_value_t = Validation::Strict, value_name = "MODE")]
    pub validate: Validation,
    /// How long one request may take, as kubectl's flag (`30s`, `2m`; default 60 s; connect
    /// 10 s and each read 30 s at most).
    #[arg(long, value_name = "DURATION", value_parser = parse_timeout)]
    pub request_timeout: Option<std::time::Duration>,
}

/// Read `--request-timeout` as kubectl writes it: a number of seconds, or with a unit (`500ms`,
/// `30s`, `2m`, `1h`). Zero (kubectl: no timeout) is refused: requests stay bounded.
///
/// # Errors
/// [`Error::Input`], which clap shows after the flag.
pub fn parse_timeout(text: &str) -> Result<std::time::Duration, Error> {
    let (digits, unit) = text
        .find(|c: char| !c.is_ascii_digit())
        .map_or((text, ""), |i| text.split_at(i));
    let n: u64 = digits.parse().map_err(|_| {
        Error::Input(format!(
            "{text:?}: expected a duration such as 30s, 2m or 500ms"
        ))
    })?;
    let d = match unit {
        "" | "s" => std::time::Duration::from_secs(n),
        "ms" => std::time::Duration::from_millis(n),
        "m" => std::time::Duration::from_secs(n.saturating_mul(60)),
        "h" => std::time::Duration::from_secs(n.saturating_mul(3600)),
        _ => {
            return Err(Error::Input(format!(
                "{text:?}: unknown unit {unit:?} (ms, s, m, h)"
            )));
        }
    };
    if d.is_zero() {
        return Err(Error::Input(
            "must be more than 0 (requests are always bounded)".into(),
        ));
    }
    Ok(d)
}

impl Default for ClusterArgs {
    fn default() -> Self {
        ClusterArgs {
            kubeconfig: None,
            context: None,
            openapi_patch: true,
            validate: Validation::Strict,
            request_timeout: None,
        }
    }
}

impl ClusterArgs {
    #[must_use]
    pub fn conn(&self, namespace: Option<&str>) -> Conn {
        Conn {
            kubeconfig: self.kubeconfig.clone(),
            context: self.context.clone(),
            namespace: namespace.map(str::to_owned),
            validation: self.validate,
            request_timeout: self.request_timeout,
        }
    }
}

/// A cluster error as the command line reports it: exit 2, one line.
#[cfg(feature = "cluster")]
#[must_use]
pub fn error(e: &crate::cluster::ClusterError) -> Error {
    crate::session::cluster::error(e)
}

/// `applyscope apply`: send what `kubectl apply` would send.
#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// The files to apply: a file, a directory, or `-` (standard input); repeatable.
    #[arg(
        long,
        short = 'f',
        visible_alias = "filename",
        required_unless_present = "plan",
        conflicts_with = "plan",
        value_name = "FILE|DIR|-"
    )]
    pub local: Vec<PathBuf>,
    /// Send exactly the requests of a plan saved with `plan --save FILE`, after checking that
    /// its files and live objects are unchanged (a server dry run of each first).
    #[arg(long, value_name = "FILE", requires = "yes")]
    pub plan: Option<PathBuf>,
    /// As kubectl's flag: which apply kubectl would run. Without it, kubectl's preferences
    /// (kuberc) decide. Server-side: kubectl's `--server-side` requests (`apply_ssa`).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub server_side: Option<bool>,
    /// kubectl's preferences file (default: `$KUBERC`, else `~/.kube/kuberc`).
    #[arg(long, value_name = "PATH")]
    pub kuberc: Option<PathBuf>,
    /// Read directories recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
    /// The namespace for objects whose file names none (default: the context's).
    #[arg(long, short = 'n')]
    pub namespace: Option<String>,
    /// With false, refuse the apply as `kubectl apply --overwrite=false` does.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub overwrite: bool,
    /// Send: a server dry run of every object first (`dryRun=All`), then the requests.
    /// Without it, print what would be sent and send nothing.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Send only the server dry run (`dryRun=All`) and print the server's answer.
    #[arg(long, conflicts_with = "yes")]
    pub server_dry_run: bool,
    /// Server-side: the manager that applies (default `kubectl`, or the kuberc's).
    #[arg(long, value_name = "NAME")]
    pub field_manager: Option<String>,
    /// Server-side: take the fields other managers own instead of failing.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub force_conflicts: Option<bool>,
    #[command(flatten)]
    pub cluster: ClusterArgs,
    #[command(flatten)]
    pub progress: super::progress::ProgressArgs,
}

#[cfg(feature = "cluster")]
pub use imp::*;

#[cfg(not(feature = "cluster"))]
pub use absent::*;

#[cfg(not(feature = "cluster"))]
mod absent {
    use super::{ApplyArgs, Error};
    pub use crate::session::cluster::not_built;

    /// # Errors
    /// Always: not built.
    pub fn apply(_: &ApplyArgs) -> Result<String, Error> {
        Err(not_built())
    }
}

#[cfg(feature = "cluster")]
mod imp {
    use std::fmt::Write as _;

    use crate::value::Value;

    use super::{ApplyArgs, ClusterArgs, error};
    use crate::cli::objects::{self, Object};
    use crate::cluster::{self, Cluster, Request};
    use crate::engine::jsonmerge;
    use crate::error::Error;
    pub use crate::session::cluster::Planned;
    use crate::session::progress::Progress;

    /// Connect with the flags.
    ///
    /// # Errors
    /// The configuration cannot be read.
    pub fn connect(args: &ClusterArgs, namespace: Option<&str>) -> Result<Cluster, Error> {
        crate::session::cluster::connect(&args.conn(namespace))
    }

    /// Read every local object's live object from the cluster and plan it.
    ///
    /// # Errors
    /// Any cluster error (exit 2, naming the object's file).
    pub fn load_and_plan(
        locals: Vec<Object>,
        args: &ClusterArgs,
        namespace: Option<&str>,
        overwrite: bool,
        last_applied: Option<&Value>,
        progress: &Progress,
    ) -> Result<Planned, Error> {
        let read = crate::session::cluster::Read {
            openapi_patch: args.openapi_patch,
            overwrite,
            fail_alone: false,
        };
        crate::session::cluster::load_and_plan_reporting(
            locals,
            &args.conn(namespace),
            read,
            last_applied,
            progress,
        )
    }

    /// Read the local files as `-f` does.
    ///
    /// # Errors
    /// Bad input.
    pub fn read_locals(
        files: &[std::path::PathBuf],
        recursive: bool,
    ) -> Result<Vec<Object>, Error> {
        let mut stdin_used = false;
        objects::read_all(files, recursive, &mut stdin_used)
    }

    /// A request, for a reader: the line and the body.
    #[must_use]
    pub fn show_request(request: &Request) -> String {
        let mut s = format!("{}\n", request.describe());
        if request.resource == "secrets" {
            s.push_str("(the body of a Secret is not printed)\n");
        } else if let Some(body) = &request.body {
            s.push_str(body);
            s.push('\n');
        }
        s
    }

    /// `applyscope apply`.
    ///
    /// # Errors
    /// Bad input and cluster errors (exit 2); a plan kubectl would refuse (exit 1).
    pub fn apply(args: &ApplyArgs) -> Result<String, Error> {
        let locals = read_locals(&args.local, args.recursive)?;
        let shown = args.progress.show();
        let planned = load_and_plan(
            locals,
            &args.cluster,
            args.namespace.as_deref(),
            args.overwrite,
            None,
            shown.progress(),
        )?;
        let validation = args.cluster.validate;
        let mut requests = Vec::new();
        for item in planned.each_planned() {
            let (_, loaded, plan) = item?;
            let real = cluster::apply_request(&loaded.target, plan, validation, false)
                .map_err(|e| error(&e))?;
            let dry = cluster::apply_request(&loaded.target, plan, validation, true)
                .map_err(|e| error(&e))?;
            // A 409 a file's old resourceVersion causes says so (the lock's warning).
            let stale = plan
                .warnings
                .iter()
                .find(|w| w.code == crate::engine::plan::Code::StaleResourceVersion)
                .map(|w| w.message.clone());
            requests.push((loaded, real, dry, stale));
        }
        let mut out = String::new();
        if !args.yes && !args.server_dry_run {
            for (loaded, real, _, _) in &requests {
                match real {
                    Some(r) => {
                        let _ = write!(out, "{}: would send ", loaded.target.describe());
                        out.push_str(&show_request(r));
                    }
                    None => {
                        let _ = writeln!(
                            out,
                            "{}: unchanged, nothing to send",
                            loaded.target.describe()
                        );
                    }
                }
            }
            out.push_str(
                "nothing sent: pass --yes to send (after a server dry run), or --server-dry-run\n",
            );
            return Ok(out);
        }
        // Every dry run first: nothing is sent for real unless the server accepts them all.
        for (loaded, _, dry, stale) in &requests {
            let Some(dry) = dry else { continue };
            let answer = planned.cluster.commit(dry).map_err(|e| {
                let why = match stale {
                    Some(why) if e.is_conflict() => format!(" ({why})"),
                    _ => String::new(),
                };
                Error::Input(format!(
                    "server dry run of {}: {e}{why}",
                    loaded.target.describe()
                ))
            })?;
            let _ = writeln!(
                out,
                "{}: server dry run accepted ({})",
                loaded.target.describe(),
                dry.describe()
            );
            if args.server_dry_run {
                out.push_str(&jsonmerge::to_yaml(&cluster::without_managed_fields(
                    &answer,
                )));
            }
        }
        if args.server_dry_run {
            out.push_str("server dry run only: nothing was changed\n");
            return Ok(out);
        }
        for (loaded, real, _, _) in &requests {
            let Some(real) = real else {
                let _ = writeln!(out, "{}: unchanged", loaded.target.describe());
                continue;
            };
            let answer = planned.cluster.commit(real).map_err(|e| {
                Error::Input(format!(
                    "{}: {e} (objects before it were applied)",
                    loaded.target.describe()
                ))
            })?;
            let verb = if real.verb == cluster::Verb::Post {
                "created"
            } else {
                "configured"
            };
            let _ = writeln!(
                out,
                "{}: {verb} (resourceVersion {})",
                loaded.target.describe(),
                cluster::resource_version(&answer).unwrap_or("?")
            );
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_read_as_kubectl_writes_them() {
        use std::time::Duration;
        assert_eq!(parse_timeout("5"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_timeout("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_timeout("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("1d").is_err());
        assert!(parse_timeout("x").is_err());
    }
}
