//! Rewrite the last-applied annotation inside a live object's file, leaving every other byte as
//! it was (comments, order, quoting). YAML and JSON files.
//!
//! The new value keeps the old one's style where it can: a literal block (`|`, as
//! `kubectl get -o yaml` prints the annotation) stays a literal block when the new JSON is one
//! line ending in a newline; anything else is written double-quoted (valid in YAML and JSON).
//! The result is read back and checked to be the intended object before it is returned.

use crate::value::Value;

use crate::document::{self, Pos};
use crate::engine::gojson;
use crate::engine::plan::LAST_APPLIED;
use crate::error::Error;

/// `text` (one object) with its annotation set to `annotation`. `expected` is the object the new
/// text must read as.
///
/// # Errors
/// [`Error::Failed`] when the file cannot be edited in place (several documents, a flow-style
/// `metadata`, ...) or the edit does not read back as `expected`.
pub fn set_annotation(text: &str, annotation: &str, expected: &Value) -> Result<String, Error> {
    let docs = document::parse_documents(text, "live").map_err(|e| fail(e.to_string()))?;
    let [doc] = docs.as_slice() else {
        return Err(fail(format!(
            "the file holds {} documents; expected one",
            docs.len()
        )));
    };
    let mut quoted = String::new();
    gojson::write_string(annotation, &mut quoted);
    let lines = LineIndex::new(text);
    let annotation_path = ["metadata", "annotations", LAST_APPLIED];
    let new = if let Some(span) = doc.spans.get_str(&annotation_path) {
        let key = span
            .key
            .ok_or_else(|| fail("the annotation has no key position"))?;
        let key_at = lines.offset(key).ok_or_else(|| fail("bad key position"))?;
        let colon = text[key_at..]
            .find("last-applied-configuration")
            .and_then(|i| text[key_at + i..].find(':').map(|j| key_at + i + j))
            .ok_or_else(|| fail("no ':' after the annotation key"))?;
        let end = lines
            .offset(span.end)
            .ok_or_else(|| fail("bad end position"))?;
        // Keep the line break and indentation that follow a block scalar.
        let end = match text[..end].rfind('\n') {
            Some(nl) if nl > colon && text[nl + 1..end].chars().all(char::is_whitespace) => nl,
            _ => end,
        };
        let value_start = lines
            .offset(span.value)
            .ok_or_else(|| fail("bad value position"))?;
        let json = text.trim_start().starts_with('{');
        let was_literal = text[colon + 1..]
            .trim_start_matches([' ', '\t'])
            .starts_with('|');
        if json {
            let value_end = lines
                .offset(span.end)
                .ok_or_else(|| fail("bad end position"))?;
            format!("{}{quoted}{}", &text[..value_start], &text[value_end..])
        } else if was_literal && let Some(body) = literal_line(annotation) {
            let indent = " ".repeat(key.col.saturating_sub(1) + 2);
            format!("{} |\n{indent}{body}{}", &text[..=colon], &text[end..])
        } else {
            format!("{} {quoted}{}", &text[..=colon], &text[end..])
        }
    } else if let Some(span) = doc.spans.get_str(&["metadata", "annotations"]) {
        insert_line(
            text,
            &lines,
            span.value,
            &format!("{LAST_APPLIED}: {quoted}"),
        )?
    } else if let Some(span) = doc.spans.get_str(&["metadata"]) {
        let indent = span.value.col.saturating_sub(1);
        let line = format!(
            "annotations:\n{}  {LAST_APPLIED}: {quoted}",
            " ".repeat(indent)
        );
        insert_line(text, &lines, span.value, &line)?
    } else {
        return Err(fail("the object has no metadata"));
    };
    let check = document::parse_documents(&new, "live").map_err(|e| fail(e.to_string()))?;
    match check.as_slice() {
        [d] if d.value == *expected => Ok(new),
        _ => Err(fail(
            "cannot edit this file in place (flow style or JSON without the annotation)",
        )),
    }
}

/// The rewrite cannot be done (the message says why); the file is left as it was.
fn fail(message: impl Into<String>) -> Error {
    Error::Failed(message.into())
}

/// The annotation's one line when a clipped literal block (`|`) reads back as exactly it: one
/// line of printable text without leading or trailing blanks, then one newline.
fn literal_line(annotation: &str) -> Option<&str> {
    let body = annotation.strip_suffix('\n')?;
    let printable =
        |c: char| !c.is_control() && !matches!(c, '\u{feff}' | '\u{85}' | '\u{2028}' | '\u{2029}');
    (!body.is_empty()
        && body.chars().all(printable)
        && !body.starts_with([' ', '#'])
        && !body.ends_with(' '))
    .then_some(body)
}

/// Insert `line` (without indentation) before the block-map entry that starts at `at`, with the
/// same indentation.
fn insert_line(text: &str, lines: &LineIndex<'_>, at: Pos, line: &str) -> Result<String, Error> {
    let start = lines
        .offset(Pos {
            line: at.line,
            col: 1,
        })
        .ok_or_else(|| fail("bad position"))?;
    let indent = at.col.saturating_sub(1);
    if !text[start..].chars().take(indent).all(|c| c == ' ') {
        return Err(fail("not a block-style map"));
    }
    Ok(format!(
        "{}{}{line}\n{}",
        &text[..start],
        " ".repeat(indent),
        &text[start..]
    ))
}

/// Byte offsets of line starts, to turn (line, column in characters) into a byte offset.
struct LineIndex<'t> {
    starts: Vec<usize>,
    text: &'t str,
}

impl<'t> LineIndex<'t> {
    fn new(text: &'t str) -> LineIndex<'t> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts, text }
    }

    fn offset(&self, pos: Pos) -> Option<usize> {
        let start = *self.starts.get(pos.line.checked_sub(1)?)?;
        let line = &self.text[start..];
        let within = line
            .char_indices()
            .nth(pos.col.checked_sub(1)?)
            .map_or(line.len(), |(i, _)| i);
        Some((start + within).min(self.text.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn expected(text: &str, annotation: &str) -> Value {
        let mut v = document::parse_documents(text, "t")
            .unwrap()
            .remove(0)
            .value;
        v["metadata"]["annotations"][LAST_APPLIED] = json!(annotation);
        v
    }

    #[test]
    fn replaces_a_block_scalar_keeping_the_rest() {
        let text = "# live\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"a\":1}\n    other: x  # keep me\n  name: x\n";
        let new = set_annotation(
            text,
            "{\"b\":\"<2>\"}\n",
            &expected(text, "{\"b\":\"<2>\"}\n"),
        )
        .unwrap();
        assert_eq!(
            new,
            "# live\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"b\":\"<2>\"}\n    other: x  # keep me\n  name: x\n"
        );
        // Not one clean line: double-quoted instead.
        for odd in ["{\"b\":\"\t\"}\n", "{\"b\":1}", " {}\n", "{}\n\n"] {
            let new = set_annotation(text, odd, &expected(text, odd)).unwrap();
            let mut quoted = String::new();
            gojson::write_string(odd, &mut quoted);
            assert!(new.contains(&format!("configuration: {quoted}\n")), "{new}");
        }
    }

    #[test]
    fn inserts_the_annotation_where_there_is_none() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b\n";
        let new = set_annotation(text, "{}\n", &expected(text, "{}\n")).unwrap();
        assert!(new.starts_with("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: \"{}\\n\"\n  name: x\n"), "{new}");
    }

    #[test]
    fn replaces_in_json() {
        let text = "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"x\", \"annotations\": {\"kubectl.kubernetes.io/last-applied-configuration\": \"old\"}}\n}\n";
        let new = set_annotation(text, "{}\n", &expected(text, "{}\n")).unwrap();
        assert!(
            new.contains("\"kubectl.kubernetes.io/last-applied-configuration\": \"{}\\n\"}}"),
            "{new}"
        );
    }
}
