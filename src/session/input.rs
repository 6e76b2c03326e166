//! Reading one input file: its documents, its one object (as kubectl reads `-f`), `--schema`.
//! Every failure is an [`Error::Input`] naming the file and the place.

use std::io::Read as _;
use std::path::Path;

use crate::value::Value;

use super::Error;
use crate::document;
use crate::engine::schema::{Meta, Schema};

/// The largest input file read (Kubernetes objects are limited to about 1.5 MB by etcd; large
/// generated lists stay well under this).
pub const MAX_INPUT_BYTES: u64 = 100_000_000;

/// Read a file's bytes: opened once, its size from the open file (a directory of 10,000
/// manifests costs one `open` and one `fstat` each, not three lookups of the path).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, Error> {
    let is_dir = || {
        Error::Input(format!(
            "{}: is a directory, expected a file",
            path.display()
        ))
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        // A directory that cannot be opened is still named as one.
        Err(_) if path.is_dir() => return Err(is_dir()),
        Err(e) => return Err(Error::read(path, e)),
    };
    let meta = file.metadata().map_err(|e| Error::read(path, e))?;
    if meta.is_dir() {
        return Err(is_dir());
    }
    let too_big = |size: u64| {
        Error::Input(format!(
            "{}: {} MB is larger than the {} MB applyscope reads",
            path.display(),
            size / 1_000_000,
            MAX_INPUT_BYTES / 1_000_000
        ))
    };
    if meta.len() > MAX_INPUT_BYTES {
        return Err(too_big(meta.len()));
    }
    // The size is a hint: a file that grows while it is read is read to its end, up to the
    // limit.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0) + 1);
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::read(path, e))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Read a file's YAML or JSON documents, values only (their spans are not recorded: every
/// reader here wants the values, and recording them costs a fifth of the time and memory).
pub fn read_documents(path: &Path) -> Result<Vec<document::Document>, Error> {
    let bytes = read_bytes(path)?;
    Ok(document::parse_values_bytes(
        &bytes,
        &path.display().to_string(),
    )?)
}

/// Read a file holding exactly one YAML or JSON document, of any shape.
pub fn read_value(path: &Path) -> Result<Value, Error> {
    value_of(path, read_documents(path)?)
}

/// The one document of a file (`docs`, read from `path`), of any shape.
fn value_of(path: &Path, docs: Vec<document::Document>) -> Result<Value, Error> {
    named_value_of(&path.display().to_string(), docs)
}

/// The one document of `docs`, read from the file `name`, of any shape.
fn named_value_of(name: &str, mut docs: Vec<document::Document>) -> Result<Value, Error> {
    match docs.len() {
        1 => Ok(docs.remove(0).value),
        0 => Err(Error::Input(format!("{name}: no document found"))),
        n => Err(Error::Input(format!(
            "{name}: expected one document, found {n}"
        ))),
    }
}

/// Read a file holding exactly one object (a Kubernetes object, a patch).
pub fn read_object(path: &Path) -> Result<Value, Error> {
    object_of(path, read_value(path)?)
}

fn object_of(path: &Path, v: Value) -> Result<Value, Error> {
    named_object_of(&path.display().to_string(), v)
}

fn named_object_of(name: &str, v: Value) -> Result<Value, Error> {
    if v.is_object() {
        Ok(v)
    } else {
        Err(Error::Input(format!(
            "{name}: expected an object at the top level, found {}",
            kind_name(&v)
        )))
    }
}

/// One document that is an object (a last-applied configuration), from the bytes of the file
/// `name`: [`read_object`] of bytes already read.
///
/// # Errors
/// Parse errors, several documents, or something other than an object.
pub fn object_of_bytes(name: &str, bytes: &[u8]) -> Result<Value, Error> {
    let docs = document::parse_values_bytes(bytes, name)?;
    named_object_of(name, named_value_of(name, docs)?)
}

/// One Kubernetes object from the bytes of the file `name`: [`read_one_object`] of bytes
/// already read.
///
/// # Errors
/// As [`object_of_bytes`], and a list of other than one item.
pub fn one_object_of_bytes(name: &str, bytes: &[u8]) -> Result<Value, Error> {
    only_object(name, object_of_bytes(name, bytes)?)
}

/// Read a file holding exactly one Kubernetes object, as kubectl reads `-f`: a `kind: List`
/// (what `kubectl get -o yaml` exports) is flattened into its items.
pub fn read_one_object(path: &Path) -> Result<Value, Error> {
    one_object_of(path, read_documents(path)?)
}

/// [`read_one_object`] of documents already read from `path`.
pub fn one_object_of(path: &Path, docs: Vec<document::Document>) -> Result<Value, Error> {
    only_object(
        &path.display().to_string(),
        object_of(path, value_of(path, docs)?)?,
    )
}

/// The one object `v` stands for (a list of one item stands for it).
fn only_object(name: &str, v: Value) -> Result<Value, Error> {
    let mut objects = flatten_lists(v);
    match objects.len() {
        1 => Ok(objects.remove(0)),
        n => Err(Error::Input(format!(
            "{name}: expected one object, found a list of {n}"
        ))),
    }
}

/// Whether kubectl reads an object as a list: its kind ends in `List` and it has `items`.
#[must_use]
pub fn is_list(v: &Value) -> bool {
    v.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"))
        && v.get("items").is_some_and(Value::is_array)
}

/// kubectl's list flattening: a list ([`is_list`]) stands for its items.
#[must_use]
pub fn flatten_lists(v: Value) -> Vec<Value> {
    if !is_list(&v) {
        return vec![v];
    }
    match v {
        Value::Object(mut m) => match m.remove("items") {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        other => vec![other],
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

/// Where patch metadata comes from: an OpenAPI file given on the command line, or the embedded
/// Kubernetes 1.36 schema.
pub enum SchemaSource {
    File(Box<Schema>),
    Embedded,
}

impl SchemaSource {
    /// Load `--schema` if given.
    pub fn load(schema: Option<&Path>) -> Result<SchemaSource, Error> {
        let Some(path) = schema else {
            return Ok(SchemaSource::Embedded);
        };
        let doc = read_object(path)?;
        let schema = Schema::from_openapi(&doc)
            .map_err(|e| Error::from(e).context(path.display().to_string()))?;
        Ok(SchemaSource::File(Box::new(schema)))
    }

    pub fn schema(&self) -> &Schema {
        match self {
            SchemaSource::File(s) => s,
            SchemaSource::Embedded => Schema::embedded(),
        }
    }

    /// The root type: `--definition`, else the kind of the first document that names one.
    pub fn root<'s>(
        &'s self,
        definition: Option<&str>,
        docs: &[&Value],
    ) -> Result<Meta<'s>, Error> {
        let schema = self.schema();
        if let Some(name) = definition {
            return schema.root(name).ok_or_else(|| {
                Error::Input(format!(
                    "--definition {name}: no such definition in the schema"
                ))
            });
        }
        let gvk = docs
            .iter()
            .find_map(|d| Some((d.get("apiVersion")?.as_str()?, d.get("kind")?.as_str()?)));
        let Some((api_version, kind)) = gvk else {
            return Err(Error::Input(
                "the documents name no apiVersion/kind: pass --definition NAME".into(),
            ));
        };
        schema.root_for_gvk(api_version, kind).ok_or_else(|| {
            Error::Input(format!(
                "no patch metadata for {api_version} {kind}: pass --schema F --definition NAME, or --type merge"
            ))
        })
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;

    #[test]
    fn a_file_is_read_whole_and_a_directory_or_a_file_too_big_named() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.yaml");
        std::fs::write(&small, "a: 1\n").unwrap();
        assert_eq!(read_bytes(&small).unwrap(), b"a: 1\n");
        let err = read_bytes(dir.path()).unwrap_err().to_string();
        assert!(err.ends_with("is a directory, expected a file"), "{err}");
        // A sparse file one byte over the limit: refused from its size, nothing read.
        let big = dir.path().join("big.json");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_INPUT_BYTES + 1)
            .unwrap();
        let err = read_bytes(&big).unwrap_err().to_string();
        assert!(
            err.contains("big.json: 100 MB is larger than the 100 MB applyscope reads"),
            "{err}"
        );
        let err = read_bytes(&dir.path().join("missing.yaml")).unwrap_err();
        assert!(err.to_string().contains("missing.yaml"), "{err}");
    }
}
