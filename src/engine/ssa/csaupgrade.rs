//! client-go `util/csaupgrade`: what `kubectl apply --server-side` does to an object made by
//! client-side apply, so that its next apply can prune what the file dropped
//! (kubernetes#99003).
//!
//! [`upgrade_managed_fields`], per client-side manager name: the target is the first
//! `(ssa, Apply)` entry of the subresource; failing that, the first `(csa, Update)` entry is
//! turned into `(ssa, Apply)` in place (keeping apiVersion and time); failing both, nothing
//! happens. The target's set gains the first `(csa, Update)` entry's set **of the target's
//! apiVersion**, then every `(csa, Update)` entry of the subresource is deleted (their sets at
//! other versions are dropped). An empty list becomes absent.

use std::borrow::Cow;

use super::fieldsv1;
use super::managed::{self, Managed, ManagedFieldsError, ManagerId, Operation};
use super::path::PathElement;
use super::set::Set;
use super::update::VersionedSet;
use crate::value::{Map, Value};

fn s<'a>(e: &'a Value, k: &str) -> &'a str {
    e.get(k).and_then(Value::as_str).unwrap_or("")
}

fn is(e: &Value, manager: &str, operation: &str, subresource: &str) -> bool {
    s(e, "manager") == manager
        && s(e, "operation") == operation
        && s(e, "subresource") == subresource
}

/// An entry's field set.
///
/// # Errors
/// When its FieldsV1 does not parse.
pub fn entry_set(index: usize, e: &Value) -> Result<Set, ManagedFieldsError> {
    let fields = match e.get("fieldsV1") {
        None | Some(Value::Null) => Ok(Set::new()),
        Some(Value::String(text)) => fieldsv1::from_json(text),
        Some(v) => fieldsv1::from_value(v),
    };
    fields.map_err(|source| ManagedFieldsError::Fields {
        index,
        manager: s(e, "manager").to_owned(),
        source,
    })
}

/// `UpgradeManagedFields(obj, csaNames, ssaName, subresource)`, on the object's
/// `metadata.managedFields`.
///
/// # Errors
/// When `metadata.managedFields` is not a list or a FieldsV1 it merges does not parse.
pub fn upgrade_managed_fields(
    obj: &mut Value,
    csa_managers: &[&str],
    ssa_manager: &str,
    subresource: &str,
) -> Result<(), ManagedFieldsError> {
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    let entries = match meta.get_mut("managedFields") {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Array(list)) => std::mem::take(list),
        Some(_) => return Err(ManagedFieldsError::NotAList),
    };
    let entries = upgrade_entries(entries, csa_managers, ssa_manager, subresource)?;
    if entries.is_empty() {
        meta.shift_remove("managedFields");
    } else {
        meta.insert("managedFields", Value::Array(entries));
    }
    Ok(())
}

/// [`upgrade_managed_fields`] on the entries themselves (`metadata.managedFields`).
///
/// # Errors
/// When a FieldsV1 it merges does not parse.
pub fn upgrade_entries(
    mut entries: Vec<Value>,
    csa_managers: &[&str],
    ssa_manager: &str,
    subresource: &str,
) -> Result<Vec<Value>, ManagedFieldsError> {
    for csa in csa_managers {
        entries = upgrade_one(entries, csa, ssa_manager, subresource, None)?.0;
    }
    Ok(entries)
}

/// [`upgrade_entries`] on entries already decoded into `managed`: their sets are taken from
/// it (not parsed), and the managers the upgraded entries decode to are returned (the
/// upgraded set is not written into its entry, whose FieldsV1 is left null).
///
/// # Errors
/// As [`upgrade_entries`].
pub fn upgrade_entries_read(
    mut entries: Vec<Value>,
    csa_managers: &[&str],
    ssa_manager: &str,
    subresource: &str,
    mut managed: Managed,
) -> Result<Managed, ManagedFieldsError> {
    for csa in csa_managers {
        let (after, target) = upgrade_one(entries, csa, ssa_manager, subresource, Some(&managed))?;
        entries = after;
        if let Some(target) = target {
            managed = mirror(&entries, managed, target)?;
        }
    }
    Ok(managed)
}

/// Whether the upgrade changes the entries `managed` writes: exactly when a client-side
/// manager has an Update entry of the subresource (it is dropped, or becomes the applier's);
/// without one, the applier's entry would be written again from the same set, as it was.
#[must_use]
pub fn changes(managed: &Managed, csa_managers: &[&str], subresource: &str) -> bool {
    managed
        .fields
        .keys()
        .filter_map(|k| ManagerId::from_key(k))
        .any(|id| is_client_side(&id, csa_managers, subresource))
}

fn is_client_side(id: &ManagerId, csa_managers: &[&str], subresource: &str) -> bool {
    id.operation == Operation::Update
        && id.subresource == subresource
        && csa_managers.contains(&id.manager.as_str())
}

/// [`upgrade_entries_read`] of the entries `managed` writes ([`managed::encode`]): the
/// upgraded managers, which write ([`managed::encode`]) the entries the upgrade of the
/// written ones leaves. No FieldsV1 of an entry the upgrade drops or rewrites (every
/// client-side manager's Update entry of the subresource, and the applier's Apply entry when
/// one of those exists) is written, nor the upgraded one: they are as big as the object.
///
/// # Errors
/// As [`upgrade_entries`].
pub fn upgrade_managers(
    managed: Managed,
    csa_managers: &[&str],
    ssa_manager: &str,
    subresource: &str,
) -> Result<Managed, ManagedFieldsError> {
    let rewritten = changes(&managed, csa_managers, subresource);
    let replaced = |id: &ManagerId| {
        is_client_side(id, csa_managers, subresource)
            || (rewritten
                && id.operation == Operation::Apply
                && id.manager == ssa_manager
                && id.subresource == subresource)
    };
    let entries = match managed::encode_with(&managed, |id| !replaced(id)) {
        Some(Value::Array(entries)) => entries,
        _ => Vec::new(),
    };
    upgrade_entries_read(entries, csa_managers, ssa_manager, subresource, managed)
}

/// `decode` of `entries`, the sets taken from `old` by identity, but for `target`'s (its
/// identity key and new set).
fn mirror(
    entries: &[Value],
    mut old: Managed,
    (target, set): Upgraded,
) -> Result<Managed, ManagedFieldsError> {
    let mut out = Managed::default();
    let mut set = Some(set);
    for (index, e) in entries.iter().enumerate() {
        let id = identity(e);
        let key = id.key();
        let fields = match (key == target).then(|| set.take()).flatten() {
            Some(set) => set,
            None => match old.fields.remove(&key) {
                Some(vs) => vs.set,
                None => entry_set(index, e)?,
            },
        };
        out.times.insert(
            key.clone(),
            e.get("time").and_then(Value::as_str).map(str::to_owned),
        );
        out.fields.insert(
            key,
            VersionedSet {
                set: fields,
                api_version: s(e, "apiVersion").to_owned(),
                applied: id.operation == Operation::Apply,
            },
        );
    }
    Ok(out)
}

/// An entry's identity (`BuildManagerIdentifier`), of an entry known to decode.
fn identity(e: &Value) -> ManagerId {
    let apply = s(e, "operation") == "Apply";
    ManagerId {
        manager: s(e, "manager").to_owned(),
        operation: if apply {
            Operation::Apply
        } else {
            Operation::Update
        },
        api_version: if apply {
            String::new()
        } else {
            s(e, "apiVersion").to_owned()
        },
        subresource: s(e, "subresource").to_owned(),
    }
}

/// Entry `index`'s set: from `decoded` when it holds the entry's manager, else parsed.
fn set_of<'m>(
    index: usize,
    e: &Value,
    decoded: Option<&'m Managed>,
) -> Result<Cow<'m, Set>, ManagedFieldsError> {
    match decoded.and_then(|m| m.fields.get(&identity(e).key())) {
        Some(vs) => Ok(Cow::Borrowed(&vs.set)),
        None => entry_set(index, e).map(Cow::Owned),
    }
}

/// The entry a merge changed: its identity key and its new set.
type Upgraded = (String, Set);

/// One client-side manager merged; with the target's identity key and new set when it
/// changed anything.
fn upgrade_one(
    mut entries: Vec<Value>,
    csa: &str,
    ssa: &str,
    subresource: &str,
    decoded: Option<&Managed>,
) -> Result<(Vec<Value>, Option<Upgraded>), ManagedFieldsError> {
    // A client-side entry turned into the applier's: its set read under its old identity.
    let (target, pre) = match entries
        .iter()
        .position(|e| is(e, ssa, "Apply", subresource))
    {
        Some(i) => (i, None),
        None => {
            let Some(i) = entries
                .iter()
                .position(|e| is(e, csa, "Update", subresource))
            else {
                return Ok((entries, None));
            };
            let pre = decoded
                .and_then(|m| m.fields.get(&identity(&entries[i]).key()))
                .map(|vs| Cow::Borrowed(&vs.set));
            if let Some(e) = entries[i].as_object_mut() {
                e.insert("operation", Value::from("Apply"));
                e.insert("manager", Value::from(ssa));
            }
            (i, pre)
        }
    };
    let version = s(&entries[target], "apiVersion").to_owned();
    let mut set = match pre {
        Some(set) => set,
        None => set_of(target, &entries[target], decoded)?,
    };
    if let Some(i) = entries
        .iter()
        .position(|e| is(e, csa, "Update", subresource) && s(e, "apiVersion") == version)
    {
        set = Cow::Owned(set.union(&*set_of(i, &entries[i], decoded)?));
    }
    let set = set.into_owned();
    if let Some(e) = entries[target].as_object_mut() {
        // The decoded managers take the set as it is: not written.
        let written = match decoded {
            Some(_) => Value::Null,
            None => fieldsv1::to_value(&set),
        };
        e.insert("fieldsV1", written);
    }
    let key = identity(&entries[target]).key();
    entries.retain(|e| !is(e, csa, "Update", subresource));
    Ok((entries, Some((key, set))))
}

/// `FindFieldsOwners`: the entries of this operation whose set holds every path of `fields`
/// (entries whose FieldsV1 does not parse are skipped).
#[must_use]
pub fn find_fields_owners<'a>(
    entries: &'a [Value],
    operation: &str,
    fields: &Set,
) -> Vec<&'a Value> {
    entries
        .iter()
        .enumerate()
        .filter(|(_, e)| s(e, "operation") == operation)
        .filter(|(i, e)| entry_set(*i, e).is_ok_and(|set| fields.difference(&set).is_empty()))
        .map(|(_, e)| e)
        .collect()
}

/// [`find_fields_owners`] on entries known to parse (each written by a request, which read
/// the ones before it): a set of field names only (`f:` keys, spelt one way) is looked up in
/// the FieldsV1 as it is, without reading the whole entry; any other set as there.
#[must_use]
pub fn find_fields_owners_read<'a>(
    entries: &'a [Value],
    operation: &str,
    fields: &Set,
) -> Vec<&'a Value> {
    let paths = fields.paths();
    if !paths
        .iter()
        .flatten()
        .all(|pe| matches!(pe, PathElement::Field(_)))
    {
        return find_fields_owners(entries, operation, fields);
    }
    entries
        .iter()
        .filter(|e| s(e, "operation") == operation)
        .filter(|e| {
            let root = e.get("fieldsV1").unwrap_or(&Value::Null);
            paths.iter().all(|p| fieldsv1::has_field_path(root, p))
        })
        .collect()
}

/// A copy of an object's fields with the value of `key` replaced by null: a stand-in where a
/// large value (FieldsV1, managedFields) is replaced anyway and not worth copying.
pub(super) fn copy_with_null(fields: &Map, key: &str) -> Map {
    fields
        .iter()
        .map(|(k, v)| {
            let v = if k == key { Value::Null } else { v.clone() };
            (k.clone(), v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::managed::decode;

    /// The upgrade on decoded managers leaves the entries the parsing one does, and the
    /// managers those entries decode to.
    #[test]
    fn the_upgrade_on_decoded_managers_is_the_upgrade() {
        let entries: Value = serde_json::from_str(
            r#"[
            {"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"apps/v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{},"f:paused":{}}}},
            {"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"apps/v1beta1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:minReadySeconds":{}}}},
            {"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","time":"2026-01-02T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{}}}},
            {"manager":"other","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:status":{}}}
        ]"#,
        )
        .unwrap();
        let list = entries.as_array().unwrap().clone();
        for ssa in ["kubectl", "helm"] {
            let names = ["kubectl-client-side-apply", "absent"];
            let parsed = upgrade_entries(list.clone(), &names, ssa, "").unwrap();
            let managed = decode(Some(&entries)).unwrap();
            let upgraded = upgrade_entries_read(list.clone(), &names, ssa, "", managed).unwrap();
            assert_eq!(
                upgraded,
                decode(Some(&Value::Array(parsed))).unwrap(),
                "{ssa}"
            );
        }
    }

    /// The upgrade of decoded managers, which does not write the sets it replaces, leaves
    /// what the upgrade of the entries they write leaves, and says "nothing" exactly when
    /// that leaves them as they are: with and without the applier's Apply entry, with entries
    /// of another subresource and other managers, one or two client-side managers (and one
    /// absent), each entry list and its managers as decoding reads them.
    #[test]
    fn the_upgrade_without_copies_is_the_upgrade() {
        let entry = |manager: &str, operation: &str, version: &str, sub: &str, field: &str| {
            let mut e = serde_json::json!({
                "manager": manager, "operation": operation, "apiVersion": version,
                "time": "2026-01-01T00:00:00Z", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:spec": {field: {}}},
            });
            if !sub.is_empty() {
                e["subresource"] = serde_json::json!(sub);
            }
            serde_json::from_value::<Value>(e).unwrap()
        };
        let csa = entry(
            "kubectl-client-side-apply",
            "Update",
            "apps/v1",
            "",
            "f:replicas",
        );
        let old = entry(
            "kubectl-client-side-apply",
            "Update",
            "apps/v1beta1",
            "",
            "f:paused",
        );
        let status = entry(
            "kubectl-client-side-apply",
            "Update",
            "apps/v1",
            "status",
            "f:x",
        );
        let edit = entry("kubectl-edit", "Update", "apps/v1", "", "f:minReadySeconds");
        let applier = entry("kubectl", "Apply", "apps/v1", "", "f:template");
        let other = entry("helm", "Apply", "apps/v1", "", "f:strategy");
        let lists = [
            vec![csa.clone(), old.clone(), applier.clone(), other.clone()],
            vec![other.clone(), csa.clone(), old.clone(), status.clone()],
            vec![edit.clone(), status.clone(), csa.clone(), applier.clone()],
            vec![edit.clone(), csa.clone()],
            vec![applier.clone(), edit.clone(), other.clone()],
            vec![status, applier, csa, edit, old],
        ];
        let mut changed = 0;
        for list in &lists {
            for names in [
                &["kubectl-client-side-apply"][..],
                &["kubectl-edit", "absent", "kubectl-client-side-apply"],
                &["absent"],
            ] {
                let managed = decode(Some(&Value::Array(list.clone()))).unwrap();
                let Some(Value::Array(written)) = managed::encode(&managed) else {
                    panic!("{list:?}")
                };
                let parsed = upgrade_entries(written.clone(), names, "kubectl", "").unwrap();
                let changes = changes(&managed, names, "");
                assert_eq!(changes, parsed != written, "{names:?} {list:?}");
                let upgraded = upgrade_managers(managed, names, "kubectl", "").unwrap();
                let written = managed::encode(&upgraded);
                let want = (!parsed.is_empty()).then(|| Value::Array(parsed.clone()));
                assert_eq!(written, want, "{names:?} {list:?}");
                assert_eq!(
                    upgraded,
                    decode(Some(&Value::Array(parsed.clone()))).unwrap()
                );
                changed += usize::from(changes);
            }
        }
        // Not vacuous: most of them upgrade something.
        assert!(changed >= 10, "{changed}");
    }
}
