//! The wrappers that edit the managers around SMD's answer: stripMeta ([`strip`]) and
//! capManagers ([`cap_update_managers`]).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use crate::engine::ssa::managed::{Managed, ManagerId};
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::set::Set;
use crate::engine::ssa::update::{ManagedFields, VersionedSet};

/// The bucket old Update entries are merged into beyond [`MAX_UPDATE_MANAGERS`].
pub const ANCIENT_CHANGES: &str = "ancient-changes";
/// At most this many Update entries are kept.
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// The fields nobody owns or conflicts on (`stripmeta.go`), built once.
fn strip_set() -> &'static Set {
    static STRIP: LazyLock<Set> = LazyLock::new(build_strip_set);
    &STRIP
}

fn build_strip_set() -> Set {
    let mut s = Set::new();
    for top in ["apiVersion", "kind", "metadata"] {
        s.insert(&[PathElement::field(top)]);
    }
    for f in [
        "name",
        "namespace",
        "creationTimestamp",
        "selfLink",
        "uid",
        "clusterName",
        "generation",
        "managedFields",
        "resourceVersion",
    ] {
        s.insert(&[PathElement::field("metadata"), PathElement::field(f)]);
    }
    s
}

/// stripMeta: the acting manager never owns the object's identity fields.
pub(super) fn strip(fields: &mut ManagedFields, key: &str) {
    if let Some(vs) = fields.get_mut(key) {
        vs.set = vs.set.difference(strip_set());
        if vs.set.is_empty() {
            fields.remove(key);
        }
    }
}

/// capManagers: beyond [`MAX_UPDATE_MANAGERS`] Update entries, the oldest are merged, per
/// apiVersion, into [`ANCIENT_CHANGES`].
pub(super) fn cap_update_managers(managed: &mut Managed) {
    let mut updaters: Vec<String> = managed
        .fields
        .iter()
        .filter(|(_, vs)| !vs.applied)
        .map(|(k, _)| k.clone())
        .collect();
    if updaters.len() <= MAX_UPDATE_MANAGERS {
        return;
    }
    let time = |k: &String| managed.times.get(k).cloned().flatten().unwrap_or_default();
    updaters.sort_by(|a, b| time(a).cmp(&time(b)).then_with(|| a.cmp(b)));
    let mut first_of_version: BTreeMap<String, String> = BTreeMap::new();
    let mut length = updaters.len();
    for manager in updaters {
        if length <= MAX_UPDATE_MANAGERS {
            break;
        }
        let Some(vs) = managed.fields.get(&manager).cloned() else {
            continue;
        };
        let when = managed.times.get(&manager).cloned().flatten();
        let version = vs.api_version.clone();
        let bucket = ManagerId::update(ANCIENT_CHANGES, &version).key();
        if let Some(first) = first_of_version.get(&version) {
            if !managed.fields.contains_key(&bucket)
                && let Some(s) = managed.fields.remove(first)
            {
                managed.fields.insert(bucket.clone(), s);
            }
            let merged = managed
                .fields
                .get(&bucket)
                .map_or_else(|| vs.set.clone(), |b| vs.set.union(&b.set));
            managed
                .fields
                .insert(bucket.clone(), VersionedSet { set: merged, ..vs });
            managed.fields.remove(&manager);
            length -= 1;
            managed.times.insert(bucket, when);
        } else {
            first_of_version.insert(version, manager);
        }
    }
}
