//! Where the documents came from and what a (re)load read: [`load`] reads the files a reload
//! asks for (each once), [`parse`] turns their bytes into documents exactly as `-f` reads them,
//! so a reload and the first load agree.

use std::path::{Path, PathBuf};

use crate::value::Value;

use super::Error;
use super::input::{object_of_bytes, one_object_of_bytes};
use super::plan::Docs;

/// The files the TUI was opened on (`-f LOCAL --live LIVE [--last-applied F]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Files {
    pub local: PathBuf,
    /// `None`: `--no-live` (a create).
    pub live: Option<PathBuf>,
    pub last_applied: Option<PathBuf>,
}

/// What to read again (the reload key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReloadRequest {
    /// `None`: a built-in example (only the write target is read).
    pub files: Option<Files>,
    /// The file a commit writes, whose bytes guard the write.
    pub target: Option<PathBuf>,
}

/// The raw bytes of a load; `None` where a file is not part of it or does not exist.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawFiles {
    pub local: Option<Vec<u8>>,
    pub live: Option<Vec<u8>>,
    pub last_applied: Option<Vec<u8>>,
    pub target: Option<Vec<u8>>,
}

/// What a load read: the documents (files mode) and the write target's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub docs: Option<Docs>,
    /// The write target's bytes as read (`None`: it does not exist). When the target is the
    /// live file, these are the bytes `docs.live` was parsed from.
    pub target_bytes: Option<Vec<u8>>,
}

/// Parse what the runtime read for `request`.
///
/// # Errors
/// [`Error::Input`] naming the file and the place.
pub fn parse(request: &ReloadRequest, raw: RawFiles) -> Result<Loaded, Error> {
    let docs = match &request.files {
        None => None,
        Some(files) => {
            let name = |p: &PathBuf| p.display().to_string();
            let local = raw
                .local
                .as_deref()
                .ok_or_else(|| Error::Input(format!("{}: not read", name(&files.local))))?;
            let live = match (&files.live, raw.live.as_deref()) {
                (Some(path), Some(bytes)) => Some(one_object(&name(path), bytes)?),
                (Some(path), None) => return Err(no_such_file(path)),
                (None, _) => None,
            };
            let last_applied = match (&files.last_applied, raw.last_applied.as_deref()) {
                (Some(path), Some(bytes)) => Some(object(&name(path), bytes)?),
                (Some(path), None) => return Err(no_such_file(path)),
                (None, _) => None,
            };
            Some(Docs {
                local: one_object(&name(&files.local), local)?,
                live,
                last_applied,
            })
        }
    };
    Ok(Loaded {
        docs,
        target_bytes: raw.target,
    })
}

/// One document that is an object (a last-applied configuration).
///
/// # Errors
/// Parse errors, several documents, or something other than an object.
pub fn object(name: &str, bytes: &[u8]) -> Result<Value, Error> {
    object_of_bytes(name, bytes)
}

/// One Kubernetes object, as kubectl reads `-f`: a `kind: List` stands for its items.
///
/// # Errors
/// As [`object`], and a list of other than one item.
pub fn one_object(name: &str, bytes: &[u8]) -> Result<Value, Error> {
    one_object_of_bytes(name, bytes)
}

/// A file a load needs that is not there.
fn no_such_file(path: &Path) -> Error {
    Error::read(path, std::io::ErrorKind::NotFound.into())
}

/// Read what a reload asks for (each file once; a missing file is `None`).
///
/// # Errors
/// [`Error::Io`] naming the file, or as [`parse`].
pub fn load(request: &ReloadRequest) -> Result<Loaded, Error> {
    let mut cache: Vec<(PathBuf, Option<Vec<u8>>)> = Vec::new();
    let mut read = |path: &Path| -> Result<Option<Vec<u8>>, Error> {
        if let Some((_, bytes)) = cache.iter().find(|(p, _)| p == path) {
            return Ok(bytes.clone());
        }
        let bytes = match std::fs::read(path) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(path, e)),
        };
        cache.push((path.to_owned(), bytes.clone()));
        Ok(bytes)
    };
    let mut raw = RawFiles::default();
    if let Some(f) = &request.files {
        raw.local = read(&f.local)?;
        if let Some(live) = &f.live {
            raw.live = read(live)?;
        }
        if let Some(la) = &f.last_applied {
            raw.last_applied = read(la)?;
        }
    }
    if let Some(target) = &request.target {
        raw.target = read(target)?;
    }
    parse(request, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_one_object_and_flattens_a_list_of_one() {
        let v = one_object("f", b"kind: List\nitems:\n- kind: ConfigMap\n").unwrap();
        assert_eq!(v["kind"], "ConfigMap");
        assert!(one_object("f", b"kind: List\nitems: [{}, {}]\n").is_err());
        assert!(
            object("f", b"- a\n")
                .unwrap_err()
                .to_string()
                .contains("a list")
        );
        assert!(object("f", b"a: 1\n---\nb: 2\n").is_err());
    }

    #[test]
    fn parse_needs_the_files_it_names() {
        let request = ReloadRequest {
            files: Some(Files {
                local: "l.yaml".into(),
                live: Some("v.yaml".into()),
                last_applied: None,
            }),
            target: Some("v.yaml".into()),
        };
        let raw = RawFiles {
            local: Some(b"kind: A\n".to_vec()),
            ..RawFiles::default()
        };
        let e = parse(&request, raw).unwrap_err();
        assert_eq!(e.to_string(), "v.yaml: no such file");
        assert_eq!(e.exit_code(), 2);
    }
}
