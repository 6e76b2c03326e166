//! `metadata.managedFields` and one API request on an object (apimachinery
//! `pkg/util/managedfields/internal`).
//!
//! | reference | here |
//! | --- | --- |
//! | `DecodeManagedFields`, `BuildManagerIdentifier` | [`decode`], [`ManagerId`] |
//! | `EncodeObjectManagedFields`, `sortEncodedManagedFields` | [`encode`] |
//! | `conflict.go` (`Apply failed with N conflicts: …`) | [`ApiConflicts`] |
//! | the request pipeline (`fieldmanager.go`, outermost first): versioncheck → lastAppliedUpdater → lastAppliedManager → skipNonApplied → capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta → SMD | [`Request::apply`], [`Request::update`] |
//!
//! Managers are keyed, as in the reference, by their identity JSON (`{"manager":"kubectl",
//! "operation":"Apply"}`): Apply entries are one per manager whatever the apiVersion, Update
//! entries one per manager and apiVersion. The clock is an input (`Request::time`).

use std::collections::BTreeMap;
use std::fmt;

use super::fieldsv1::{self, FieldsError};
use super::lastapplied;
use super::path::{Path, PathElement, path_string};
use super::schema::{Schema, TypeRef};
use super::set::Set;
use super::typed::{self, TypedError};
use super::update::{Conflict, Conflicts, ManagedFields, UpdateError, Updater, VersionedSet};
use crate::engine::gojson;
use crate::value::{Map, Value};

/// `metav1.ManagedFieldsOperationType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// Who a managedFields entry belongs to (`BuildManagerIdentifier`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ManagerId {
    pub manager: String,
    pub operation: Operation,
    /// Empty for Apply entries (one entry whatever version they applied).
    pub api_version: String,
    pub subresource: String,
}

impl ManagerId {
    /// An applier.
    #[must_use]
    pub fn apply(manager: &str) -> ManagerId {
        ManagerId {
            manager: manager.to_owned(),
            operation: Operation::Apply,
            api_version: String::new(),
            subresource: String::new(),
        }
    }

    /// An updater at an API version.
    #[must_use]
    pub fn update(manager: &str, api_version: &str) -> ManagerId {
        ManagerId {
            manager: manager.to_owned(),
            operation: Operation::Update,
            api_version: api_version.to_owned(),
            subresource: String::new(),
        }
    }

    /// The identity JSON the reference keys managers by.
    #[must_use]
    pub fn key(&self) -> String {
        let mut m = Map::new();
        if !self.manager.is_empty() {
            m.insert("manager", Value::from(self.manager.as_str()));
        }
        m.insert("operation", Value::from(self.operation.as_str()));
        if self.operation == Operation::Update && !self.api_version.is_empty() {
            m.insert("apiVersion", Value::from(self.api_version.as_str()));
        }
        if !self.subresource.is_empty() {
            m.insert("subresource", Value::from(self.subresource.as_str()));
        }
        gojson::to_string_in_order(&Value::Object(m)).unwrap_or_default()
    }

    /// Reads an identity JSON back.
    #[must_use]
    pub fn from_key(key: &str) -> Option<ManagerId> {
        let v: Value = serde_json::from_str(key).ok()?;
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let operation = match v.get("operation").and_then(Value::as_str) {
            Some("Apply") => Operation::Apply,
            Some("Update") => Operation::Update,
            _ => return None,
        };
        Some(ManagerId {
            manager: s("manager"),
            operation,
            api_version: s("apiVersion"),
            subresource: s("subresource"),
        })
    }
}

impl fmt::Display for ManagerId {
    /// `printManager`: `"kubectl"`, `"kube-controller-manager" with subresource "scale" using
    /// autoscaling/v1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", super::order::go_quote(&self.manager))?;
        if !self.subresource.is_empty() {
            write!(
                f,
                " with subresource {}",
                super::order::go_quote(&self.subresource)
            )?;
        }
        if self.operation == Operation::Update {
            write!(f, " using {}", self.api_version)?;
        }
        Ok(())
    }
}

/// Every manager's set and the time of its last change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Managed {
    /// By identity key ([`ManagerId::key`]).
    pub fields: ManagedFields,
    pub times: BTreeMap<String, Option<String>>,
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
    let mut entries: Vec<(ManagerId, Option<&str>, Map)> = Vec::new();
    for (key, vs) in &managed.fields {
        let Some(id) = ManagerId::from_key(key) else {
            continue;
        };
        let time = managed.times.get(key).and_then(Option::as_deref);
        let mut e = Map::new();
        e.insert("manager", Value::from(id.manager.as_str()));
        e.insert("operation", Value::from(id.operation.as_str()));
        e.insert("apiVersion", Value::from(vs.api_version.as_str()));
        if let Some(t) = time {
            e.insert("time", Value::from(t));
        }
        e.insert("fieldsType", Value::from("FieldsV1"));
        e.insert("fieldsV1", fieldsv1::to_value(&vs.set));
        if !id.subresource.is_empty() {
            e.insert("subresource", Value::from(id.subresource.as_str()));
        }
        entries.push((id, time, e));
    }
    if entries.is_empty() {
        return None;
    }
    entries.sort_by(|(a, at, ae), (b, bt, be)| {
        let version = |e: &Map| {
            e.get("apiVersion")
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        a.operation
            .cmp(&b.operation)
            .then_with(|| at.unwrap_or("").cmp(bt.unwrap_or("")))
            .then_with(|| a.manager.cmp(&b.manager))
            .then_with(|| version(ae).cmp(&version(be)))
            .then_with(|| a.subresource.cmp(&b.subresource))
    });
    Some(Value::Array(
        entries
            .into_iter()
            .map(|(_, _, e)| Value::Object(e))
            .collect(),
    ))
}

/// One conflict as the API server reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiConflict {
    pub manager: ManagerId,
    pub path: Path,
}

/// The conflicts of a refused apply (HTTP 409), in the API server's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiConflicts(pub Vec<ApiConflict>);

impl fmt::Display for ApiConflicts {
    /// `Apply failed with 1 conflict: conflict with "m" using apps/v1: .spec.replicas`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.0.as_slice() {
            return write!(
                f,
                "Apply failed with 1 conflict: conflict with {}: {}",
                one.manager,
                path_string(&one.path)
            );
        }
        let mut by: BTreeMap<String, (&ManagerId, Vec<&Path>)> = BTreeMap::new();
        for c in &self.0 {
            by.entry(c.manager.key())
                .or_insert_with(|| (&c.manager, Vec::new()))
                .1
                .push(&c.path);
        }
        let mut lines = Vec::new();
        for (manager, paths) in by.values() {
            lines.push(format!("conflicts with {manager}:"));
            for p in paths {
                lines.push(format!("- {}", path_string(p)));
            }
        }
        write!(
            f,
            "Apply failed with {} conflicts: {}",
            self.0.len(),
            lines.join("\n")
        )
    }
}

/// Why a request failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("failed to decode managed fields: {0}")]
    Managed(#[from] ManagedFieldsError),
    #[error("{0}")]
    Conflicts(ApiConflicts),
    #[error("{0}")]
    Typed(#[from] TypedError),
    /// The request is refused before any merge (HTTP 400).
    #[error("{0}")]
    BadRequest(String),
}

/// The fields nobody owns or conflicts on (`stripmeta.go`).
fn strip_set() -> Set {
    let mut s = Set::new();
    for top in ["apiVersion", "kind", "metadata"] {
        s.insert(&[PathElement::field(top)]);
    }
    for f in [
        "name",
        "namespace",
        "creationTimestamp",
        "selfLink",
        "uid",
        "clusterName",
        "generation",
        "managedFields",
        "resourceVersion",
    ] {
        s.insert(&[PathElement::field("metadata"), PathElement::field(f)]);
    }
    s
}

/// The manager recorded for what an object held before its first apply.
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";
/// The bucket old Update entries are merged into beyond [`MAX_UPDATE_MANAGERS`].
pub const ANCIENT_CHANGES: &str = "ancient-changes";
/// At most this many Update entries are kept.
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// One request on an object of one kind, at the endpoint's API version.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    pub schema: &'a Schema,
    pub root: TypeRef,
    /// The endpoint's group version (`apps/v1`).
    pub api_version: &'a str,
    /// The root type of another kind (for the last-applied annotation, which names its own).
    pub types: &'a dyn Fn(&str, &str) -> Option<TypeRef>,
    /// Fields nobody owns, per version (the resource's reset fields).
    pub ignored: Option<&'a BTreeMap<String, Set>>,
    /// Now, as the API server writes it (`2026-11-25T19:00:00Z`).
    pub time: &'a str,
}

/// An object without its `metadata.managedFields`.
fn without_managed_fields(obj: &Value) -> Value {
    let mut obj = obj.clone();
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.shift_remove("managedFields");
    }
    obj
}

fn with_managed_fields(mut obj: Value, managed: &Managed) -> Value {
    let encoded = encode(managed);
    if obj.is_null() {
        obj = Value::Object(Map::new());
    }
    if let Some(m) = obj.as_object_mut() {
        let meta = m
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(meta) = meta.as_object_mut() {
            match encoded {
                Some(list) => {
                    meta.insert("managedFields", list);
                }
                None => {
                    meta.shift_remove("managedFields");
                }
            }
        }
    }
    obj
}

fn is_empty_object(v: &Value) -> bool {
    v.is_null() || v.as_object().is_some_and(Map::is_empty)
}

impl Request<'_> {
    fn updater(&self) -> Updater<'_> {
        Updater {
            schema: self.schema,
            root: self.root,
            ignored: self.ignored,
            return_input_on_noop: false,
        }
    }

    /// An Update (create, PUT, non-apply PATCH): `new` replaces `live`. Returns the object
    /// stored, with its managedFields.
    ///
    /// # Errors
    /// Bad managedFields on `live`, or a value that does not fit the schema.
    pub fn update(&self, live: &Value, new: &Value, manager: &str) -> Result<Value, RequestError> {
        let managed = decode(live.get("metadata").and_then(|m| m.get("managedFields")))?;
        let live = without_managed_fields(live);
        let new = without_managed_fields(new);
        typed::validate(self.schema, self.root, &new, true)?;
        // skipNonApplied: an existing object nobody tracks stays untracked.
        if managed.fields.is_empty() && !is_empty_object(&live) {
            return Ok(new);
        }
        let managed = self.update_tracked(&live, &new, manager, managed)?;
        Ok(with_managed_fields(new, &managed))
    }

    /// capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta → SMD, for an update.
    fn update_tracked(
        &self,
        live: &Value,
        new: &Value,
        manager: &str,
        mut managed: Managed,
    ) -> Result<Managed, RequestError> {
        let key = ManagerId::update(manager, self.api_version).key();
        let current = "current-operation";
        let mut fields = self
            .updater()
            .update(live, new, self.api_version, &managed.fields, current)
            .map_err(update_error)?;
        strip(&mut fields, current);
        if let Some(vs) = fields.remove(current) {
            let set = match fields.get(&key) {
                Some(previous) => vs.set.union(&previous.set),
                None => vs.set,
            };
            fields.insert(key.clone(), VersionedSet { set, ..vs });
            managed.times.insert(key, Some(self.time.to_owned()));
        }
        managed.fields = fields;
        cap_update_managers(&mut managed);
        Ok(managed)
    }

    /// A server-side apply of `config` by `manager` (`PATCH` with
    /// `application/apply-patch+yaml`). Returns the object stored, with its managedFields.
    ///
    /// # Errors
    /// [`RequestError::Conflicts`] when other managers own what the config changes and
    /// `force` is off; bad managedFields on `live`; a config of another apiVersion, with
    /// managedFields, or that does not fit the schema (duplicate keys).
    pub fn apply(
        &self,
        live: &Value,
        config: &Value,
        manager: &str,
        force: bool,
    ) -> Result<Value, RequestError> {
        let version = config
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("");
        if version != self.api_version {
            return Err(RequestError::BadRequest(format!(
                "the API version in the data ({version}) does not match the expected API version ({})",
                self.api_version
            )));
        }
        if config
            .get("metadata")
            .and_then(|m| m.get("managedFields"))
            .is_some_and(|v| !v.is_null())
        {
            return Err(RequestError::BadRequest(
                "metadata.managedFields must be nil".to_owned(),
            ));
        }
        typed::validate(self.schema, self.root, config, false)?;
        let managed = decode(live.get("metadata").and_then(|m| m.get("managedFields")))?;
        let live = without_managed_fields(live);
        typed::validate(self.schema, self.root, &live, true)?;
        let first = self.apply_untracked(&live, config, manager, force, managed.clone());
        let (object, managed) = match first {
            Err(RequestError::Conflicts(conflicts)) if manager == "kubectl" => {
                match lastapplied::allowed_conflicts(self, &live) {
                    Some(allowed) => {
                        let outside: Vec<ApiConflict> = conflicts
                            .0
                            .iter()
                            .filter(|c| !allowed.has(&c.path))
                            .cloned()
                            .collect();
                        if outside.is_empty() {
                            self.apply_untracked(&live, config, manager, true, managed)?
                        } else {
                            return Err(RequestError::Conflicts(ApiConflicts(outside)));
                        }
                    }
                    None => return Err(RequestError::Conflicts(conflicts)),
                }
            }
            other => other?,
        };
        let object = if manager == "kubectl" {
            lastapplied::update_annotation(object, config)
        } else {
            object
        };
        Ok(with_managed_fields(object, &managed))
    }

    /// skipNonApplied, then the tracked apply.
    fn apply_untracked(
        &self,
        live: &Value,
        config: &Value,
        manager: &str,
        force: bool,
        mut managed: Managed,
    ) -> Result<(Value, Managed), RequestError> {
        if managed.fields.is_empty() {
            managed = self.update_tracked(&Value::Null, live, BEFORE_FIRST_APPLY, managed)?;
        }
        let key = ManagerId::apply(manager).key();
        let (new, mut fields) = self
            .updater()
            .apply(live, config, self.api_version, &managed.fields, &key, force)
            .map_err(update_error)?;
        strip(&mut fields, &key);
        managed.fields = fields;
        let object = match new {
            Some(new) => {
                managed.times.insert(key, Some(self.time.to_owned()));
                new
            }
            None => live.clone(),
        };
        cap_update_managers(&mut managed);
        Ok((object, managed))
    }
}

/// stripMeta: the acting manager never owns the object's identity fields.
fn strip(fields: &mut ManagedFields, key: &str) {
    if let Some(vs) = fields.get_mut(key) {
        vs.set = vs.set.difference(&strip_set());
        if vs.set.is_empty() {
            fields.remove(key);
        }
    }
}

fn update_error(e: UpdateError) -> RequestError {
    match e {
        UpdateError::Typed(t) => RequestError::Typed(t),
        UpdateError::Conflicts(Conflicts(list)) => RequestError::Conflicts(ApiConflicts(
            list.into_iter()
                .map(|Conflict { manager, path }| ApiConflict {
                    manager: ManagerId::from_key(&manager)
                        .unwrap_or_else(|| ManagerId::apply(&manager)),
                    path,
                })
                .collect(),
        )),
    }
}

/// capManagers: beyond [`MAX_UPDATE_MANAGERS`] Update entries, the oldest are merged, per
/// apiVersion, into [`ANCIENT_CHANGES`].
fn cap_update_managers(managed: &mut Managed) {
    let mut updaters: Vec<String> = managed
        .fields
        .iter()
        .filter(|(_, vs)| !vs.applied)
        .map(|(k, _)| k.clone())
        .collect();
    if updaters.len() <= MAX_UPDATE_MANAGERS {
        return;
    }
    let time = |k: &String| managed.times.get(k).cloned().flatten().unwrap_or_default();
    updaters.sort_by(|a, b| time(a).cmp(&time(b)).then_with(|| a.cmp(b)));
    let mut first_of_version: BTreeMap<String, String> = BTreeMap::new();
    let mut length = updaters.len();
    for manager in updaters {
        if length <= MAX_UPDATE_MANAGERS {
            break;
        }
        let Some(vs) = managed.fields.get(&manager).cloned() else {
            continue;
        };
        let when = managed.times.get(&manager).cloned().flatten();
        let version = vs.api_version.clone();
        let bucket = ManagerId::update(ANCIENT_CHANGES, &version).key();
        if let Some(first) = first_of_version.get(&version) {
            if !managed.fields.contains_key(&bucket)
                && let Some(s) = managed.fields.remove(first)
            {
                managed.fields.insert(bucket.clone(), s);
            }
            let merged = managed
                .fields
                .get(&bucket)
                .map_or_else(|| vs.set.clone(), |b| vs.set.union(&b.set));
            managed
                .fields
                .insert(bucket.clone(), VersionedSet { set: merged, ..vs });
            managed.fields.remove(&manager);
            length -= 1;
            managed.times.insert(bucket, when);
        } else {
            first_of_version.insert(version, manager);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_keys_match_the_reference() {
        assert_eq!(
            ManagerId::apply("kubectl").key(),
            r#"{"manager":"kubectl","operation":"Apply"}"#
        );
        let u = ManagerId::update("kubectl-client-side-apply", "apps/v1");
        assert_eq!(
            u.key(),
            r#"{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"apps/v1"}"#
        );
        assert_eq!(ManagerId::from_key(&u.key()), Some(u.clone()));
        assert_eq!(u.to_string(), "\"kubectl-client-side-apply\" using apps/v1");
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
