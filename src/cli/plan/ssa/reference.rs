//! The outputs as they were built before they were streamed, the whole plan as one `Value`
//! then `serde_json`'s pretty string or `goyaml`: what [`super::write`] and [`super::yaml`]
//! are held to, byte for byte.

use crate::value::{Map, Value};

use super::step_head;
use crate::cluster::ssa::APPLY_PATCH as PATCH_TYPE;
use crate::engine::plan::Warning;
use crate::engine::ssa::kubectl::StepKind;
use crate::engine::ssa::managed::ManagerId;
use crate::error::Error;
use crate::session::ssa::{Field, Sides, SsaOutcome, SsaPlan, operation};

pub(super) fn pretty(v: Value) -> String {
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

fn warnings_value(warnings: &[Warning]) -> Value {
    Value::Array(
        warnings
            .iter()
            .map(|w| {
                let mut m = Map::new();
                m.insert("code", Value::from(w.code.as_str()));
                m.insert("severity", Value::from(w.code.severity().as_str()));
                m.insert("path", w.path.as_deref().map_or(Value::Null, Value::from));
                if let Some(manager) = &w.manager {
                    m.insert("manager", Value::from(manager.as_str()));
                }
                if !w.way_out.is_empty() {
                    let ways = w.way_out.iter().map(|x| Value::from(x.as_str()));
                    m.insert("wayOut", Value::Array(ways.collect()));
                }
                m.insert("message", Value::from(w.message.as_str()));
                Value::Object(m)
            })
            .collect(),
    )
}

/// Many objects' document (`mode` aside): `{"objects": [...]}`.
pub(super) fn many_value(
    items: &[(String, String, Result<SsaOutcome, Error>)],
    manager: &str,
) -> Map {
    let mut out = Vec::new();
    for (key, source, outcome) in items {
        let mut item = Map::new();
        item.insert("object", Value::from(key.as_str()));
        item.insert("source", Value::from(source.as_str()));
        match outcome {
            Ok(SsaOutcome::Planned(plan)) => item.extend(plan_value(plan, manager)),
            Ok(SsaOutcome::Refused(refusal)) => {
                item.insert("refused", Value::from(refusal.message.as_str()));
                item.insert("warnings", warnings_value(&refusal.warnings));
            }
            Ok(SsaOutcome::Conflicts {
                conflicts,
                warnings,
            }) => {
                item.insert("conflicts", Value::from(conflicts.to_string()));
                item.insert("warnings", warnings_value(warnings));
            }
            Err(e) => {
                item.insert("error", Value::from(e.to_string()));
            }
        }
        out.push(Value::Object(item));
    }
    let mut m = Map::new();
    m.insert("objects", Value::Array(out));
    m
}

fn owner_value(id: &ManagerId) -> Value {
    let mut m = Map::new();
    m.insert("manager", Value::from(id.manager.as_str()));
    m.insert("operation", Value::from(operation(id)));
    if !id.api_version.is_empty() {
        m.insert("apiVersion", Value::from(id.api_version.as_str()));
    }
    if !id.subresource.is_empty() {
        m.insert("subresource", Value::from(id.subresource.as_str()));
    }
    Value::Object(m)
}

fn owners_value(ids: &[ManagerId]) -> Value {
    Value::Array(ids.iter().map(owner_value).collect())
}

fn field_value(f: &Field, objects: Sides<'_>) -> Value {
    let mut m = Map::new();
    m.insert("path", Value::from(f.path()));
    m.insert("action", Value::from(f.action.as_str()));
    if let Some(v) = f.before(objects) {
        m.insert("before", v.clone());
    }
    if let Some(v) = f.after(objects) {
        m.insert("after", v.clone());
    }
    m.insert("ownersBefore", owners_value(&f.owners_before));
    m.insert("ownersAfter", owners_value(&f.owners_after));
    m.insert("rule", Value::from(&*f.rule));
    if f.hidden_from_diff {
        m.insert("hiddenFromDiff", Value::from(true));
    }
    Value::Object(m)
}

pub(super) fn plan_value(plan: &SsaPlan, manager: &str) -> Map {
    let mut steps = Vec::new();
    for (step, changes) in plan.steps.iter().zip(&plan.step_changes) {
        let (name, by, patch_type) = step_head(&step.kind, manager);
        let mut m = Map::new();
        m.insert("request", Value::from(name));
        m.insert("manager", Value::from(by));
        m.insert("patchType", Value::from(patch_type));
        if let StepKind::UpgradeManagedFields { from } | StepKind::MigrateManagers { from } =
            &step.kind
        {
            m.insert(
                "from",
                Value::Array(from.iter().map(|s| Value::from(s.as_str())).collect()),
            );
        }
        m.insert("body", step.body().clone());
        let changed = changes
            .iter()
            .map(|(path, action)| {
                let mut c = Map::new();
                c.insert("path", Value::from(path.as_str()));
                c.insert("action", Value::from(action.as_str()));
                Value::Object(c)
            })
            .collect();
        m.insert("changed", Value::Array(changed));
        if let Some(mf) = step.managed_fields() {
            m.insert("managedFields", mf.clone());
        }
        steps.push(Value::Object(m));
    }
    let mut out = Map::new();
    out.insert("patchType", Value::from(PATCH_TYPE));
    out.insert("patch", (*plan.patch).clone());
    out.insert("result", plan.stored_result());
    out.insert("steps", Value::Array(steps));
    out.insert(
        "fields",
        Value::Array(
            plan.fields
                .iter()
                .map(|f| field_value(f, plan.objects()))
                .collect(),
        ),
    );
    out.insert("warnings", warnings_value(&plan.warnings));
    out
}
