//! `plan -o json` (and the many-object JSON lines) written straight from the [`Plan`], a field
//! at a time, without a `crate::value::Value` copy of it.
//!
//! The output is byte for byte what Go's `json.MarshalIndent` (or `json.Marshal`, for JSON lines)
//! of the plan gives: keys sorted by bytes, two-space indent, empty `[]`/`{}` compact; the tests
//! below hold it equal to gojson's writing of the plan as one value on every built-in example.
//! At 10 MB the plan has about 500,000 fields; the text (about 270 MB there) is written out in
//! chunks, never held whole.

use std::io::Write;

mod fields;
mod pieces;

use crate::value::{Map, Value};

use super::entries::{self, Scalar};
use crate::engine::gojson::{self, GoJsonError};
use crate::engine::plan::{Plan, Reason, Warning};
use fields::fields;

/// Write buffered text to the sink once it holds this much.
const CHUNK: usize = 1 << 16;

/// The indent, copied a run at a time.
const SPACES: &str = "                                                                ";

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
    /// Indented (`MarshalIndent`), or compact (`Marshal`).
    pretty: bool,
    /// A write that failed where no error could be returned ([`Out::string`]): reported by
    /// the next flush.
    failed: Option<std::io::Error>,
    /// Hand the text to the sink once it holds this much ([`CHUNK`]; more for a piece of
    /// [`pieces`]).
    chunk: usize,
}

impl<'w, W: Write> Out<'w, W> {
    fn new(sink: &'w mut W, pretty: bool) -> Self {
        Out {
            buf: String::with_capacity(CHUNK * 2),
            sink,
            pretty,
            failed: None,
            chunk: CHUNK,
        }
    }

    /// An `Out` that writes into `buf`, handing it to the sink only once it holds `chunk`
    /// bytes: a piece of [`pieces`].
    fn piece(buf: String, sink: &'w mut W, pretty: bool, chunk: usize) -> Self {
        Out {
            buf,
            sink,
            pretty,
            failed: None,
            chunk,
        }
    }

    /// Hand what is left to the sink.
    fn finish(mut self) -> Result<(), WriteError> {
        if let Some(e) = self.failed.take() {
            return Err(e.into());
        }
        self.sink.write_all(self.buf.as_bytes())?;
        self.sink.flush()?;
        Ok(())
    }

    fn flush_if_full(&mut self) -> Result<(), WriteError> {
        if let Some(e) = self.failed.take() {
            return Err(e.into());
        }
        if self.buf.len() >= self.chunk {
            self.sink.write_all(self.buf.as_bytes())?;
            self.buf.clear();
        }
        Ok(())
    }

    fn newline(&mut self, level: usize) {
        if !self.pretty {
            return;
        }
        self.buf.push('\n');
        let mut spaces = 2 * level;
        while spaces > 0 {
            let n = spaces.min(SPACES.len());
            self.buf.push_str(&SPACES[..n]);
            spaces -= n;
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
        self.buf.push_str(if self.pretty { ": " } else { ":" });
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
                    self.buf.push_str(if self.pretty { ": " } else { ":" });
                    self.value(item, level + 1)?;
                }
                self.newline(level);
                self.buf.push('}');
            }
            Value::String(s) => self.string(s),
            _ if self.pretty => gojson::write_pretty_at(v, &mut self.buf, level)?,
            _ => gojson::write_compact_at(v, &mut self.buf, level)?,
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
        self.string_body(s);
        self.buf.push('"');
    }

    /// `s` escaped as [`gojson::write_string`] escapes it, without the quotes, handed to the
    /// sink in pieces.
    fn string_body(&mut self, s: &str) {
        for piece in string_parts(s, CHUNK) {
            let start = self.buf.len();
            gojson::write_string(piece, &mut self.buf);
            // Without the piece's own quotes.
            self.buf.pop();
            self.buf.remove(start);
            if self.buf.len() >= self.chunk && self.failed.is_none() {
                if let Err(e) = self.sink.write_all(self.buf.as_bytes()) {
                    self.failed = Some(e);
                }
                self.buf.clear();
            }
        }
    }

    fn opt_string(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.string(s),
            None => self.buf.push_str("null"),
        }
    }

    fn scalar(&mut self, v: &Scalar<'_>) {
        match v {
            Scalar::Str(s) => self.string(s),
            Scalar::Text(s) => self.string(s),
            Scalar::Bool(b) => self.buf.push_str(if *b { "true" } else { "false" }),
        }
    }
}

/// Write the plan as `plan -o json` prints it (with the final newline).
///
/// # Errors
/// [`WriteError`]: the sink failed, or a value nests too deep to write.
pub fn write(p: &Plan, sink: &mut impl Write) -> Result<(), WriteError> {
    if p.is_large() {
        return pieces::write(p, sink);
    }
    let mut out = Out::new(sink, true);
    plan(&mut out, p, 0)?;
    out.buf.push('\n');
    out.finish()
}

/// Write one object's line of the many-object output (JSON lines): `entry`'s keys with the
/// plan's under `plan`, when there is one, compact (with the final newline).
///
/// # Errors
/// As [`fn@write`].
pub fn write_entry(entry: &Map, p: Option<&Plan>, sink: &mut impl Write) -> Result<(), WriteError> {
    let mut out = Out::new(sink, false);
    let mut keys: Vec<&str> = entry.keys().map(|k| k.as_str()).collect();
    if p.is_some() {
        keys.push("plan");
    }
    keys.sort_unstable();
    let first = &mut true;
    out.buf.push('{');
    for key in keys {
        out.key(first, key, 1);
        match (entry.get(key), p) {
            (Some(v), _) => out.value(v, 1)?,
            (None, Some(p)) => plan(&mut out, p, 1)?,
            (None, None) => {}
        }
    }
    out.buf.push_str("}\n");
    out.finish()
}

/// The plan, as a value at `level`.
fn plan<W: Write>(out: &mut Out<'_, W>, p: &Plan, level: usize) -> Result<(), WriteError> {
    let first = &mut true;
    out.buf.push('{');
    out.key(first, "annotation", level + 1);
    out.string(p.annotation());
    if let Some(created) = p.created() {
        out.key(first, "created", level + 1);
        out.value(created, level + 1)?;
    }
    out.key(first, "fields", level + 1);
    out.buf.push('[');
    if p.is_large() {
        fields_on_two_threads(out, p, level)?;
    } else {
        fields(out, p, 0..p.tree.len(), level)?;
    }
    if !p.tree.is_empty() {
        out.newline(level + 1);
    }
    out.buf.push(']');
    out.key(first, "patch", level + 1);
    match &p.patch {
        Some(patch) => out.value(patch, level + 1)?,
        None => out.buf.push_str("null"),
    }
    out.key(first, "patchType", level + 1);
    out.opt_string(p.patch_type.map(|t| t.content_type()));
    out.key(first, "result", level + 1);
    out.value(&p.result, level + 1)?;
    out.key(first, "warnings", level + 1);
    warnings_list(out, &p.warnings, level + 1);
    out.newline(level);
    out.buf.push('}');
    out.flush_if_full()
}

/// Fields written a batch at a time.
const BATCH: usize = 4096;

/// [`fn@fields`] of a large plan: every other batch is written on another thread (writing a field
/// costs about what finding it did), in order.
fn fields_on_two_threads<W: Write>(
    out: &mut Out<'_, W>,
    p: &Plan,
    level: usize,
) -> Result<(), WriteError> {
    let n = p.tree.len();
    let batch = |b: usize| b * BATCH..((b + 1) * BATCH).min(n);
    let batches = n.div_ceil(BATCH);
    let pretty = out.pretty;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Vec<u8>, WriteError>>(2);
        scope.spawn(move || {
            for b in (1..batches).step_by(2) {
                let mut text = Vec::new();
                let written = {
                    let mut other = Out::new(&mut text, pretty);
                    fields(&mut other, p, batch(b), level).and_then(|()| other.finish())
                };
                let written = written.map(|()| text);
                // The writer stopped (it failed): nothing more to hand over.
                if tx.send(written).is_err() {
                    break;
                }
            }
        });
        for b in 0..batches {
            if b % 2 == 0 {
                fields(out, p, batch(b), level)?;
            } else {
                let text = rx
                    .recv()
                    .map_err(|_| std::io::Error::other("the writing thread stopped"))??;
                if let Some(e) = out.failed.take() {
                    return Err(e.into());
                }
                out.sink.write_all(out.buf.as_bytes())?;
                out.buf.clear();
                out.sink.write_all(&text)?;
            }
        }
        Ok(())
    })
}

/// A field's `reason`, at `level`.
fn reason<W: Write>(out: &mut Out<'_, W>, r: &Reason, level: usize) {
    let first = &mut true;
    out.buf.push('{');
    for (key, value) in entries::reason(r) {
        out.key(first, key, level + 1);
        out.scalar(&value);
    }
    out.newline(level);
    out.buf.push('}');
}

/// The `warnings` list, at `level`.
fn warnings_list<W: Write>(out: &mut Out<'_, W>, warnings: &[Warning], level: usize) {
    if warnings.is_empty() {
        out.buf.push_str("[]");
        return;
    }
    out.buf.push('[');
    for (i, w) in warnings.iter().enumerate() {
        if i > 0 {
            out.buf.push(',');
        }
        out.newline(level + 1);
        let first = &mut true;
        out.buf.push('{');
        out.key(first, "code", level + 2);
        out.string(w.code.as_str());
        out.key(first, "message", level + 2);
        out.string(&w.message);
        out.key(first, "path", level + 2);
        out.opt_string(w.path.as_deref());
        out.newline(level + 1);
        out.buf.push('}');
    }
    out.newline(level);
    out.buf.push(']');
}

/// `s` in parts of at most `max` bytes (at least one character each), cut at character
/// boundaries: escapes are per character, so the parts escape as the whole does.
fn string_parts(s: &str, max: usize) -> impl Iterator<Item = &str> {
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut cut = rest.len().min(max);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        if cut == 0 {
            // `max` is smaller than the first character: take that character whole.
            cut = rest.chars().next().map_or(rest.len(), char::len_utf8);
        }
        let (part, tail) = rest.split_at(cut);
        rest = tail;
        Some(part)
    })
}

#[cfg(test)]
mod tests {
    use crate::cli::plan::yaml::plan_value;
    use crate::cli::plan::{Format, render};
    use crate::engine::gojson;
    use crate::engine::jsonmerge::to_yaml;
    use crate::examples;
    use crate::session::plan::compute;

    use super::string_parts;

    #[test]
    fn string_parts_cut_at_character_boundaries() {
        let s = "aé日b";
        let parts: Vec<&str> = string_parts(s, 2).collect();
        assert_eq!(parts, ["a", "é", "日", "b"]);
        assert_eq!(string_parts(s, 4).collect::<String>(), s);
        assert_eq!(string_parts("", 4).count(), 0);
    }

    /// The writers write what gojson and goyaml write of the plan as one value, on every
    /// built-in example: creates, patches, JSON merge patches, notes, directives, merge keys,
    /// warnings.
    #[test]
    fn writes_what_the_whole_value_writes() {
        let mut seen = 0;
        for example in examples::EXAMPLES {
            let source = crate::session::Source::from_example(example).unwrap();
            let Ok(p) = compute(&source.docs, None, true) else {
                continue;
            };
            let value = plan_value(&p);
            let mut pretty = gojson::to_string_pretty(&value).unwrap();
            pretty.push('\n');
            assert_eq!(
                render(&p, Format::Json).unwrap(),
                pretty,
                "{}",
                example.name
            );
            assert_eq!(
                render(&p, Format::Yaml).unwrap(),
                to_yaml(&value),
                "{}",
                example.name
            );
            let mut entry = crate::value::Map::new();
            entry.insert("source", crate::json!("x.yaml"));
            let mut whole = entry.clone();
            whole.insert("plan", value);
            let whole = crate::value::Value::Object(whole);
            let mut line = Vec::new();
            super::write_entry(&entry, Some(&p), &mut line).unwrap();
            let mut want = gojson::to_string(&whole).unwrap();
            want.push('\n');
            assert_eq!(String::from_utf8(line).unwrap(), want, "{}", example.name);
            assert_eq!(
                crate::cli::plan::yaml::entry_to_string(&entry, Some(&p)).unwrap(),
                format!("---\n{}", to_yaml(&whole)),
                "{}",
                example.name
            );
            seen += 1;
        }
        assert!(seen > 10, "only {seen} examples planned");
    }

    /// From 1 MB the plan splits its work between threads (lints beside the walk, the copy of
    /// live beside the diff, the halves side by side): the output is the same as one
    /// thread's, and the owned route's is the borrowed one's.
    #[test]
    fn a_large_plan_on_several_threads_writes_what_one_thread_writes() {
        use crate::json;

        use crate::engine::plan::{
            LAST_APPLIED, LastApplied, LiveLastApplied, PlanContext, PlanInput, encode_annotation,
            plan, plan_owned,
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
        // Few fields, and a long value to pass 1 MB.
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
        assert!(p.is_large(), "{}", p.annotation().len());
        assert!(!p.warnings.is_empty());
        let context = PlanContext {
            live_last_applied: Some(LiveLastApplied::read(&live)),
            live: Some(std::borrow::Cow::Owned(live.clone())),
            ..input.context()
        };
        let owned = plan_owned(local.clone(), context, Schema::embedded()).unwrap();
        for format in [Format::Json, Format::Yaml, Format::Text] {
            assert!(render(&p, format).unwrap() == render(&owned, format).unwrap());
        }
        let value = plan_value(&p);
        let mut pretty = gojson::to_string_pretty(&value).unwrap();
        pretty.push('\n');
        assert!(render(&p, Format::Json).unwrap() == pretty);
        // The YAML writer's batches on two threads likewise (more than one batch of fields).
        assert!(p.tree.len() > 4096, "{}", p.tree.len());
        assert!(render(&p, Format::Yaml).unwrap() == crate::engine::goyaml::to_yaml(&value));
    }
}
