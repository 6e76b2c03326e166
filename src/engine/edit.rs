//! Edits of the last-applied configuration: drop a field (hand it over to a controller), adopt
//! the live value (take it over), or replace the whole document.
//!
//! The documented recipe for giving `spec.replicas` to an autoscaler is "remove it from
//! last-applied, then from the file": after [`drop`], the next apply no longer clears the field
//! when it leaves the file.

use crate::value::{Map, Value};

use super::gofmt;
use super::plan::{FieldPath, Seg};

/// Why an edit cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The path is not in the document.
    #[error("{path}: not in {doc}")]
    Missing { path: String, doc: &'static str },
    /// The path goes through something that is not a map or list.
    #[error("{path}: {why}")]
    Shape { path: String, why: String },
}

/// `doc` without the field at `path` (a map key, or a list element by merge key, value or
/// index). Maps left empty stay (as kubectl's own annotation keeps `annotations: {}`).
///
/// # Errors
/// [`EditError::Missing`] when the path is not in `doc`.
pub fn drop(doc: &Value, path: &FieldPath) -> Result<Value, EditError> {
    let mut out = doc.clone();
    let (parent_path, last) = split(path)?;
    let parent =
        walk_mut(&mut out, parent_path, Create::No).map_err(|_| missing(path, "last-applied"))?;
    let removed = match (last, parent) {
        (Seg::Key(k), Value::Object(m)) => m.shift_remove(k).is_some(),
        (seg, Value::Array(items)) => match position(items, seg) {
            Some(i) => {
                items.remove(i);
                true
            }
            None => false,
        },
        _ => false,
    };
    if removed {
        Ok(out)
    } else {
        Err(missing(path, "last-applied"))
    }
}

/// `last_applied` with the field at `path` set to its value in `live` (parents created as maps;
/// a list element by merge key is created holding its key).
///
/// # Errors
/// [`EditError::Missing`] when the path is not in `live`; [`EditError::Shape`] when
/// last-applied holds something else than a map or list on the way.
pub fn adopt(last_applied: &Value, live: &Value, path: &FieldPath) -> Result<Value, EditError> {
    let value = path
        .lookup(live)
        .ok_or_else(|| missing(path, "the live object"))?
        .clone();
    set_from(last_applied, path, value, Some(live))
}

/// `doc` with `value` at `path`.
///
/// # Errors
/// [`EditError::Shape`] when something else than a map or list is in the way.
pub fn set(doc: &Value, path: &FieldPath, value: Value) -> Result<Value, EditError> {
    set_from(doc, path, value, None)
}

fn set_from(
    doc: &Value,
    path: &FieldPath,
    value: Value,
    live: Option<&Value>,
) -> Result<Value, EditError> {
    let mut out = if doc.is_object() {
        doc.clone()
    } else {
        Value::Object(Map::new())
    };
    let (parent_path, last) = split(path)?;
    let parent =
        walk_mut(&mut out, parent_path, Create::From(live)).map_err(|why| EditError::Shape {
            path: path.to_string(),
            why,
        })?;
    match (last, parent) {
        (Seg::Key(k), Value::Object(m)) => {
            m.insert(k.to_string(), value);
        }
        (seg, Value::Array(items)) => match position(items, seg) {
            Some(i) => items[i] = value,
            None => items.push(value),
        },
        _ => {
            return Err(EditError::Shape {
                path: path.to_string(),
                why: "the parent is not a map or a list".into(),
            });
        }
    }
    Ok(out)
}

fn missing(path: &FieldPath, doc: &'static str) -> EditError {
    EditError::Missing {
        path: path.to_string(),
        doc,
    }
}

fn split(path: &FieldPath) -> Result<(&[Seg], &Seg), EditError> {
    match path.0.split_last() {
        Some((last, parent)) => Ok((parent, last)),
        None => Err(EditError::Shape {
            path: String::new(),
            why: "empty path".into(),
        }),
    }
}

/// Where a list element is.
fn position(items: &[Value], seg: &Seg) -> Option<usize> {
    match seg {
        Seg::Merge { key, value } => items
            .iter()
            .position(|i| i.get(&**key).is_some_and(|v| gofmt::sprint(v) == **value)),
        Seg::Item(value) => items.iter().position(|i| gofmt::sprint(i) == **value),
        Seg::Index(n) => (*n < items.len()).then_some(*n),
        Seg::Key(_) => None,
    }
}

/// How [`walk_mut`] treats missing parents.
#[derive(Clone, Copy)]
enum Create<'a> {
    No,
    /// Create maps and lists; a merge-keyed element gets its key value from this document
    /// (the live object) when it has one.
    From(Option<&'a Value>),
}

/// The value at `path`, creating maps, lists and merge-keyed list elements on the way when asked.
fn walk_mut<'v>(
    doc: &'v mut Value,
    path: &[Seg],
    create: Create<'_>,
) -> Result<&'v mut Value, String> {
    let mut at = doc;
    for (i, seg) in path.iter().enumerate() {
        let next_is_list = path.get(i + 1).is_some_and(|s| !matches!(s, Seg::Key(_)));
        at = match seg {
            Seg::Key(k) => {
                let Value::Object(m) = at else {
                    return Err(format!("{k}: parent is not a map"));
                };
                match create {
                    Create::From(_) => m.entry(k.to_string()).or_insert_with(|| {
                        if next_is_list {
                            Value::Array(Vec::new())
                        } else {
                            Value::Object(Map::new())
                        }
                    }),
                    Create::No => m.get_mut(k).ok_or_else(|| format!("{k}: missing"))?,
                }
            }
            list_seg => {
                let Value::Array(items) = at else {
                    return Err("parent is not a list".into());
                };
                let index = match (position(items, list_seg), create, list_seg) {
                    (Some(index), _, _) => index,
                    (None, Create::From(live), Seg::Merge { key, value }) => {
                        let from_live = live
                            .and_then(|l| FieldPath(path[..=i].to_vec()).lookup(l))
                            .and_then(|el| el.get(&**key))
                            .cloned();
                        let mut m = Map::new();
                        m.insert(
                            key.to_string(),
                            from_live.unwrap_or_else(|| Value::String(value.as_ref().into())),
                        );
                        items.push(Value::Object(m));
                        items.len() - 1
                    }
                    _ => return Err("list element missing".into()),
                };
                &mut items[index]
            }
        };
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn p(s: &str) -> FieldPath {
        s.parse().unwrap()
    }

    #[test]
    fn drop_hands_replicas_over() {
        let la = json!({"spec": {"replicas": 3, "selector": {}}});
        assert_eq!(
            drop(&la, &p("spec.replicas")).unwrap(),
            json!({"spec": {"selector": {}}})
        );
        assert!(matches!(
            drop(&la, &p("spec.paused")),
            Err(EditError::Missing { .. })
        ));
    }

    #[test]
    fn drop_removes_list_elements_by_key_and_value() {
        let la = json!({"c": [{"name": "a"}, {"name": "b"}], "f": ["x", "y"]});
        assert_eq!(
            drop(&la, &p("c[name=a]")).unwrap()["c"],
            json!([{"name": "b"}])
        );
        assert_eq!(drop(&la, &p("f[=y]")).unwrap()["f"], json!(["x"]));
    }

    #[test]
    fn adopt_takes_the_live_value_creating_parents() {
        let la = json!({"spec": {}});
        let live = json!({"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x:2"}]}}}});
        let got = adopt(
            &la,
            &live,
            &p("spec.template.spec.containers[name=a].image"),
        )
        .unwrap();
        assert_eq!(
            got,
            json!({"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x:2"}]}}}})
        );
        assert!(matches!(
            adopt(&la, &live, &p("spec.replicas")),
            Err(EditError::Missing { .. })
        ));
    }
}
