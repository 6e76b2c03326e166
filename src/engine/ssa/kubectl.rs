//! What the whole `kubectl apply --server-side` command does to one object (kubectl
//! `apply.go`), as the requests it sends, each with the object it leaves:
//!
//! 1. [`StepKind::Apply`]: the file, as `application/apply-patch+yaml`, by the field manager
//!    (`kubectl` by default), forced with `--force-conflicts`;
//! 2. [`StepKind::SaveLastApplied`]: only for the manager `kubectl`, when the object carries
//!    the last-applied annotation and no Apply entry owns it: an apply of just that annotation
//!    by `kubectl-last-applied` (so that later applies never prune it);
//! 3. [`StepKind::UpgradeManagedFields`]: the Update entries that own the annotation (the
//!    client-side managers) are merged into the applier's entry (client-go csaupgrade), sent
//!    as a JSON patch of `metadata.managedFields`;
//! 4. [`StepKind::ApplyAgain`]: when step 3 changed something, the same apply again: what
//!    the client-side managers owned is now the applier's previous set, so what the file
//!    dropped is pruned (kubernetes#99003, fixed by kubernetes#112905). Not when the file
//!    carries a `metadata.resourceVersion`: the requests before changed the object, so the
//!    API server's lock refuses it ([`crate::engine::lock`], 409) and kubectl only warns; the
//!    sequence ends with step 3 (`checks::lock::reapply_refused`).

use std::sync::Arc;

use super::csaupgrade;
use super::lastapplied::{self, ANNOTATION};
use super::managed::{Managed, ManagerId, Operation};
use super::order::identical;
use super::par;
use super::request::{Live, Request, RequestError, with_encoded};
use super::set::Set;
use super::update::Again;
use crate::engine::lock;
use crate::value::{Map, Value};

/// The manager kubectl saves the annotation with.
mod step;

pub use step::Step;

/// The manager kubectl saves the annotation with.
pub const LAST_APPLIED_MANAGER: &str = "kubectl-last-applied";

/// Which request a step is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    Apply,
    SaveLastApplied,
    /// The client-side managers whose entries were merged into the applier's.
    UpgradeManagedFields {
        from: Vec<String>,
    },
    ApplyAgain,
    /// Before the apply, not kubectl's: another tool's Update managers merged into the
    /// applier's entry on its switch to server-side apply (`super::migrate`).
    MigrateManagers {
        from: Vec<String>,
    },
}

impl StepKind {
    /// The request's name in plans and logs: `apply`, `save-last-applied`,
    /// `upgrade-managed-fields`, `apply-again`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            StepKind::Apply => "apply",
            StepKind::SaveLastApplied => "save-last-applied",
            StepKind::UpgradeManagedFields { .. } => "upgrade-managed-fields",
            StepKind::ApplyAgain => "apply-again",
            StepKind::MigrateManagers { .. } => "migrate-managers",
        }
    }
}

/// The annotation's path, as a set.
fn annotation_path() -> Set {
    Set::from_paths([lastapplied::annotation_path().as_slice()])
}

/// `metadata.managedFields` as a list (empty when absent).
#[must_use]
pub fn managed_fields(obj: &Value) -> Vec<Value> {
    entries(obj).to_vec()
}

/// [`managed_fields`] in place (no copy).
#[must_use]
pub fn entries(obj: &Value) -> &[Value] {
    obj.get("metadata")
        .and_then(|m| m.get("managedFields"))
        .map_or(&[], |v| v.as_array().map_or(&[], Vec::as_slice))
}

/// What kubectl sends next, decided from the object the previous request left (its answer),
/// as `apply.go` decides it: [`next_step`].
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// The `kubectl-last-applied` apply of this body.
    SaveLastApplied(Value),
    /// The csaupgrade: the client-side managers merged, and the object with the new
    /// `metadata.managedFields` (sent as a JSON patch of them).
    UpgradeManagedFields { from: Vec<String>, upgraded: Value },
    /// The file again, by the same manager.
    ApplyAgain,
}

/// [`Next`] as decided from an object and its entries apart: for the csaupgrade, the
/// client-side managers it merges (each caller upgrades its managers as it holds them: the
/// entries written, or decoded).
enum Decided {
    SaveLastApplied(Value),
    Migrate { from: Vec<String> },
    ApplyAgain,
}

/// After a request of kind `done` answered `object`, the request kubectl makes next, or
/// `None` when it is finished (kubectl `saveLastApplyAnnotationIfNecessary`, then
/// `migrateToSSAIfNecessary`, then the re-apply when a migration happened).
///
/// # Errors
/// `metadata.managedFields` of the answer cannot be read.
pub fn next_step(
    done: &StepKind,
    object: &Value,
    manager: &str,
) -> Result<Option<Next>, RequestError> {
    let before = entries(object);
    let next = match decide(done, object, Managers::Written(before), manager) {
        None => return Ok(None),
        Some(Decided::SaveLastApplied(body)) => Next::SaveLastApplied(body),
        Some(Decided::ApplyAgain) => Next::ApplyAgain,
        Some(Decided::Migrate { from }) => {
            let names: Vec<&str> = from.iter().map(String::as_str).collect();
            let after = csaupgrade::upgrade_entries(before.to_vec(), &names, manager, "")?;
            if after == before {
                return Ok(None);
            }
            let entries = (!after.is_empty()).then_some(Value::Array(after));
            Next::UpgradeManagedFields {
                from,
                upgraded: with_encoded(without_entries(object), entries),
            }
        }
    };
    Ok(Some(next))
}

/// The managers of an answer, as [`decide`] reads them.
enum Managers<'a> {
    /// Its `metadata.managedFields`.
    Written(&'a [Value]),
    /// Decoded (who owns the annotation is a lookup in their sets).
    Decoded(&'a Managed),
}

impl Managers<'_> {
    /// The managers of this operation whose sets hold `fields` (client-go `FindFieldsOwners`),
    /// sorted, each once.
    fn owners(&self, operation: Operation, fields: &Set) -> Vec<String> {
        let mut out: Vec<String> = match self {
            Managers::Written(entries) => {
                csaupgrade::find_fields_owners_read(entries, operation.as_str(), fields)
                    .into_iter()
                    .filter_map(|e| e.get("manager").and_then(Value::as_str).map(str::to_owned))
                    .collect()
            }
            Managers::Decoded(managed) => decoded_owners(managed, operation, fields).collect(),
        };
        out.sort();
        out.dedup();
        out
    }
}

/// [`next_step`] from the answer's object (its annotation and name; with or without its
/// managedFields) and its managers apart.
fn decide(
    done: &StepKind,
    object: &Value,
    managers: Managers<'_>,
    manager: &str,
) -> Option<Decided> {
    let path = annotation_path();
    match done {
        StepKind::Apply => {
            let annotation = object
                .get("metadata")
                .and_then(|m| m.get("annotations"))
                .and_then(|a| a.get(ANNOTATION))
                .and_then(Value::as_str);
            if let Some(annotation) = annotation
                && manager == "kubectl"
                && managers.owners(Operation::Apply, &path).is_empty()
            {
                return Some(Decided::SaveLastApplied(last_applied_body(
                    object, annotation,
                )));
            }
            migration(&managers, &path)
        }
        StepKind::SaveLastApplied => migration(&managers, &path),
        StepKind::UpgradeManagedFields { .. } => Some(Decided::ApplyAgain),
        // Not kubectl's: what follows a migration is planned by `super::migrate`.
        StepKind::ApplyAgain | StepKind::MigrateManagers { .. } => None,
    }
}

/// `migrateToSSAIfNecessary`: the csaupgrade of the Update managers that own the annotation,
/// if any does (whether it changes the entries is the caller's to find out: without one,
/// the csaupgrade would leave the entries as they are, and a large FieldsV1 is not worth
/// writing or copying to find that out).
fn migration(managers: &Managers<'_>, path: &Set) -> Option<Decided> {
    let from = managers.owners(Operation::Update, path);
    (!from.is_empty()).then_some(Decided::Migrate { from })
}

/// A copy of `obj` but for its `metadata.managedFields`, whose place holds a null (they are
/// as big as the object, and replaced).
fn without_entries(obj: &Value) -> Value {
    let Value::Object(top) = obj else {
        return obj.clone();
    };
    Value::Object(
        top.iter()
            .map(|(k, v)| {
                let v = match v {
                    Value::Object(meta) if k == "metadata" => {
                        Value::Object(csaupgrade::copy_with_null(meta, "managedFields"))
                    }
                    v => v.clone(),
                };
                (k.clone(), v)
            })
            .collect(),
    )
}

/// The requests `kubectl apply --server-side` makes for one object and what each leaves, each
/// answer computed by [`Request`] as the API server computes it.
///
/// # Errors
/// The first request that fails (conflicts without `force`, bad managedFields, a config the
/// schema rejects).
pub fn apply_server_side(
    req: &Request<'_>,
    live: &Value,
    file: &Value,
    manager: &str,
    force: bool,
) -> Result<Vec<Step>, RequestError> {
    let file = Arc::new(file.clone());
    apply_server_side_read(req, Live::Stored(live), &file, manager, force).map(|(steps, _)| steps)
}

/// [`apply_server_side`] on a live object the caller has read already ([`Live::Read`]: its
/// managers decoded, the object without them), and with the managers of the object left
/// (what its `metadata.managedFields` say, not read back from them).
///
/// Each request reads the object the one before left as it is (shared, not copied, nor its
/// FieldsV1 read again); the next request is decided from it and its entries.
///
/// # Errors
/// As [`apply_server_side`].
pub fn apply_server_side_read(
    req: &Request<'_>,
    live: Live<'_>,
    file: &Arc<Value>,
    manager: &str,
    force: bool,
) -> Result<(Vec<Step>, Managed), RequestError> {
    // The second apply after a csaupgrade reuses what the first handed on; a csaupgrade may
    // follow only when a client-side (Update) manager owns the annotation, and an apply only
    // takes fields from Update managers. An object without managers gets them from the
    // request first: `before-first-apply`'s Update entry, which owns every field it has.
    let hand_on = match &live {
        Live::Read { object, managed } if managed.fields.is_empty() => {
            lastapplied::carries_key(object)
        }
        Live::Read { managed, .. } => may_upgrade(managed),
        Live::Stored(_) => true,
    };
    let (answer, mut again) = req.apply_again(live, file, manager, force, None, hand_on)?;
    let mut managed = answer.managed.clone();
    let mut steps = vec![Step::answered(StepKind::Apply, Arc::clone(file), answer)];
    let first = Arc::clone(&steps[0].object);
    while let Some(done) = steps.last() {
        let object = Arc::clone(&done.object);
        let Some(next) = decide(&done.kind, &object, Managers::Decoded(&managed), manager) else {
            break;
        };
        let live = |managed| Live::Read {
            object: &object,
            managed,
        };
        let step = match next {
            // `helper.Patch` with no options: never forced.
            // The body is the object's own annotation, name, namespace, apiVersion and kind:
            // the merge gives the object back, which the apply before left valid.
            Decided::SaveLastApplied(body) => {
                let fixed = req.fixed_point(&body)?;
                let (answer, _) = req.apply_again(
                    live(managed),
                    &body,
                    LAST_APPLIED_MANAGER,
                    false,
                    Some(fixed),
                    false,
                )?;
                managed = answer.managed.clone();
                // The object read, when unchanged, is shared: the apply after knows it for
                // the one the first apply left without comparing them.
                Step::answered(StepKind::SaveLastApplied, Arc::new(body), answer)
            }
            // Only the managedFields change: the object stays the last answer's. The
            // csaupgrade runs on the decoded managers alone (its entries are written from them
            // when asked); without a client-side Update entry of the subresource it would
            // leave them as they are, and kubectl is done.
            Decided::Migrate { from } => {
                let names: Vec<&str> = from.iter().map(String::as_str).collect();
                if !csaupgrade::changes(&managed, &names, "") {
                    break;
                }
                // The second apply prunes from a copy of the object the first left, when that
                // is the merge's fixed point: copied beside the csaupgrade (two cores for a
                // big object).
                let ahead =
                    Arc::ptr_eq(&object, &first) && again.as_ref().is_some_and(Again::is_fixed);
                let (copy, upgraded) = par::both(
                    ahead && req.scale.is_big(&object),
                    || ahead.then(|| (*object).clone()),
                    || {
                        csaupgrade::upgrade_managers(
                            std::mem::take(&mut managed),
                            &names,
                            manager,
                            "",
                        )
                    },
                );
                managed = upgraded?;
                if let Some(copy) = copy {
                    again = again.map(|a| a.with_copy(copy));
                }
                Step::upgraded_managers(
                    StepKind::UpgradeManagedFields { from },
                    Arc::clone(&object),
                    managed.clone(),
                )
            }
            // The last request (`decide` ends after it), unless the lock refuses it.
            Decided::ApplyAgain => {
                if lock::check(lock::resource_version(file), None, true) != lock::Lock::Holds {
                    break;
                }
                // The object the first apply left, unless a request between changed it (the
                // `kubectl-last-applied` apply leaves it as it was, shared).
                let again = again.take().map(|a| {
                    if Arc::ptr_eq(&object, &first) || identical(&object, &first) {
                        a
                    } else {
                        a.unfixed()
                    }
                });
                let (answer, _) =
                    req.apply_again(live(managed), file, manager, force, again, false)?;
                managed = answer.managed.clone();
                Step::answered(StepKind::ApplyAgain, Arc::clone(file), answer)
            }
        };
        steps.push(step);
    }
    Ok((steps, managed))
}

/// Whether an Update manager owns the last-applied annotation (what the csaupgrade migrates).
fn may_upgrade(managed: &Managed) -> bool {
    decoded_owners(managed, Operation::Update, &annotation_path())
        .next()
        .is_some()
}

/// The managers of this operation whose sets hold `fields`, as decoded managers say (unsorted,
/// a manager once per entry).
fn decoded_owners<'m>(
    managed: &'m Managed,
    operation: Operation,
    fields: &'m Set,
) -> impl Iterator<Item = String> + 'm {
    managed.fields.iter().filter_map(move |(key, vs)| {
        let id = ManagerId::from_key(key)?;
        (id.operation == operation && fields.difference(&vs.set).is_empty()).then_some(id.manager)
    })
}

/// `{apiVersion, kind, metadata: {name, namespace, annotations: {last-applied}}}`.
#[must_use]
pub fn last_applied_body(object: &Value, annotation: &str) -> Value {
    let mut meta = Map::new();
    for k in ["name", "namespace"] {
        if let Some(v) = object.get("metadata").and_then(|m| m.get(k)) {
            meta.insert(k, v.clone());
        }
    }
    let mut annotations = Map::new();
    annotations.insert(ANNOTATION, Value::from(annotation));
    meta.insert("annotations", Value::Object(annotations));
    let mut body = Map::new();
    for k in ["apiVersion", "kind"] {
        if let Some(v) = object.get(k) {
            body.insert(k, v.clone());
        }
    }
    body.insert("metadata", Value::Object(meta));
    Value::Object(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::managed::decode;

    fn v(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    fn request<'a>(api_version: &'a str, kind: &str, time: &'a str) -> Request<'a> {
        Request::embedded(api_version, kind, time).unwrap()
    }

    fn owned(obj: &Value, manager: &str, operation: &str) -> Option<String> {
        let entries = decode_list(obj);
        entries
            .into_iter()
            .find(|e| e["manager"] == manager && e["operation"] == operation)
            .map(|e| crate::engine::gojson::to_string_in_order(&e["fieldsV1"]).unwrap())
    }

    fn decode_list(obj: &Value) -> Vec<Value> {
        decode(obj["metadata"].get("managedFields")).unwrap();
        managed_fields(obj)
    }

    /// SEMANTICS.md §6's ConfigMap as client-side apply made it: `key` and `legacy` in its
    /// last-applied annotation, every field `kubectl-client-side-apply`'s.
    fn made_by_client_side_apply(req: &Request<'_>) -> Value {
        let annotation = r#"{"apiVersion":"v1","data":{"key":"value","legacy":"unused"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"test","namespace":"default"}}"#;
        let mut created = v(
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"test","namespace":"default","annotations":{}},"data":{"key":"value","legacy":"unused"}}"#,
        );
        created["metadata"]["annotations"]
            .as_object_mut()
            .unwrap()
            .insert(ANNOTATION, Value::from(format!("{annotation}\n")));
        req.update(&Value::Null, &created, "kubectl-client-side-apply")
            .unwrap()
    }

    /// SEMANTICS.md §6, worked example (kubernetes#99003 on a ConfigMap).
    #[test]
    fn migration_from_client_side_apply_prunes_on_the_second_apply() {
        let req = request("v1", "ConfigMap", "2026-11-25T10:00:00Z");
        let live = made_by_client_side_apply(&req);
        assert_eq!(
            owned(&live, "kubectl-client-side-apply", "Update").unwrap(),
            r#"{"f:data":{".":{},"f:key":{},"f:legacy":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}"#
        );
        let file = v(
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"test","namespace":"default"},"data":{"key":"value"}}"#,
        );
        let steps = apply_server_side(&req, &live, &file, "kubectl", false).unwrap();
        let kinds: Vec<&StepKind> = steps.iter().map(|s| &s.kind).collect();
        assert_eq!(
            kinds,
            [
                &StepKind::Apply,
                &StepKind::SaveLastApplied,
                &StepKind::UpgradeManagedFields {
                    from: vec!["kubectl-client-side-apply".to_owned()]
                },
                &StepKind::ApplyAgain
            ]
        );
        let first = &steps[0].stored();
        assert_eq!(first["data"]["legacy"], "unused");
        assert_eq!(
            owned(first, "kubectl", "Apply").unwrap(),
            r#"{"f:data":{"f:key":{}}}"#
        );
        // Saving the annotation leaves the object as it was: the same object, shared.
        assert!(Arc::ptr_eq(&steps[1].object, &steps[0].object));
        assert_eq!(
            owned(&steps[1].stored(), LAST_APPLIED_MANAGER, "Apply").unwrap(),
            r#"{"f:metadata":{"f:annotations":{"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}"#
        );
        let upgraded = &steps[2].stored();
        assert_eq!(owned(upgraded, "kubectl-client-side-apply", "Update"), None);
        assert_eq!(
            owned(upgraded, "kubectl", "Apply").unwrap(),
            r#"{"f:data":{".":{},"f:key":{},"f:legacy":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}"#
        );
        let last = &steps[3].stored();
        assert_eq!(last["data"], v(r#"{"key":"value"}"#));
        assert_eq!(
            owned(last, "kubectl", "Apply").unwrap(),
            r#"{"f:data":{"f:key":{}}}"#
        );
        assert!(last["metadata"]["annotations"].get(ANNOTATION).is_some());
        // The same with every object taken for big (the halves on two cores): the scale
        // decides the threads alone.
        let big = Request {
            scale: par::Scale::Known(true),
            ..req
        };
        let on_two = apply_server_side(&big, &live, &file, "kubectl", false).unwrap();
        let stored = |steps: &[Step]| {
            steps
                .iter()
                .map(|s| (s.kind.clone(), s.stored()))
                .collect::<Vec<_>>()
        };
        assert_eq!(stored(&on_two), stored(&steps));
    }

    /// A file that carries the live object's resourceVersion passes the first apply, but
    /// the re-apply after the csaupgrade would carry it after the object changed: the
    /// registry's lock refuses it (kubectl only warns), so the sequence ends with the
    /// csaupgrade and nothing is pruned; `"0"` is no precondition and is applied again.
    #[test]
    fn a_file_with_a_resource_version_is_not_applied_again() {
        let req = request("v1", "ConfigMap", "2026-11-25T10:00:00Z");
        let mut live = made_by_client_side_apply(&req);
        live["metadata"]["resourceVersion"] = Value::from("7");
        let file = |rv: &str| {
            v(&format!(
                r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"test","namespace":"default","resourceVersion":"{rv}"}},"data":{{"key":"value"}}}}"#
            ))
        };
        let kinds = |steps: &[Step]| steps.iter().map(|s| s.kind.name()).collect::<Vec<_>>();
        let steps = apply_server_side(&req, &live, &file("7"), "kubectl", false).unwrap();
        assert_eq!(
            kinds(&steps),
            ["apply", "save-last-applied", "upgrade-managed-fields"]
        );
        assert_eq!(steps[2].stored()["data"]["legacy"], "unused");
        let steps = apply_server_side(&req, &live, &file("0"), "kubectl", false).unwrap();
        assert_eq!(
            kinds(&steps),
            [
                "apply",
                "save-last-applied",
                "upgrade-managed-fields",
                "apply-again"
            ]
        );
        assert_eq!(steps[3].stored()["data"].get("legacy"), None);
    }

    /// The second apply reuses what the first handed on (the file's set, and the object as
    /// the merge's fixed point): its answer is the one a request of its own gives, whether
    /// the first apply changed the object or not, with and without the annotation saved in
    /// between.
    #[test]
    fn the_second_apply_answers_as_a_request_of_its_own() {
        let req = request("v1", "ConfigMap", "2026-11-25T10:00:00Z");
        let created = |data: &str| {
            let mut obj = v(&format!(
                r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"test","namespace":"default","annotations":{{}}}},"data":{data}}}"#
            ));
            let annotation = format!(
                r#"{{"apiVersion":"v1","data":{data},"kind":"ConfigMap","metadata":{{"annotations":{{}},"name":"test","namespace":"default"}}}}"#
            );
            obj["metadata"]["annotations"]
                .as_object_mut()
                .unwrap()
                .insert(ANNOTATION, Value::from(format!("{annotation}\n")));
            req.update(&Value::Null, &obj, "kubectl-client-side-apply")
                .unwrap()
        };
        for (live, file) in [
            (r#"{"key":"value","legacy":"unused"}"#, r#"{"key":"value"}"#),
            (
                r#"{"key":"old","legacy":"unused"}"#,
                r#"{"key":"new","more":"x"}"#,
            ),
            (r#"{"key":"1"}"#, r#"{"key":"1"}"#),
        ] {
            let live = created(live);
            let file = v(&format!(
                r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"test","namespace":"default"}},"data":{file}}}"#
            ));
            let steps = apply_server_side(&req, &live, &file, "kubectl", false).unwrap();
            let [.., upgraded, again] = steps.as_slice() else {
                panic!("{} steps", steps.len());
            };
            assert_eq!(again.kind, StepKind::ApplyAgain);
            let alone = req
                .apply(&upgraded.stored(), &file, "kubectl", false)
                .unwrap();
            assert!(identical(&again.stored(), &alone), "{file}");
        }
    }

    /// An autoscaler owns `spec.replicas`: the file's value conflicts, as the API server says.
    #[test]
    fn a_controller_owned_field_conflicts() {
        let req = request("apps/v1", "Deployment", "2026-11-25T10:00:00Z");
        let file = v(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx","env":[{"name":"B","value":"1"}]}]}}}}"#,
        );
        let live = req.apply(&Value::Null, &file, "kubectl", false).unwrap();
        let mut scaled = live.clone();
        scaled["spec"]["replicas"] = Value::from(5);
        let live = req
            .update(&live, &scaled, "kube-controller-manager")
            .unwrap();
        let mut edited = live.clone();
        edited["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"] = Value::from("2");
        let live = req.update(&live, &edited, "kubectl-edit").unwrap();
        let mut next = file.clone();
        next["spec"]["replicas"] = Value::from(3);
        next["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"] = Value::from("3");
        let err = req.apply(&live, &next, "kubectl", false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Apply failed with 2 conflicts: conflicts with \"kube-controller-manager\" using apps/v1:\n\
             - .spec.replicas\n\
             conflicts with \"kubectl-edit\" using apps/v1:\n\
             - .spec.template.spec.containers[name=\"web\"].env[name=\"B\"].value"
        );
        let forced = req.apply(&live, &next, "kubectl", true).unwrap();
        assert_eq!(forced["spec"]["replicas"], 3);
        assert_eq!(owned(&forced, "kube-controller-manager", "Update"), None);
    }
}
