//! Saved plans: `plan --save FILE` writes what an apply will send, so that `apply --plan FILE`
//! sends exactly that, or refuses when the files or the live objects changed since.
//!
//! The file is JSON, versioned and self-describing:
//!
//! ```text
//! { "about":  "...what this is and how to apply it...",
//!   "digest": "sha256:<hex of the plan member as written below>",
//!   "plan": { "kind": "ApplyscopeSavedPlan", "version": 1,
//!             "mode": "client-side" | "server-side", "settings": {...},
//!             "inputs": [{"path", "sha256"}],                    // every file read
//!             "objects": [{"object", "live": {"uid", "resourceVersion"} | null,
//!                          "requests": [{"method", "path", "query": [[k, v]],
//!                                        "contentType", "body"}]}] } }
//! ```
//!
//! `digest` is the SHA-256 of the `plan` member serialised compactly in this field order, so an
//! edit of any value (or a truncation) is found when the file is read ([`read`]). The requests
//! are kubectl's exact bytes; `apply --plan` adds only the `metadata.resourceVersion` guard
//! (the live object's, from `live`) when it sends a PATCH, so the server refuses (409) if the
//! object changed after the check.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::Error;

/// The `kind` of a saved plan.
pub const KIND: &str = "ApplyscopeSavedPlan";
/// Its format version.
pub const VERSION: u32 = 1;

const ABOUT: &str = "An applyscope saved plan: the requests `kubectl apply` would send for these inputs against these live objects. Apply exactly these requests with `applyscope apply --plan FILE`: it refuses (and sends nothing) if a file or a live object changed. Do not edit: `digest` is the SHA-256 of `plan`.";

/// A file read for the plan and its SHA-256.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputDigest {
    pub path: String,
    pub sha256: String,
}

/// The live object a plan was computed against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LiveRef {
    pub uid: String,
    pub resource_version: String,
}

/// One request exactly as kubectl would send it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SavedRequest {
    pub method: String,
    pub path: String,
    pub query: Vec<(String, String)>,
    pub content_type: Option<String>,
    pub body: Option<String>,
}

/// One object: its identity, the live object and the requests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SavedObject {
    /// `Deployment team/web`.
    pub object: String,
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
    /// `None`: it did not exist (a create).
    pub live: Option<LiveRef>,
    /// Empty: unchanged, nothing to send.
    pub requests: Vec<SavedRequest>,
}

/// The command line the plan was made with (what `apply --plan` plans again with).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Settings {
    pub files: Vec<String>,
    pub recursive: bool,
    pub namespace: Option<String>,
    pub overwrite: bool,
    /// `Strict`, `Warn`, `Ignore`.
    pub validation: String,
    pub openapi_patch: bool,
    /// Where the mode came from (`flag`, `kuberc`, `default`).
    pub mode_source: String,
}

/// A saved plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedPlan {
    pub kind: String,
    pub version: u32,
    /// `client-side` or `server-side`.
    pub mode: String,
    pub settings: Settings,
    pub inputs: Vec<InputDigest>,
    pub objects: Vec<SavedObject>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    about: String,
    digest: String,
    plan: SavedPlan,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of `bytes`, as lowercase hex.
#[must_use]
pub fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn plan_digest(plan: &SavedPlan) -> Result<String, Error> {
    let text = serde_json::to_string(plan).map_err(|e| Error::Failed(e.to_string()))?;
    Ok(format!("sha256:{}", sha256(text.as_bytes())))
}

/// The file's text.
///
/// # Errors
/// The plan cannot be serialised (it always can).
pub fn write(plan: &SavedPlan) -> Result<String, Error> {
    let file = File {
        about: ABOUT.to_owned(),
        digest: plan_digest(plan)?,
        plan: plan.clone(),
    };
    let mut text = serde_json::to_string_pretty(&file).map_err(|e| Error::Failed(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// Read a saved plan, checking its kind, version and digest.
///
/// # Errors
/// [`Error::Input`] (exit 2) naming the file: not JSON (truncated), not a saved plan, another
/// version, or edited (the digest does not match).
pub fn read(bytes: &[u8], path: &Path) -> Result<SavedPlan, Error> {
    let bad = |what: String| Error::Input(format!("{}: {what}", path.display()));
    let file: File = serde_json::from_slice(bytes).map_err(|e| {
        bad(format!(
            "not a readable applyscope saved plan (truncated or edited?): {e}"
        ))
    })?;
    if file.plan.kind != KIND {
        return Err(bad(format!("kind {:?} is not {KIND}", file.plan.kind)));
    }
    if file.plan.version != VERSION {
        return Err(bad(format!(
            "saved plan version {} (this applyscope reads version {VERSION})",
            file.plan.version
        )));
    }
    let digest = plan_digest(&file.plan)?;
    if digest != file.digest {
        return Err(bad(format!(
            "the plan was edited after it was saved: its digest is {digest}, the file says {}; save it again with `plan --save`",
            file.digest
        )));
    }
    Ok(file.plan)
}

/// The files that `-f PATHS` reads (directories listed as `-f` lists them: `.json`, `.yaml`,
/// `.yml`, recursively with `-R`), each with its SHA-256, in a stable order.
///
/// # Errors
/// Standard input (it cannot be read again by `apply --plan`), an unreadable file.
pub fn digest_inputs(paths: &[PathBuf], recursive: bool) -> Result<Vec<InputDigest>, Error> {
    let mut files = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            return Err(Error::Input(
                "--save / --plan: standard input (-) cannot be read again when the plan is applied: save the input to a file".into(),
            ));
        }
        collect(p, recursive, true, &mut files)?;
    }
    files
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(&f).map_err(|e| Error::read(&f, e))?;
            Ok(InputDigest {
                path: f.display().to_string(),
                sha256: sha256(&bytes),
            })
        })
        .collect()
}

fn collect(p: &Path, recursive: bool, top: bool, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    if !p.is_dir() {
        let wanted = top
            || p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"));
        if wanted {
            out.push(p.to_owned());
        }
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
        .map_err(|e| Error::io(p, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for e in entries {
        if e.is_dir() && !recursive {
            continue;
        }
        collect(&e, recursive, false, out)?;
    }
    Ok(())
}

/// Every difference between what was saved and what holds now, one line each, named: files
/// changed, added or gone; objects whose live object changed (uid, resourceVersion, created or
/// deleted), whose requests would now differ, added or gone. Empty: the plan still holds.
#[must_use]
pub fn differences(
    saved: &SavedPlan,
    inputs: &[InputDigest],
    objects: &[SavedObject],
) -> Vec<String> {
    let mut out = Vec::new();
    for s in &saved.inputs {
        match inputs.iter().find(|i| i.path == s.path) {
            None => out.push(format!("file {}: gone since the plan was saved", s.path)),
            Some(i) if i.sha256 != s.sha256 => out.push(format!(
                "file {}: changed since the plan was saved (sha256 {} → {})",
                s.path, s.sha256, i.sha256
            )),
            Some(_) => {}
        }
    }
    for i in inputs {
        if !saved.inputs.iter().any(|s| s.path == i.path) {
            out.push(format!("file {}: new since the plan was saved", i.path));
        }
    }
    for s in &saved.objects {
        let Some(now) = objects.iter().find(|o| o.object == s.object) else {
            out.push(format!("{}: no longer in the files", s.object));
            continue;
        };
        let rv = |l: &Option<LiveRef>| {
            l.as_ref().map_or("absent".to_owned(), |l| {
                format!("uid {} resourceVersion {}", l.uid, l.resource_version)
            })
        };
        if now.live != s.live {
            out.push(format!(
                "{}: the live object changed since the plan was saved ({} → {})",
                s.object,
                rv(&s.live),
                rv(&now.live)
            ));
        } else if now.requests != s.requests {
            out.push(format!(
                "{}: the requests planned now differ from the saved ones",
                s.object
            ));
        }
    }
    for o in objects {
        if !saved.objects.iter().any(|s| s.object == o.object) {
            out.push(format!(
                "{}: new in the files since the plan was saved",
                o.object
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> SavedPlan {
        SavedPlan {
            kind: KIND.into(),
            version: VERSION,
            mode: "client-side".into(),
            settings: Settings {
                files: vec!["a.yaml".into()],
                recursive: false,
                namespace: None,
                overwrite: true,
                validation: "Strict".into(),
                openapi_patch: true,
                mode_source: "default".into(),
            },
            inputs: vec![InputDigest {
                path: "a.yaml".into(),
                sha256: sha256(b"x"),
            }],
            objects: vec![SavedObject {
                object: "ConfigMap d/a".into(),
                api_version: "v1".into(),
                kind: "ConfigMap".into(),
                namespace: Some("d".into()),
                name: "a".into(),
                live: Some(LiveRef {
                    uid: "u".into(),
                    resource_version: "7".into(),
                }),
                requests: vec![SavedRequest {
                    method: "PATCH".into(),
                    path: "/api/v1/namespaces/d/configmaps/a".into(),
                    query: vec![("fieldManager".into(), "kubectl-client-side-apply".into())],
                    content_type: Some("application/strategic-merge-patch+json".into()),
                    body: Some(r#"{"data":{"k":"v"}}"#.into()),
                }],
            }],
        }
    }

    #[test]
    fn a_written_plan_reads_back_and_an_edit_is_refused() {
        let p = plan();
        let text = write(&p).unwrap();
        assert_eq!(read(text.as_bytes(), Path::new("p.json")).unwrap(), p);
        let edited = text.replace(r#"\"v\"}}"#, r#"\"w\"}}"#);
        assert_ne!(edited, text);
        let e = read(edited.as_bytes(), Path::new("p.json")).unwrap_err();
        assert!(e.to_string().contains("edited after it was saved"), "{e}");
        assert_eq!(e.exit_code(), 2);
        let truncated = &text.as_bytes()[..text.len() / 2];
        let e = read(truncated, Path::new("p.json")).unwrap_err();
        assert!(e.to_string().starts_with("p.json: not a readable"), "{e}");
        assert_eq!(
            sha256(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn every_difference_is_named() {
        let p = plan();
        assert!(differences(&p, &p.inputs, &p.objects).is_empty());
        let inputs = vec![InputDigest {
            path: "a.yaml".into(),
            sha256: sha256(b"y"),
        }];
        let mut objects = p.objects.clone();
        objects[0].live.as_mut().unwrap().resource_version = "8".into();
        let d = differences(&p, &inputs, &objects);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].starts_with("file a.yaml: changed"));
        assert!(d[1].contains("resourceVersion 7 → uid u resourceVersion 8"));
    }
}
