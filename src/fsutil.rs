//! Writing files a user owns: atomically (temp file in the same folder, fsync, rename), with a
//! `.bak` of the original, and only if the file is still what was read (no lost concurrent
//! change).

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// The steps of [`write_guarded`], for tests that make one fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The new content is written to the temp file (not yet synced).
    TempWritten,
    /// The backup is in place; the original is about to be replaced.
    BackedUp,
}

/// Why a guarded write did not happen.
#[derive(Debug)]
pub enum WriteError {
    /// The file on disk is no longer what was read.
    Changed(PathBuf),
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Changed(p) => write!(
                f,
                "{}: changed on disk since applyscope read it; nothing was written (reload and try again)",
                p.display()
            ),
            WriteError::Io(p, e) => write!(f, "{}: {e}; the original is unchanged", p.display()),
        }
    }
}

impl std::error::Error for WriteError {}

/// What a guarded write checks a file still holds: its length and SHA-256, which tell its bytes
/// apart as well as the bytes themselves do, without keeping them (a live file can be megabytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileDigest {
    len: u64,
    sha256: [u8; 32],
}

impl FileDigest {
    #[must_use]
    pub fn of(bytes: &[u8]) -> FileDigest {
        use sha2::Digest as _;
        FileDigest {
            len: bytes.len() as u64,
            sha256: sha2::Sha256::digest(bytes).into(),
        }
    }
}

/// Replace `path` with `content` if it still holds `expected` (`None`: the file must not exist),
/// keeping `<path>.bak`.
///
/// # Errors
/// [`WriteError::Changed`] when the file changed; [`WriteError::Io`] when a step fails (the
/// original is then untouched and no temp file is left).
pub fn write_guarded(
    path: &Path,
    content: &[u8],
    expected: Option<&[u8]>,
) -> Result<(), WriteError> {
    let expected = expected.map(FileDigest::of);
    write_guarded_with(path, content, expected.as_ref(), |_| Ok(()))
}

/// [`write_guarded`], the file's expected bytes known by their [`FileDigest`].
///
/// # Errors
/// As [`write_guarded`].
pub fn write_guarded_digest(
    path: &Path,
    content: &[u8],
    expected: Option<&FileDigest>,
) -> Result<(), WriteError> {
    write_guarded_with(path, content, expected, |_| Ok(()))
}

/// [`write_guarded`] with a hook run after each [`Step`] (tests inject failures there).
///
/// # Errors
/// As [`write_guarded`].
pub fn write_guarded_with(
    path: &Path,
    content: &[u8],
    expected: Option<&FileDigest>,
    mut hook: impl FnMut(Step) -> io::Result<()>,
) -> Result<(), WriteError> {
    let io_err = |e| WriteError::Io(path.to_owned(), e);
    let current = match fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_err(e)),
    };
    if current.as_deref().map(FileDigest::of).as_ref() != expected {
        return Err(WriteError::Changed(path.to_owned()));
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.applyscope-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(content)?;
        hook(Step::TempWritten)?;
        file.sync_all()?;
        drop(file);
        if let Ok(meta) = fs::metadata(path) {
            fs::set_permissions(&tmp, meta.permissions())?;
        }
        if let Some(original) = &current {
            write_backup(&dir.join(format!("{name}.bak")), original)?;
        }
        hook(Step::BackedUp)?;
        fs::rename(&tmp, path)?;
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io_err)
}

fn write_backup(bak: &Path, content: &[u8]) -> io::Result<()> {
    let tmp = bak.with_extension("bak.tmp");
    let mut file = fs::File::create(&tmp)?;
    file.write_all(content)?;
    file.sync_all()?;
    fs::rename(&tmp, bak)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_atomically_with_a_backup() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live.yaml");
        fs::write(&path, "old").unwrap();
        write_guarded(&path, b"new", Some(b"old")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::read(dir.path().join("live.yaml.bak")).unwrap(), b"old");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no temp file left"
        );
    }

    /// The digest tells apart files of the same length, and a file from its absence.
    #[test]
    fn the_digest_guard_refuses_a_same_length_change_and_a_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live.yaml");
        fs::write(&path, "olD").unwrap();
        let old = FileDigest::of(b"old");
        let err = write_guarded_digest(&path, b"new", Some(&old)).unwrap_err();
        assert!(matches!(err, WriteError::Changed(_)), "{err}");
        fs::remove_file(&path).unwrap();
        let err = write_guarded_digest(&path, b"new", Some(&old)).unwrap_err();
        assert!(matches!(err, WriteError::Changed(_)), "{err}");
        write_guarded_digest(&path, b"new", None).unwrap();
        write_guarded_digest(&path, b"newer", Some(&FileDigest::of(b"new"))).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"newer");
    }

    #[test]
    fn refuses_when_the_file_changed_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live.yaml");
        fs::write(&path, "edited by someone else").unwrap();
        let err = write_guarded(&path, b"new", Some(b"old")).unwrap_err();
        assert!(matches!(err, WriteError::Changed(_)), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"edited by someone else");
    }

    #[test]
    fn a_failure_midway_leaves_the_original_intact() {
        for step in [Step::TempWritten, Step::BackedUp] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("live.yaml");
            fs::write(&path, "old").unwrap();
            let old = FileDigest::of(b"old");
            let err = write_guarded_with(&path, b"new", Some(&old), |s| {
                if s == step {
                    Err(io::Error::other("disk full"))
                } else {
                    Ok(())
                }
            })
            .unwrap_err();
            assert!(err.to_string().contains("disk full"), "{err}");
            assert_eq!(fs::read(&path).unwrap(), b"old", "{step:?}");
            let names: Vec<String> = fs::read_dir(dir.path())
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            assert!(
                !names.iter().any(|n| n.ends_with(".tmp")),
                "{step:?}: {names:?}"
            );
        }
    }
}
