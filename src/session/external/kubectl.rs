//! The file kubectl diff was given, read again: kubectl passes its diff program no local file
//! (see [`super`]), but the program's parent process is kubectl itself (`exec.Command`, no
//! shell), whose command line and working directory Linux shows in `/proc/PID/cmdline` and
//! `/proc/PID/cwd`. When they name files (`-f FILE|DIR`, `--filename`, `-R`), applyscope reads
//! them again as kubectl read them, and its plan is then exactly kubectl's. Standard input
//! (`-f -`), a kustomization (`-k`), a URL, another parent (a wrapper script) or another system
//! leave local to be inferred; the reason is kept for the explorer's note.

use std::path::{Path, PathBuf};

use crate::session::Error;
use crate::session::objects::{self, Key, Object};

/// What kubectl diff was asked to read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    pub files: Vec<PathBuf>,
    pub recursive: bool,
    /// `--server-side`: the merged objects are a server-side apply's.
    pub server_side: bool,
}

/// kubectl's local objects, read again (with the arguments that named them), or why not.
#[derive(Debug)]
pub struct Locals {
    pub read: Result<(Args, Vec<Object>), Error>,
}

impl Locals {
    /// Not known (tests, other systems).
    #[must_use]
    pub fn unknown(why: &str) -> Locals {
        Locals {
            read: Err(Error::Failed(why.to_owned())),
        }
    }

    /// The local object with `key` (a local object without a namespace is in kubectl's, the
    /// merged object's).
    #[must_use]
    pub fn find(&self, key: &Key) -> Option<&Object> {
        let (_, objects) = self.read.as_ref().ok()?;
        let mut found = objects.iter().filter(|o| {
            let k = Key::of(&o.value);
            (&k.group, &k.kind, &k.name) == (&key.group, &key.kind, &key.name)
                && (k.namespace.is_empty() || k.namespace == key.namespace)
        });
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    /// `-f a.yaml -f dir -R`.
    #[must_use]
    pub fn named(&self) -> String {
        let Ok((args, _)) = &self.read else {
            return String::new();
        };
        let mut words: Vec<String> = args
            .files
            .iter()
            .map(|f| format!("-f {}", f.display()))
            .collect();
        if args.recursive {
            words.push("-R".into());
        }
        words.join(" ")
    }

    #[must_use]
    pub fn server_side(&self) -> bool {
        self.read.as_ref().is_ok_and(|(a, _)| a.server_side)
    }
}

/// The objects of the parent kubectl's `-f` arguments.
#[must_use]
pub fn locals() -> Locals {
    let read = parent_command_line().and_then(|(argv, cwd)| {
        let args = parse(&argv)?;
        let files: Vec<PathBuf> = args.files.iter().map(|f| cwd.join(f)).collect();
        let mut objects = objects::read_all(&files, args.recursive, &mut true)
            .map_err(|e| e.context("kubectl's files could not be read again"))?;
        // Named as kubectl was given them (relative to its directory).
        let prefix = format!("{}/", cwd.display());
        for o in &mut objects {
            if let Some(relative) = o.source.strip_prefix(&prefix) {
                o.source = relative.to_owned();
            }
        }
        Ok((args, objects))
    });
    Locals { read }
}

/// The parent process's arguments and working directory.
#[cfg(target_os = "linux")]
fn parent_command_line() -> Result<(Vec<String>, PathBuf), Error> {
    let parent = std::os::unix::process::parent_id();
    let proc = Path::new("/proc").join(parent.to_string());
    let line = std::fs::read(proc.join("cmdline"))
        .map_err(|e| Error::Failed(format!("kubectl's command line cannot be read: {e}")))?;
    let cwd = std::fs::read_link(proc.join("cwd"))
        .map_err(|e| Error::Failed(format!("kubectl's directory cannot be read: {e}")))?;
    let argv = line
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    Ok((argv, cwd))
}

#[cfg(not(target_os = "linux"))]
fn parent_command_line() -> Result<(Vec<String>, PathBuf), Error> {
    Err(Error::Failed(
        "kubectl's command line is read on Linux only".into(),
    ))
}

/// kubectl diff's file arguments from its command line (`argv[0]` included).
///
/// # Errors
/// Why they cannot be read again: not kubectl diff, no `-f`, standard input, a URL, `-k`.
pub fn parse(argv: &[String]) -> Result<Args, Error> {
    let program = argv.first().map(|p| Path::new(p).file_name());
    let is_kubectl = program
        .flatten()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("kubectl"));
    if !is_kubectl || !argv.iter().any(|a| a == "diff") {
        return Err(not_again("the parent process is not kubectl diff"));
    }
    let mut args = Args::default();
    let mut words = argv.iter().skip(1);
    while let Some(word) = words.next() {
        let file = match word.as_str() {
            "-f" | "--filename" => words.next().cloned(),
            "-R" | "--recursive" | "--recursive=true" => {
                args.recursive = true;
                None
            }
            "--server-side" | "--server-side=true" => {
                args.server_side = true;
                None
            }
            w if w == "-k" || w.starts_with("--kustomize") || w.starts_with("-k=") => {
                return Err(not_again("kubectl read a kustomization (-k)"));
            }
            w if w.starts_with("--filename=") => Some(w["--filename=".len()..].to_owned()),
            w if w.starts_with("-f") && !w.starts_with("--") => {
                Some(w[2..].trim_start_matches('=').to_owned())
            }
            _ => None,
        };
        match file {
            Some(f) if f == "-" => {
                return Err(not_again(
                    "kubectl read standard input (-f -), which cannot be read again",
                ));
            }
            Some(f) if f.contains("://") => {
                return Err(not_again(format!("kubectl read a URL ({f})")));
            }
            Some(f) if !f.is_empty() => args.files.push(PathBuf::from(f)),
            _ => {}
        }
    }
    if args.files.is_empty() {
        return Err(not_again("kubectl diff's command line names no file"));
    }
    Ok(args)
}

/// Why kubectl's files cannot be read again (local is then inferred).
fn not_again(why: impl Into<String>) -> Error {
    Error::Failed(why.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn kubectls_file_arguments() {
        let args = parse(&argv(
            "/usr/bin/kubectl --context c diff -f a.yaml --filename=b -fc.yaml -R --server-side",
        ))
        .unwrap();
        assert_eq!(
            args.files,
            [PathBuf::from("a.yaml"), "b".into(), "c.yaml".into()]
        );
        assert!(args.recursive && args.server_side);
        assert!(
            parse(&argv("kubectl diff -f -"))
                .unwrap_err()
                .to_string()
                .contains("standard input")
        );
        assert!(
            parse(&argv("kubectl diff -k dir"))
                .unwrap_err()
                .to_string()
                .contains("kustomization")
        );
        assert!(
            parse(&argv("kubectl diff -f https://x/y.yaml"))
                .unwrap_err()
                .to_string()
                .contains("URL")
        );
        assert!(
            parse(&argv("sh wrapper.sh diff -f a"))
                .unwrap_err()
                .to_string()
                .contains("not kubectl")
        );
        assert!(parse(&argv("kubectl apply -f a")).is_err());
        assert!(
            parse(&argv("kubectl diff"))
                .unwrap_err()
                .to_string()
                .contains("no file")
        );
    }
}
