//! A request's conflicts (`merge/conflict.go`): a manager owns a path the request would
//! change.

use std::collections::BTreeMap;
use std::fmt;

use crate::engine::ssa::order::go_quote;
use crate::engine::ssa::path::{Path, path_string};

/// A manager owns a path the request would change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub manager: String,
    pub path: Path,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "conflict with {}: {}",
            go_quote(&self.manager),
            path_string(&self.path)
        )
    }
}

/// The conflicts of a request (`merge.Conflicts`), managers sorted, paths in set order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflicts(pub Vec<Conflict>);

impl fmt::Display for Conflicts {
    /// `Conflicts.Error`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.0.as_slice() {
            return one.fmt(f);
        }
        let mut by_manager: BTreeMap<&str, Vec<&Path>> = BTreeMap::new();
        for c in &self.0 {
            by_manager.entry(&c.manager).or_default().push(&c.path);
        }
        let groups = by_manager
            .into_iter()
            .map(|(m, paths)| (go_quote(m), paths));
        f.write_str(&grouped_conflicts(groups))
    }
}

/// Conflicts grouped by manager, as `merge.Conflicts` and the API server's 409 both write
/// them: `conflicts with M:`, then a `- path` line for each path, the lines joined by
/// newlines.
pub(crate) fn grouped_conflicts<'a, M: fmt::Display>(
    groups: impl IntoIterator<Item = (M, Vec<&'a Path>)>,
) -> String {
    let mut lines = Vec::new();
    for (manager, paths) in groups {
        lines.push(format!("conflicts with {manager}:"));
        for p in paths {
            lines.push(format!("- {}", path_string(p)));
        }
    }
    lines.join("\n")
}
