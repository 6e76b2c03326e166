//! YAML exactly as `kubectl diff` and `kubectl get -o yaml` print an object:
//! `sigs.k8s.io/yaml.Marshal`, which writes the object as JSON, reads that back with go-yaml v2
//! and marshals it with go-yaml v2's emitter (`go.yaml.in/yaml/v2` 2.4.4).
//!
//! This is a port of the parts of that emitter a JSON value reaches (block mappings and
//! sequences, `{}` and `[]` for empty ones, scalars), keeping its state machine's variables
//! (`indent`, `column`, `whitespace`, `indention`) so the output matches byte for byte:
//! - keys in go-yaml's order (`sorter.go`: letters after other characters, digit runs compared
//!   as numbers: `item2` before `item10`);
//! - a list under a key is not indented (`key:` then `- item` at the key's column);
//! - strings plain when they would read back as strings, else double-quoted (`"true"`, `"1"`,
//!   `""`, timestamps like `"2024-01-01T00:00:00Z"`, base-60 numbers like `"12:30"`);
//!   single-quoted when they start with an indicator (`'*'`, `'- x'`); multi-line strings as
//!   literal blocks (`|`, `|-`, `|+`); tabs and other unprintable characters (and characters
//!   beyond U+FFFF) as double-quoted escapes;
//! - long plain and quoted strings folded at spaces past column 80;
//! - numbers as go-yaml reads Go's JSON text back: integers in decimal, other floats in Go's
//!   `%g` form (`1e+21`, `1.5`).
//!
//! Everything that prints YAML uses it: `diff`, `plan -o yaml`, `last-applied view -o yaml`,
//! the conflict error (`mergepatch.ToYAMLOrError` is the same `Marshal`), the patch view.

//!
//! | file | owns |
//! |---|---|
//! | `goyaml.rs` | [`to_yaml`], [`YamlOut`], the emitter's state |
//! | `goyaml/emit.rs` | indentation, indicators, the walk over nodes, each scalar's style |
//! | `goyaml/styles.rs` | writing plain, single-quoted, double-quoted and literal scalars |
//! | `goyaml/analyze.rs` | what a scalar's characters allow (`yaml_emitter_analyze_scalar`) |
//! | `goyaml/resolve.rs` | numbers' text, whether a string may be plain |
//! | `goyaml/keys.rs` | go-yaml's key order |

use crate::value::Value;

mod analyze;
mod emit;
mod keys;
mod resolve;
mod styles;

/// go-yaml's defaults.
const BEST_INDENT: isize = 2;
const BEST_WIDTH: usize = 80;
/// Keys longer than this (in bytes) are written as complex keys (`? key`).
const SIMPLE_KEY_MAX: usize = 128;
/// Nesting deeper than this is cut (inputs are bounded far below it by the loaders).
const MAX_DEPTH: usize = crate::engine::MAX_DEPTH;

/// The value as `sigs.k8s.io/yaml.Marshal` prints it, ending in a newline.
#[must_use]
pub fn to_yaml(v: &Value) -> String {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        indent: -1,
        indents: Vec::new(),
        whitespace: true,
        indention: true,
    };
    e.node(v, Ctx::ROOT, 0);
    // Document end (implicit): a final line break. (go-yaml's `open_ended`, which would add
    // `...` after a root plain scalar or a `|+` block, is reset by `encoder.finish`.)
    e.write_indent();
    e.out
}

/// YAML written a piece at a time, exactly as [`to_yaml`] writes the whole value: for writers
/// that lay out the outer mappings and sequences themselves (the plan's fields are streamed,
/// never one value). Mapping keys must come in go-yaml's order; `depth` arguments are the
/// values' nesting in the whole document (for the depth limit).
pub struct YamlOut {
    e: Emitter,
}

impl Default for YamlOut {
    fn default() -> Self {
        YamlOut::new()
    }
}

impl YamlOut {
    #[must_use]
    pub fn new() -> YamlOut {
        YamlOut {
            e: Emitter {
                out: String::new(),
                column: 0,
                indent: -1,
                indents: Vec::new(),
                whitespace: true,
                indention: true,
            },
        }
    }

    /// The text written so far (take it to hand it on: the writer's state is kept).
    pub fn text(&mut self) -> &mut String {
        &mut self.e.out
    }

    /// A writer in this one's state with no text: it writes what this one would write next
    /// (list items written on another thread; see [`YamlOut::follow`]).
    #[must_use]
    pub fn fork(&self) -> YamlOut {
        let e = &self.e;
        YamlOut {
            e: Emitter {
                out: String::new(),
                column: e.column,
                indent: e.indent,
                indents: e.indents.clone(),
                whitespace: e.whitespace,
                indention: e.indention,
            },
        }
    }

    /// Continue after `other`'s text, which the caller has written after this one's: take its
    /// state (the line's column and whitespace).
    pub fn follow(&mut self, other: &YamlOut) {
        self.e.column = other.e.column;
        self.e.whitespace = other.e.whitespace;
        self.e.indention = other.e.indention;
    }

    /// Open a (non-empty) mapping: the document's root, a mapping's value or a list item.
    pub fn begin_mapping(&mut self) {
        self.e.increase_indent(false, false);
    }

    pub fn end_mapping(&mut self) {
        self.e.pop_indent();
    }

    /// A mapping's key; its value follows.
    pub fn key(&mut self, key: &str) {
        self.e.key(key);
    }

    /// A mapping's value.
    pub fn value(&mut self, v: &Value, depth: usize) {
        self.e.node(v, Ctx::MAPPING, depth);
    }

    /// A mapping's string value.
    pub fn str_value(&mut self, s: &str) {
        self.e.string(s, Ctx::MAPPING);
    }

    /// A mapping's plain value (`true`, `null`).
    pub fn plain_value(&mut self, s: &str) {
        self.e.scalar(s, Style::Plain, Ctx::MAPPING);
    }

    /// A mapping's empty list value, `[]`.
    pub fn empty_list(&mut self) {
        self.e.empty_flow("[", "]");
    }

    /// A mapping's empty mapping value, `{}`.
    pub fn empty_map(&mut self) {
        self.e.empty_flow("{", "}");
    }

    /// A mapping's keys put in the order go-yaml writes them ([`YamlOut::key`] asks for it).
    pub fn sort_keys(keys: &mut [&str]) {
        keys.sort_by(|a, b| keys::key_order(a, b));
    }

    /// Open a (non-empty) list, a mapping's value.
    pub fn begin_list(&mut self) {
        let indentless = !self.e.indention;
        self.e.increase_indent(false, indentless);
    }

    /// A list item's dash; the item follows.
    pub fn item(&mut self) {
        self.e.write_indent();
        self.e.write_indicator("-", true, false, true);
    }

    pub fn end_list(&mut self) {
        self.e.pop_indent();
    }

    /// End the document (its final line break).
    pub fn finish(&mut self) {
        self.e.write_indent();
    }
}

/// Where a node is written (go-yaml's `*_context` flags).
#[derive(Clone, Copy)]
struct Ctx {
    mapping: bool,
    simple_key: bool,
}

impl Ctx {
    const ROOT: Ctx = Ctx {
        mapping: false,
        simple_key: false,
    };
    const SEQUENCE_ITEM: Ctx = Ctx {
        mapping: false,
        simple_key: false,
    };
    const SIMPLE_KEY: Ctx = Ctx {
        mapping: true,
        simple_key: true,
    };
    const MAPPING: Ctx = Ctx {
        mapping: true,
        simple_key: false,
    };
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

struct Emitter {
    out: String,
    /// Characters on the current line.
    column: usize,
    indent: isize,
    indents: Vec<isize>,
    /// The last character written is whitespace (or the line is empty).
    whitespace: bool,
    /// Only indentation so far on this line.
    indention: bool,
}

#[cfg(test)]
mod tests;
