//! Where the documents came from and what a (re)load read: [`load`] reads the files a reload
//! asks for (each once), [`parse`] turns their bytes into documents exactly as `-f` reads them,
//! so a reload and the first load agree.

use std::path::{Path, PathBuf};

use crate::value::Value;

use super::Error;
use super::input::{object_of_bytes, one_object_of_bytes, read_bytes};
use super::plan::Docs;
use crate::fsutil::FileDigest;

/// The files the TUI was opened on (`-f LOCAL --live LIVE [--last-applied F]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Files {
    pub local: PathBuf,
    /// `None`: `--no-live` (a create).
    pub live: Option<PathBuf>,
    pub last_applied: Option<PathBuf>,
}

/// What a commit writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// The live object's file, with only its annotation rewritten.
    LiveFile,
    /// The last-applied document alone (`--write-last-applied`).
    Document,
}

/// Where a commit writes, if anywhere: `--write-last-applied FILE`, else the live file.
#[must_use]
pub fn write_target<'a>(
    files: Option<&'a Files>,
    write_last_applied: Option<&'a Path>,
) -> Option<(&'a Path, TargetKind)> {
    if let Some(p) = write_last_applied {
        return Some((p, TargetKind::Document));
    }
    let live = files?.live.as_deref()?;
    Some((live, TargetKind::LiveFile))
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
    /// The write target's digest as read (`None`: it does not exist). When the target is the
    /// live file, these are the bytes `docs.live` was parsed from.
    pub target: Option<FileDigest>,
}

/// Parse what the runtime read for `request` (the local and live files on two threads).
///
/// # Errors
/// [`Error::Input`] naming the file and the place.
pub fn parse(request: &ReloadRequest, raw: &RawFiles) -> Result<Option<Docs>, Error> {
    let Some(files) = &request.files else {
        return Ok(None);
    };
    let name = |p: &PathBuf| p.display().to_string();
    let local = raw
        .local
        .as_deref()
        .ok_or_else(|| Error::Input(format!("{}: not read", name(&files.local))))?;
    let live = match (&files.live, raw.live.as_deref()) {
        (Some(path), Some(bytes)) => Some((path, bytes)),
        (Some(path), None) => return Err(no_such_file(path)),
        (None, _) => None,
    };
    let last_applied = match (&files.last_applied, raw.last_applied.as_deref()) {
        (Some(path), Some(bytes)) => Some(object(&name(path), bytes)?),
        (Some(path), None) => return Err(no_such_file(path)),
        (None, _) => None,
    };
    let (live, local) = crate::engine::smp::both(
        live.is_some(),
        || live.map(|(path, bytes)| one_object(&name(path), bytes)),
        || one_object(&name(&files.local), local),
    );
    Ok(Some(Docs {
        local: local?,
        live: live.transpose()?,
        last_applied,
    }))
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

/// Read what `request` asks for, each file once, and parse it: the documents (files mode) and
/// the write target's bytes, which are the very bytes its document was parsed from when the
/// target is one of the files (the live file).
///
/// # Errors
/// [`Error::Io`] naming the file, or as [`parse`].
pub fn load(request: &ReloadRequest) -> Result<Loaded, Error> {
    let mut raw = RawFiles::default();
    // Which of the files the target is, if any: its bytes are moved, not read again.
    let mut target_is = None;
    if let Some(f) = &request.files {
        raw.local = read_if_there(&f.local)?;
        raw.live = f.live.as_deref().map(read_if_there).transpose()?.flatten();
        raw.last_applied = f
            .last_applied
            .as_deref()
            .map(read_if_there)
            .transpose()?
            .flatten();
        let target = request.target.as_deref();
        target_is = [
            Some(f.local.as_path()),
            f.live.as_deref(),
            f.last_applied.as_deref(),
        ]
        .iter()
        .position(|p| p.is_some() && *p == target);
    }
    if target_is.is_none()
        && let Some(target) = &request.target
    {
        raw.target = read_if_there(target)?;
    }
    let docs = parse(request, &raw)?;
    let target = match target_is {
        Some(0) => raw.local,
        Some(1) => raw.live,
        Some(_) => raw.last_applied,
        None => raw.target,
    };
    let target = target.as_deref().map(FileDigest::of);
    Ok(Loaded { docs, target })
}

/// A file's bytes as `-f` reads them (size limit, not a directory); `None`: it does not exist.
fn read_if_there(path: &Path) -> Result<Option<Vec<u8>>, Error> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read_bytes(path).map(Some),
    }
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
        let e = parse(&request, &raw).unwrap_err();
        assert_eq!(e.to_string(), "v.yaml: no such file");
        assert_eq!(e.exit_code(), 2);
    }
}
