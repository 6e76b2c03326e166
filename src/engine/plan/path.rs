//! Field paths as the plan names them: `spec.template.spec.containers[name=nginx].image`,
//! `metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]`,
//! `metadata.finalizers[=foregroundDeletion]`, `spec.args[0]`.

use std::fmt;

use serde::{Serialize, Serializer};
use serde_json::Value;

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    /// An object field.
    Key(String),
    /// A merge-keyed list element: `[name=nginx]` (the key's value as Go's `%v` prints it).
    Merge { key: String, value: String },
    /// An element of a primitive set list: `[=value]`.
    Item(String),
    /// An element of an atomic list, by position: `[0]`.
    Index(usize),
}

/// A path from the object's root.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(pub Vec<Seg>);

impl FieldPath {
    #[must_use]
    pub fn child(&self, seg: Seg) -> FieldPath {
        let mut segs = self.0.clone();
        segs.push(seg);
        FieldPath(segs)
    }

    /// The last step, if any.
    #[must_use]
    pub fn last(&self) -> Option<&Seg> {
        self.0.last()
    }

    /// How deep the path is (0 = root).
    #[must_use]
    pub fn depth(&self) -> usize {
        self.0.len()
    }

    /// The value at this path in a document, following merge keys and items.
    #[must_use]
    pub fn lookup<'v>(&self, doc: &'v Value) -> Option<&'v Value> {
        let mut at = doc;
        for seg in &self.0 {
            at = match (seg, at) {
                (Seg::Key(k), Value::Object(m)) => m.get(k)?,
                (Seg::Merge { key, value }, Value::Array(items)) => items.iter().find(|i| {
                    i.get(key)
                        .is_some_and(|v| crate::engine::gofmt::sprint(v) == *value)
                })?,
                (Seg::Item(value), Value::Array(items)) => items
                    .iter()
                    .find(|i| crate::engine::gofmt::sprint(i) == *value)?,
                (Seg::Index(i), Value::Array(items)) => items.get(*i)?,
                _ => return None,
            };
        }
        Some(at)
    }
}

fn is_plain(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '-')
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn bracket_text(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./:@".contains(c))
        && !s.is_empty()
    {
        s.to_owned()
    } else {
        quoted(s)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if is_plain(k) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                Seg::Key(k) => write!(f, "[{}]", quoted(k))?,
                Seg::Merge { key, value } => write!(f, "[{key}={}]", bracket_text(value))?,
                Seg::Item(value) => write!(f, "[={}]", bracket_text(value))?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

impl Serialize for FieldPath {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_kubectl_field_paths() {
        let p = FieldPath::default()
            .child(Seg::Key("spec".into()))
            .child(Seg::Key("containers".into()))
            .child(Seg::Merge {
                key: "name".into(),
                value: "nginx".into(),
            })
            .child(Seg::Key("image".into()));
        assert_eq!(p.to_string(), "spec.containers[name=nginx].image");
        let a = FieldPath::default()
            .child(Seg::Key("metadata".into()))
            .child(Seg::Key("annotations".into()))
            .child(Seg::Key(
                "kubectl.kubernetes.io/last-applied-configuration".into(),
            ));
        assert_eq!(
            a.to_string(),
            "metadata.annotations[\"kubectl.kubernetes.io/last-applied-configuration\"]"
        );
        let f = FieldPath::default()
            .child(Seg::Key("args".into()))
            .child(Seg::Index(0));
        assert_eq!(f.to_string(), "args[0]");
    }
}
