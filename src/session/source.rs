//! One object's documents and what they are: a built-in example, or the files `-f`, `--live`
//! and `--last-applied` name.

use std::path::Path;

use super::Error;
use super::files::{Files, Loaded, ReloadRequest, load, write_target};
use super::plan::Docs;
use crate::examples::Example;
use crate::fsutil::FileDigest;

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

impl Source {
    /// Read `files` once: their documents, and the digest of the file a commit writes
    /// (`--write-last-applied FILE`, else the live file; `None` if it does not exist), which
    /// are the bytes its document was parsed from.
    ///
    /// # Errors
    /// [`Error::Input`]: an unreadable file, a file holding other than one object.
    pub fn read_files(
        files: &Files,
        write_last_applied: Option<&Path>,
    ) -> Result<(Source, Option<FileDigest>), Error> {
        let reload = ReloadRequest {
            files: Some(files.clone()),
            target: write_target(Some(files), write_last_applied).map(|(p, _)| p.to_owned()),
        };
        let Loaded { docs, target } = load(&reload)?;
        let docs =
            docs.ok_or_else(|| Error::Input(format!("{}: not read", files.local.display())))?;
        Ok((Source::of_files(files, docs), target))
    }

    /// The documents read from `files` (-f, --live, --last-applied), named by them.
    fn of_files(files: &Files, docs: Docs) -> Source {
        let local = files.local.display();
        let title = match &files.live {
            Some(l) => format!("{local} → {}", l.display()),
            None => format!("{local} (create)"),
        };
        Source {
            title,
            about: String::new(),
            docs,
        }
    }
}
