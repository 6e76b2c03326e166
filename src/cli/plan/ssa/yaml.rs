//! `plan --server-side -o yaml` written a piece at a time with [`YamlOut`], exactly as
//! `goyaml` writes the whole output as one value: the entries of [`super::write`] in go-yaml's
//! key order, the plan's values borrowed, the text handed to the sink in chunks.

use std::io::Write;

pub(super) mod pieces;

use super::step_head;
use super::write::{Entry, document_entries};
use crate::cli::plan::chunked::Out;
use crate::engine::goyaml::YamlOut;
use crate::engine::plan::Warning;
use crate::engine::ssa::kubectl::{Step, StepKind};
use crate::engine::ssa::managed::ManagerId;
use crate::session::ssa::{Action, Field, Sides, SsaPlan, operation};
use crate::value::{Map, Value};

/// The outputs' keys in go-yaml's order (`sorter.go`; a test holds it to `goyaml`'s).
pub(super) const KEY_ORDER: [&str; 13] = [
    "conflicts",
    "error",
    "fields",
    "mode",
    "object",
    "objects",
    "patch",
    "patchType",
    "refused",
    "result",
    "source",
    "steps",
    "warnings",
];

fn rank(key: &str) -> usize {
    KEY_ORDER
        .iter()
        .position(|k| *k == key)
        .unwrap_or(usize::MAX)
}

/// One object's plan as `-o yaml` prints it, with `mode` when given.
///
/// # Errors
/// The sink's.
pub(super) fn yaml_one(
    mode: Option<&Value>,
    plan: &SsaPlan,
    manager: &str,
    sink: &mut impl Write,
) -> std::io::Result<()> {
    let entries = document_entries(mode, plan, manager);
    if super::pieces::in_pieces(plan) {
        return pieces::write(entries, super::pieces::FIELDS, sink);
    }
    let mut out = Out::new(sink);
    out.y.begin_mapping();
    out.entries(entries, 0)?;
    out.y.end_mapping();
    out.y.finish();
    out.flush()?;
    out.sink.flush()
}

impl Out<'_> {
    /// A mapping's entries (the mapping at `depth`), in go-yaml's order.
    pub(super) fn entries(
        &mut self,
        mut entries: Vec<(&str, Entry<'_>)>,
        depth: usize,
    ) -> std::io::Result<()> {
        entries.sort_by_key(|(key, _)| rank(key));
        for (key, entry) in entries {
            self.y.key(key);
            self.entry(&entry, depth + 1)?;
        }
        Ok(())
    }

    /// An entry's value, at `depth`.
    fn entry(&mut self, entry: &Entry<'_>, depth: usize) -> std::io::Result<()> {
        match entry {
            Entry::Str(s) => self.y.str_value(s),
            Entry::Value(v) => self.y.value(v, depth),
            Entry::Result(plan) => self.stored(&plan.result, plan.result_managed_fields(), depth),
            Entry::Steps(plan, manager) => {
                let steps = plan.steps.iter().zip(&plan.step_changes);
                self.list(steps, |out, (step, changes)| {
                    out.step(step, changes, manager, depth + 1)
                })?;
            }
            Entry::Fields(fields, objects) => self.list(fields.iter(), |out, f| {
                out.field(f, *objects, depth + 1);
                Ok(())
            })?,
            Entry::Warnings(warnings) => self.list(warnings.iter(), |out, w| {
                out.warning(w);
                Ok(())
            })?,
        }
        self.flush_if_full()
    }

    /// An object as stored, at `depth`: `object` with `managed` in its metadata in place of
    /// its own managedFields (`None`: none), written as [`with_encoded`] leaves it (a metadata
    /// made when it has none), without its copy.
    ///
    /// [`with_encoded`]: crate::engine::ssa::request::with_encoded
    pub(super) fn stored(&mut self, object: &Value, managed: Option<&Value>, depth: usize) {
        let empty = Map::new();
        let top = match object {
            Value::Object(m) => m,
            Value::Null => &empty,
            other => return self.y.value(other, depth),
        };
        let mut keys: Vec<&str> = top.keys().map(|k| k.as_str()).collect();
        if !top.contains_key("metadata") {
            keys.push("metadata");
        }
        YamlOut::sort_keys(&mut keys);
        self.y.begin_mapping();
        for key in keys {
            self.y.key(key);
            match (key, top.get(key)) {
                ("metadata", Some(Value::Object(meta))) => self.metadata(meta, managed, depth + 1),
                ("metadata", None) => self.metadata(&empty, managed, depth + 1),
                // A metadata that is no mapping is left as it is.
                (_, Some(v)) => self.y.value(v, depth + 1),
                (_, None) => {}
            }
        }
        self.y.end_mapping();
    }

    /// A metadata mapping at `depth` with these managedFields in place of its own.
    fn metadata(&mut self, meta: &Map, managed: Option<&Value>, depth: usize) {
        const KEY: &str = "managedFields";
        let mut keys: Vec<&str> = meta
            .keys()
            .map(|k| k.as_str())
            .filter(|k| *k != KEY)
            .collect();
        if managed.is_some() {
            keys.push(KEY);
        }
        if keys.is_empty() {
            return self.y.empty_map();
        }
        YamlOut::sort_keys(&mut keys);
        self.y.begin_mapping();
        for key in keys {
            self.y.key(key);
            match (key, managed) {
                (KEY, Some(m)) => self.y.value(m, depth + 1),
                _ => {
                    if let Some(v) = meta.get(key) {
                        self.y.value(v, depth + 1);
                    }
                }
            }
        }
        self.y.end_mapping();
    }

    /// A list of mappings, each written by `item` (`[]` when empty).
    fn list<T>(
        &mut self,
        items: impl ExactSizeIterator<Item = T>,
        mut item: impl FnMut(&mut Self, T) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        if items.len() == 0 {
            self.y.empty_list();
            return Ok(());
        }
        self.y.begin_list();
        for x in items {
            self.y.item();
            self.y.begin_mapping();
            item(self, x)?;
            self.y.end_mapping();
            self.flush_if_full()?;
        }
        self.y.end_list();
        Ok(())
    }

    /// Fields, items of a list, each a mapping at `depth`.
    fn fields(
        &mut self,
        fields: &[Field],
        objects: Sides<'_>,
        depth: usize,
    ) -> std::io::Result<()> {
        for f in fields {
            self.y.item();
            self.y.begin_mapping();
            self.field(f, objects, depth);
            self.y.end_mapping();
            self.flush_if_full()?;
        }
        Ok(())
    }

    /// A list of strings (`[]` when empty).
    fn strings<'s>(&mut self, items: impl ExactSizeIterator<Item = &'s str>) {
        if items.len() == 0 {
            self.y.empty_list();
            return;
        }
        self.y.begin_list();
        for s in items {
            self.y.item();
            self.y.str_value(s);
        }
        self.y.end_list();
    }

    /// A step, a mapping at `depth`.
    fn step(
        &mut self,
        step: &Step,
        changes: &[(String, Action)],
        manager: &str,
        depth: usize,
    ) -> std::io::Result<()> {
        let (name, by, patch_type) = step_head(&step.kind, manager);
        self.y.key("body");
        self.y.value(step.body(), depth + 1);
        self.y.key("changed");
        self.list(changes.iter(), |out, (path, action)| {
            out.y.key("action");
            out.y.str_value(action.as_str());
            out.y.key("path");
            out.y.str_value(path);
            Ok(())
        })?;
        if let StepKind::UpgradeManagedFields { from } | StepKind::MigrateManagers { from } =
            &step.kind
        {
            self.y.key("from");
            self.strings(from.iter().map(String::as_str));
        }
        if let Some(mf) = step.managed_fields() {
            self.y.key("managedFields");
            self.y.value(mf, depth + 1);
        }
        self.y.key("manager");
        self.y.str_value(&by);
        self.y.key("patchType");
        self.y.str_value(patch_type);
        self.y.key("request");
        self.y.str_value(name);
        Ok(())
    }

    /// A field, a mapping at `depth`.
    fn field(&mut self, f: &Field, objects: Sides<'_>, depth: usize) {
        self.y.key("action");
        self.y.str_value(f.action.as_str());
        if let Some(v) = f.after(objects) {
            self.y.key("after");
            self.y.value(v, depth + 1);
        }
        if let Some(v) = f.before(objects) {
            self.y.key("before");
            self.y.value(v, depth + 1);
        }
        if f.hidden_from_diff {
            self.y.key("hiddenFromDiff");
            self.y.plain_value("true");
        }
        self.y.key("ownersAfter");
        self.owners(&f.owners_after);
        self.y.key("ownersBefore");
        self.owners(&f.owners_before);
        self.y.key("path");
        self.y.str_value(&f.path());
        self.y.key("rule");
        self.y.str_value(&f.rule);
    }

    fn owners(&mut self, ids: &[ManagerId]) {
        if ids.is_empty() {
            self.y.empty_list();
            return;
        }
        self.y.begin_list();
        for id in ids {
            self.y.item();
            self.y.begin_mapping();
            if !id.api_version.is_empty() {
                self.y.key("apiVersion");
                self.y.str_value(&id.api_version);
            }
            self.y.key("manager");
            self.y.str_value(&id.manager);
            self.y.key("operation");
            self.y.str_value(operation(id));
            if !id.subresource.is_empty() {
                self.y.key("subresource");
                self.y.str_value(&id.subresource);
            }
            self.y.end_mapping();
        }
        self.y.end_list();
    }

    /// A warning, a mapping.
    fn warning(&mut self, w: &Warning) {
        self.y.key("code");
        self.y.str_value(w.code.as_str());
        if let Some(manager) = &w.manager {
            self.y.key("manager");
            self.y.str_value(manager);
        }
        self.y.key("message");
        self.y.str_value(&w.message);
        self.y.key("path");
        match &w.path {
            Some(path) => self.y.str_value(path),
            None => self.y.plain_value("null"),
        }
        self.y.key("severity");
        self.y.str_value(w.code.severity().as_str());
        if !w.way_out.is_empty() {
            self.y.key("wayOut");
            self.strings(w.way_out.iter().map(|x| x.as_str()));
        }
    }
}
