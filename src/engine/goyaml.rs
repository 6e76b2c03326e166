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

use crate::value::{Map, Value};

use crate::engine::gojson::{go_format_g, write_number};

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

impl Emitter {
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_str(&mut self, s: &str) {
        for c in s.chars() {
            self.put(c);
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn write_indent(&mut self) {
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

    fn write_indicator(
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

    fn node(&mut self, v: &Value, ctx: Ctx, depth: usize) {
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
    fn string(&mut self, s: &str, ctx: Ctx) {
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

    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    fn sequence(&mut self, items: &[Value], ctx: Ctx, depth: usize) {
        let indentless = ctx.mapping && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Ctx::SEQUENCE_ITEM, depth + 1);
        }
        self.pop_indent();
    }

    fn mapping(&mut self, map: &Map, depth: usize) {
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
    fn key(&mut self, key: &str) {
        self.write_indent();
        let simple = key.len() <= SIMPLE_KEY_MAX && !analyze(key).multiline;
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

    fn scalar(&mut self, value: &str, requested: Style, ctx: Ctx) {
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

    fn plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let mut spaces = false;
        let mut chars = value.chars().peekable();
        while let Some(c) = chars.next() {
            if c == ' ' {
                let next_is_space = chars.peek() == Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_is_space {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                // Line breaks never reach a plain scalar (they rule the style out).
                self.put(c);
                self.indention = false;
                spaces = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let mut spaces = false;
        let len = value.len();
        let mut iter = value.char_indices().peekable();
        while let Some((i, c)) = iter.next() {
            if c == ' ' {
                let next_is_space = iter.peek().is_some_and(|(_, n)| *n == ' ');
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < len
                    && !next_is_space
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                // Line breaks never reach a single-quoted scalar here: a string holding one
                // is written as a literal block, or double-quoted.
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let mut spaces = false;
        let len = value.len();
        // go-yaml's `is_bom` looks at the start of the value, wherever it is called.
        let bom = value.starts_with('\u{FEFF}');
        let mut iter = value.char_indices().peekable();
        while let Some((i, c)) = iter.next() {
            if !is_printable(c) || bom || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                match c {
                    '\0' => self.put('0'),
                    '\u{07}' => self.put('a'),
                    '\u{08}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{0B}' => self.put('v'),
                    '\u{0C}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1B}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{A0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    _ => {
                        let v = u32::from(c);
                        let hex = if v <= 0xFF {
                            format!("x{v:02X}")
                        } else if v <= 0xFFFF {
                            format!("u{v:04X}")
                        } else {
                            format!("U{v:08X}")
                        };
                        self.write_str(&hex);
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i + 1 < len {
                    self.write_indent();
                    if iter.peek().is_some_and(|(_, n)| *n == ' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        // Block scalar hints: an indentation hint when the text starts with a space or a
        // break, and the chomping indicator.
        if value.starts_with([' ']) || value.starts_with(is_break) {
            self.write_indicator(&BEST_INDENT.to_string(), false, false, false);
        }
        let mut rev = value.chars().rev();
        let chomp = match (rev.next(), rev.next()) {
            (None, _) => Some("-"),
            (Some(last), _) if !is_break(last) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(before)) if is_break(before) => Some("+"),
            _ => None,
        };
        if let Some(hint) = chomp {
            self.write_indicator(hint, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in value.chars() {
            if is_break(c) {
                if c == '\n' {
                    self.put_break();
                } else {
                    self.out.push(c);
                    self.column = 0;
                }
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

/// Go's JSON writer leaves U+0085 (NEL) unescaped, and go-yaml, reading that JSON back, takes
/// it for a line break inside a double-quoted scalar and folds it: one break (with the blanks
/// around it) becomes a space, `n` breaks become `n - 1` newlines.
fn fold_nel(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\u{85}') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut blanks = String::new();
    let mut breaks = 0usize;
    for c in s.chars() {
        match c {
            ' ' | '\t' => blanks.push(c),
            '\u{85}' => {
                breaks += 1;
                blanks.clear();
            }
            _ => {
                match breaks {
                    0 => out.push_str(&blanks),
                    1 => out.push(' '),
                    n => out.extend(std::iter::repeat_n('\n', n - 1)),
                }
                blanks.clear();
                breaks = 0;
                out.push(c);
            }
        }
    }
    match breaks {
        0 => out.push_str(&blanks),
        1 => out.push(' '),
        n => out.extend(std::iter::repeat_n('\n', n - 1)),
    }
    std::borrow::Cow::Owned(out)
}

/// go-yaml's `is_printable` (the emitter runs in unicode mode): note that characters beyond
/// U+FFFF are not printable and get escaped.
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{A0}'..='\u{D7FF}')
        || (('\u{E000}'..='\u{FFFD}').contains(&c) && c != '\u{FEFF}')
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// What go-yaml's `yaml_emitter_analyze_scalar` finds (flow contexts never occur here).
#[derive(Debug)]
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = value.starts_with("---") || value.starts_with("...");
    let (mut line_breaks, mut special_characters) = (false, false);
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_whitespace = true;
    // One pass over the characters, looking one ahead (no copy of the text: a scalar can be
    // a megabyte annotation).
    let mut chars = value.chars().peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let last = next.is_none();
        let followed_by_whitespace = next.is_none_or(is_blank);
        if first {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            special_characters = true;
        }
        if c == ' ' {
            leading_space |= first;
            trailing_space |= last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= first;
            trailing_break |= last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blank(c) || is_break(c) || c == '\0';
        first = false;
    }
    let mut a = Analysis {
        multiline: line_breaks,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks || block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// A number as go-yaml reads Go's JSON text back and marshals it again: an integer that fits
/// int64 or uint64 in decimal, anything else through float64 in `%g` form.
fn number(n: &crate::value::Number) -> String {
    let mut text = String::new();
    if write_number(n, &mut text).is_err() {
        return n.to_string();
    }
    if let Ok(i) = text.parse::<i64>() {
        return i.to_string();
    }
    if let Ok(u) = text.parse::<u64>() {
        return u.to_string();
    }
    match text.parse::<f64>() {
        Ok(f) => go_format_g(f),
        Err(_) => text,
    }
}

/// go-yaml's `stringv`: a string may be written plain when it would read back as a string
/// (`resolve` gives `!!str`) and is not a base-60 number.
fn can_use_plain(s: &str) -> bool {
    !crate::document::resolves_to_non_string(s) && !is_base60_float(s)
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
fn is_base60_float(s: &str) -> bool {
    if !s.contains(':') {
        return false;
    }
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (main, frac) = match s.split_once('.') {
        Some((m, f)) => (m, Some(f)),
        None => (s, None),
    };
    if frac.is_some_and(|f| !f.bytes().all(|b| b.is_ascii_digit() || b == b'_')) {
        return false;
    }
    let mut parts = main.split(':');
    let head = parts.next().unwrap_or("");
    let head_ok = head.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && head.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    let mut sexagesimal = 0;
    for part in parts {
        let ok = match part.as_bytes() {
            [d] => d.is_ascii_digit(),
            [t, d] => (b'0'..=b'5').contains(t) && d.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return false;
        }
        sexagesimal += 1;
    }
    head_ok && sexagesimal > 0
}

/// go-yaml's key order (`keyList.Less` for two strings).
fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    if a == b {
        return Ordering::Equal;
    }
    if key_less(a, b) {
        Ordering::Less
    } else if key_less(b, a) {
        Ordering::Greater
    } else {
        a.cmp(b)
    }
}

fn key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let digit = |c: char| c.is_ascii_digit();
    for i in 0..ar.len().min(br.len()) {
        if ar[i] == br[i] {
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && digit(ar[j - 1]) {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && digit(ar[ai]) {
            an = an
                .wrapping_mul(10)
                .wrapping_add(i64::from(u32::from(ar[ai]) - u32::from('0')));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && digit(br[bi]) {
            bn = bn
                .wrapping_mul(10)
                .wrapping_add(i64::from(u32::from(br[bi]) - u32::from('0')));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn block_style_lists_not_indented_under_keys() {
        let v =
            json!({"b": [1, {"x": "v", "w": null}, [2, 3]], "a": {"c": true, "d": [], "e": {}}});
        assert_eq!(
            to_yaml(&v),
            "a:\n  c: true\n  d: []\n  e: {}\nb:\n- 1\n- w: null\n  x: v\n- - 2\n  - 3\n"
        );
    }

    #[test]
    fn strings_quoted_as_go_yaml_quotes_them() {
        let y = |s: &str| to_yaml(&json!({ "k": s }));
        assert_eq!(y("plain text"), "k: plain text\n");
        assert_eq!(y("true"), "k: \"true\"\n");
        assert_eq!(y("y"), "k: \"y\"\n");
        assert_eq!(y(""), "k: \"\"\n");
        assert_eq!(y("1.5"), "k: \"1.5\"\n");
        assert_eq!(y("0755"), "k: \"0755\"\n");
        assert_eq!(y("08"), "k: \"08\"\n");
        assert_eq!(y("1e400"), "k: 1e400\n");
        assert_eq!(y("12:30"), "k: \"12:30\"\n");
        assert_eq!(y("2024-01-01T00:00:00Z"), "k: \"2024-01-01T00:00:00Z\"\n");
        assert_eq!(y("2024-02-30"), "k: 2024-02-30\n");
        assert_eq!(y("2024-1-2 3:04:05.5"), "k: \"2024-1-2 3:04:05.5\"\n");
        assert_eq!(y("***"), "k: '***'\n");
        assert_eq!(y("*** (before)"), "k: '*** (before)'\n");
        assert_eq!(y("a: b"), "k: 'a: b'\n");
        assert_eq!(y("it's"), "k: it's\n");
        assert_eq!(y("'q'"), "k: '''q'''\n");
        assert_eq!(y("- x"), "k: '- x'\n");
        assert_eq!(y("-x"), "k: -x\n");
        assert_eq!(y("a #b"), "k: 'a #b'\n");
        assert_eq!(y("a#b"), "k: a#b\n");
        assert_eq!(y(" lead"), "k: ' lead'\n");
        assert_eq!(y("tab\there"), "k: \"tab\\there\"\n");
        assert_eq!(y("é ü"), "k: é ü\n");
        assert_eq!(y("smile 😀"), "k: \"smile \\U0001F600\"\n");
        assert_eq!(y("v1.2.3"), "k: v1.2.3\n");
        assert_eq!(y("0x1F"), "k: \"0x1F\"\n");
        assert_eq!(y("1_000"), "k: \"1_000\"\n");
        assert_eq!(y("+.inf"), "k: \"+.inf\"\n");
    }

    #[test]
    fn multi_line_strings_are_literal_blocks() {
        let y = |s: &str| to_yaml(&json!({ "k": s }));
        assert_eq!(y("a\nb\n"), "k: |\n  a\n  b\n");
        assert_eq!(y("a\nb"), "k: |-\n  a\n  b\n");
        assert_eq!(y("a\n\n"), "k: |+\n  a\n\n");
        assert_eq!(y(" a\nb"), "k: |2-\n   a\n  b\n");
        assert_eq!(y("a \nb"), "k: \"a \\nb\"\n");
        assert_eq!(y("a\tb\nc"), "k: \"a\\tb\\nc\"\n");
        assert_eq!(
            to_yaml(&json!({"a": {"b": ["x\ny"]}})),
            "a:\n  b:\n  - |-\n    x\n    y\n"
        );
    }

    #[test]
    fn long_strings_fold_past_column_80() {
        let words = vec!["word"; 30].join(" ");
        let out = to_yaml(&json!({ "description": words }));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].chars().count() > 80 && lines[0].chars().count() <= 86);
        assert!(lines[1].starts_with("  word"));
        let long = format!("x{}", "y".repeat(200));
        assert_eq!(to_yaml(&json!({ "k": long })).lines().count(), 1);
    }

    #[test]
    fn numbers_as_go_yaml_reads_go_json_back() {
        assert_eq!(
            to_yaml(&json!({"a": 1, "b": 1.5, "c": -3})),
            "a: 1\nb: 1.5\nc: -3\n"
        );
        assert_eq!(
            to_yaml(&json!({"a": 1e21, "b": 1e20, "c": 1_234_567.5})),
            "a: 1e+21\nb: 1e+20\nc: 1.2345675e+06\n"
        );
        assert_eq!(
            to_yaml(&json!({"a": 18_446_744_073_709_551_615u64})),
            "a: 1.8446744073709552e+19\n"
        );
    }

    #[test]
    fn keys_in_go_yaml_order() {
        let mut keys = vec![
            "item10", "item2", "b", "B", "_x", "a.b", "a", "1", "10", "2",
        ];
        keys.sort_by(|a, b| key_order(a, b));
        assert_eq!(
            keys,
            [
                "_x", "1", "2", "10", "B", "a", "a.b", "b", "item2", "item10"
            ]
        );
        assert_eq!(
            to_yaml(&json!({"true": 1, "": 2})),
            "\"\": 2\n\"true\": 1\n"
        );
    }

    #[test]
    fn long_keys_are_complex_keys() {
        let key = "k".repeat(129);
        assert_eq!(
            to_yaml(&json!({ key.clone(): 1 })),
            format!("? {key}\n: 1\n")
        );
    }

    /// Recorded from kubectl 1.37.1: `kubectl patch --local -f cm.json -p '{}' --type merge -o yaml`
    /// (the same `sigs.k8s.io/yaml` printer `kubectl diff` uses).
    const KUBECTL_INPUT: &str = r##"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t","annotations":{"desc":"this is a long description with many words that will certainly go past the eighty column limit of go-yaml v2 emitter"}},
 "data":{"_x":"a","1":"b","10":"c","2":"d","B":"e","a":"f","a.b":"g","b":"h","item2":"i","item10":"j","a0":"k","a/":"l","x:":"m","x1":"n","01":"o","1a":"p",
 "s1":"true","s2":"","s3":"1.5","s4":"0755","s5":"08","s6":"1e400","s7":"12:30","s8":"2024-01-01T00:00:00Z","s9":"2024-02-30","s10":"***","s11":"a: b","s12":"it's","s13":"'q'","s14":"- x","s15":"-x","s16":"a #b","s17":"a#b","s18":" lead","s19":"tab\there","s20":"é ü","s21":"smile 😀","s22":"0x1F","s23":"1_000","s24":"+.inf","s25":"a\nb\n","s26":"a\nb","s27":"a\n\n","s28":" a\nb","s29":"a \nb","s30":"a\tb\nc","s31":"2024-1-2 3:04:05.5","s32":"y","s33":"~","s34":"null","s35":"1e3","s36":".5","s37":"1.","s38":"0b101","s39":"-0x1F","s40":"+5","s41":"9999999999999999999999","s42":"2024-01-01t10:00:00+02:00","s43":"\u00a0nbsp","s44":"x\u0085y","s45":"\ufeffbom","s46":"ctrl\u0001","s47":"long \"quoted\" text with spaces that goes beyond the eighty columns limit for sure, yes indeed it does","s48":"'single long text with spaces that goes beyond the eighty columns limit for sure, yes indeed it does'","s49":"\"","s50":"a: b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q r s t u v w x y z",
 "multiline-with-tab":"line one\n\tindented with tab\n","x2":"  two leading spaces and a long text so that the folding might kick in at some point past eighty  columns","ends":"text\n\n\n","k":"-","q":"?","c":":","h":"#","e":"!foo","pct":"%x","at":"@x","bt":"`x","dash3":"---","dots":"...","comma":"a,b","br":"[x]","colon_end":"key:","sp_hash":"a # b"}}"##;
    const KUBECTL_OUTPUT: &str = r##"apiVersion: v1
data:
  _x: a
  "1": b
  1a: p
  "01": o
  "2": d
  "10": c
  B: e
  a: f
  a.b: g
  a/: l
  a0: k
  at: '@x'
  b: h
  br: '[x]'
  bt: '`x'
  c: ':'
  colon_end: 'key:'
  comma: a,b
  dash3: '---'
  dots: '...'
  e: '!foo'
  ends: |+
    text


  h: '#'
  item2: i
  item10: j
  k: '-'
  multiline-with-tab: "line one\n\tindented with tab\n"
  pct: '%x'
  q: '?'
  s1: "true"
  s2: ""
  s3: "1.5"
  s4: "0755"
  s5: "08"
  s6: 1e400
  s7: "12:30"
  s8: "2024-01-01T00:00:00Z"
  s9: 2024-02-30
  s10: '***'
  s11: 'a: b'
  s12: it's
  s13: '''q'''
  s14: '- x'
  s15: -x
  s16: 'a #b'
  s17: a#b
  s18: ' lead'
  s19: "tab\there"
  s20: é ü
  s21: "smile \U0001F600"
  s22: "0x1F"
  s23: "1_000"
  s24: "+.inf"
  s25: |
    a
    b
  s26: |-
    a
    b
  s27: |+
    a

  s28: |2-
     a
    b
  s29: "a \nb"
  s30: "a\tb\nc"
  s31: "2024-1-2 3:04:05.5"
  s32: "y"
  s33: "~"
  s34: "null"
  s35: "1e3"
  s36: ".5"
  s37: "1."
  s38: "0b101"
  s39: "-0x1F"
  s40: "+5"
  s41: "9999999999999999999999"
  s42: "2024-01-01t10:00:00+02:00"
  s43:  nbsp
  s44: x y
  s45: "\uFEFF\x62\x6F\x6D"
  s46: "ctrl\x01"
  s47: long "quoted" text with spaces that goes beyond the eighty columns limit for
    sure, yes indeed it does
  s48: '''single long text with spaces that goes beyond the eighty columns limit for
    sure, yes indeed it does'''
  s49: '"'
  s50: 'a: b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k
    l m n o p q r s t u v w x y z'
  sp_hash: 'a # b'
  'x:': m
  x1: "n"
  x2: '  two leading spaces and a long text so that the folding might kick in at some
    point past eighty  columns'
kind: ConfigMap
metadata:
  annotations:
    desc: this is a long description with many words that will certainly go past the
      eighty column limit of go-yaml v2 emitter
  name: t
"##;

    #[test]
    fn matches_kubectl_on_tricky_keys_and_strings() {
        let v: Value = serde_json::from_str(KUBECTL_INPUT).unwrap();
        pretty_assertions::assert_eq!(to_yaml(&v), KUBECTL_OUTPUT);
    }

    #[test]
    fn null_root() {
        assert_eq!(to_yaml(&Value::Null), "null\n");
    }
}
