//! `applyscope patch diff | three-way | apply`: the engine's primitives on files.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::input::{SchemaSource, read_object, read_value};
use crate::engine::error::SmpError;
use crate::engine::{gojson, jsonmerge, jsonpatch, smp};
use crate::error::Error;

#[derive(Debug, Subcommand)]
pub enum PatchCommand {
    /// The two-way patch from --original to --modified.
    Diff {
        #[arg(long)]
        original: PathBuf,
        #[arg(long)]
        modified: PathBuf,
        #[command(flatten)]
        kind: PatchKind,
    },
    /// The three-way patch kubectl apply computes: --original is last-applied, --modified the
    /// local file, --current the live object.
    ThreeWay {
        #[arg(long)]
        original: PathBuf,
        #[arg(long)]
        modified: PathBuf,
        #[arg(long)]
        current: PathBuf,
        /// With false, fail on keys changed differently in --current (kubectl --overwrite=false).
        #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
        overwrite: bool,
        #[command(flatten)]
        kind: PatchKind,
    },
    /// Apply --patch to DOCUMENT.
    Apply {
        #[arg(long)]
        patch: PathBuf,
        #[command(flatten)]
        kind: PatchKind,
        document: PathBuf,
    },
}

/// Which patch format, and where strategic merge metadata comes from.
#[derive(Debug, Args)]
pub struct PatchKind {
    /// strategic (default), merge (RFC 7386), or json (RFC 6902, apply only).
    #[arg(long = "type", value_enum, default_value_t = PatchType::Strategic)]
    pub patch_type: PatchType,
    /// An OpenAPI v2 or v3 document with the patch metadata (default: Kubernetes 1.36, built in).
    #[arg(long)]
    pub schema: Option<PathBuf>,
    /// The schema definition of the document's root (default: found by apiVersion/kind).
    #[arg(long)]
    pub definition: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PatchType {
    Strategic,
    Merge,
    Json,
}

pub fn run(cmd: &PatchCommand) -> Result<String, Error> {
    let out = match cmd {
        PatchCommand::Diff {
            original,
            modified,
            kind,
        } => {
            let (o, m) = (read_object(original)?, read_object(modified)?);
            match kind.patch_type {
                PatchType::Strategic => {
                    let source = SchemaSource::load(kind.schema.as_deref())?;
                    let meta = source.root(kind.definition.as_deref(), &[&m, &o])?;
                    smp::diff2(&o, &m, meta)?
                }
                PatchType::Merge => jsonmerge::create_merge_patch(&o, &m)?,
                PatchType::Json => jsonpatch::diff_json_patch(&o, &m),
            }
        }
        PatchCommand::ThreeWay {
            original,
            modified,
            current,
            overwrite,
            kind,
        } => {
            let (o, m, c) = (
                read_object(original)?,
                read_object(modified)?,
                read_object(current)?,
            );
            match kind.patch_type {
                PatchType::Strategic => {
                    let source = SchemaSource::load(kind.schema.as_deref())?;
                    let meta = source.root(kind.definition.as_deref(), &[&m, &c, &o])?;
                    smp::diff3(&o, &m, &c, meta, *overwrite)?
                }
                PatchType::Merge => jsonmerge::create_three_way_json_merge_patch(&o, &m, &c, &[])?,
                PatchType::Json => {
                    return Err(Error::Input(
                        "--type json: a three-way JSON patch does not exist; use strategic or merge".into(),
                    ));
                }
            }
        }
        PatchCommand::Apply {
            patch,
            kind,
            document,
        } => {
            let doc = read_value(document)?;
            match kind.patch_type {
                PatchType::Strategic => {
                    // The reference's check, before any schema lookup: both must be objects.
                    let p = read_value(patch)?;
                    for (path, value) in [(document, &doc), (patch, &p)] {
                        if !value.is_object() {
                            return Err(Error::from(SmpError::BadJsonDoc)
                                .context(path.display().to_string()));
                        }
                    }
                    let source = SchemaSource::load(kind.schema.as_deref())?;
                    let meta = source.root(kind.definition.as_deref(), &[&doc])?;
                    smp::apply(doc, p, meta)?
                }
                PatchType::Merge => jsonmerge::apply_merge_patch(&doc, &read_value(patch)?)?,
                PatchType::Json => jsonpatch::apply_json_patch(&doc, &read_value(patch)?)?,
            }
        }
    };
    let mut text = gojson::to_string(&out)?;
    text.push('\n');
    Ok(text)
}
