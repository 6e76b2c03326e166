//! The fake API server's server-side apply, run by applyscope's own SSA engine (the tests
//! check the requests kubectl's sequence sends and the managedFields they leave):
//! `application/apply-patch+yaml` (an apply by the query's `fieldManager`, `force=true`
//! forcing; a missing object is created; conflicts are a 409 whose Status carries the
//! message and a `FieldManagerConflict` cause per field, as the API server's) and
//! `application/json-patch+json` (RFC 6902; the managedFields it sets are kept as sent). A
//! `metadata.resourceVersion` in an applied configuration is a precondition, as the API
//! server's (the merged object carries it, the registry's update compares it): 409 when it is
//! not the object's.

use applyscope::engine::ssa::kubernetes;
use applyscope::engine::ssa::path::path_string;
use applyscope::engine::ssa::request::{Request, RequestError};
use applyscope::engine::ssa::schema::UNTYPED_DEDUCED;
use serde_json::{Value, json};

use super::{Recorded, lib, status};

/// The time the fake's field manager writes.
pub const TIME: &str = "2026-11-25T12:00:00Z";

/// The content types handled here.
pub fn handles(r: &Recorded) -> bool {
    matches!(
        r.content_type.as_deref(),
        Some("application/apply-patch+yaml" | "application/json-patch+json")
    )
}

fn query<'q>(r: &'q Recorded, key: &str) -> Option<&'q str> {
    r.query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

/// The object after the request, or the error answer.
pub fn answer(current: Option<&Value>, r: &Recorded) -> Result<Value, (u16, Value)> {
    let Ok(body) = serde_json::from_slice::<Value>(&r.body) else {
        return Err(status(400, "BadRequest", "body is not JSON"));
    };
    if r.content_type.as_deref() == Some("application/json-patch+json") {
        let Some(current) = current else {
            return Err(status(404, "NotFound", "not found"));
        };
        let Ok(ops) = serde_json::from_value::<json_patch::Patch>(body) else {
            return Err(status(400, "BadRequest", "not a JSON patch"));
        };
        let mut v = current.clone();
        if let Err(e) = json_patch::patch(&mut v, &ops) {
            return Err(status(422, "Invalid", &e.to_string()));
        }
        return Ok(v);
    }
    let manager = query(r, "fieldManager").unwrap_or("");
    if manager.is_empty() {
        return Err(status(422, "Invalid", "PATCH requires a field manager"));
    }
    let force = query(r, "force") == Some("true");
    let s = |k: &str| body[k].as_str().unwrap_or("").to_owned();
    let (api_version, kind) = (s("apiVersion"), s("kind"));
    let kube = kubernetes::embedded();
    let root = kube
        .root_for_gvk(&api_version, &kind)
        .or_else(|| kube.schema.named(UNTYPED_DEDUCED))
        .unwrap();
    let types = |a: &str, k: &str| kube.root_for_gvk(a, k);
    let ignored = kube.reset_fields(&api_version, &kind);
    let req = Request {
        schema: &kube.schema,
        root,
        api_version: &api_version,
        types: &types,
        ignored: Some(&ignored),
        time: TIME,
        subresource: "",
        scale: applyscope::engine::ssa::par::Scale::Count,
    };
    if let (Some(c), Some(rv)) = (current, body.pointer("/metadata/resourceVersion"))
        && Some(rv) != c.pointer("/metadata/resourceVersion")
    {
        let mut at = r.path.rsplit('/');
        let (name, plural) = (at.next().unwrap_or(""), at.next().unwrap_or(""));
        return Err(status(
            409,
            "Conflict",
            &format!(
                "Operation cannot be fulfilled on {plural} \"{name}\": the object has been modified; please apply your changes to the latest version and try again"
            ),
        ));
    }
    let live = current.map_or(applyscope::value::Value::Null, lib);
    match req.apply(&live, &lib(&body), manager, force) {
        Ok(v) => {
            let mut v = serde_json::to_value(&v).unwrap();
            if let Some(c) = current {
                for k in ["resourceVersion", "uid"] {
                    if let Some(x) = c["metadata"].get(k) {
                        v["metadata"][k] = x.clone();
                    }
                }
            }
            Ok(v)
        }
        Err(RequestError::Conflicts(c)) => {
            let causes: Vec<Value> = c
                .0
                .iter()
                .map(|x| json!({"type": "FieldManagerConflict", "message": format!("conflict with {}", x.manager), "field": path_string(&x.path)}))
                .collect();
            let (_, mut st) = status(409, "Conflict", &RequestError::Conflicts(c).to_string());
            st["details"] = json!({"causes": causes});
            Err((409, st))
        }
        Err(e) => Err(status(422, "Invalid", &e.to_string())),
    }
}

/// One apply (`apply`) or update request by the engine, as the API server would run it, at
/// the tests' fixed time (`None`: a create); for the tests to build live objects with.
pub fn engine(live: Option<&Value>, new: &Value, manager: &str, apply: bool) -> Value {
    let (a, k) = (
        new["apiVersion"].as_str().unwrap(),
        new["kind"].as_str().unwrap(),
    );
    let req = crate::support::embedded_request(a, k, "", "2026-11-20T10:00:00Z");
    let live = live.map_or(applyscope::value::Value::Null, lib);
    let v = if apply {
        req.apply(&live, &lib(new), manager, false).unwrap()
    } else {
        req.update(&live, &lib(new), manager).unwrap()
    };
    serde_json::to_value(&v).unwrap()
}
