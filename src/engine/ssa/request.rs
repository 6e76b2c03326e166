//! One API request on an object (apimachinery `fieldmanager.go` and its wrappers, outermost
//! first): versioncheck → lastAppliedUpdater → lastAppliedManager → skipNonApplied →
//! capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta → SMD ([`Updater`]).
//!
//! | wrapper | effect |
//! | --- | --- |
//! | versioncheck | the config's apiVersion must be the endpoint's; a config with managedFields is refused |
//! | lastApplied* | manager `kubectl`: conflicts excused by the annotation, annotation rewritten ([`super::lastapplied`]) |
//! | skipNonApplied | an apply to an untracked object first records `before-first-apply`; an update of one stays untracked |
//! | capManagers | beyond 10 Update entries, the oldest merge into `ancient-changes` |
//! | managedFieldsUpdater | a change sets the entry's time (the clock is [`Request::time`]); an update that changes nothing records nothing |
//! | stripMeta | nobody owns `apiVersion`, `kind`, `metadata` and its identity fields |
//! | `conflict.go` | the 409 message ([`ApiConflicts`]) |

use std::collections::BTreeMap;
use std::fmt;

use super::lastapplied;
use super::managed::{Managed, ManagedFieldsError, ManagerId, decode};
use super::par;
use super::path::{Path, PathElement, path_string};
use super::schema::{Schema, TypeRef};
use super::set::Set;
use super::typed::{self, TypedError};
use super::update::{Conflict, Conflicts, ManagedFields, UpdateError, Updater, VersionedSet};
use crate::value::{Map, Value};

mod stored;

use stored::with_managed_fields;
pub use stored::{Answer, Live, with_encoded, without_managed_fields};

/// One conflict as the API server reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiConflict {
    pub manager: ManagerId,
    pub path: Path,
}

impl fmt::Display for ApiConflict {
    /// `conflict with "m" using apps/v1: .spec.replicas`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "conflict with {}: {}",
            self.manager,
            path_string(&self.path)
        )
    }
}

/// The conflicts of a refused apply (HTTP 409), in the API server's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiConflicts(pub Vec<ApiConflict>);

impl fmt::Display for ApiConflicts {
    /// `Apply failed with 1 conflict: conflict with "m" using apps/v1: .spec.replicas`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.0.as_slice() {
            return write!(f, "Apply failed with 1 conflict: {one}");
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
    /// The object sent does not fit the schema (a repeated list key, an undeclared field).
    #[error("failed to create typed {what} object ({gvk}): {}", go_errors(&.source.0))]
    Invalid {
        /// `patch` (an applied configuration) or `new` (an update's object).
        what: &'static str,
        /// `default/web; apps/v1, Kind=Deployment`.
        gvk: String,
        source: TypedError,
    },
    /// The request is refused before any merge (HTTP 400).
    #[error("{0}")]
    BadRequest(String),
}

/// `default/web; apps/v1, Kind=Deployment`: the object's namespace and name, and its
/// `GroupVersionKind` as Go prints it (`/v1, Kind=ConfigMap` in the core group), as
/// apimachinery's `objectGVKNN` writes them.
#[must_use]
pub fn gvk(obj: &Value) -> String {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let meta = obj.get("metadata").unwrap_or(&Value::Null);
    let api_version = s(obj, "apiVersion");
    let (group, version) = api_version.split_once('/').unwrap_or(("", &api_version));
    format!(
        "{}/{}; {group}/{version}, Kind={}",
        s(meta, "namespace"),
        s(meta, "name"),
        s(obj, "kind")
    )
}

/// `typed.ValidationErrors.Error()`: one error as it is, several under `errors:`, indented.
#[must_use]
pub fn go_errors(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        all => std::iter::once("errors:".to_owned())
            .chain(all.iter().map(|e| format!("  {e}")))
            .collect::<Vec<_>>()
            .join("\n"),
    }
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
    pub types: &'a (dyn Fn(&str, &str) -> Option<TypeRef> + Sync),
    /// Fields nobody owns, per version (the resource's reset fields).
    pub ignored: Option<&'a BTreeMap<String, Set>>,
    /// Now, as the API server writes it (`2026-11-25T19:00:00Z`).
    pub time: &'a str,
    /// The subresource the request is sent to (`""`, `status`, `scale`); part of the
    /// identity of the entry it writes.
    pub subresource: &'a str,
}

fn is_empty_object(v: &Value) -> bool {
    v.is_null() || v.as_object().is_some_and(Map::is_empty)
}

impl Request<'_> {
    /// The conflicts the live object's last-applied annotation excuses ([`lastapplied`]).
    fn allowed_conflicts(&self, live: &Value) -> Option<lastapplied::Allowed> {
        lastapplied::allowed_conflicts(self.schema, self.root, self.api_version, self.types, live)
    }

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
        typed::validate(self.schema, self.root, &new, true).map_err(|source| {
            RequestError::Invalid {
                what: "new",
                gvk: gvk(&new),
                source,
            }
        })?;
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
        let key = ManagerId {
            subresource: self.subresource.to_owned(),
            ..ManagerId::update(manager, self.api_version)
        }
        .key();
        let current = "current-operation";
        let mut fields = self
            .updater()
            .update_owned(
                live,
                new,
                self.api_version,
                std::mem::take(&mut managed.fields),
                current,
            )
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
        self.apply_read(Live::Stored(live), config, manager, force)
            .map(Answer::into_stored)
    }

    /// [`Request::apply`] on a live object as stored or as a previous request left it; the
    /// answer keeps its managers decoded.
    ///
    /// # Errors
    /// As [`Request::apply`].
    pub fn apply_read(
        &self,
        live: Live<'_>,
        config: &Value,
        manager: &str,
        force: bool,
    ) -> Result<Answer, RequestError> {
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
        // The configuration is checked while the live object is read (two cores for a big
        // object); the errors come in the order of the steps.
        let big = par::is_big(config);
        let (checked, read) = par::both(
            big,
            || typed::validate(self.schema, self.root, config, false),
            || {
                let (managed, live) = live.split()?;
                typed::validate(self.schema, self.root, &live, true)?;
                Ok::<_, RequestError>((managed, live))
            },
        );
        checked.map_err(|source| RequestError::Invalid {
            what: "patch",
            gvk: gvk(config),
            source,
        })?;
        let (managed, live) = read?;
        // One forced apply: without force, the conflicts it took are the refusal (or, for
        // kubectl, excused by the last-applied annotation, when the forced apply stands). The
        // excusal, asked only on conflicts, is worked out beside the apply when it may be.
        let kubectl = manager == "kubectl";
        let speculate = big && kubectl && !force && lastapplied::has_annotation(&live);
        let (early, applied) = par::both(
            speculate,
            || speculate.then(|| self.allowed_conflicts(&live)),
            || self.apply_untracked(&live, config, manager, managed),
        );
        let (object, managed, conflicts) = applied?;
        if !force && !conflicts.0.is_empty() {
            let conflicts = api_conflicts(conflicts);
            let allowed = match early {
                Some(allowed) => allowed,
                None if kubectl => self.allowed_conflicts(&live),
                None => None,
            };
            let Some(allowed) = allowed else {
                return Err(RequestError::Conflicts(conflicts));
            };
            let outside: Vec<ApiConflict> = conflicts
                .0
                .iter()
                .filter(|c| !allowed.has(&c.path))
                .cloned()
                .collect();
            if !outside.is_empty() {
                return Err(RequestError::Conflicts(ApiConflicts(outside)));
            }
        }
        let object = if manager == "kubectl" {
            lastapplied::update_annotation(object, config)
        } else {
            object
        };
        Ok(Answer { object, managed })
    }

    /// skipNonApplied, then the tracked apply, forced: with the conflicts the force took.
    fn apply_untracked(
        &self,
        live: &Value,
        config: &Value,
        manager: &str,
        mut managed: Managed,
    ) -> Result<(Value, Managed, Conflicts), RequestError> {
        if managed.fields.is_empty() {
            managed = self.update_tracked(&Value::Null, live, BEFORE_FIRST_APPLY, managed)?;
        }
        let key = ManagerId {
            subresource: self.subresource.to_owned(),
            ..ManagerId::apply(manager)
        }
        .key();
        let (new, mut fields, conflicts) = self
            .updater()
            .apply_forced_owned(
                live,
                config,
                self.api_version,
                std::mem::take(&mut managed.fields),
                &key,
            )
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
        Ok((object, managed, conflicts))
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
        UpdateError::Conflicts(c) => RequestError::Conflicts(api_conflicts(c)),
    }
}

fn api_conflicts(Conflicts(list): Conflicts) -> ApiConflicts {
    ApiConflicts(
        list.into_iter()
            .map(|Conflict { manager, path }| ApiConflict {
                manager: ManagerId::from_key(&manager)
                    .unwrap_or_else(|| ManagerId::apply(&manager)),
                path,
            })
            .collect(),
    )
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
