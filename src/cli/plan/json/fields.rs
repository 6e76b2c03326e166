//! The `fields` list of `plan -o json`: each field's entry, its keys' text (with the commas and
//! the indent before them) made once for the level the fields sit at, and each distinct reason
//! written once and copied for every field that shares it.

use std::io::Write;

use super::{Out, WriteError, reason};
use crate::engine::gojson;
use crate::engine::plan::{Field, PathTexts, Plan};

/// The fields `range` (positions among the fields) of `fields`, each after its separator.
pub(super) fn fields<W: Write>(
    out: &mut Out<'_, W>,
    p: &Plan,
    range: std::ops::Range<usize>,
    level: usize,
) -> Result<(), WriteError> {
    let mut paths = PathTexts::default();
    let mut text = FieldText::new(out.pretty, level + 2);
    let start = range.start;
    let fields = p.tree.fields_from(start + 1, &p.docs()).take(range.len());
    for (i, f) in fields.enumerate() {
        if start + i > 0 {
            out.buf.push(',');
        }
        out.newline(level + 2);
        let reason = p.tree.reason_index(f.id);
        field(
            out,
            &f,
            paths.next(&p.tree, f.id),
            reason,
            &mut text,
            level + 2,
        )?;
    }
    Ok(())
}

/// What every field's entry at one level writes alike: the text around its values, as
/// [`Out::key`] and [`Out::newline`] write it, and each distinct reason's (by
/// [`Tree::reason_index`]), after its key, once met: most fields share theirs with thousands
/// of others.
///
/// [`Tree::reason_index`]: crate::engine::plan::Tree::reason_index
struct FieldText {
    action: String,
    live: String,
    path: String,
    reason: String,
    result: String,
    close: String,
    reasons: Vec<Option<String>>,
}

impl FieldText {
    fn new(pretty: bool, level: usize) -> FieldText {
        let text = |write: &dyn Fn(&mut Out<'_, std::io::Sink>)| {
            let mut sink = std::io::sink();
            let mut out = Out::piece(String::new(), &mut sink, pretty, usize::MAX);
            write(&mut out);
            out.buf
        };
        let key = |name: &'static str| {
            text(&|out| {
                // Every key but the first follows another.
                let first = &mut (name == "action");
                if name == "action" {
                    out.buf.push('{');
                }
                out.key(first, name, level + 1);
            })
        };
        FieldText {
            action: key("action"),
            live: key("live"),
            path: key("path"),
            reason: key("reason"),
            result: key("result"),
            close: text(&|out| {
                out.newline(level);
                out.buf.push('}');
            }),
            reasons: Vec::new(),
        }
    }
}

/// One entry of `fields`, at `level`; `index`, the index of its reason among the tree's.
fn field<W: Write>(
    out: &mut Out<'_, W>,
    f: &Field<'_, '_>,
    path: &str,
    index: Option<usize>,
    text: &mut FieldText,
    level: usize,
) -> Result<(), WriteError> {
    out.buf.push_str(&text.action);
    out.string(f.action.name());
    if let Some(live) = f.live {
        out.buf.push_str(&text.live);
        out.value(live, level + 1)?;
    }
    out.buf.push_str(&text.path);
    gojson::write_string(path, &mut out.buf);
    match index {
        Some(i) => {
            if text.reasons.len() <= i {
                text.reasons.resize(i + 1, None);
            }
            if let Some(Some(reason)) = text.reasons.get(i) {
                out.buf.push_str(reason);
            } else {
                let start = out.buf.len();
                out.buf.push_str(&text.reason);
                reason(out, f.reason, level + 1);
                let written = out.buf.get(start..).unwrap_or_default().to_owned();
                if let Some(slot) = text.reasons.get_mut(i) {
                    *slot = Some(written);
                }
            }
        }
        None => {
            out.buf.push_str(&text.reason);
            reason(out, f.reason, level + 1);
        }
    }
    if let Some(result) = f.result {
        out.buf.push_str(&text.result);
        out.value(result, level + 1)?;
    }
    out.buf.push_str(&text.close);
    out.flush_if_full()
}
