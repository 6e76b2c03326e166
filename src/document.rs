//! Reading manifests exactly as kubectl reads them: YAML (1.1, the way go-yaml v2 resolves it)
//! and JSON, into [`crate::value::Value`]s, with the position of every key and value.
//!
//! `kubectl apply -f` does not parse YAML the way a YAML 1.2 library does. It sniffs the
//! stream: if the first non-space character is `{` it reads JSON values, otherwise YAML. The
//! YAML stream is cut at `---` lines before parsing (see `split`), each piece goes through go-yaml
//! v2, which resolves plain scalars by YAML 1.1 rules (`yes` → `true`, `010` → 8, `1_000` →
//! 1000), and sigs.k8s.io/yaml turns the result into JSON text that kubectl decodes again
//! (integral floats become integers, keys become strings). This module reproduces each step:
//!
//! | step | file |
//! |---|---|
//! | JSON-or-YAML sniffing, JSON stream, falling back to YAML as kubectl does | here, `json` |
//! | cutting at `---`, control characters | `split` |
//! | YAML events to nodes (saphyr-parser), depth limit | `tree` |
//! | flow collections by go-yaml's rules (indentation, `?`, `:`, tags, comments) | `flow` |
//! | libyaml rules saphyr lacks: names, escapes, key length, tabs after `:` | `source`, `quoted` |
//! | aliases, `<<` merges, keys, duplicate keys, alias budget | `decode` |
//! | scalar resolution and tags (`!!str`, `!!int`, …) | `resolve` |
//! | Go's number parsing and formatting, base64, timestamps | `gonum`, `gofloat`, `goenc` |
//!
//! Every rule was checked against kubectl 1.37 (`kubectl label --local -f FILE a=b -o json`);
//! the recorded answers are the tests in `tests/it/document_yaml.rs`. Some of kubectl's ways are
//! surprising and kept on purpose: a `<<` merge overwrites keys written *before* it (go-yaml v2
//! merges in document order), `--- x` is an error, only the first document between two `---`
//! lines is read (`...` and what follows are ignored), and a file that is not valid JSON although
//! it starts with `{` is read as YAML.
//!
//! Known differences from kubectl:
//! - nesting deeper than [`MAX_DEPTH`] is refused (kubectl allows 10,000);
//! - U+0085, U+2028 and U+2029 are not line breaks (they are in YAML 1.1);
//! - input must be UTF-8 (kubectl also reads UTF-16 YAML, and replaces bad bytes in JSON);
//! - a non-finite float (`.inf`) is an error even where a later duplicate key replaces it;
//! - a document whose top node is a flow collection followed by more text is read up to the
//!   collection, as go-yaml reads `[a] b`, also where go-yaml fails because that text does not
//!   scan as a token (`[a] !x#`);
//! - where two keys become the same string (`1:` and `"1":`) the last wins; kubectl picks one
//!   at random (Go map order).

mod decode;
mod flow;
mod goenc;
mod gofloat;
mod gonum;
mod json;
mod quoted;
mod resolve;
mod source;
mod spans;
mod split;
mod tree;

use crate::value::Value;

pub use resolve::resolves_to_non_string;
pub use spans::{PathSeg, Pos, Span, Spans};

/// The deepest nesting of mappings and sequences accepted (the top-level mapping is level 1).
/// Deeper documents are an error with the position where the limit is crossed, never a stack
/// overflow. kubectl allows 10,000; real manifests stay far below this. It is kept under the
/// engine's own limit (512) and saphyr's limit on flow nesting (254).
pub const MAX_DEPTH: usize = 200;

/// One document of a file: its value as kubectl holds it, and where each part of it was written.
#[derive(Debug, Clone)]
pub struct Document {
    pub value: Value,
    pub spans: Spans,
}

/// Why a file could not be read. Lines and columns start at 1; columns count characters.
/// Displayed on one line as `file:line:col: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct LoadError {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// An error inside this module, before the file name is known.
#[derive(Debug)]
struct Fail {
    pos: Pos,
    msg: String,
}

impl Fail {
    fn new(pos: Pos, msg: impl Into<String>) -> Self {
        Fail {
            pos,
            msg: msg.into(),
        }
    }

    fn into_error(self, file: &str) -> LoadError {
        LoadError {
            file: file.to_owned(),
            line: self.pos.line,
            col: self.pos.col,
            message: self.msg.replace(['\n', '\r'], " "),
        }
    }
}

/// Where a piece of text starts in the file: its line, and how many characters precede it on
/// that line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Origin {
    line: usize,
    col0: usize,
}

const FILE_START: Origin = Origin { line: 1, col0: 0 };

/// Parses every document in a YAML stream (or a stream of JSON values) as kubectl does.
///
/// Empty documents (a lone `---`, only comments, `null`) are skipped, so a file with no
/// document gives `Ok(vec![])`. `file` is only used in error messages.
pub fn parse_documents(src: &str, file: &str) -> Result<Vec<Document>, LoadError> {
    load(src, true).map_err(|f| f.into_error(file))
}

/// Like [`parse_documents`], from bytes: input that is not UTF-8, or holds a NUL byte, is an
/// error that says where.
pub fn parse_documents_bytes(src: &[u8], file: &str) -> Result<Vec<Document>, LoadError> {
    parse_bytes(src, file, true)
}

/// Like [`parse_documents_bytes`], for readers that want the values only: the documents'
/// [`Spans`] are empty (not recording them saves a fifth of the memory and time of reading a
/// large file). Values and errors are the same.
pub fn parse_values_bytes(src: &[u8], file: &str) -> Result<Vec<Document>, LoadError> {
    parse_bytes(src, file, false)
}

fn parse_bytes(src: &[u8], file: &str, spans: bool) -> Result<Vec<Document>, LoadError> {
    if src.starts_with(&[0xFF, 0xFE]) || src.starts_with(&[0xFE, 0xFF]) {
        let msg = "the file is UTF-16; only UTF-8 is read (convert it, e.g. with iconv)";
        return Err(Fail::new(Pos { line: 1, col: 1 }, msg).into_error(file));
    }
    match std::str::from_utf8(src) {
        Ok(text) => load(text, spans).map_err(|f| f.into_error(file)),
        Err(e) => {
            let valid = &src[..e.valid_up_to()];
            let valid = std::str::from_utf8(valid).unwrap_or_default();
            let pos = split::pos_of(valid, FILE_START, valid.len());
            let byte = src.get(e.valid_up_to()).copied().unwrap_or(0);
            let msg = format!("invalid UTF-8 (byte 0x{byte:02X}); kubectl reads UTF-8 only");
            Err(Fail::new(pos, msg).into_error(file))
        }
    }
}

/// Read the documents of `src`; `spans`: whether to record where each value was written.
fn load(src: &str, spans: bool) -> Result<Vec<Document>, Fail> {
    if let Some(at) = src.find('\0') {
        let pos = split::pos_of(src, FILE_START, at);
        return Err(Fail::new(pos, "NUL byte: this is not a text file"));
    }
    let mut docs = Vec::new();
    if src.trim_start().starts_with('{') {
        json_stream(src, &mut docs, spans)?;
    } else {
        yaml_stream(src, FILE_START, &mut docs, spans).map_err(|(f, _)| f)?;
    }
    Ok(docs)
}

/// Reads a YAML stream into `docs`. On error, also says whether it came from the stream's first
/// document (kubectl reports an earlier JSON error instead in that case).
fn yaml_stream(
    src: &str,
    origin: Origin,
    docs: &mut Vec<Document>,
    spans: bool,
) -> Result<(), (Fail, bool)> {
    let (chunks, split_error) = split::split(src, origin);
    for (i, chunk) in chunks.iter().enumerate() {
        yaml_document(chunk, docs, spans).map_err(|f| (f, i == 0))?;
    }
    match split_error {
        Some(f) => Err((f, chunks.is_empty())),
        None => Ok(()),
    }
}

/// Reads one piece of a YAML stream (the text between two `---` lines).
fn yaml_document(
    chunk: &split::Chunk<'_>,
    docs: &mut Vec<Document>,
    record: bool,
) -> Result<(), Fail> {
    split::check_chars(chunk.text, chunk.origin)?;
    // kubectl's line reader ends every line with '\n'; it matters for block scalars at the end.
    let owned;
    let text = if chunk.text.ends_with('\n') {
        chunk.text
    } else {
        owned = format!("{}\n", chunk.text);
        owned.as_str()
    };
    // saphyr may ask to read a rewritten text instead (see `tree::build`). Each rewrite removes
    // a tab, masks a scalar's escapes, a flow collection, a tag or an alias, or shortens the
    // text; each costs a new reading, so their number is bounded too.
    let mut patched: Option<String> = None;
    let mut otherwise: Option<Fail> = None;
    let mut rewrites = tree::Rewrites::default();
    for _ in 0..MAX_REWRITES {
        let read = patched.as_deref().unwrap_or(text);
        let mut tree = match (
            tree::build(read, text, chunk.origin, &rewrites, record),
            otherwise,
        ) {
            (Ok(Some(tree)), None) => tree,
            (Ok(Some(tree)), Some(_)) if tree.root_is_flow => tree,
            (Ok(_), Some(f)) => return Err(f),
            (Ok(None), None) => return Ok(()),
            (Err(tree::BuildError::Fail(f)), o) => return Err(o.unwrap_or(f)),
            // The text before a failure is only tried once.
            (
                Err(tree::BuildError::Retry {
                    otherwise: Some(_), ..
                }),
                Some(o),
            ) => return Err(o),
            (
                Err(tree::BuildError::Retry {
                    text,
                    otherwise: new,
                    mask,
                }),
                o,
            ) => {
                patched = Some(text);
                otherwise = o.or(new);
                if let Some(mask) = mask {
                    rewrites.add(mask);
                }
                continue;
            }
        };
        let (value, spans) = decode::decode(&mut tree, record)?;
        if !value.is_null() {
            docs.push(Document { value, spans });
        }
        return Ok(());
    }
    let pos = Pos {
        line: chunk.origin.line,
        col: chunk.origin.col0 + 1,
    };
    let msg = format!(
        "more than {MAX_REWRITES} YAML 1.1 forms to rewrite in one document (tabs after ':', \\' in double quotes, flow collections, tags)"
    );
    Err(Fail::new(pos, msg))
}

/// How many times one document may be rewritten for saphyr (see [`yaml_document`]).
const MAX_REWRITES: usize = 1000;

/// Reads a stream of JSON values as kubectl's `YAMLOrJSONDecoder` does: when a value is not
/// valid JSON and at most one value was read before it, the rest of the stream (from the end
/// of the last good value, minus blanks up to the end of its line) is read as YAML instead.
fn json_stream(src: &str, docs: &mut Vec<Document>, spans: bool) -> Result<(), Fail> {
    let mut reader = json::Reader::new(src, FILE_START);
    let mut count = 0;
    let mut last_end = 0;
    while reader.skip_ws() {
        match reader.document(spans) {
            Ok((value, spans)) => {
                count += 1;
                last_end = reader.offset();
                if !value.is_null() {
                    docs.push(Document { value, spans });
                }
            }
            Err(json::JsonError::Value(f)) => return Err(f),
            Err(json::JsonError::Syntax(f)) if count > 1 => return Err(f),
            Err(json::JsonError::Syntax(json_error)) => {
                let rest = skip_blank_line(src, last_end);
                let pos = split::pos_of(src, FILE_START, rest);
                let origin = Origin {
                    line: pos.line,
                    col0: pos.col - 1,
                };
                return match yaml_stream(&src[rest..], origin, docs, spans) {
                    Ok(()) => Ok(()),
                    Err((yaml_error, true)) => Err(Fail::new(
                        json_error.pos,
                        format!(
                            "{} (read as YAML instead: line {}, column {}: {})",
                            json_error.msg, yaml_error.pos.line, yaml_error.pos.col, yaml_error.msg
                        ),
                    )),
                    Err((yaml_error, false)) => Err(yaml_error),
                };
            }
        }
    }
    Ok(())
}

/// Skips white space from `at` up to and including the first line break (kubectl's
/// `consumeWhitespace`).
fn skip_blank_line(src: &str, at: usize) -> usize {
    let mut end = at;
    for c in src[at..].chars() {
        if !c.is_whitespace() {
            break;
        }
        end += c.len_utf8();
        if c == '\n' {
            break;
        }
    }
    end
}

#[cfg(test)]
mod tests;
