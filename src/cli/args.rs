//! The arguments of `applyscope plan` (and the output formats it shares with `diff` and the
//! command without a subcommand), and the apply mode they ask for.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::how::{How, ModeFlags};
use crate::session::kuberc::ApplyMode;

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The files you would apply: a file, a directory, or `-` (standard input); repeatable.
    /// One file holding one object gives one plan; anything else, one plan per object.
    #[arg(
        long,
        short = 'f',
        visible_alias = "filename",
        required_unless_present = "example",
        value_name = "FILE|DIR|-"
    )]
    pub local: Vec<PathBuf>,
    /// Plan a built-in example instead of files (`applyscope examples` lists them); with
    /// `--server-side` its live object's managedFields say who owns what.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["local", "live", "no_live", "last_applied"])]
    pub example: Option<String>,
    /// The live objects, as files or directories (e.g. `kubectl get -o yaml`), matched by group,
    /// kind, namespace and name; an object with no live match is a create. Repeatable.
    #[arg(long, conflicts_with = "no_live", value_name = "FILE|DIR|-")]
    pub live: Vec<PathBuf>,
    /// The object does not exist yet: plan a create.
    #[arg(long)]
    pub no_live: bool,
    /// Read directories recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
    /// The last-applied configuration (default: the live object's annotation); one object only.
    #[arg(long)]
    pub last_applied: Option<PathBuf>,
    /// With false, refuse the apply as `kubectl apply --overwrite=false` does.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub overwrite: bool,
    /// The namespace for objects whose file names none.
    #[arg(long, short = 'n')]
    pub namespace: Option<String>,
    /// Output format.
    #[arg(long, short = 'o', value_enum, default_value_t = Format::Text)]
    pub output: Format,
    /// Plan `kubectl apply --server-side` instead: owners (`metadata.managedFields` of the
    /// live objects, from `--live` files or the cluster), conflicts, pruning, kubectl's own
    /// requests. Without the flag, kubectl's preferences (kuberc) decide, as for kubectl.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub server_side: Option<bool>,
    /// Server-side: the manager that applies (default `kubectl`, or the kuberc's).
    #[arg(long, value_name = "NAME")]
    pub field_manager: Option<String>,
    /// Server-side: take the fields other managers own instead of failing.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub force_conflicts: Option<bool>,
    /// Server-side: preview the ownership upgrade (csaupgrade) of this Update manager's fields
    /// to the applier, as Helm 4 and Argo CD do when they switch to server-side apply.
    /// Repeatable.
    #[arg(long, value_name = "NAME")]
    pub migrate_manager: Vec<String>,
    /// kubectl's preferences file (default: `$KUBERC`, else `~/.kube/kuberc`).
    #[arg(long, value_name = "PATH")]
    pub kuberc: Option<PathBuf>,
    /// Write the plan, with the inputs' digests and the exact requests, to FILE (for
    /// `apply --plan FILE`).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// `-o text`: show a Secret's values instead of `***` (`-o json|yaml` are always exact).
    #[arg(long)]
    pub show_secrets: bool,
    #[command(flatten)]
    pub cluster: super::ClusterArgs,
    #[command(flatten)]
    pub progress: super::progress::ProgressArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Yaml,
    /// A report for a pull-request comment (summary table, a section per object).
    Markdown,
}

impl PlanArgs {
    /// The flags that decide the apply mode.
    #[must_use]
    pub fn mode_flags(&self) -> ModeFlags<'_> {
        ModeFlags {
            server_side: self.server_side,
            kuberc: self.kuberc.as_deref(),
            field_manager: self.field_manager.as_deref(),
            force_conflicts: self.force_conflicts,
        }
    }

    /// The manager and `--force-conflicts` of this run, in `mode`.
    #[must_use]
    pub fn how(&self, mode: &ApplyMode) -> How {
        How::from_flags(self.field_manager.as_deref(), self.force_conflicts, mode)
    }
}
