//! `result-invalid`: the object after a client-side apply breaks a rule the API server validates
//! (the rules and texts of [`crate::engine::validation`], shared with the server-side checks):
//! two ports of a container with one name, when a port the file renumbers keeps its name and
//! the old entry is not in last-applied to delete it (kubernetes#131147); a Deployment's
//! `Recreate` strategy beside a `rollingUpdate` (kubectl's `$retainKeys` normally clears it).
//! A one-of with two members is the plan's own `union-two-members`.

use super::LintInput;
use crate::engine::gofmt;
use crate::engine::plan::path::{FieldPath, Seg};
use crate::engine::plan::warnings::{Code, Warning};
use crate::engine::validation::{Rule, Step, broken};

/// A place as the plan prints it: list items by their strategic merge key (`containerPort` for
/// ports, `name` otherwise).
fn plan_path(steps: &[Step<'_>]) -> Option<FieldPath> {
    let mut out: Vec<Seg> = Vec::with_capacity(steps.len());
    for step in steps {
        out.push(match step {
            Step::Field(name) => Seg::Key((*name).into()),
            Step::Item { item, .. } => {
                let list = match out.last() {
                    Some(Seg::Key(k)) => k.as_ref(),
                    _ => "",
                };
                let key = if list == "ports" {
                    "containerPort"
                } else {
                    "name"
                };
                let value = gofmt::sprint(item.get(key)?);
                Seg::Merge {
                    key: key.into(),
                    value: value.into(),
                }
            }
        });
    }
    Some(FieldPath(out))
}

pub(super) fn check(input: &LintInput<'_>) -> Vec<Warning> {
    broken(input.result)
        .iter()
        .filter(|b| b.rule != Rule::Union)
        .filter_map(|b| {
            let path = plan_path(&b.at)?.to_string();
            Some(Warning {
                manager: None,
                way_out: Vec::new(),
                field: None,
                code: Code::ResultInvalid,
                path: Some(path.clone()),
                message: format!(
                    "after the apply {path} breaks a rule the API server validates ({}), so it rejects the apply: {}. Live holds a part the file does not set and last-applied does not name, so nothing deletes it: fix the live object first (kubectl edit), or change the file to agree with it",
                    b.rule.text(b.volume),
                    b.api_error(input.result)
                ),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::engine::lint::testing::{plan_of, with_code};
    use crate::engine::plan::Code;
    use crate::value::Value;

    fn v(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    fn deployment(ports: &str) -> Value {
        v(&format!(
            r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"web","namespace":"default"}},"spec":{{"selector":{{"matchLabels":{{"app":"web"}}}},"template":{{"spec":{{"containers":[{{"name":"web","image":"a","ports":{ports}}}]}}}}}}}}"#
        ))
    }

    #[test]
    fn a_renumbered_port_beside_a_live_only_one_of_the_same_name() {
        let live = deployment(r#"[{"name":"http","containerPort":8080}]"#);
        let local = deployment(r#"[{"name":"http","containerPort":9090}]"#);
        let last_applied = deployment("[]");
        let p = plan_of(&local, Some(&live), Some(&last_applied)).unwrap();
        let w = with_code(&p.warnings, Code::ResultInvalid);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert_eq!(
            w[0].path.as_deref(),
            Some("spec.template.spec.containers[name=web].ports[containerPort=8080].name")
        );
        assert!(w[0].message.contains(
            "Deployment.apps \"web\" is invalid: spec.template.spec.containers[0].ports[1].name: Duplicate value: \"http\""
        ));
        // Last-applied names the old port: kubectl deletes it, nothing to say.
        let p = plan_of(&local, Some(&live), Some(&live)).unwrap();
        assert!(with_code(&p.warnings, Code::ResultInvalid).is_empty());
    }
}
