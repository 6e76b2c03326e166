//! Where the documents came from and what a (re)load read. Reading bytes is the runtime's job
//! (`tui`); turning them into documents is pure and lives here, so a reload and the first load
//! read files exactly as `-f` does.

use std::path::PathBuf;

use crate::value::Value;

use crate::cli::plan::PlanDocs;
use crate::document;

/// The three documents of a plan, as the model keeps them (cloneable, unlike [`PlanDocs`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Docs {
    pub local: Value,
    pub live: Option<Value>,
    /// Given explicitly (`--last-applied`, an example, or an edit); `None`: the live annotation.
    pub last_applied: Option<Value>,
}

impl Docs {
    #[must_use]
    pub fn from_plan_docs(docs: PlanDocs) -> Docs {
        Docs {
            local: docs.local,
            live: docs.live,
            last_applied: docs.last_applied,
        }
    }

    #[must_use]
    pub fn plan_docs(&self) -> PlanDocs {
        PlanDocs {
            local: self.local.clone(),
            live: self.live.clone(),
            last_applied: self.last_applied.clone(),
        }
    }
}

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
/// A one-line message naming the file and the place.
pub fn parse(request: &ReloadRequest, raw: RawFiles) -> Result<Loaded, String> {
    let docs = match &request.files {
        None => None,
        Some(files) => {
            let name = |p: &PathBuf| p.display().to_string();
            let local = raw
                .local
                .as_deref()
                .ok_or_else(|| format!("{}: not read", name(&files.local)))?;
            let live = match (&files.live, raw.live.as_deref()) {
                (Some(path), Some(bytes)) => Some(one_object(&name(path), bytes)?),
                (Some(path), None) => return Err(format!("{}: no such file", name(path))),
                (None, _) => None,
            };
            let last_applied = match (&files.last_applied, raw.last_applied.as_deref()) {
                (Some(path), Some(bytes)) => Some(object(&name(path), bytes)?),
                (Some(path), None) => return Err(format!("{}: no such file", name(path))),
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
pub fn object(name: &str, bytes: &[u8]) -> Result<Value, String> {
    let mut docs = document::parse_documents_bytes(bytes, name).map_err(|e| e.to_string())?;
    let v = match docs.len() {
        1 => docs.remove(0).value,
        0 => return Err(format!("{name}: no document found")),
        n => return Err(format!("{name}: expected one document, found {n}")),
    };
    if v.is_object() {
        Ok(v)
    } else {
        Err(format!(
            "{name}: expected an object at the top level, found {}",
            kind_name(&v)
        ))
    }
}

/// One Kubernetes object, as kubectl reads `-f`: a `kind: List` stands for its items.
///
/// # Errors
/// As [`object`], and a list of other than one item.
pub fn one_object(name: &str, bytes: &[u8]) -> Result<Value, String> {
    let v = object(name, bytes)?;
    let is_list = v
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"))
        && v.get("items").is_some_and(Value::is_array);
    if !is_list {
        return Ok(v);
    }
    match v.get("items").and_then(Value::as_array).map(Vec::as_slice) {
        Some([one]) => Ok(one.clone()),
        Some(items) => Err(format!(
            "{name}: expected one object, found a list of {}",
            items.len()
        )),
        None => Ok(v),
    }
}

/// What a JSON value is, for messages.
#[must_use]
pub fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
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
        assert!(object("f", b"- a\n").unwrap_err().contains("a list"));
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
        assert_eq!(
            parse(&request, raw).unwrap_err(),
            "v.yaml: no such file".to_owned()
        );
    }
}
