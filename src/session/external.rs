//! `KUBECTL_EXTERNAL_DIFF=applyscope kubectl diff -f FILE`: the objects kubectl diff hands to
//! an external diff program, read, planned and compared with the server's answer.
//!
//! kubectl 1.37 (`pkg/cmd/diff/diff.go`) writes each object into two temporary directories,
//! `LIVE-NNNN` and `MERGED-NNNN` (`os.MkdirTemp("", "LIVE-")`), one YAML file per object named
//! `<group.>version.Kind.namespace.name`, and runs the program as `PROGRAM LIVE MERGED
//! [FLAGS]`: the variable's own words come *after* the two directories, and only words of
//! letters, digits, `-` and `=` are kept. Its exit status is the program's (0 no differences,
//! 1 differences, more: an error).
//!
//! | kubectl writes | into LIVE | into MERGED |
//! |---|---|---|
//! | an object that exists | the live object | the server's dry-run answer to the PATCH |
//! | a create | an empty file (`null` for a Secret: its masker prints a typed nil) | the dry-run answer to the POST |
//! | `--prune` | the object it would delete | nothing |
//! | a Secret | `data` values masked (`***`, `*** (before)`/`*** (after)`) | the same |
//!
//! `managedFields` are dropped unless `--show-managed-fields`. The patch is computed without
//! the annotation (`GetModifiedConfiguration(obj, false)`), so MERGED keeps the live
//! last-applied annotation, and a create sends the file without one: **the local file is in
//! neither directory.** applyscope reads it again from kubectl's own command line when it can
//! ([`kubectl`]); otherwise, and for a Secret (whose other documents kubectl masked), it infers
//! local from MERGED ([`infer_local`]): the fields last-applied names plus every field the apply
//! changes (all of MERGED for a create; with no last-applied annotation, only what changes).
//! applyscope's planned result is compared with the server's merged object, and every path
//! where they differ is reported.

use std::path::{Path, PathBuf};

mod infer;
pub mod kubectl;

pub use infer::infer_local;
pub use kubectl::Locals;

use infer::{comparable, differences};

use super::objects::{Key, Object, Pair};
use super::open::{EditOptions, Many, One, Open, ServerAnswer};
use super::plan::{self, Docs};
use super::{Error, Source};
use crate::engine::plan::{LAST_APPLIED, Plan};
use crate::engine::secret;
use crate::value::Value;

/// kubectl's call: the two directories, and the words the variable added after them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub live: PathBuf,
    pub merged: PathBuf,
    pub flags: Vec<String>,
}

/// Whether `args` (without the program's name) are kubectl diff's call of an external diff
/// program: two directories named `LIVE-*` and `MERGED-*`, then only flags (`-…`).
#[must_use]
pub fn recognise(args: &[std::ffi::OsString]) -> Option<Call> {
    let [live, merged, rest @ ..] = args else {
        return None;
    };
    let named = |p: &Path, prefix: &str| {
        p.is_dir()
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix))
    };
    let (live, merged) = (PathBuf::from(live), PathBuf::from(merged));
    let flags: Option<Vec<String>> = rest
        .iter()
        .map(|a| a.to_str().filter(|a| a.starts_with('-')).map(str::to_owned))
        .collect();
    (named(&live, "LIVE-") && named(&merged, "MERGED-")).then_some(Call {
        live,
        merged,
        flags: flags?,
    })
}

/// One object as kubectl wrote it.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// The file name (`apps.v1.Deployment.default.web`).
    pub name: String,
    /// `None`: no live object (a create).
    pub live: Option<Value>,
    /// `None`: no MERGED file (`--prune` would delete the object).
    pub merged: Option<Value>,
}

/// Read both directories: one entry per file name, in byte order of the names (as `diff`
/// walks them).
///
/// # Errors
/// [`Error::Input`] when a directory or a file cannot be read or parsed.
pub fn read(call: &Call) -> Result<Vec<Written>, Error> {
    let mut names = file_names(&call.live)?;
    names.extend(file_names(&call.merged)?);
    names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            Ok(Written {
                live: read_object(&call.live.join(&name))?,
                merged: read_object(&call.merged.join(&name))?,
                name,
            })
        })
        .collect()
}

fn file_names(dir: &Path) -> Result<Vec<String>, Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        if entry.path().is_file() {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    Ok(names)
}

/// A file's object; `None` when the file is missing, empty or `null`.
fn read_object(path: &Path) -> Result<Option<Value>, Error> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path, e)),
    };
    let text = String::from_utf8_lossy(&bytes);
    if matches!(text.trim(), "" | "null") {
        return Ok(None);
    }
    super::input::object_of_bytes(&path.display().to_string(), &bytes).map(Some)
}

/// One object, planned.
#[derive(Debug)]
pub struct Planned {
    pub written: Written,
    pub key: Key,
    pub docs: Docs,
    pub plan: Result<Plan, Error>,
    /// How local was found, and what the plan is made on.
    pub notes: Vec<String>,
    /// Paths where applyscope's planned result differs from the server's merged object
    /// (`None`: nothing to compare: no plan, or no merged object).
    pub differs_at: Option<Vec<String>>,
    /// Where local came from: kubectl's file (`deploy.yaml#2`), or `MERGED/NAME` (inferred).
    pub local_source: String,
}

impl Planned {
    /// The explorer's note: the notes, then the comparison.
    #[must_use]
    pub fn note(&self) -> String {
        let mut parts = self.notes.clone();
        match (&self.differs_at, &self.plan) {
            (_, Err(e)) => parts.push(format!("no plan: {e}")),
            (Some(paths), _) if paths.is_empty() => {
                parts.push("the plan's result is the server's merged object".into());
            }
            (Some(paths), _) => parts.push(format!(
                "the plan's result differs from the server's merged object at {}",
                paths.join(", ")
            )),
            (None, _) => {}
        }
        parts.join("; ")
    }

    /// How the plan compares with the server's merged object, in a few words.
    #[must_use]
    pub fn summary(&self) -> String {
        match &self.differs_at {
            Some(paths) if paths.is_empty() => "plan = server's merged".into(),
            Some(paths) => format!("plan ≠ server's merged at {}", paths.join(", ")),
            None => "no plan".into(),
        }
    }

    /// The server's answer for the result pane.
    #[must_use]
    pub fn server_answer(&self) -> Option<ServerAnswer> {
        Some(ServerAnswer {
            answer: self.written.merged.clone()?,
            summary: self.summary(),
            note: self.note(),
        })
    }
}

/// Plan every object (in parallel), with kubectl's local objects when they could be read again.
#[must_use]
pub fn plan_all(written: &[Written], locals: &Locals) -> Vec<Planned> {
    super::parallel::parallel_map(written, |w| plan_one(w, locals))
}

/// Plan one object: last-applied from LIVE's annotation, local from kubectl's file read again
/// (not for a Secret, whose other documents kubectl masked) or inferred from MERGED.
#[must_use]
pub fn plan_one(written: &Written, locals: &Locals) -> Planned {
    let written = written.clone();
    let Some(merged) = &written.merged else {
        let live = written.live.clone().unwrap_or(Value::Null);
        return Planned {
            key: Key::of(&live),
            docs: Docs {
                local: live.clone(),
                live: Some(live),
                last_applied: None,
            },
            plan: Err(Error::Failed(
                "no MERGED object: kubectl diff --prune would delete it".into(),
            )),
            notes: Vec::new(),
            differs_at: None,
            local_source: format!("LIVE/{}", written.name),
            written,
        };
    };
    let mut notes: Vec<String> = Vec::new();
    let is_secret = secret::is_secret(merged);
    let live_annotation = written
        .live
        .as_ref()
        .and_then(|l| l.pointer("/metadata/annotations"))
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(Value::as_str);
    let mut last_applied = live_annotation
        .and_then(|a| crate::engine::smp::parse_json(a).ok())
        .filter(Value::is_object);
    let mut live = written.live.clone();
    if is_secret {
        // The annotation holds the values in clear: masked as kubectl masks `data`, so that
        // last-applied, local and live are all masked alike.
        if let Some(meta) = live.as_mut().and_then(|l| l.get_mut("metadata")) {
            secret::mask_at(meta, &["metadata"]);
        }
        last_applied = live
            .as_ref()
            .and_then(|l| l.pointer("/metadata/annotations"))
            .and_then(|a| a.get(LAST_APPLIED))
            .and_then(Value::as_str)
            .and_then(|a| crate::engine::smp::parse_json(a).ok());
        notes.push(
            "a Secret: kubectl diff masks its values, so the plan is made on the masked documents"
                .to_owned(),
        );
    }
    let key = Key::of(merged);
    let from_file = if is_secret { None } else { locals.find(&key) };
    let local_source =
        from_file.map_or_else(|| format!("MERGED/{}", written.name), |o| o.source.clone());
    let local = match from_file {
        Some(object) => {
            notes.insert(
                0,
                format!(
                    "local from kubectl's {} ({}), read again",
                    locals.named(),
                    object.source
                ),
            );
            object.value.clone()
        }
        None => {
            notes.insert(0, inferred_note(&written, last_applied.is_some(), locals));
            infer_local(merged, live.as_ref(), last_applied.as_ref())
        }
    };
    if locals.server_side() {
        notes.push(
            "kubectl diff --server-side: the server's merged object is a server-side apply's; applyscope plans kubectl's client-side apply"
                .to_owned(),
        );
    }
    let docs = Docs {
        local,
        live,
        last_applied: None,
    };
    let namespace = Some(key.namespace.as_str()).filter(|n| !n.is_empty());
    let plan = plan::compute_named(
        &docs,
        namespace,
        true,
        &plan::DocNames {
            local: local_source.clone(),
            live: format!("LIVE/{}", written.name),
            last_applied: format!("LIVE/{} (annotation)", written.name),
        },
    );
    let differs_at = plan.as_ref().ok().map(|p| {
        let planned = p.created().unwrap_or(&p.result);
        let mut at = Vec::new();
        differences(&comparable(planned), &comparable(merged), "", &mut at);
        at
    });
    Planned {
        key,
        docs,
        plan,
        notes,
        differs_at,
        local_source,
        written,
    }
}

/// Where an inferred local came from, and why kubectl's file was not used.
fn inferred_note(written: &Written, annotated: bool, locals: &Locals) -> String {
    let how = match (&written.live, annotated) {
        (None, _) => "a create: local is the server's merged object",
        (Some(_), false) => {
            "no last-applied annotation: local is taken from the server's merged object itself (what the apply changes); two-way merge"
        }
        (Some(_), true) => {
            "local inferred from the server's merged object: the fields last-applied names and every field the apply changes"
        }
    };
    let why = match &locals.read {
        Err(why) => format!("kubectl diff passes no local file; {why}"),
        Ok(_) if secret::is_secret(written.merged.as_ref().unwrap_or(&Value::Null)) => {
            "kubectl masked the other documents".to_owned()
        }
        Ok(_) => "not found in kubectl's files".to_owned(),
    };
    format!("{how} ({why})")
}

/// What the explorer opens on kubectl diff's objects: one object's panes, or the list. The
/// files are kubectl's temporary copies: nothing is bound to them, and the edit keys are off.
#[must_use]
pub fn open(planned: Vec<Planned>, options: &EditOptions) -> Open {
    let options = EditOptions {
        read_only: true,
        write_last_applied: None,
        ..options.clone()
    };
    let mut planned = planned;
    if let [one] = planned.as_slice()
        && one.plan.is_ok()
        && let Some(p) = planned.pop()
        && let Ok(plan) = p.plan.as_ref()
    {
        let server = p.server_answer().map(Box::new);
        return Open::One(Box::new(One {
            source: Source {
                title: format!(
                    "kubectl diff: {} · local {} · {}",
                    p.written.name,
                    if p.local_source.starts_with("MERGED/") {
                        "inferred".to_owned()
                    } else {
                        format!("from {}", p.local_source)
                    },
                    p.summary()
                ),
                about: p.note(),
                docs: p.docs,
            },
            plan: plan.clone(),
            example: None,
            files: None,
            target: None,
            cluster: None,
            options,
            server,
        }));
    }
    let server = planned
        .iter()
        .map(|p| p.server_answer().map(Box::new))
        .collect();
    let (pairs, plans) = planned
        .into_iter()
        .map(|p| {
            let pair = Pair {
                key: p.key,
                local: Object {
                    value: p.docs.local,
                    source: p.local_source,
                },
                live: p.docs.live.map(|value| Object {
                    value,
                    source: format!("LIVE/{}", p.written.name),
                }),
            };
            (pair, p.plan)
        })
        .unzip();
    Open::Many(Box::new(Many {
        title: "kubectl diff: LIVE → MERGED".into(),
        pairs,
        plans,
        from_files: false,
        options,
        server,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectls_call_is_two_named_directories_then_flags() {
        let tmp = tempfile::tempdir().unwrap();
        let live = tmp.path().join("LIVE-123");
        let merged = tmp.path().join("MERGED-456");
        std::fs::create_dir(&live).unwrap();
        std::fs::create_dir(&merged).unwrap();
        let args = |extra: &[&str]| -> Vec<std::ffi::OsString> {
            [live.as_os_str(), merged.as_os_str()]
                .into_iter()
                .map(Into::into)
                .chain(extra.iter().map(Into::into))
                .collect()
        };
        let call = recognise(&args(&["--show-secrets"])).unwrap();
        assert_eq!(call.flags, ["--show-secrets"]);
        assert!(recognise(&args(&[])).is_some());
        assert!(recognise(&args(&["plan"])).is_none());
        let swapped: Vec<std::ffi::OsString> = vec![merged.clone().into(), live.clone().into()];
        assert!(recognise(&swapped).is_none());
        assert!(recognise(&[live.into()]).is_none());
    }
}
