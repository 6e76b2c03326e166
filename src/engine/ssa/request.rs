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
use std::sync::Arc;

use super::lastapplied;
use super::managed::{Managed, ManagerId, decode};
use super::par;
use super::path::PathElement;
use super::schema::{Schema, TypeRef};
use super::set::Set;
use super::typed;
use super::update::{Again, Applied, Conflicts, Updater, VersionedSet};
use crate::value::{Map, Value};

mod error;
mod managers;
mod status;
mod stored;

pub use error::{ApiConflict, ApiConflicts, RequestError, go_errors, gvk};
use error::{api_conflicts, update_error};
pub use managers::{ANCIENT_CHANGES, MAX_UPDATE_MANAGERS};
use managers::{cap_update_managers, strip};
use stored::with_managed_fields;
pub use stored::{Answer, Live, with_encoded, without_managed_fields};

/// The manager recorded for what an object held before its first apply.
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";

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
    /// How big its objects are (for the choice of threads alone).
    pub scale: par::Scale,
}

impl<'a> Request<'a> {
    /// A request on an object of a built-in kind, typed by the embedded schema (`None` for a
    /// kind it lacks), at `time`, to the object itself, with no reset fields.
    #[must_use]
    pub fn embedded(api_version: &'a str, kind: &str, time: &'a str) -> Option<Request<'a>> {
        let kube = super::kubernetes::embedded();
        Some(Request {
            schema: &kube.schema,
            root: kube.root_for_gvk(api_version, kind)?,
            api_version,
            types: &embedded_root,
            ignored: None,
            time,
            subresource: "",
            scale: par::Scale::Count,
        })
    }
}

/// The root type of a kind in the embedded schema.
fn embedded_root(api_version: &str, kind: &str) -> Option<TypeRef> {
    super::kubernetes::embedded().root_for_gvk(api_version, kind)
}

fn is_empty_object(v: &Value) -> bool {
    v.is_null() || v.as_object().is_some_and(Map::is_empty)
}

impl Request<'_> {
    /// The live object's last-applied annotation, read for the excusal ([`lastapplied`]);
    /// `strict`: whether the live object validates without duplicate keys.
    fn last_applied(&self, live: &Value, strict: bool) -> Option<lastapplied::LastApplied> {
        lastapplied::last_applied(self.schema, self.api_version, self.types, (live, strict))
    }

    fn updater(&self) -> Updater<'_> {
        Updater {
            schema: self.schema,
            root: self.root,
            ignored: self.ignored,
            return_input_on_noop: false,
            scale: self.scale,
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
        self.apply_again(live, config, manager, force, None, false)
            .map(|(answer, _)| answer)
    }

    /// [`Request::apply_read`], reusing what an apply of the same `config` by the same
    /// `manager` handed on (`again`, [`Again`]: the object read must be the one it left, or
    /// [`Again::unfixed`]), and, with `hand_on`, handing on what the next one can reuse.
    ///
    /// # Errors
    /// As [`Request::apply`].
    pub fn apply_again(
        &self,
        live: Live<'_>,
        config: &Value,
        manager: &str,
        force: bool,
        mut again: Option<Again>,
        hand_on: bool,
    ) -> Result<(Answer, Option<Again>), RequestError> {
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
        // object); the errors come in the order of the steps. The merge's fixed point (the
        // second apply of kubectl's migration) is the object an apply of this configuration
        // left: the apply checked both, and the merge of valid values is valid. Its
        // strictness is not asked: it cannot conflict, so the excusal is never read. Its size
        // is not asked either: nothing is done beside the rest then.
        // An object whose status was put back is no merge's fixed point for a configuration
        // that has one: merging it changes the status again.
        let resets = self.resets_status(config);
        if resets {
            again = again.map(Again::unfixed);
        }
        let fixed = again.as_ref().is_some_and(Again::is_fixed);
        let big = !fixed && self.scale.is_big(config);
        let (checked, read) = par::both(
            big,
            || {
                if fixed {
                    debug_assert!(typed::validate(self.schema, self.root, config, false).is_ok());
                    return Ok(None);
                }
                // The configuration's set comes with its validation, for an apply that does
                // not have it yet.
                if again.is_none() {
                    return typed::validate_owned(self.schema, self.root, config).map(Some);
                }
                typed::validate(self.schema, self.root, config, false).map(|()| None)
            },
            || {
                let (managed, live) = live.split()?;
                if fixed {
                    debug_assert!(
                        typed::validate_live(self.schema, self.root, &live)
                            .0
                            .is_ok(),
                        "the merge of valid values is valid"
                    );
                    return Ok((managed, live, false));
                }
                let (valid, strict) = typed::validate_live(self.schema, self.root, &live);
                valid?;
                Ok::<_, RequestError>((managed, live, strict))
            },
        );
        let owned = checked.map_err(|source| RequestError::Invalid {
            what: "patch",
            gvk: gvk(config),
            source,
        })?;
        if let Some(set) = owned {
            again = Some(Again::of_config(set));
        }
        let (managed, live, strict) = read?;
        // One forced apply: without force, the conflicts it took are the refusal (or, for
        // kubectl, excused by the last-applied annotation, when the forced apply stands). The
        // excusal, asked only on conflicts, is worked out beside the apply when it may be.
        let kubectl = manager == "kubectl";
        // Not for the merge's fixed point, which cannot conflict (kubectl's second apply):
        // `big` is false there.
        let speculate = big && kubectl && !force && lastapplied::has_annotation(&live);
        // The configuration's text in the annotation, as the apply before wrote it.
        let mut written = match &mut again {
            Some(a) if kubectl => a.take_annotation(),
            _ => None,
        };
        let (early, applied) = par::both(
            speculate,
            || speculate.then(|| self.last_applied(&live, strict)),
            || self.apply_untracked(&live, config, manager, managed, again, hand_on),
        );
        let Untracked {
            object,
            managed,
            conflicts,
            again,
            compared,
        } = applied?;
        let (object, compared, again) = if resets {
            self.put_status_back(&live, object, compared, again)
        } else {
            (object, compared, again)
        };
        debug_assert!(
            !fixed || conflicts.0.is_empty(),
            "the merge's fixed point conflicts with nobody"
        );
        if !force && !conflicts.0.is_empty() {
            let conflicts = api_conflicts(conflicts);
            let last = match early {
                Some(last) => last,
                None if kubectl => self.last_applied(&live, strict),
                None => None,
            };
            let paths: Vec<&[PathElement]> =
                conflicts.0.iter().map(|c| c.path.as_slice()).collect();
            let allowed = last
                .as_ref()
                .and_then(|l| l.allowed(self.schema, &live, &paths));
            // The annotation read whole is freed on another core (milliseconds for a big one).
            par::drop_aside(last, big);
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
        let (again, rewrite) = if kubectl {
            // A configuration that carries the annotation itself would merge it back over the
            // rewritten one.
            let again = match again {
                Some(a) if lastapplied::carries_key(config) => Some(a.unfixed()),
                a => a,
            };
            let rewrite =
                lastapplied::rewrite_of(object.as_ref().unwrap_or(&live), config, &mut written);
            (again.map(|a| a.with_annotation(written)), rewrite)
        } else {
            (again, None)
        };
        let rewritten = rewrite.is_some();
        // The object read is copied only when the rewrite changes it; otherwise it is handed
        // on as it is.
        let object = match (object, rewrite) {
            (Some(mut object), Some(rewrite)) => {
                rewrite.apply_to(&mut object);
                Arc::new(object)
            }
            (None, Some(rewrite)) => {
                let mut object = Value::clone(&live);
                rewrite.apply_to(&mut object);
                Arc::new(object)
            }
            (Some(object), None) => Arc::new(object),
            (None, None) => Arc::clone(&live),
        };
        // The rewrite changes the annotation alone.
        let compared = if rewritten {
            lastapplied::compared_after_rewrite(compared, &live, &object)
        } else {
            compared
        };
        debug_assert!(
            typed::compare(self.schema, self.root, &live, &object).is_ok_and(|c| c == compared),
            "the comparison of the object left"
        );
        Ok((
            Answer {
                object,
                managed,
                compared,
            },
            again,
        ))
    }

    /// What an apply of `config` by another manager reuses when the object it reads is known
    /// to be the merge's fixed point ([`Again::fixed_point`]: `config` holds only values the
    /// object has, where merging changes nothing): its set.
    ///
    /// # Errors
    /// A `config` that does not fit the schema.
    pub fn fixed_point(&self, config: &Value) -> Result<Again, RequestError> {
        typed::to_field_set(self.schema, self.root, config)
            .map(Again::fixed_point)
            .map_err(RequestError::Typed)
    }

    /// skipNonApplied, then the tracked apply, forced: with the conflicts the force took.
    fn apply_untracked(
        &self,
        live: &Value,
        config: &Value,
        manager: &str,
        mut managed: Managed,
        again: Option<Again>,
        hand_on: bool,
    ) -> Result<Untracked, RequestError> {
        if managed.fields.is_empty() {
            managed = self.update_tracked(&Value::Null, live, BEFORE_FIRST_APPLY, managed)?;
        }
        let key = ManagerId {
            subresource: self.subresource.to_owned(),
            ..ManagerId::apply(manager)
        }
        .key();
        let Applied {
            object: new,
            managers: mut fields,
            conflicts,
            again,
            compared,
        } = self
            .updater()
            .apply_again(
                live,
                config,
                self.api_version,
                std::mem::take(&mut managed.fields),
                &key,
                again,
                hand_on,
            )
            .map_err(update_error)?;
        strip(&mut fields, &key);
        managed.fields = fields;
        if new.is_some() {
            managed.times.insert(key, Some(self.time.to_owned()));
        }
        cap_update_managers(&mut managed);
        Ok(Untracked {
            object: new,
            managed,
            conflicts,
            again,
            compared,
        })
    }
}

/// What [`Request::apply_untracked`] leaves: the object and its managers, the conflicts the
/// force took, what the next apply may reuse, and the comparison of the live object with the
/// object left.
struct Untracked {
    /// `None`: the object read, unchanged.
    object: Option<Value>,
    managed: Managed,
    conflicts: Conflicts,
    again: Option<Again>,
    compared: typed::Comparison,
}
