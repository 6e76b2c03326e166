//! `plan --server-side -o yaml` of a big plan as a row of pieces made on two threads and
//! written in order, as its `-o json` ([`crate::cli::plan::ssa::pieces`]): the fields a batch at
//! a time, each entry's value, each step, the warnings.
//!
//! The document is laid out first as a run of steps of the writer: light ones (a key, a
//! list's opening and end, a short string) and heavy ones (a value, a step, a batch of
//! fields). Each piece is one heavy step and the light ones after it, written from the
//! writer's state just before the heavy one: that state comes from the light steps alone,
//! as each heavy one starts after a key or at a list item, where the line and its indent are
//! set whatever came before (a key or an item starts on a new line). The light steps after a
//! heavy one are written by its piece, from the state the heavy one leaves (a value ending in
//! a `|` block has already broken its line).

use std::io::Write;

use super::super::pieces::{Part, Text, list_parts};
use super::super::write::Entry;
use super::rank;
use crate::cli::plan::chunked::Out;
use crate::cli::plan::ordered;
use crate::engine::goyaml::YamlOut;

/// A light step of the writer.
enum Light<'a> {
    BeginMapping,
    EndMapping,
    Key(&'static str),
    Str(&'a str),
    EmptyList,
    BeginList,
    EndList,
    Finish,
}

/// A heavy step, a [`Part`] (none for the first piece), and the light steps after it, from
/// `start`.
struct Piece<'e, 'a> {
    start: YamlOut,
    heavy: Option<Part<'e, 'a>>,
    light: Vec<Light<'a>>,
}

/// The document of `entries` (a mapping; its keys sorted here in go-yaml's order), written to
/// `sink` in pieces of at most `fields` fields.
///
/// # Errors
/// The sink's.
pub(in crate::cli::plan::ssa) fn write(
    mut entries: Vec<(&'static str, Entry<'_>)>,
    fields: usize,
    sink: &mut impl Write,
) -> std::io::Result<()> {
    entries.sort_by_key(|(key, _)| rank(key));
    let pieces = lay_out(&entries, fields.max(1));
    ordered::write_pieces(&pieces, make, sink)
}

/// The pieces of the document, in order.
fn lay_out<'e, 'a>(entries: &'e [(&'static str, Entry<'a>)], fields: usize) -> Vec<Piece<'e, 'a>> {
    let mut layout = Layout {
        pieces: vec![Piece {
            start: YamlOut::new(),
            heavy: None,
            light: Vec::new(),
        }],
        skeleton: YamlOut::new(),
    };
    layout.light(Light::BeginMapping);
    for (key, entry) in entries {
        layout.light(Light::Key(key));
        if let Entry::Str(s) = entry {
            layout.light(Light::Str(s));
            continue;
        }
        match list_parts(entry, fields) {
            None => layout.heavy(Part::Entry(entry)),
            Some(parts) if parts.is_empty() => layout.light(Light::EmptyList),
            Some(parts) => {
                layout.light(Light::BeginList);
                for part in parts {
                    layout.heavy(part);
                }
                layout.light(Light::EndList);
            }
        }
    }
    layout.light(Light::EndMapping);
    layout.light(Light::Finish);
    layout.pieces
}

/// The pieces laid out so far, and the writer's state after the light steps alone.
struct Layout<'e, 'a> {
    pieces: Vec<Piece<'e, 'a>>,
    skeleton: YamlOut,
}

impl<'e, 'a> Layout<'e, 'a> {
    fn light(&mut self, step: Light<'a>) {
        apply(&mut self.skeleton, &step);
        self.skeleton.text().clear();
        if let Some(piece) = self.pieces.last_mut() {
            piece.light.push(step);
        }
    }

    fn heavy(&mut self, step: Part<'e, 'a>) {
        self.pieces.push(Piece {
            start: self.skeleton.fork(),
            heavy: Some(step),
            light: Vec::new(),
        });
    }
}

fn apply(y: &mut YamlOut, step: &Light<'_>) {
    match step {
        Light::BeginMapping => y.begin_mapping(),
        Light::EndMapping => y.end_mapping(),
        Light::Key(key) => y.key(key),
        Light::Str(s) => y.str_value(s),
        Light::EmptyList => y.empty_list(),
        Light::BeginList => y.begin_list(),
        Light::EndList => y.end_list(),
        Light::Finish => y.finish(),
    }
}

/// One piece's text, handed over past [`super::super::pieces::SPILL`] bytes.
fn make(piece: &Piece<'_, '_>, buf: &mut Vec<u8>, spill: &mut dyn Write) -> std::io::Result<()> {
    let mut text = Text::new(buf, spill);
    let mut out = Out {
        y: piece.start.fork(),
        sink: &mut text,
    };
    match &piece.heavy {
        None => {}
        Some(Part::Entry(entry)) => out.entry(entry, 1)?,
        Some(Part::Step(plan, manager, i)) => {
            if let (Some(step), Some(changes)) = (plan.steps.get(*i), plan.step_changes.get(*i)) {
                out.y.item();
                out.y.begin_mapping();
                out.step(step, changes, manager, 2)?;
                out.y.end_mapping();
            }
        }
        Some(Part::Fields(fields, objects, range)) => {
            let batch = fields.get(range.clone()).unwrap_or_default();
            out.fields(batch, *objects, 2)?;
        }
    }
    for step in &piece.light {
        apply(&mut out.y, step);
    }
    out.flush()
}
