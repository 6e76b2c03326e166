//! Which paths an edit of last-applied changed, and which lines of the last-applied pane carry
//! the edit mark. Pure: two renders of the document (committed and edited) in, paths out.

use serde_json::Value;

use super::model::Pane;
use super::yaml::{DocLine, PathId, Paths};
use crate::engine::gofmt::FastSet;

/// The topmost paths where `current` differs from `base`: changed scalars, added or removed
/// fields, and containers that differ only as a whole (a reordered list).
#[must_use]
pub fn edited<'d>(
    paths: &Paths,
    current_lines: &[DocLine],
    base_lines: &[DocLine],
    base: Option<&'d Value>,
    current: Option<&'d Value>,
) -> Vec<PathId> {
    let mut seen = FastSet::default();
    let mut ids: Vec<PathId> = Vec::new();
    for line in current_lines.iter().chain(base_lines) {
        for id in std::iter::once(line.path).chain(line.also) {
            if seen.insert(id) {
                ids.push(id);
            }
        }
    }
    let look = |doc: Option<&'d Value>, id: PathId| look(paths, doc, id);
    let differs: Vec<PathId> = ids
        .into_iter()
        .filter(|id| look(base, *id) != look(current, *id))
        .collect();
    let mut has_change_below = FastSet::default();
    for id in &differs {
        let mut at = paths.parent(*id);
        while let Some(p) = at {
            if !has_change_below.insert(p) {
                break;
            }
            at = paths.parent(p);
        }
    }
    let both_containers = |id: PathId| {
        matches!(
            (look(base, id), look(current, id)),
            (Some(Value::Object(_)), Some(Value::Object(_)))
                | (Some(Value::Array(_)), Some(Value::Array(_)))
        )
    };
    let changed: FastSet<PathId> = differs
        .iter()
        .copied()
        .filter(|id| !(both_containers(*id) && has_change_below.contains(id)))
        .collect();
    let mut out: Vec<PathId> = changed
        .iter()
        .copied()
        .filter(|id| {
            let mut at = paths.parent(*id);
            while let Some(p) = at {
                if changed.contains(&p) {
                    return false;
                }
                at = paths.parent(p);
            }
            true
        })
        .collect();
    out.sort_unstable();
    out
}

fn look<'d>(paths: &Paths, doc: Option<&'d Value>, id: PathId) -> Option<&'d Value> {
    doc.and_then(|d| paths.lookup(id, d))
}

/// The lines of the (edited) last-applied pane to mark: each edited path's line, or for a
/// removed path, the line of its nearest ancestor still there.
#[must_use]
pub fn lines(pane: &Pane, paths: &Paths, edited: &[PathId]) -> FastSet<u32> {
    edited
        .iter()
        .filter_map(|id| pane.locate(paths, *id).map(|(line, _)| line))
        .collect()
}
