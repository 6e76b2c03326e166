//! Merge keys that do not identify one item.
//!
//! Strategic merge patch matches list items by their merge key (`env` by `name`, container
//! `ports` by `containerPort`, Service `ports` by `port`). Two items with the same key are one
//! item to kubectl apply:
//! - `duplicate-merge-key`: the same key twice (the same env var twice). The server accepts it
//!   with a warning; kubectl apply may send a patch the server rejects ("doesn't match
//!   $setElementOrder"), and when the file is fixed to keep one copy while last-applied still
//!   holds two, the patch deletes the key, so every copy disappears from live
//!   (kubernetes#58477): the variable is gone until the next apply.
//! - `port-protocol-merged`: two ports with the same number and different protocols (DNS on
//!   53/TCP and 53/UDP). Strategic merge keys ports by number alone, so both are one item:
//!   changing or removing one can change or drop the other (kubernetes#39188). Server-side apply
//!   keys ports by number and protocol.

use crate::value::Value;

use super::{LintInput, show};
use crate::engine::gofmt::{self, ScalarKey};
use crate::engine::plan::path::{FieldPath, Seg};
use crate::engine::plan::warnings::{Code, Warning};
use crate::engine::schema::Meta;

/// A merge-keyed list of a document, with its path and merge key.
struct KeyedList<'v> {
    path: FieldPath,
    key: String,
    items: &'v [Value],
}

/// Every merge-keyed list in `doc` (strategic merge metadata from `meta`).
fn keyed_lists<'v>(doc: &'v Value, meta: Meta<'_>) -> Vec<KeyedList<'v>> {
    let mut out = Vec::new();
    walk(doc, meta, &FieldPath::default(), 0, &mut out);
    out
}

fn walk<'v>(
    v: &'v Value,
    meta: Meta<'_>,
    path: &FieldPath,
    depth: usize,
    out: &mut Vec<KeyedList<'v>>,
) {
    if depth > crate::engine::MAX_DEPTH {
        return;
    }
    let Value::Object(map) = v else { return };
    for (k, child) in map {
        match child {
            Value::Object(_) => {
                if let Ok((sub, _)) = meta.lookup_struct(k) {
                    walk(
                        child,
                        sub,
                        &path.child(Seg::Key(k.as_str().into())),
                        depth + 1,
                        out,
                    );
                }
            }
            Value::Array(items) => {
                let Ok((sub, pm)) = meta.lookup_slice(k) else {
                    continue;
                };
                let here = path.child(Seg::Key(k.as_str().into()));
                let merge_key = pm
                    .merge_key
                    .filter(|_| pm.strategies.merge && !pm.strategies.replace);
                for (i, item) in items.iter().enumerate() {
                    let key_value = merge_key.and_then(|key| Some((key, item.get(key)?)));
                    let seg = match key_value {
                        Some((key, kv)) => Seg::Merge {
                            key: key.into(),
                            value: gofmt::sprint(kv).into(),
                        },
                        None => Seg::Index(i),
                    };
                    walk(item, sub, &here.child(seg), depth + 1, out);
                }
                if let Some(key) = merge_key {
                    out.push(KeyedList {
                        path: here,
                        key: key.to_owned(),
                        items,
                    });
                }
            }
            _ => {}
        }
    }
}

/// Groups of item positions sharing a merge key value (only groups of two or more).
fn duplicates<'v>(list: &KeyedList<'v>) -> Vec<(&'v Value, Vec<usize>)> {
    // Groups in first-seen order; the index finds a key's group without a scan (a list of
    // 6,000 containers would otherwise cost 18 M comparisons).
    let mut groups: Vec<(&'v Value, Vec<usize>)> = Vec::new();
    let mut index: gofmt::FastMap<ScalarKey<'v>, usize> =
        gofmt::FastMap::with_capacity_and_hasher(list.items.len(), Default::default());
    for (i, item) in list.items.iter().enumerate() {
        let Some(kv) = item.get(&list.key) else {
            continue;
        };
        let Some(sk) = ScalarKey::of(kv) else {
            continue;
        };
        match index.get(&sk) {
            Some(&g) => groups[g].1.push(i),
            None => {
                index.insert(sk, groups.len());
                groups.push((kv, vec![i]));
            }
        }
    }
    groups.retain(|(_, at)| at.len() > 1);
    groups
}

fn is_port_key(key: &str) -> bool {
    matches!(key, "containerPort" | "port")
}

fn protocol(item: &Value) -> &str {
    item.get("protocol")
        .and_then(Value::as_str)
        .unwrap_or("TCP")
}

fn positions(at: &[usize]) -> String {
    let items: Vec<String> = at.iter().map(|i| format!("#{}", i + 1)).collect();
    items.join(", ")
}

pub(super) fn check(input: &LintInput<'_>) -> Vec<Warning> {
    let Some(meta) = input.meta else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let file_lists = keyed_lists(input.local, meta);
    for list in &file_lists {
        for (kv, at) in duplicates(list) {
            let path = list.path.to_string();
            let value = show(kv);
            let protocols: Vec<&str> = at.iter().map(|i| protocol(&list.items[*i])).collect();
            let mixed = protocols.iter().any(|p| *p != protocols[0]);
            if is_port_key(&list.key) && mixed {
                out.push(Warning {
                    manager: None,
                    way_out: Vec::new(),
                    field: None,
                    code: Code::PortProtocolMerged,
                    path: Some(path.clone()),
                    message: format!(
                        "{path} has {key} {value} for {} (items {}): kubectl apply merges ports by {key} alone, so these are one item to it; changing or removing one can change or drop the other (kubernetes#39188). Keep each port number once per list where you can, or manage this object with `kubectl apply --server-side`, which keys ports by number and protocol.",
                        protocols.join(" and "),
                        positions(&at),
                        key = list.key,
                    ),
                });
            } else {
                out.push(Warning {
                    manager: None,
                    way_out: Vec::new(),
                    field: None,
                    code: Code::DuplicateMergeKey,
                    path: Some(path.clone()),
                    message: format!(
                        "{path} has {key} {value} {} times (items {}): kubectl apply merges list items by {key}, so they are one item to it. The patch can be rejected, and once last-applied holds the duplicate, removing one copy deletes every {value} item from live (kubernetes#58477). Keep one item per {key}.",
                        at.len(),
                        positions(&at),
                        key = list.key,
                    ),
                });
            }
        }
    }
    // The fix of a duplicate: last-applied has it twice, the file once.
    if let Some(last_applied) = input.last_applied {
        for list in keyed_lists(last_applied, meta) {
            for (kv, at) in duplicates(&list) {
                let in_file = file_lists.iter().find(|l| l.path == list.path);
                let sk = ScalarKey::of(kv);
                let count_in_file = in_file.map_or(0, |l| {
                    l.items
                        .iter()
                        .filter(|i| i.get(&list.key).and_then(ScalarKey::of) == sk)
                        .count()
                });
                if count_in_file != 1 {
                    continue;
                }
                let path = list.path.to_string();
                let value = show(kv);
                let still_live = input
                    .live
                    .and_then(|l| list.path.lookup(l))
                    .and_then(Value::as_array)
                    .is_some_and(|items| {
                        items
                            .iter()
                            .any(|i| i.get(&list.key).and_then(ScalarKey::of) == sk)
                    });
                let gone = !list
                    .path
                    .lookup(input.result)
                    .and_then(Value::as_array)
                    .is_some_and(|items| {
                        items
                            .iter()
                            .any(|i| i.get(&list.key).and_then(ScalarKey::of) == sk)
                    });
                let what = if still_live && gone {
                    format!("this apply deletes every {value} item from live")
                } else {
                    format!("this apply can delete every {value} item from live")
                };
                out.push(Warning {
                    manager: None,
                    way_out: Vec::new(),
                    field: None,
                    code: Code::DuplicateMergeKey,
                    path: Some(path.clone()),
                    message: format!(
                        "{path}: last-applied has {key} {value} {} times and the file once: {what} (kubernetes#58477), and it comes back only with the next apply. Apply the file twice, or first remove the duplicate from the annotation (`kubectl apply edit-last-applied`).",
                        at.len(),
                        key = list.key,
                    ),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;
    use crate::engine::lint::testing::{plan_of, with_code};

    fn deployment(env: Value, ports: Value) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
               "metadata": {"name": "web", "namespace": "default"},
               "spec": {"selector": {"matchLabels": {"app": "web"}},
                        "template": {"metadata": {"labels": {"app": "web"}},
                                     "spec": {"containers": [{"name": "app", "image": "web:1",
                                                              "env": env, "ports": ports}]}}}})
    }

    #[test]
    fn duplicate_env_name_in_the_file() {
        let local = deployment(
            json!([{"name": "MODE", "value": "a"}, {"name": "X", "value": "1"}, {"name": "MODE", "value": "b"}]),
            json!([]),
        );
        let p = plan_of(&local, None, None).unwrap();
        let w = with_code(&p.warnings, Code::DuplicateMergeKey);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert_eq!(
            w[0].path.as_deref(),
            Some("spec.template.spec.containers[name=app].env")
        );
        assert!(
            w[0].message
                .contains("name \"MODE\" 2 times (items #1, #3)"),
            "{}",
            w[0].message
        );
        assert!(w[0].message.contains("kubernetes#58477"));
    }

    #[test]
    fn fixing_a_duplicate_deletes_every_copy() {
        let twice = deployment(
            json!([{"name": "MODE", "value": "a"}, {"name": "MODE", "value": "a"}]),
            json!([]),
        );
        let once = deployment(json!([{"name": "MODE", "value": "a"}]), json!([]));
        let p = plan_of(&once, Some(&twice), Some(&twice)).unwrap();
        let w = with_code(&p.warnings, Code::DuplicateMergeKey);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert!(
            w[0].message
                .contains("last-applied has name \"MODE\" 2 times and the file once"),
            "{}",
            w[0].message
        );
        let env = p.result.pointer("/spec/template/spec/containers/0/env");
        assert!(
            env.is_none_or(|e| !e.to_string().contains("MODE")),
            "{env:?}"
        );
        assert!(
            w[0].message.contains("this apply deletes every"),
            "{}",
            w[0].message
        );
    }

    #[test]
    fn same_port_two_protocols() {
        let local = deployment(
            json!([]),
            json!([{"containerPort": 53, "protocol": "UDP", "name": "dns"},
                   {"containerPort": 53, "name": "dns-tcp"}]),
        );
        let p = plan_of(&local, None, None).unwrap();
        let w = with_code(&p.warnings, Code::PortProtocolMerged);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert!(
            w[0].message.contains("containerPort 53 for UDP and TCP"),
            "{}",
            w[0].message
        );
        assert!(with_code(&p.warnings, Code::DuplicateMergeKey).is_empty());
    }

    #[test]
    fn distinct_keys_and_custom_resources_pass() {
        let local = deployment(
            json!([{"name": "A"}, {"name": "B"}]),
            json!([{"containerPort": 80}, {"containerPort": 443}]),
        );
        assert!(plan_of(&local, None, None).unwrap().warnings.is_empty());
        let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
                            "metadata": {"name": "w"}, "spec": {"env": [{"name": "A"}, {"name": "A"}]}});
        let p = plan_of(&widget, None, None).unwrap();
        assert!(with_code(&p.warnings, Code::DuplicateMergeKey).is_empty());
    }
}
