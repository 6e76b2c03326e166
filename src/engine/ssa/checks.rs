//! Server-side checks: what `kubectl apply --server-side` will do that an operator would not
//! expect, and what the API server would refuse, as coded [`Warning`]s (the codes of the
//! client-side plan and its lints, [`Code`]). Each names the path as the API server prints it
//! (`.spec.replicas`), the manager that keeps the offending field, and the ways out. Pure:
//! values in, warnings out.
//!
//! | code | when | where |
//! | --- | --- | --- |
//! | `csa-upgrade` | the object was made by client-side apply: kubectl moves its manager's fields to the applier and applies again | here |
//! | `ssa-first-apply-prunes` | that first server-side apply prunes fields (kubernetes#99003): listed | here |
//! | `ssa-diff-underreports` | removals only the ownership upgrade and the second apply make: `kubectl diff --server-side` does not show them (kubectl#1796) | here |
//! | `ssa-pruned-redefaulted` | a pruned field the API server defaults in the object's built-in kind (`replicas`, `revisionHistoryLimit`, …) comes back with its default | [`defaults`] |
//! | `ssa-controller-owns-field` | a manager other than the applier (an autoscaler on `/scale`) owns a field the file sets: taken with force, a fight | here |
//! | `ssa-old-apiversion-manager` | a field owned only by a managedFields entry of another apiVersion | here |
//! | `ssa-duplicate-key` | two entries of a keyed list with one key in the file: refused | [`config`] |
//! | `ssa-patch-directive` | `$patch`, `$retainKeys`, `$setElementOrder/…`, `$deleteFromPrimitiveList/…` in the file: refused | [`config`] |
//! | `ssa-result-invalid`, `union-two-members` | the merged object breaks a validation rule because a field another manager owns is kept | [`result`] |
//! | `stale-resource-version` | the file's `metadata.resourceVersion` is not the live object's: refused (409) | [`lock`] |
//! | `ssa-reapply-refused` | the file carries the live object's resourceVersion: the re-apply after the csaupgrade is refused, nothing is pruned | [`lock`] |

pub mod config;
mod defaults;
pub mod lock;
pub mod result;

use crate::engine::plan::{Code, Warning, WayOut};
use crate::engine::ssa::explain::{self, Action, Field};
use crate::engine::ssa::kubectl::{LAST_APPLIED_MANAGER, Step, StepKind};
use crate::engine::ssa::managed::{Managed, ManagerId, Operation, Owners};
use crate::engine::ssa::par;
use crate::engine::ssa::path::{Path, PathElement, path_string};
use crate::engine::ssa::request::BEFORE_FIRST_APPLY;
use crate::value::Value;
use std::collections::BTreeMap;

/// The manager name kubectl's client-side apply writes with.
pub const CLIENT_SIDE_MANAGER: &str = "kubectl-client-side-apply";

/// What the checks after a plan look at.
pub struct Planned<'a> {
    /// The file (the applied configuration).
    pub local: &'a Value,
    /// The live object before (`Null`: a create).
    pub live: &'a Value,
    pub result: &'a Value,
    /// The managers of `live` and of `result` ([`managed_of`](explain::managed_of)), decoded once.
    pub before: &'a Managed,
    pub after: &'a Managed,
    pub steps: &'a [Step],
    /// What each step changed, in the order of `steps`.
    pub step_changes: &'a [Vec<(String, Action)>],
    pub fields: &'a [Field],
    /// The applier (`kubectl`, Apply).
    pub me: &'a ManagerId,
    /// The conflicts `--force-conflicts` took.
    pub forced: &'a [(Path, ManagerId)],
    /// The client-side managers the csaupgrade moved to the applier.
    pub migrated: &'a [String],
    /// The endpoint's version (the file's `apiVersion`).
    pub api_version: &'a str,
    /// The file's `kind`.
    pub kind: &'a str,
}

/// A warning of one of the server-side codes.
pub fn warning(
    code: Code,
    path: Option<String>,
    manager: Option<&str>,
    way_out: &[WayOut],
    message: String,
) -> Warning {
    Warning {
        code,
        path,
        field: None,
        message,
        manager: manager.map(str::to_owned),
        way_out: way_out.to_vec(),
    }
}

/// The fields `kubectl diff --server-side` will not show as removed (their indices in
/// `p.fields`, in order): of `removed` (the indices of the removed fields, with their paths
/// as printed), those removed by the whole command and untouched by its first request (the
/// one the diff sends as a dry run).
fn hidden_from_diff(p: &Planned<'_>, removed: &[(usize, String)]) -> Vec<usize> {
    if !p
        .steps
        .iter()
        .any(|s| matches!(s.kind, StepKind::UpgradeManagedFields { .. }))
    {
        return Vec::new();
    }
    let first = Sorted::of(
        p.step_changes
            .first()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|(q, _)| q.as_str()),
    );
    par::map_halves(removed, MANY, |(i, path)| {
        (!related_to_any(path, &first)).then_some(*i)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The removed fields past which their paths are written and looked at on two cores.
const MANY: usize = 4096;

/// Whether a path of `set` is `a`, or lies above or below it (`.spec` and `.spec.replicas`,
/// `.spec.ports` and `.spec.ports[port=80]`): by lookups, not by a scan of the set.
fn related_to_any(a: &str, set: &Sorted<'_>) -> bool {
    let step = |c: u8| c == b'.' || c == b'[';
    // `a` itself, and every path above it: its prefixes that end before a `.` or a `[`.
    let above = a
        .bytes()
        .enumerate()
        .filter(|&(i, c)| i > 0 && step(c))
        .any(|(i, _)| a.get(..i).is_some_and(|q| set.contains(q)));
    // Below it: the paths that start with `a` and go on with a `.` or a `[`.
    above
        || set.contains(a)
        || set
            .from(a)
            .iter()
            .take_while(|q| q.starts_with(a))
            .any(|q| q.as_bytes().get(a.len()).copied().is_some_and(step))
}

/// Paths as printed, sorted once and looked up by halving (one block of memory, where a
/// `BTreeSet` made a node at a time).
struct Sorted<'a>(Vec<&'a str>);

impl<'a> Sorted<'a> {
    fn of(paths: impl Iterator<Item = &'a str>) -> Sorted<'a> {
        let mut all: Vec<&str> = paths.collect();
        all.sort_unstable();
        all.dedup();
        Sorted(all)
    }

    fn contains(&self, q: &str) -> bool {
        self.0.binary_search(&q).is_ok()
    }

    /// The paths from `a` on.
    fn from(&self, a: &str) -> &[&'a str] {
        &self.0[self.0.partition_point(|q| *q < a)..]
    }
}

/// Every check on a plan, in the order of the table above (the refusals come from
/// [`config::refusal`] before any plan), and the fields `kubectl diff --server-side` will not
/// show as removed (their indices in `p.fields`, in order: the field's `hidden_from_diff`).
#[must_use]
pub fn after_apply(p: &Planned<'_>) -> (Vec<Warning>, Vec<usize>) {
    let mut out = Vec::new();
    // The removed fields, each with its path as printed (written once: several checks name
    // them, and a pruned object can have tens of thousands: half of them on another core).
    let at: Vec<usize> = (0..p.fields.len())
        .filter(|&i| p.fields[i].action == Action::Remove)
        .collect();
    let removed = par::map_halves(&at, MANY, |&i| (i, p.fields[i].path()));
    let path_of = |i: &usize| {
        removed
            .binary_search_by_key(i, |(j, _)| *j)
            .map_or("", |k| removed[k].1.as_str())
    };
    let mut hidden = Vec::new();
    if let Some(from) = p.steps.iter().find_map(|s| match &s.kind {
        StepKind::UpgradeManagedFields { from } => Some(from),
        _ => None,
    }) {
        let managers = from.join(", ");
        out.push(warning(
            Code::CsaUpgrade,
            None,
            Some(&managers),
            &[],
            if p.steps.iter().any(|s| s.kind == StepKind::ApplyAgain) {
                format!(
                    "the object was made by client-side apply: kubectl moves {managers}'s fields to {} (csaupgrade) and applies again, so what the file dropped is pruned (kubernetes#99003); `kubectl diff --server-side` shows only the first apply",
                    p.me.manager
                )
            } else {
                format!(
                    "the object was made by client-side apply: kubectl moves {managers}'s fields to {} (csaupgrade); its apply again is refused (`ssa-reapply-refused`), so nothing the file dropped is pruned this time",
                    p.me.manager
                )
            },
        ));
        if !removed.is_empty() {
            out.push(warning(
                Code::SsaFirstApplyPrunes,
                None,
                Some(&managers),
                &[WayOut::EditFile],
                format!(
                    "this first server-side apply of a client-side object prunes {}: fields {managers} owned, which the ownership upgrade makes {}'s and the file no longer sets. Put them back in the file to keep them",
                    named(removed.iter().map(|(_, path)| path.as_str()), removed.len()),
                    p.me.manager
                ),
            ));
        }
        hidden = hidden_from_diff(p, &removed);
        if !hidden.is_empty() {
            out.push(warning(
                Code::SsaDiffUnderreports,
                None,
                Some(&managers),
                &[],
                format!(
                    "`kubectl diff --server-side` will not show these removals: {}. It sends only the first apply as a dry run; the ownership upgrade and the second apply that prune them never run in a diff (kubectl#1796, kubernetes#125607)",
                    named(hidden.iter().map(path_of), hidden.len())
                ),
            ));
        }
    }
    for (_, path) in &removed {
        if let Some(default) = defaults::server_default(p.api_version, p.kind, path) {
            out.push(warning(
                Code::SsaPrunedRedefaulted,
                Some(path.clone()),
                None,
                &[WayOut::EditFile],
                format!(
                    "{path} is pruned, and the API server defaults the object after the merge: it comes back as {default}, which the result here does not show. Keep the value in the file if {default} is not what you want"
                ),
            ));
        }
    }
    out.extend(controller_owns(p));
    out.extend(old_api_version(p));
    out.extend(result::check(p));
    (out, hidden)
}

/// Managers that are the applier's own past, not another writer: the client-side managers
/// the csaupgrade moves, kubectl's last-applied manager, the record of the first apply.
fn is_own_past(p: &Planned<'_>, id: &ManagerId) -> bool {
    id == p.me
        || p.migrated.contains(&id.manager)
        || [
            CLIENT_SIDE_MANAGER,
            LAST_APPLIED_MANAGER,
            BEFORE_FIRST_APPLY,
        ]
        .contains(&id.manager.as_str())
}

/// `ssa-controller-owns-field`: a field the file sets that another manager owned and
/// `--force-conflicts` takes (it will write it again), or that the applier now shares with a
/// manager writing through a subresource (`/scale`: an autoscaler), whose next write makes the
/// apply conflict.
fn controller_owns(p: &Planned<'_>) -> Vec<Warning> {
    let mut out = Vec::new();
    // The paths taken from another manager, each with the first such manager.
    let mut taken: BTreeMap<&[PathElement], &ManagerId> = BTreeMap::new();
    for (fp, m) in p.forced {
        if !is_own_past(p, m) {
            taken.entry(fp.as_slice()).or_insert(m);
        }
    }
    // The owners after are the managers after: with none writing through a subresource (but
    // the applier's own past), only the taken fields are looked at, not every field.
    let subresource = Owners::new(p.after)
        .sets()
        .any(|(id, _)| !id.subresource.is_empty() && !is_own_past(p, id));
    if taken.is_empty() && !subresource {
        return out;
    }
    for f in p.fields {
        if let Some(m) = taken.get(f.at.as_slice()) {
            let path = f.path();
            out.push(warning(
                Code::SsaControllerOwnsField,
                Some(path.clone()),
                Some(&m.manager),
                &[WayOut::HandOver, WayOut::Force],
                format!(
                    "{path} is owned by {m}, another manager than this applier: without --force-conflicts the apply conflicts; with it the field is taken, that manager writes it again at its next change, and the two fight. Leave the field to it: drop {path} from the file"
                ),
            ));
            continue;
        }
        if !subresource || !f.owners_after.contains(p.me) {
            continue;
        }
        if let Some(m) = f
            .owners_after
            .iter()
            .find(|o| !o.subresource.is_empty() && !is_own_past(p, o))
        {
            let path = f.path();
            out.push(warning(
                Code::SsaControllerOwnsField,
                Some(path.clone()),
                Some(&m.manager),
                &[WayOut::HandOver, WayOut::Force],
                format!(
                    "{path} is also owned by {m}: the values agree now, but the next time that manager changes it, this apply conflicts. Drop {path} from the file and leave it to that manager, or take it with --force-conflicts and expect a fight"
                ),
            ));
        }
    }
    out
}

/// `ssa-old-apiversion-manager`: fields owned before the apply only by Update entries of
/// another apiVersion than the endpoint's, and not set by the file. The csaupgrade drops such
/// a client-side entry instead of merging it, and the API server drops an entry whose version
/// is no longer served: the field then belongs to nobody and no apply prunes it.
fn old_api_version(p: &Planned<'_>) -> Vec<Warning> {
    let (before, after) = (p.before, p.after);
    let mine_after = after.fields.get(&p.me.key());
    let mut out = Vec::new();
    for (key, vs) in &before.fields {
        let Some(id) = ManagerId::from_key(key) else {
            continue;
        };
        if id.operation != Operation::Update || vs.api_version == p.api_version {
            continue;
        }
        let leaves = vs.set.leaves();
        // The live values, read in one walk beside the set (not looked up path by path: an
        // old entry can own every field of a big object); then, by set differences, what no
        // entry at the endpoint's apiVersion owns and the applier does not own after.
        let mut only = explain::scalar_paths(p.live, &leaves);
        for (k, other) in &before.fields {
            if k != key && other.api_version == p.api_version {
                only = only.difference(&other.set);
            }
        }
        if let Some(mine) = mine_after {
            only = only.difference(&mine.set);
        }
        let only = only.paths();
        if only.is_empty() {
            continue;
        }
        out.push(warning(
            Code::SsaOldApiVersionManager,
            None,
            Some(&id.manager),
            &[WayOut::HandOver],
            format!(
                "owned only by {id}, an entry of another apiVersion than {}: {}. kubectl's csaupgrade merges only the entry at the applier's apiVersion and drops this one, and the API server drops an entry whose version is no longer served, so the fields then belong to nobody and no apply removes them. To have them pruned, set them in the file once (you own them) and then drop them, or remove them by hand",
                p.api_version,
                named(only.iter().map(|q| path_string(q)), only.len())
            ),
        ));
    }
    out
}

/// The most paths a warning names; the plan's fields list every one.
const NAMED_AT_MOST: usize = 20;

/// The first of `total` paths, and how many more (a migration can prune a field of every
/// container, and an old entry own every field: one message naming 450,000 paths is no
/// message).
fn named<S: AsRef<str>>(paths: impl Iterator<Item = S>, total: usize) -> String {
    let paths: Vec<S> = paths.take(NAMED_AT_MOST).collect();
    // Sized once: the paths, their commas and the count after them.
    let room = paths.iter().map(|p| p.as_ref().len() + 2).sum::<usize>() + 48;
    let mut out = String::with_capacity(room);
    for (i, p) in paths.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(p.as_ref());
    }
    if total > NAMED_AT_MOST {
        out.push_str(&format!(
            " and {} more (the plan's fields list each)",
            total - NAMED_AT_MOST
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Up to twenty paths are named; past that, the first twenty and how many more.
    #[test]
    fn warnings_name_twenty_paths_and_count_the_rest() {
        let paths = |n: usize| (0..n).map(|i| format!(".p{i}"));
        assert_eq!(named(paths(2), 2), ".p0, .p1");
        assert_eq!(named(paths(20), 20).matches(", ").count(), 19);
        let many = named(paths(25), 25);
        assert!(many.starts_with(".p0, .p1, "), "{many}");
        assert!(
            many.contains(".p19 and 5 more (the plan's fields list each)"),
            "{many}"
        );
        assert!(!many.contains(".p20"), "{many}");
    }

    #[test]
    fn paths_above_below_and_equal_are_related() {
        let related = |a: &str, b: &str| related_to_any(a, &Sorted::of([b].into_iter()));
        assert!(related(".data.legacy", ".data.legacy"));
        assert!(related(".data.legacy", ".data"));
        assert!(related(
            ".spec",
            ".spec.template.spec.containers[name=\"a\"]"
        ));
        assert!(related(".spec.ports", ".spec.ports[port=80]"));
        assert!(related(".spec.ports[port=80].name", ".spec.ports[port=80]"));
        assert!(!related(".data.legacy", ".data.leg"));
        assert!(!related(".data.leg", ".data.legacy"));
        assert!(!related(".spec.replicas", ".spec.replicasX"));
        assert!(!related(".spec.replicasX", ".spec.replicas"));
        // Among many: found by lookups, a sibling that shares a prefix is not related.
        let set = Sorted::of([".spec.replicasX", ".spec.replicasY.z", ".data"].into_iter());
        assert!(!related_to_any(".spec.replicas", &set));
        assert!(related_to_any(".data.x[k=\"a.b\"]", &set));
        let set = Sorted::of([".spec.replicasX", ".spec.replicas.z"].into_iter());
        assert!(related_to_any(".spec.replicas", &set));
    }
}
