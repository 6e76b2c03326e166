//! `fieldsv1-encoding.json`: FieldsV1 golden strings and path elements.

use applyscope::engine::ssa::path::PathElementError;
use applyscope::engine::ssa::{self, PathElement, fieldsv1};
use applyscope::value::Value;

use super::{Outcome, cases, run};

pub(super) fn encoding(doc: &Value) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for c in cases(doc, "setGolden") {
        out.push(run(c, || {
            let text = c["json"].as_str().unwrap_or("");
            let set = fieldsv1::from_json(text).map_err(|e| e.to_string())?;
            let back = fieldsv1::to_json(&set);
            if back == text {
                Ok(())
            } else {
                Err(format!("wrote {back}"))
            }
        }));
    }
    for c in cases(doc, "nonNormalized") {
        out.push(run(c, || {
            let set = fieldsv1::from_json(c["input"].as_str().unwrap_or(""))
                .map_err(|e| e.to_string())?;
            let back = fieldsv1::to_json(&set);
            let want = c["normalized"].as_str().unwrap_or("");
            if back == want {
                Ok(())
            } else {
                Err(format!("wrote {back}"))
            }
        }));
    }
    for c in cases(doc, "pathElementRoundTrip") {
        out.push(run(c, || {
            let s = c["string"].as_str().unwrap_or("");
            let pe = PathElement::from_fields_key(s).map_err(|e| e.to_string())?;
            let want = match c["kind"].as_str() {
                Some("f") => PathElement::field(c["value"].as_str().unwrap_or("")),
                Some("v") => PathElement::Value(c["value"].clone()),
                Some("i") => PathElement::Index(c["value"].as_i64().unwrap_or(-1)),
                Some("k") => PathElement::key(
                    c["value"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|kv| (kv[0].as_str().unwrap_or("").into(), kv[1].clone()))
                        .collect(),
                ),
                k => return Err(format!("unknown kind {k:?}")),
            };
            if pe != want
                || !ssa::order::equals(&Value::from(pe.to_string()), &Value::from(want.to_string()))
            {
                return Err(format!("read {pe:?}, want {want:?}"));
            }
            let back = pe.to_fields_key();
            if back == s {
                Ok(())
            } else {
                Err(format!("wrote {back}"))
            }
        }));
    }
    for c in cases(doc, "pathElementErrors") {
        out.push(run(c, || {
            match PathElement::from_fields_key(c["string"].as_str().unwrap_or("")) {
                Err(PathElementError::Invalid(_)) => Ok(()),
                other => Err(format!("accepted: {other:?}")),
            }
        }));
    }
    for c in cases(doc, "pathElementIgnoredKinds") {
        let s = c["string"].as_str().unwrap_or("");
        let outcome = match PathElement::from_fields_key(s) {
            Err(PathElementError::Unknown) => {
                let text = format!("{{\"f:a\":{{}},{}:{{}}}}", Value::from(s));
                match fieldsv1::from_json(&text).map(|set| fieldsv1::to_json(&set)) {
                    Ok(back) if back == "{\"f:a\":{}}" => Ok(()),
                    other => Err(format!("set read as {other:?}")),
                }
            }
            other => Err(format!("read as {other:?}")),
        };
        out.push((format!("pathElementIgnoredKinds/{s}"), outcome));
    }
    out
}
