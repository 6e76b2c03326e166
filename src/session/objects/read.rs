//! Reading the arguments' objects as `kubectl apply -f` reads them: the arguments are walked in
//! order first (directories listed, standard input read), then the files are read and parsed on
//! every core. The first failure in the walk's order is the one reported, as when the files
//! were read one after another.
//!
//! [`read_held`] keeps each object packed ([`Packed`]), not as a parsed value (a parsed object
//! takes about three times its text): 10,000 objects are then held in about the size of their
//! files, and each is thawed when it is planned ([`super::load_one`]).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use crate::value::Value;
use crate::value::packed::Packed;

use super::super::input::{MAX_INPUT_BYTES, flatten_lists, kind_name, read_bytes};
use super::super::parallel::parallel_map;
use super::{Error, Key, Object};
use crate::engine::object::ObjectRef;

/// What the walk over the arguments found, in reading order.
enum Step {
    /// A file to read, named directly or found in a directory.
    File(PathBuf),
    /// Standard input's bytes.
    Stdin(Vec<u8>),
    /// A directory argument starts.
    DirStart,
    /// A directory argument ends: no object since its start is an error.
    DirEnd(PathBuf),
    /// The walk stopped here: nothing after it would have been read.
    Failed(Error),
}

/// Reads every argument's objects, in argument order.
///
/// # Errors
/// [`Error::Input`] naming the file: unreadable, not YAML/JSON, an object without `kind` or
/// `apiVersion`, `-` given twice.
pub fn read_all(
    paths: &[PathBuf],
    recursive: bool,
    stdin_used: &mut bool,
) -> Result<Vec<Object>, Error> {
    read_with(paths, recursive, stdin_used, |bytes, name| {
        objects_of(&bytes, &name)
    })
}

/// [`read_all`], each object held as [`Held`] (packed).
///
/// # Errors
/// As [`read_all`].
pub fn read_held(
    paths: &[PathBuf],
    recursive: bool,
    stdin_used: &mut bool,
) -> Result<Vec<Held>, Error> {
    read_with(paths, recursive, stdin_used, held_of)
}

/// The walk, then `of` (a file's bytes and name → its objects) on every file, on every core.
fn read_with<T: Send>(
    paths: &[PathBuf],
    recursive: bool,
    stdin_used: &mut bool,
    of: impl Fn(Vec<u8>, String) -> Result<Vec<T>, Error> + Sync,
) -> Result<Vec<T>, Error> {
    let steps = walk(paths, recursive, stdin_used);
    let read = parallel_map(&steps, |step| match step {
        Step::File(path) => Some(read_bytes(path).and_then(|b| of(b, path.display().to_string()))),
        Step::Stdin(bytes) => Some(of(bytes.clone(), "-".to_owned())),
        Step::DirStart | Step::DirEnd(_) | Step::Failed(_) => None,
    });
    let mut out = Vec::new();
    let mut dir_from = 0;
    for (step, objects) in steps.into_iter().zip(read) {
        match (step, objects) {
            (_, Some(objects)) => out.extend(objects?),
            (Step::DirStart, None) => dir_from = out.len(),
            (Step::DirEnd(path), None) if out.len() == dir_from => {
                return Err(Error::Input(format!(
                    "{}: is a directory holding no objects in .yaml, .yml or .json files{}",
                    path.display(),
                    if recursive {
                        ""
                    } else {
                        " (-R reads subdirectories)"
                    }
                )));
            }
            (Step::Failed(e), None) => return Err(e),
            _ => {}
        }
    }
    Ok(out)
}

/// The files to read, in order; it stops at the first failure (a [`Step::Failed`]).
fn walk(paths: &[PathBuf], recursive: bool, stdin_used: &mut bool) -> Vec<Step> {
    let mut steps = Vec::new();
    for path in paths {
        let walked = if path.as_os_str() == "-" {
            read_stdin(stdin_used).map(|bytes| steps.push(Step::Stdin(bytes)))
        } else if path.is_dir() {
            steps.push(Step::DirStart);
            let listed = list_dir(path, recursive, &mut steps);
            steps.push(Step::DirEnd(path.clone()));
            listed
        } else {
            steps.push(Step::File(path.clone()));
            Ok(())
        };
        if let Err(e) = walked {
            steps.push(Step::Failed(e));
            break;
        }
    }
    steps
}

fn read_stdin(stdin_used: &mut bool) -> Result<Vec<u8>, Error> {
    if *stdin_used {
        return Err(Error::Input(
            "-: standard input can be read only once".into(),
        ));
    }
    *stdin_used = true;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(Path::new("-"), e))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Error::Input(format!(
            "-: more than the {} MB applyscope reads",
            MAX_INPUT_BYTES / 1_000_000
        )));
    }
    Ok(bytes)
}

/// A directory's manifests in name order; subdirectories only when recursive (symbolic links to
/// directories are not followed, as `filepath.Walk` does not follow them).
fn list_dir(dir: &Path, recursive: bool, steps: &mut Vec<Step>) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    // Each entry's type as the listing gives it (`lstat`'s, without another lookup of the
    // path on most file systems).
    let mut listed: Vec<(PathBuf, std::fs::FileType)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let kind = entry.file_type().map_err(|e| Error::io(&entry.path(), e))?;
        listed.push((entry.path(), kind));
    }
    listed.sort_by(|a, b| a.0.file_name().cmp(&b.0.file_name()));
    for (path, kind) in listed {
        if kind.is_dir() {
            if recursive {
                list_dir(&path, recursive, steps)?;
            }
            continue;
        }
        let manifest = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"));
        // A symbolic link to a directory is neither listed nor read.
        if manifest && !(kind.is_symlink() && path.is_dir()) {
            steps.push(Step::File(path));
        }
    }
    Ok(())
}

/// The objects of one file's bytes.
///
/// # Errors
/// [`Error::Document`] (or [`Error::Input`]) naming the file and the place.
pub fn objects_of(bytes: &[u8], name: &str) -> Result<Vec<Object>, Error> {
    let docs = crate::document::parse_values_bytes(bytes, name)?;
    let mut values = Vec::new();
    for (i, doc) in docs.into_iter().enumerate() {
        if !doc.value.is_object() {
            return Err(Error::Input(format!(
                "{name}: document {}: expected an object, found {}",
                i + 1,
                kind_name(&doc.value)
            )));
        }
        values.extend(flatten_lists(doc.value));
    }
    let many = values.len() > 1;
    values
        .into_iter()
        .enumerate()
        .map(|(i, value)| {
            let source = if many {
                format!("{name}#{}", i + 1)
            } else {
                name.to_owned()
            };
            if !value.is_object() {
                return Err(Error::Input(format!(
                    "{source}: expected an object, found {}",
                    kind_name(&value)
                )));
            }
            let r = ObjectRef::of(&value);
            for (field, what) in [(r.kind, "Kind"), (r.api_version, "apiVersion")] {
                if field.is_empty() {
                    return Err(Error::Input(format!(
                        "{source}: Object '{what}' is missing"
                    )));
                }
            }
            Ok(Object { value, source })
        })
        .collect()
}

/// One object read from an argument (read and checked), held until it is planned: packed
/// ([`Packed`]: about the size of its text, a third of the parsed value's) and thawed when its
/// turn comes, much faster than parsing its text again.
#[derive(Debug)]
pub struct Held {
    pub source: String,
    /// The key as the object is written (before `pair` gives it a namespace).
    pub(super) key: Key,
    pub(super) api_version: String,
    form: Form,
}

#[derive(Debug)]
enum Form {
    /// Too deep to pack (a document nesting past [`crate::value::packed::MAX_DEPTH`]).
    Parsed(Value),
    Packed(Packed),
}

impl Held {
    fn of(object: Object) -> Held {
        let r = ObjectRef::of(&object.value);
        Held {
            key: Key::of(&object.value),
            api_version: r.api_version.to_owned(),
            form: match Packed::pack(&object.value) {
                Some(packed) => Form::Packed(packed),
                None => Form::Parsed(object.value),
            },
            source: object.source,
        }
    }

    /// The object as read: thawed, or a copy of the parsed one.
    ///
    /// # Errors
    /// Only if its packed bytes do not thaw (they do: [`Packed::pack`] made them).
    pub(super) fn object(&self) -> Result<Object, Error> {
        match &self.form {
            Form::Parsed(value) => Ok(Object {
                value: value.clone(),
                source: self.source.clone(),
            }),
            Form::Packed(packed) => Self::thaw(packed, self.source.clone()),
        }
    }

    fn thaw(packed: &Packed, source: String) -> Result<Object, Error> {
        match packed.unpack() {
            Ok(value) => Ok(Object { value, source }),
            Err(e) => Err(Error::Failed(format!("{source}: {e}"))),
        }
    }
}

/// A file's objects as [`Held`].
fn held_of(bytes: Vec<u8>, name: String) -> Result<Vec<Held>, Error> {
    let objects = objects_of(&bytes, &name)?;
    drop(bytes);
    Ok(objects.into_iter().map(Held::of).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: NAME}\n";

    fn names(dir: &Path, recursive: bool) -> Vec<String> {
        let mut stdin_used = false;
        read_all(&[dir.to_path_buf()], recursive, &mut stdin_used)
            .unwrap()
            .into_iter()
            .map(|o| {
                let name = o.value["metadata"]["name"].as_str().unwrap().to_owned();
                let file = Path::new(&o.source).strip_prefix(dir).unwrap();
                format!("{}={name}", file.display())
            })
            .collect()
    }

    #[test]
    fn a_directory_lists_its_manifests_by_name_links_to_files_read_to_directories_not() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        let write = |rel: &str, name: &str| {
            std::fs::write(p.join(rel), CM.replace("NAME", name)).unwrap();
        };
        write("b.yaml", "b");
        write("a.json", "a");
        write("c.txt", "not-a-manifest");
        std::fs::create_dir(p.join("sub.yaml")).unwrap();
        write("sub.yaml/d.yml", "d");
        std::fs::create_dir(p.join("elsewhere")).unwrap();
        write("elsewhere/e.yaml", "e");
        std::os::unix::fs::symlink(p.join("b.yaml"), p.join("link.yaml")).unwrap();
        std::os::unix::fs::symlink(p.join("elsewhere"), p.join("linked-dir.yaml")).unwrap();
        std::os::unix::fs::symlink(p.join("gone.yaml"), p.join("dangling.yaml")).unwrap();
        std::fs::remove_file(p.join("elsewhere/e.yaml")).unwrap();
        // A dangling link is a manifest that cannot be read: named, as kubectl names it.
        let mut stdin_used = false;
        let err = read_all(&[p.to_path_buf()], false, &mut stdin_used).unwrap_err();
        assert!(err.to_string().contains("dangling.yaml"), "{err}");
        std::fs::remove_file(p.join("dangling.yaml")).unwrap();
        write("elsewhere/e.yaml", "e");
        assert_eq!(names(p, false), ["a.json=a", "b.yaml=b", "link.yaml=b"]);
        assert_eq!(
            names(p, true),
            [
                "a.json=a",
                "b.yaml=b",
                "elsewhere/e.yaml=e",
                "link.yaml=b",
                "sub.yaml/d.yml=d"
            ]
        );
    }
}
