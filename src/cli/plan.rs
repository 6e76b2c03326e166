//! `applyscope plan`: what `kubectl apply` would send, the result, every field's action and why.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::Value;

use super::CliError;
use super::input::{read_object, read_one_object};
use crate::engine::plan::{self, Action, InputDoc, LastApplied, Plan, PlanError, PlanInput};
use crate::engine::schema::Schema;
use crate::engine::{gojson, jsonmerge};

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The file you would apply.
    #[arg(long, short = 'f')]
    pub local: PathBuf,
    /// The live object, as a file (e.g. `kubectl get -o yaml`).
    #[arg(long, conflicts_with = "no_live")]
    pub live: Option<PathBuf>,
    /// The object does not exist yet: plan a create.
    #[arg(long)]
    pub no_live: bool,
    /// The last-applied configuration (default: the live object's annotation).
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Yaml,
}

/// Documents of one plan, already read.
pub struct PlanDocs {
    pub local: Value,
    pub live: Option<Value>,
    pub last_applied: Option<Value>,
}

pub fn run(args: &PlanArgs) -> Result<String, CliError> {
    let live = match (&args.live, args.no_live) {
        (Some(path), _) => Some(read_one_object(path)?),
        (None, true) => None,
        (None, false) => {
            return Err(CliError::Input(
                "no live object: pass --live FILE, or --no-live for a create (reading the live object from a cluster is not built yet)".into(),
            ));
        }
    };
    let docs = PlanDocs {
        local: read_one_object(&args.local)?,
        live,
        last_applied: args.last_applied.as_deref().map(read_object).transpose()?,
    };
    let show = |p: &std::path::Path| p.display().to_string();
    let names = DocNames {
        local: show(&args.local),
        live: args.live.as_deref().map(show).unwrap_or_default(),
        last_applied: args.last_applied.as_deref().map(show).unwrap_or_default(),
    };
    let p = compute_named(&docs, args.namespace.as_deref(), args.overwrite, &names)?;
    render(&p, args.output)
}

/// Plan documents with the embedded schema.
pub fn compute(
    docs: &PlanDocs,
    namespace: Option<&str>,
    overwrite: bool,
) -> Result<Plan, CliError> {
    compute_named(docs, namespace, overwrite, &DocNames::default())
}

/// The names of the input documents, for messages.
pub struct DocNames {
    pub local: String,
    pub live: String,
    pub last_applied: String,
}

impl Default for DocNames {
    fn default() -> Self {
        DocNames {
            local: "local".into(),
            live: "live".into(),
            last_applied: "last-applied".into(),
        }
    }
}

/// Plan documents with the embedded schema; input errors name the document.
pub fn compute_named(
    docs: &PlanDocs,
    namespace: Option<&str>,
    overwrite: bool,
    names: &DocNames,
) -> Result<Plan, CliError> {
    let input = PlanInput {
        local: &docs.local,
        live: docs.live.as_ref(),
        last_applied: docs
            .last_applied
            .as_ref()
            .map_or(LastApplied::FromLive, LastApplied::Given),
        namespace,
        overwrite,
    };
    plan::plan(&input, Schema::embedded()).map_err(|e| match e {
        PlanError::Input { about, message } => {
            let name = match about {
                InputDoc::Local => &names.local,
                InputDoc::Live => &names.live,
                InputDoc::LastApplied => &names.last_applied,
            };
            CliError::Input(format!("{name}: {message}"))
        }
        PlanError::Kubectl(m) | PlanError::Conflict(m) => CliError::Failed(m),
    })
}

/// Write a plan in the chosen format.
pub fn render(p: &Plan, format: Format) -> Result<String, CliError> {
    let value = serde_json::to_value(p).map_err(|e| CliError::Failed(e.to_string()))?;
    Ok(match format {
        Format::Json => {
            let mut s =
                gojson::to_string_pretty(&value).map_err(|e| CliError::Failed(e.to_string()))?;
            s.push('\n');
            s
        }
        Format::Yaml => jsonmerge::to_yaml(&value),
        Format::Text => text(p),
    })
}

fn short(v: Option<&Value>) -> String {
    match v {
        None => "-".into(),
        Some(Value::String(s)) => {
            let s: String = s.chars().flat_map(char::escape_default).collect();
            if s.chars().count() > 40 {
                format!("\"{}…\"", s.chars().take(39).collect::<String>())
            } else {
                format!("\"{s}\"")
            }
        }
        Some(other) => {
            let s = gojson::to_string(other).unwrap_or_default();
            if s.chars().count() > 40 {
                format!("{}…", s.chars().take(39).collect::<String>())
            } else {
                s
            }
        }
    }
}

/// The readable table: path, action, old → new, reason; then warnings.
fn text(p: &Plan) -> String {
    let mut out = String::new();
    let what = match (&p.created, p.patch_type) {
        (Some(_), _) => "create (POST): the object does not exist".to_owned(),
        (None, Some(t)) => format!("PATCH {}", t.content_type()),
        (None, None) => "unchanged: kubectl would send nothing".to_owned(),
    };
    let _ = writeln!(out, "plan: {what}");
    let count = |a: Action| p.fields.iter().filter(|f| f.action == a).count();
    let counts: Vec<String> = Action::ALL
        .iter()
        .filter(|a| **a != Action::Unchanged)
        .map(|a| format!("{} {}", count(*a), a.name()))
        .collect();
    let _ = writeln!(out, "fields: {}", counts.join(", "));
    let _ = writeln!(out);
    let width = p
        .fields
        .iter()
        .filter(|f| f.action != Action::Unchanged)
        .map(|f| f.path.to_string().chars().count())
        .max()
        .unwrap_or(4)
        .min(70);
    for f in p.fields.iter().filter(|f| f.action != Action::Unchanged) {
        let change = if f.live.is_some() || f.result.is_some() {
            format!(
                "  {} → {}",
                short(f.live.as_ref()),
                short(f.result.as_ref())
            )
        } else {
            String::new()
        };
        let mut why = format!("{} [{}]", f.reason.row, f.reason.kind);
        if let Some(d) = &f.reason.directive {
            let _ = write!(why, " via {d}");
        }
        if let Some(n) = &f.reason.note {
            let _ = write!(why, "; {n}");
        }
        let _ = writeln!(
            out,
            "{:<9} {:<width$}{change}\n          why: {why}",
            f.action.name(),
            f.path.to_string()
        );
    }
    if !p.warnings.is_empty() {
        let _ = writeln!(out, "\nwarnings:");
        for w in &p.warnings {
            let _ = writeln!(
                out,
                "! {} {}: {}",
                w.code,
                w.path.as_deref().unwrap_or("-"),
                w.message
            );
        }
    }
    out
}
