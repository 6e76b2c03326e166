//! The plan of one object ([`Plan`]) and how a staged plan becomes one: the fields walked into
//! the tree, the lints beside them.

use std::borrow::Cow;

use crate::value::Value;

use super::{
    FIELD_BYTES, Field, FieldId, FieldPath, Fields, PARALLEL_FROM, PatchType, PathOf, Tree,
    Warning, annotation, fields, tree,
};
use crate::engine::lint;
use crate::engine::schema::Meta;
use crate::engine::smp::{self, ThreeWay};

/// The plan of one object: the documents, the patch, the result, every field's action and why
/// (as one [`Tree`]), and the warnings.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The new last-applied annotation, when `modified` does not hold it; empty when it does
    /// (it is as long as the object: one copy is enough). See [`Plan::annotation`].
    annotation: String,
    /// The local object as kubectl sends it (namespace filled, annotation set).
    pub modified: Value,
    /// The file's `metadata` as read (`None`: it had none), where kubectl changes the file's
    /// object (see [`Plan::local`]).
    file_metadata: Option<Value>,
    /// The live object as kubectl patches it (`None`: a create).
    pub live: Option<Value>,
    /// The last-applied configuration the plan started from (`None`: none).
    pub last_applied: Option<Value>,
    /// Which patch is sent; `None` when nothing would be sent (unchanged, or a create).
    pub patch_type: Option<PatchType>,
    /// The PATCH body; `None` when nothing would be sent.
    pub patch: Option<Value>,
    /// The live object after the apply; for a create, the created object (the POST body).
    pub result: Value,
    create: bool,
    /// The two halves of the three-way strategic merge patch (teaching view), when kept.
    pub halves: Option<ThreeWay>,
    /// Every field's action and why.
    pub tree: Tree,
    pub warnings: Vec<Warning>,
}

impl Plan {
    /// Whether the documents are large enough to split the work between threads.
    #[must_use]
    pub fn is_large(&self) -> bool {
        self.annotation().len() >= PARALLEL_FROM
    }

    /// The new last-applied annotation, exactly as it would be stored.
    #[must_use]
    pub fn annotation(&self) -> &str {
        if self.annotation.is_empty() {
            annotation::of(&self.modified).unwrap_or_default()
        } else {
            &self.annotation
        }
    }

    /// The file's object as read: `modified` but what kubectl changed, which is only in
    /// `metadata` (the namespace filled in or dropped, the annotation set, `metadata` and
    /// `annotations` made when missing). A copy: a front end that shows the file draws
    /// `modified` with [`Plan::file_metadata`] instead.
    #[must_use]
    pub fn local(&self) -> Value {
        let Value::Object(root) = &self.modified else {
            return self.modified.clone();
        };
        let mut local = crate::value::Map::with_capacity(root.len());
        for (k, v) in root.iter() {
            let v = match (k.as_str(), &self.file_metadata) {
                ("metadata", Some(m)) => m.clone(),
                ("metadata", None) => continue,
                _ => v.clone(),
            };
            local.insert(k.as_str(), v);
        }
        Value::Object(local)
    }

    /// The file's `metadata` as read, in place of `modified`'s (`None`: the file had none;
    /// kubectl added it, last). The rest of the file's object is `modified`'s.
    #[must_use]
    pub fn file_metadata(&self) -> Option<&Value> {
        self.file_metadata.as_ref()
    }

    /// Is `local` the file's object this plan was made from? (As `local == self.local()`,
    /// without the copy.)
    #[must_use]
    pub fn planned_from(&self, local: &Value) -> bool {
        let (Value::Object(root), Value::Object(other)) = (&self.modified, local) else {
            return &self.modified == local;
        };
        let mut mine = root
            .iter()
            .filter_map(|(k, v)| match (k.as_str(), &self.file_metadata) {
                ("metadata", Some(m)) => Some((k.as_str(), m)),
                ("metadata", None) => None,
                _ => Some((k.as_str(), v)),
            });
        let mut theirs = other.iter().map(|(k, v)| (k.as_str(), v));
        loop {
            match (mine.next(), theirs.next()) {
                (None, None) => return true,
                (Some(a), Some(b)) if a == b => {}
                _ => return false,
            }
        }
    }

    /// Whether the object is a Secret whose values kubectl's diff masks
    /// ([`crate::engine::secret::is_secret`]).
    #[must_use]
    pub fn is_secret(&self) -> bool {
        crate::engine::secret::is_secret(&self.modified)
    }

    /// Whether a field holds a Secret's values (under `data`/`stringData`, or the annotation
    /// copying them), which a person's view masks.
    #[must_use]
    pub fn holds_secret_values(&self, id: FieldId) -> bool {
        if !self.is_secret() {
            return false;
        }
        let keys: Vec<&str> = self
            .tree
            .steps(id)
            .into_iter()
            .map(|s| match s {
                super::Seg::Key(k) => &**k,
                _ => "",
            })
            .collect();
        crate::engine::secret::holds_values(&keys)
    }

    /// A warning's message as a person reads it: masked where it quotes a Secret's values.
    #[must_use]
    pub fn warning_text<'w>(&self, w: &'w Warning, reveal: bool) -> std::borrow::Cow<'w, str> {
        w.shown(!reveal && w.field.is_some_and(|id| self.holds_secret_values(id)))
    }

    /// The POST body of a create.
    #[must_use]
    pub fn created(&self) -> Option<&Value> {
        self.create.then_some(&self.result)
    }

    /// The documents the tree's fields are in ([`Doc`](super::tree::Doc) order).
    #[must_use]
    pub fn docs(&self) -> tree::Docs<'_> {
        [
            self.last_applied.as_ref(),
            Some(&self.modified),
            self.live.as_ref(),
            Some(&self.result),
        ]
    }

    /// A field with its values.
    #[must_use]
    pub fn field(&self, id: FieldId) -> Option<Field<'_, '_>> {
        self.tree.field(id, &self.docs())
    }

    /// The `i`-th field (0-based, in order) with its values.
    #[must_use]
    pub fn nth_field(&self, i: usize) -> Option<Field<'_, '_>> {
        self.field(self.tree.nth(i)?)
    }

    /// Every field in order, with its values.
    #[must_use]
    pub fn fields(&self) -> Fields<'_, '_> {
        self.tree.fields(&self.docs())
    }

    /// The field a warning is about, if it is one of the plan's.
    #[must_use]
    pub fn warning_field(&self, warning: usize) -> Option<FieldId> {
        self.warnings.get(warning)?.field
    }

    /// A field's path, as the plan prints it.
    #[must_use]
    pub fn path(&self, id: FieldId) -> PathOf<'_> {
        self.tree.path(id)
    }
}

/// What [`stage_with`](super::stage_with) made: a plan but its fields.
pub(super) struct Staged<'a, 's> {
    pub(super) meta: Option<Meta<'s>>,
    pub(super) mode: PatchType,
    pub(super) annotation: String,
    pub(super) modified: Value,
    /// The file's `metadata` as read ([`Plan::file_metadata`]).
    pub(super) file_metadata: Option<Value>,
    pub(super) live: Option<Cow<'a, Value>>,
    pub(super) last_applied: Option<Value>,
    pub(super) patch_type: Option<PatchType>,
    pub(super) patch: Option<Value>,
    pub(super) result: Value,
    pub(super) create: bool,
    pub(super) halves: Option<ThreeWay>,
    /// The warnings found before the fields (the missing annotation).
    pub(super) before: Vec<Warning>,
}

impl Staged<'_, '_> {
    /// Walk every field into the plan's tree, with the lints beside the walk.
    pub(super) fn into_plan(self) -> Plan {
        let annotation_len = if self.annotation.is_empty() {
            annotation::of(&self.modified).map_or(0, str::len)
        } else {
            self.annotation.len()
        };
        let docs = fields::Docs {
            last_applied: self.last_applied.as_ref(),
            local: Some(&self.modified),
            live: self.live.as_deref(),
            result: Some(&self.result),
            patch: self.patch.as_ref(),
        };
        let lint_input = lint::LintInput {
            local: &self.modified,
            live: self.live.as_deref(),
            last_applied: self.last_applied.as_ref(),
            result: &self.result,
            annotation: if self.annotation.is_empty() {
                annotation::of(&self.modified).unwrap_or_default()
            } else {
                &self.annotation
            },
            meta: self.meta,
        };
        // The lints read the documents only: they run beside the walk. So does the copy of a
        // live object the caller lent.
        let large = annotation_len >= PARALLEL_FROM;
        let ((lint, live), (tree, from_fields)) = smp::both(
            large,
            || {
                let lint = lint::check(&lint_input);
                let live = match &self.live {
                    Some(Cow::Borrowed(v)) => Some((*v).clone()),
                    _ => None,
                };
                (lint, live)
            },
            || fields::walk(&docs, self.meta, self.mode, annotation_len / FIELD_BYTES),
        );
        let warnings = if self.create {
            // A create has no live object to warn about: the lints only.
            lint
        } else {
            let mut warnings = self.before;
            warnings.extend(from_fields);
            warnings.extend(lint);
            warnings
        };
        let mut warnings = warnings;
        // The lints name their fields by path: found on the tree by its steps.
        for w in &mut warnings {
            if w.field.is_none()
                && let Some(path) = w.path.as_deref()
                && let Ok(path) = path.parse::<FieldPath>()
            {
                w.field = tree.find(&path.0).filter(|id| tree.is_field(*id));
            }
        }
        let live = live.or_else(|| self.live.map(Cow::into_owned));
        Plan {
            annotation: self.annotation,
            modified: self.modified,
            file_metadata: self.file_metadata,
            live,
            last_applied: self.last_applied,
            patch_type: self.patch_type,
            patch: self.patch,
            result: self.result,
            create: self.create,
            halves: self.halves,
            tree,
            warnings,
        }
    }
}
