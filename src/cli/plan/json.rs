//! `plan -o json` written straight from the [`Plan`], without a `crate::value::Value` copy of it.
//!
//! The output is byte for byte what `gojson::to_string_pretty(&crate::value::to_value(plan))`
//! gives (Go's `json.MarshalIndent` of the plan: keys sorted by bytes, two-space indent, empty
//! `[]`/`{}` compact); the test below holds the two equal on every built-in example. At 10 MB the
//! plan has about 500,000 fields, and the `Value` copy cost 40 % of the heap and a quarter of the
//! time. The text is written out in chunks, so the whole output (about 270 MB there) is never
//! held at once either.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

use crate::value::Value;

use crate::engine::gojson::{self, GoJsonError};
use crate::engine::plan::{
    Action, FieldRef, PatchType, PathText, Plan, Reason, Seg, Staged, Warning,
};

/// Write buffered text to the sink once it holds this much.
const CHUNK: usize = 1 << 16;

/// How deep [`Out::value`] lays out arrays and objects itself (flushing between their items);
/// deeper ones go to gojson whole. Far below the depth limit gojson enforces.
const CHUNKED_LEVELS: usize = 12;

/// Why the JSON could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Json(#[from] GoJsonError),
    #[error("writing the output: {0}")]
    Io(#[from] std::io::Error),
}

struct Out<'w, W: Write> {
    buf: String,
    sink: &'w mut W,
    /// Where a field's path is written before it is quoted (no allocation per field).
    scratch: String,
    /// A write that failed where no error could be returned ([`Out::string`]): reported by
    /// the next flush.
    failed: Option<std::io::Error>,
}

impl<W: Write> Out<'_, W> {
    fn flush_if_full(&mut self) -> Result<(), WriteError> {
        if let Some(e) = self.failed.take() {
            return Err(e.into());
        }
        if self.buf.len() >= CHUNK {
            self.sink.write_all(self.buf.as_bytes())?;
            self.buf.clear();
        }
        Ok(())
    }

    fn newline(&mut self, level: usize) {
        self.buf.push('\n');
        for _ in 0..level {
            self.buf.push_str("  ");
        }
    }

    /// A key at `level`, preceded by the comma of the previous entry.
    fn key(&mut self, first: &mut bool, name: &str, level: usize) {
        if !*first {
            self.buf.push(',');
        }
        *first = false;
        self.newline(level);
        gojson::write_string(name, &mut self.buf);
        self.buf.push_str(": ");
    }

    /// `v` as [`gojson::write_pretty_at`] writes it, handed to the sink as it goes: the result
    /// and patch of a large object are tens of megabytes of text, not held at once.
    fn value(&mut self, v: &Value, level: usize) -> Result<(), WriteError> {
        match v {
            // Deep values are small enough, and gojson checks the depth limit.
            Value::Array(items) if !items.is_empty() && level < CHUNKED_LEVELS => {
                self.buf.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.buf.push(',');
                    }
                    self.newline(level + 1);
                    self.value(item, level + 1)?;
                }
                self.newline(level);
                self.buf.push(']');
            }
            Value::Object(map) if !map.is_empty() && level < CHUNKED_LEVELS => {
                // Keys sorted by their bytes, as gojson (Go's encoding/json) sorts them.
                let mut entries: Vec<(&crate::value::Str, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                self.buf.push('{');
                for (i, (key, item)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        self.buf.push(',');
                    }
                    self.newline(level + 1);
                    gojson::write_string(key, &mut self.buf);
                    self.buf.push_str(": ");
                    self.value(item, level + 1)?;
                }
                self.newline(level);
                self.buf.push('}');
            }
            Value::String(s) => self.string(s),
            _ => gojson::write_pretty_at(v, &mut self.buf, level)?,
        }
        self.flush_if_full()
    }

    /// A string as [`gojson::write_string`] writes it; a long one (the annotation, 10 MB at
    /// 10 MB) handed to the sink in pieces, not held whole.
    fn string(&mut self, s: &str) {
        if s.len() <= CHUNK {
            gojson::write_string(s, &mut self.buf);
            return;
        }
        self.buf.push('"');
        let mut rest = s;
        while !rest.is_empty() {
            // Cut at a character boundary: escapes are per character, so the pieces escape
            // as the whole does.
            let mut cut = rest.len().min(CHUNK);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let (piece, tail) = rest.split_at(cut);
            let start = self.buf.len();
            gojson::write_string(piece, &mut self.buf);
            // Without the piece's own quotes.
            self.buf.pop();
            self.buf.remove(start);
            rest = tail;
            if self.buf.len() >= CHUNK && self.failed.is_none() {
                if let Err(e) = self.sink.write_all(self.buf.as_bytes()) {
                    self.failed = Some(e);
                }
                self.buf.clear();
            }
        }
        self.buf.push('"');
    }

    fn opt_string(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.string(s),
            None => self.buf.push_str("null"),
        }
    }

    fn bool(&mut self, b: bool) {
        self.buf.push_str(if b { "true" } else { "false" });
    }
}

/// The parts of a plan written around its fields.
struct Parts<'p> {
    annotation: &'p str,
    created: Option<&'p Value>,
    patch: Option<&'p Value>,
    patch_type: Option<PatchType>,
    result: &'p Value,
}

/// A field's path: its steps, or their text.
enum PathArg<'a> {
    Segs(&'a [Seg]),
    Text(&'a str),
}

/// One field as written.
struct FieldView<'a> {
    path: PathArg<'a>,
    action: Action,
    reason: &'a Reason,
    live: Option<&'a Value>,
    result: Option<&'a Value>,
}

impl<'a> FieldView<'a> {
    fn of(f: &'a FieldRef<'_, '_>) -> FieldView<'a> {
        FieldView {
            path: PathArg::Segs(f.path),
            action: f.action,
            reason: &f.reason,
            live: f.live,
            result: f.result,
        }
    }
}

/// Write the plan as `plan -o json` prints it (with the final newline).
///
/// # Errors
/// [`WriteError`]: the sink failed, or a value nests too deep to write.
pub fn write(p: &Plan, sink: &mut impl Write) -> Result<(), WriteError> {
    let parts = Parts {
        annotation: &p.annotation,
        created: p.created.as_ref(),
        patch: p.patch.as_ref(),
        patch_type: p.patch_type,
        result: &p.result,
    };
    write_with(&parts, sink, |emit| {
        for f in &p.fields {
            emit(FieldView {
                path: PathArg::Segs(&f.path.0),
                action: f.action,
                reason: &f.reason,
                live: f.live.as_ref(),
                result: f.result.as_ref(),
            });
        }
        Cow::Borrowed(&p.warnings)
    })
}

/// [`write`] the plan a [`Staged`] makes, each field written as the walk finds it: the fields
/// (about 500,000 at 10 MB) are never held.
///
/// # Errors
/// As [`write`].
pub fn write_staged(s: &Staged<'_, '_>, sink: &mut impl Write) -> Result<(), WriteError> {
    let parts = Parts {
        annotation: s.annotation(),
        created: s.created(),
        patch: s.patch.as_ref(),
        patch_type: s.patch_type,
        result: &s.result,
    };
    if s.is_large() {
        return write_with(&parts, sink, |emit| Cow::Owned(pipelined(s, emit)));
    }
    write_with(&parts, sink, |emit| {
        Cow::Owned(s.fields(|f| emit(FieldView::of(&f))))
    })
}

/// Fields handed from the walking thread to the writing one.
struct Batch<'v> {
    /// The fields' path texts, one after the other (made on the walking thread: the steps'
    /// shared texts stay there; one allocation for the batch).
    paths: String,
    fields: Vec<Sent<'v>>,
}

impl Batch<'_> {
    fn new() -> Self {
        Batch {
            paths: String::with_capacity(BATCH * 64),
            fields: Vec::with_capacity(BATCH),
        }
    }
}

/// A field handed from the walking thread to the writing one.
struct Sent<'v> {
    /// Where its path's text is in [`Batch::paths`].
    path: std::ops::Range<usize>,
    action: Action,
    reason: Reason,
    live: Option<&'v Value>,
    result: Option<&'v Value>,
}

/// Fields per hand-over.
const BATCH: usize = 2048;

/// [`Staged::fields`] on another thread, each field handed to `emit` here: the walk and the
/// writing take about the same time, and run side by side. The fields arrive in order, in
/// batches (a few at a time are held).
fn pipelined<'v>(s: &'v Staged<'_, '_>, emit: &mut dyn FnMut(FieldView<'_>)) -> Vec<Warning> {
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Batch<'v>>(4);
        let walker = scope.spawn(move || {
            let mut batch = Batch::new();
            let mut open = true;
            let warnings = s.fields(|f| {
                if !open {
                    return;
                }
                let start = batch.paths.len();
                let _ = write!(batch.paths, "{}", PathText(f.path));
                batch.fields.push(Sent {
                    path: start..batch.paths.len(),
                    action: f.action,
                    reason: f.reason,
                    live: f.live,
                    result: f.result,
                });
                if batch.fields.len() == BATCH {
                    let full = std::mem::replace(&mut batch, Batch::new());
                    // The writer stopped (it failed): nothing more to hand over.
                    open = tx.send(full).is_ok();
                }
            });
            if open && !batch.fields.is_empty() {
                let _ = tx.send(batch);
            }
            warnings
        });
        for batch in rx {
            for f in &batch.fields {
                emit(FieldView {
                    path: PathArg::Text(batch.paths.get(f.path.clone()).unwrap_or_default()),
                    action: f.action,
                    reason: &f.reason,
                    live: f.live,
                    result: f.result,
                });
            }
        }
        walker
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// Write the plan; `fields` hands every field to the function it is given, in order, and
/// returns the warnings.
fn write_with<'w>(
    p: &Parts<'_>,
    sink: &mut impl Write,
    fields: impl FnOnce(&mut dyn FnMut(FieldView<'_>)) -> Cow<'w, [Warning]>,
) -> Result<(), WriteError> {
    let mut out = Out {
        buf: String::with_capacity(CHUNK * 2),
        sink,
        scratch: String::new(),
        failed: None,
    };
    let first = &mut true;
    out.buf.push('{');
    out.key(first, "annotation", 1);
    out.string(p.annotation);
    if let Some(created) = p.created {
        out.key(first, "created", 1);
        out.value(created, 1)?;
    }
    out.key(first, "fields", 1);
    out.buf.push('[');
    let mut count = 0usize;
    let mut failed: Option<WriteError> = None;
    let warnings = fields(&mut |f| {
        if failed.is_some() {
            return;
        }
        if count > 0 {
            out.buf.push(',');
        }
        count += 1;
        out.newline(2);
        if let Err(e) = field(&mut out, &f) {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if count == 0 {
        out.buf.push(']');
    } else {
        out.newline(1);
        out.buf.push(']');
    }
    out.key(first, "patch", 1);
    match p.patch {
        Some(patch) => out.value(patch, 1)?,
        None => out.buf.push_str("null"),
    }
    out.key(first, "patchType", 1);
    out.opt_string(p.patch_type.map(|t| t.content_type()));
    out.key(first, "result", 1);
    out.value(p.result, 1)?;
    out.key(first, "warnings", 1);
    warnings_list(&mut out, &warnings);
    out.newline(0);
    out.buf.push_str("}\n");
    if let Some(e) = out.failed.take() {
        return Err(e.into());
    }
    out.sink.write_all(out.buf.as_bytes())?;
    out.sink.flush()?;
    Ok(())
}

/// One entry of `fields`, at level 2.
fn field<W: Write>(out: &mut Out<'_, W>, f: &FieldView<'_>) -> Result<(), WriteError> {
    let first = &mut true;
    out.buf.push('{');
    out.key(first, "action", 3);
    out.string(f.action.name());
    if let Some(live) = f.live {
        out.key(first, "live", 3);
        out.value(live, 3)?;
    }
    out.key(first, "path", 3);
    match f.path {
        PathArg::Segs(segs) => {
            out.scratch.clear();
            let _ = write!(out.scratch, "{}", PathText(segs));
            gojson::write_string(&out.scratch, &mut out.buf);
        }
        PathArg::Text(text) => gojson::write_string(text, &mut out.buf),
    }
    out.key(first, "reason", 3);
    reason(out, f.reason);
    if let Some(result) = f.result {
        out.key(first, "result", 3);
        out.value(result, 3)?;
    }
    out.newline(2);
    out.buf.push('}');
    out.flush_if_full()
}

/// A field's `reason`, at level 3.
fn reason<W: Write>(out: &mut Out<'_, W>, r: &Reason) {
    let first = &mut true;
    out.buf.push('{');
    if let Some(d) = &r.directive {
        out.key(first, "directive", 4);
        out.string(d);
    }
    out.key(first, "inConfig", 4);
    out.bool(r.presence().in_config);
    out.key(first, "inLastApplied", 4);
    out.bool(r.presence().in_last_applied);
    out.key(first, "inLive", 4);
    out.bool(r.presence().in_live);
    out.key(first, "kind", 4);
    out.string(&r.kind.text());
    if let Some(k) = r.merge_key() {
        out.key(first, "mergeKey", 4);
        out.string(k);
    }
    if let Some(n) = &r.note {
        out.key(first, "note", 4);
        out.string(n);
    }
    out.key(first, "row", 4);
    out.string(r.row().action);
    out.key(first, "table", 4);
    out.string(r.table().name());
    out.newline(3);
    out.buf.push('}');
}

/// The `warnings` list, at level 1.
fn warnings_list<W: Write>(out: &mut Out<'_, W>, warnings: &[Warning]) {
    if warnings.is_empty() {
        out.buf.push_str("[]");
        return;
    }
    out.buf.push('[');
    for (i, w) in warnings.iter().enumerate() {
        if i > 0 {
            out.buf.push(',');
        }
        out.newline(2);
        let first = &mut true;
        out.buf.push('{');
        out.key(first, "code", 3);
        out.string(w.code.as_str());
        out.key(first, "message", 3);
        out.string(&w.message);
        out.key(first, "path", 3);
        out.opt_string(w.path.as_deref());
        out.newline(2);
        out.buf.push('}');
    }
    out.newline(1);
    out.buf.push(']');
}

#[cfg(test)]
mod tests {
    use crate::cli::plan::{Format, render_via_value};
    use crate::examples;
    use crate::session::plan::compute;

    /// The direct writer and the serde route (`to_value`, then Go's `MarshalIndent`) agree on
    /// every built-in example: creates, patches, JSON merge patches, notes, directives, merge
    /// keys, warnings.
    #[test]
    fn writes_what_the_serde_route_writes() {
        let mut seen = 0;
        for example in examples::EXAMPLES {
            let source = crate::session::Source::from_example(example).unwrap();
            let Ok(p) = compute(&source.docs, None, true) else {
                continue;
            };
            let mut direct = Vec::new();
            super::write(&p, &mut direct).unwrap();
            let via_value = render_via_value(&p, Format::Json).unwrap();
            assert_eq!(
                String::from_utf8(direct).unwrap(),
                via_value,
                "{}",
                example.name
            );
            seen += 1;
        }
        assert!(seen > 10, "only {seen} examples planned");
    }

    /// The staged route (fields written as the walk finds them, the local object moved in)
    /// writes what the plan's writer writes, as JSON, YAML and text, on every built-in example.
    #[test]
    fn staged_writes_what_the_plan_writes() {
        use crate::engine::plan::{LastApplied, LiveLastApplied, PlanContext, stage_owned};
        use crate::engine::schema::Schema;
        let mut seen = 0;
        for example in examples::EXAMPLES {
            let source = crate::session::Source::from_example(example).unwrap();
            let docs = &source.docs;
            let Ok(p) = compute(docs, None, true) else {
                continue;
            };
            let context = PlanContext {
                live: docs.live.as_ref(),
                last_applied: docs
                    .last_applied
                    .as_ref()
                    .map_or(LastApplied::FromLive, LastApplied::Given),
                namespace: None,
                overwrite: true,
                live_last_applied: docs.live.as_ref().map(LiveLastApplied::read),
            };
            let staged = stage_owned(docs.local.clone(), context, Schema::embedded()).unwrap();
            let mut direct = Vec::new();
            super::write(&p, &mut direct).unwrap();
            let mut streamed = Vec::new();
            super::write_staged(&staged, &mut streamed).unwrap();
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                String::from_utf8(direct).unwrap(),
                "{}",
                example.name
            );
            assert_eq!(
                crate::cli::plan::text_staged(&staged),
                crate::cli::plan::text(&p),
                "{}",
                example.name
            );
            let mut yaml = Vec::new();
            crate::cli::plan::write_yaml_staged(&staged, &mut yaml).unwrap();
            assert_eq!(
                String::from_utf8(yaml).unwrap(),
                render_via_value(&p, Format::Yaml).unwrap(),
                "{}",
                example.name
            );
            seen += 1;
        }
        assert!(seen > 10, "only {seen} examples planned");
    }

    /// From 1 MB the plan splits its work between threads (lints beside the walk, the copy of
    /// live beside the diff, the halves side by side, the fields written as another thread
    /// walks them): the output is the same as one thread's.
    #[test]
    fn a_large_plan_on_several_threads_writes_what_one_thread_writes() {
        use crate::json;

        use crate::engine::plan::{
            LAST_APPLIED, LastApplied, LiveLastApplied, PlanContext, PlanInput, encode_annotation,
            plan, stage_owned,
        };
        use crate::engine::schema::Schema;
        let container = |i: usize, image: &str| {
            json!({"name": format!("c{i}"), "image": format!("{image}:{i}"),
                   "args": ["--a", format!("--b={i}")],
                   "env": (0..8).map(|j| json!({"name": format!("E{j}"), "value": format!("v{i}-{j}")})).collect::<Vec<_>>()})
        };
        let deployment = |containers: Vec<crate::value::Value>| {
            json!({"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "big", "namespace": "default"},
                   "spec": {"replicas": 3, "template": {"spec": {"containers": containers}}}})
        };
        // Few fields (several batches of them still), and a long value to pass 1 MB.
        let n = 300;
        let mut original = deployment((0..n).map(|i| container(i, "img")).collect());
        original["spec"]["template"]["metadata"] = json!({"labels": {"big": "x".repeat(1 << 20)}});
        let mut local = deployment(
            (1..=n)
                .map(|i| container(i, if i % 50 == 0 { "new" } else { "img" }))
                .collect(),
        );
        local["spec"]["template"]["metadata"] = original["spec"]["template"]["metadata"].clone();
        let mut live = original.clone();
        live["metadata"]["annotations"] =
            json!({ LAST_APPLIED: encode_annotation(&original).unwrap() });
        live["spec"]["template"]["spec"]["containers"][7]["args"] = json!(["--own"]);
        let input = PlanInput {
            local: &local,
            live: Some(&live),
            last_applied: LastApplied::FromLive,
            namespace: None,
            overwrite: true,
        };
        let p = plan(&input, Schema::embedded()).unwrap();
        assert!(p.annotation.len() > 1 << 20, "{}", p.annotation.len());
        assert!(!p.warnings.is_empty());
        let context = PlanContext {
            live_last_applied: Some(LiveLastApplied::read(&live)),
            ..input.context()
        };
        let staged = stage_owned(local.clone(), context, Schema::embedded()).unwrap();
        assert!(staged.is_large());
        let mut direct = Vec::new();
        super::write(&p, &mut direct).unwrap();
        let mut streamed = Vec::new();
        super::write_staged(&staged, &mut streamed).unwrap();
        assert!(String::from_utf8(streamed).unwrap() == String::from_utf8(direct).unwrap());
        assert!(crate::cli::plan::text_staged(&staged) == crate::cli::plan::text(&p));
    }
}
