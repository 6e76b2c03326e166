//! `applyscope last-applied view | drop | adopt | set`: what the TUI's edit keys do, for
//! scripts. The new annotation is encoded exactly as kubectl encodes it; the live file is
//! rewritten in place (only the annotation changes; a `.bak` keeps the original) unless
//! `--write-last-applied PATH` asks for the document alone; `--dry-run` writes nothing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::value::Value;
use clap::{Args, Subcommand, ValueEnum};

use super::input::{read_bytes, read_object, read_one_object};
use crate::engine::plan::{
    ANNOTATIONS_LIMIT, FieldPath, LAST_APPLIED, annotation_of, annotations_size, encode_annotation,
};
use crate::engine::{edit, gojson, jsonmerge, smp};
use crate::error::Error;
use crate::{fsutil, rewrite};

#[derive(Debug, Subcommand)]
pub enum LastAppliedCommand {
    /// Print the last-applied configuration.
    View {
        #[command(flatten)]
        source: Source,
        #[arg(long, short = 'o', value_enum, default_value_t = ViewFormat::Yaml)]
        output: ViewFormat,
    },
    /// Remove fields from last-applied: hand them over (e.g. `spec.replicas` to an autoscaler).
    Drop {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        target: Target,
        /// Field paths, as the plan names them (`spec.replicas`, `...containers[name=x].image`).
        #[arg(required = true)]
        paths: Vec<String>,
    },
    /// Copy the live values of fields into last-applied: take them over.
    Adopt {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        target: Target,
        #[arg(required = true)]
        paths: Vec<String>,
    },
    /// Replace last-applied with the document in FILE.
    Set {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        target: Target,
        file: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct Source {
    /// The live object's file (holding the annotation).
    #[arg(long, required_unless_present = "local")]
    pub live: Option<PathBuf>,
    /// Cluster mode: read the object this file names (apiVersion, kind, namespace, name)
    /// from the cluster; a commit patches its annotation there.
    #[arg(
        short = 'f',
        long = "local",
        conflicts_with = "live",
        value_name = "FILE"
    )]
    pub local: Option<PathBuf>,
    /// Cluster mode: the namespace when the file names none (default: the context's).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    /// Cluster mode: send the annotation patch. Without it, print it and send nothing.
    #[arg(long, short = 'y')]
    pub yes: bool,
    #[command(flatten)]
    pub cluster: super::ClusterArgs,
}

/// Where the live object came from.
enum Live {
    /// A file and its bytes.
    File(PathBuf, Vec<u8>),
    /// The cluster: the annotation patch goes there.
    #[cfg(feature = "cluster")]
    Cluster(Box<crate::cluster::Cluster>, crate::cluster::Target),
}

impl Live {
    fn name(&self) -> String {
        match self {
            Live::File(p, _) => p.display().to_string(),
            #[cfg(feature = "cluster")]
            Live::Cluster(c, t) => format!("{}{}", c.server, t.path()),
        }
    }
}

/// Read the live object: its file, or (with `-f`) from the cluster.
fn load(source: &Source) -> Result<(Value, Live), Error> {
    if let Some(path) = &source.live {
        let (live, bytes) = load_live(path)?;
        return Ok((live, Live::File(path.clone(), bytes)));
    }
    let Some(local) = &source.local else {
        return Err(Error::Input(
            "pass --live FILE, or -f LOCAL to read the object from the cluster".into(),
        ));
    };
    load_cluster(source, local)
}

#[cfg(feature = "cluster")]
fn load_cluster(source: &Source, local: &Path) -> Result<(Value, Live), Error> {
    let local_obj = read_one_object(local)?;
    let cluster = super::cluster::connect(&source.cluster, source.namespace.as_deref())?;
    let loaded = cluster
        .load(std::slice::from_ref(&local_obj), false)
        .into_iter()
        .next()
        .ok_or_else(|| Error::Input(format!("{}: not loaded", local.display())))?
        .map_err(|e| Error::from(e).context(local.display().to_string()))?;
    let Some(live) = loaded.live else {
        return Err(Error::Input(format!(
            "{}: {} does not exist in the cluster: there is no last-applied annotation",
            local.display(),
            loaded.target.describe()
        )));
    };
    Ok((live, Live::Cluster(Box::new(cluster), loaded.target)))
}

#[cfg(not(feature = "cluster"))]
fn load_cluster(_: &Source, _: &Path) -> Result<(Value, Live), Error> {
    Err(super::cluster::not_built())
}

#[derive(Debug, Args)]
pub struct Target {
    /// Write the last-applied document alone to this file instead of rewriting the live file.
    #[arg(long)]
    pub write_last_applied: Option<PathBuf>,
    /// Print what would be written; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ViewFormat {
    Yaml,
    Json,
}

pub fn run(cmd: &LastAppliedCommand) -> Result<String, Error> {
    match cmd {
        LastAppliedCommand::View { source, output } => {
            let (live, from) = load(source)?;
            let doc = current_last_applied(&live, &from.name())?;
            Ok(match output {
                ViewFormat::Yaml => jsonmerge::to_yaml(&doc),
                ViewFormat::Json => {
                    let mut s = gojson::to_string_pretty(&doc)?;
                    s.push('\n');
                    s
                }
            })
        }
        LastAppliedCommand::Drop {
            source,
            target,
            paths,
        } => {
            let (live, from) = load(source)?;
            let mut doc = current_last_applied(&live, &from.name())?;
            for p in paths {
                doc = edit::drop(&doc, &parse_path(p)?)?;
            }
            commit(&from, &live, &doc, target, source)
        }
        LastAppliedCommand::Adopt {
            source,
            target,
            paths,
        } => {
            let (live, from) = load(source)?;
            let mut doc = current_last_applied(&live, &from.name())?;
            for p in paths {
                doc = edit::adopt(&doc, &live, &parse_path(p)?)?;
            }
            commit(&from, &live, &doc, target, source)
        }
        LastAppliedCommand::Set {
            source,
            target,
            file,
        } => {
            let (live, from) = load(source)?;
            let doc = read_object(file)?;
            commit(&from, &live, &doc, target, source)
        }
    }
}

fn parse_path(text: &str) -> Result<FieldPath, Error> {
    text.parse().map_err(Error::Input)
}

fn load_live(path: &Path) -> Result<(Value, Vec<u8>), Error> {
    let bytes = read_bytes(path)?;
    Ok((read_one_object(path)?, bytes))
}

/// The live object's last-applied configuration (an empty object when it has none).
fn current_last_applied(live: &Value, name: &str) -> Result<Value, Error> {
    match annotation_of(live) {
        None | Some("") => Ok(Value::Object(crate::value::Map::new())),
        Some(text) => smp::parse_json(text).map_err(|_| {
            Error::Input(format!(
                "{name}: metadata.annotations[\"{LAST_APPLIED}\"]: not a JSON object"
            ))
        }),
    }
}

/// Encode and write (or show) the new last-applied configuration.
fn commit(
    from: &Live,
    live: &Value,
    doc: &Value,
    target: &Target,
    source: &Source,
) -> Result<String, Error> {
    let annotation = encode_annotation(doc).map_err(|e| Error::Failed(e.to_string()))?;
    let mut report = size_report(live, &annotation);
    let (live_path, bytes) = match from {
        Live::File(path, bytes) => (path.as_path(), bytes.as_slice()),
        #[cfg(feature = "cluster")]
        Live::Cluster(cluster, t) if target.write_last_applied.is_none() => {
            return commit_cluster(cluster, t, live, &annotation, target, source, report);
        }
        #[cfg(feature = "cluster")]
        Live::Cluster(..) => (Path::new(""), &[][..]),
    };
    let _ = source;
    let (path, content, expected) = match &target.write_last_applied {
        Some(out) => {
            let content = if out.extension().is_some_and(|e| e == "json") {
                let mut s = gojson::to_string_pretty(doc)?;
                s.push('\n');
                s
            } else {
                jsonmerge::to_yaml(doc)
            };
            let expected = std::fs::read(out).ok();
            (out.clone(), content, expected)
        }
        None => {
            let text = std::str::from_utf8(bytes)
                .map_err(|_| Error::Input(format!("{}: not UTF-8", live_path.display())))?;
            let mut want = live.clone();
            if let Some(annotations) = want
                .pointer_mut("/metadata/annotations")
                .and_then(Value::as_object_mut)
            {
                annotations.insert(LAST_APPLIED, Value::String(annotation.as_str().into()));
            } else if let Some(metadata) = want.get_mut("metadata").and_then(Value::as_object_mut) {
                let mut annotations = crate::value::Map::new();
                annotations.insert(LAST_APPLIED, Value::String(annotation.as_str().into()));
                metadata.insert("annotations", Value::Object(annotations));
            }
            let content = rewrite::set_annotation(text, &annotation, &want)
                .map_err(|e| e.context(live_path.display().to_string()))?;
            (live_path.to_owned(), content, Some(bytes.to_vec()))
        }
    };
    if target.dry_run {
        let _ = writeln!(
            report,
            "dry run: would write {} ({} bytes):",
            path.display(),
            content.len()
        );
        report.push_str(&content);
        return Ok(report);
    }
    fsutil::write_guarded(&path, content.as_bytes(), expected.as_deref())?;
    let _ = writeln!(report, "wrote {}", path.display());
    Ok(report)
}

/// Patch the annotation in the cluster (with `--yes`; else print the request).
#[cfg(feature = "cluster")]
fn commit_cluster(
    cluster: &crate::cluster::Cluster,
    t: &crate::cluster::Target,
    live: &Value,
    annotation: &str,
    target: &Target,
    source: &Source,
    mut report: String,
) -> Result<String, Error> {
    use crate::cluster;
    let rv = cluster::resource_version(live).unwrap_or("");
    let request = cluster::annotation_patch(t, rv, Some(annotation), source.cluster.validate)
        .map_err(|e| super::cluster::error(&e))?;
    if target.dry_run || !source.yes {
        let _ = write!(report, "{}: would send ", t.describe());
        report.push_str(&super::cluster::show_request(&request));
        report.push_str("nothing sent: pass --yes to send\n");
        return Ok(report);
    }
    let answer = cluster
        .commit(&request)
        .map_err(|e| Error::Input(format!("{}: {e}; nothing changed", t.describe())))?;
    let _ = writeln!(
        report,
        "{}: last-applied annotation patched (resourceVersion {})",
        t.describe(),
        cluster::resource_version(&answer).unwrap_or("?")
    );
    Ok(report)
}

/// The annotation's size and the whole annotations map's against the server's limit.
fn size_report(live: &Value, annotation: &str) -> String {
    let others = annotations_size(live, Some(LAST_APPLIED));
    let total = others + LAST_APPLIED.len() + annotation.len();
    let mut out = format!(
        "last-applied annotation: {} bytes; annotations map: {total} of {ANNOTATIONS_LIMIT} bytes\n",
        annotation.len()
    );
    if total > ANNOTATIONS_LIMIT {
        out.push_str(
            "warning: the annotations map is over the server's limit: the apply will be rejected\n",
        );
    }
    out
}
