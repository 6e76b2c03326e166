//! `plan -o json` of a large plan ([`Plan::is_large`]) as a row of pieces, each made on its
//! own from the plan and the level it sits at, made on two threads and written in order
//! ([`super::super::ordered`]): the fields a batch at a time, the patch and the result cut
//! where they hold many nodes (a list of a thousand containers becomes runs of its items), and
//! long strings (the annotation, also in the patch and the result) in parts. The text between them (keys, brackets, indents) is laid out first, as
//! [`super::plan`] writes it, so the pieces joined are its text byte for byte.

use std::io::Write;
use std::ops::Range;

use crate::value::{Str, Value};

use super::{CHUNKED_LEVELS, Out, WriteError, fields, warnings_list};
use crate::cli::plan::ordered;
use crate::engine::gojson;
use crate::engine::plan::Plan;

/// About how many nodes of a value one piece writes (a node is some 40 bytes of text).
const NODES: usize = 1 << 13;

/// Fields one piece writes (about 450 KB of text at 445 bytes a field).
const FIELDS: usize = 1024;

/// Bytes of a long string (the annotation, in the plan and in the patch and the result) one
/// piece escapes.
const STRING: usize = 1 << 19;

/// A piece's text past this many bytes is handed over as it is made (a batch of fields one of
/// which holds the annotation, twice: 15 MB), not held whole.
const SPILL: usize = 1 << 21;

/// One piece of the text.
enum Piece<'p> {
    /// Text laid out with the pieces.
    Text(String),
    /// Part of a long string, escaped, without quotes.
    StringPart(&'p str),
    /// The fields at these positions, each after its separator.
    Fields(Range<usize>),
    /// A value at a level.
    Value(&'p Value, usize),
    /// A run of an array's items or an object's entries (in byte order), from position
    /// `first`, of a value at `level`: each after its separator.
    Run {
        items: Vec<(Option<&'p Str>, &'p Value)>,
        first: usize,
        level: usize,
    },
}

/// Write `p` as [`super::write`] does, its pieces made on two threads.
pub(super) fn write(p: &Plan, sink: &mut impl Write) -> Result<(), WriteError> {
    let pieces = lay_out(p);
    ordered::write_in_order(
        pieces.len(),
        |i, buf, spill| match pieces.get(i) {
            Some(piece) => make(p, piece, buf, spill),
            None => Ok(()),
        },
        sink,
    )
}

/// The text of one piece, into `buf` (what passes [`SPILL`] bytes handed to `spill` first).
fn make(
    p: &Plan,
    piece: &Piece<'_>,
    buf: &mut String,
    mut spill: &mut dyn Write,
) -> Result<(), WriteError> {
    let mut out = Out::piece(std::mem::take(buf), &mut spill, true, SPILL);
    let made = match piece {
        Piece::Text(text) => {
            out.buf.push_str(text);
            Ok(())
        }
        Piece::StringPart(part) => {
            out.string_body(part);
            Ok(())
        }
        Piece::Fields(range) => fields(&mut out, p, range.clone(), 0),
        Piece::Value(v, level) => out.value(v, *level),
        Piece::Run {
            items,
            first,
            level,
        } => items.iter().enumerate().try_for_each(|(i, (key, v))| {
            if first + i > 0 {
                out.buf.push(',');
            }
            out.newline(level + 1);
            if let Some(key) = key {
                gojson::write_string(key, &mut out.buf);
                out.buf.push_str(": ");
            }
            out.value(v, level + 1)
        }),
    };
    // A failed spill is reported once the text is made.
    let failed = out.failed.take();
    *buf = out.buf;
    made?;
    failed.map_or(Ok(()), |e| Err(e.into()))
}

/// The pieces, with the text between them: [`super::plan`]'s at level 0, and the final newline.
fn lay_out(p: &Plan) -> Vec<Piece<'_>> {
    let mut lay = Layout {
        pieces: Vec::new(),
        text: String::new(),
    };
    let first = &mut true;
    lay.text.push('{');
    lay.key(first, "annotation");
    lay.string(p.annotation());
    if let Some(created) = p.created() {
        lay.key(first, "created");
        lay.value(created, 1);
    }
    lay.key(first, "fields");
    lay.text.push('[');
    let n = p.tree.len();
    for start in (0..n).step_by(FIELDS) {
        lay.piece(Piece::Fields(start..(start + FIELDS).min(n)));
    }
    if n > 0 {
        newline(&mut lay.text, 1);
    }
    lay.text.push(']');
    lay.key(first, "patch");
    match &p.patch {
        Some(patch) => lay.value(patch, 1),
        None => lay.text.push_str("null"),
    }
    lay.key(first, "patchType");
    match p.patch_type {
        Some(t) => gojson::write_string(t.content_type(), &mut lay.text),
        None => lay.text.push_str("null"),
    }
    lay.key(first, "result");
    lay.value(&p.result, 1);
    lay.key(first, "warnings");
    let mut sink = std::io::sink();
    let mut out = Out::piece(std::mem::take(&mut lay.text), &mut sink, true, usize::MAX);
    warnings_list(&mut out, &p.warnings, 1);
    out.newline(0);
    out.buf.push_str("}\n");
    lay.text = out.buf;
    lay.piece(Piece::Text(String::new()));
    lay.pieces
}

struct Layout<'p> {
    pieces: Vec<Piece<'p>>,
    /// Text laid out since the last piece.
    text: String,
}

impl<'p> Layout<'p> {
    /// `piece`, after the text laid out before it.
    fn piece(&mut self, piece: Piece<'p>) {
        if !self.text.is_empty() {
            self.pieces
                .push(Piece::Text(std::mem::take(&mut self.text)));
        }
        if !matches!(&piece, Piece::Text(t) if t.is_empty()) {
            self.pieces.push(piece);
        }
    }

    /// A key of the plan (level 1), as [`Out::key`] writes it.
    fn key(&mut self, first: &mut bool, name: &str) {
        if !*first {
            self.text.push(',');
        }
        *first = false;
        newline(&mut self.text, 1);
        gojson::write_string(name, &mut self.text);
        self.text.push_str(": ");
    }

    /// A string as [`Out::string`] writes it, in parts of [`STRING`] bytes.
    fn string(&mut self, s: &'p str) {
        self.text.push('"');
        for part in super::string_parts(s, STRING) {
            self.piece(Piece::StringPart(part));
        }
        self.text.push('"');
    }

    /// `v` at `level` as [`Out::value`] writes it: one piece, or its brackets and its items
    /// in runs of about [`NODES`] nodes, an item of more cut likewise (at most
    /// [`CHUNKED_LEVELS`] deep).
    fn value(&mut self, v: &'p Value, level: usize) {
        let whole = level >= CHUNKED_LEVELS || nodes(v, NODES) < NODES;
        let (items, close): (Vec<(Option<&Str>, &Value)>, char) = match v {
            Value::Array(items) if !whole && !items.is_empty() => {
                self.text.push('[');
                (items.iter().map(|v| (None, v)).collect(), ']')
            }
            Value::Object(map) if !whole && !map.is_empty() => {
                // Keys sorted by their bytes, as `Out::value` sorts them.
                let mut entries: Vec<(Option<&Str>, &Value)> =
                    map.iter().map(|(k, v)| (Some(k), v)).collect();
                entries.sort_by(|a, b| a.0.map(|k| k.as_bytes()).cmp(&b.0.map(|k| k.as_bytes())));
                self.text.push('{');
                (entries, '}')
            }
            Value::String(s) if s.len() > STRING => return self.string(s),
            _ => return self.piece(Piece::Value(v, level)),
        };
        let mut run = Vec::new();
        let (mut first, mut run_nodes) = (0, 0);
        for (i, (key, item)) in items.into_iter().enumerate() {
            let n = nodes(item, NODES);
            if n < NODES {
                if run.is_empty() {
                    first = i;
                }
                run.push((key, item));
                run_nodes += n;
                if run_nodes >= NODES {
                    self.run(&mut run, first, level);
                    run_nodes = 0;
                }
                continue;
            }
            self.run(&mut run, first, level);
            run_nodes = 0;
            if i > 0 {
                self.text.push(',');
            }
            newline(&mut self.text, level + 1);
            if let Some(key) = key {
                gojson::write_string(key, &mut self.text);
                self.text.push_str(": ");
            }
            self.value(item, level + 1);
        }
        self.run(&mut run, first, level);
        newline(&mut self.text, level);
        self.text.push(close);
    }

    /// The run of items so far as a piece (none when empty).
    fn run(&mut self, run: &mut Vec<(Option<&'p Str>, &'p Value)>, first: usize, level: usize) {
        if !run.is_empty() {
            let items = std::mem::take(run);
            self.piece(Piece::Run {
                items,
                first,
                level,
            });
        }
    }
}

/// How many nodes `v` holds (itself, its items and theirs), counted up to `cap`.
fn nodes(v: &Value, cap: usize) -> usize {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        if n >= cap {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(map) => stack.extend(map.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    n
}

/// A new line, indented to `level` (as `Out::newline` pretty).
fn newline(text: &mut String, level: usize) {
    text.push('\n');
    for _ in 0..level {
        text.push_str("  ");
    }
}
