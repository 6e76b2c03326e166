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

/// What a piece writes whole: an entry's value, one step of the plan (an item of `steps`,
/// the applier being this manager), or the fields at these positions (items of `fields`).
pub(super) enum Part<'e, 'a> {
    Entry(&'e Entry<'a>),
    Step(&'a SsaPlan, &'a str, usize),
    Fields(&'a [Field], Sides<'a>, Range<usize>),
}

/// The parts a list entry is written in, a piece each: the steps one by one, the fields
/// `fields` at a time (none for an empty list); `None` for an entry that is no list.
pub(super) fn list_parts<'e, 'a>(entry: &'e Entry<'a>, fields: usize) -> Option<Vec<Part<'e, 'a>>> {
    match entry {
        Entry::Steps(plan, manager) => Some(
            (0..plan.steps.len())
                .map(|i| Part::Step(plan, manager, i))
                .collect(),
        ),
        Entry::Fields(f, objects) => Some(
            (0..f.len())
                .step_by(fields.max(1))
                .map(|start| Part::Fields(f, *objects, start..(start + fields).min(f.len())))
                .collect(),
        ),
        _ => None,
    }
}

/// A piece: its leading text, then its part (none for the document's end).
struct Piece<'e, 'a> {
    lead: String,
    part: Option<Part<'e, 'a>>,
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
    let mut push = |lead: &mut String, part| {
        pieces.push(Piece {
            lead: std::mem::take(lead),
            part,
        });
    };
    for (i, (key, entry)) in entries.iter().enumerate() {
        lead.push_str(if i == 0 { "\n  " } else { ",\n  " });
        // The key as serde_json writes it (escaped; the keys are plain words).
        lead.push_str(&serde_json::to_string(key).unwrap_or_default());
        lead.push_str(": ");
        match list_parts(entry, fields) {
            None => push(&mut lead, Some(Part::Entry(entry))),
            Some(parts) if parts.is_empty() => lead.push_str("[]"),
            Some(parts) => {
                lead.push('[');
                for part in parts {
                    push(&mut lead, Some(part));
                }
                lead.push_str("\n  ]");
            }
        }
    }
    lead.push_str(if entries.is_empty() { "}\n" } else { "\n}\n" });
    push(&mut lead, None);
    pieces
}

/// The separator before the item at `index` of a list one level deep.
pub(super) fn item_separator(index: usize) -> &'static [u8] {
    if index == 0 { b"\n    " } else { b",\n    " }
}

/// One piece's text: its lead, then its part, handed over to `spill` past [`SPILL`] bytes.
fn make(piece: &Piece<'_, '_>, buf: &mut Vec<u8>, spill: &mut dyn Write) -> std::io::Result<()> {
    buf.extend_from_slice(piece.lead.as_bytes());
    let mut out = Text::new(buf, spill);
    match &piece.part {
        None => Ok(()),
        Some(Part::Entry(entry)) => pretty::to_writer_at(&mut out, 1, *entry),
        Some(Part::Step(plan, manager, i)) => {
            match (plan.steps.get(*i), plan.step_changes.get(*i)) {
                (Some(step), Some(changes)) => {
                    out.write_all(item_separator(*i))?;
                    pretty::to_writer_at(&mut out, 2, &StepJson::new(step, changes, manager))
                }
                _ => Ok(()),
            }
        }
        Some(Part::Fields(fields, objects, range)) => {
            let batch = fields.get(range.clone()).unwrap_or_default();
            for (i, f) in batch.iter().enumerate() {
                out.write_all(item_separator(range.start + i))?;
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
