//! Syntax highlighting of the text views (the patch view's YAML documents, the annotation's
//! JSON) with syntect's bundled grammars, one visible line at a time.
//!
//! The panes need no highlighter: `app::yaml` writes their lines from the typed documents, so
//! each token's kind is known exactly, as kubectl (YAML 1.1) reads it. The text views show
//! text, so a grammar finds the tokens. Each line is parsed from a fresh state, which is exact
//! for go-yaml's block style (a line is a key, an item or a scalar) once the lines of block
//! scalars (`key: |`) are set apart as string content (`ui::patch` does): the cost is bounded
//! by what is visible, whatever the document's size.

use std::sync::OnceLock;

use ratatui::style::Style;
use ratatui::text::Span;
use syntect::easy::ScopeRangeIterator;
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxSet};

use crate::theme::Theme;

/// The language of a text view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Yaml,
    Json,
}

/// What a piece of a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Key,
    /// A key naming a strategic-merge-patch directive (`$patch`, `$setElementOrder/…`).
    Directive,
    Str,
    Num,
    Bool,
    Null,
    Punct,
    Comment,
    Plain,
}

/// Longest piece of a line given to the grammar: a line is cut to the view's width first, and
/// a pathological line cannot make a backtracking regex run long.
const MAX_BYTES: usize = 1024;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_nonewlines)
}

/// The pieces of `line`, classified; they concatenate to `line` (cut at `MAX_BYTES`, the rest
/// plain).
#[must_use]
pub fn classify(lang: Lang, line: &str) -> Vec<(Class, &str)> {
    let cut = floor_char_boundary(line, MAX_BYTES);
    let (head, tail) = line.split_at(cut);
    let mut out = pieces(lang, head).unwrap_or_else(|| vec![(Class::Plain, head)]);
    if !tail.is_empty() {
        out.push((Class::Plain, tail));
    }
    out
}

fn pieces(lang: Lang, line: &str) -> Option<Vec<(Class, &str)>> {
    let set = syntaxes();
    let syntax = set.find_syntax_by_extension(match lang {
        Lang::Yaml => "yaml",
        Lang::Json => "json",
    })?;
    let ops = ParseState::new(syntax).parse_line(line, set).ok()?;
    let mut stack = ScopeStack::new();
    let mut out: Vec<(Class, &str)> = Vec::new();
    let mut start = 0;
    let mut current = Class::Plain;
    for (range, op) in ScopeRangeIterator::new(&ops, line) {
        stack.apply(op).ok()?;
        if range.is_empty() {
            continue;
        }
        let class = class_of(stack.as_slice(), line.get(range.clone())?);
        if class != current && range.start > start {
            out.push((current, line.get(start..range.start)?));
            start = range.start;
        }
        current = class;
    }
    if start < line.len() {
        out.push((current, line.get(start..)?));
    }
    Some(out)
}

/// The class of a token from its scopes, innermost first; a key is a key whatever the scopes
/// inside it say.
fn class_of(scopes: &[Scope], text: &str) -> Class {
    let names: Vec<String> = scopes.iter().rev().map(|s| s.build_string()).collect();
    let has = |prefix: &str| names.iter().any(|n| n.starts_with(prefix));
    // A string's quotes belong to the string (or the key).
    if names
        .iter()
        .any(|n| n.starts_with("punctuation") && !n.starts_with("punctuation.definition.string"))
    {
        return Class::Punct;
    }
    if has("entity.name.tag") || has("meta.mapping.key") || has("meta.structure.dictionary.key") {
        let bare = text.trim_matches('"');
        return if bare.starts_with('$') {
            Class::Directive
        } else {
            Class::Key
        };
    }
    for n in &names {
        let class = if n.starts_with("comment") {
            Class::Comment
        } else if n.starts_with("constant.numeric") {
            Class::Num
        } else if n.starts_with("constant.language.null") {
            Class::Null
        } else if n.starts_with("constant.language") {
            if text.trim() == "null" || text.trim() == "~" {
                Class::Null
            } else {
                Class::Bool
            }
        } else if n.starts_with("string") {
            Class::Str
        } else {
            continue;
        };
        return class;
    }
    Class::Plain
}

/// The largest char boundary of `s` at or below `max`.
fn floor_char_boundary(s: &str, max: usize) -> usize {
    if s.len() <= max {
        return s.len();
    }
    (0..=max)
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0)
}

/// The style of a class.
#[must_use]
pub fn style(theme: &Theme, class: Class) -> Style {
    match class {
        Class::Key => theme.key,
        Class::Directive => theme.directive,
        Class::Str => theme.string,
        Class::Num => theme.number,
        Class::Bool => theme.boolean,
        Class::Null => theme.null,
        Class::Punct => theme.punct,
        Class::Comment => theme.muted,
        Class::Plain => Style::new(),
    }
}

/// `line` as styled spans, cut to `width` columns' worth of bytes first (a cheap upper bound:
/// a column is at least one byte), each span patched over `base`.
#[must_use]
pub fn spans<'a>(
    theme: &Theme,
    lang: Lang,
    line: &'a str,
    width: usize,
    base: Style,
) -> Vec<Span<'a>> {
    let cut = floor_char_boundary(line, width.saturating_mul(4));
    classify(lang, &line[..cut])
        .into_iter()
        .map(|(class, text)| Span::styled(text, style(theme, class).patch(base)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(lang: Lang, line: &str) -> Vec<(Class, String)> {
        classify(lang, line)
            .into_iter()
            .filter(|(_, t)| !t.trim().is_empty())
            .map(|(c, t)| (c, t.trim().to_owned()))
            .collect()
    }

    #[test]
    fn yaml_keys_and_scalars() {
        assert_eq!(
            classes(Lang::Yaml, "  replicas: 3"),
            vec![
                (Class::Key, "replicas".into()),
                (Class::Punct, ":".into()),
                (Class::Num, "3".into())
            ]
        );
        assert_eq!(
            classes(Lang::Yaml, "- name: nginx"),
            vec![
                (Class::Punct, "-".into()),
                (Class::Key, "name".into()),
                (Class::Punct, ":".into()),
                (Class::Str, "nginx".into())
            ]
        );
        let on = classes(Lang::Yaml, "enabled: true");
        assert_eq!(on.last(), Some(&(Class::Bool, "true".into())), "{on:?}");
        let null = classes(Lang::Yaml, "image: null");
        assert_eq!(null.last(), Some(&(Class::Null, "null".into())), "{null:?}");
        let quoted = classes(Lang::Yaml, "a: \"yes\"");
        assert!(
            quoted
                .iter()
                .any(|(c, t)| *c == Class::Str && t.contains("yes")),
            "{quoted:?}"
        );
    }

    #[test]
    fn directives_stand_out() {
        let line = classes(Lang::Yaml, "$setElementOrder/containers:");
        assert_eq!(
            line.first().map(|p| p.0),
            Some(Class::Directive),
            "{line:?}"
        );
        let line = classes(Lang::Yaml, "  $patch: delete");
        assert_eq!(
            line.first().map(|p| p.0),
            Some(Class::Directive),
            "{line:?}"
        );
    }

    #[test]
    fn json_keys_and_values() {
        let line = classes(Lang::Json, r#"{"op":"add","path":"/a","value":1}"#);
        assert!(line.contains(&(Class::Key, "\"op\"".into())), "{line:?}");
        assert!(line.contains(&(Class::Str, "\"add\"".into())), "{line:?}");
        assert!(line.contains(&(Class::Num, "1".into())), "{line:?}");
    }

    #[test]
    fn pieces_concatenate_to_the_line_and_long_lines_are_cut() {
        for line in [
            "  - name: a # comment",
            "x: \"\\u001b[31m\"",
            "ключ: значение",
            "",
            ":::",
        ] {
            let joined: String = classify(Lang::Yaml, line).iter().map(|p| p.1).collect();
            assert_eq!(joined, line);
        }
        let long = format!("k: {}", "é".repeat(5000));
        let pieces = classify(Lang::Yaml, &long);
        let joined: String = pieces.iter().map(|p| p.1).collect();
        assert_eq!(joined, long);
        assert_eq!(pieces.last().map(|p| p.0), Some(Class::Plain));
    }
}
