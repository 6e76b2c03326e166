//! Saved plans on the command line: `plan --save FILE` and `apply --plan FILE` (the file and
//! its checks are `session::saved`'s), and `apply`'s mode (`--server-side`, kuberc).

use super::args::PlanArgs;
use super::how::{How, ModeFlags};
use super::{ApplyArgs, Run};
use crate::error::Error;
#[cfg(feature = "cluster")]
use crate::session::saved::SavedPlan;

/// `applyscope apply`: the mode first (an explicit `--server-side`, else the kuberc); then
/// `--plan FILE` or the files.
///
/// # Errors
/// Bad input, a kuberc kubectl would fail on, cluster errors (exit 2); a saved plan that no
/// longer holds, a plan kubectl would refuse (exit 1).
pub fn apply_command(args: &ApplyArgs) -> Result<Run, Error> {
    let mode = ModeFlags {
        server_side: args.server_side,
        kuberc: args.kuberc.as_deref(),
        field_manager: args.field_manager.as_deref(),
        force_conflicts: args.force_conflicts,
    }
    .resolve()?;
    let warnings = mode.warnings.clone();
    if let Some(plan) = &args.plan {
        return apply_saved(args, plan).map(|run| super::with_warnings(run, warnings));
    }
    if mode.server_side {
        let how = How::from_flags(args.field_manager.as_deref(), args.force_conflicts, &mode);
        return super::apply_ssa::run(args, &how).map(|run| super::with_warnings(run, warnings));
    }
    let out = super::cluster::apply(args)?;
    Ok(super::with_warnings(Run::Print(out), warnings))
}

/// Write `text` to `path` atomically (a temporary file renamed over it; the old one kept as
/// `.bak`).
#[cfg(feature = "cluster")]
fn write_atomic(path: &std::path::Path, text: &str) -> Result<(), Error> {
    let current = std::fs::read(path).ok();
    crate::fsutil::write_guarded(path, text.as_bytes(), current.as_deref()).map_err(Error::from)
}

#[cfg(feature = "cluster")]
fn summary(plan: &SavedPlan, path: &std::path::Path) -> String {
    use std::fmt::Write as _;
    let requests: usize = plan.objects.iter().map(|o| o.requests.len()).sum();
    let mut out = format!(
        "saved plan {}: {} apply, {} object(s), {} request(s), {} input file(s)\n",
        path.display(),
        plan.mode,
        plan.objects.len(),
        requests,
        plan.inputs.len()
    );
    for o in &plan.objects {
        if o.requests.is_empty() {
            let _ = writeln!(out, "  {}: unchanged, nothing to send", o.object);
        }
        for r in &o.requests {
            let step = r
                .step
                .as_ref()
                .map(|s| format!("({s}) "))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}: {step}{} {} ({})",
                o.object,
                r.method,
                r.path,
                r.content_type.as_deref().unwrap_or("-")
            );
        }
    }
    out.push_str("apply exactly this with: applyscope apply --plan FILE\n");
    out
}

/// Writes the saved plan to `file` (atomically): the `plan` flags it was made with, where the
/// mode came from, its `mode` and (server-side) how it applies, its inputs and objects; then
/// its summary.
#[cfg(feature = "cluster")]
fn write_plan(
    args: &PlanArgs,
    file: &std::path::Path,
    (mode, mode_source, server_side): (&str, &str, Option<crate::session::saved::ServerSide>),
    inputs: Vec<crate::session::saved::InputDigest>,
    objects: Vec<crate::session::saved::SavedObject>,
) -> Result<Run, Error> {
    use crate::session::saved::{self, Settings};
    let plan = SavedPlan {
        kind: saved::KIND.to_owned(),
        version: saved::VERSION,
        mode: mode.to_owned(),
        settings: Settings {
            files: args.local.iter().map(|p| p.display().to_string()).collect(),
            recursive: args.recursive,
            namespace: args.namespace.clone(),
            overwrite: args.overwrite,
            validation: args.cluster.validate.query().to_owned(),
            openapi_patch: args.cluster.openapi_patch,
            mode_source: mode_source.to_owned(),
            server_side,
        },
        inputs,
        objects,
    };
    write_atomic(file, &saved::write(&plan)?)?;
    Ok(Run::Print(summary(&plan, file)))
}

/// `plan --server-side --save FILE`: the live objects from the cluster (`ssa`).
///
/// # Errors
/// Bad input, cluster errors (exit 2); an object the API server would refuse (exit 1).
pub fn save_server_side(args: &PlanArgs, how: &How, time: &str) -> Result<Run, Error> {
    #[cfg(feature = "cluster")]
    return ssa::save(args, how, time);
    #[cfg(not(feature = "cluster"))]
    {
        let _ = (args, how, time);
        Err(crate::session::cluster::not_built())
    }
}

#[cfg(feature = "cluster")]
mod ssa;

#[cfg(feature = "cluster")]
fn validation_of(name: &str) -> Option<crate::cluster::Validation> {
    use crate::cluster::Validation;
    [Validation::Strict, Validation::Warn, Validation::Ignore]
        .into_iter()
        .find(|v| v.query() == name)
}

/// `apply --plan` refused: every change named, nothing sent (exit 1).
#[cfg(feature = "cluster")]
fn refuse(changes: Vec<String>, error: Option<Error>) -> Run {
    let mut stderr = changes;
    if let Some(e) = error {
        stderr.push(format!("the files cannot be planned again: {e}"));
    }
    stderr.push("the saved plan no longer holds: nothing was sent (plan and save again)".into());
    Run::Report {
        stdout: String::new(),
        stderr,
        code: 1,
    }
}

#[cfg(feature = "cluster")]
pub use imp::{apply_saved, save_client_side};

#[cfg(not(feature = "cluster"))]
pub use absent::{apply_saved, save_client_side};

#[cfg(not(feature = "cluster"))]
mod absent {
    use super::{ApplyArgs, Error, PlanArgs, Run};
    use crate::session::kuberc::ApplyMode;

    /// # Errors
    /// Always: not built.
    pub fn save_client_side(_: &PlanArgs, _: &ApplyMode) -> Result<Run, Error> {
        Err(crate::session::cluster::not_built())
    }

    /// # Errors
    /// Always: not built.
    pub fn apply_saved(_: &ApplyArgs, _: &std::path::Path) -> Result<Run, Error> {
        Err(crate::session::cluster::not_built())
    }
}

#[cfg(feature = "cluster")]
mod imp {
    use std::fmt::Write as _;
    use std::path::{Path, PathBuf};

    use super::{ApplyArgs, Error, PlanArgs, Run, refuse, validation_of};
    use crate::cli::cluster::{load_and_plan, read_locals};
    use crate::cluster::{self, Request, Validation, Verb};
    use crate::session::cluster::Planned;
    use crate::session::kuberc::ApplyMode;
    use crate::session::saved;
    use crate::session::saved::send;
    use crate::session::saved::{LiveRef, SavedObject, SavedRequest};
    use crate::value::Value;

    /// Each object's identity, live object and the requests kubectl would send.
    fn saved_objects(planned: &Planned, validation: Validation) -> Result<Vec<SavedObject>, Error> {
        let mut out = Vec::new();
        for item in planned.each_planned() {
            let (_, loaded, plan) = item?;
            let request = cluster::apply_request(&loaded.target, plan, validation, false)
                .map_err(|e| crate::session::cluster::error(&e))?;
            let t = &loaded.target;
            let text = |v: &Value, p: &str| {
                v.pointer(p)
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned()
            };
            out.push(SavedObject {
                object: t.describe(),
                api_version: t.api_version.clone(),
                kind: t.kind.clone(),
                namespace: t.namespace.clone(),
                name: t.name.clone(),
                live: loaded.live.as_ref().map(|v| LiveRef {
                    uid: text(v, "/metadata/uid"),
                    resource_version: text(v, "/metadata/resourceVersion"),
                    managed_fields: None,
                }),
                requests: request
                    .into_iter()
                    .map(|r| SavedRequest {
                        step: None,
                        method: r.verb.as_str().to_owned(),
                        path: r.path,
                        query: r.query,
                        content_type: r.content_type.map(str::to_owned),
                        body: r.body,
                        decided_at_send: Vec::new(),
                    })
                    .collect(),
            });
        }
        Ok(out)
    }

    /// `plan --save FILE` for client-side apply: the live objects from the cluster.
    ///
    /// # Errors
    /// Bad input, cluster errors (exit 2); an object kubectl would refuse (exit 1).
    pub fn save_client_side(args: &PlanArgs, mode: &ApplyMode) -> Result<Run, Error> {
        let Some(file) = &args.save else {
            return Err(Error::Input("--save needs a FILE".into()));
        };
        if !args.live.is_empty() || args.no_live || args.last_applied.is_some() {
            return Err(Error::Input(
                "--save reads the live objects from the cluster (no --live, --no-live or --last-applied): apply --plan checks them there again".into(),
            ));
        }
        let inputs = saved::digest_inputs(&args.local, args.recursive)?;
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
        let objects = saved_objects(&planned, args.cluster.validate)?;
        super::write_plan(
            args,
            file,
            (saved::CLIENT_SIDE, mode.source.kind(), None),
            inputs,
            objects,
        )
    }

    /// The request to send: the saved one, as a dry run or not, a PATCH guarded by the live
    /// object's resourceVersion.
    fn request(
        r: &SavedRequest,
        o: &SavedObject,
        resource: &str,
        dry_run: bool,
    ) -> Result<Request, Error> {
        let mut request = r.to_request(&o.object, resource, &o.name)?;
        if let (Verb::Patch, Some(live)) = (request.verb, &o.live) {
            request = send::guarded(&request, &live.resource_version)?;
        }
        Ok(if dry_run {
            send::dry_run(&request)
        } else {
            request
        })
    }

    /// `apply --plan FILE`.
    ///
    /// # Errors
    /// A plan file that is not a saved plan or was edited (exit 2); cluster errors (exit 2).
    pub fn apply_saved(args: &ApplyArgs, path: &Path) -> Result<Run, Error> {
        let bytes = std::fs::read(path).map_err(|e| Error::read(path, e))?;
        let saved_plan = saved::read(&bytes, path)?;
        let server_side = match saved_plan.mode.as_str() {
            saved::SERVER_SIDE => true,
            saved::CLIENT_SIDE => false,
            mode => {
                return Err(Error::Input(format!(
                    "{}: mode {mode:?} is neither {} nor {}",
                    path.display(),
                    saved::CLIENT_SIDE,
                    saved::SERVER_SIDE
                )));
            }
        };
        if let Some(flag) = args.server_side.filter(|f| *f != server_side) {
            return Err(Error::Input(format!(
                "{}: a {} plan: --server-side={flag} contradicts it (the plan's mode is applied)",
                path.display(),
                saved_plan.mode
            )));
        }
        if server_side {
            return super::ssa::apply(args, path, &saved_plan);
        }
        let s = &saved_plan.settings;
        let validation = validation_of(&s.validation).ok_or_else(|| {
            Error::Input(format!("{}: validation {:?}", path.display(), s.validation))
        })?;
        let files: Vec<PathBuf> = s.files.iter().map(PathBuf::from).collect();
        let present: Vec<PathBuf> = files.iter().filter(|f| f.exists()).cloned().collect();
        let inputs = saved::digest_inputs(&present, s.recursive)?;
        let mut cluster_args = args.cluster.clone();
        cluster_args.validate = validation;
        cluster_args.openapi_patch = s.openapi_patch;
        let shown = args.progress.show();
        let now = read_locals(&present, s.recursive).and_then(|locals| {
            let planned = load_and_plan(
                locals,
                &cluster_args,
                s.namespace.as_deref(),
                s.overwrite,
                None,
                shown.progress(),
            )?;
            let objects = saved_objects(&planned, validation)?;
            Ok((planned, objects))
        });
        let file_changes = saved::differences(&saved_plan, &inputs, &saved_plan.objects);
        let (planned, objects) = match now {
            Ok(now) => now,
            Err(e) if !file_changes.is_empty() => {
                return Ok(refuse(file_changes, Some(e)));
            }
            Err(e) => return Err(e),
        };
        let changes = saved::differences(&saved_plan, &inputs, &objects);
        if !changes.is_empty() {
            return Ok(refuse(changes, None));
        }
        let mut sends = Vec::new();
        for o in &saved_plan.objects {
            let resource = planned
                .loaded
                .iter()
                .find(|l| l.target.describe() == o.object)
                .map(|l| l.target.resource())
                .unwrap_or_default();
            for r in &o.requests {
                sends.push((
                    o,
                    request(r, o, &resource, true)?,
                    request(r, o, &resource, false)?,
                ));
            }
        }
        let mut out = String::new();
        for (o, dry, _) in &sends {
            planned.cluster.commit(dry).map_err(|e| {
                Error::Input(format!(
                    "server dry run of {}: {e} (nothing was sent)",
                    o.object
                ))
            })?;
            let _ = writeln!(
                out,
                "{}: server dry run accepted ({})",
                o.object,
                dry.describe()
            );
        }
        for (o, _, real) in &sends {
            let answer = planned.cluster.commit(real).map_err(|e| {
                Error::Input(format!(
                    "{}: {e} (objects before it were applied)",
                    o.object
                ))
            })?;
            let verb = if real.verb == Verb::Post {
                "created"
            } else {
                "configured"
            };
            let _ = writeln!(
                out,
                "{}: {verb} (resourceVersion {})",
                o.object,
                cluster::resource_version(&answer).unwrap_or("?")
            );
        }
        for o in saved_plan.objects.iter().filter(|o| o.requests.is_empty()) {
            let _ = writeln!(out, "{}: unchanged", o.object);
        }
        let _ = writeln!(out, "applied the saved plan {}", path.display());
        Ok(Run::Print(out))
    }
}
