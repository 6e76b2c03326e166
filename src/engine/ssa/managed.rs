//! `metadata.managedFields` (apimachinery `pkg/util/managedfields/internal`).
//!
//! | reference | here |
//! | --- | --- |
//! | `DecodeManagedFields`, `BuildManagerIdentifier` | [`decode`], [`ManagerId`] |
//! | `EncodeObjectManagedFields`, `sortEncodedManagedFields` | [`encode`] |
//!
//! Managers are keyed, as in the reference, by their identity JSON (`{"manager":"kubectl",
//! "operation":"Apply"}`): Apply entries are one per manager whatever the apiVersion, Update
//! entries one per manager and apiVersion. One request on an object is [`super::request`].

use std::collections::BTreeMap;

mod id;

pub use id::{ManagerId, Operation};

use super::fieldsv1::{self, FieldsError};
use super::set::Set;
use super::update::{ManagedFields, VersionedSet};
use crate::value::{Map, Value};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// Every manager's set and the time of its last change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Managed {
    /// By identity key ([`ManagerId::key`]).
    pub fields: ManagedFields,
    pub times: BTreeMap<String, Option<String>>,
}

impl Managed {
    /// The managers as [`encode`] writes them and [`decode`] reads them back (what a request
    /// hands on, without writing FieldsV1 and reading it again): an entry whose key names no
    /// identity is left out, and the times are those of the entries written.
    #[must_use]
    pub fn as_stored(self) -> Managed {
        let Managed { fields, mut times } = self;
        let mut out = Managed::default();
        for (key, vs) in fields {
            let Some(id) = ManagerId::from_key(&key) else {
                continue;
            };
            let time = times.remove(&key).flatten();
            let key = id.key();
            out.times.insert(key.clone(), time);
            out.fields.insert(
                key,
                VersionedSet {
                    applied: id.operation == Operation::Apply,
                    ..vs
                },
            );
        }
        out
    }
}

/// An object's managers decoded once, to ask who owns many paths.
#[derive(Clone, Debug)]
pub struct Owners<'m> {
    managers: Vec<(ManagerId, Option<&'m str>, &'m Set)>,
}

impl<'m> Owners<'m> {
    #[must_use]
    pub fn new(managed: &'m Managed) -> Owners<'m> {
        let managers = managed
            .fields
            .iter()
            .filter_map(|(k, vs)| {
                let time = managed.times.get(k).and_then(Option::as_deref);
                ManagerId::from_key(k).map(|id| (id, time, &vs.set))
            })
            .collect();
        Owners { managers }
    }

    /// The managers whose sets hold `path` (`Set::has`), in identity-key order, with the time
    /// of their last change.
    pub fn of<'s>(
        &'s self,
        path: &'s [super::path::PathElement],
    ) -> impl Iterator<Item = (&'s ManagerId, Option<&'m str>)> + 's {
        self.indices_of(path).filter_map(|i| self.get(i))
    }

    /// [`Owners::of`] as indices (for [`Owners::get`]).
    pub fn indices_of<'s>(
        &'s self,
        path: &'s [super::path::PathElement],
    ) -> impl Iterator<Item = usize> + 's {
        self.managers
            .iter()
            .enumerate()
            .filter(move |(_, (_, _, set))| set.has(path))
            .map(|(i, _)| i)
    }

    /// Every manager with its set, in identity-key order (what a walk over the sets carries
    /// down instead of asking [`Owners::of`] per path).
    pub fn sets(&self) -> impl Iterator<Item = (&ManagerId, &'m Set)> + '_ {
        self.managers.iter().map(|(id, _, set)| (id, *set))
    }

    /// The `i`-th manager and the time of its last change.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<(&ManagerId, Option<&'m str>)> {
        self.managers.get(i).map(|(id, time, _)| (id, *time))
    }
}

/// `metadata.managedFields` could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ManagedFieldsError {
    #[error("metadata.managedFields must be a list")]
    NotAList,
    #[error("managedFields entry {index}: not an object")]
    NotAnEntry { index: usize },
    #[error(
        "managedFields entry {index} (manager {manager:?}): operation must be `Apply` or `Update`, not {operation}"
    )]
    Operation {
        index: usize,
        manager: String,
        operation: String,
    },
    #[error("managedFields entry {index} (manager {manager:?}): apiVersion must not be empty")]
    ApiVersion { index: usize, manager: String },
    #[error(
        "managedFields entry {index} (manager {manager:?}): fieldsType must be FieldsV1, not {found}"
    )]
    FieldsType {
        index: usize,
        manager: String,
        found: String,
    },
    #[error("managedFields entry {index} (manager {manager:?}): {source}")]
    Fields {
        index: usize,
        manager: String,
        source: FieldsError,
    },
    #[error(
        "managedFields entries {first} and {index} are the same manager (manager {manager:?}, operation {operation})"
    )]
    Duplicate {
        first: usize,
        index: usize,
        manager: String,
        operation: &'static str,
    },
}

/// One entry read from `metadata.managedFields`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: ManagerId,
    pub api_version: String,
    pub time: Option<String>,
    pub set: Set,
}

/// Reads the entries (`DecodeManagedFields`); an absent or null list has none.
///
/// # Errors
/// Not a list, an entry that is not an object, an operation other than Apply/Update, an empty
/// apiVersion, a fieldsType other than FieldsV1, FieldsV1 that does not parse, or two entries
/// of the same manager identity.
pub fn decode_entries(list: Option<&Value>) -> Result<Vec<Entry>, ManagedFieldsError> {
    let items = match list {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(ManagedFieldsError::NotAList),
    };
    let mut out: Vec<Entry> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let Value::Object(e) = item else {
            return Err(ManagedFieldsError::NotAnEntry { index });
        };
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let manager = s("manager");
        let operation = match e.get("operation").and_then(Value::as_str) {
            Some("Apply") => Operation::Apply,
            Some("Update") => Operation::Update,
            other => {
                return Err(ManagedFieldsError::Operation {
                    index,
                    manager,
                    operation: other.map_or_else(|| "nothing".to_owned(), |o| format!("{o:?}")),
                });
            }
        };
        let api_version = s("apiVersion");
        if api_version.is_empty() {
            return Err(ManagedFieldsError::ApiVersion { index, manager });
        }
        let fields_type = s("fieldsType");
        if fields_type != "FieldsV1" {
            return Err(ManagedFieldsError::FieldsType {
                index,
                manager,
                found: if fields_type.is_empty() {
                    "nothing".to_owned()
                } else {
                    format!("{fields_type:?}")
                },
            });
        }
        let set = match e.get("fieldsV1") {
            None | Some(Value::Null) => Ok(Set::new()),
            Some(Value::String(text)) => fieldsv1::from_json(text),
            Some(v) => fieldsv1::from_value(v),
        }
        .map_err(|source| ManagedFieldsError::Fields {
            index,
            manager: manager.clone(),
            source,
        })?;
        let id = ManagerId {
            manager: manager.clone(),
            operation,
            api_version: if operation == Operation::Apply {
                String::new()
            } else {
                api_version.clone()
            },
            subresource: s("subresource"),
        };
        if let Some(first) = out.iter().position(|o| o.id == id) {
            return Err(ManagedFieldsError::Duplicate {
                first,
                index,
                manager,
                operation: operation.as_str(),
            });
        }
        let time = e.get("time").and_then(Value::as_str).map(str::to_owned);
        out.push(Entry {
            id,
            api_version,
            time,
            set,
        });
    }
    Ok(out)
}

/// Reads the entries into managers keyed by identity.
///
/// # Errors
/// As [`decode_entries`].
pub fn decode(list: Option<&Value>) -> Result<Managed, ManagedFieldsError> {
    let mut managed = Managed::default();
    for e in decode_entries(list)? {
        let key = e.id.key();
        managed.times.insert(key.clone(), e.time);
        managed.fields.insert(
            key,
            VersionedSet {
                set: e.set,
                api_version: e.api_version,
                applied: e.id.operation == Operation::Apply,
            },
        );
    }
    Ok(managed)
}

/// Writes the managers as `metadata.managedFields` (sorted by operation, time, manager,
/// apiVersion, subresource); `None` when there are none.
#[must_use]
pub fn encode(managed: &Managed) -> Option<Value> {
    encode_with(managed, |_| true)
}

/// [`encode`], but the FieldsV1 of the managers `write` refuses is left null (for a caller
/// that takes their sets from `managed` and replaces those entries: they are as big as the
/// object).
#[must_use]
pub fn encode_with(managed: &Managed, write: impl Fn(&ManagerId) -> bool) -> Option<Value> {
    let entries = in_order(managed);
    if entries.is_empty() {
        return None;
    }
    let entry = |(id, time, vs): (ManagerId, Option<&str>, &VersionedSet)| {
        // Distinct keys: appended, not looked up first.
        let mut e = Map::with_capacity(7);
        e.push_unique("manager", Value::from(id.manager.as_str()));
        e.push_unique("operation", Value::from(id.operation.as_str()));
        e.push_unique("apiVersion", Value::from(vs.api_version.as_str()));
        if let Some(t) = time {
            e.push_unique("time", Value::from(t));
        }
        e.push_unique("fieldsType", Value::from("FieldsV1"));
        let fields = if write(&id) {
            fieldsv1::to_value(&vs.set)
        } else {
            Value::Null
        };
        e.push_unique("fieldsV1", fields);
        if !id.subresource.is_empty() {
            e.push_unique("subresource", Value::from(id.subresource.as_str()));
        }
        Value::Object(e)
    };
    Some(Value::Array(entries.into_iter().map(entry).collect()))
}

/// The managers with their times, in the order [`encode`] writes them: by operation, time,
/// manager, apiVersion, subresource (a key that names no identity left out).
fn in_order(managed: &Managed) -> Vec<(ManagerId, Option<&str>, &VersionedSet)> {
    let mut entries: Vec<_> = managed
        .fields
        .iter()
        .filter_map(|(key, vs)| {
            let id = ManagerId::from_key(key)?;
            Some((id, managed.times.get(key).and_then(Option::as_deref), vs))
        })
        .collect();
    entries.sort_by(|(a, at, av), (b, bt, bv)| {
        a.operation
            .cmp(&b.operation)
            .then_with(|| at.unwrap_or("").cmp(bt.unwrap_or("")))
            .then_with(|| a.manager.cmp(&b.manager))
            .then_with(|| av.api_version.cmp(&bv.api_version))
            .then_with(|| a.subresource.cmp(&b.subresource))
    });
    entries
}

/// [`encode`]'s value serialized, written from the managers as it is serialized instead of
/// built first; `None` where [`encode`] gives none.
#[must_use]
pub fn encoded(managed: &Managed) -> Option<Encoded<'_>> {
    let entries = in_order(managed);
    (!entries.is_empty()).then_some(Encoded(entries))
}

/// The managers to serialize as `metadata.managedFields` ([`encoded`]).
pub struct Encoded<'m>(Vec<(ManagerId, Option<&'m str>, &'m VersionedSet)>);

impl Serialize for Encoded<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for (id, time, vs) in &self.0 {
            seq.serialize_element(&EntryOut(id, *time, vs))?;
        }
        seq.end()
    }
}

/// One entry of [`Encoded`], its keys in [`encode_with`]'s order.
struct EntryOut<'m>(&'m ManagerId, Option<&'m str>, &'m VersionedSet);

impl Serialize for EntryOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let EntryOut(id, time, vs) = *self;
        let sub = !id.subresource.is_empty();
        let len = 5 + usize::from(time.is_some()) + usize::from(sub);
        let mut m = s.serialize_map(Some(len))?;
        m.serialize_entry("manager", &id.manager)?;
        m.serialize_entry("operation", id.operation.as_str())?;
        m.serialize_entry("apiVersion", &vs.api_version)?;
        if let Some(t) = time {
            m.serialize_entry("time", t)?;
        }
        m.serialize_entry("fieldsType", "FieldsV1")?;
        m.serialize_entry("fieldsV1", &fieldsv1::AsValue(&vs.set))?;
        if sub {
            m.serialize_entry("subresource", &id.subresource)?;
        }
        m.end()
    }
}

/// `metadata.managedFields` for a writer: as written before, or [`encoded`] from the managers.
pub enum Written<'a> {
    Value(&'a Value),
    Managers(Encoded<'a>),
}

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Written::Value(v) => v.serialize(s),
            Written::Managers(e) => e.serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The managers written as they are serialized ([`encoded`]) are [`encode`]'s value
    /// serialized, byte for byte, compact and pretty: the entries in its order (operation,
    /// time, manager, subresource), with and without times, the sets of sample Deployments
    /// (keyed lists, members that are parents too, empty sets) and one with keys of every
    /// kind.
    #[test]
    fn the_managers_serialized_as_written_are_the_encoded_value() {
        use crate::engine::ssa::typed::{samples::object, to_field_set};
        let kube = crate::engine::ssa::kubernetes::embedded();
        let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
        let every_kind = fieldsv1::from_json(
            r#"{"f:a":{".":{},"f:b":{}},"k:{\"name\":\"x\",\"port\":80}":{".":{},"f:v":{}},"v:\"q\"":{},"v:1":{},"i:3":{"f:c":{}}}"#,
        )
        .unwrap();
        let status = ManagerId {
            subresource: "status".into(),
            ..ManagerId::update("ctrl", "apps/v1")
        };
        let ids = [
            ManagerId::apply("kubectl"),
            ManagerId::update("helm", "apps/v1"),
            status,
            ManagerId::apply("argo"),
            ManagerId::update("before-first-apply", "apps/v1"),
        ];
        let (mut seed, mut compared, mut nonempty) = (7u64, 0, 0);
        for round in 0..400usize {
            let mut managed = Managed::default();
            for (i, id) in ids.iter().enumerate().take(round % (ids.len() + 1)) {
                let set = if (round + i) % 7 == 0 {
                    every_kind.clone()
                } else {
                    to_field_set(&kube.schema, root, &object(&mut seed)).unwrap_or_default()
                };
                nonempty += usize::from(!set.is_empty());
                let time = (round + i) % 3;
                let time = (time > 0).then(|| format!("2026-11-2{time}T00:00:00Z"));
                managed.times.insert(id.key(), time);
                let vs = VersionedSet {
                    set,
                    api_version: "apps/v1".into(),
                    applied: id.operation == Operation::Apply,
                };
                managed.fields.insert(id.key(), vs);
            }
            let value = encode(&managed);
            let written = encoded(&managed);
            assert_eq!(value.is_some(), written.is_some(), "round {round}");
            let (Some(value), Some(written)) = (value, written) else {
                continue;
            };
            assert_eq!(
                serde_json::to_string(&written).unwrap(),
                serde_json::to_string(&value).unwrap()
            );
            assert_eq!(
                serde_json::to_string_pretty(&Written::Managers(written)).unwrap(),
                serde_json::to_string_pretty(&value).unwrap()
            );
            compared += 1;
        }
        assert!(compared > 300 && nonempty > 700, "{compared} {nonempty}");
    }

    #[test]
    fn bad_entries_are_named() {
        let v = |s: &str| -> Value { serde_json::from_str(s).unwrap() };
        let e = decode(Some(&v(r#"{"a":1}"#))).unwrap_err();
        assert_eq!(e, ManagedFieldsError::NotAList);
        let e = decode(Some(&v(
            r#"[{"manager":"m","operation":"Patch","apiVersion":"v1","fieldsType":"FieldsV1"}]"#,
        )))
        .unwrap_err();
        assert!(e.to_string().contains("entry 0 (manager \"m\")"), "{e}");
        let e = decode(Some(&v(
            r#"[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"i:x":{}}}]"#,
        )))
        .unwrap_err();
        assert!(
            matches!(e, ManagedFieldsError::Fields { index: 0, .. }),
            "{e}"
        );
        let entry = r#"{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}"#;
        let e = decode(Some(&v(&format!("[{entry},{entry}]")))).unwrap_err();
        assert!(
            matches!(
                e,
                ManagedFieldsError::Duplicate {
                    first: 0,
                    index: 1,
                    ..
                }
            ),
            "{e}"
        );
    }
}
