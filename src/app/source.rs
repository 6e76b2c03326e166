//! What the TUI shows: a title and the documents of one plan (a built-in example or files).

use crate::cli::CliError;
use crate::cli::plan::PlanDocs;
use crate::examples::Example;

/// The documents to show, and what they are.
pub struct Source {
    /// `example nginx-scale-image`, or the file names.
    pub title: String,
    /// What the example teaches (empty for files).
    pub about: String,
    pub docs: PlanDocs,
}

impl Source {
    /// A built-in example's documents.
    ///
    /// # Errors
    /// [`CliError::Input`] if one of its documents does not parse.
    pub fn from_example(example: &Example) -> Result<Source, CliError> {
        let parse = |text: &str, name: &str| -> Result<crate::value::Value, CliError> {
            let mut docs = crate::document::parse_documents(text, name)
                .map_err(|e| CliError::Input(e.to_string()))?;
            if docs.len() == 1 {
                Ok(docs.remove(0).value)
            } else {
                Err(CliError::Input(format!(
                    "example {}: {name}: expected one document",
                    example.name
                )))
            }
        };
        Ok(Source {
            title: format!("example {}", example.name),
            about: example.about.trim().to_owned(),
            docs: PlanDocs {
                local: parse(example.local, "local.yaml")?,
                live: example.live.map(|t| parse(t, "live.yaml")).transpose()?,
                last_applied: example
                    .last_applied
                    .map(|t| parse(t, "last-applied.yaml"))
                    .transpose()?,
            },
        })
    }
}
