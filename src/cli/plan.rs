//! `applyscope plan`: what `kubectl apply` would send, the result, every field's action and why.

mod chunked;
mod entries;
mod json;
mod many;
pub mod markdown;
mod ordered;
mod piped;
pub mod ssa;
mod stages;
mod text;
mod yaml;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::value::Value;

use super::Run;
pub use super::args::{Format, PlanArgs};
use super::input::{is_list, one_object_of, read_documents, read_object};
use super::objects;
use crate::document::Document;
use crate::engine::plan::{self, LastApplied, LiveLastApplied, Plan, PlanContext};
use crate::engine::schema::Schema;
use crate::error::Error;
use crate::session::kuberc::ApplyMode;
use crate::session::open::{holds_many_objects, single_candidate};
use crate::session::plan::{DocNames, Docs, plan_error};

pub use many::{End, Many, print_many};
pub use text::text;

pub fn run(args: &PlanArgs) -> Result<Run, Error> {
    let mode = resolve_mode(args)?;
    let warnings = mode.warnings.clone();
    let run = plan_in_mode(args, &mode)?;
    Ok(super::with_warnings(run, warnings))
}

/// The apply mode of this `plan`: the flags, else the kuberc (`session::kuberc`).
fn resolve_mode(args: &PlanArgs) -> Result<ApplyMode, Error> {
    args.mode_flags().resolve()
}

fn plan_in_mode(args: &PlanArgs, mode: &ApplyMode) -> Result<Run, Error> {
    if let Some(name) = &args.example {
        if args.save.is_some() {
            return Err(Error::Input(format!(
                "--save plans against the cluster, to apply exactly what was reviewed: not with --example {name}"
            )));
        }
        return run_example(args, mode, name);
    }
    if mode.server_side {
        return ssa::run(args, mode, stages::Stages::from_env());
    }
    let flags = [
        (args.field_manager.is_some(), "--field-manager"),
        (args.force_conflicts.is_some(), "--force-conflicts"),
        (!args.migrate_manager.is_empty(), "--migrate-manager"),
    ];
    if let Some((_, flag)) = flags.iter().find(|(given, _)| *given) {
        return Err(Error::Input(format!(
            "{flag} needs server-side apply: pass --server-side (the mode here: {})",
            mode.describe()
        )));
    }
    if args.save.is_some() {
        return super::saved::save_client_side(args, mode);
    }
    let mut stages = stages::Stages::from_env();
    let run = if args.live.is_empty() && !args.no_live {
        run_cluster(args)?
    } else {
        match single(args, true) {
            Some((local, live)) => run_one(args, local, live, stages)?,
            None => {
                // The text's mode line goes first, before the plans are streamed.
                let header = (mode.from_kuberc() && args.output == Format::Text)
                    .then(|| format!("mode: {}\n", mode.describe()));
                let run = many::run(args, header.as_deref(), &mut stages);
                stages.print();
                let run = run?;
                return Ok(match header {
                    Some(_) => run,
                    None => announce(run, mode, args.output),
                });
            }
        }
    };
    Ok(announce(run, mode, args.output))
}

/// When a kuberc chose the mode: a header line above the text output; on stderr for the other
/// formats (the server-side JSON carries it as `mode`).
fn announce(run: Run, mode: &ApplyMode, format: Format) -> Run {
    if !mode.from_kuberc() {
        return run;
    }
    let line = format!("mode: {}", mode.describe());
    match (run, format) {
        (Run::Print(out), Format::Text) => Run::Print(format!("{line}\n{out}")),
        (
            Run::Report {
                stdout,
                stderr,
                code,
            },
            Format::Text,
        ) => Run::Report {
            stdout: format!("{line}\n{stdout}"),
            stderr,
            code,
        },
        (run, _) => super::with_warnings(run, vec![line]),
    }
}

/// A file of the one-object invocation, read once: its documents, or why they could not be
/// read (reported only if the one-object path needs them, as before).
struct OneFile<'a> {
    path: &'a Path,
    docs: Result<Vec<Document>, Error>,
    /// The last-applied annotation of the file's object, read ahead (see [`OneFile::read_live`]).
    last_applied: Option<LiveLastApplied>,
}

impl<'a> OneFile<'a> {
    fn read(path: &'a Path) -> OneFile<'a> {
        OneFile {
            path,
            docs: read_documents(path),
            last_applied: None,
        }
    }

    /// [`OneFile::read`] a live file, and parse its object's last-applied annotation: on the
    /// thread that reads it, while the (slower) local file is read.
    fn read_live(path: &'a Path) -> OneFile<'a> {
        let mut file = OneFile::read(path);
        // Only where the object is the file's one document as it stands (not a `List` to
        // flatten): the annotation read is then the one the plan would read.
        if let Ok([doc]) = file.docs.as_deref()
            && doc.value.is_object()
            && !is_list(&doc.value)
        {
            file.last_applied = Some(LiveLastApplied::read(&doc.value));
        }
        file
    }

    /// Whether it holds two or more Kubernetes objects (documents or `List` items with a
    /// `kind`). Unreadable files do not: the one-object path reports them.
    fn holds_many_objects(&self) -> bool {
        self.docs.as_deref().is_ok_and(holds_many_objects)
    }

    /// The one object, as [`read_one_object`](crate::session::input::read_one_object) reads it.
    fn object(self) -> Result<Value, Error> {
        one_object_of(self.path, self.docs?)
    }
}

/// The one-object invocation: one `-f` file and at most one `--live` file, neither holding
/// several objects. (Its output and messages are the contract from before many objects.) The
/// files are read here, once; the live object's annotation parsed as they are read when the
/// plan reads it (`annotation`: client-side, without `--last-applied`).
fn single(args: &PlanArgs, annotation: bool) -> Option<(OneFile<'_>, Option<OneFile<'_>>)> {
    if !single_candidate(&args.local, &args.live, args.recursive) {
        return None;
    }
    let ([local], live) = (args.local.as_slice(), args.live.first()) else {
        return None;
    };
    let live = live.map(PathBuf::as_path);
    // The two files are read side by side (a 10 MB object and its 18 MB live copy take about
    // 0.8 s and 0.4 s to read).
    let pre_parse = annotation && args.last_applied.is_none();
    let (live, local) = crate::engine::smp::both(
        live.is_some(),
        || {
            live.map(|p| {
                if pre_parse {
                    OneFile::read_live(p)
                } else {
                    OneFile::read(p)
                }
            })
        },
        || OneFile::read(local),
    );
    if local.holds_many_objects() || live.as_ref().is_some_and(OneFile::holds_many_objects) {
        return None;
    }
    Some((local, live))
}

fn run_one(
    args: &PlanArgs,
    local: OneFile<'_>,
    live: Option<OneFile<'_>>,
    mut stages: stages::Stages,
) -> Result<Run, Error> {
    let local_path = local.path;
    let live_path = live.as_ref().map(|l| l.path);
    let mut live_last_applied = None;
    let live = match (live, args.no_live) {
        (Some(mut file), _) => {
            live_last_applied = file.last_applied.take();
            Some(file.object()?)
        }
        (None, true) => None,
        (None, false) => return Err(no_live_error()),
    };
    let docs = Docs {
        local: local.object()?,
        live,
        last_applied: args.last_applied.as_deref().map(read_object).transpose()?,
    };
    let show = |p: &std::path::Path| p.display().to_string();
    let names = DocNames {
        local: show(local_path),
        live: live_path.map(show).unwrap_or_default(),
        last_applied: args.last_applied.as_deref().map(show).unwrap_or_default(),
    };
    // JSON, YAML and text: the plan's fields are written (or counted) as they are found, never held
    // all at once, and the local object becomes the plan's modified document without a copy.
    let Docs {
        local,
        live,
        last_applied,
    } = docs;
    let context = PlanContext {
        live: live.map(Cow::Owned),
        last_applied: last_applied
            .as_ref()
            .map_or(LastApplied::FromLive, LastApplied::Given),
        namespace: args.namespace.as_deref(),
        overwrite: args.overwrite,
        live_last_applied,
    };
    stages.end("read");
    let plan = plan::plan_owned_staged(local, context, Schema::embedded(), &mut |name| {
        stages.end(name);
    })
    .map_err(|e| plan_error(e, &names))?;
    // The process ends once this is printed: leave the memory to the system instead of
    // freeing every node (about a million allocations at 10 MB, half a second).
    let plan = std::mem::ManuallyDrop::new(plan);
    std::mem::forget(last_applied);
    if args.output == Format::Text {
        let text = text::text_with(&plan, args.show_secrets);
        stages.end("write");
        stages.print();
        return Ok(Run::Print(text));
    }
    if args.output == Format::Markdown {
        let key = objects::Key::of(&plan.modified);
        let source = args
            .local
            .first()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let mut report = markdown::Report::new("plan", args.show_secrets);
        report.add(&key, &source, Ok(&plan), None);
        return Ok(Run::Print(report.finish()));
    }
    // Straight to standard output: the text (about 27 times the object) is never held whole.
    let mut stdout = std::io::stdout().lock();
    let written = match args.output {
        Format::Yaml => yaml::write(&plan, &mut stdout).map_err(json::WriteError::Io),
        _ => json::write(&plan, &mut stdout),
    };
    stages.end("write");
    stages.print();
    match written {
        Ok(()) => Ok(Run::Print(String::new())),
        Err(json::WriteError::Io(e)) => Err(Error::output(e)),
        Err(json::WriteError::Json(e)) => Err(e.into()),
    }
}

/// `plan --example NAME`: the example's documents, planned as files would be.
fn run_example(args: &PlanArgs, mode: &ApplyMode, name: &str) -> Result<Run, Error> {
    let example = crate::examples::find(name).ok_or_else(|| {
        Error::Input(format!(
            "no example {name:?}; `{} examples` lists them",
            super::invocation::name()
        ))
    })?;
    let source = crate::session::source::Source::from_example(example)?;
    if mode.server_side {
        return ssa::run_docs(args, mode, &source.docs, example.name);
    }
    let plan =
        crate::session::plan::compute(&source.docs, args.namespace.as_deref(), args.overwrite)?;
    let out = match args.output {
        Format::Text => text::text_with(&plan, args.show_secrets),
        format => render(&plan, format)?,
    };
    Ok(Run::Print(out))
}

fn no_live_error() -> Error {
    Error::Input("no live object: pass --live FILE, or --no-live for a create".into())
}

/// No `--live`, no `--no-live`: the live objects come from the cluster.
#[cfg(feature = "cluster")]
fn run_cluster(args: &PlanArgs) -> Result<Run, Error> {
    let locals = super::cluster::read_locals(&args.local, args.recursive)?;
    let last_applied = args.last_applied.as_deref().map(read_object).transpose()?;
    if last_applied.is_some() && locals.len() != 1 {
        return Err(Error::Input(
            "--last-applied works with one object (one -f file holding one object)".into(),
        ));
    }
    let single = locals.len() == 1;
    let shown = args.progress.show();
    let planned = super::cluster::load_and_plan(
        locals,
        &args.cluster,
        args.namespace.as_deref(),
        args.overwrite,
        last_applied.as_ref(),
        shown.progress(),
    )?;
    drop(shown);
    if single && let Some(plan) = planned.plans.first() {
        return render(plan.as_ref().map_err(Clone::clone)?, args.output).map(Run::Print);
    }
    print_many(&planned.pairs, &planned.plans, args.output)
}

#[cfg(not(feature = "cluster"))]
fn run_cluster(_: &PlanArgs) -> Result<Run, Error> {
    Err(super::cluster::not_built())
}

/// Write a plan in the chosen format.
pub fn render(p: &Plan, format: Format) -> Result<String, Error> {
    let failed = |e: &dyn std::fmt::Display| Error::Failed(e.to_string());
    Ok(match format {
        Format::Json => {
            let mut out = Vec::new();
            json::write(p, &mut out).map_err(|e| failed(&e))?;
            String::from_utf8(out).map_err(|e| failed(&e))?
        }
        Format::Yaml => yaml::to_string(p).map_err(|e| failed(&e))?,
        Format::Text => text(p),
        Format::Markdown => {
            let mut report = markdown::Report::new("plan", false);
            report.add(&objects::Key::of(&p.modified), "", Ok(p), None);
            report.finish()
        }
    })
}
