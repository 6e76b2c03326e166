//! Many objects at once: reading `-f` and `--live` as `kubectl apply -f` reads them, matching
//! each local object with its live object (their plans: [`super::plan::plan_all`]).
//!
//! - An argument is a file, a directory (its `.json`, `.yaml` and `.yml` files in name order;
//!   with `-R` also those of its subdirectories, as kubectl's `filepath.Walk`), or `-` for
//!   standard input (once). A file named directly is read whatever its extension.
//! - A file holds any number of YAML documents (or JSON values); a `kind: List` (what
//!   `kubectl get -o yaml` exports) stands for its items. Empty documents are skipped.
//! - Local and live objects are matched by API group, kind, namespace and name (the version may
//!   differ, as kubectl reads live objects at the file's version). A local object without a
//!   namespace is in `-n`'s namespace, else `default`, when its kind is namespaced. A local
//!   object with no live match is a create. The same object twice is an input error.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use crate::value::Value;

use super::Error;
use super::input::{MAX_INPUT_BYTES, flatten_lists, kind_name, read_bytes};
use crate::engine::object::ObjectRef;
use crate::engine::schema::Schema;

/// One object read from an argument.
#[derive(Clone, Debug)]
pub struct Object {
    pub value: Value,
    /// Where it came from: `path`, or `path#N` (the N-th object of the file, from 1).
    pub source: String,
}

/// How objects are matched: API group, kind, namespace (`""` when cluster-scoped), name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub group: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

impl std::fmt::Display for Key {
    /// `Deployment.apps default/web`, `Namespace payments`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.kind)?;
        if !self.group.is_empty() {
            write!(f, ".{}", self.group)?;
        }
        if self.namespace.is_empty() {
            write!(f, " {}", self.name)
        } else {
            write!(f, " {}/{}", self.namespace, self.name)
        }
    }
}

impl Key {
    /// The key of a live object, as the server holds it.
    #[must_use]
    pub fn of(obj: &Value) -> Key {
        let r = ObjectRef::of(obj);
        Key {
            group: r.group().to_owned(),
            kind: r.kind.to_owned(),
            namespace: r.namespace.to_owned(),
            name: r.name.to_owned(),
        }
    }
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
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
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
            out.extend(objects_of(&bytes, "-")?);
        } else if path.is_dir() {
            let before = out.len();
            read_dir(path, recursive, &mut out)?;
            if out.len() == before {
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
        } else {
            let bytes = read_bytes(path)?;
            out.extend(objects_of(&bytes, &path.display().to_string())?);
        }
    }
    Ok(out)
}

/// A directory's manifests in name order; subdirectories only when recursive (symbolic links to
/// directories are not followed, as `filepath.Walk` does not follow them).
fn read_dir(dir: &Path, recursive: bool, out: &mut Vec<Object>) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut paths: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        paths.push(entry.path());
    }
    paths.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    for path in paths {
        let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        if is_dir {
            if recursive {
                read_dir(&path, recursive, out)?;
            }
            continue;
        }
        if path.is_dir() {
            continue;
        }
        let manifest = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"));
        if manifest {
            let bytes = read_bytes(&path)?;
            out.extend(objects_of(&bytes, &path.display().to_string())?);
        }
    }
    Ok(())
}

/// The objects of one file's bytes.
///
/// # Errors
/// [`Error::Document`] (or [`Error::Input`]) naming the file and the place.
pub fn objects_of(bytes: &[u8], name: &str) -> Result<Vec<Object>, Error> {
    let docs = crate::document::parse_documents_bytes(bytes, name)?;
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

/// One local object and its live object (`None`: a create).
#[derive(Clone, Debug)]
pub struct Pair {
    pub key: Key,
    pub local: Object,
    pub live: Option<Object>,
}

/// Matches local objects with live ones, in the local objects' order.
///
/// # Errors
/// [`Error::Input`] when an object is given twice (locally or live).
pub fn pair(
    locals: Vec<Object>,
    lives: Vec<Object>,
    namespace: Option<&str>,
) -> Result<Vec<Pair>, Error> {
    let schema = Schema::embedded();
    let mut live_by_key: std::collections::HashMap<Key, Object> =
        std::collections::HashMap::with_capacity(lives.len());
    for live in lives {
        let mut key = Key::of(&live.value);
        // A server always sets the namespace of a namespaced object; a hand-written live file
        // may leave it out.
        if key.namespace.is_empty()
            && schema.is_namespaced(ObjectRef::of(&live.value).api_version, &key.kind) == Some(true)
        {
            key.namespace = namespace.unwrap_or("default").to_owned();
        }
        if let Some(first) = live_by_key.get(&key) {
            return Err(Error::Input(format!(
                "{}: {key} is also in {}",
                live.source, first.source
            )));
        }
        live_by_key.insert(key, live);
    }
    let mut seen: std::collections::HashMap<Key, String> =
        std::collections::HashMap::with_capacity(locals.len());
    let mut out = Vec::with_capacity(locals.len());
    for local in locals {
        let key = local_key(&local.value, namespace, schema, &live_by_key);
        if let Some(first) = seen.get(&key) {
            return Err(Error::Input(format!(
                "{}: {key} is also in {first}",
                local.source
            )));
        }
        seen.insert(key.clone(), local.source.clone());
        let live = live_by_key.remove(&key);
        out.push(Pair { key, local, live });
    }
    Ok(out)
}

/// The key a local object will have on the server.
fn local_key(
    obj: &Value,
    namespace: Option<&str>,
    schema: &Schema,
    lives: &std::collections::HashMap<Key, Object>,
) -> Key {
    let mut key = Key::of(obj);
    if !key.namespace.is_empty() {
        return key;
    }
    let api_version = ObjectRef::of(obj).api_version;
    let namespaced = match schema.is_namespaced(api_version, &key.kind) {
        Some(n) => n,
        // Unknown kinds (custom resources): cluster-scoped when a live object says so.
        None => !lives.contains_key(&key),
    };
    if namespaced {
        key.namespace = namespace.unwrap_or("default").to_owned();
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn obj(v: Value, source: &str) -> Object {
        Object {
            value: v,
            source: source.into(),
        }
    }

    #[test]
    fn multi_document_files_and_lists_flatten() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\n\
                    apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Secret, metadata: {name: b}}\n\
                    - {apiVersion: apps/v1, kind: Deployment, metadata: {name: c, namespace: x}}\n";
        let objs = objects_of(text.as_bytes(), "all.yaml").unwrap();
        let sources: Vec<&str> = objs.iter().map(|o| o.source.as_str()).collect();
        assert_eq!(sources, ["all.yaml#1", "all.yaml#2", "all.yaml#3"]);
        let one = objects_of(
            b"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}",
            "one.json",
        )
        .unwrap();
        assert_eq!(one[0].source, "one.json");
    }

    #[test]
    fn objects_need_kind_and_api_version() {
        let e = objects_of(b"apiVersion: v1\nmetadata: {name: a}\n", "f.yaml").unwrap_err();
        assert_eq!(e, Error::Input("f.yaml: Object 'Kind' is missing".into()));
        let e = objects_of(b"- 1\n", "f.yaml").unwrap_err();
        assert!(e.to_string().contains("expected an object"), "{e}");
    }

    #[test]
    fn pairs_by_group_kind_namespace_name() {
        let locals = vec![
            obj(
                json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}}),
                "l#1",
            ),
            obj(
                json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "prod"}}),
                "l#2",
            ),
            obj(
                json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "new", "namespace": "x"}}),
                "l#3",
            ),
            obj(
                json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}),
                "l#4",
            ),
        ];
        let lives = vec![
            obj(
                json!({"apiVersion": "apps/v1beta2", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"}}),
                "v#1",
            ),
            obj(
                json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "prod"}}),
                "v#2",
            ),
            obj(
                json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}),
                "v#3",
            ),
        ];
        let pairs = pair(locals, lives, None).unwrap();
        let live_of: Vec<Option<&str>> = pairs
            .iter()
            .map(|p| p.live.as_ref().map(|l| l.source.as_str()))
            .collect();
        assert_eq!(live_of, [Some("v#1"), Some("v#2"), None, Some("v#3")]);
        assert_eq!(pairs[0].key.to_string(), "Deployment.apps default/web");
        assert_eq!(pairs[1].key.to_string(), "Namespace prod");
    }

    #[test]
    fn the_same_object_twice_is_an_input_error() {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}});
        let mut cm2 = cm.clone();
        cm2["metadata"]["namespace"] = json!("default");
        let e = pair(vec![obj(cm, "a.yaml"), obj(cm2, "b.yaml")], vec![], None).unwrap_err();
        assert_eq!(
            e,
            Error::Input("b.yaml: ConfigMap default/a is also in a.yaml".into())
        );
    }
}
