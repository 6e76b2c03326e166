//! `plan -o yaml` (and the many-object YAML documents) written a field at a time: what
//! `goyaml` writes of the whole plan as one value (a 10 MB object has half a million fields: as
//! one value they took 1.7 GB), laid out here with `goyaml`'s `YamlOut` and handed to the sink
//! in chunks (`super::chunked`).

use std::io::Write;

use crate::value::Map;
#[cfg(test)]
use crate::value::Value;

use super::chunked::Out;
use super::entries::{self, Scalar};
use crate::engine::goyaml::YamlOut;
use crate::engine::plan::{Field, PathTexts, Plan, Reason, Warning};

impl Out<'_> {
    fn scalar(&mut self, v: &Scalar<'_>) {
        match v {
            Scalar::Str(s) => self.y.str_value(s),
            Scalar::Text(s) => self.y.str_value(s),
            Scalar::Bool(b) => self.y.plain_value(if *b { "true" } else { "false" }),
        }
    }
}

/// Write the plan as `plan -o yaml` prints it.
///
/// # Errors
/// The sink's.
pub fn write(p: &Plan, sink: &mut impl Write) -> std::io::Result<()> {
    let mut out = Out::new(sink);
    plan(&mut out, p, 0)?;
    out.y.finish();
    out.flush()?;
    out.sink.flush()
}

/// Write one object's document of the many-object output: `---`, then `entry`'s keys with the
/// plan's under `plan`, when there is one.
///
/// # Errors
/// The sink's.
pub fn write_entry(entry: &Map, p: Option<&Plan>, sink: &mut impl Write) -> std::io::Result<()> {
    sink.write_all(b"---\n")?;
    let mut out = Out::new(sink);
    let mut keys: Vec<&str> = entry.keys().map(|k| k.as_str()).collect();
    if p.is_some() {
        keys.push("plan");
    }
    keys.sort_unstable();
    out.y.begin_mapping();
    for key in keys {
        out.y.key(key);
        match (entry.get(key), p) {
            (Some(v), _) => out.y.value(v, 1),
            (None, Some(p)) => plan(&mut out, p, 1)?,
            (None, None) => {}
        }
    }
    out.y.end_mapping();
    out.y.finish();
    out.flush()
}

/// The plan, a mapping at `depth`.
fn plan(out: &mut Out<'_>, p: &Plan, depth: usize) -> std::io::Result<()> {
    out.y.begin_mapping();
    out.y.key("annotation");
    out.y.str_value(p.annotation());
    if let Some(created) = p.created() {
        out.y.key("created");
        out.y.value(created, depth + 1);
    }
    out.flush_if_full()?;
    out.y.key("fields");
    if p.tree.is_empty() {
        out.y.empty_list();
    } else {
        out.y.begin_list();
        if p.is_large() {
            fields_on_two_threads(out, p, depth)?;
        } else {
            fields(out, p, 0..p.tree.len(), depth)?;
        }
        out.y.end_list();
    }
    out.y.key("patch");
    match &p.patch {
        Some(patch) => out.y.value(patch, depth + 1),
        None => out.y.plain_value("null"),
    }
    out.y.key("patchType");
    match p.patch_type {
        Some(t) => out.y.str_value(t.content_type()),
        None => out.y.plain_value("null"),
    }
    out.flush_if_full()?;
    out.y.key("result");
    out.y.value(&p.result, depth + 1);
    out.flush_if_full()?;
    out.y.key("warnings");
    warnings(out, &p.warnings);
    out.y.end_mapping();
    Ok(())
}

/// The items `range` (positions among the fields) of `fields`.
fn fields(
    out: &mut Out<'_>,
    p: &Plan,
    range: std::ops::Range<usize>,
    depth: usize,
) -> std::io::Result<()> {
    let mut paths = PathTexts::default();
    let mut reasons = Reasons::default();
    for f in p
        .tree
        .fields_from(range.start + 1, &p.docs())
        .take(range.len())
    {
        out.y.item();
        let index = p.tree.reason_index(f.id);
        field(
            out,
            &f,
            paths.next(&p.tree, f.id),
            (index, &mut reasons),
            depth + 2,
        );
        out.flush_if_full()?;
    }
    Ok(())
}

/// Fields written a batch at a time.
const BATCH: usize = 4096;

/// [`fields`] of a large plan, as the JSON writer does it: every other batch on another thread.
fn fields_on_two_threads(out: &mut Out<'_>, p: &Plan, depth: usize) -> std::io::Result<()> {
    let n = p.tree.len();
    let batch = |b: usize| b * BATCH..((b + 1) * BATCH).min(n);
    out.on_two_threads(n.div_ceil(BATCH), |out, b| fields(out, p, batch(b), depth))
}

/// Each distinct reason the fields at one depth have met (by [`Tree::reason_index`]): its
/// text and the writer's state after it. Every field's `reason` starts in the same state, so
/// the text is the same for every field that shares the reason: written once, then copied.
///
/// [`Tree::reason_index`]: crate::engine::plan::Tree::reason_index
#[derive(Default)]
struct Reasons(Vec<Option<(String, YamlOut)>>);

/// One item of `fields`, a mapping at `depth`; its reason's index among the tree's.
fn field(
    out: &mut Out<'_>,
    f: &Field<'_, '_>,
    path: &str,
    (index, reasons): (Option<usize>, &mut Reasons),
    depth: usize,
) {
    out.y.begin_mapping();
    out.y.key("action");
    out.y.str_value(f.action.name());
    if let Some(live) = f.live {
        out.y.key("live");
        out.y.value(live, depth + 1);
    }
    out.y.key("path");
    out.y.str_value(path);
    out.y.key("reason");
    match index {
        Some(i) => {
            if reasons.0.len() <= i {
                reasons.0.resize_with(i + 1, || None);
            }
            if let Some(slot) = reasons.0.get_mut(i)
                && slot.is_none()
            {
                let mut sink = std::io::sink();
                let mut written = Out {
                    y: out.y.fork(),
                    sink: &mut sink,
                };
                reason(&mut written, f.reason);
                let mut y = written.y;
                *slot = Some((std::mem::take(y.text()), y));
            }
            if let Some(Some((text, after))) = reasons.0.get(i) {
                out.y.text().push_str(text);
                out.y.follow(after);
            }
        }
        None => reason(out, f.reason),
    }
    if let Some(result) = f.result {
        out.y.key("result");
        out.y.value(result, depth + 1);
    }
    out.y.end_mapping();
}

fn reason(out: &mut Out<'_>, r: &Reason) {
    out.y.begin_mapping();
    for (key, value) in entries::reason(r) {
        out.y.key(key);
        out.scalar(&value);
    }
    out.y.end_mapping();
}

fn warnings(out: &mut Out<'_>, warnings: &[Warning]) {
    if warnings.is_empty() {
        out.y.empty_list();
        return;
    }
    out.y.begin_list();
    for w in warnings {
        out.y.item();
        out.y.begin_mapping();
        out.y.key("code");
        out.y.str_value(w.code.as_str());
        out.y.key("message");
        out.y.str_value(&w.message);
        out.y.key("path");
        match &w.path {
            Some(path) => out.y.str_value(path),
            None => out.y.plain_value("null"),
        }
        out.y.end_mapping();
    }
    out.y.end_list();
}

/// [`fn@write`] into a string.
pub(super) fn to_string(p: &Plan) -> std::io::Result<String> {
    let mut out = Vec::new();
    write(p, &mut out)?;
    String::from_utf8(out).map_err(std::io::Error::other)
}

/// [`write_entry`] into a string.
pub(super) fn entry_to_string(entry: &Map, p: Option<&Plan>) -> std::io::Result<String> {
    let mut out = Vec::new();
    write_entry(entry, p, &mut out)?;
    String::from_utf8(out).map_err(std::io::Error::other)
}

/// The plan as one value, as its JSON and YAML outputs write it: what the writers are checked
/// against.
#[cfg(test)]
pub(super) fn plan_value(p: &Plan) -> Value {
    use crate::json;
    let mut paths = PathTexts::default();
    let fields: Vec<Value> = p
        .fields()
        .map(|f| {
            let mut r = Map::new();
            for (k, v) in entries::reason(f.reason) {
                r.insert(
                    k,
                    match v {
                        Scalar::Str(s) => Value::String(s.into()),
                        Scalar::Text(s) => Value::String(s.as_ref().into()),
                        Scalar::Bool(b) => Value::Bool(b),
                    },
                );
            }
            let mut m = Map::new();
            m.insert("action", json!(f.action.name()));
            m.insert("path", json!(paths.next(&p.tree, f.id)));
            m.insert("reason", Value::Object(r));
            if let Some(v) = f.live {
                m.insert("live", v.clone());
            }
            if let Some(v) = f.result {
                m.insert("result", v.clone());
            }
            Value::Object(m)
        })
        .collect();
    let warnings: Vec<Value> = p
        .warnings
        .iter()
        .map(|w| json!({"code": w.code.as_str(), "message": w.message, "path": w.path}))
        .collect();
    let mut m = Map::new();
    m.insert("annotation", json!(p.annotation()));
    if let Some(c) = p.created() {
        m.insert("created", c.clone());
    }
    m.insert("fields", Value::Array(fields));
    m.insert("patch", p.patch.clone().unwrap_or(Value::Null));
    m.insert(
        "patchType",
        p.patch_type
            .map_or(Value::Null, |t| json!(t.content_type())),
    );
    m.insert("result", p.result.clone());
    m.insert("warnings", Value::Array(warnings));
    Value::Object(m)
}
