//! What a front end shows per node of one document (the lines of a pane): who owns the node
//! (the document's `metadata.managedFields`) and which field of a server-side plan it shows.
//! Each node's field-set path comes from [`NodePaths`] (the one mapping of a plan-tree node to
//! a path), its owners from [`Owners`] (`Set::has`), its field from [`FieldIndex`].

use crate::engine::gofmt::FastMap;
use crate::engine::plan::{FieldId, Tree};
use crate::engine::ssa::explain::{Field, FieldIndex};
use crate::engine::ssa::managed::{self, Managed, ManagerId, Owners};
use crate::engine::ssa::nodepath::NodePaths;
use crate::engine::ssa::path::Path;
use crate::engine::ssa::schema::UNTYPED_DEDUCED;
use crate::engine::ssa::{TypeRef, kubernetes};
use crate::error::Error;
use crate::value::Value;

/// A manager of a field and the time of its last change (as the API server writes it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Owner {
    pub id: ManagerId,
    pub time: Option<String>,
}

/// The facts of the nodes asked for, in the order asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeFacts {
    /// The distinct owner lists; the first is empty.
    pub owner_sets: Vec<Vec<Owner>>,
    /// Each node's owners: an index into `owner_sets`.
    pub owners: Vec<u32>,
    /// Each node's field of the plan (an index into its `fields`).
    pub fields: Vec<Option<u32>>,
    /// For each path of `find`, the first node asked whose path it is.
    pub found: Vec<Option<FieldId>>,
}

/// The type of an object's root in the embedded schema (a kind it lacks: the deduced type the
/// API server merges unknown types with).
fn root_of(doc: &Value) -> Option<TypeRef> {
    let s = |k: &str| doc.get(k).and_then(Value::as_str).unwrap_or("");
    let kube = kubernetes::embedded();
    kube.root_for_gvk(s("apiVersion"), s("kind"))
        .or_else(|| kube.schema.named(UNTYPED_DEDUCED))
}

/// The managers of `doc` (its `metadata.managedFields`, decoded).
///
/// # Errors
/// [`Error::ManagedFields`] (named `name`) when the managedFields cannot be read.
pub fn managers_of(doc: &Value, name: &str) -> Result<Managed, Error> {
    managed::decode(doc.get("metadata").and_then(|m| m.get("managedFields"))).map_err(|source| {
        Error::ManagedFields {
            input: name.to_owned(),
            source,
        }
    })
}

/// The facts of `ids`, nodes of `tree` in `doc`, whose managers are `managed`
/// ([`managers_of`] for a document with its `metadata.managedFields`): owners, the field of
/// `fields` each shows (none without a plan), and the nodes of the paths in `find`.
#[must_use]
pub fn node_facts(
    tree: &Tree,
    doc: &Value,
    managed: &Managed,
    fields: Option<&[Field]>,
    find: &[&Path],
    ids: impl Iterator<Item = FieldId>,
) -> NodeFacts {
    let owners = Owners::new(managed);
    let index = fields.map(FieldIndex::new);
    let mut facts = NodeFacts {
        owner_sets: vec![Vec::new()],
        found: vec![None; find.len()],
        ..NodeFacts::default()
    };
    let Some(root) = root_of(doc) else {
        for _ in ids {
            facts.owners.push(0);
            facts.fields.push(None);
        }
        return facts;
    };
    let kube = kubernetes::embedded();
    let mut paths = NodePaths::new(tree, doc, &kube.schema, root);
    let mut sets: FastMap<Vec<usize>, u32> = FastMap::default();
    let mut list = Vec::new();
    for id in ids {
        let Some(node) = paths.path(id) else {
            facts.owners.push(0);
            facts.fields.push(None);
            continue;
        };
        list.clear();
        list.extend(owners.indices_of(&node.path));
        let set = if list.is_empty() {
            0
        } else if let Some(&i) = sets.get(&list) {
            i
        } else {
            let i = u32::try_from(facts.owner_sets.len()).unwrap_or(u32::MAX);
            facts.owner_sets.push(
                list.iter()
                    .filter_map(|&m| owners.get(m))
                    .map(|(id, time)| Owner {
                        id: id.clone(),
                        time: time.map(str::to_owned),
                    })
                    .collect(),
            );
            sets.insert(list.clone(), i);
            i
        };
        facts.owners.push(set);
        let field = match (fields, &index) {
            (Some(fields), Some(index)) => index
                .find(fields, &node.path)
                .and_then(|i| u32::try_from(i).ok()),
            _ => None,
        };
        facts.fields.push(field);
        if !node.whole {
            for (slot, want) in facts.found.iter_mut().zip(find) {
                if slot.is_none() && node.path == **want {
                    *slot = Some(id);
                }
            }
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::PathElement;

    fn doc(yaml: &str) -> Value {
        crate::document::parse_documents(yaml, "t.yaml")
            .unwrap()
            .remove(0)
            .value
    }

    const LIVE: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  managedFields:
  - manager: kubectl-client-side-apply
    operation: Update
    apiVersion: apps/v1
    time: "2026-11-20T08:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:name":{},"f:image":{},"f:args":{}}}}}}}
  - manager: kube-controller-manager
    operation: Update
    subresource: scale
    apiVersion: apps/v1
    time: "2026-11-21T09:30:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec":{"f:replicas":{}}}
spec:
  replicas: 5
  template:
    spec:
      containers:
      - name: web
        image: nginx
        args: [a, b]
"#;

    #[test]
    fn owners_come_from_the_field_sets_of_each_node() {
        let live = doc(LIVE);
        let docs = crate::session::Docs {
            local: live.clone(),
            live: Some(live.clone()),
            last_applied: None,
        };
        let plan = crate::session::plan::compute(&docs, None, true).unwrap();
        let ids: Vec<FieldId> = plan.tree.ids().collect();
        let web = [
            PathElement::field("spec"),
            PathElement::field("template"),
            PathElement::field("spec"),
            PathElement::field("containers"),
            PathElement::key(vec![("name".into(), Value::from("web"))]),
        ];
        let args: Path = web
            .iter()
            .cloned()
            .chain([PathElement::field("args")])
            .collect();
        let facts = node_facts(
            &plan.tree,
            &live,
            &managers_of(&live, "live.yaml").unwrap(),
            None,
            &[&args],
            ids.iter().copied(),
        );
        let at = |text: &str| {
            ids.iter()
                .position(|id| plan.path(*id).to_string() == text)
                .unwrap_or_else(|| panic!("no {text}"))
        };
        let owners = |text: &str| -> Vec<String> {
            facts.owner_sets[facts.owners[at(text)] as usize]
                .iter()
                .map(|o| format!("{} {}", o.id.manager, o.time.as_deref().unwrap_or("")))
                .collect()
        };
        assert_eq!(
            owners("spec.replicas"),
            ["kube-controller-manager 2026-11-21T09:30:00Z"]
        );
        let image = "spec.template.spec.containers[name=web].image";
        assert_eq!(
            owners(image),
            ["kubectl-client-side-apply 2026-11-20T08:00:00Z"]
        );
        assert!(
            owners("spec").is_empty(),
            "a struct with content is not itself owned"
        );
        // An atomic list's items belong to the owner of the list.
        let item = "spec.template.spec.containers[name=web].args[1]";
        assert_eq!(owners(item), owners(image));
        let args_id = ids[at("spec.template.spec.containers[name=web].args")];
        assert_eq!(facts.found, [Some(args_id)]);
        assert!(facts.fields.iter().all(Option::is_none));
    }
}
