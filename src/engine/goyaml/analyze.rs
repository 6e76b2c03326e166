//! What a scalar's text allows: go-yaml's `yaml_emitter_analyze_scalar` and its character
//! classes, and the NEL folding a Go JSON round trip applies first.

/// Go's JSON writer leaves U+0085 (NEL) unescaped, and go-yaml, reading that JSON back, takes
/// it for a line break inside a double-quoted scalar and folds it: one break (with the blanks
/// around it) becomes a space, `n` breaks become `n - 1` newlines.
pub(super) fn fold_nel(s: &str) -> std::borrow::Cow<'_, str> {
    // U+0085 is C2 85 in UTF-8: look for its last byte first (a plain byte search).
    if !s.as_bytes().contains(&0x85) || !s.contains('\u{85}') {
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
pub(super) fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{A0}'..='\u{D7FF}')
        || (('\u{E000}'..='\u{FFFD}').contains(&c) && c != '\u{FEFF}')
}

pub(super) fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// The index of the first byte from `i` on that is not ordinary (ASCII text), looking at eight
/// bytes at a time while it can.
fn skip_ordinary(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Some byte of `v` is zero (exact for "some", the classic bit trick).
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    while let Some(chunk) = b.get(i..i + 8) {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let v = u64::from_le_bytes(bytes);
        // Every byte is below 0x80 (ASCII): one below 0x21 (blanks, breaks, controls) sets
        // its high bit after the subtraction.
        let special = (v.wrapping_sub(0x21 * ONES) & !v & HIGH)
            | zero_byte(v ^ (0x7F * ONES))
            | zero_byte(v ^ (u64::from(b':') * ONES))
            | zero_byte(v ^ (u64::from(b'#') * ONES));
        if special != 0 {
            break;
        }
        i += 8;
    }
    while i < b.len() && is_ordinary(char::from(b[i])) {
        i += 1;
    }
    i
}

/// A printable ASCII character that is no blank, break or indicator inside a scalar.
fn is_ordinary(c: char) -> bool {
    matches!(c, '!'..='~') && c != ':' && c != '#'
}

pub(super) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// What go-yaml's `yaml_emitter_analyze_scalar` finds (flow contexts never occur here).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Analysis {
    pub(super) multiline: bool,
    pub(super) block_plain_allowed: bool,
    pub(super) single_quoted_allowed: bool,
    pub(super) block_allowed: bool,
}

pub(super) fn analyze(value: &str) -> Analysis {
    // ASCII text (nearly every scalar) is scanned a byte at a time: no UTF-8 decoding.
    if value.is_ascii() {
        analyze_ascii(value.as_bytes())
    } else {
        analyze_chars(value, value.chars())
    }
}

/// [`analyze`] of ASCII text, indexed by byte: the same flags as [`analyze_chars`] finds.
pub(super) fn analyze_ascii(b: &[u8]) -> Analysis {
    let Some(&first) = b.first() else {
        return analyze_chars("", std::iter::empty());
    };
    let n = b.len();
    let blank = |c: u8| c == b' ' || c == b'\t';
    let brk = |c: u8| c == b'\r' || c == b'\n';
    let followed_by_whitespace = |i: usize| b.get(i + 1).is_none_or(|&c| blank(c));
    let mut block_indicators = b.starts_with(b"---") || b.starts_with(b"...");
    match first {
        b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
        | b'"' | b'%' | b'@' | b'`' => block_indicators = true,
        b'?' | b':' | b'-' if followed_by_whitespace(0) => block_indicators = true,
        _ => {}
    }
    let mut special_characters = false;
    let mut ws = Spaces::default();
    let mut preceded_by_whitespace = true;
    let mut i = 0;
    while i < n {
        let c = b[i];
        if i > 0 {
            if is_ordinary(char::from(c)) {
                ws.other();
                preceded_by_whitespace = false;
                i = skip_ordinary(b, i + 1);
                continue;
            }
            match c {
                b':' if followed_by_whitespace(i) => block_indicators = true,
                b'#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if !(c == b'\n' || (b' '..=b'~').contains(&c)) {
            special_characters = true;
        }
        ws.step(c == b' ', brk(c), i == 0, i + 1 == n);
        preceded_by_whitespace = blank(c) || brk(c) || c == 0;
        i += 1;
    }
    ws.flags(special_characters, block_indicators).analysis()
}

/// [`analyze`] over `chars`, the characters of `value`.
#[inline(always)]
pub(super) fn analyze_chars(value: &str, chars: impl Iterator<Item = char>) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = value.starts_with("---") || value.starts_with("...");
    let mut special_characters = false;
    let mut ws = Spaces::default();
    let mut preceded_by_whitespace = true;
    // One pass over the characters, looking one ahead (no copy of the text: a scalar can be
    // a megabyte annotation).
    let mut chars = chars.peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        if !first && is_ordinary(c) {
            // Most characters: they only end a run of blanks or breaks. Skip the run of them.
            ws.other();
            preceded_by_whitespace = false;
            while chars.next_if(|&c| is_ordinary(c)).is_some() {}
            continue;
        }
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
        ws.step(c == ' ', is_break(c), first, last);
        preceded_by_whitespace = is_blank(c) || is_break(c) || c == '\0';
        first = false;
    }
    ws.flags(special_characters, block_indicators).analysis()
}

/// The spaces and breaks a scan has seen, as go-yaml's analyzer tracks them.
#[derive(Default)]
#[allow(clippy::struct_excessive_bools)]
struct Spaces {
    line_breaks: bool,
    leading_space: bool,
    leading_break: bool,
    trailing_space: bool,
    trailing_break: bool,
    break_space: bool,
    space_break: bool,
    previous_space: bool,
    previous_break: bool,
}

impl Spaces {
    /// A character that is a space, a break, or neither; whether it is the first or the last.
    #[inline(always)]
    fn step(&mut self, space: bool, brk: bool, first: bool, last: bool) {
        if space {
            self.leading_space |= first;
            self.trailing_space |= last;
            self.break_space |= self.previous_break;
            self.previous_space = true;
            self.previous_break = false;
        } else if brk {
            self.line_breaks = true;
            self.leading_break |= first;
            self.trailing_break |= last;
            self.space_break |= self.previous_space;
            self.previous_space = false;
            self.previous_break = true;
        } else {
            self.other();
        }
    }

    /// A character that is neither a space nor a break.
    #[inline(always)]
    fn other(&mut self) {
        self.previous_space = false;
        self.previous_break = false;
    }

    fn flags(&self, special_characters: bool, block_indicators: bool) -> Flags {
        Flags {
            line_breaks: self.line_breaks,
            special_characters,
            block_indicators,
            leading: self.leading_space || self.leading_break,
            trailing_space: self.trailing_space,
            trailing_break: self.trailing_break,
            break_space: self.break_space,
            space_break: self.space_break,
        }
    }
}

/// What the scan of a scalar found.
#[allow(clippy::struct_excessive_bools)]
struct Flags {
    line_breaks: bool,
    special_characters: bool,
    block_indicators: bool,
    /// A leading space or break.
    leading: bool,
    trailing_space: bool,
    trailing_break: bool,
    break_space: bool,
    space_break: bool,
}

impl Flags {
    fn analysis(&self) -> Analysis {
        let mut a = Analysis {
            multiline: self.line_breaks,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: true,
        };
        if self.leading || self.trailing_space || self.trailing_break {
            a.block_plain_allowed = false;
        }
        if self.trailing_space {
            a.block_allowed = false;
        }
        if self.break_space {
            a.block_plain_allowed = false;
            a.single_quoted_allowed = false;
        }
        if self.space_break || self.special_characters {
            a.block_plain_allowed = false;
            a.single_quoted_allowed = false;
            a.block_allowed = false;
        }
        if self.line_breaks || self.block_indicators {
            a.block_plain_allowed = false;
        }
        a
    }
}
