//! Writing one scalar in the style chosen for it: plain, single-quoted, double-quoted (with
//! go-yaml's escapes) and literal blocks, each folding long lines past [`BEST_WIDTH`] as
//! go-yaml's `yaml_emitter_write_*_scalar` do.

use super::analyze::{is_break, is_printable};
use super::{BEST_INDENT, BEST_WIDTH, Emitter};

impl Emitter {
    pub(super) fn plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let mut spaces = false;
        let bytes = value.as_bytes();
        // Runs of characters other than spaces are written whole.
        let mut run = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b != b' ' {
                continue;
            }
            if run < i {
                self.write_str(&value[run..i]);
                self.indention = false;
                spaces = false;
            }
            run = i + 1;
            let next_is_space = bytes.get(i + 1) == Some(&b' ');
            if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_is_space {
                self.write_indent();
            } else {
                self.put(' ');
            }
            spaces = true;
        }
        // Line breaks never reach a plain scalar (they rule the style out).
        if run < bytes.len() {
            self.write_str(&value[run..]);
        }
        self.whitespace = false;
        self.indention = false;
    }

    pub(super) fn single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let mut spaces = false;
        let bytes = value.as_bytes();
        let len = bytes.len();
        // Runs of characters other than spaces and quotes are written whole. Line breaks never
        // reach a single-quoted scalar here: a string holding one is written as a literal
        // block, or double-quoted.
        let mut run = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b != b' ' && b != b'\'' {
                continue;
            }
            if run < i {
                self.write_str(&value[run..i]);
                self.indention = false;
                spaces = false;
            }
            run = i + 1;
            if b == b' ' {
                let next_is_space = bytes.get(i + 1) == Some(&b' ');
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < len
                    && !next_is_space
                {
                    self.write_indent();
                } else {
                    self.put(' ');
                }
                spaces = true;
            } else {
                self.put('\'');
                self.put('\'');
                self.indention = false;
                spaces = false;
            }
        }
        if run < len {
            self.write_str(&value[run..]);
            self.indention = false;
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    pub(super) fn double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let mut spaces = false;
        let len = value.len();
        // go-yaml's `is_bom` looks at the start of the value, wherever it is called.
        let bom = value.starts_with('\u{FEFF}');
        // Runs of printable ASCII other than spaces, quotes and backslashes are written whole;
        // any other character is looked at alone.
        let bytes = value.as_bytes();
        let mut run = 0;
        let mut i = 0;
        while i < len {
            let b = bytes[i];
            if !bom && (0x21..=0x7E).contains(&b) && b != b'"' && b != b'\\' {
                i += 1;
                continue;
            }
            if run < i {
                self.write_str(&value[run..i]);
                spaces = false;
            }
            let Some(c) = value[i..].chars().next() else {
                break;
            };
            let at = i;
            i += c.len_utf8();
            run = i;
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
                if allow_breaks && !spaces && self.column > BEST_WIDTH && at > 0 && at + 1 < len {
                    self.write_indent();
                    if bytes.get(i) == Some(&b' ') {
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
        if run < len {
            self.write_str(&value[run..]);
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    pub(super) fn literal(&mut self, value: &str) {
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
