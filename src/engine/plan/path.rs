//! Field paths as the plan names them: `spec.template.spec.containers[name=nginx].image`,
//! `metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]`,
//! `metadata.finalizers[=foregroundDeletion]`, `spec.args[0]`.

use std::fmt;
use std::sync::Arc;

use crate::value::Value;
use serde::{Serialize, Serializer};

/// One step of a path. The texts are shared (`Arc<str>`): a plan holds one path per field, and
/// the fields under a list element all repeat its steps, so a clone must not copy them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    /// An object field.
    Key(Arc<str>),
    /// A merge-keyed list element: `[name=nginx]` (the key's value as Go's `%v` prints it).
    Merge { key: Arc<str>, value: Arc<str> },
    /// An element of a primitive set list: `[=value]`.
    Item(Arc<str>),
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
            at = seg.find_in(at)?;
        }
        Some(at)
    }
}

impl Seg {
    /// The child of `v` this step names: an object's entry, or the first list element with the
    /// merge key's value, the primitive or the position.
    #[must_use]
    pub fn find_in<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        match (self, v) {
            (Seg::Key(k), Value::Object(m)) => m.get(k),
            (Seg::Merge { key, value }, Value::Array(items)) => items.iter().find(|i| {
                i.get(&**key)
                    .is_some_and(|v| crate::engine::gofmt::sprint(v) == **value)
            }),
            (Seg::Item(value), Value::Array(items)) => items
                .iter()
                .find(|i| crate::engine::gofmt::sprint(i) == **value),
            (Seg::Index(i), Value::Array(items)) => items.get(*i),
            _ => None,
        }
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

/// A bracket value as written: bare when plain, else JSON-quoted.
fn write_bracket_text(f: &mut impl fmt::Write, s: &str) -> fmt::Result {
    if s.bytes()
        .all(|c| c.is_ascii_alphanumeric() || b"-_./:@".contains(&c))
        && !s.is_empty()
    {
        f.write_str(s)
    } else {
        f.write_str(&quoted(s))
    }
}

/// Write one step of a path's text; `first`: it starts the path.
pub(crate) fn write_seg(f: &mut impl fmt::Write, seg: &Seg, first: bool) -> fmt::Result {
    match seg {
        Seg::Key(k) if is_plain(k) => {
            if !first {
                f.write_str(".")?;
            }
            f.write_str(k)
        }
        Seg::Key(k) => write!(f, "[{}]", quoted(k)),
        Seg::Merge { key, value } => {
            f.write_str("[")?;
            f.write_str(key)?;
            f.write_str("=")?;
            write_bracket_text(f, value)?;
            f.write_str("]")
        }
        Seg::Item(value) => {
            f.write_str("[=")?;
            write_bracket_text(f, value)?;
            f.write_str("]")
        }
        Seg::Index(n) => write!(f, "[{n}]"),
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        PathText(&self.0).fmt(f)
    }
}

/// The text of a path given as its steps (what [`FieldPath`]'s `Display` writes), without
/// making a [`FieldPath`] of them.
#[derive(Clone, Copy, Debug)]
pub struct PathText<'a>(pub &'a [Seg]);

impl fmt::Display for PathText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            write_seg(f, seg, i == 0)?;
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

impl std::str::FromStr for FieldPath {
    type Err = String;

    /// Parse the plan's path syntax: `a.b`, `a["x.y"]`, `list[name=nginx]`, `set[=value]`,
    /// `list[0]`; bracket values may be bare or JSON-quoted.
    fn from_str(s: &str) -> Result<FieldPath, String> {
        let mut segs = Vec::new();
        let chars: Vec<char> = s.chars().collect();
        let mut i = 0;
        let err = |i: usize, what: &str| format!("bad path {s:?} at character {}: {what}", i + 1);
        while i < chars.len() {
            match chars[i] {
                '.' if !segs.is_empty() => i += 1,
                '[' => {
                    let (inner, next) =
                        bracket(&chars, i + 1).ok_or_else(|| err(i, "unclosed ["))?;
                    i = next;
                    segs.push(bracket_seg(&inner).map_err(|m| err(i, &m))?);
                    continue;
                }
                _ => {}
            }
            if i >= chars.len() {
                break;
            }
            if chars[i] == '[' {
                continue;
            }
            let start = i;
            while i < chars.len() && chars[i] != '.' && chars[i] != '[' {
                i += 1;
            }
            if start == i {
                return Err(err(i, "empty field name"));
            }
            segs.push(Seg::Key(chars[start..i].iter().collect::<String>().into()));
        }
        if segs.is_empty() {
            return Err(format!("bad path {s:?}: empty"));
        }
        Ok(FieldPath(segs))
    }
}

/// The text inside `[...]` (honouring JSON quotes) and the index after `]`.
fn bracket(chars: &[char], mut i: usize) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut in_quote = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' => in_quote = !in_quote,
            '\\' if in_quote => {
                out.push(c);
                i += 1;
                out.push(*chars.get(i)?);
                i += 1;
                continue;
            }
            ']' if !in_quote => return Some((out, i + 1)),
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    None
}

fn unquote(text: &str) -> Result<String, String> {
    if text.starts_with('"') {
        serde_json::from_str::<String>(text).map_err(|e| format!("bad quoted text: {e}"))
    } else {
        Ok(text.to_owned())
    }
}

fn bracket_seg(inner: &str) -> Result<Seg, String> {
    if inner.starts_with('"') {
        return Ok(Seg::Key(unquote(inner)?.into()));
    }
    if let Some(value) = inner.strip_prefix('=') {
        return Ok(Seg::Item(unquote(value)?.into()));
    }
    if let Some((key, value)) = inner.split_once('=') {
        return Ok(Seg::Merge {
            key: key.into(),
            value: unquote(value)?.into(),
        });
    }
    inner
        .parse::<usize>()
        .map(Seg::Index)
        .map_err(|_| format!("[{inner}] is not an index, [key=value], [=value] or [\"key\"]"))
}

#[cfg(test)]
mod parse_tests {
    use super::*;

    #[test]
    fn paths_parse_back_from_their_text() {
        for text in [
            "spec.replicas",
            "spec.template.spec.containers[name=nginx].image",
            "metadata.annotations[\"kubectl.kubernetes.io/last-applied-configuration\"]",
            "metadata.finalizers[=foregroundDeletion]",
            "spec.args[0]",
            "data[\"a b\"]",
            "spec.ports[port=\"80 x\"]",
        ] {
            let p: FieldPath = text.parse().unwrap();
            assert_eq!(p.to_string(), text);
        }
        assert!("spec.[".parse::<FieldPath>().is_err());
        assert!("".parse::<FieldPath>().is_err());
    }
}
