//! `plan --server-side -o json|yaml` written straight from the plans: each output's entries,
//! in the order `-o json` writes them, borrowed from the [`SsaPlan`] (no `Value` copy of the
//! plan), and `-o json` as `serde_json`'s pretty printer writes them, through a buffer to the
//! sink (`-o yaml` in [`super::yaml`]).
//!
//! At 1,000 containers × 100 env vars the JSON is 340 MB: built as one value and one string it
//! took 1.7 GB; written so, it is never held (see README, "At the limit").

use std::io::Write;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::step_head;
use crate::engine::plan::Warning;
use crate::engine::ssa::kubectl::{Step, StepKind};
use crate::engine::ssa::managed::{ManagerId, Written};
use crate::error::Error;
use crate::session::ssa::{Action, Field, Sides, SsaOutcome, SsaPlan, operation};
use crate::value::{Map, Value};

use crate::cluster::ssa::APPLY_PATCH as PATCH_TYPE;

/// The sink's buffer: `-o json` is written through it (standard output's own buffer is a
/// line's).
pub(super) const BUFFER: usize = 1 << 16;

/// One entry's value in an output's mapping.
pub(super) enum Entry<'a> {
    Str(&'a str),
    Value(&'a Value),
    /// The plan's result as the API server stores it: with its managedFields, written when
    /// first asked, last in its metadata.
    Result(&'a SsaPlan),
    /// The plan's `steps`, the applier being this manager.
    Steps(&'a SsaPlan, &'a str),
    /// The plan's fields, their values read in its objects.
    Fields(&'a [Field], Sides<'a>),
    Warnings(&'a [Warning]),
}

/// A plan's entries: `patchType`, `patch`, `result`, `steps`, `fields`, `warnings`.
pub(super) fn plan_entries<'a>(
    plan: &'a SsaPlan,
    manager: &'a str,
) -> [(&'static str, Entry<'a>); 6] {
    [
        ("patchType", Entry::Str(PATCH_TYPE)),
        ("patch", Entry::Value(&plan.patch)),
        ("result", Entry::Result(plan)),
        ("steps", Entry::Steps(plan, manager)),
        ("fields", Entry::Fields(&plan.fields, plan.objects())),
        ("warnings", Entry::Warnings(&plan.warnings)),
    ]
}

/// One object of many: its name and source, and its plan or why there is none.
pub(super) struct Item {
    pub key: String,
    pub source: String,
    pub outcome: Result<SsaOutcome, Error>,
    /// The conflicts' or the error's message.
    message: String,
}

impl Item {
    pub fn new(key: String, source: String, outcome: Result<SsaOutcome, Error>) -> Item {
        let message = match &outcome {
            Ok(SsaOutcome::Planned(_)) => String::new(),
            Ok(SsaOutcome::Refused(refusal)) => refusal.message.clone(),
            Ok(SsaOutcome::Conflicts { conflicts, .. }) => conflicts.to_string(),
            Err(e) => e.to_string(),
        };
        Item {
            key,
            source,
            outcome,
            message,
        }
    }

    /// The item's entries: `object`, `source`, then the plan's, or `refused` or `conflicts`
    /// and `warnings`, or `error`.
    pub fn entries<'a>(&'a self, manager: &'a str) -> Vec<(&'static str, Entry<'a>)> {
        let mut entries = vec![
            ("object", Entry::Str(&self.key)),
            ("source", Entry::Str(&self.source)),
        ];
        match &self.outcome {
            Ok(SsaOutcome::Planned(plan)) => entries.extend(plan_entries(plan, manager)),
            Ok(SsaOutcome::Refused(refusal)) => {
                entries.push(("refused", Entry::Str(&self.message)));
                entries.push(("warnings", Entry::Warnings(&refusal.warnings)));
            }
            Ok(SsaOutcome::Conflicts { warnings, .. }) => {
                entries.push(("conflicts", Entry::Str(&self.message)));
                entries.push(("warnings", Entry::Warnings(warnings)));
            }
            Err(_) => entries.push(("error", Entry::Str(&self.message))),
        }
        entries
    }

    /// The line on stderr and the exit status it asks for, unless it was planned.
    pub fn failure(&self) -> Option<(String, u8)> {
        let code = match &self.outcome {
            Ok(SsaOutcome::Planned(_)) => return None,
            Ok(_) => 1,
            Err(_) => 2,
        };
        Some((format!("{}: {}", self.key, self.message), code))
    }
}

/// What many objects' run keeps to its end: each failure's line and the worst exit status.
#[derive(Default)]
pub(super) struct Tally {
    pub stderr: Vec<String>,
    pub code: u8,
}

impl Tally {
    pub fn record(&mut self, item: &Item) {
        if let Some((line, code)) = item.failure() {
            self.stderr.push(line);
            self.code = self.code.max(code);
        }
    }

    /// How the run ends, stdout written (`broken`: it could not be): as the client-side plan
    /// of many objects ends when its output fails, status 1, or 2 with the failures' lines.
    pub fn run(mut self, broken: bool) -> crate::cli::Run {
        if self.code == 1 {
            self.stderr.push(super::REMEDY.into());
        }
        let code = match (broken, self.code != 0 || !self.stderr.is_empty()) {
            (false, _) => self.code,
            (true, failed) => 1 + u8::from(failed),
        };
        crate::cli::Run::Report {
            stdout: String::new(),
            stderr: self.stderr,
            code,
        }
    }
}

/// One object's plan as `-o json` prints it (with the final newline), `mode` first when given;
/// a big one in pieces on two threads ([`super::pieces`]).
///
/// # Errors
/// The sink's.
pub(super) fn json_one(
    mode: Option<&Value>,
    plan: &SsaPlan,
    manager: &str,
    sink: &mut impl Write,
) -> std::io::Result<()> {
    let entries = document_entries(mode, plan, manager);
    if super::pieces::in_pieces(plan) {
        // On two threads, the managedFields written by the pieces that print them.
        return super::pieces::write(&entries, super::pieces::FIELDS, sink);
    }
    json_document(&Entries(&entries), sink)
}

/// One object's entries: `mode` when given, then the plan's.
pub(super) fn document_entries<'a>(
    mode: Option<&'a Value>,
    plan: &'a SsaPlan,
    manager: &'a str,
) -> Vec<(&'static str, Entry<'a>)> {
    let mut entries = Vec::with_capacity(7);
    if let Some(mode) = mode {
        entries.push(("mode", Entry::Value(mode)));
    }
    entries.extend(plan_entries(plan, manager));
    entries
}

/// `doc` pretty-printed, and a newline, through a buffer.
fn json_document(doc: &impl Serialize, sink: &mut impl Write) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::with_capacity(BUFFER, sink);
    super::pretty::to_writer(&mut out, doc)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// A mapping's entries, in order.
pub(super) struct Entries<'e, 'a>(pub &'e [(&'static str, Entry<'a>)]);

impl Serialize for Entries<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, entry) in self.0 {
            map.serialize_entry(key, entry)?;
        }
        map.end()
    }
}

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Entry::Str(v) => s.serialize_str(v),
            Entry::Value(v) => v.serialize(s),
            Entry::Result(plan) => Stored {
                object: &plan.result,
                managed: plan.result_managed_fields_written(),
            }
            .serialize(s),
            Entry::Steps(plan, manager) => s.collect_seq(
                plan.steps
                    .iter()
                    .zip(&plan.step_changes)
                    .map(|(step, changes)| StepJson::new(step, changes, manager)),
            ),
            Entry::Fields(fields, objects) => {
                s.collect_seq(fields.iter().map(|f| FieldJson(f, *objects)))
            }
            Entry::Warnings(warnings) => s.collect_seq(warnings.iter().map(WarningJson)),
        }
    }
}

/// An object as stored: `object` (without its managedFields) with `managed` last in its
/// metadata, written as [`crate::engine::ssa::request::with_encoded`] leaves it, without its
/// copy.
pub(super) struct Stored<'a> {
    pub object: &'a Value,
    pub managed: Option<Written<'a>>,
}

impl Serialize for Stored<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let empty = Map::new();
        let top = match self.object {
            Value::Object(m) => m,
            Value::Null => &empty,
            other => return other.serialize(s),
        };
        let has_meta = top.contains_key("metadata");
        let mut map = s.serialize_map(Some(top.len() + usize::from(!has_meta)))?;
        for (key, value) in top {
            if key == "metadata" {
                map.serialize_entry(key.as_str(), &Meta(value, self.managed.as_ref()))?;
            } else {
                map.serialize_entry(key.as_str(), value)?;
            }
        }
        if !has_meta {
            let meta = Meta(&Value::Object(Map::new()), self.managed.as_ref());
            map.serialize_entry("metadata", &meta)?;
        }
        map.end()
    }
}

/// An object's metadata with these managedFields (`None`: none) in place of its own, or last.
struct Meta<'a>(&'a Value, Option<&'a Written<'a>>);

impl Serialize for Meta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        const KEY: &str = "managedFields";
        let Meta(Value::Object(meta), managed) = *self else {
            return self.0.serialize(s);
        };
        let had = meta.contains_key(KEY);
        let len = meta.len() - usize::from(had) + usize::from(managed.is_some());
        let mut map = s.serialize_map(Some(len))?;
        for (key, value) in meta {
            if key != KEY {
                map.serialize_entry(key.as_str(), value)?;
            } else if let Some(m) = managed {
                map.serialize_entry(key.as_str(), m)?;
            }
        }
        if let (false, Some(m)) = (had, managed) {
            map.serialize_entry(KEY, m)?;
        }
        map.end()
    }
}

/// A step as `-o json` writes it, the applier being `manager`.
pub(super) struct StepJson<'a> {
    step: &'a Step,
    changes: &'a [(String, Action)],
    manager: &'a str,
}

impl<'a> StepJson<'a> {
    pub(super) fn new(step: &'a Step, changes: &'a [(String, Action)], manager: &'a str) -> Self {
        StepJson {
            step,
            changes,
            manager,
        }
    }
}

impl Serialize for StepJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let step = self.step;
        let (name, by, patch_type) = step_head(&step.kind, self.manager);
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("request", name)?;
        m.serialize_entry("manager", &by)?;
        m.serialize_entry("patchType", patch_type)?;
        if let StepKind::UpgradeManagedFields { from } | StepKind::MigrateManagers { from } =
            &step.kind
        {
            m.serialize_entry("from", from)?;
        }
        m.serialize_entry("body", &step.body_written())?;
        m.serialize_entry("changed", &Changed(self.changes))?;
        if let Some(mf) = step.managed_fields_written() {
            m.serialize_entry("managedFields", &mf)?;
        }
        m.end()
    }
}

struct Changed<'a>(&'a [(String, Action)]);

impl Serialize for Changed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.0
                .iter()
                .map(|(path, action)| PathAction(path, action.as_str())),
        )
    }
}

struct PathAction<'a>(&'a str, &'a str);

impl Serialize for PathAction<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("path", self.0)?;
        m.serialize_entry("action", self.1)?;
        m.end()
    }
}

/// A field as `-o json` writes it, its values read in these objects.
pub(super) struct FieldJson<'a>(pub &'a Field, pub Sides<'a>);

impl Serialize for FieldJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (f, objects) = (self.0, self.1);
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("path", &f.path())?;
        m.serialize_entry("action", f.action.as_str())?;
        if let Some(v) = f.before(objects) {
            m.serialize_entry("before", v)?;
        }
        if let Some(v) = f.after(objects) {
            m.serialize_entry("after", v)?;
        }
        m.serialize_entry("ownersBefore", &Owners(&f.owners_before))?;
        m.serialize_entry("ownersAfter", &Owners(&f.owners_after))?;
        m.serialize_entry("rule", &*f.rule)?;
        if f.hidden_from_diff {
            m.serialize_entry("hiddenFromDiff", &true)?;
        }
        m.end()
    }
}

struct Owners<'a>(&'a [ManagerId]);

impl Serialize for Owners<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Owner))
    }
}

struct Owner<'a>(&'a ManagerId);

impl Serialize for Owner<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let id = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("manager", &id.manager)?;
        m.serialize_entry("operation", operation(id))?;
        if !id.api_version.is_empty() {
            m.serialize_entry("apiVersion", &id.api_version)?;
        }
        if !id.subresource.is_empty() {
            m.serialize_entry("subresource", &id.subresource)?;
        }
        m.end()
    }
}

struct WarningJson<'a>(&'a Warning);

impl Serialize for WarningJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let w = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("code", w.code.as_str())?;
        m.serialize_entry("severity", w.code.severity().as_str())?;
        m.serialize_entry("path", &w.path)?;
        if let Some(manager) = &w.manager {
            m.serialize_entry("manager", manager)?;
        }
        if !w.way_out.is_empty() {
            m.serialize_entry("wayOut", &WaysOut(w))?;
        }
        m.serialize_entry("message", &w.message)?;
        m.end()
    }
}

struct WaysOut<'a>(&'a Warning);

impl Serialize for WaysOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.way_out.iter().map(|x| x.as_str()))
    }
}
