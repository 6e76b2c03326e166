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

use super::fieldsv1;
use super::managed::ManagedFieldsError;
use super::path::PathElement;
use super::set::Set;
use crate::value::Value;

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
        entries = upgrade_one(entries, csa, ssa_manager, subresource)?;
    }
    Ok(entries)
}

fn upgrade_one(
    mut entries: Vec<Value>,
    csa: &str,
    ssa: &str,
    subresource: &str,
) -> Result<Vec<Value>, ManagedFieldsError> {
    let target = match entries
        .iter()
        .position(|e| is(e, ssa, "Apply", subresource))
    {
        Some(i) => i,
        None => {
            let Some(i) = entries
                .iter()
                .position(|e| is(e, csa, "Update", subresource))
            else {
                return Ok(entries);
            };
            if let Some(e) = entries[i].as_object_mut() {
                e.insert("operation", Value::from("Apply"));
                e.insert("manager", Value::from(ssa));
            }
            i
        }
    };
    let version = s(&entries[target], "apiVersion").to_owned();
    let mut set = entry_set(target, &entries[target])?;
    if let Some(i) = entries
        .iter()
        .position(|e| is(e, csa, "Update", subresource) && s(e, "apiVersion") == version)
    {
        set = set.union(&entry_set(i, &entries[i])?);
    }
    if let Some(e) = entries[target].as_object_mut() {
        e.insert("fieldsV1", fieldsv1::to_value(&set));
    }
    entries.retain(|e| !is(e, csa, "Update", subresource));
    Ok(entries)
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
