//! What one object's plan amounts to (a list row's counts and warnings), and the risk order the
//! object list is sorted by.
//!
//! # The risk order (riskiest first)
//!
//! 1. **error**: the object failed to plan (kubectl would refuse it: a conflict, bad input).
//! 2. **rejects**: a warning says the server will reject the apply (`immutable-field`,
//!    `annotation-too-large`, `union-two-members`).
//! 3. **warning**: a warning says the apply loses or resets something (every other warning
//!    code, e.g. `list-items-lost`, `replicas-removed`, `duplicate-merge-key`).
//! 4. **notice**: only `missing-annotation` (a two-way merge: nothing will be deleted) or
//!    `annotation-null-is-empty` (a null annotation value sent as `""`).
//! 5. **removes**: fields cleared or list elements deleted.
//! 6. **changes**: live values set to new ones.
//! 7. **adds**: only additions (a create is all additions).
//! 8. **none**: nothing would be sent.
//!
//! Within a class: more warnings first, then more removals (`clear` + `delete`), then more
//! `set`s, then more `add`s; ties by kind, namespace, name (and API group).

use std::cmp::{Ordering, Reverse};

use super::objects::Key;
pub use crate::engine::plan::Severity;
use crate::engine::plan::{Action, Code, PatchType, Plan};

/// A row's risk class, least risky first (so `Ord` ranks them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Risk {
    None,
    Adds,
    Changes,
    Removes,
    Notice,
    Warning,
    Rejects,
    Error,
}

impl Risk {
    /// Every class, riskiest first (the order of the documentation).
    pub const ALL: [Risk; 8] = [
        Risk::Error,
        Risk::Rejects,
        Risk::Warning,
        Risk::Notice,
        Risk::Removes,
        Risk::Changes,
        Risk::Adds,
        Risk::None,
    ];

    /// The word shown in the list's risk column.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Risk::Error => "error",
            Risk::Rejects => "rejects",
            Risk::Warning => "warning",
            Risk::Notice => "notice",
            Risk::Removes => "removes",
            Risk::Changes => "changes",
            Risk::Adds => "adds",
            Risk::None => "none",
        }
    }

    /// What the class means, in one line.
    #[must_use]
    pub fn meaning(self) -> &'static str {
        match self {
            Risk::Error => "failed to plan: kubectl would refuse it",
            Risk::Rejects => "a warning says the server will reject the apply",
            Risk::Warning => "a warning says the apply loses or resets something",
            Risk::Notice => "no last-applied annotation: a two-way merge, nothing deleted",
            Risk::Removes => "fields cleared or list elements deleted",
            Risk::Changes => "live values changed",
            Risk::Adds => "only additions (a create adds everything)",
            Risk::None => "nothing would be sent",
        }
    }
}

/// What kubectl would do with the object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Create,
    Patch(PatchType),
    Unchanged,
    Fails,
}

impl Op {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Op::Create => "create",
            Op::Patch(PatchType::Strategic) => "patch",
            Op::Patch(PatchType::Merge) => "merge",
            Op::Unchanged => "unchanged",
            Op::Fails => "fails",
        }
    }
}

/// How many objects each [`Op`] has: the counts the object list's header and the many-object
/// text summary show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub create: usize,
    /// Patches of either type.
    pub patch: usize,
    pub unchanged: usize,
    pub fails: usize,
}

impl Tally {
    #[must_use]
    pub fn of<'s>(summaries: impl IntoIterator<Item = &'s Summary>) -> Tally {
        let mut t = Tally::default();
        for s in summaries {
            match s.op {
                Op::Create => t.create += 1,
                Op::Patch(_) => t.patch += 1,
                Op::Unchanged => t.unchanged += 1,
                Op::Fails => t.fails += 1,
            }
        }
        t
    }
}

/// One object's plan, summed up for its row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub op: Op,
    pub add: usize,
    pub set: usize,
    pub clear: usize,
    pub delete: usize,
    pub warnings: usize,
    /// The worst warning's severity.
    pub severity: Option<Severity>,
    /// The warnings' codes, each once, worst first.
    pub codes: Vec<Code>,
    /// Why the object failed to plan (one line).
    pub error: Option<String>,
}

impl Summary {
    /// The summary of a plan.
    #[must_use]
    pub fn of_plan(plan: &Plan) -> Summary {
        let (mut add, mut set, mut clear, mut delete) = (0, 0, 0, 0);
        for action in plan.tree.actions() {
            match action {
                Action::Add => add += 1,
                Action::Set => set += 1,
                Action::Clear => clear += 1,
                Action::Delete => delete += 1,
                Action::Retain | Action::Unchanged | Action::Keep => {}
            }
        }
        let mut codes: Vec<Code> = Vec::new();
        for w in &plan.warnings {
            if !codes.contains(&w.code) {
                codes.push(w.code);
            }
        }
        codes.sort_by_key(|c| Reverse(c.severity()));
        Summary {
            op: match (plan.created(), plan.patch_type) {
                (Some(_), _) => Op::Create,
                (None, Some(t)) => Op::Patch(t),
                (None, None) => Op::Unchanged,
            },
            add,
            set,
            clear,
            delete,
            warnings: plan.warnings.len(),
            severity: codes.first().map(|c| c.severity()),
            codes,
            error: None,
        }
    }

    /// The summary of a plan, or of the error it failed with.
    #[must_use]
    pub fn of_result(plan: &Result<Plan, crate::error::Error>) -> Summary {
        match plan {
            Ok(plan) => Summary::of_plan(plan),
            Err(e) => Summary::failed(&e.to_string()),
        }
    }

    /// The summary of an object that failed to plan.
    #[must_use]
    pub fn failed(message: &str) -> Summary {
        let one_line: Vec<&str> = message
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        Summary {
            op: Op::Fails,
            add: 0,
            set: 0,
            clear: 0,
            delete: 0,
            warnings: 0,
            severity: None,
            codes: Vec::new(),
            error: Some(one_line.join(" ")),
        }
    }

    /// Fields cleared and list elements deleted.
    #[must_use]
    pub fn removals(&self) -> usize {
        self.clear + self.delete
    }

    /// The row's risk class.
    #[must_use]
    pub fn risk(&self) -> Risk {
        if self.error.is_some() {
            return Risk::Error;
        }
        match self.severity {
            Some(Severity::Reject) => Risk::Rejects,
            Some(Severity::Loss) => Risk::Warning,
            Some(Severity::Notice) => Risk::Notice,
            None if self.removals() > 0 => Risk::Removes,
            None if self.set > 0 => Risk::Changes,
            None if self.add > 0 => Risk::Adds,
            None => Risk::None,
        }
    }
}

/// The list's order: riskier first (see the module documentation).
#[must_use]
pub fn riskier_first(a: (&Summary, &Key), b: (&Summary, &Key)) -> Ordering {
    let rank = |s: &Summary| {
        (
            Reverse(s.risk()),
            Reverse(s.warnings),
            Reverse(s.removals()),
            Reverse(s.set),
            Reverse(s.add),
        )
    };
    fn name(k: &Key) -> (&str, &str, &str, &str) {
        (&k.kind, &k.namespace, &k.name, &k.group)
    }
    rank(a.0)
        .cmp(&rank(b.0))
        .then_with(|| name(a.1).cmp(&name(b.1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(add: usize, set: usize, clear: usize, codes: &[Code]) -> Summary {
        Summary {
            op: Op::Patch(PatchType::Strategic),
            add,
            set,
            clear,
            delete: 0,
            warnings: codes.len(),
            severity: codes.iter().map(|c| c.severity()).max(),
            codes: codes.to_vec(),
            error: None,
        }
    }

    fn key(kind: &str, name: &str) -> Key {
        Key {
            group: String::new(),
            kind: kind.into(),
            namespace: "default".into(),
            name: name.into(),
        }
    }

    #[test]
    fn classes_follow_the_documented_order() {
        let cases = [
            (Summary::failed("boom\n  again"), Risk::Error),
            (summary(0, 0, 0, &[Code::ImmutableField]), Risk::Rejects),
            (summary(0, 0, 0, &[Code::ListItemsLost]), Risk::Warning),
            (summary(9, 9, 9, &[Code::MissingAnnotation]), Risk::Notice),
            (summary(5, 5, 1, &[]), Risk::Removes),
            (summary(5, 1, 0, &[]), Risk::Changes),
            (summary(1, 0, 0, &[]), Risk::Adds),
            (summary(0, 0, 0, &[]), Risk::None),
        ];
        for (s, want) in &cases {
            assert_eq!(s.risk(), *want, "{s:?}");
        }
        let ranked: Vec<Risk> = cases.iter().map(|(_, r)| *r).collect();
        assert_eq!(ranked, Risk::ALL);
        assert!(Risk::ALL.windows(2).all(|w| w[0] > w[1]));
        assert_eq!(
            Summary::failed("boom\n  again").error.as_deref(),
            Some("boom again")
        );
    }

    #[test]
    fn ties_break_by_counts_then_names() {
        let (a, b) = (key("Service", "a"), key("ConfigMap", "z"));
        let more_removals = summary(0, 0, 3, &[]);
        let fewer = summary(0, 9, 1, &[]);
        assert_eq!(
            riskier_first((&more_removals, &a), (&fewer, &b)),
            Ordering::Less
        );
        let same = summary(1, 1, 1, &[]);
        assert_eq!(riskier_first((&same, &b), (&same, &a)), Ordering::Less);
        let two = summary(0, 0, 0, &[Code::ListItemsLost, Code::ReplicasRemoved]);
        let one = summary(0, 0, 5, &[Code::ListItemsLost]);
        assert_eq!(riskier_first((&two, &a), (&one, &b)), Ordering::Less);
    }
}
