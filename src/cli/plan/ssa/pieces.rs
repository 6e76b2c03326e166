//! `plan --server-side -o json` of a big plan as a row of pieces, made on two threads and
//! written in order ([`crate::cli::plan::ordered`]), as the client-side plan's `-o json` is:
//! each entry's value (the patch, the result), each step, and the fields a batch at a time,
//! every piece after the text that leads to it (keys, brackets, indents, commas) laid out
//! first, so that the pieces joined are [`super::write::json_one`]'s text byte for byte.
//! A piece that grows past [`SPILL`] bytes (a step holds the whole object and its
//! managedFields) hands its text over as it is made. The result's and each step's managedFields
//! are written by the piece that asks for them first.

use std::io::Write;
use std::ops::Range;

use super::pretty;
use super::write::{Entry, FieldJson, StepJson};
use crate::cli::plan::ordered;
use crate::session::ssa::{Field, Sides, SsaPlan};

/// Fields one piece writes (about 700 KB of text at 1,000 containers × 100 env vars).
pub(super) const FIELDS: usize = 1024;

/// A piece's text past this many bytes is handed over as it is made, not held whole.
pub(super) const SPILL: usize = 1 << 21;

/// Whether a plan's `-o json` and `-o yaml` are written in pieces: a big object's, or more
/// than two pieces of fields.
pub(super) fn in_pieces(plan: &SsaPlan) -> bool {
    plan.fields.len() > 2 * FIELDS || crate::engine::ssa::par::is_big(&plan.result)
}

/// What a piece writes after its leading text.
enum Body<'e, 'a> {
    Nothing,
    /// An entry's value, one level deep.
    Entry(&'e Entry<'a>),
    /// A step of the plan, an item of `steps`, the applier being this manager.
    Step(&'a SsaPlan, &'a str, usize),
    /// The fields at these positions, items of `fields`, each after its separator.
    Fields(&'e [Field], Sides<'a>, Range<usize>),
}

struct Piece<'e, 'a> {
    lead: String,
    body: Body<'e, 'a>,
}

/// The document `{entries}` and its final newline, written to `sink` in pieces of at most
/// `fields` fields.
///
/// # Errors
/// The sink's.
pub(super) fn write(
    entries: &[(&'static str, Entry<'_>)],
    fields: usize,
    sink: &mut impl Write,
) -> std::io::Result<()> {
    let pieces = lay_out(entries, fields.max(1));
    ordered::write_pieces(&pieces, make, sink)
}

/// The pieces of the document, in order.
fn lay_out<'e, 'a>(entries: &'e [(&'static str, Entry<'a>)], fields: usize) -> Vec<Piece<'e, 'a>> {
    let mut pieces = Vec::new();
    let mut lead = String::from("{");
    let mut push = |lead: &mut String, body| {
        pieces.push(Piece {
            lead: std::mem::take(lead),
            body,
        });
    };
    for (i, (key, entry)) in entries.iter().enumerate() {
        lead.push_str(if i == 0 { "\n  " } else { ",\n  " });
        // The key as serde_json writes it (escaped; the keys are plain words).
        lead.push_str(&serde_json::to_string(key).unwrap_or_default());
        lead.push_str(": ");
        let items = match entry {
            Entry::Steps(plan, _) => plan.steps.len(),
            Entry::Fields(f, _) => f.len(),
            _ => {
                push(&mut lead, Body::Entry(entry));
                continue;
            }
        };
        if items == 0 {
            lead.push_str("[]");
            continue;
        }
        lead.push('[');
        match entry {
            Entry::Fields(f, objects) => {
                for start in (0..items).step_by(fields) {
                    let range = start..(start + fields).min(items);
                    push(&mut lead, Body::Fields(f, *objects, range));
                }
            }
            Entry::Steps(plan, manager) => {
                for step in 0..items {
                    lead.push_str(if step == 0 { "\n    " } else { ",\n    " });
                    push(&mut lead, Body::Step(plan, manager, step));
                }
            }
            _ => {}
        }
        lead.push_str("\n  ]");
    }
    lead.push_str(if entries.is_empty() { "}\n" } else { "\n}\n" });
    push(&mut lead, Body::Nothing);
    pieces
}

/// One piece's text: its lead, then its body, handed over to `spill` past [`SPILL`] bytes.
fn make(piece: &Piece<'_, '_>, buf: &mut Vec<u8>, spill: &mut dyn Write) -> std::io::Result<()> {
    buf.extend_from_slice(piece.lead.as_bytes());
    let mut out = Text::new(buf, spill);
    match &piece.body {
        Body::Nothing => Ok(()),
        Body::Entry(entry) => pretty::to_writer_at(&mut out, 1, *entry),
        Body::Step(plan, manager, i) => match (plan.steps.get(*i), plan.step_changes.get(*i)) {
            (Some(step), Some(changes)) => {
                pretty::to_writer_at(&mut out, 2, &StepJson::new(step, changes, manager))
            }
            _ => Ok(()),
        },
        Body::Fields(fields, objects, range) => {
            for (i, f) in fields
                .get(range.clone())
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                let first = range.start + i == 0;
                out.write_all(if first { b"\n    " } else { b",\n    " })?;
                pretty::to_writer_at(&mut out, 2, &FieldJson(f, *objects))?;
            }
            Ok(())
        }
    }
}

/// A piece's text as it is made: in its buffer, handed over past [`SPILL`] bytes.
pub(super) struct Text<'b> {
    buf: &'b mut Vec<u8>,
    spill: &'b mut dyn Write,
}

impl<'b> Text<'b> {
    pub(super) fn new(buf: &'b mut Vec<u8>, spill: &'b mut dyn Write) -> Self {
        Text { buf, spill }
    }
}

impl Write for Text<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if self.buf.len() >= SPILL {
            self.spill.write_all(self.buf)?;
            self.buf.clear();
        }
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
