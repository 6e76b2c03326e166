//! What the tree builder does when saphyr fails or reads otherwise than go-yaml: read the text
//! again, with a part of it rewritten or masked for saphyr (see [`BuildError::Retry`]).

use std::collections::HashMap;

use saphyr_parser::ScanError;

use super::Builder;
use crate::document::source::{self, Source};
use crate::document::{Fail, flow, quoted};

/// Why [`build`](super::build) stopped.
#[derive(Debug)]
pub(in crate::document) enum BuildError {
    Fail(Fail),
    /// Read `text` instead. With `otherwise`, `text` is the text before a failure, and is only
    /// the answer if it holds a top-level flow collection; else `otherwise` is the error. With
    /// `mask`, a part of the text was masked.
    Retry {
        text: String,
        otherwise: Option<Fail>,
        mask: Option<Mask>,
    },
}

/// A part of the text masked for saphyr, read otherwise by the tree builder.
#[derive(Debug)]
pub(in crate::document) enum Mask {
    /// A double-quoted scalar: the byte of its opening quote, its value.
    Quoted(usize, String),
    /// A flow collection, read by [`flow::read`] (see [`flow::mask`]): the byte of its bracket.
    Flow(usize),
    /// A tag go-yaml reads otherwise than saphyr: the byte of its `!`, the tag.
    Tag(usize, String),
    /// An alias of an anchor saphyr did not see (it was in a masked flow collection): the byte
    /// of its `*`.
    Alias(usize),
}

impl From<Fail> for BuildError {
    fn from(f: Fail) -> Self {
        BuildError::Fail(f)
    }
}

/// What to do about a saphyr error met before the document was complete (see [`build`](super::build)).
pub(super) fn on_error(
    source: &Source<'_>,
    text: &str,
    e: &ScanError,
    maybe_flow_root: bool,
) -> BuildError {
    let fail = source::scan_fail(source, e);
    if let Some(text) = source::rewrite(source, e) {
        return BuildError::Retry {
            text,
            otherwise: None,
            mask: None,
        };
    }
    let at = source.byte_of(*e.marker());
    if e.info().ends_with("found unknown escape character") && text[at..].starts_with('"') {
        return match quoted::decode(text, at) {
            Ok((value, end)) => BuildError::Retry {
                text: quoted::mask(text, at, end),
                otherwise: None,
                mask: Some(Mask::Quoted(at, value)),
            },
            Err(msg) => Fail::new(fail.pos, msg).into(),
        };
    }
    if e.info() == "invalid indentation in quoted scalar"
        && let Some(quote) = text[at..]
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\''))
    {
        // go-yaml (libyaml) does not check the indentation of a quoted scalar's lines.
        return match quoted::decode_quoted(text, at, quote == '\'') {
            Ok((value, end)) => match quoted::mask_to_first_line(text, at, end) {
                Some(text) => BuildError::Retry {
                    text,
                    otherwise: None,
                    mask: Some(Mask::Quoted(at, value)),
                },
                None => BuildError::Fail(fail),
            },
            Err(msg) => Fail::new(fail.pos, msg).into(),
        };
    }
    if maybe_flow_root && at > 0 && at < text.len() {
        let text = format!("{}\n", &text[..at]);
        return BuildError::Retry {
            text,
            otherwise: Some(fail),
            mask: None,
        };
    }
    BuildError::Fail(fail)
}

/// What earlier readings of a document asked to change (see [`BuildError::Retry`]).
#[derive(Debug, Default)]
pub(in crate::document) struct Rewrites {
    /// The values of double-quoted scalars masked, by the byte of their opening quote.
    pub quoted: HashMap<usize, String>,
    /// Flow collections masked for saphyr (see [`flow::mask`]), by the byte of their bracket,
    /// sorted.
    pub flows: Vec<usize>,
    /// Aliases masked (see [`Mask::Alias`]), by the byte of their `*`, sorted.
    pub aliases: Vec<usize>,
    /// Tags masked (see [`Mask::Tag`]), by the byte of their `!`.
    pub tags: HashMap<usize, String>,
}

impl Rewrites {
    /// Adds what a retry masked.
    pub(in crate::document) fn add(&mut self, mask: Mask) {
        let (list, at) = match mask {
            Mask::Quoted(at, value) => {
                self.quoted.insert(at, value);
                return;
            }
            Mask::Tag(at, tag) => {
                self.tags.insert(at, tag);
                return;
            }
            Mask::Flow(at) => (&mut self.flows, at),
            Mask::Alias(at) => (&mut self.aliases, at),
        };
        if let Err(i) = list.binary_search(&at) {
            list.insert(i, at);
        }
    }
}

/// The retry that masks the flow collection at bytes `start..end`, which saphyr fails to read
/// or reads otherwise than go-yaml.
pub(super) fn masked(
    source: &Source<'_>,
    b: &Builder<'_>,
    (start, end): (usize, usize),
    at: saphyr_parser::Marker,
) -> BuildError {
    // The collection is the top node if it was read as such, or if nothing was read yet.
    let top = !b.has_root() || (b.root_is_flow() && b.is_closed());
    match flow::mask(source.text(), start, end, top) {
        Ok(text) => BuildError::Retry {
            text,
            otherwise: None,
            mask: Some(Mask::Flow(start)),
        },
        Err(msg) => Fail::new(source.pos(at), msg).into(),
    }
}

/// For saphyr's error on an alias of an anchor it did not see, because the anchor is in a flow
/// collection masked for it, the retry that masks the alias too.
pub(super) fn masked_alias(
    source: &Source<'_>,
    b: &Builder<'_>,
    e: &ScanError,
) -> Option<BuildError> {
    if !e.info().contains("unknown anchor") {
        return None;
    }
    let m = *e.marker();
    let name = source.name_at(m)?;
    if !b.knows_anchor(name) {
        return None;
    }
    let at = source.byte_of(m);
    let star = at + source.text()[at..].find('*')?;
    let mut text = source.text().as_bytes().to_vec();
    text.get_mut(star..star + 1 + name.len())?.fill(b'x');
    Some(BuildError::Retry {
        text: String::from_utf8(text).ok()?,
        otherwise: None,
        mask: Some(Mask::Alias(star)),
    })
}

/// A saphyr error met while scanning ahead into a flow collection, before its first event: the
/// retry that masks it, or go-yaml's error for it. `last` is where the last event ended.
pub(super) fn flow_ahead(
    source: &Source<'_>,
    original: &str,
    b: &Builder<'_>,
    last: saphyr_parser::Marker,
    e: &ScanError,
) -> Option<BuildError> {
    let from = source.byte_of(last);
    let at = source.byte_of(*e.marker());
    let start = source::next_flow_start(source.text(), from, at)?;
    let mark = source.mark_at(last, start);
    match flow::extent(original, mark, b.block_indent()) {
        Ok(end) if end >= at => Some(masked(source, b, (start, end), *e.marker())),
        Ok(_) => None,
        Err((m, msg)) => Some(Fail::new(b.pos(m.line, m.col), msg).into()),
    }
}

/// For saphyr's error on a tag that go-yaml reads (`!!str,x`: go-yaml's tags take `,`, `[`,
/// `]` and `!`), the retry that masks it; for one go-yaml refuses, go-yaml's error.
pub(super) fn masked_tag(
    source: &Source<'_>,
    original: &str,
    b: &Builder<'_>,
    e: &ScanError,
) -> Option<BuildError> {
    if !e.info().starts_with("while scanning a tag") && !e.info().starts_with("while parsing a tag")
    {
        return None;
    }
    let m = *e.marker();
    let at = source.byte_of(m);
    if !source.text()[at..].starts_with('!') {
        return None;
    }
    match flow::block_tag(original, source.mark_at(m, at)) {
        Ok((end, tag)) => Some(BuildError::Retry {
            text: flow::mask_tag(source.text(), at, end)?,
            otherwise: None,
            mask: Some(Mask::Tag(at, tag)),
        }),
        Err((m, msg)) => Some(Fail::new(b.pos(m.line, m.col), msg).into()),
    }
}
