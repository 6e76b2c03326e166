//! What a scalar's text allows: go-yaml's `yaml_emitter_analyze_scalar` and its character
//! classes, and the NEL folding a Go JSON round trip applies first.

/// Go's JSON writer leaves U+0085 (NEL) unescaped, and go-yaml, reading that JSON back, takes
/// it for a line break inside a double-quoted scalar and folds it: one break (with the blanks
/// around it) becomes a space, `n` breaks become `n - 1` newlines.
pub(super) fn fold_nel(s: &str) -> std::borrow::Cow<'_, str> {
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
pub(super) fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{A0}'..='\u{D7FF}')
        || (('\u{E000}'..='\u{FFFD}').contains(&c) && c != '\u{FEFF}')
}

pub(super) fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

pub(super) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// What go-yaml's `yaml_emitter_analyze_scalar` finds (flow contexts never occur here).
#[derive(Debug)]
pub(super) struct Analysis {
    pub(super) multiline: bool,
    pub(super) block_plain_allowed: bool,
    pub(super) single_quoted_allowed: bool,
    pub(super) block_allowed: bool,
}

pub(super) fn analyze(value: &str) -> Analysis {
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
