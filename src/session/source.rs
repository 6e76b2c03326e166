//! One object's documents and what they are: a built-in example, or the files `-f`, `--live`
//! and `--last-applied` name.

use std::path::Path;

use super::Error;
use super::input::{read_object, read_one_object};
use super::plan::Docs;
use crate::examples::Example;

/// The documents to show, and what they are.
pub struct Source {
    /// `example nginx-scale-image`, or the file names.
    pub title: String,
    /// What the example teaches (empty for files).
    pub about: String,
    pub docs: Docs,
}

impl Source {
    /// A built-in example's documents.
    ///
    /// # Errors
    /// [`Error::Document`] if one of its documents does not parse.
    pub fn from_example(example: &Example) -> Result<Source, Error> {
        let parse = |text: &str, name: &str| -> Result<crate::value::Value, Error> {
            let mut docs = crate::document::parse_documents(text, name)?;
            if docs.len() == 1 {
                Ok(docs.remove(0).value)
            } else {
                Err(Error::Input(format!(
                    "example {}: {name}: expected one document",
                    example.name
                )))
            }
        };
        Ok(Source {
            title: format!("example {}", example.name),
            about: example.about.trim().to_owned(),
            docs: Docs {
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

/// The files of one object, as the command line names them.
#[derive(Clone, Copy, Debug)]
pub struct FileArgs<'a> {
    pub local: &'a Path,
    /// `None` with `no_live`: a create.
    pub live: Option<&'a Path>,
    pub no_live: bool,
    pub last_applied: Option<&'a Path>,
}

impl Source {
    /// The documents named by `-f`, `--live`, `--last-applied`.
    ///
    /// # Errors
    /// [`Error::Input`]: an unreadable file, a file holding other than one object, no live
    /// object and no `--no-live`.
    pub fn from_files(files: FileArgs<'_>) -> Result<Source, Error> {
        let live = match (files.live, files.no_live) {
            (Some(path), _) => Some(read_one_object(path)?),
            (None, true) => None,
            (None, false) => {
                return Err(Error::Input(
                    "no live object: pass --live FILE, or --no-live for a create".into(),
                ));
            }
        };
        let local = files.local;
        let title = match files.live {
            Some(l) => format!("{} → {}", local.display(), l.display()),
            None => format!("{} (create)", local.display()),
        };
        Ok(Source {
            title,
            about: String::new(),
            docs: Docs {
                local: read_one_object(local)?,
                live,
                last_applied: files.last_applied.map(read_object).transpose()?,
            },
        })
    }
}
