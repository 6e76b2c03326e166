//! The merged object the API server's validation refuses (HTTP 422) because a field another
//! manager owns is kept beside what the file sets: server-side apply prunes only what the
//! applier owned, so a member of a one-of, a `rollingUpdate` or a renamed port's old entry
//! stays. The rules and the API server's texts are [`crate::engine::validation`]'s (shared with
//! the client-side plan); here each broken rule gets its SSA path, the manager that keeps the
//! part in the way, and the way out.
//!
//! | rule | code |
//! | --- | --- |
//! | a probe or lifecycle handler with two handlers, a volume with two sources | `union-two-members` (the client-side plan's code) |
//! | a Deployment's `strategy.type: Recreate` with a `rollingUpdate`; two ports of one container with one name (kubernetes#131147) | `ssa-result-invalid` |
//! | the file's `metadata.uid` not the live object's (an export of an object since recreated) | `ssa-result-invalid` |

use crate::engine::plan::{Code, Warning, WayOut};
use crate::engine::ssa::explain;
use crate::engine::ssa::managed::{Managed, ManagerId};
use crate::engine::ssa::path::{PathElement, path_string};
use crate::engine::ssa::set::Set;
use crate::engine::validation::{Broken, Rule, Step, broken};
use crate::value::Value;

use super::{Planned, warning};

/// A place as an SSA path: list items by their schema keys (`ports` by `containerPort` and
/// `protocol`, which defaults to `TCP`; containers and volumes by `name`).
fn ssa_path(steps: &[Step<'_>]) -> Option<Vec<PathElement>> {
    let mut out: Vec<PathElement> = Vec::with_capacity(steps.len());
    for step in steps {
        let pe = match step {
            Step::Field(name) => PathElement::field(*name),
            Step::Item { item, .. } => {
                let list = out.last().and_then(PathElement::as_field).unwrap_or("");
                let keys: &[(&str, Option<&str>)] = if list == "ports" {
                    &[("containerPort", None), ("protocol", Some("TCP"))]
                } else {
                    &[("name", None)]
                };
                let mut key = Vec::new();
                for (name, default) in keys {
                    let v = item
                        .get(*name)
                        .cloned()
                        .or_else(|| default.map(Value::from))?;
                    key.push(((*name).into(), v));
                }
                PathElement::key(key)
            }
        };
        out.push(pe);
    }
    Some(out)
}

/// Who owns the path or anything below it, but the applier.
fn keepers(m: &Managed, path: &[PathElement], me: &ManagerId) -> Vec<ManagerId> {
    let owns = |set: &Set| {
        if set.has(path) {
            return true;
        }
        let mut s = set;
        for pe in path {
            match s.child(pe) {
                Some(c) => s = c,
                None => return false,
            }
        }
        !s.is_empty()
    };
    m.fields
        .iter()
        .filter(|(_, vs)| owns(&vs.set))
        .filter_map(|(k, _)| ManagerId::from_key(k))
        .filter(|id| id != me)
        .collect()
}

/// The warnings for a plan's merged object.
pub(super) fn check(p: &Planned<'_>) -> Vec<Warning> {
    let mut out: Vec<Warning> = broken(p.result)
        .iter()
        .filter_map(|b| one(p, p.after, b))
        .collect();
    if let Some((before, after, error)) = crate::engine::validation::changed_uid(p.live, p.result) {
        let quote = crate::engine::schema::go_quote;
        out.push(warning(
            Code::SsaResultInvalid,
            Some(".metadata.uid".to_owned()),
            None,
            &[WayOut::EditFile],
            format!(
                "the merged object carries the file's metadata.uid {}, not the live object's {}: the file names another object (an export of one since deleted and recreated under the same name), and the API server refuses the apply: {error}. Remove uid from the file",
                quote(after),
                quote(before)
            ),
        ));
    }
    out
}

fn one(p: &Planned<'_>, managed: &Managed, b: &Broken<'_>) -> Option<Warning> {
    let parts: Vec<Vec<PathElement>> = b.parts.iter().filter_map(|s| ssa_path(s)).collect();
    let kept = parts
        .iter()
        .map(|part| (part, keepers(managed, part, p.me)))
        .find(|(_, k)| !k.is_empty());
    let (path, keep) = match kept {
        Some((part, k)) => (path_string(part), k),
        None => (path_string(&ssa_path(&b.at)?), Vec::new()),
    };
    let in_file = parts
        .iter()
        .all(|part| explain::value_at(p.local, part).is_some());
    let (manager, way_out, why) = match keep.first() {
        Some(m) => (
            Some(m.manager.clone()),
            vec![WayOut::HandOver, WayOut::EditFile],
            format!(
                "{path} is kept because {m} owns it, and server-side apply prunes only what the applier owned. Have that manager drop it (or remove it once by hand, e.g. kubectl edit), or change the file to agree with it"
            ),
        ),
        None if in_file => (
            None,
            vec![WayOut::EditFile],
            "The file itself sets all of it. Edit the file".to_owned(),
        ),
        None => (
            None,
            vec![WayOut::EditFile],
            format!(
                "{path} is kept because nobody owns it (a default the API server filled in, or a field set before anyone tracked it), and server-side apply prunes only what the applier owned; a null in the file does not clear it either (the merge keeps the live map). Remove it once by hand with the change (kubectl edit, or a JSON patch), or make this one change with client-side apply"
            ),
        ),
    };
    let code = match b.rule {
        Rule::Union => Code::UnionTwoMembers,
        Rule::DuplicatePortName | Rule::RecreateWithRollingUpdate => Code::SsaResultInvalid,
    };
    Some(warning(
        code,
        Some(path),
        manager.as_deref(),
        &way_out,
        format!(
            "the merged object breaks a rule the API server validates ({}), so it refuses the apply: {}. {why}",
            b.rule.text(b.volume),
            b.api_error(p.result)
        ),
    ))
}
