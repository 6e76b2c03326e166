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

mod read;

use std::collections::HashMap;

use crate::value::Value;

use super::Error;
use crate::engine::object::ObjectRef;
use crate::engine::schema::Schema;

pub use read::{Held, objects_of, read_all, read_held};

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
    let matched = match_all(locals, lives, namespace)?;
    Ok(matched
        .into_iter()
        .map(|(key, local, live)| Pair { key, local, live })
        .collect())
}

/// A [`Pair`] whose objects are still [`Held`] (as [`read_held`] read them).
#[derive(Debug)]
pub struct HeldPair {
    pub key: Key,
    pub local: Held,
    pub live: Option<Held>,
}

/// [`pair`] for objects read by [`read_held`]: the same matching and the same errors.
///
/// # Errors
/// As [`pair`].
pub fn pair_held(
    locals: Vec<Held>,
    lives: Vec<Held>,
    namespace: Option<&str>,
) -> Result<Vec<HeldPair>, Error> {
    let matched = match_all(locals, lives, namespace)?;
    Ok(matched
        .into_iter()
        .map(|(key, local, live)| HeldPair { key, local, live })
        .collect())
}

/// The [`Pair`] of one held pair, thawed (on the caller's core: a worker that goes on to plan
/// it).
///
/// # Errors
/// When a [`Held`] object does not thaw (it cannot: its bytes are the ones packed).
pub fn load_one(p: &HeldPair) -> Result<Pair, Error> {
    Ok(Pair {
        key: p.key.clone(),
        local: p.local.object()?,
        live: p.live.as_ref().map(Held::object).transpose()?,
    })
}

/// What matching needs of an object read from an argument.
trait Matched {
    /// Its key as written (no namespace given yet).
    fn written_key(&self) -> Key;
    fn api_version(&self) -> &str;
    fn source(&self) -> &str;
}

impl Matched for Object {
    fn written_key(&self) -> Key {
        Key::of(&self.value)
    }
    fn api_version(&self) -> &str {
        ObjectRef::of(&self.value).api_version
    }
    fn source(&self) -> &str {
        &self.source
    }
}

impl Matched for Held {
    fn written_key(&self) -> Key {
        self.key.clone()
    }
    fn api_version(&self) -> &str {
        &self.api_version
    }
    fn source(&self) -> &str {
        &self.source
    }
}

/// Each local object with its key on the server and its live object, in the local objects'
/// order.
fn match_all<T: Matched>(
    locals: Vec<T>,
    lives: Vec<T>,
    namespace: Option<&str>,
) -> Result<Vec<(Key, T, Option<T>)>, Error> {
    let schema = Schema::embedded();
    let mut live_by_key: HashMap<Key, T> = HashMap::with_capacity(lives.len());
    for live in lives {
        let mut key = live.written_key();
        // A server always sets the namespace of a namespaced object; a hand-written live file
        // may leave it out.
        if key.namespace.is_empty()
            && schema.is_namespaced(live.api_version(), &key.kind) == Some(true)
        {
            key.namespace = namespace.unwrap_or("default").to_owned();
        }
        if let Some(first) = live_by_key.get(&key) {
            return Err(Error::Input(format!(
                "{}: {key} is also in {}",
                live.source(),
                first.source()
            )));
        }
        live_by_key.insert(key, live);
    }
    let mut seen: HashMap<Key, String> = HashMap::with_capacity(locals.len());
    let mut out = Vec::with_capacity(locals.len());
    for local in locals {
        let key = local_key(&local, namespace, schema, &live_by_key);
        if let Some(first) = seen.get(&key) {
            return Err(Error::Input(format!(
                "{}: {key} is also in {first}",
                local.source()
            )));
        }
        seen.insert(key.clone(), local.source().to_owned());
        let live = live_by_key.remove(&key);
        out.push((key, local, live));
    }
    Ok(out)
}

/// The key a local object will have on the server.
fn local_key<T: Matched>(
    obj: &T,
    namespace: Option<&str>,
    schema: &Schema,
    lives: &HashMap<Key, T>,
) -> Key {
    let mut key = obj.written_key();
    if !key.namespace.is_empty() {
        return key;
    }
    let namespaced = match schema.is_namespaced(obj.api_version(), &key.kind) {
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
