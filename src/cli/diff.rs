//! `applyscope diff`: what `kubectl diff` prints, without a cluster: for each object, a unified
//! diff of the live object against the object as it would be after `kubectl apply`.
//!
//! kubectl (1.37, `pkg/cmd/diff/diff.go`) writes each object as YAML into two temporary
//! directories, `LIVE-XXXX` and `MERGED-XXXX`, one file per object named
//! `<group.>version.Kind.namespace.name` (`apps.v1.Deployment.default.web`,
//! `v1.Namespace..payments` for a cluster-scoped object), and runs `diff -u -N` over the two
//! directories. So the output is GNU diff's: objects in file-name order (not input order), each
//! differing object headed by `diff -u -N LIVE/NAME MERGED/NAME`, `--- ...`, `+++ ...`, then
//! hunks with 3 lines of context. Here:
//! - the directories are shown as `/tmp/LIVE-0` and `/tmp/MERGED-0` (kubectl's are random and
//!   deleted when it exits) and the `---`/`+++` lines carry no timestamps;
//! - MERGED is the planned result with the last-applied annotation left as it is live: kubectl
//!   diff computes the patch without its annotation (`GetModifiedConfiguration(obj, false)`),
//!   so a diff never shows the annotation changing; for a create it is the object as the file
//!   has it (with its namespace), without the annotation;
//! - what only a server adds is not simulated (defaults, `generation`, a new
//!   `resourceVersion`), with two exceptions: an empty `metadata.annotations` map is dropped,
//!   and a Secret's `stringData` is folded into `data` (see [`secret`]);
//! - the merged object keeps the live object's `resourceVersion` (none for a create), whatever
//!   the file says: kubectl diff sends the live one with its patch, and its create clears it;
//! - `metadata.managedFields` is hidden unless `--show-managed-fields`; Secret values are
//!   masked unless `--show-secrets` ([`secret`]); a Secret that does not exist yet shows `null`
//!   as its live side, as kubectl's masker prints it.
//!
//! Exit status, as `kubectl diff`: 0 no differences, 1 differences, 2 an error (bad input, or an
//! object kubectl apply would fail on; the other objects' differences are still printed).
//!
//! The mode is `plan`'s: an explicit `--server-side[=BOOL]`, else the kuberc's `apply`
//! defaults ([`crate::session::kuberc`]); in server-side mode the diff is [`ssa`]'s. The
//! unified format is [`unified`]'s.

mod ssa;
mod unified;

pub use unified::render;

use std::io::IsTerminal as _;
use std::path::PathBuf;

use crate::value::Value;
use clap::{Args, ValueEnum};

use super::Run;
use super::how::{How, ModeFlags};
use super::objects::{self, Pair};
use crate::engine::object::{GroupVersion, ObjectRef};
use crate::engine::plan::{LAST_APPLIED, Plan};
use crate::engine::schema::Schema;
use crate::engine::secret;
use crate::error::Error;
use crate::session::progress::Progress;

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Files, directories or `-` (standard input) holding the objects you would apply.
    #[arg(
        short = 'f',
        long = "filename",
        required = true,
        value_name = "FILE|DIR|-"
    )]
    pub files: Vec<PathBuf>,
    /// Live objects: files or directories (e.g. `kubectl get -o yaml` output), matched by group,
    /// kind, namespace and name. An object with no live match is a create.
    #[arg(long, value_name = "FILE|DIR|-", conflicts_with = "no_live")]
    pub live: Vec<PathBuf>,
    /// No object exists yet: every object is a create.
    #[arg(long)]
    pub no_live: bool,
    /// Read directories given with `-f` and `--live` recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
    /// The namespace for objects whose file names none.
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    /// Do not mask Secret values.
    #[arg(long)]
    pub show_secrets: bool,
    /// Include `metadata.managedFields`.
    #[arg(long)]
    pub show_managed_fields: bool,
    /// Colour the diff: `auto` on a terminal unless `NO_COLOR` is set.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// `unified` (kubectl diff's), or `markdown`: a report for a pull-request comment (a
    /// summary riskiest first, then each object's changes, warnings and diff).
    #[arg(long, short = 'o', value_enum, default_value_t = DiffOutput::Unified)]
    pub output: DiffOutput,
    /// Diff against what `kubectl apply --server-side` leaves (the whole command: kubectl's
    /// own requests, the ownership upgrade of a client-side object, the second apply).
    /// Without the flag, kubectl's preferences (kuberc) decide, as for `plan`.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub server_side: Option<bool>,
    /// Server-side: the manager that applies (default `kubectl`, or the kuberc's).
    #[arg(long, value_name = "NAME")]
    pub field_manager: Option<String>,
    /// Server-side: take the fields other managers own instead of failing.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub force_conflicts: Option<bool>,
    /// Server-side: show exactly what `kubectl diff --server-side` shows (its one dry-run
    /// apply: no ownership upgrade, no second apply), to compare; where the whole command
    /// does more, a `ssa-diff-underreports` warning on stderr says what.
    #[arg(long)]
    pub as_kubectl_diff: bool,
    /// kubectl's preferences file (default: `$KUBERC`, else `~/.kube/kuberc`).
    #[arg(long, value_name = "PATH")]
    pub kuberc: Option<PathBuf>,
    #[command(flatten)]
    pub cluster: super::ClusterArgs,
    #[command(flatten)]
    pub progress: super::progress::ProgressArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffOutput {
    Unified,
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// Whether to colour output going to stdout.
    #[must_use]
    pub fn enabled(self) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }
}

/// Options for the two sides of a diff.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub show_secrets: bool,
    pub show_managed_fields: bool,
}

/// One object's two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectDiff {
    /// kubectl's file name: `apps.v1.Deployment.default.web`.
    pub name: String,
    /// The live object as YAML (empty: none; `null`: a Secret that does not exist yet).
    pub live: String,
    /// The object after the apply, as YAML.
    pub merged: String,
}

impl ObjectDiff {
    #[must_use]
    pub fn differs(&self) -> bool {
        self.live != self.merged
    }
}

/// The command: prints the diff and ends the process with kubectl diff's exit status.
///
/// # Errors
/// Bad input, or a kuberc kubectl would fail on (exit 2), before any object is planned.
pub fn main(args: &DiffArgs) -> Result<Run, Error> {
    let mode = ModeFlags {
        server_side: args.server_side,
        kuberc: args.kuberc.as_deref(),
        field_manager: args.field_manager.as_deref(),
        force_conflicts: args.force_conflicts,
    }
    .resolve()?;
    let mut notes = mode.warnings.clone();
    if mode.from_kuberc() {
        notes.push(format!("mode: {}", mode.describe()));
    }
    let run = if mode.server_side {
        let how = How::from_flags(args.field_manager.as_deref(), args.force_conflicts, &mode);
        ssa::run(args, &how)?
    } else {
        let flags = [
            (args.field_manager.is_some(), "--field-manager"),
            (args.force_conflicts.is_some(), "--force-conflicts"),
            (args.as_kubectl_diff, "--as-kubectl-diff"),
        ];
        if let Some((_, flag)) = flags.iter().find(|(given, _)| *given) {
            return Err(Error::Input(format!(
                "{flag} needs server-side apply: pass --server-side (the mode here: {})",
                mode.describe()
            )));
        }
        client_side(args)?
    };
    Ok(super::with_warnings(run, notes))
}

/// The client-side diff: what `kubectl diff` prints.
fn client_side(args: &DiffArgs) -> Result<Run, Error> {
    let shown = args.progress.show();
    let (pairs, plans) = if args.live.is_empty() && !args.no_live {
        from_cluster(args, shown.progress())?
    } else {
        let mut stdin_used = false;
        let locals = objects::read_all(&args.files, args.recursive, &mut stdin_used)?;
        let lives = objects::read_all(&args.live, args.recursive, &mut stdin_used)?;
        let pairs = objects::pair(locals, lives, args.namespace.as_deref())?;
        let plans = crate::session::plan::plan_all_reporting(
            &pairs,
            args.namespace.as_deref(),
            true,
            shown.progress(),
        );
        (pairs, plans)
    };
    drop(shown);
    let opts = Options {
        show_secrets: args.show_secrets,
        show_managed_fields: args.show_managed_fields,
    };
    if args.output == DiffOutput::Markdown {
        return markdown(&pairs, &plans, opts);
    }
    let items: Vec<_> = pairs.iter().zip(plans).collect();
    let errors: Vec<String> = items
        .iter()
        .filter_map(|(pair, plan)| plan.as_ref().err().map(|e| format!("{}: {e}", pair.key)))
        .collect();
    let diffs: Vec<ObjectDiff> = crate::session::parallel::parallel_map(&items, |(pair, plan)| {
        plan.as_ref().ok().map(|plan| object_diff(pair, plan, opts))
    })
    .into_iter()
    .flatten()
    .collect();
    let out = render(&diffs, args.color.enabled());
    let code = if !errors.is_empty() {
        2
    } else if out.is_empty() {
        0
    } else {
        1
    };
    Ok(super::finish(out, errors, code))
}

/// `diff -o markdown`: the plan's report with each object's unified diff; kubectl diff's exit
/// status.
fn markdown(pairs: &[Pair], plans: &[Result<Plan, Error>], opts: Options) -> Result<Run, Error> {
    let mut report = super::plan::markdown::Report::new("diff", opts.show_secrets);
    let (mut errors, mut differs) = (Vec::new(), false);
    for (pair, plan) in pairs.iter().zip(plans) {
        let diff = plan
            .as_ref()
            .ok()
            .map(|p| render(&[object_diff(pair, p, opts)], false));
        differs |= diff.as_ref().is_some_and(|d| !d.is_empty());
        if let Err(e) = plan {
            errors.push(format!("{}: {e}", pair.key));
        }
        report.add(
            &pair.key,
            &pair.local.source,
            plan.as_ref(),
            diff.as_deref(),
        );
    }
    let code = if !errors.is_empty() {
        2
    } else {
        i32::from(differs)
    };
    Ok(super::finish(report.finish(), errors, code))
}

type Planned = (Vec<Pair>, Vec<Result<Plan, Error>>);

/// No `--live`, no `--no-live`: the live objects come from the cluster.
#[cfg(feature = "cluster")]
fn from_cluster(args: &DiffArgs, progress: &Progress) -> Result<Planned, Error> {
    let locals = super::cluster::read_locals(&args.files, args.recursive)?;
    let planned = super::cluster::load_and_plan(
        locals,
        &args.cluster,
        args.namespace.as_deref(),
        true,
        None,
        progress,
    )?;
    Ok((planned.pairs, planned.plans))
}

#[cfg(not(feature = "cluster"))]
fn from_cluster(_: &DiffArgs, _: &Progress) -> Result<Planned, Error> {
    Err(super::cluster::not_built())
}

/// kubectl diff's file name for an object.
#[must_use]
pub fn file_name(pair: &Pair) -> String {
    let api_version = ObjectRef::of(&pair.local.value).api_version;
    let gv = GroupVersion::parse(api_version);
    let (group, version) = if gv.is_core() {
        (String::new(), gv.version)
    } else {
        (format!("{}.", gv.group), gv.version)
    };
    let namespaced = Schema::embedded()
        .is_namespaced(api_version, &pair.key.kind)
        .unwrap_or(true);
    let namespace = if namespaced {
        pair.key.namespace.as_str()
    } else {
        ""
    };
    format!(
        "{group}{version}.{}.{namespace}.{}",
        pair.key.kind, pair.key.name
    )
}

/// The two sides of one object's diff.
#[must_use]
pub fn object_diff(pair: &Pair, plan: &Plan, opts: Options) -> ObjectDiff {
    let live = pair.live.as_ref().map(|l| l.value.clone());
    sides(file_name(pair), live, merged_object(pair, plan), opts)
}

/// One object's two files, written as kubectl diff writes them: `metadata.managedFields`
/// dropped unless shown, a Secret's `stringData` folded into `data` and its values masked
/// unless shown.
#[must_use]
pub fn sides(
    name: String,
    mut live: Option<Value>,
    mut merged: Value,
    opts: Options,
) -> ObjectDiff {
    if !opts.show_managed_fields {
        for obj in live.iter_mut().chain(std::iter::once(&mut merged)) {
            if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
                m.shift_remove("managedFields");
            }
        }
    }
    for obj in live.iter_mut().chain(std::iter::once(&mut merged)) {
        secret::fold_string_data(obj);
    }
    let masked = !opts.show_secrets && secret::is_secret(&merged);
    if masked {
        secret::mask_pair(live.as_mut(), Some(&mut merged), &["data"]);
        for obj in live.iter_mut().chain(std::iter::once(&mut merged)) {
            if let Some(m) = obj.get_mut("metadata") {
                secret::mask_at(m, &["metadata"]);
            }
        }
    }
    let live = match &live {
        Some(v) => crate::engine::goyaml::to_yaml(v),
        // kubectl's masker hands the printer a typed nil, which prints as `null`.
        None if masked => "null\n".to_owned(),
        None => String::new(),
    };
    ObjectDiff {
        name,
        live,
        merged: crate::engine::goyaml::to_yaml(&merged),
    }
}

/// The object as the server would answer kubectl diff's dry-run apply.
fn merged_object(pair: &Pair, plan: &Plan) -> Value {
    let live = pair.live.as_ref().map(|l| &l.value);
    let mut merged = plan.created().unwrap_or(&plan.result).clone();
    merged_annotations(&mut merged, live);
    merged_resource_version(&mut merged, live);
    merged
}

/// Gives the merged object the live object's resourceVersion (none for a create): kubectl
/// diff sets the patch's to the live one (`Patcher.ResourceVersion`, so a file's old one never
/// reaches the lock), and its dry-run create clears it (`Helper.Create`).
fn merged_resource_version(merged: &mut Value, live: Option<&Value>) {
    let live = live.and_then(|l| l.get("metadata")?.get("resourceVersion"));
    let Some(metadata) = merged.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    match live {
        Some(rv) => {
            metadata.insert("resourceVersion", rv.clone());
        }
        None => {
            metadata.shift_remove("resourceVersion");
        }
    }
}

/// Leaves the last-applied annotation as it is live (absent for a create) and drops an empty
/// annotations map the live object does not have.
fn merged_annotations(merged: &mut Value, live: Option<&Value>) {
    let live_annotations = live
        .and_then(|l| l.get("metadata"))
        .and_then(|m| m.get("annotations"));
    let live_value = live_annotations.and_then(|a| a.get(LAST_APPLIED)).cloned();
    let Some(metadata) = merged.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(annotations) = metadata
        .get_mut("annotations")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    match live_value {
        Some(v) => {
            annotations.insert(LAST_APPLIED.to_owned(), v);
        }
        None => {
            annotations.shift_remove(LAST_APPLIED);
        }
    }
    let live_has_empty =
        live_annotations.is_some_and(|a| a.as_object().is_some_and(crate::value::Map::is_empty));
    if annotations.is_empty() && !live_has_empty {
        metadata.shift_remove("annotations");
    }
}
