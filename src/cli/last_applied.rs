//! `applyscope last-applied view | drop | adopt | set`: what the TUI's edit keys do, for
//! scripts. The new annotation is encoded exactly as kubectl encodes it; the live file is
//! rewritten in place (only the annotation changes; a `.bak` keeps the original) unless
//! `--write-last-applied PATH` asks for the document alone; `--dry-run` writes nothing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use serde_json::Value;

use super::CliError;
use super::input::{read_bytes, read_object, read_one_object};
use crate::engine::plan::{FieldPath, LAST_APPLIED, annotation_of, encode_annotation};
use crate::engine::{edit, gojson, jsonmerge, smp};
use crate::{fsutil, rewrite};

/// The server's limit on the whole annotations map of an object.
pub const ANNOTATIONS_LIMIT: usize = 262_144;

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
    #[arg(long)]
    pub live: PathBuf,
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

pub fn run(cmd: &LastAppliedCommand) -> Result<String, CliError> {
    match cmd {
        LastAppliedCommand::View { source, output } => {
            let (live, _) = load_live(&source.live)?;
            let doc = current_last_applied(&live, &source.live)?;
            Ok(match output {
                ViewFormat::Yaml => jsonmerge::to_yaml(&doc),
                ViewFormat::Json => {
                    let mut s = gojson::to_string_pretty(&doc)
                        .map_err(|e| CliError::Failed(e.to_string()))?;
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
            let (live, bytes) = load_live(&source.live)?;
            let mut doc = current_last_applied(&live, &source.live)?;
            for p in paths {
                doc = edit::drop(&doc, &parse_path(p)?)
                    .map_err(|e| CliError::Failed(e.to_string()))?;
            }
            commit(&source.live, &live, &bytes, &doc, target)
        }
        LastAppliedCommand::Adopt {
            source,
            target,
            paths,
        } => {
            let (live, bytes) = load_live(&source.live)?;
            let mut doc = current_last_applied(&live, &source.live)?;
            for p in paths {
                doc = edit::adopt(&doc, &live, &parse_path(p)?)
                    .map_err(|e| CliError::Failed(e.to_string()))?;
            }
            commit(&source.live, &live, &bytes, &doc, target)
        }
        LastAppliedCommand::Set {
            source,
            target,
            file,
        } => {
            let (live, bytes) = load_live(&source.live)?;
            let doc = read_object(file)?;
            commit(&source.live, &live, &bytes, &doc, target)
        }
    }
}

fn parse_path(text: &str) -> Result<FieldPath, CliError> {
    text.parse().map_err(CliError::Input)
}

fn load_live(path: &Path) -> Result<(Value, Vec<u8>), CliError> {
    let bytes = read_bytes(path)?;
    Ok((read_one_object(path)?, bytes))
}

/// The live object's last-applied configuration (an empty object when it has none).
fn current_last_applied(live: &Value, path: &Path) -> Result<Value, CliError> {
    match annotation_of(live) {
        None | Some("") => Ok(Value::Object(serde_json::Map::new())),
        Some(text) => smp::parse_json(text).map_err(|_| {
            CliError::Input(format!(
                "{}: metadata.annotations[\"{LAST_APPLIED}\"]: not a JSON object",
                path.display()
            ))
        }),
    }
}

/// Encode and write (or show) the new last-applied configuration.
fn commit(
    live_path: &Path,
    live: &Value,
    bytes: &[u8],
    doc: &Value,
    target: &Target,
) -> Result<String, CliError> {
    let annotation = encode_annotation(doc).map_err(|e| CliError::Failed(e.to_string()))?;
    let mut report = size_report(live, &annotation);
    let (path, content, expected) = match &target.write_last_applied {
        Some(out) => {
            let content = if out.extension().is_some_and(|e| e == "json") {
                let mut s =
                    gojson::to_string_pretty(doc).map_err(|e| CliError::Failed(e.to_string()))?;
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
                .map_err(|_| CliError::Input(format!("{}: not UTF-8", live_path.display())))?;
            let mut want = live.clone();
            if let Some(annotations) = want
                .pointer_mut("/metadata/annotations")
                .and_then(Value::as_object_mut)
            {
                annotations.insert(LAST_APPLIED.into(), Value::String(annotation.clone()));
            } else if let Some(metadata) = want.get_mut("metadata").and_then(Value::as_object_mut) {
                let mut annotations = serde_json::Map::new();
                annotations.insert(LAST_APPLIED.into(), Value::String(annotation.clone()));
                metadata.insert("annotations".into(), Value::Object(annotations));
            }
            let content = rewrite::set_annotation(text, &annotation, &want)
                .map_err(|e| CliError::Failed(format!("{}: {e}", live_path.display())))?;
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
    fsutil::write_guarded(&path, content.as_bytes(), expected.as_deref())
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let _ = writeln!(report, "wrote {}", path.display());
    Ok(report)
}

/// The annotation's size and the whole annotations map's against the server's limit.
fn size_report(live: &Value, annotation: &str) -> String {
    let others: usize = live
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| *k != LAST_APPLIED)
                .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
                .sum()
        })
        .unwrap_or(0);
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
