//! FieldsV1 (`fieldpath/serialize.go`): a [`Set`] as the API server stores it in
//! `metadata.managedFields[].fieldsV1`.
//!
//! Writing: `.` first (the node itself is owned), then children ordered as path elements
//! (`f` < `k` < `v` < `i`, each by content); a leaf is `{}`. Reading accepts any order and
//! whitespace, drops keys of unknown kinds (`r:…`), and rejects malformed keys. A node whose
//! object has no known key (`{}`) is a member.

use super::path::{self, PathElement, PathElementError};
use super::set::Set;
use crate::engine::MAX_DEPTH;
use crate::engine::gofmt::FastMap;
use crate::value::{Map, Value};
use serde::{Serialize, Serializer, ser::SerializeMap};

/// Why a FieldsV1 document is not a field set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldsError {
    #[error("FieldsV1 is not valid JSON: {0}")]
    Json(String),
    #[error("FieldsV1 node {at} is not an object")]
    NotObject { at: String },
    #[error("FieldsV1 key {key:?}: {reason}")]
    BadKey { key: String, reason: String },
    #[error("FieldsV1 nests deeper than {MAX_DEPTH} levels")]
    TooDeep,
}

/// Reads FieldsV1 JSON text (`Set.FromJSON`).
///
/// # Errors
/// When the text is not JSON, a node is not an object, or a key is malformed.
pub fn from_json(text: &str) -> Result<Set, FieldsError> {
    let value: Value = serde_json::from_str(text).map_err(|e| FieldsError::Json(e.to_string()))?;
    from_value(&value)
}

/// Reads a FieldsV1 object already parsed.
///
/// # Errors
/// As [`from_json`].
pub fn from_value(value: &Value) -> Result<Set, FieldsError> {
    let Value::Object(map) = value else {
        return Err(FieldsError::NotObject { at: "root".into() });
    };
    let (set, _) = read_node(map, 0, &mut FastMap::default())?;
    Ok(set.unwrap_or_default())
}

/// One node: its children (`None` when it has no known key) and whether it is a member.
/// `keys`: the key and value elements read so far, by their text (a list item's key repeats
/// in every item of the lists above it: each container's env names), parsed once.
fn read_node<'v>(
    map: &'v Map,
    depth: usize,
    keys: &mut FastMap<&'v str, PathElement>,
) -> Result<(Option<Set>, bool), FieldsError> {
    if depth > MAX_DEPTH {
        return Err(FieldsError::TooDeep);
    }
    let mut is_member = false;
    let mut members = Vec::new();
    let mut children: Vec<(PathElement, Set)> = Vec::new();
    let mut any = false;
    for (key, child) in map {
        if key == "." {
            is_member = true;
            continue;
        }
        // A field is read as it comes (its name is the key less `f:`); the other kinds are
        // looked for among those parsed before.
        let parsed = if key.starts_with("f:") {
            PathElement::from_fields_key(key)
        } else if let Some(pe) = keys.get(key.as_str()) {
            Ok(pe.clone())
        } else {
            PathElement::from_fields_key(key).inspect(|pe| {
                keys.insert(key.as_str(), pe.clone());
            })
        };
        let pe = match parsed {
            Ok(pe) => pe,
            Err(PathElementError::Unknown) => continue,
            Err(PathElementError::Invalid(reason)) => {
                return Err(FieldsError::BadKey {
                    key: key.to_string(),
                    reason,
                });
            }
        };
        let Value::Object(child) = child else {
            return Err(FieldsError::NotObject {
                at: key.to_string(),
            });
        };
        let (grandchildren, child_is_member) = read_node(child, depth + 1, keys)?;
        if child_is_member {
            any = true;
            members.push(pe.clone());
        }
        if let Some(g) = grandchildren {
            any = true;
            children.push((pe, g));
        }
    }
    if !any {
        return Ok((None, true));
    }
    Ok((Some(Set::from_unsorted_parts(members, children)), is_member))
}

/// Whether the FieldsV1 object `node` (one that parses) holds `path`, a path of field
/// elements, as the set read from it would ([`read_node`]: a node is a member when it has `.`
/// or no key of a known kind).
pub(super) fn has_field_path(node: &Value, path: &[PathElement]) -> bool {
    let Some((last, route)) = path.split_last() else {
        return false;
    };
    let mut node = node;
    for pe in route.iter().chain(std::iter::once(last)) {
        let Some(name) = pe.as_field() else {
            return false;
        };
        let Some(child) = node
            .as_object()
            .and_then(|m| m.iter().find(|(k, _)| k.strip_prefix("f:") == Some(name)))
            .map(|(_, v)| v)
        else {
            return false;
        };
        node = child;
    }
    node.as_object().is_some_and(|m| {
        m.contains_key(".")
            || !m
                .keys()
                .any(|k| matches!(k.as_bytes(), [b'f' | b'k' | b'v' | b'i', b':', ..]))
    })
}

/// Writes a set as the API server stores it (`Set.ToJSON`), byte for byte.
#[must_use]
pub fn to_json(set: &Set) -> String {
    let mut out = String::new();
    out.push('{');
    write_contents(set, false, &mut out);
    out.push('}');
    out
}

fn write_contents(set: &Set, is_member: bool, out: &mut String) {
    if is_member {
        out.push_str("\".\":{}");
    }
    for (i, node) in nodes(set).enumerate() {
        if is_member || i > 0 {
            out.push(',');
        }
        path::write_object_key(&node.pe.to_fields_key(), out);
        match node.child {
            None => out.push_str(":{}"),
            Some(child) => {
                out.push_str(":{");
                write_contents(child, node.member, out);
                out.push('}');
            }
        }
    }
}

/// One key of a FieldsV1 node: its element, what is below it (`None`: a leaf, `{}`), and
/// whether it is also a member (its `.`, written inside).
struct Key<'s> {
    pe: &'s PathElement,
    child: Option<&'s Set>,
    member: bool,
}

/// A node's keys in the order they are written: its members and children merged, each
/// element once (a child that is also a member holds `.`).
fn nodes(set: &Set) -> impl Iterator<Item = Key<'_>> {
    let (members, children) = (set.members(), set.children());
    let (mut mi, mut ci) = (0, 0);
    std::iter::from_fn(move || {
        let ord = match (members.get(mi), children.get(ci)) {
            (Some(m), Some((c, _))) => m.cmp(c),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => return None,
        };
        if ord == std::cmp::Ordering::Less {
            mi += 1;
            return members.get(mi - 1).map(|pe| Key {
                pe,
                child: None,
                member: true,
            });
        }
        let member = ord == std::cmp::Ordering::Equal;
        mi += usize::from(member);
        ci += 1;
        children.get(ci - 1).map(|(pe, child)| Key {
            pe,
            child: Some(child),
            member,
        })
    })
}

/// The set as a value (the object [`to_json`] writes, keys in its order).
#[must_use]
pub fn to_value(set: &Set) -> Value {
    Value::Object(node_value(set, false))
}

/// The children past which a node's children are written on two cores.
const SPLIT_AT: usize = 1024;

fn node_value(set: &Set, is_member: bool) -> Map {
    let children = set.children();
    let mut m = Map::with_capacity(set.members().len() + children.len() + usize::from(is_member));
    if is_member {
        m.push_unique(".", Value::Object(Map::new()));
    }
    // A long list of children: their nodes (a child that is also a member holds ".") are
    // written first, on two cores.
    let mut written = (children.len() >= SPLIT_AT).then(|| {
        let pairs: Vec<(&Set, bool)> = children
            .iter()
            .map(|(pe, c)| (c, set.has_member(pe)))
            .collect();
        crate::engine::ssa::par::map_halves(&pairs, SPLIT_AT, |&(child, member)| {
            node_value(child, member)
        })
        .into_iter()
    });
    // Keys are distinct: each comes from a distinct element, in the sets' order.
    for key in nodes(set) {
        let node = match (key.child, &mut written) {
            (None, _) => Map::new(),
            (Some(_), Some(nodes)) => nodes.next().unwrap_or_default(),
            (Some(child), None) => node_value(child, key.member),
        };
        m.push_unique(key.pe.to_fields_key(), Value::Object(node));
    }
    m
}

/// The set as [`to_value`]'s value serialized, written as it is serialized instead of built
/// first (a big object's FieldsV1 are as big as the object, written for each step of a plan).
pub struct AsValue<'s>(pub &'s Set);

impl Serialize for AsValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Node(self.0, false).serialize(s)
    }
}

/// A node and whether it is a member ([`node_value`]'s arguments).
struct Node<'s>(&'s Set, bool);

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Node(set, is_member) = *self;
        let empty = !is_member && set.members().is_empty() && set.children().is_empty();
        let mut map = s.serialize_map(empty.then_some(0))?;
        if is_member {
            map.serialize_entry(".", &Leaf)?;
        }
        // One buffer for the node's keys.
        let mut key = String::with_capacity(32);
        for k in nodes(set) {
            key.clear();
            k.pe.write_fields_key(&mut key);
            match k.child {
                None => map.serialize_entry(key.as_str(), &Leaf)?,
                Some(child) => map.serialize_entry(key.as_str(), &Node(child, k.member))?,
            }
        }
        map.end()
    }
}

/// A leaf's `{}`.
struct Leaf;

impl Serialize for Leaf {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_map(Some(0))?.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key repeated under other items (each container's env names) reads as the same
    /// element each time: the set holds every path, written back as read.
    #[test]
    fn repeated_keys_read_alike() {
        let item = |name: &str| {
            format!(
                r#""k:{{\"name\":\"{name}\"}}":{{".":{{}},"f:env":{{"k:{{\"name\":\"A\"}}":{{".":{{}},"f:value":{{}}}},"v:\"x\"":{{}}}}}}"#
            )
        };
        let text = format!(r#"{{"f:containers":{{{},{}}}}}"#, item("a"), item("b"));
        let set = from_json(&text).unwrap();
        assert_eq!(to_json(&set), text);
        let c = |n: &str| PathElement::key(vec![("name".into(), Value::from(n))]);
        for name in ["a", "b"] {
            let env = [
                PathElement::field("containers"),
                c(name),
                PathElement::field("env"),
            ];
            assert!(set.has(&[&env[..], &[c("A"), PathElement::field("value")]].concat()));
            assert!(set.has(&[&env[..], &[PathElement::Value(Value::from("x"))]].concat()));
        }
        assert_eq!(set.size(), 8);
    }

    #[test]
    fn golden_round_trip() {
        let text = r#"{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:ports":{"k:{\"port\":443,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}}}}"#;
        let set = from_json(text).unwrap();
        assert_eq!(to_json(&set), text);
        assert_eq!(
            crate::engine::gojson::to_string_in_order(&to_value(&set)).unwrap(),
            text
        );
    }

    #[test]
    fn unknown_kinds_are_dropped() {
        let set = from_json(r#"{"f:a":{"r:x":{}},"r:y":{}}"#).unwrap();
        assert_eq!(to_json(&set), r#"{"f:a":{}}"#);
    }

    #[test]
    fn a_long_node_written_on_two_cores_is_what_the_text_writer_writes() {
        // 3,000 list items, every third also a member, each with a field below; members
        // between them; a node past the split inside a node past it.
        let mut paths: Vec<Vec<PathElement>> = Vec::new();
        let list = PathElement::field("items");
        for i in 0..3000 {
            let item = PathElement::Index(i);
            if i % 3 == 0 {
                paths.push(vec![list.clone(), item.clone()]);
            }
            paths.push(vec![list.clone(), item.clone(), PathElement::field("name")]);
            if i == 7 {
                for j in 0..1500 {
                    paths.push(vec![list.clone(), item.clone(), PathElement::Index(j)]);
                }
            }
        }
        for i in 0..50 {
            paths.push(vec![PathElement::field(format!("m{i}"))]);
        }
        let set = Set::from_paths(paths.iter().map(Vec::as_slice));
        let text = to_json(&set);
        assert_eq!(serde_json::to_string(&to_value(&set)).unwrap(), text);
        assert_eq!(from_json(&text).unwrap(), set);
    }
}
