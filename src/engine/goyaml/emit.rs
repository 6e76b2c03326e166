//! The emitter's state machine: indentation, indicators, and the walk over a value (nodes,
//! block sequences and mappings, keys), choosing each scalar's style as go-yaml's
//! `yaml_emitter_select_scalar_style` does.

use super::analyze::{analyze, fold_nel, is_break};
use super::keys::key_order;
use super::resolve::{can_use_plain, number};
use super::{BEST_INDENT, Ctx, Emitter, MAX_DEPTH, SIMPLE_KEY_MAX, Style};
use crate::value::{Map, Value};

impl Emitter {
    pub(super) fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    pub(super) fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// Write `s` whole (it holds no line break): the column counts characters, as `put` does.
    pub(super) fn write_str(&mut self, s: &str) {
        self.out.push_str(s);
        self.column += if s.is_ascii() {
            s.len()
        } else {
            s.chars().count()
        };
    }

    pub(super) fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    pub(super) fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    pub(super) fn write_indent(&mut self) {
        let indent = usize::try_from(self.indent.max(0)).unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    pub(super) fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        self.write_str(indicator);
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    pub(super) fn node(&mut self, v: &Value, ctx: Ctx, depth: usize) {
        if depth > MAX_DEPTH {
            self.scalar("...", Style::Plain, ctx);
            return;
        }
        match v {
            Value::Object(m) if m.is_empty() => self.empty_flow("{", "}"),
            Value::Array(a) if a.is_empty() => self.empty_flow("[", "]"),
            Value::Object(m) => self.mapping(m, depth),
            Value::Array(items) => self.sequence(items, ctx, depth),
            Value::String(s) => self.string(s, ctx),
            Value::Null => self.scalar("null", Style::Plain, ctx),
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain, ctx),
            Value::Number(n) => self.scalar(&number(n), Style::Plain, ctx),
        }
    }

    /// go-yaml's `stringv`: literal when multi-line, plain when it reads back as a string,
    /// else double-quoted (the emitter may still change the style).
    pub(super) fn string(&mut self, s: &str, ctx: Ctx) {
        let folded = fold_nel(s);
        let s = folded.as_ref();
        let style = if s.contains('\n') {
            Style::Literal
        } else if can_use_plain(s) {
            Style::Plain
        } else {
            Style::Double
        };
        self.scalar(s, style, ctx);
    }

    pub(super) fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    pub(super) fn sequence(&mut self, items: &[Value], ctx: Ctx, depth: usize) {
        let indentless = ctx.mapping && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Ctx::SEQUENCE_ITEM, depth + 1);
        }
        self.pop_indent();
    }

    pub(super) fn mapping(&mut self, map: &Map, depth: usize) {
        self.increase_indent(false, false);
        let mut entries: Vec<(&crate::value::Str, &Value)> = map.iter().collect();
        entries.sort_by(|a, b| key_order(a.0, b.0));
        for (key, value) in entries {
            self.key(key);
            self.node(value, Ctx::MAPPING, depth + 1);
        }
        self.pop_indent();
    }

    /// A mapping's key, up to its `:`.
    pub(super) fn key(&mut self, key: &str) {
        self.write_indent();
        let simple = key.len() <= SIMPLE_KEY_MAX && !key.contains(is_break);
        if simple {
            self.string(key, Ctx::SIMPLE_KEY);
            self.write_indicator(":", false, false, false);
        } else {
            self.write_indicator("?", true, false, true);
            self.string(key, Ctx::MAPPING);
            self.write_indent();
            self.write_indicator(":", true, false, true);
        }
    }

    pub(super) fn scalar(&mut self, value: &str, requested: Style, ctx: Ctx) {
        let a = analyze(value);
        let mut style = requested;
        if ctx.simple_key && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain && (!a.block_plain_allowed || (value.is_empty() && ctx.simple_key))
        {
            style = Style::Single;
        }
        if style == Style::Single && !a.single_quoted_allowed {
            style = Style::Double;
        }
        if style == Style::Literal && (!a.block_allowed || ctx.simple_key) {
            style = Style::Double;
        }
        self.increase_indent(true, false);
        let allow_breaks = !ctx.simple_key;
        match style {
            Style::Plain => self.plain(value, allow_breaks),
            Style::Single => self.single_quoted(value, allow_breaks),
            Style::Double => self.double_quoted(value, allow_breaks),
            Style::Literal => self.literal(value),
        }
        self.pop_indent();
    }
}
