//! The inputs as kubectl prepares and checks them before patching: the local object's
//! namespace, string maps, that local and live are the same object, and the live annotation's
//! JSON.

use super::{InputDoc, LAST_APPLIED, PlanContext, PlanError, identity, input_error};
use crate::engine::schema::Schema;
use crate::engine::smp;
use crate::value::Value;

/// The local object as kubectl sends it: the namespace filled in for namespaced kinds.
pub(super) fn prepare_local(
    local: Value,
    input: &PlanContext<'_>,
    schema: &Schema,
) -> Result<Value, PlanError> {
    let (api_version, kind, _, name) = identity(&local);
    if api_version.is_empty() || kind.is_empty() {
        return Err(input_error(
            InputDoc::Local,
            "the object has no apiVersion or kind",
        ));
    }
    if name.is_empty() {
        return Err(input_error(
            InputDoc::Local,
            "the object has no metadata.name",
        ));
    }
    check_string_maps(&local)?;
    kubectl_namespace(local, input.live.as_deref(), input.namespace, schema)
}

/// The namespace cli-runtime's builder gives the file's object before kubectl sends it (in a
/// client-side or a server-side apply): a namespaced object without one gets `-n`, else the
/// live object's, else `default`; a cluster-scoped object loses the file's (`FilterNamespace`).
/// A kind the schema does not know (a custom resource) is namespaced unless the live object
/// says otherwise.
///
/// # Errors
/// A namespace in the file that differs from `-n`, with kubectl's message.
pub fn kubectl_namespace(
    mut local: Value,
    live: Option<&Value>,
    flag: Option<&str>,
    schema: &Schema,
) -> Result<Value, PlanError> {
    let (api_version, kind, namespace, _) = identity(&local);
    let namespaced = match schema.is_namespaced(api_version, kind) {
        Some(n) => n,
        None => live.is_none_or(|live| !identity(live).2.is_empty()),
    };
    if !namespaced {
        // cli-runtime's `FilterNamespace`: a cluster-scoped object loses the file's namespace
        // (kube-prometheus writes one on its ClusterRoles), in what is sent and in last-applied.
        if let Some(metadata) = local.get_mut("metadata").and_then(Value::as_object_mut) {
            metadata.shift_remove("namespace");
        }
        return Ok(local);
    }
    if let Some(flag) = flag
        && !namespace.is_empty()
        && namespace != flag
    {
        return Err(input_error(
            InputDoc::Local,
            format!(
                "the namespace from the provided object {namespace:?} does not match the namespace {flag:?}. \
             You must pass '--namespace={namespace}' to perform this operation."
            ),
        ));
    }
    if namespace.is_empty() {
        let live_namespace = live.map(|l| identity(l).2).filter(|n| !n.is_empty());
        let ns = flag.or(live_namespace).unwrap_or("default").to_owned();
        if let Some(metadata) = local.get_mut("metadata").and_then(Value::as_object_mut) {
            metadata.insert("namespace", Value::String(ns.into()));
        }
    }
    Ok(local)
}

/// kubectl reads labels and annotations as string maps: anything else fails to load.
pub(super) fn check_string_maps(obj: &Value) -> Result<(), PlanError> {
    for field in ["labels", "annotations"] {
        let Some(map) = obj.get("metadata").and_then(|m| m.get(field)) else {
            continue;
        };
        let Value::Object(map) = map else {
            if map.is_null() {
                continue;
            }
            return Err(input_error(
                InputDoc::Local,
                format!("metadata.{field}: expected a map of strings"),
            ));
        };
        for (k, v) in map {
            if !(v.is_string() || v.is_null()) {
                return Err(input_error(
                    InputDoc::Local,
                    format!(
                        "metadata.{field}.{k}: values must be strings (quote it), found {}; kubectl cannot read this file",
                        match v {
                            Value::Null => "null",
                            Value::Bool(_) => "a boolean",
                            Value::Number(_) => "a number",
                            Value::Array(_) => "a list",
                            _ => "a map",
                        }
                    ),
                ));
            }
        }
    }
    Ok(())
}

pub(super) fn check_same_object(local: &Value, live: &Value) -> Result<(), PlanError> {
    let (la, lk, ln, lname) = identity(local);
    let (va, vk, vn, vname) = identity(live);
    let group = |api| crate::engine::object::GroupVersion::parse(api).group;
    if lk != vk || group(la) != group(va) || lname != vname || (!vn.is_empty() && ln != vn) {
        let show = |kind: &str, ns: &str, name: &str, api: &str| {
            let kind = if kind.is_empty() { "(no kind)" } else { kind };
            let name = if name.is_empty() { "(no name)" } else { name };
            if ns.is_empty() {
                format!("{kind} {name} ({api})")
            } else {
                format!("{kind} {ns}/{name} ({api})")
            }
        };
        return Err(input_error(
            InputDoc::Live,
            format!(
                "not the same object as the local file: live is {}, local is {}",
                show(vk, vn, vname, va),
                show(lk, ln, lname, la)
            ),
        ));
    }
    Ok(())
}

pub(super) fn has_annotation_key(obj: &Value) -> bool {
    obj.get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(LAST_APPLIED))
        .is_some()
}

/// The live annotation's JSON (kubectl: `null` means none).
pub(super) fn parse_annotation(text: &str) -> Result<Value, PlanError> {
    let v = smp::parse_json(text).map_err(|_| {
        let why = match serde_json::from_str::<Value>(text) {
            Err(e) => format!("not JSON (line {}, column {}: {e})", e.line(), e.column()),
            Ok(_) => "JSON but not an object".to_owned(),
        };
        input_error(
            InputDoc::Live,
            format!(
                "metadata.annotations[\"{LAST_APPLIED}\"]: the last-applied annotation is {why}"
            ),
        )
    })?;
    Ok(v)
}
