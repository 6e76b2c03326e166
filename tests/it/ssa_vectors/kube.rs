//! `lastapplied-conflicts.json` and `csaupgrade.json`: the Kubernetes layers.

use applyscope::engine::ssa::path::path_string;
use applyscope::engine::ssa::schema::{Schema, TypeRef};
use applyscope::engine::ssa::{
    self,
    managed::ManagerId,
    request::{Request, RequestError},
};
use applyscope::value::Value;

use super::{Outcome, cases, run, set_of};

const NOW: &str = "2026-11-25T00:00:00Z";

fn kube_types(api_version: &str, kind: &str) -> Option<TypeRef> {
    ssa::kubernetes::embedded().root_for_gvk(api_version, kind)
}

pub(super) fn lastapplied(doc: &Value) -> Vec<(String, Outcome)> {
    let kube = ssa::kubernetes::embedded();
    cases(doc, "cases")
        .iter()
        .map(|c| run(c, || lastapplied_case(c, &kube.schema, &kube_types)))
        .collect()
}

/// One case, with a schema and its kinds' root types.
pub(super) fn lastapplied_case(
    c: &Value,
    schema: &Schema,
    types: &(dyn Fn(&str, &str) -> Option<TypeRef> + Sync),
) -> Outcome {
    let version = c["apiVersion"].as_str().unwrap_or("");
    let kind = c["kind"].as_str().unwrap_or("");
    let root = types(version, kind).ok_or(format!("no type for {version} {kind}"))?;
    let req = Request {
        schema,
        root,
        api_version: version,
        types,
        ignored: None,
        time: NOW,
        subresource: "",
        scale: applyscope::engine::ssa::par::Scale::Count,
    };
    let mut original = c["original"].clone();
    let annotation = c["lastAppliedAnnotation"].clone();
    let meta = original
        .as_object_mut()
        .unwrap()
        .entry("metadata")
        .or_insert_with(|| Value::Object(Default::default()));
    meta.as_object_mut()
        .unwrap()
        .entry("annotations")
        .or_insert_with(|| Value::Object(Default::default()))
        .as_object_mut()
        .unwrap()
        .insert(ssa::lastapplied::ANNOTATION, annotation);
    let live = req
        .update(&Value::Null, &original, "test_client_side_apply")
        .map_err(|e| format!("create: {e}"))?;
    let manager = c["fieldManager"].as_str().unwrap_or("");
    let applied = &c["applied"];
    let result = req.apply(&live, applied, manager, false);
    let live = match (&c["expectConflicts"], result) {
        (Value::Null, Ok(live)) => live,
        (Value::Null, Err(e)) => return Err(format!("apply failed: {e}")),
        (want, Err(RequestError::Conflicts(got))) => {
            let mut got_list: Vec<(String, String)> = got
                .0
                .iter()
                .map(|c| (c.manager.manager.clone(), path_string(&c.path)))
                .collect();
            let mut want_list: Vec<(String, String)> = want
                .as_array()
                .into_iter()
                .flatten()
                .map(|w| {
                    (
                        w["manager"].as_str().unwrap_or("").to_owned(),
                        w["pathString"].as_str().unwrap_or("").to_owned(),
                    )
                })
                .collect();
            got_list.sort();
            want_list.sort();
            if got_list != want_list {
                return Err(format!("conflicts {got_list:?}, want {want_list:?}"));
            }
            for g in &got.0 {
                if g.manager != ManagerId::update("test_client_side_apply", version) {
                    return Err(format!("conflict with {}", g.manager));
                }
            }
            req.apply(&live, applied, manager, true)
                .map_err(|e| format!("forced apply failed: {e}"))?
        }
        (want, Ok(_)) => return Err(format!("applied, want conflicts {want}")),
        (_, Err(e)) => return Err(format!("apply failed: {e}")),
    };
    if derivative(applied, &live) {
        Ok(())
    } else {
        Err(format!("live {live} lacks some of {applied}"))
    }
}

/// apimachinery's `semantic.DeepDerivative(a, b)`: every field set in `a` has that value in `b`.
fn derivative(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, _) => true,
        (Value::Object(x), Value::Object(y)) => x
            .iter()
            .all(|(k, v)| y.get(k).is_some_and(|w| derivative(v, w)) || v.is_null()),
        (Value::Object(x), _) => x.is_empty(),
        (Value::Array(x), Value::Array(y)) => {
            x.is_empty() || (x.len() == y.len() && x.iter().zip(y).all(|(v, w)| derivative(v, w)))
        }
        (Value::Array(x), _) => x.is_empty(),
        _ => a == b,
    }
}

pub(super) fn csaupgrade(doc: &Value) -> Vec<(String, Outcome)> {
    let mut out: Vec<(String, Outcome)> = cases(doc, "upgrade")
        .iter()
        .map(|c| {
            run(c, || {
                let names: Vec<&str> = c["csaManagers"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let ssa_name = c["ssaManager"].as_str().unwrap_or("");
                let sub = c["subresource"].as_str().unwrap_or("");
                let mut reversed = names.clone();
                reversed.reverse();
                for order in [names, reversed] {
                    let mut obj = c["original"].clone();
                    ssa::csaupgrade::upgrade_managed_fields(&mut obj, &order, ssa_name, sub)
                        .map_err(|e| e.to_string())?;
                    if obj != c["expected"] {
                        return Err(format!("with {order:?}: got {obj}, want {}", c["expected"]));
                    }
                }
                Ok(())
            })
        })
        .collect();
    out.extend(cases(doc, "findOwners").iter().map(|c| {
        run(c, || {
            let entries = c["managedFields"].as_array().cloned().unwrap_or_default();
            let fields = set_of(&c["fields"])?;
            let owners: Vec<&str> = ssa::csaupgrade::find_fields_owners(
                &entries,
                c["operation"].as_str().unwrap_or(""),
                &fields,
            )
            .into_iter()
            .map(|e| e["manager"].as_str().unwrap_or(""))
            .collect();
            let want: Vec<&str> = c["expectOwners"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if owners == want {
                Ok(())
            } else {
                Err(format!("owners {owners:?}, want {want:?}"))
            }
        })
    }));
    out
}
